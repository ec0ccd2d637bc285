"""Bug: only the first call of each reply is shown to the detector, so a call repeated later in a
reply (after the first, or after a failed call beside it) runs again."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_no_progress"}
EXPECT = "openai_chat/repeat_beside_error"
PATCH = [
    ("""\
                    for c, key in zip(calls, keys, strict=True)]""",
     """\
                    for c, key in zip(calls[:1], keys, strict=False)]  # one per reply"""),
]
