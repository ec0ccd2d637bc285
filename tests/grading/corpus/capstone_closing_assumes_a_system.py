"""Bug: the closing call always takes the first message as the system prompt: with no system
prompt, the user's question becomes one and is not sent as a question any more."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_turn_cap"}
EXPECT = "capped_without_system"
PATCH = [
    ("""\
    if history and isinstance(history[0], SystemMessage):
        system = SystemMessage(content=history[0].content + "\\n\\n" + CLOSING_INSTRUCTION)
        closing = [system, *history[1:]]
    else:
        closing = [SystemMessage(content=CLOSING_INSTRUCTION), *history]""",
     """\
    system = SystemMessage(content=history[0].content + "\\n\\n" + CLOSING_INSTRUCTION)
    closing = [system, *history[1:]]  # the system prompt comes first"""),
]
