"""Bug: the no-progress detector is never told that the last result was an error, so a retry stops
the run."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_no_progress"}
EXPECT = 'retry_after_timeout'
PATCH = [
    ("""\
errored = {key for key, r in zip(keys, results, strict=True) if r.is_error}""",
     """\
errored = {c.name for c, r in zip(calls, results, strict=True) if r.is_error}  # names"""),
]
