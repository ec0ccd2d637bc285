"""Cheat: the cost functions are the reference, imported from harness.cost."""

from harness.cost import cumulative_input, first_turn_over_budget, run_cost  # noqa: F401

EXERCISE = "04_cost"
# The library's run_cost takes Usage and Price, not the exercise's dicts: the usage questions,
# which call run_cost on dicts, fail too.
FAILS = {"cumulative_input_matches_formula", "first_turn_over_budget_is_strict",
         "run_cost_prices_cached_input", "run_cost_prices_cache_writes",
         "run_cost_sums_every_call", "usage_anthropic_adds_cache_reads",
         "usage_openai_cached_inside_prompt"}
EXPECT = "the reference implementation"
EXPECT_GRADED = "is withheld while this notebook is graded"

