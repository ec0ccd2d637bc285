"""How the batch deals submissions into shards, and what a dead kernel's cell log says.

`split` deals (student, assignment) pairs into shards, a student's together; `culprit` reads the
cell a kernel was running when it stopped from its cell log, so the next round can skip it.
Plain functions on plain data: nothing here runs or grades anything.
"""

from __future__ import annotations


def split(pairs: list[tuple[str, str]], count: int) -> list[list[tuple[str, str]]]:
    """Deal submissions into `count` shards, a student's submissions together.

    Example:
        >>> split([("a", "x"), ("a", "y"), ("b", "x")], 2)
        [[('a', 'x'), ('a', 'y')], [('b', 'x')]]
    """
    students: dict[str, list[tuple[str, str]]] = {}
    for pair in pairs:
        students.setdefault(pair[0], []).append(pair)
    shards: list[list[tuple[str, str]]] = [[] for _ in range(max(1, min(count, len(students))))]
    for group in sorted(students.values(), key=len, reverse=True):
        min(shards, key=len).extend(group)
    return [shard for shard in shards if shard]


def culprit(cells: list[str]) -> str | None:
    """The cell the kernel was running when it stopped, from its cell log (the last `start`
    without a `done`), or None when it stopped between cells or never started one."""
    running = None
    for line in cells:
        kind, _, name = line.partition(" ")
        if kind == "kernel":
            running = None
        elif kind == "start":
            running = name
        elif kind == "done" and name == running:
            running = None
    return running
