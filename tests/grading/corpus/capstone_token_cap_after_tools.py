"""Bug: the token budget is checked after the reply's calls ran, not before."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_token_cap"}
EXPECT = 'reference: "Not executed..."'
PATCH = [
    ("""\
        if token_budget is not None and result.usage.total_tokens > token_budget:
            return end(Exit.TOKEN_CAP, pending=calls, text=NOT_EXECUTED_BUDGET)
""",
     """\
"""),
    ("""\
        errored = {key for key, r in zip(keys, results, strict=True) if r.is_error}
""",
     """\
        errored = {key for key, r in zip(keys, results, strict=True) if r.is_error}
        if token_budget is not None and result.usage.total_tokens > token_budget:
            return end(Exit.TOKEN_CAP)  # one step late: the calls already ran
"""),
]
