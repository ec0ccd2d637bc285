"""Bug: the OpenAI reply is priced at the Anthropic prices (everything else right)."""

EXERCISE = "04_cost"
FAILS = {"usage_openai_cached_inside_prompt"}
EXPECT = "the other provider's prices"
PATCH = [('answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.openai_prices)',
          'answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.anthropic_prices)')]
