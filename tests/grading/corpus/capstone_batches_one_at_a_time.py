"""Bug: parallel_tools is ignored: every call runs alone, one after another."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_parallel_batches"}
EXPECT = 'they ran one at a time'
PATCH = [
    ("""\
        if not parallel_tools:
            return [execute(tools, call) for call in calls]""",
     """\
        if True:  # parallel_tools ignored
            return [execute(tools, call) for call in calls]"""),
]
