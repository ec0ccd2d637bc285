"""A loop that ignores the interrupt: nbgrader gives the whole notebook up; the batch grades it
again without that cell."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = "zero"
STOPPED_BY = "the batch (graded again without the cell)"

LOOP = """import signal
import time

signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    try:
        time.sleep(0.1)
    except BaseException:
        pass
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", LOOP)
    return notebook
