"""Bug: the token budget counts input tokens only, so a run whose replies are long goes over it
without stopping."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_token_cap"}
EXPECT = "budget_by_output"
PATCH = [
    ("""\
        if token_budget is not None and result.usage.total_tokens > token_budget:""",
     """\
        if token_budget is not None and result.usage.input_tokens > token_budget:"""),
]
