"""Cheat: the cost functions are the reference, imported from harness.cost."""

from harness.cost import cumulative_input, first_turn_over_budget, run_cost  # noqa: F401

EXERCISE = "04_cost"
FAILS = {"cumulative_input_matches_formula", "first_turn_over_budget_is_strict",
         "run_cost_prices_cached_input", "run_cost_prices_cache_writes",
         "run_cost_sums_every_call"}
EXPECT = "the reference implementation"

