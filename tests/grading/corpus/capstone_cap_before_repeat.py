"""Bug: the turn cap is checked before the detector: a repeat on the last turn makes the closing
call instead of ending no_progress."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_no_progress"}
EXPECT = "repeat_at_the_cap"
PATCH = [
    ("""\
        keys = [call_key(c.name, c.raw_arguments or c.arguments) for c in calls]""",
     """\
        if turn == max_turns:
            break  # out of turns: nothing else matters
        keys = [call_key(c.name, c.raw_arguments or c.arguments) for c in calls]"""),
]
