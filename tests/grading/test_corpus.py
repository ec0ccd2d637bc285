"""Every corpus submission, graded without nbgrader: each bug loses exactly the cells it should,
with a message that names it; every alternative implementation, the reference solution and the
per-student answers score full marks; the starters score nothing."""

from __future__ import annotations

import pytest

from grading import submissions

CASES = [(name, exercise) for name in submissions.corpus()
         for exercise in submissions.exercises_of(submissions.load(name))]


def _grade(name: str, exercise: str, student_id: str = "student") -> submissions.Graded:
    module = submissions.load(name)
    return submissions.simulate(submissions.submission(exercise, module, student_id=student_id),
                                exercise)


def test_corpus_is_large_enough():
    names = submissions.corpus()
    bugs = [n for n in names if not n.startswith(("valid_", "cheat_"))]
    assert len(bugs) >= 20
    assert len([n for n in names if n.startswith("valid_")]) >= 5
    for name in names:
        module = submissions.load(name)
        assert module.__doc__, f"{name} must say what it is in its docstring"


@pytest.mark.parametrize(("name", "exercise"), CASES)
def test_submission_loses_exactly_its_cells(name: str, exercise: str, tmp_path, monkeypatch):
    module = submissions.load(name)
    student = "copycat" if getattr(module, "TYPED_ID", None) else "student"
    # Autograde runs each notebook in autograded/<student>/<assignment>/: so do we.
    folder = tmp_path / "autograded" / student / exercise
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    graded = _grade(name, exercise, student)
    assert graded.failed == set(module.FAILS), {k: v for k, v in graded.cells.items() if v}
    if module.FAILS:
        first = next(message for message in graded.cells.values() if message)
        assert module.EXPECT in first


@pytest.mark.parametrize("exercise", submissions.EXERCISES)
def test_reference_solution_scores_full_marks(exercise: str):
    built = submissions.submission(exercise, None, student_id="student")
    graded = submissions.simulate(built, exercise)
    assert graded.cells and not graded.failed, graded.cells


@pytest.mark.parametrize("exercise", submissions.EXERCISES)
def test_starter_scores_nothing(exercise: str):
    graded = submissions.simulate(submissions.starter(exercise), exercise)
    assert graded.failed == set(graded.cells)
    for message in graded.cells.values():  # the checks explain, even on an empty starter
        assert "Traceback" not in message


def test_cheats_cover_every_exercise():
    cheats = {submissions.load(n).EXERCISE for n in submissions.corpus("cheat_")}
    assert cheats == set(submissions.EXERCISES)
