"""The reference solution, a cell of the student's own that raises the kernel's recursion limit,
and a helper in the solution cell with an expression of 5,000 terms: the kernel compiles it under
its raised limit (full marks), while Python's parser at the default limit cannot hold it, so no
near-copy finder can read the cell. The finder reports "too deep to compare" for this student's
cell alone; the rest of the class is compared and the run ends as usual."""

from nbformat import v4

from classgrader.hostile import append, index, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the near-copy finder (an incident for this cell, the rest compared)"

LIMIT = "import sys\n\nsys.setrecursionlimit(100_000)\n"
HELPER = "def _five_thousand(x):\n    return " + " + ".join(["x"] * 5000) + "\n"


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    append(notebook, "call_key_solution", HELPER)
    notebook.cells.insert(index(notebook, "call_key_solution"), v4.new_code_cell(LIMIT))
    return notebook
