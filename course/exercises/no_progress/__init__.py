"""Exercise 3, no progress: `checks` grades `call_key` and `NoProgress`; `sequences` are the calls
they observe."""

WITHHELD = (
    "harness.progress",
)
"""What a graded kernel of this exercise does not get (`grader.withhold`): `call_key` and the
detector, the reference for both graded functions."""
