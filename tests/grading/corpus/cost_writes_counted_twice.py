"""Bug: cache writes are added on top of input_tokens, which already includes them."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cache_writes", "usage_anthropic_adds_cache_reads"}
EXPECT = "Cache writes were counted twice"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        cached = usage["cached_input_tokens"]
        total += ((usage["input_tokens"] - cached) * prices["input"]
                  + cached * prices["cached_input"]
                  + usage["cache_write_tokens"] * prices["cache_write"]
                  + usage["output_tokens"] * prices["output"])
    return total / 1_000_000
