"""Bug: cancel is checked right after every reply, before the reply is read: a cut reply or a final
answer that came back as the user pressed stop is thrown away as interrupted."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_interrupted"}
EXPECT = 'reference: "truncated"'
PATCH = [
    ("""\
        calls = reply.message.tool_calls
        if reply.stop_reason == StopReason.MAX_TOKENS:
            return end(Exit.TRUNCATED, pending=calls, text=NOT_EXECUTED_TRUNCATED)""",
     """\
        calls = reply.message.tool_calls
        if stopped():  # the user pressed stop while we waited
            return end(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
        if reply.stop_reason == StopReason.MAX_TOKENS:
            return end(Exit.TRUNCATED, pending=calls, text=NOT_EXECUTED_TRUNCATED)"""),
]
