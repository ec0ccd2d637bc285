"""Bug: cancel is checked only before each model call, so the calls of a reply still run after the
user pressed stop."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_interrupted"}
EXPECT = 'reference: "Cancelled..."'
PATCH = [
    ("""\
        if stopped():
            return end(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
""",
     """\
"""),
]
