"""Bug: the cached and written tokens are subtracted from input_tokens in the caller's dicts."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cached_input", "run_cost_prices_cache_writes",
         "usage_anthropic_adds_cache_reads", "usage_openai_cached_inside_prompt"}
EXPECT = "leave them as they were"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        usage["input_tokens"] -= usage["cached_input_tokens"] + usage["cache_write_tokens"]
        total += (usage["input_tokens"] * prices["input"]
                  + usage["cached_input_tokens"] * prices["cached_input"]
                  + usage["cache_write_tokens"] * prices["cache_write"]
                  + usage["output_tokens"] * prices["output"])
    return total / 1_000_000
