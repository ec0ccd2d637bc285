"""The starter code, and a cell that writes where it must not: over a neighbour's submission and
graded notebook, into the gradebook (full marks on its own tests, as manual scores), and into
the course folder. Under plain nbgrader all of it works; in the batch none of those paths exists
in the kernel's sandbox (it writes only to its own tmpfs: a copy of its folder and /tmp, where the
folders above its own are empty), and the batch never reads scores from a kernel-reachable
gradebook anyway."""

from classgrader.hostile import add_cell, starter

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "mount namespace (nothing of the shard or the course is there)"
EVIDENCE = ["could not write submission FileNotFoundError",
            "could not write graded FileNotFoundError"]

WRITE = '''import os
import sqlite3

_roots = [os.path.abspath(os.path.join(os.getcwd(), "..", "..", ".."))]
try:
    _roots.append(os.readlink(f"/proc/{{os.getppid()}}/cwd"))
except OSError:
    pass


def _gradebook(path):
    with sqlite3.connect(path) as db:
        db.execute("UPDATE grade SET manual_score = (SELECT max_score FROM grade_cells "
                   "WHERE grade_cells.id = grade.cell_id) WHERE notebook_id IN ("
                   "SELECT sn.id FROM submitted_notebook sn JOIN submitted_assignment sa "
                   "ON sn.assignment_id = sa.id WHERE sa.student_id = '{student}')")


def _overwrite(path):
    with open(path, "w") as handle:
        handle.write("{{}}")


for _root in _roots:
    for _what, _action, _path in [
            ("submission", _overwrite, os.path.join(_root, "submitted", "{neighbour}",
                                                    "03_no_progress", "03_no_progress.ipynb")),
            ("graded", _overwrite, os.path.join(_root, "autograded", "{neighbour}",
                                                "03_no_progress", "03_no_progress.ipynb")),
            ("gradebook", _gradebook, os.path.join(_root, "gradebook.db")),
            ("course", _overwrite, os.path.join(_root, "pwned.txt"))]:
        try:
            _action(_path)
            print("wrote", _what)
        except Exception as _error:
            print("could not write", _what, type(_error).__name__)
'''


def build(student: str, context: dict) -> object:
    notebook = starter(EXERCISE)
    add_cell(notebook, "setup", WRITE.format(neighbour=context["neighbour"], student=student))
    return notebook
