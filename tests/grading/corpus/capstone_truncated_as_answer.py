"""Bug: a reply cut at the output-token limit is taken as the answer (status done)."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_truncated", "run_agent_interrupted"}
EXPECT = 'reference: "truncated"'
PATCH = [
    ("""\
        if reply.stop_reason == StopReason.MAX_TOKENS:
            return end(Exit.TRUNCATED, pending=calls, text=NOT_EXECUTED_TRUNCATED)
""",
     """\
"""),
]
