"""Near-copies for the instructor to review: of the reference, and between students of a class.

Each function a student wrote in a solution cell is reduced to a normalised syntax tree: docstrings,
comments, formatting and type annotations are gone, and every name the code binds or uses (other
than Python's builtins) is replaced by its order of first appearance, so renaming variables,
reformatting or re-commenting leaves the same sequence. Attribute names, operators and short
constants stay: they are what the code does. Two sequences are compared with difflib's ratio
(1.0: the same tree). `find` compares each submitted solution cell with the same cell of every
other student of the assignment, and each submitted function with the reference's graded functions
(`course.exercises.reference` and the library functions it names); pairs at or above `THRESHOLD`
come back as `Copy` records. A flag, not a grade: nothing here touches the gradebook, and short
functions (fewer than `MIN_TOKENS` nodes, where any two correct answers look alike) are left out.
`compare` also says what it could not compare (`Uncompared`: a cell too deep for Python's parser
or too large, a notebook too deep to read), each for its own student: the rest is compared.
"""

from __future__ import annotations

import ast
import builtins
import csv
import functools
import inspect
import itertools
import json
import textwrap
import types
from dataclasses import astuple, dataclass, fields
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from course.exercises.ownwork import from_kit, kit_folders

THRESHOLD = 0.9
"""Similarity from which a pair is listed (independent correct solutions in the test corpus stay
at or below 0.85; a renamed and reformatted copy scores 1.0)."""
MIN_TOKENS = 100
"""Tokens a function needs before it is compared (about 10 lines): two correct three-liners look
alike whoever wrote them."""
MAX_TOKENS = 5_000
"""Tokens of a cell's functions past which it is not compared (about 500 lines, five times the
capstone's answer): difflib's time grows with the square of the length, for every pair."""
_SKIPPED_FIELDS = {"returns", "annotation", "type_comment", "decorator_list"}
_BUILTINS = set(dir(builtins))
_KIT = tuple(str(folder) for folder in kit_folders())


@dataclass(frozen=True)
class Copy:
    """One pair for review: `student`'s code in `cell` is `similarity` alike to `other` (another
    student's id, or `reference:` and the reference function's qualified name)."""

    assignment: str
    cell: str
    student: str
    other: str
    similarity: float


def tokens(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The function's normalised syntax tree, in pre-order, as a list of strings. The walk keeps
    its own stack: an expression of any depth is read (Python's stack would not hold one of a
    thousand terms)."""
    names: dict[str, str] = {}

    def name(text: str) -> str:
        return text if text in _BUILTINS else names.setdefault(text, f"v{len(names)}")

    found: list[str] = []
    pending: list[ast.AST] = [function]
    while pending:
        node = pending.pop()
        found.append(type(node).__name__)
        if isinstance(node, ast.Name):
            found.append(name(node.id))
        elif isinstance(node, ast.arg):
            found.append(name(node.arg))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append(name(node.name))
        elif isinstance(node, ast.Attribute):
            found.append(node.attr)
        elif isinstance(node, ast.Constant):
            short = not isinstance(node.value, str) or len(node.value) <= 20
            found.append(repr(node.value) if short else "str")
        pending += reversed(_children(node))  # the first child is visited next
    return found


def _children(node: ast.AST) -> list[ast.AST]:
    """A node's children in field order, without annotations, decorators and docstrings."""
    children: list[ast.AST] = []
    for field, value in ast.iter_fields(node):
        if field in _SKIPPED_FIELDS:
            continue
        items = value if isinstance(value, list) else [value]
        if field == "body" and _docstring(items):
            items = items[1:]
        children += [item for item in items if isinstance(item, ast.AST)]
    return children


def _docstring(body: list[Any]) -> bool:
    first = body[0] if body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str)


class TooDeep(Exception):
    """A solution cell Python's parser cannot hold in memory (nesting thousands deep)."""


def functions(source: str) -> dict[str, list[str]]:
    """Every function and method defined at the top of `source`, by (qualified) name; {} when it
    does not parse (a cell with IPython magics or a syntax error is simply not compared). Raises
    `TooDeep` when the parser gives up on its depth."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return {}
    except (RecursionError, MemoryError) as exc:  # the parser's guards for its own stack
        raise TooDeep(f"{type(exc).__name__} in Python's parser") from None
    found = {}
    for node in tree.body:
        members = [(node.name, node)] if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
            else [(f"{node.name}.{m.name}", m) for m in node.body
                  if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)] \
            if isinstance(node, ast.ClassDef) else []
        found.update((qualified, tokens(member)) for qualified, member in members)
    return found


def similarity(left: list[str], right: list[str]) -> float:
    """difflib's ratio of two token sequences: 1.0 for the same normalised tree."""
    return SequenceMatcher(None, left, right, autojunk=False).ratio()


def _alike(left: list[str], right: list[str], threshold: float) -> float:
    """The similarity if it reaches `threshold`, else 0.0 (cheap upper bounds first)."""
    matcher = SequenceMatcher(None, left, right, autojunk=False)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return 0.0
    score = matcher.ratio()
    return score if score >= threshold else 0.0


@functools.cache
def reference_functions() -> dict[str, list[str]]:
    """The reference's graded functions (`course.exercises.reference.__all__`), the library
    functions they name, and their helpers, by qualified name."""
    from course.exercises import reference

    found: dict[str, list[str]] = {}
    pending = [getattr(reference, name) for name in reference.__all__]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if id(item) in seen or not isinstance(item, types.FunctionType | type):
            continue
        seen.add(id(item))
        members = [item] if isinstance(item, types.FunctionType) else [
            value for value in vars(item).values() if isinstance(value, types.FunctionType)] \
            if isinstance(item, type) else []
        for member in members:
            if not inspect.getfile(member).startswith(_KIT):
                continue  # code a library generated for a harness class (pydantic's __hash__)
            qualified = f"{member.__module__}.{member.__qualname__}"
            try:
                source = textwrap.dedent(inspect.getsource(member))
            except OSError:  # generated code (a dataclass's __init__): nobody copies that
                continue
            found[qualified] = tokens(ast.parse(source).body[0])
            pending += _named(member, source)
    return found


