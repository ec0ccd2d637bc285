"""A cell that prints a 20-million-character line and 200,000 more lines: the batch keeps a cut
copy, so the autograded notebook stays small; every test runs."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the batch (it cuts each output)"

PRINT = """print("x" * 20_000_000)
for line in range(200_000):
    print(line)
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", PRINT)
    return notebook
