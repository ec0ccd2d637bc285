"""Near-copies for the instructor to review: of the reference, and between students of a class.

Each function a student wrote in a solution cell is reduced to its statements, each a normalised
syntax tree without the statements nested in it: docstrings, comments, formatting and type
annotations are gone, and every name the code binds or uses (other than Python's builtins) is the
same placeholder, so renaming variables, reformatting or re-commenting changes nothing. Attribute
names, operators and short constants stay: they are what the code does. Two cells are compared as
bags of statements (`overlap`: the share of their syntax nodes in statements both hold, 1.0 for
the same statements in any order), so reordering branches or moving code into a helper does not
hide a copy, and two answers that the wire format forces to build the same dictionaries still
differ in how they get there. (Measured on tests/classgrader/copies_corpus: independently written
correct solutions of to_anthropic and run_loop overlap 0.15 to 0.54, disguised copies 0.92 to
1.0; difflib's ratio of whole trees, used before, put independent answers at 0.24 to 0.73 and
reordered copies at 0.62 to 0.74.) `find` compares each submitted solution cell with the same
cell of every other student of the assignment, and each submitted function with the reference's
graded functions
(`course.exercises.reference` and the library functions it names); pairs at or above `THRESHOLD`
come back as `Copy` records. A flag, not a grade: nothing here touches the gradebook, and short
functions (fewer than `MIN_TOKENS` nodes, where any two correct answers look alike) are left out.
`compare` also says what it could not compare (`Uncompared`: a cell too deep for Python's parser
or too large, a notebook too deep to read), each for its own student: the rest is compared.
"""

from __future__ import annotations

import ast
import csv
import functools
import inspect
import itertools
import json
import textwrap
import types
from collections import Counter
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Any

from course.exercises.ownwork import from_kit, kit_folders
from grader.syntax import (  # noqa: F401 (the finder's measures, also named from here)
    Bag,
    TooDeep,
    alike,
    functions,
    overlap,
    similarity,
    statements,
    tokens,
)

THRESHOLD = 0.8
"""Overlap from which a pair is listed: between the highest of independent correct solutions
(0.54) and the lowest of disguised copies (0.92) in tests/classgrader/copies_corpus."""
MIN_TOKENS = 100
"""Tokens a function needs before it is compared (about 10 lines): two correct three-liners look
alike whoever wrote them."""
MAX_TOKENS = 5_000
"""Tokens of a cell's functions past which it is not compared (about 500 lines, five times the
capstone's answer): difflib's time grows with the square of the length, for every pair."""
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


@functools.cache
def reference_functions() -> dict[str, list[str]]:
    """The reference's graded functions (`course.exercises.reference.__all__`), the library
    functions they name, and their helpers, by qualified name, as tokens."""
    return {name: tokens(ast.parse(source).body[0])  # type: ignore[arg-type]
            for name, source in _reference_sources().items()}


@functools.cache
def reference_bags() -> dict[str, Bag]:
    """`reference_functions` long enough to compare, as bags of statements."""
    long = {name for name, found in reference_functions().items() if len(found) >= MIN_TOKENS}
    return {name: next(iter(statements(source).values()))
            for name, source in _reference_sources().items() if name in long}


@functools.cache
def _reference_sources() -> dict[str, str]:
    from course.exercises import reference

    found: dict[str, str] = {}
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
            found[qualified] = source
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
    reference = reference_bags()
    cells: dict[tuple[str, str], dict[str, Bag]] = {}  # (assignment, cell) -> student
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
                if not mine:
                    continue
                bags = statements(source)  # every function of the cell, helpers too
                whole = sum(bags.values(), Counter())
                cells.setdefault((assignment, grade_id), {})[student] = whole
                for name, theirs in reference.items():
                    score = max(alike(b, theirs, threshold) for b in [whole, *bags.values()])
                    if score:
                        copies.append(Copy(assignment, grade_id, student, f"reference:{name}",
                                           round(score, 3)))
    for (assignment, grade_id), by_student in cells.items():
        for (one, left), (other, right) in itertools.combinations(sorted(by_student.items()), 2):
            if score := alike(left, right, threshold):
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
