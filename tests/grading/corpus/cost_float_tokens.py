"""Bug: the growth term is divided with /, so the token count comes back as a float."""

EXERCISE = "04_cost"
FAILS = {"cumulative_input_matches_formula"}
EXPECT = "whole numbers: return an int"


def cumulative_input(prefix, per_turn, turns):
    return turns * prefix + per_turn * turns * (turns - 1) / 2
