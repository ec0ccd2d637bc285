"""Bug: the Anthropic reply is priced at the OpenAI prices (everything else right)."""

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads"}
EXPECT = "the other provider's prices"
PATCH = [('answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]], '
          'mine.anthropic_prices)',
          'answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]], mine.openai_prices)')]
