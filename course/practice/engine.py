"""What `check` does with a piece: run both versions, print what holds or where yours differs.

A `Piece` is one function a lesson asks for: its reference, the lesson section that explains it,
and its behaviours. A behaviour is a probe `probe(yours, reference) -> Divergence | None` that runs
both on the lesson's cases (`attempt`) and says where they first part, with the same comparisons
as a graded cell (`course.compare`: `same`, `same_messages`). This module knows no lesson:
`course.practice.lesson01` ... each define their pieces with `Piece(...)` and
`@piece.behaviour("...")`.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import io
import os
import pkgutil
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.compare import Divergence, Outcome, call, verdict_line

PIECES: dict[str, Piece] = {}
"""Every piece of every lesson, by name (names are unique across the course)."""

ANSWERS = Path(__file__).resolve().parents[2] / "lessons" / "answers"
Probe = Callable[[Callable[..., Any], Callable[..., Any]], "Divergence | None"]


class _Blank(Exception):
    """The piece raised NotImplementedError: it is not written yet."""


@dataclass(frozen=True)
class Behaviour:
    says: str
    """What holds, as the check prints it: "appends the reply before its results"."""
    probe: Probe


@dataclass
class Piece:
    """One function a lesson asks the student to write, and how to check it."""

    name: str
    lesson: str
    """The lesson notebook's stem, e.g. "03_the_loop"."""
    section: str
    """The heading (without #) of the lesson cell that explains the piece."""
    reference: Callable[..., Any]
    behaviours: list[Behaviour] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.name in PIECES and PIECES[self.name].lesson != self.lesson:
            raise ValueError(f"piece {self.name!r} is defined twice: lessons "
                             f"{PIECES[self.name].lesson} and {self.lesson}; rename one")
        PIECES[self.name] = self

    def behaviour(self, says: str) -> Callable[[Probe], Probe]:
        """Decorator: add a behaviour, in the order the check prints them."""
        def add(probe: Probe) -> Probe:
            self.behaviours.append(Behaviour(says, probe))
            return probe
        return add

    @property
    def answer_file(self) -> str:
        return f"answers/{self.lesson[:2]}_{self.name}.py"


def pieces() -> dict[str, Piece]:
    """Every piece of the course (importing each lesson's module defines its pieces)."""
    package = importlib.import_module("course.practice")
    for module in pkgutil.iter_modules(package.__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"course.practice.{module.name}")
    return PIECES


def _find(name: str) -> Piece | None:
    """The piece called `name`, importing only the lesson module that defines it (a lesson's
    first check should not pay for importing every other lesson's scenarios)."""
    if name not in PIECES:
        package = Path(__file__).parent
        for path in sorted(package.glob("lesson*.py")):
            if f'Piece("{name}"' in path.read_text():
                importlib.import_module(f"course.practice.{path.stem}")
                break
    return PIECES.get(name) or pieces().get(name)


def check(function: Callable[..., Any]) -> Callable[..., Any]:
    """Check your piece now; return the version the rest of the lesson uses.

    Prints `[ok]` per behaviour that holds, or stops at the first divergence. Yours is returned
    only when every behaviour holds; otherwise the reference, with one line saying so.
    """
    name = getattr(function, "__name__", None)
    piece = _find(name or "")
    if piece is None:
        raise LookupError(f"no lesson piece is called {name!r}: keep the name the your-turn cell "
                          f"gives (known: {', '.join(sorted(PIECES))})")
    if broken := getattr(function, "__syntax_error__", None):
        return _fall_back(piece, f"[not yet] {name}: its your-turn cell has a syntax error "
                          f"({broken}), so the rest of this lesson uses the reference; fix that "
                          "line and run both cells again.")
    if (getattr(function, "__module__", None) or "").startswith("harness."):
        print(f"[not yet] {name} here is the reference: run the cell with your {name} above "
              "first, then this check again.")
        return piece.reference
    for behaviour in piece.behaviours:
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # the piece's own prints
                divergence = behaviour.probe(function, piece.reference)
        except _Blank:
            return _fall_back(piece, f"[not yet] {name} is not written yet: the rest of this "
                              f"lesson uses the reference for now. (Stuck? "
                              f"`%load {piece.answer_file}`)")
        label = f"{name}: {behaviour.says}"
        if divergence is not None:
            return _fall_back(piece, verdict_line(
                label, divergence.message(name) + f"\nReread \"{piece.section}\" above. Until "
                "this says ok, the rest of the lesson uses the reference."))
        print(verdict_line(label))
    return function


class NotYet(AssertionError):
    """Raised by `check`, instead of falling back, while nbgrader validates a lesson: so that
    "Validate" lists each piece that is not done, rather than calling the lesson a success."""


