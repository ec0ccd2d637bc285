"""Bug: usage is added up for the turns with tools only: the closing call's tokens are left out of
result.usage."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_turn_cap"}
EXPECT = "usage"
PATCH = [
    ("""\
        result.usage += reply.usage
        return reply""",
     """\
        if tool_choice == "auto":  # the closing call is not a turn
            result.usage += reply.usage
        return reply"""),
]
