"""The exercises with the real nbgrader: the release is in sync with the source, the source
validates and the release does not, and a whole class goes through autograde, feedback and export.

The end-to-end tests read the test run's one graded class (`classgrader.graded`): a course built
from the repository's nbgrader_config.py and solutions/, where the reference solutions, the
untouched starters, every corpus submission (tests/grading/corpus) and one tampered notebook were
handed in and graded in ONE run of the class grader (the real `nbgrader autograde` in each shard;
tests/classgrader/test_batch.py shows it writes what sequential nbgrader writes), with feedback
and grades.csv. Each submission is one parametrised test. The score table goes to
test-artifacts/exercise_scores.md for the lead to read.
"""

from __future__ import annotations

import csv
import html
import re
from pathlib import Path

import nbformat
import pytest
from classgrader import graded
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


def _scores(course: Path) -> dict[tuple[str, str], tuple[float, float]]:
    with open(course / "grades.csv", newline="") as handle:
        return {(row["student_id"], row["assignment"]): (float(row["score"]),
                                                          float(row["max_score"]))
                for row in csv.DictReader(handle)}


CASES = [(student, exercise) for student, plan in sorted(graded.corpus_plan().items())
         for exercise in plan["exercises"]]
ROWS: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def course() -> Path:
    done = graded.graded_class()
    assert done.done.returncode == 0, done.done.stdout + done.done.stderr
    yield done.course
    _write_table([ROWS[case] for case in CASES if case in ROWS], done.seconds, len(CASES))


@pytest.mark.slow
@pytest.mark.parametrize(("student", "exercise"), CASES)
def test_each_submission_scores_what_it_should(course: Path, student: str, exercise: str):
    plan = graded.corpus_plan()[student]
    cells = _graded_cells(course, student, exercise)
    failed = {name for name, message in cells.items() if message}
    want = set(cells) if plan["fails"] == "all" else plan["fails"]
    score, total = _scores(course)[(student, exercise)]
    first = next((m for n, m in cells.items() if m), "")
    ROWS[(student, exercise)] = f"| {student} | {exercise} | {score:g} / {total:g} | " \
                                f"{_headline(first)} |"
    assert failed == want
    assert score == total - len(want)
    if plan.get("expect"):
        assert plan["expect"] in first


@pytest.mark.slow
def test_feedback_has_a_page_per_notebook_and_shows_no_hidden_test(course: Path):
    pages = {p.relative_to(course / "feedback").parts[:2]: p
             for p in (course / "feedback").glob("*/*/*.html")}
    assert set(CASES) <= set(pages)
    hidden = graded.hidden_lines()
    for case in CASES:
        text = html.unescape(re.sub(r"<[^>]+>", "", pages[case].read_text()))
        leaks = [line for line in hidden if line in text]
        assert not leaks, f"{pages[case]} shows hidden tests: {leaks}"


def _headline(message: str) -> str:
    """The first line and the hint of a failure, without terminal colours, for the table."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", message)
    lines = [line.strip() for line in plain.splitlines() if line.strip()]
    if not lines:
        return ""
    hint = next((line for line in lines if line.startswith("Hint:")), "")
    return (lines[0][:140] + (" / " + hint[:160] if hint else "")).replace("|", "/")


def _write_table(rows: list[str], seconds: float, notebooks: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    header = [f"End-to-end run of the class grader: {notebooks} corpus notebooks graded with the "
              f"hostile corpus in {seconds:.0f} s (autograde, grades.csv).", "",
              "| student | exercise | score | first failure |", "| --- | --- | --- | --- |"]
    (ARTIFACTS / "exercise_scores.md").write_text("\n".join(header + rows) + "\n")
