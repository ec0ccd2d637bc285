"""Bug: OpenAI's cached tokens are also reported as cache writes; OpenAI reports no writes."""

EXERCISE = "04_cost"
FAILS = {"usage_openai_cached_inside_prompt"}
EXPECT = "its cache_write_tokens are 0"
PATCH = [('    "cache_write_tokens": 0,\n',
          '    "cache_write_tokens": openai["prompt_tokens_details"]["cached_tokens"],\n')]
