"""A cell that sleeps an hour: interrupted at the time limit; every test runs."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "nbgrader's time limit"


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", "import time\n\ntime.sleep(3600)")
    return notebook
