"""Right code, and one test cell deleted: nbgrader puts it back (with a comment line in front)
and the grader recognises it as the same test: full marks."""

from classgrader.hostile import index, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "nothing to stop: nbgrader restores the cell, the grader grades it"


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    del notebook.cells[index(notebook, "no_progress_catches_cycles")]
    return notebook
