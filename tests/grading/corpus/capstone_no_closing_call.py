"""Bug: at the turn cap the pending calls are answered, but no closing call is made."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_turn_cap", "run_agent_error"}
EXPECT = '4 model call(s), then returns'
PATCH = [
    ("""\
    reply = send(closing, "none")
    if reply is None:""",
     """\
    return end(Exit.TURN_CAP)  # no closing call: the user gets nothing
    reply = send(closing, "none")
    if reply is None:"""),
]
