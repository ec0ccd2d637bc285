"""The starter code, and the locked setup cell stripped of its metadata and rewritten so that
`check` is a fake whose every check passes. nbgrader restores only test cells, so alone it gives
full marks; the grading process runs the gradebook's setup cell, and finds no record of the
student's code in the tests."""

from classgrader.hostile import index, starter

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the grading process (the gradebook's setup cell, its own checks)"

FAKE = """import json


class _Anything:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


check = _Anything()
"""


def build(student: str, context: dict) -> object:
    notebook = starter(EXERCISE)
    cell = notebook.cells[index(notebook, "setup")]
    cell.metadata = {}
    cell.source = FAKE
    return notebook
