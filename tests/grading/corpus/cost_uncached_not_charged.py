"""Bug: only the cached and written input is priced; the rest of the input is left out."""

EXERCISE = "04_cost"
# The Anthropic answer survives: its uncached part is a few dozen tokens, inside the tolerance.
FAILS = {"run_cost_prices_cached_input", "run_cost_prices_cache_writes",
         "run_cost_sums_every_call", "usage_openai_cached_inside_prompt"}
EXPECT = "The cost is (input - cached - written) x input price"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        total += (usage["cached_input_tokens"] * prices["cached_input"]
                  + usage["cache_write_tokens"] * prices["cache_write"]
                  + usage["output_tokens"] * prices["output"])
    return total / 1_000_000
