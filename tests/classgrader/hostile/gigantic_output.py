"""A cell that prints a 20-million-character line and 200,000 more lines: the grading process
refuses the 20 MB message unread (8 MB at most), so that cell fails, alone, and what it printed
is left out; the autograded notebook stays small and every test runs."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the shards' bounded Execute (messages of 8 MB at most)"
EVIDENCE = ["the kernel sent a message over 8 MB, which the grader refuses unread"]

PRINT = """print("x" * 20_000_000)
for line in range(200_000):
    print(line)
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", PRINT)
    return notebook
