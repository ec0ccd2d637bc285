"""The checks behind the exercises' graded cells: each runs the student's function and the reference
side by side.

One sub-package per exercise (`message_ordering`, `early_exit`, `no_progress`, `cost`,
`capstone`); each one's `checks` module holds its graded behaviours, named like the grade ids of
the test cells that call them, each raising `CheckFailed` (an AssertionError) whose message names
the first divergence and the lesson to reread. Checks print nothing, silence warnings, never reach
the network, and score 0 for a submission that hands the work to the reference. Each sub-package
keeps its own hints and cases; what they share sits here: `reference` (the dict-form reference
functions), `report` (how a graded check fails), `ownwork` (catching a submission that hands the
work to the reference), `dictmodel` (the dict-form model), `dict_scenarios`, `identity` (whose
notebook this is), and `grader_hook`, what the class grader (the `grader` package, for
instructors only) needs from the checks. How any check compares is `course.compare`. Importing this package under `nbgrader autograde` switches IPython
to minimal tracebacks (see `report.hide_sources_when_autograding`): no feedback can quote a
hidden test.
"""

import ast
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

from course.exercises.report import hide_sources_when_autograding

CHECK_MODULES = {
    "01_message_ordering": "message_ordering",
    "02_early_exit": "early_exit",
    "03_no_progress": "no_progress",
    "04_cost": "cost",
    "05_capstone": "capstone",
}
"""Each exercise (assignment and notebook name) and the sub-package holding its checks. They are
imported when first used: a lesson that only needs `report` stays light, and exercises 1 to 4 do
not pay for the capstone's replay machinery."""

def _lesson_pieces() -> tuple[str, ...]:
    """The reference of every lesson piece: each `Piece(..., reference=f)` of course.practice's
    lesson modules whose `f` is defined there (a piece whose reference is the library's own,
    `select_recent` say, is the library's business), read from the source, importing nothing."""
    folder = Path(__file__).resolve().parent.parent / "practice"
    found = []
    for module in pkgutil.iter_modules([str(folder)]):
        if not module.name.startswith("lesson"):
            continue
        tree = ast.parse((folder / f"{module.name}.py").read_text())
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Piece":
                found += [f"course.practice.{module.name}.{keyword.value.id}"
                          for keyword in node.keywords if keyword.arg == "reference"
                          and getattr(keyword.value, "id", None) in defined]
    return tuple(found)


WITHHELD = (
    "course.exercises.reference",
    *_lesson_pieces(),
)
"""What no graded kernel gets, whatever the exercise (the class grader's `grader.withhold`
replaces each function of these with one that raises): the dict-form reference of every graded
function, and the reference of every lesson piece (`course.practice`). Each exercise's sub-package adds its own `WITHHELD`:
the library functions that are the reference for what it grades."""

hide_sources_when_autograding()


def exercise_module(name: str) -> ModuleType:
    """The module holding the checks of exercise `name` (e.g. "05_capstone")."""
    return importlib.import_module(f"course.exercises.{CHECK_MODULES[name]}.checks")
