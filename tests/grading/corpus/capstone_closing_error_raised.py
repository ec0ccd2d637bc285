"""Bug: the closing call is made outside the loop's error handling, so a 429 or 529 on it escapes
as an exception instead of ending the run with status error."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_error"}
EXPECT = "closing_overloaded"
PATCH = [
    ("""\
    reply = send(closing, "none")
    if reply is None:
        return end(Exit.ERROR)
""",
     """\
    reply = model.complete(closing, tools=tools.specs, tool_choice="none")
    history.append(reply.message)
    result.usage += reply.usage
"""),
]
