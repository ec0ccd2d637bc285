"""What a graded kernel needs and cannot make itself, made by the shard before any kernel starts.

A graded kernel has no reference (`grader.withhold`), and some checks need it to set up their
cases: the capstone's per-student variants are recorded by running the reference loop through
the emulator. An exercise whose checks module defines `record_ahead(student_id, seeds, folder)`
gets it called here for each of its students, with the `seed=` arguments its tests pass
(hidden ones included: these are the gradebook's cells). The sandbox mounts each student's
folder, read-only, for that student's kernels only; the grading process reads them all. This
module runs no student code.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from course.exercises import CHECK_MODULES, exercise_module


def record(ahead: Path, payload: dict[str, Any]) -> None:
    """What each student's kernel needs and cannot make itself (it has no reference), made here
    into `ahead/STUDENT/`: for an exercise whose checks define `record_ahead` (the capstone's
    variants, recorded by the reference loop), with the seeds its hidden tests pass."""
    for item in payload["submissions"]:
        assignment = item["assignment"]
        if assignment not in CHECK_MODULES:
            continue
        checks = exercise_module(assignment)
        if hasattr(checks, "record_ahead"):
            found = seeds(payload["definitions"][assignment])
            checks.record_ahead(item["student"], found, ahead / item["student"])


def seeds(definition: dict[str, Any]) -> list[int | None]:
    """The literal `seed=` arguments of the assignment's tests that also pass a `student_id`
    (per-student cases made from both; hidden tests included: these are the gradebook's cells),
    in order, once each."""
    found: list[int | None] = []
    for cells in definition["notebooks"].values():
        for cell in cells:
            if not cell["grade"] or cell["cell_type"] != "code":
                continue
            try:
                tree = ast.parse(cell["source"])
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                given = {k.arg: k.value for k in node.keywords}
                if "student_id" not in given:
                    continue
                seed = given.get("seed")
                value = seed.value if isinstance(seed, ast.Constant) else None
                if (value is None or isinstance(value, int)) and value not in found:
                    found.append(value)
    return found