def _fall_back(piece: Piece, said: str) -> Callable[..., Any]:
    """Say why the lesson goes on with the reference, and hand it over (or raise, under
    nbgrader's Validate, which sets NBGRADER_VALIDATING)."""
    print(said)
    if os.environ.get("NBGRADER_VALIDATING"):
        raise NotYet(said)
    return piece.reference


def your_turn(line: str, cell: str) -> None:
    """The `%%your_turn` cell magic: run a your-turn cell, unless it does not parse.

    A syntax error would stop a lesson's Run All at this cell. Instead it is reported in one
    line, and the piece's name is bound to a stand-in that `check` recognises, so the check says
    so in one line too and the lesson goes on with the reference.
    """
    from IPython import get_ipython

    shell = get_ipython()
    try:
        compile(shell.transform_cell(cell), "<your turn>", "exec")
    except SyntaxError as error:
        found = re.search(r"^(?:def|class) (\w+)", cell, flags=re.M)
        where = f"line {(error.lineno or 0) + 1}: {error.msg}"  # the cell counts the magic line
        print(f"[syntax error] {where}. This cell did not run; the check below says what the "
              "lesson does meanwhile.")
        if found:
            shell.user_ns[found.group(1)] = _stand_in(found.group(1), where)
        return
    shell.run_cell(cell)


def _stand_in(name: str, where: str) -> Callable[..., Any]:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{name} did not parse ({where})")

    broken.__name__ = broken.__qualname__ = name
    broken.__syntax_error__ = where  # type: ignore[attr-defined]
    return broken


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext course.practice`: register `%%your_turn` (each lesson's setup cell does it)."""
    ipython.register_magic_function(your_turn, magic_kind="cell")


def attempt(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    """Run the student's version (or the reference) under a deadline; errors become outcomes.

    A NotImplementedError means the piece is still blank: `check` says so in one line.
    """
    outcome = call(function, *args, seconds=2.0, **kwargs)
    if isinstance(outcome.error, NotImplementedError):
        raise _Blank()
    return outcome


def answer(name: str) -> str:
    """The worked answer to a piece, as a file: the imports it needs, then the reference's source
    renamed to the piece's name. Generated, so the answer and the reference cannot drift."""
    piece = pieces()[name]
    function = inspect.unwrap(piece.reference)
    source = textwrap.dedent(inspect.getsource(function))
    tree = ast.parse(source)
    definition = tree.body[0]
    if isinstance(definition, ast.FunctionDef | ast.ClassDef) and definition.name != name:
        source = source.replace(f"def {definition.name}(", f"def {name}(", 1)
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    module = inspect.getmodule(function)
    imports = _imports_for(used, inspect.getsource(module) if module else "",
                           module.__name__ if module else "")
    head = f'"""Worked answer: `{name}` from lesson {piece.lesson}. Generated by ' \
           f'course.practice.write_answers(); do not edit."""\n\n'
    return head + (imports + "\n\n\n" if imports else "") + source


def _imports_for(used: set[str], module_source: str, module_name: str) -> str:
    """The import lines a function body needs: the module's own imports of the names it uses,
    and the module's other top-level names imported from the module itself."""
    lines, own = [], []
    for node in ast.parse(module_source).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
            names = [a.name for a in node.names if (a.asname or a.name) in used]
            if names:
                lines.append(f"from {node.module} import {', '.join(names)}")
        elif isinstance(node, ast.Import):
            lines += [f"import {a.name}" for a in node.names if (a.asname or a.name) in used]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own += [t.id for t in targets if isinstance(t, ast.Name) and t.id in used]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in used:
            own.append(node.name)
    if own:
        lines.append(f"from {module_name} import {', '.join(sorted(own))}")
    return "\n".join(sorted(set(lines), key=lines.index))


def write_answers(folder: Path = ANSWERS) -> list[Path]:
    """Write every piece's worked answer into `folder` (lessons/answers/); return the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, piece in sorted(pieces().items()):
        path = folder / Path(piece.answer_file).name
        path.write_text(answer(name))
        written.append(path)
    return written


def with_answers(notebook: Any) -> Any:
    """The lesson notebook (an nbformat node, changed in place) with each your-turn cell holding
    its piece's worked answer: a lesson as a student who finished every piece has it."""
    for cell in notebook.cells:
        if "your-turn" in cell.metadata.get("tags", []):
            name = re.search(r"^(?:def|class) (\w+)\b", cell.source, flags=re.M).group(1)
            cell.source = (ANSWERS.parent / _find(name).answer_file).read_text()
    return notebook
