"""The reference solution, and cells after the tests that print the hidden tests from the
kernel's memory in every way the batch must see through. The batch's cells run without history
(`In` is empty), so the cells take the tests' sources from IPython's cache of cell sources
(`linecache`, kept for tracebacks) and print them as a list (`print`, `repr`), as JSON (printed,
and as an `application/json` display), the hidden call's
arguments alone (a part of a line), a hidden line split across two prints and across two cells,
spaced out letter by letter, and the seed on its own. The batch removes every line holding hidden
content before anything reaches the feedback, flags the notebook and says so; every test scores
(the tests ran before). What it cannot see through is any encoding it does not know (base64, a
reversed string): text matching is a backstop, not a wall."""

from nbformat import v4

from classgrader.hostile import index, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the batch's merge (hidden content cut from every output, whole or in part)"

FIND = '''import linecache

_sources = list(In) + ["".join(_entry[2]) for _name, _entry in list(linecache.cache.items())
                       if "ipykernel_" in _name and len(_entry) == 4]
_hidden = [_line for _cell in _sources if "BEGIN HIDDEN" + " TESTS" in _cell
           for _line in _cell.splitlines() if "seed=" in _line]
_line = _hidden[0]
print(_sources)
print(repr(_sources))
'''
CELLS = [
    FIND,
    "import json\n\nprint(json.dumps(_sources))\n",
    "from IPython.display import JSON, display\n\ndisplay(JSON({'sources': _sources}))\n",
    'print("the hidden call takes:", _line[_line.index("seed="):])\n',
    "import sys\n\nprint(_line[:30], end='')\nsys.stdout.flush()\nprint(_line[30:])\n",
    "print(_line[:40])\n",
    "print(_line[40:])\n",
    'print(" ".join(_line))\n',
    'print(_line.split("seed=")[1].split(",")[0])\n',
]
"""Each a cell, in this order, after the last test."""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    at = index(notebook, "no_progress_no_false_alarms") + 1
    notebook.cells[at:at] = [v4.new_code_cell(source) for source in CELLS]
    return notebook
