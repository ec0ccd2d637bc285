"""The exercises with the real nbgrader: the release is in sync with the source, the source
validates and the release does not, and a whole class goes through autograde, feedback and export.

The end-to-end test builds a course in a temporary folder from the repository's nbgrader_config.py
and solutions/, hands in the reference solutions, the untouched starters, every corpus submission
(tests/grading/corpus) and one tampered notebook, then grades them all in ONE autograde call
(nbgrader pays about 5 s per command and 1.5 s per notebook). It writes the score table to
test-artifacts/exercise_scores.md for the lead to read.
"""

from __future__ import annotations

import csv
import html
import re
import time
from pathlib import Path

import nbformat
import pytest
from grading import submissions

from grader import release

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
EXERCISES = submissions.EXERCISES


def _cell_meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


@pytest.mark.slow
def test_release_is_in_sync_with_solutions():
    assert release.main(["--check"]) == 0, "run: python -m grader release"


@pytest.mark.slow
def test_nbgrader_validate_passes_solutions_and_fails_every_released_test():
    solutions = [str(ROOT / "solutions" / n / f"{n}.ipynb") for n in EXERCISES]
    # validate_all: every code cell of a solution runs cleanly, the try-it cells included.
    done = release.nbgrader("validate", "--Validator.validate_all=True", *solutions, cwd=ROOT)
    assert done.stdout.count("Success! Your notebook passes all the tests.") == len(EXERCISES), \
        done.stdout
    released = [str(ROOT / "exercises" / n / f"{n}.ipynb") for n in EXERCISES]
    done = release.nbgrader("validate", "--invert", *released, cwd=ROOT)
    assert done.stdout.count("Success! The notebook does not pass any tests.") \
        == len(EXERCISES), done.stdout


def test_notebooks_follow_the_house_rules():
    for name in EXERCISES:
        source = submissions.notebook("solutions", name)
        code = [c for c in source.cells if c.cell_type == "code"]
        assert 2 * (len(source.cells) - len(code)) >= len(source.cells), name
        assert "version(" in code[0].source, f"{name}: the first code cell prints versions"
        assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)
        ids = [_cell_meta(c)["grade_id"] for c in source.cells if _cell_meta(c)]
        assert len(ids) == len(set(ids)), name
        assert all(_cell_meta(c)["schema_version"] == 3 for c in source.cells if _cell_meta(c))
        hidden = [c for c in code if "BEGIN HIDDEN TESTS" in c.source]
        assert 1 <= len(hidden) <= 3, f"{name}: hidden tests, but sparingly"
        assert all(_cell_meta(c).get("grade") for c in hidden)


def test_a_deleted_test_cell_can_be_restored():
    """nbgrader 0.9.6 puts a deleted test cell back after the nbgrader cell before it in the
    source, and crashes the whole submission (KeyError) unless that cell is a grade or solution
    cell: so no locked cell may sit between a solution and its tests."""
    for name in EXERCISES:
        previous = None
        for cell in submissions.notebook("solutions", name).cells:
            meta = _cell_meta(cell)
            if not meta:
                continue
            if meta.get("grade"):
                assert previous and (previous.get("grade") or previous.get("solution")), \
                    f"{name}: {meta['grade_id']} follows {previous and previous['grade_id']}"
            previous = meta


def test_every_graded_cell_calls_its_check():
    from harness.grading import EXERCISES as MODULES

    for name in EXERCISES:
        for cell in submissions.notebook("solutions", name).cells:
            meta = _cell_meta(cell)
            if meta.get("grade"):
                grade_id = meta["grade_id"]
                assert hasattr(MODULES[name], grade_id), f"{name}: no check named {grade_id}"
                assert f"check.{grade_id}(" in cell.source
                assert meta["points"] > 0 and meta["locked"]



def _hand_in(course: Path, student: str, exercise: str, notebook: nbformat.NotebookNode) -> None:
    folder = course / "submitted" / student / exercise
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / f"{exercise}.ipynb")


def _tampered() -> nbformat.NotebookNode:
    """Completion-order bug, the model-order test deleted and another test emptied."""
    module = submissions.load("ordering_completion_order")
    notebook = submissions.submission("01_message_ordering", module, student_id="tampered")
    cells = []
    for cell in notebook.cells:
        grade_id = _cell_meta(cell).get("grade_id")
        if grade_id == "append_round_keeps_model_order":
            continue
        if grade_id == "append_round_adds_turn_then_results":
            cell.source = "pass"
        cells.append(cell)
    notebook.cells = cells
    return notebook


