"""Bug: a reply cut at the token limit still has its calls run before the run ends truncated (they
were written, so why not)."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_truncated"}
EXPECT = "truncated_with_calls, messages returned"
PATCH = [
    ("""\
            return end(Exit.TRUNCATED, pending=calls, text=NOT_EXECUTED_TRUNCATED)""",
     """\
            history.extend(run_tools(calls))
            return end(Exit.TRUNCATED)"""),
]