def _named(function: types.FunctionType, source: str) -> list[Any]:
    """The harness functions `function` calls by name, including ones it imports inside."""
    named = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(function.__globals__.get(node.id),
                                                     types.FunctionType | type):
            named.append(function.__globals__[node.id])
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                isinstance(module := function.__globals__.get(node.value.id), types.ModuleType) \
                and from_kit(module.__name__):  # `loop.run`: a kit module's
            named.append(getattr(module, node.attr, None))
        elif isinstance(node, ast.ImportFrom) and from_kit(node.module):
            module = __import__(node.module, fromlist=["_"])
            named += [getattr(module, alias.name) for alias in node.names]
    return named


def _solution_cells(notebook: dict[str, Any], released: dict[str, str]) -> dict[str, str]:
    """The solution cells a student changed from the release, by grade id."""
    found = {}
    for cell in notebook.get("cells", []):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        source = "".join(cell.get("source", ""))
        if meta.get("solution") and cell.get("cell_type") == "code" and \
                meta.get("grade_id") in released and source != released[meta["grade_id"]]:
            found[meta["grade_id"]] = source
    return found


@dataclass(frozen=True)
class Uncompared:
    """A solution cell (or a whole notebook, `cell` empty) that could not be compared: `why`,
    for the instructor to look at. It concerns `student` alone; the rest of the class is still
    compared."""

    assignment: str
    cell: str
    student: str
    why: str


@dataclass
class Comparison:
    """What `compare` found: the pairs for review, and what it could not compare."""

    copies: list[Copy]
    uncompared: list[Uncompared]


def find(submissions: dict[tuple[str, str], dict[str, bytes]],
         definitions: dict[str, dict[str, Any]], *, threshold: float = THRESHOLD) -> list[Copy]:
    """Near-copies among `submissions` ((student, assignment) -> the submitted files), using
    the assignments' `definitions` (released cells, as `grader.course.definition` gives them)."""
    return compare(submissions, definitions, threshold=threshold).copies


def compare(submissions: dict[tuple[str, str], dict[str, bytes]],
            definitions: dict[str, dict[str, Any]], *,
            threshold: float = THRESHOLD) -> Comparison:
    """`find`, and the cells it could not compare (too deep, too large, unreadable)."""
    reference = {name: found for name, found in reference_functions().items()
                 if len(found) >= MIN_TOKENS}
    cells: dict[tuple[str, str], dict[str, list[str]]] = {}  # (assignment, cell) -> student
    copies: list[Copy] = []
    uncompared: list[Uncompared] = []
    for (student, assignment), files in sorted(submissions.items()):
        for notebook, released in definitions[assignment]["notebooks"].items():
            try:
                changed = _changed(files.get(f"{notebook}.ipynb"), released)
            except (RecursionError, MemoryError) as exc:
                uncompared.append(Uncompared(assignment, "", student, (
                    f"{notebook}.ipynb is too deep to compare ({type(exc).__name__} reading "
                    "its JSON)")))
                continue
            for grade_id, source in changed.items():
                try:
                    mine = _tokens(source)
                except TooDeep as exc:
                    uncompared.append(Uncompared(assignment, grade_id, student,
                                                 f"too deep to compare ({exc})"))
                    continue
                if sum(map(len, mine.values())) > MAX_TOKENS:
                    uncompared.append(Uncompared(assignment, grade_id, student, (
                        f"too large to compare (more than {MAX_TOKENS:,} syntax nodes)")))
                    continue
                if mine:
                    cells.setdefault((assignment, grade_id), {})[student] = list(
                        itertools.chain.from_iterable(mine.values()))
                for name, theirs in reference.items():
                    score = max((_alike(t, theirs, threshold) for t in mine.values()), default=0)
                    if score:
                        copies.append(Copy(assignment, grade_id, student, f"reference:{name}",
                                           round(score, 3)))
    for (assignment, grade_id), by_student in cells.items():
        for (one, left), (other, right) in itertools.combinations(sorted(by_student.items()), 2):
            if score := _alike(left, right, threshold):
                copies.append(Copy(assignment, grade_id, one, other, round(score, 3)))
    return Comparison(sorted(copies, key=lambda c: (c.assignment, c.cell, c.student, c.other)),
                      sorted(uncompared, key=astuple))


def _changed(data: bytes | None, released: list[dict[str, Any]]) -> dict[str, str]:
    """The solution cells a submitted notebook changed, by grade id ({} for a file that is not a
    notebook nbgrader could read: there is nothing to compare)."""
    sources = {c["name"]: c["source"] for c in released if c["solution"]}
    try:
        return _solution_cells(json.loads(data), sources) if data else {}
    except (ValueError, AttributeError, TypeError):
        return {}


def _tokens(source: str) -> dict[str, list[str]]:
    """A cell's functions long enough to compare, as token lists."""
    return {name: found for name, found in functions(source).items() if len(found) >= MIN_TOKENS}


def write_csv(copies: list[Copy], path: Path) -> None:
    """copies.csv: one row per pair (header: the `Copy` fields), next to grades.csv."""
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([f.name for f in fields(Copy)])
        writer.writerows(astuple(copy) for copy in copies)
