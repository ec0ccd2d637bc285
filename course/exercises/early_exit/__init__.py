"""Exercise 2, early exit: `checks` grades `run_loop`; `runs` logs and compares the two runs."""

WITHHELD = (
    "harness.loop",
)
"""What a graded kernel of this exercise does not get (`grader.withhold`): the library's loop,
the reference `run_loop` is built on (its constants, the texts the exercise uses, stay)."""
