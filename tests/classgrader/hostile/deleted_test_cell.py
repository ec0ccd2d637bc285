"""A bug that fails one test, and that test cell deleted: nbgrader puts it back and grades it."""

from classgrader.hostile import index, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {"no_progress_catches_cycles": 0}
PLAIN: dict[str, float] | str = {"no_progress_catches_cycles": 0}
STOPPED_BY = "nbgrader (it puts the test cell back)"


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    del notebook.cells[index(notebook, "no_progress_catches_cycles")]
    return notebook
