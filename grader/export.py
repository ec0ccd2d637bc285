"""Grades out of the gradebook: grades.csv, written by nbgrader's own CSV exporter, and which of
its rows are work never handed in.

nbgrader's export writes a row for every student and assignment, and a 0.0 with no timestamp for
work it holds no submission of. A submission copied in by hand or by `nbgrader zip_collect` has no
timestamp either, so the timestamp cannot tell them apart: the gradebook can (a submission
record exists or not). For an LMS's gradebook see `grader.lms`. Nothing here grades.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any


def export(course: Any, path: Path) -> list[tuple[str, str]]:
    """grades.csv at `path` for `course` (a `grader.course.Course`); returns the (student,
    assignment) rows that are work never handed in (no submission in the gradebook)."""
    from nbgrader.plugins import CsvExportPlugin

    with course.gradebook() as gradebook:
        CsvExportPlugin(config=course.config, to=str(path)).export(gradebook)
        submitted = {(s.student.id, s.assignment.name)
                     for a in gradebook.assignments for s in a.submissions}
    with path.open(newline="") as rows:
        return [(row["student_id"], row["assignment"]) for row in csv.DictReader(rows)
                if (row["student_id"], row["assignment"]) not in submitted]
