"""What was handed in, looked at before anything is graded: the files of one submission, read as
plain JSON (no student code runs here).

`inspect(files, notebooks, student)` takes a submission's files and the names of its assignment's
notebooks and says what to grade and what the instructor should know: a notebook that is not
JSON Jupyter can read (corrupt, or cut short by an upload), a notebook handed in under another
name (`01_message_ordering (1).ipynb`, the way browsers and LMSs rename downloads), and a
student id typed into the notebook (`STUDENT_ID = "..."`) that is not the one the submission is
filed under. Unreadable and unknown notebooks are left out of what the shard receives (nbgrader
would skip an unknown notebook, or give the whole submission up when none is left); the
submission's other files are kept. `look` does it for a batch's submissions. It grades nothing and
changes no file on disk.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from typing import Any

PLACEHOLDER = "type-your-student-id-here"
"""What the released notebooks hold in the STUDENT_ID cell until a student types their id."""
ID_NAME = "STUDENT_ID"


@dataclass
class Finding:
    """One thing about a submission, in plain words with what to do (`kind` names the case)."""

    kind: str
    what: str
    notebook: str = ""


@dataclass
class Intake:
    """What to send for grading, and what was found."""

    files: dict[str, bytes]
    findings: list[Finding] = field(default_factory=list)

    @property
    def gradable(self) -> bool:
        return any(name.endswith(".ipynb") for name in self.files)


def inspect(files: dict[str, bytes], notebooks: list[str], student: str,
            where: str) -> Intake:
    """Look at one submission (`where`: its folder, for the messages) before grading it."""
    kept = {name: data for name, data in files.items() if not name.endswith(".ipynb")}
    found: list[Finding] = []
    expected = {f"{name}.ipynb" for name in notebooks}
    handed = {name: data for name, data in files.items() if name.endswith(".ipynb")}
    readable = {}
    for name, data in handed.items():
        problem = _unreadable(data)
        if problem:
            found.append(Finding("corrupt", (
                f"{name} is not a notebook Jupyter can read ({problem}): it was not graded "
                f"and scores 0; ask the student to hand it in again (or open {where}/{name} "
                "in a text editor: an upload cut short ends mid-way)"), _stem(name)))
            continue
        readable[name] = data
    unknown = sorted(set(readable) - expected)
    absent = sorted(expected - set(readable) - {n for n in handed if n in expected})
    for name in unknown:
        guess = _likely(name, absent)
        found.append(Finding("renamed", (
            f"handed in {name}, which is not a notebook of this assignment "
            f"({', '.join(sorted(expected))}): it was not graded"
            + (f" and {guess} scores 0; if it is the student's {guess}, rename it in {where}/ "
               f"and regrade with --student {student}" if guess else
               f"; if it holds the student's work, rename it in {where}/ and regrade with "
               f"--student {student}")), _stem(guess or name)))
    for name in sorted(set(readable) & expected):
        kept[name] = readable[name]
        typed = typed_id(readable[name])
        if typed and typed != student:
            found.append(Finding("typed id", (
                f"the notebook says {ID_NAME} = {typed!r}, but it was handed in as {student!r}: "
                f"it was graded as {student!r} (per-student numbers and scenarios come from the "
                f"folder), so answers worked out for {typed!r} score 0. If {typed!r} is this "
                f"student's id, move {where} to submitted/{typed}/ and regrade"), _stem(name)))
    return Intake(kept, found)


def _stem(name: str) -> str:
    return name[:-len(".ipynb")] if name.endswith(".ipynb") else name


def _likely(name: str, absent: list[str]) -> str:
    """The expected notebook a renamed one most likely is: the only one missing, or the one
    whose name it starts with (`01_message_ordering (1).ipynb`)."""
    starts = [a for a in absent if name.startswith(_stem(a))]
    if len(starts) == 1:
        return starts[0]
    return absent[0] if len(absent) == 1 else ""


def _unreadable(data: bytes) -> str | None:
    """Why `data` is no notebook Jupyter reads, or None."""
    try:
        notebook = json.loads(data)
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {str(exc).splitlines()[0][:120]}"
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return "JSON, but no list of cells"
    return None


def typed_id(data: bytes) -> str | None:
    """The string a code cell assigns to STUDENT_ID at its top level (the last such cell), or
    None when there is none or it is still the placeholder."""
    try:
        cells = json.loads(data).get("cells", [])
    except (ValueError, RecursionError, AttributeError):
        return None
    found = None
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if ID_NAME not in source:
            continue
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == ID_NAME for t in node.targets) and \
                    isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                found = node.value.value.strip()
    return None if not found or found == PLACEHOLDER else found


def look(course: Any, pairs: list[tuple[str, str]], definitions: dict[str, dict[str, Any]]
         ) -> tuple[dict[tuple[str, str], Intake], dict[tuple[str, str], tuple[str, str]],
                    list[dict[str, str]]]:
    """`inspect` each (student, assignment) of `course` (a `grader.course.Course`): what to
    grade of each, the submissions with nothing to grade ((kind, why) each), and the findings
    of the others as `grader.merge.Incident`'s fields."""
    intakes: dict[tuple[str, str], Intake] = {}
    failed: dict[tuple[str, str], tuple[str, str]] = {}
    incidents: list[dict[str, str]] = []
    for student, assignment in pairs:
        folder = course.submitted(student, assignment)
        where = str(folder.relative_to(course.root)) if folder.is_relative_to(course.root) \
            else str(folder)
        found = intakes[(student, assignment)] = inspect(
            course.files(folder), list(definitions[assignment]["notebooks"]), student, where)
        if not found.gradable:
            failed[(student, assignment)] = (
                ", ".join(sorted({f.kind for f in found.findings})) or "not handed in",
                "; ".join(f.what for f in found.findings) or "no notebook was handed in")
            continue
        incidents += [{"student": student, "assignment": assignment, "what": f.what,
                       "notebook": f.notebook, "kind": f.kind} for f in found.findings]
    return intakes, failed, incidents
