"""Bug: the budget is checked on every reply, before looking for calls: a final answer that goes
over the budget is thrown away as token_cap."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_token_cap", "run_agent_interrupted"}
EXPECT = "budget_after_answer, status"
PATCH = [
    ("""\
        if not calls:
            return end(Exit.DONE, reply.message.content)""",
     """\
        if token_budget is not None and result.usage.total_tokens > token_budget:
            return end(Exit.TOKEN_CAP, pending=calls, text=NOT_EXECUTED_BUDGET)
        if not calls:
            return end(Exit.DONE, reply.message.content)"""),
]
