"""Bug: a run with no calls gives None instead of costing 0."""

EXERCISE = "04_cost"
FAILS = {"run_cost_sums_every_call"}
EXPECT = "A run with no calls costs nothing"


def run_cost(usages, prices):
    if not usages:
        return None
    total = 0.0
    for usage in usages:
        read, written = usage["cached_input_tokens"], usage["cache_write_tokens"]
        total += ((usage["input_tokens"] - read - written) * prices["input"]
                  + read * prices["cached_input"] + written * prices["cache_write"]
                  + usage["output_tokens"] * prices["output"])
    return total / 1_000_000