def _class(course: Path) -> dict[str, dict]:
    """Hand in every submission; return what each student is expected to get."""
    expected: dict[str, dict] = {}
    for exercise in EXERCISES:
        _hand_in(course, "solution", exercise,
                 submissions.submission(exercise, None, student_id="solution"))
        _hand_in(course, "starter", exercise, submissions.starter(exercise))
    expected["solution"] = {"fails": set(), "exercises": EXERCISES}
    expected["starter"] = {"fails": "all", "exercises": EXERCISES}
    for name in submissions.corpus():
        module = submissions.load(name)
        student = "copycat" if getattr(module, "TYPED_ID", None) else name
        for exercise in submissions.exercises_of(module):
            _hand_in(course, student, exercise,
                     submissions.submission(exercise, module, student_id=student))
        expected[student] = {"fails": set(module.FAILS), "expect": getattr(module, "EXPECT", ""),
                             "exercises": submissions.exercises_of(module), "module": name}
    _hand_in(course, "tampered", "01_message_ordering", _tampered())
    expected["tampered"] = {"fails": {"append_round_keeps_model_order"},
                            "expect": "in the order they finished",
                            "exercises": ["01_message_ordering"]}
    return expected


def _graded_cells(course: Path, student: str, exercise: str) -> dict[str, str | None]:
    path = course / "autograded" / student / exercise / f"{exercise}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    cells: dict[str, str | None] = {}
    for cell in notebook.cells:
        if _cell_meta(cell).get("grade") and cell.cell_type == "code":
            errors = [o for o in cell.outputs if o.output_type == "error"
                      or (o.output_type == "stream" and o.name == "stderr")]
            cells[_cell_meta(cell)["grade_id"]] = (
                "\n".join(errors[0].get("traceback") or [errors[0].get("text", "")])
                if errors else None)
    return cells


def _hidden_lines() -> list[str]:
    lines = []
    for name in EXERCISES:
        for cell in submissions.notebook("solutions", name).cells:
            inside = False
            for line in cell.source.splitlines():
                if "BEGIN HIDDEN TESTS" in line:
                    inside = True
                elif "END HIDDEN TESTS" in line:
                    inside = False
                elif inside and line.strip():
                    lines.append(line.strip())
    return lines


def _scores(course: Path) -> dict[tuple[str, str], tuple[float, float]]:
    with open(course / "grades.csv", newline="") as handle:
        return {(row["student_id"], row["assignment"]): (float(row["score"]),
                                                          float(row["max_score"]))
                for row in csv.DictReader(handle)}


@pytest.mark.slow
def test_end_to_end_with_the_real_nbgrader(tmp_path: Path):
    started = time.perf_counter()
    course = tmp_path / "course"
    course.mkdir()
    release.build(EXERCISES, course)
    expected = _class(course)
    release.nbgrader("autograde", "*", cwd=course)
    release.nbgrader("generate_feedback", "*", cwd=course)
    release.nbgrader("export", "--to", "grades.csv", cwd=course)
    seconds = time.perf_counter() - started

    scores, rows, problems = _scores(course), [], []
    for student, plan in sorted(expected.items()):
        for exercise in plan["exercises"]:
            cells = _graded_cells(course, student, exercise)
            failed = {name for name, message in cells.items() if message}
            want = set(cells) if plan["fails"] == "all" else plan["fails"]
            score, total = scores[(student, exercise)]
            first = next((m for n, m in cells.items() if m), "")
            headline = _headline(first)
            rows.append(f"| {student} | {exercise} | {score:g} / {total:g} | {headline} |")
            if failed != want:
                problems.append(f"{student}/{exercise}: failed {sorted(failed)}, "
                                f"expected {sorted(want)}")
            if score != total - len(want):
                problems.append(f"{student}/{exercise}: scored {score} of {total}")
            if plan.get("expect") and plan["expect"] not in first:
                problems.append(f"{student}/{exercise}: message lacks {plan['expect']!r}: "
                                f"{first[:300]}")
    _write_table(rows, seconds, len(expected))

    # Feedback: every graded notebook has a page, and no page shows a hidden test.
    pages = list((course / "feedback").glob("*/*/*.html"))
    assert len(pages) == sum(len(plan["exercises"]) for plan in expected.values())
    hidden = _hidden_lines()
    assert hidden
    for page in pages:
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))
        leaks = [line for line in hidden if line in text]
        assert not leaks, f"{page} shows hidden tests: {leaks}"
    assert not problems, "\n".join(problems)


def _headline(message: str) -> str:
    """The first line and the hint of a failure, without terminal colours, for the table."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", message)
    lines = [line.strip() for line in plain.splitlines() if line.strip()]
    if not lines:
        return ""
    hint = next((line for line in lines if line.startswith("Hint:")), "")
    return (lines[0][:140] + (" / " + hint[:160] if hint else "")).replace("|", "/")


def _write_table(rows: list[str], seconds: float, students: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    header = [f"End-to-end nbgrader run: {students} students, {len(rows)} notebooks, "
              f"{seconds:.0f} s (generate, autograde, feedback, export).", "",
              "| student | exercise | score | first failure |", "| --- | --- | --- | --- |"]
    (ARTIFACTS / "exercise_scores.md").write_text("\n".join(header + rows) + "\n")
