"""Bug: with parallel_tools every call of a reply runs at once, exclusive ones too."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_parallel_batches"}
EXPECT = 'overlapped another batch'
PATCH = [
    ("""\
                if call is not None and tools.mode_of(call) == "parallel":""",
     """\
                if call is not None:  # exclusive calls join the batch too"""),
]
