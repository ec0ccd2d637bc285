"""Whose notebook this is while nbgrader autogrades: the student id and the assignment from the
folder the notebook runs in.

nbgrader runs each submission in `autograded/<student_id>/<assignment>/`, so the id comes from
there and an id a student typed into the notebook is ignored: typing a neighbour's id does not
borrow their numbers (exercise 4) or their scenarios (exercise 5). Outside autograding there is
no folder to read, and the checks use what the student typed.
"""

from __future__ import annotations

import os
from pathlib import Path

AUTOGRADED = "autograded"


def autograde_identity(path: str | os.PathLike[str] | None = None) -> tuple[str, str] | None:
    """(student_id, assignment) when `path` (default: the working directory) lies inside
    nbgrader's `autograded/<student_id>/<assignment>/`, else None.

    Example:
        >>> autograde_identity("/course/autograded/ada/04_cost")
        ('ada', '04_cost')
    """
    parts = Path(path if path is not None else os.getcwd()).parts
    for index in range(len(parts) - 3, -1, -1):
        if parts[index] == AUTOGRADED:
            return parts[index + 1], parts[index + 2]
    return None
