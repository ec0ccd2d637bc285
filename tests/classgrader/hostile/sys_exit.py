"""sys.exit() in a cell: IPython turns it into an error in that cell; every test runs."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "IPython (SystemExit is an error in that cell)"


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", "import sys\n\nsys.exit(3)")
    return notebook
