"""Bug: a reply without tool calls ends the run as done, but with no answer."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_done"}
EXPECT = 'umbrella, answer'
PATCH = [
    ("""\
return end(Exit.DONE, reply.message.content)""",
     """\
return end(Exit.DONE)  # the text is forgotten"""),
]
