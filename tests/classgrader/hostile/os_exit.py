"""os._exit() in a cell kills the kernel: nbgrader gives the notebook up; the batch grades it
again without that cell."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = "zero"
STOPPED_BY = "a kernel of its own; graded again without the cell"


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", "import os\n\nos._exit(0)")
    return notebook
