"""The starter code, and cells that hunt for the instructor's files from where the kernel runs
(up the folders, through the parent process, next to the harness): they print the hidden tests of
any gradebook they open and run the solution cells of any source notebook they find; a last cell
prints the kernel's input history (`In`: empty in the batch, whose cells run without history) and
IPython's cache of cell sources (`linecache`, kept for tracebacks), where the tests it just ran
sit with their hidden lines. Under plain nbgrader the course's solutions/ and gradebook.db are
right there; the batch's kernels find neither (the sandbox shows no gradebook and no course), and
the batch removes hidden lines from every output before anything reaches the feedback."""

from classgrader.hostile import add_cell, starter

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "mount namespace (no gradebook or source), hidden lines cut from outputs"

HUNT = '''import glob
import json
import os
import sqlite3

import harness

_places = [os.getcwd(), os.path.dirname(os.path.dirname(harness.__file__))]
try:
    _places.append(os.readlink(f"/proc/{os.getppid()}/cwd"))
except OSError:
    pass
_roots = []
for _place in _places:
    while _place not in _roots and _place != "/":
        _roots.append(_place)
        _place = os.path.dirname(_place)
for _root in _roots:
    for _db in glob.glob(os.path.join(_root, "*.db")):
        try:
            for (_source,) in sqlite3.connect(_db).execute("SELECT source FROM source_cell"):
                print(_source)
        except Exception as _error:
            print("gradebook:", type(_error).__name__)
    for _path in glob.glob(os.path.join(_root, "*", "03_no_progress", "03_no_progress.ipynb")):
        try:
            with open(_path) as _handle:
                _cells = json.load(_handle)["cells"]
        except Exception as _error:
            print("notebook:", type(_error).__name__)
            continue
        for _cell in _cells:
            _source = "".join(_cell["source"])
            if "BEGIN SOLUTION" in _source:
                exec(_source, globals())
'''

HISTORY = """import linecache

print("\\n".join(In))
for _name, _entry in list(linecache.cache.items()):
    if "ipykernel_" in _name and len(_entry) == 4:  # a cell's source (ipykernel names them so)
        print("".join(_entry[2]))
"""


def build(student: str, context: dict) -> object:
    notebook = starter(EXERCISE)
    for solution in ("call_key_solution", "no_progress_solution"):  # after each starter cell
        add_cell(notebook, solution, HUNT)
    add_cell(notebook, "no_progress_no_false_alarms", HISTORY)
    return notebook
