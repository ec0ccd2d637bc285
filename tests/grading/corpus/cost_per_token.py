"""Bug: the prices are taken as dollars per token; the division by one million is missing."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cached_input", "run_cost_prices_cache_writes",
         "run_cost_sums_every_call", "usage_anthropic_adds_cache_reads",
         "usage_openai_cached_inside_prompt"}
EXPECT = "dollars per MILLION tokens"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        read, written = usage["cached_input_tokens"], usage["cache_write_tokens"]
        total += ((usage["input_tokens"] - read - written) * prices["input"]
                  + read * prices["cached_input"] + written * prices["cache_write"]
                  + usage["output_tokens"] * prices["output"])
    return total
