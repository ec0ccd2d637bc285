"""Bug: at the turn cap the closing reply is checked for tool calls but not for the token limit: a
closing reply cut off mid-sentence is returned as the answer."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_turn_cap"}
EXPECT = "closing_cut, answer"
PATCH = [
    ("""\
    if reply.stop_reason == StopReason.MAX_TOKENS or calls:  # not an answer either""",
     """\
    if calls:  # tool_choice was none: a call would be the only way to go wrong"""),
]
