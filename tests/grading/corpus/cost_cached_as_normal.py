"""Bug: cached input tokens are priced at the full input price."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cached_input", "usage_anthropic_adds_cache_reads",
         "usage_openai_cached_inside_prompt"}
EXPECT = "priced as normal input"


def run_cost(usages, prices):
    return sum((u["input_tokens"] - u["cache_write_tokens"]) * prices["input"]
               + u["cache_write_tokens"] * prices["cache_write"]
               + u["output_tokens"] * prices["output"] for u in usages) / 1_000_000
