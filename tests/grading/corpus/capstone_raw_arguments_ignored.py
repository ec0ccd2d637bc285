"""Bug: the detector is shown each call's parsed arguments only: two different calls whose text did
not parse both look like a call with no arguments, and a run that makes progress is stopped."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_no_progress"}
EXPECT = "unparseable_arguments, after call 3"
PATCH = [
    ("""\
        keys = [call_key(c.name, c.raw_arguments or c.arguments) for c in calls]
        repeated = [detector.observe(c.name, c.raw_arguments or c.arguments,""",
     """\
        keys = [call_key(c.name, c.arguments) for c in calls]
        repeated = [detector.observe(c.name, c.arguments,"""),
]
