"""Bug: cached tokens are added on top of input_tokens, which already includes them."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cached_input", "usage_anthropic_adds_cache_reads",
         "usage_openai_cached_inside_prompt"}
EXPECT = "counted twice"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        total += (usage["input_tokens"] - usage["cache_write_tokens"]) * prices["input"]
        total += usage["cached_input_tokens"] * prices["cached_input"]
        total += usage["cache_write_tokens"] * prices["cache_write"]
        total += usage["output_tokens"] * prices["output"]
    return total / 1_000_000
