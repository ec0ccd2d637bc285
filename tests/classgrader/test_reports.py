"""What an instructor is told at the end of a run, on a small class with one case each: a hand
copy with no timestamp, a notebook handed in under another name, a corrupt one, a typed id that
is not the submission's, a late one, an edited test cell and a cell that runs past the time limit.
The summary and the `--report` file name each case once, for its student, in plain words; work
never handed in is only what is missing; no message names a function of the kit's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from classgrader import hostile
from classgrader.hostile import add_cell, index, reference, with_bug

pytestmark = pytest.mark.slow

EXPECTED = {("bob", "01_message_ordering"): "renamed",
            ("cara", "01_message_ordering"): "corrupt",
            ("dan", "04_cost"): "typed id",
            ("eve", "01_message_ordering"): "late",
            ("fay", "03_no_progress"): "edited cell",
            ("gus", "03_no_progress"): "timeout"}
"""The one case each student's work is, by kind; ada's hand copy is no case at all."""


def _hand_in(course: Path) -> set[tuple[str, str]]:
    """Hand the class in; return the (student, assignment) pairs handed in."""
    hostile.hand_in(course, "ada", "01_message_ordering", reference("01_message_ordering", "ada"))
    folder = course / "submitted" / "bob" / "01_message_ordering"
    folder.mkdir(parents=True)
    nbformat.write(reference("01_message_ordering", "bob"),
                   folder / "01_message_ordering (1).ipynb")
    folder = course / "submitted" / "cara" / "01_message_ordering"
    folder.mkdir(parents=True)
    whole = nbformat.writes(reference("01_message_ordering", "cara"))
    (folder / "01_message_ordering.ipynb").write_text(whole[: len(whole) // 2])  # cut short
    typed = reference("04_cost", "dan")
    cell = next(c for c in typed.cells if c.source.startswith("STUDENT_ID ="))
    cell.source = 'STUDENT_ID = "ada"'
    hostile.hand_in(course, "dan", "04_cost", typed)
    hostile.hand_in(course, "eve", "01_message_ordering", reference("01_message_ordering", "eve"))
    (course / "submitted" / "eve" / "01_message_ordering" / "timestamp.txt").write_text(
        "2026-01-03 12:00:00.000000 UTC")
    edited = with_bug("03_no_progress", "detector_consecutive_only", "fay")
    edited.cells[index(edited, "no_progress_catches_cycles")].source = "pass"
    hostile.hand_in(course, "fay", "03_no_progress", edited)
    looping = reference("03_no_progress", "gus")
    add_cell(looping, "call_key_tells_calls_apart", "while True:\n    pass")
    hostile.hand_in(course, "gus", "03_no_progress", looping)
    return {("ada", "01_message_ordering"), *EXPECTED}


def _due(course: Path) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "agent-loop-kit") as gradebook:
        gradebook.update_or_create_assignment("01_message_ordering",
                                              duedate="2026-01-02 00:00:00 UTC")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    course = hostile.course(tmp_path_factory.mktemp("reports"))
    handed = _hand_in(course)
    _due(course)
    done = hostile.batch(course, "*", "--jobs", "2", "--report", str(course / "report.json"))
    report = json.loads((course / "report.json").read_text())
    return course, handed, done, report


def test_each_case_is_reported_once_for_its_student(run):
    course, _, done, report = run
    cases = [(i["student"], i["assignment"], i["kind"]) for i in report
             if i["kind"] not in ("not handed in", "near-copy")]
    assert sorted(cases) == sorted((s, a, kind) for (s, a), kind in EXPECTED.items()), \
        done.stdout
    for (student, assignment), kind in EXPECTED.items():
        lines = [line for line in done.stdout.splitlines()
                 if line.startswith(f"  {student}/{assignment}") and f"[{kind}]" in line]
        assert len(lines) == 1, (kind, done.stdout)


def test_the_messages_say_what_happened_and_what_to_do(run):
    _, _, done, report = run
    said = {(i["student"], i["kind"]): i for i in report}
    assert "01_message_ordering (1).ipynb" in said["bob", "renamed"]["what"]
    assert "rename it" in said["bob", "renamed"]["what"]
    assert "not a notebook Jupyter can read" in said["cara", "corrupt"]["what"]
    assert "'ada'" in said["dan", "typed id"]["what"] and "'dan'" in said["dan", "typed id"]["what"]
    assert "after the due date" in said["eve", "late"]["what"]
    assert said["fay", "edited cell"]["cell"] == "no_progress_catches_cycles"
    assert "ran past the time limit" in said["gus", "timeout"]["what"]
    assert "died or hung" not in done.stdout
    # No message names a function of the kit's: no dotted or snake_case identifiers but cells'
    # ids (the grade ids an instructor sees in formgrader) and the assignments' own names.
    known = {i["cell"] for i in report} | {i["assignment"] for i in report}
    for incident in (i for i in report if i["kind"] != "near-copy"):  # names the reference's
        names = set(re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", incident["what"])) - known
        assert not names - {"zip_collect"}, (names, incident["what"])


def test_never_handed_in_is_only_what_is_missing(run):
    course, handed, done, report = run
    import csv

    rows = list(csv.DictReader((course / "grades.csv").read_text().splitlines()))
    missing = {(r["student_id"], r["assignment"]) for r in rows} - handed
    assert {(i["student"], i["assignment"]) for i in report
            if i["kind"] == "not handed in"} == missing
    assert f"{len(missing)} rows of grades.csv are work never handed in" in done.stdout
    ada = {r["assignment"]: r for r in rows if r["student_id"] == "ada"}
    assert ada["01_message_ordering"]["timestamp"] == "" and \
        float(ada["01_message_ordering"]["score"]) > 0  # a hand copy: graded, not "missing"


def test_regrading_one_assignment_keeps_the_classs_copies_csv(run):
    course = run[0]
    before = (course / "copies.csv").read_text().splitlines()
    assert any(line.startswith("01_message_ordering,") for line in before), before
    done = hostile.batch(course, "04_cost", "--student", "dan", "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (course / "copies.csv").read_text().splitlines() == before
