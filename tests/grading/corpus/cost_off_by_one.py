"""Bug: off by one in the growth term, N(N + 1)/2 instead of N(N - 1)/2."""

EXERCISE = "04_cost"
FAILS = {"cumulative_input_matches_formula", "first_turn_over_budget_is_strict"}
EXPECT = "Off by one in the growth term"


def cumulative_input(prefix, per_turn, turns):
    return turns * prefix + per_turn * turns * (turns + 1) // 2
