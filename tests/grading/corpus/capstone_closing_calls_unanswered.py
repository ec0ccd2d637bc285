"""Bug: a closing reply that still calls a tool is taken as it comes: its text (none) is the answer
and its call is left without a result."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_turn_cap"}
EXPECT = "closing_calls_a_tool, messages returned"
PATCH = [
    ("""\
    if reply.stop_reason == StopReason.MAX_TOKENS or calls:  # not an answer either""",
     """\
    if reply.stop_reason == StopReason.MAX_TOKENS:  # tool_choice none: no calls to fear"""),
]
