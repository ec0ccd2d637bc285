"""Bug: a cut reply ends the run truncated, but the call it wrote is left without a result."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_truncated"}
EXPECT = "truncated_with_calls, messages returned"
PATCH = [
    ("""\
            return end(Exit.TRUNCATED, pending=calls, text=NOT_EXECUTED_TRUNCATED)""",
     """\
            return end(Exit.TRUNCATED)  # a cut reply: nothing to answer"""),
]
