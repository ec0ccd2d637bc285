"""A bug that fails one test, and that test cell stripped of its nbgrader metadata and emptied:
nbgrader adds the test back (add_missing_cells) and grades it."""

from classgrader.hostile import index, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {"no_progress_catches_cycles": 0}
PLAIN: dict[str, float] | str = {"no_progress_catches_cycles": 0}
STOPPED_BY = "nbgrader (add_missing_cells)"


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    cell = notebook.cells[index(notebook, "no_progress_catches_cycles")]
    cell.metadata = {}
    cell.source = "pass"
    return notebook
