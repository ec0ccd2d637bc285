"""Build student submissions from the corpus, and grade them without a kernel.

A corpus module under `corpus/` stands for one student's code: it defines some of the exercise
functions (buggy, alternative or cheating ones), or gives a `PATCH` of (old, new) texts for the
reference solution (a bug is the solution with one change), and says which exercise it is for,
which graded cells it must fail (`FAILS`) and a phrase each failure message must contain
(`EXPECT`); a capstone submission is graded here only, unless `IN_CLASS = True` hands it in to
the real class run too (each one costs a kernel that replays a hundred runs).
`submission` writes it into the released notebook the way a student would, keeping the reference
solution in every other solution cell. `simulate` runs that notebook's cells in one namespace, the
graded cells with their hidden tests, as nbgrader would, and reports each graded cell.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
EXERCISES = ["01_message_ordering", "02_early_exit", "03_no_progress", "04_cost", "05_capstone"]
METADATA = {"EXERCISE", "EXERCISES", "FAILS", "EXPECT", "EXPECT_GRADED", "TYPED_ID", "IN_CLASS",
            "PATCH"}
ANSWERS_FUNCTION = "fill_answers"


def notebook(folder: str, name: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / folder / name / f"{name}.ipynb", as_version=4)


def nbgrader(cell: Any) -> dict[str, Any]:
    return cell.metadata.get("nbgrader", {})


_PARSER = threading.Lock()
"""CPython 3.11's parser is not safe in two threads at once ("AST constructor recursion depth
mismatch"): the tests build classes side by side (graded.py, test_dask.py)."""


def _parse(source: str) -> ast.Module:
    with _PARSER:
        return ast.parse(source)


def load(name: str) -> SimpleNamespace:
    """A corpus module by file name (without .py): its source, docstring and metadata. It is
    read, not imported: some submissions are meant to crash when their cell runs."""
    source = (CORPUS / f"{name}.py").read_text()
    tree = _parse(source)
    found: dict[str, Any] = {"SOURCE": source, "__doc__": ast.get_docstring(tree)}
    for node in tree.body:
        targets = [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
        for target in targets:
            if isinstance(target, ast.Name) and target.id in METADATA and node.value is not None:
                found[target.id] = _literal(node.value)
    return SimpleNamespace(**found)


def _literal(node: ast.expr) -> Any:
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "set" and not node.args:
        return set()  # `set()` is how an empty FAILS is written
    return ast.literal_eval(node)


def corpus(prefix: str = "") -> list[str]:
    return sorted(p.stem for p in CORPUS.glob(f"{prefix}*.py") if not p.stem.startswith("_"))


def exercises_of(module: SimpleNamespace) -> list[str]:
    return list(getattr(module, "EXERCISES", [getattr(module, "EXERCISE", None)]))


def _defined(source: str) -> set[str]:
    return {node.name for node in _parse(source).body
            if isinstance(node, ast.FunctionDef | ast.ClassDef)}


def _provided(source: str) -> set[str]:
    """Public names a module defines or imports (a re-export counts)."""
    names = _defined(source)
    for node in _parse(source).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return {name for name in names if not name.startswith("_")}


def cell_code(module: SimpleNamespace, names: set[str]) -> str:
    """The module's code for one solution cell: its imports, private helpers and constants,
    and the public definitions in `names` (metadata and the module docstring left out)."""
    source = module.SOURCE
    tree = _parse(source)
    kept = []
    for index, node in enumerate(tree.body):
        if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring that says which bug this is
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        if isinstance(node, ast.Assign) and {getattr(t, "id", None) for t in node.targets} \
                & METADATA:
            continue
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_") \
                and node.name not in names:
            continue
        start = node.decorator_list[0].lineno if getattr(node, "decorator_list", None) \
            else node.lineno
        kept.append("\n".join(source.splitlines()[start - 1:node.end_lineno]))
    return "\n\n".join(kept)


def submission(exercise: str, module: SimpleNamespace | None, *, student_id: str
               ) -> nbformat.NotebookNode:
    """The released notebook as this student would hand it in."""
    released = notebook("exercises", exercise)
    reference = {nbgrader(c).get("grade_id"): c.source
                 for c in notebook("solutions", exercise).cells if nbgrader(c).get("solution")}
    built = copy.deepcopy(released)
    defined = _provided(module.SOURCE) if module is not None else set()
    for cell in built.cells:
        meta = nbgrader(cell)
        if meta.get("solution"):
            source = reference[meta["grade_id"]]
            names = _defined(source) or {ANSWERS_FUNCTION}
            if getattr(module, "PATCH", None):
                source = patched(source, module)
            elif names & defined:
                source = cell_code(module, names)
                if names == {ANSWERS_FUNCTION}:
                    source += f"\n\n{ANSWERS_FUNCTION}(answers, mine)"
            cell.source = source
        elif not meta and cell.cell_type == "code" and "STUDENT_ID =" in cell.source:
            typed = getattr(module, "TYPED_ID", student_id)
            cell.source = f'STUDENT_ID = "{typed}"'
    for old, _ in getattr(module, "PATCH", None) or ():  # a stale patch would grade the reference
        assert any(old in source for source in reference.values()), f"PATCH: not found: {old!r}"
    return built


def patched(source: str, module: SimpleNamespace) -> str:
    """The reference solution's cell with the module's `PATCH` applied: each (old, new) pair
    replaces text found once in it (a pair for another cell leaves this one alone)."""
    for old, new in module.PATCH:
        found = source.count(old)
        assert found <= 1, f"{old!r} occurs {found} times in the reference solution cell"
        source = source.replace(old, new)
    return source


def starter(exercise: str) -> nbformat.NotebookNode:
    return notebook("exercises", exercise)


@dataclass
class Graded:
    """What each graded cell of one simulated run said: None for a pass, else the message."""

    exercise: str
    cells: dict[str, str | None] = field(default_factory=dict)

    @property
    def failed(self) -> set[str]:
        return {name for name, message in self.cells.items() if message is not None}


def simulate(built: nbformat.NotebookNode, exercise: str) -> Graded:
    """Run the notebook's code in one namespace as autograde would: every nbgrader cell in order,
    the graded cells from the source (hidden tests included), and the STUDENT_ID cell; the
    formative checks and the try-it cells (plain cells) are skipped."""
    tests = {nbgrader(c)["grade_id"]: c.source for c in notebook("solutions", exercise).cells
             if nbgrader(c).get("grade")}
    namespace: dict[str, Any] = {"__name__": "__main__"}
    graded = Graded(exercise)
    for cell in built.cells:
        if cell.cell_type != "code":
            continue
        meta = nbgrader(cell)
        name = meta.get("grade_id", "")
        if meta.get("grade"):
            graded.cells[name] = _run(tests[name], namespace)
        elif meta.get("solution") or meta.get("locked") or cell.source.startswith("STUDENT_ID"):
            _run(cell.source, namespace)
    return graded


def _run(source: str, namespace: dict[str, Any]) -> str | None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            exec(compile(source, "<cell>", "exec"), namespace)
        except Exception as exc:  # a failed cell, as nbgrader sees it
            return f"{type(exc).__name__}: {exc}"
    return None
