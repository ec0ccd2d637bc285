"""No warning an instructor cannot look up: every warning nbgrader prints while grading a class
with tampering students (the hostile corpus under plain `nbgrader autograde`) and rendering its
feedback is one the instructor's guide (docs/instructors.md, "Warnings you may see") explains, and
an honest student's notebook raises none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from classgrader import graded

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "instructors.md").read_text()
# The section: from its heading, whatever its level, to the next heading.
SECTION = re.split(r"^#+ Warnings you may see.*$", GUIDE, maxsplit=1,
                   flags=re.M)[1].split("\n#")[0]
# Each warning the guide explains, as nbgrader words it, and the words the guide quotes.
EXPLAINED = {
    r"Attribute '\w+' for cell \S+ has changed!": "Attribute 'checksum' for cell X has changed!",
    r"Missing grade cell \S+ encountered, adding to notebook": "Missing grade cell X encountered",
    r"Cell '\S+' does not exist in the database": "does not exist in the",
    r"is [\d.]+ seconds late": "seconds late",
    r"MissingIDFieldWarning: Cell is missing an id field": "MissingIDFieldWarning: Cell is missing",
    r"Removing existing (assignment|notebook): ": "Removing existing assignment",
    r"Removing failed (assignment|notebook): ": "Removing failed assignment",
    r"Alternative text is missing on \d+ image\(s\)": "Alternative text is missing on N image(s)",
}
WARNING = re.compile(r"WARNING|[A-Za-z]+Warning\b")
STUDENT = re.compile(r"/(?:submitted|autograded)/([^/]+)/")


def warnings_by_student(log: str) -> list[tuple[str, str]]:
    """(student, line) for each warning line; the student is the one nbgrader last named."""
    found, student = [], ""
    for line in log.splitlines():
        if match := STUDENT.search(line):
            student = match.group(1)
        if WARNING.search(line):
            found.append((student, line))
    return found


@pytest.mark.parametrize("quoted", EXPLAINED.values())
def test_the_instructors_guide_explains_each_warning_the_test_accepts(quoted):
    assert quoted in " ".join(SECTION.split()), quoted


@pytest.mark.slow
def test_every_warning_of_a_class_with_tampering_students_is_explained():
    plain, batch = graded.plain_class(), graded.graded_class()
    logs = {"nbgrader autograde": plain.log,
            "nbgrader generate_feedback": batch.feedback.stdout + batch.feedback.stderr}
    unexplained = [f"{command}: {line}" for command, log in logs.items()
                   for _, line in warnings_by_student(log)
                   if not any(re.search(pattern, line) for pattern in EXPLAINED)]
    assert not unexplained, ("warnings docs/instructors.md does not explain:\n"
                             + "\n".join(unexplained))


@pytest.mark.slow
def test_an_honest_students_notebook_raises_no_warning():
    flagged = {student for student, _ in warnings_by_student(graded.plain_class().log)}
    honest = set(graded.NEIGHBOURS) & flagged
    assert not honest, f"warnings for honest students {sorted(honest)}"
    assert {"edited_test_cell", "deleted_test_cell"} <= flagged  # the tamperers are named
