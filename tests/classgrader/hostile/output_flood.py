"""A flood of output across cells, each output under the batch's cut of any one output: twenty
cells show sixty 99,000-character outputs each (119 million characters), before the tests of a
solution with a bug. The grading process keeps the notebook's first 500,000 characters and a note
(nothing more reaches its memory or the gradebook), and the failed test still fails. Not run
under plain nbgrader: its process would hold the whole flood (about a gigabyte)."""

from classgrader.hostile import add_cell, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {"no_progress_catches_cycles": 0}
PLAIN = None
STOPPED_BY = "the shards' bounded Execute (500,000 characters of output per notebook)"
EVIDENCE = ["output cut by the batch grader: this notebook printed more than 500,000 characters"]

FLOOD = """for _ in range(60):
    display({"text/plain": "x" * 99_000}, raw=True)
"""


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    for _ in range(20):
        add_cell(notebook, "call_key_tells_calls_apart", FLOOD)
    return notebook
