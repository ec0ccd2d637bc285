"""Bug: the detector is asked before the budget: a repeat in a reply that also goes over the budget
ends no_progress, not token_cap."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_token_cap"}
EXPECT = "repeat_over_budget, status"
PATCH = [
    ("""\
        if token_budget is not None and result.usage.total_tokens > token_budget:
            return end(Exit.TOKEN_CAP, pending=calls, text=NOT_EXECUTED_BUDGET)
""",
     """\
"""),
    ("""\
        if any(repeated):
            return end(Exit.NO_PROGRESS, pending=calls, text=NOT_EXECUTED_REPEAT)
""",
     """\
        if any(repeated):
            return end(Exit.NO_PROGRESS, pending=calls, text=NOT_EXECUTED_REPEAT)
        if token_budget is not None and result.usage.total_tokens > token_budget:
            return end(Exit.TOKEN_CAP, pending=calls, text=NOT_EXECUTED_BUDGET)
"""),
]
