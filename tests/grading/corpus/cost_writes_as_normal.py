"""Bug: cache writes are priced as ordinary input; the cache_write premium is ignored."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cache_writes", "usage_anthropic_adds_cache_reads"}
EXPECT = "Cache writes were priced as normal input"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        cached = usage["cached_input_tokens"]
        total += ((usage["input_tokens"] - cached) * prices["input"]
                  + cached * prices["cached_input"] + usage["output_tokens"] * prices["output"])
    return total / 1_000_000
