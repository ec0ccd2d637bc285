"""Bug: a call that failed once is remembered as failed for the rest of the run, so after its retry
succeeds it can be repeated forever."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_no_progress"}
EXPECT = "repeat_after_retry"
PATCH = [
    ("""\
        errored = {key for key, r in zip(keys, results, strict=True) if r.is_error}""",
     """\
        errored |= {key for key, r in zip(keys, results, strict=True) if r.is_error}"""),
]
