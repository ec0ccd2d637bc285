"""A bug that fails one test, and that test cell emptied: nbgrader overwrites it from the
gradebook."""

from classgrader.hostile import index, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {"no_progress_catches_cycles": 0}
PLAIN: dict[str, float] | str = {"no_progress_catches_cycles": 0}
STOPPED_BY = "nbgrader (it overwrites the test cell)"


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    notebook.cells[index(notebook, "no_progress_catches_cycles")].source = "pass"
    return notebook
