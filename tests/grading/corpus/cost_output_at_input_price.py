"""Bug: the output is priced at the input price."""

EXERCISE = "04_cost"
FAILS = {"run_cost_prices_cached_input", "run_cost_prices_cache_writes",
         "run_cost_sums_every_call", "usage_anthropic_adds_cache_reads",
         "usage_openai_cached_inside_prompt"}
EXPECT = "output x output price"


def run_cost(usages, prices):
    total = 0.0
    for usage in usages:
        read, written = usage["cached_input_tokens"], usage["cache_write_tokens"]
        total += ((usage["input_tokens"] - read - written + usage["output_tokens"])
                  * prices["input"] + read * prices["cached_input"]
                  + written * prices["cache_write"])
    return total / 1_000_000
