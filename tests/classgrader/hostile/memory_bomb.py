"""A cell that takes memory a gigabyte at a time (up to 12 GB): the sandbox caps each kernel's
address space (RLIMIT_AS), so it fails with MemoryError and the tests still run. Not run under plain
nbgrader, which has no cap: it would take the machine's memory from the other students."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN = None
STOPPED_BY = "RLIMIT_AS (a MemoryError, or the kernel dies and the cell is left out)"

TAKE = """_hoard = []
for _gigabyte in range(12):
    _hoard.append(bytearray(1 << 30))
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", TAKE)
    return notebook
