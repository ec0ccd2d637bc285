"""Bug: when any result of a reply was an error, every call of the next reply counts as a retry, so
a call repeated beside a failed one is never caught."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_no_progress"}
EXPECT = "repeat_beside_error"
PATCH = [
    ("""\
        errored = {key for key, r in zip(keys, results, strict=True) if r.is_error}""",
     """\
        errored = any(r.is_error for r in results)  # did the last round fail?"""),
    ("""\
                                     previous_was_error=key in errored)""",
     """\
                                     previous_was_error=bool(errored))"""),
]
