"""Bug: Anthropic's cache writes are added to the input but not reported as cache writes."""

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads"}
EXPECT = "cache_creation_input_tokens are cache writes"
PATCH = [('    "cache_write_tokens": anthropic["cache_creation_input_tokens"],\n',
          '    "cache_write_tokens": 0,\n')]
