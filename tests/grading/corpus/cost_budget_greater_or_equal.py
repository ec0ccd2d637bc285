"""Bug: the budget is compared with >= instead of >."""

EXERCISE = "04_cost"
FAILS = {"first_turn_over_budget_is_strict"}
EXPECT = "not >="


def first_turn_over_budget(prefix, per_turn, budget):
    turn = 1
    while cumulative_input(prefix, per_turn, turn) < budget:  # noqa: F821 (the cell above)
        turn += 1
    return turn
