"""The parallel batch (`python -m grader`): its pieces without nbgrader, then a class graded
both ways, by plain sequential `nbgrader autograde` + `nbgrader export` and by the batch on two
shards, which must leave the same gradebook (every score, comment, flag, penalty and timestamp),
the same grades.csv and the same autograded notebooks; then one student regraded both ways.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from classgrader import hostile
from grader import autograde as batch
from grader.engine import Progress

# The pieces ---------------------------------------------------------------------------------


def test_split_keeps_a_students_submissions_together_and_balances():
    pairs = [(s, a) for s in "abcdef" for a in ("x", "y")] + [("g", "x")]
    shards = batch.split(pairs, 3)
    assert sorted(p for shard in shards for p in shard) == sorted(pairs)
    assert all(len({a for s, a in shard if s == student}) in (0, 1, 2)
               for shard in shards for student in "abcdefg")
    assert max(map(len, shards)) - min(map(len, shards)) <= 2
    assert batch.split(pairs, 99) and len(batch.split(pairs, 99)) == 7


def test_culprit_is_the_cell_the_kernel_was_running_when_it_stopped():
    assert batch.culprit(["kernel 1", "guarded", "start a", "done a", "start b"]) == "b"
    assert batch.culprit(["kernel 1", "start a", "done a"]) is None
    assert batch.culprit(["kernel 1", "start a", "kernel 2", "start c"]) == "c"
    assert batch.culprit([]) is None


def test_it_refuses_to_grade_unsandboxed_unless_told_it_is_unsafe(monkeypatch, tmp_path):
    from grader import sandbox

    monkeypatch.setattr(sandbox, "unavailable", lambda: "the sandbox needs Linux (this is darwin)")
    with pytest.raises(SystemExit) as refused:
        batch.main(["*", "--course", str(tmp_path)])
    message = str(refused.value)
    assert message.startswith("refusing to grade") and "this is darwin" in message
    assert "container recipe" in message and "--unsafe-no-sandbox" in message
    guide = Path(__file__).resolve().parents[2] / "docs" / "instructors.md"
    assert "(docs/instructors.md, 'Grading a whole class')" in message
    assert "\n## Grading a whole class\n" in guide.read_text()  # the section the message names

    class Graded(Exception):
        pass

    def grade(options):
        raise Graded(options.unsafe_no_sandbox)

    monkeypatch.setattr(batch, "Batch", grade)
    with pytest.raises(Graded):  # told, it goes on to grade
        batch.main(["*", "--course", str(tmp_path), "--unsafe-no-sandbox"])


@pytest.mark.parametrize("theirs", [None, ["nbgrader.preprocessors.Execute",
                                            "nbgrader.preprocessors.LimitOutput"]])
def test_a_shards_nbgrader_runs_the_bounded_execute(tmp_path, theirs):
    """The scratch course's config loads (nbgrader would carry on without it, and without ipc
    no kernel starts) and runs `BoundedExecute` where the course's config has Execute."""
    from traitlets.config.loader import PyFileConfigLoader

    from grader import shard

    config = "c = get_config()\n" + (f"c.Autograde.autograde_preprocessors = {theirs!r}\n"
                                     if theirs else "")
    shard._write_course(tmp_path, {"dirs": {"source": "source", "submitted": "submitted"},
                                   "config": config, "gradebook": b"", "source_files": {},
                                   "submissions": []})
    loaded = PyFileConfigLoader("nbgrader_config.py", path=str(tmp_path)).load_config()
    steps = [getattr(step, "__name__", step) for step in loaded.Autograde.autograde_preprocessors]
    assert steps[0] == "grader.bounded.BoundedExecute"
    assert steps[1:] == (["nbgrader.preprocessors.LimitOutput"] if theirs else
                         ["IgnorePattern", "ClearMetadataPreprocessor", "LimitOutput",
                          "SaveAutoGrades", "AssignLatePenalties", "CheckCellMetadata"])
    assert loaded.KernelManager.transport == "ipc"


def test_progress_line_has_a_bar_and_an_eta():
    stream = io.StringIO()
    progress = Progress(4, stream=stream)
    progress.update("shard-0", 1)
    progress.update("shard-1", 2, final=True)
    progress.update("shard-1", 0)  # a shard's count is final once it has finished
    line = progress.line()
    assert line.startswith("grading: 3/4 [") and "75%" in line and "ETA 0:00:0" in line


def test_a_merge_that_fails_part_way_leaves_no_kernel_score_standing(tmp_path):
    """nbgrader's SaveAutoGrades commits the kernel's scores on its own; if the merge then
    fails (here: a verdict that is not the grading process's), those scores must not stand."""
    import nbformat

    from grader.course import Course, definition
    from grader.merge import Merger

    root = hostile.course(tmp_path)
    course = Course.open(root)
    with course.gradebook() as gradebook:
        definitions = {"04_cost": definition(gradebook, "04_cost")}
    notebook = nbformat.writes(hostile.reference("04_cost", "ada")).encode()  # no error outputs
    merger = Merger(course, definitions)
    merger.register(["ada"])
    merger.merge({"student": "ada", "assignment": "04_cost", "ok": True, "cells": ["guarded"],
                  "files": {"04_cost.ipynb": notebook}, "verdict": {"04_cost": "forged"}})
    merger.close()
    scores = hostile.scores(root)[("ada", "04_cost")]
    assert scores and set(scores.values()) == {0.0}, scores
    assert [i.what.split(":")[0] for i in merger.incidents] == ["not recorded"]
    with sqlite3.connect(root / "gradebook.db") as db:
        assert {row[0] for row in db.execute("SELECT needs_manual_grade FROM grade")} == {1}


# A class graded both ways -------------------------------------------------------------------

EXERCISES = ["01_message_ordering", "04_cost"]
CLASS = {  # student: {exercise: corpus bug, None for the reference, "starter"}
    "ada": {"01_message_ordering": None, "04_cost": None},
    "bob": {"01_message_ordering": "ordering_completion_order", "04_cost": "cost_off_by_one"},
    "cal": {"01_message_ordering": "starter", "04_cost": "starter"},
    "dee": {"01_message_ordering": "anthropic_tool_role", "04_cost": "usage_copied_neighbour"},
    "eve": {"01_message_ordering": None, "04_cost": "cost_cached_counted_twice"},
    "fay": {"01_message_ordering": "ordering_results_merged"},
}
DUE = "2026-11-01 12:00:00.000000"
LATE = {("eve", "01_message_ordering"), ("bob", "04_cost")}


def _notebook(student: str, exercise: str, bug: str | None):
    if bug == "starter":
        return hostile.starter(exercise)
    if bug is None:
        return hostile.reference(exercise, student)
    return hostile.with_bug(exercise, bug, student)


def _prepare(course: Path) -> None:
    """Hand the class in, with timestamps, a due date, late penalties and a roster."""
    for student, work in CLASS.items():
        for exercise, bug in work.items():
            hostile.hand_in(course, student, exercise, _notebook(student, exercise, bug))
            day = "02" if (student, exercise) in LATE else "01"
            (course / "submitted" / student / exercise / "timestamp.txt").write_text(
                f"2026-11-{day} 10:00:00.000000 UTC")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write('c.LateSubmissionPlugin.penalty_method = "zero"\n')
    with sqlite3.connect(course / "gradebook.db") as db:
        db.execute("UPDATE assignment SET duedate = ?", (DUE,))
        db.execute("INSERT INTO student (id, first_name, last_name, email) VALUES "
                   "('bob', 'Bob', 'Stone', 'bob@example.org')")


JOINS = """JOIN submitted_assignment sa ON sn.assignment_id = sa.id
           JOIN assignment a ON sa.assignment_id = a.id JOIN notebook n ON sn.notebook_id = n.id"""


def _state(course: Path) -> dict[str, list]:
    """Everything autograde writes to the gradebook, keyed by names (ids differ run to run)."""
    with sqlite3.connect(course / "gradebook.db") as db:
        def query(sql: str) -> list:
            return sorted(db.execute(sql).fetchall(), key=repr)

        return {
            "grades": query(f"""SELECT sa.student_id, a.name, n.name, bc.name, g.auto_score,
                g.manual_score, g.extra_credit, g.needs_manual_grade FROM grade g
                JOIN base_cell bc ON g.cell_id = bc.id
                JOIN submitted_notebook sn ON g.notebook_id = sn.id {JOINS}"""),
            "comments": query(f"""SELECT sa.student_id, a.name, n.name, bc.name, c.auto_comment,
                c.manual_comment FROM comment c JOIN base_cell bc ON c.cell_id = bc.id
                JOIN submitted_notebook sn ON c.notebook_id = sn.id {JOINS}"""),
            "notebooks": query(f"""SELECT sa.student_id, a.name, n.name, sn.flagged,
                sn.late_submission_penalty FROM submitted_notebook sn {JOINS}"""),
            "submissions": query("""SELECT sa.student_id, a.name, sa.timestamp, sa.extension
                FROM submitted_assignment sa JOIN assignment a ON sa.assignment_id = a.id"""),
            "students": db.execute("SELECT * FROM student").fetchall()}


def _autograded(course: Path) -> dict[str, list]:
    """Each autograded notebook's cells (source, outputs, metadata) without what differs between
    any two runs: the execution timestamps, and where the kernel split a stream into chunks."""
    found = {}
    for path in sorted((course / "autograded").rglob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        for cell in cells:
            cell["metadata"].pop("execution", None)
            cell["outputs"] = _joined(cell.get("outputs", []))
        found[str(path.relative_to(course))] = cells
    return found


def _joined(outputs: list[dict]) -> list[dict]:
    joined: list[dict] = []
    for output in outputs:
        if output.get("output_type") == "stream" and joined and \
                joined[-1].get("output_type") == "stream" and joined[-1]["name"] == output["name"]:
            joined[-1] = {**joined[-1], "text": "".join(joined[-1]["text"]) + "".join(
                output["text"])}
        else:
            joined.append({**output, "text": "".join(output["text"])} if "text" in output
                          else output)
    return joined


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    sequential = hostile.course(tmp_path_factory.mktemp("sequential"))
    parallel = hostile.course(tmp_path_factory.mktemp("parallel"))
    for course in (sequential, parallel):
        _prepare(course)
    done = _side_by_side(sequential, parallel, ["*"], ["*", "--jobs", "2", "--quiet"])
    assert done.returncode == 0, done.stdout + done.stderr
    return sequential, parallel, done


def _side_by_side(sequential: Path, parallel: Path, autograde: list[str],
                  batch: list[str]) -> subprocess.CompletedProcess:
    """Sequential `nbgrader autograde` (then export) on one course while the batch grades the
    other: they are independent, so they overlap."""
    def nbgrader() -> None:
        hostile.nbgrader(sequential, "autograde", *autograde)
        hostile.nbgrader(sequential, "export", "--to", "grades.csv")

    with ThreadPoolExecutor(1) as pool:
        plain = pool.submit(nbgrader)
        done = hostile.batch(parallel, *batch)
        plain.result()
    return done


@pytest.mark.slow
def test_parallel_batch_writes_what_sequential_nbgrader_writes(both):
    sequential, parallel, done = both
    assert _state(parallel) == _state(sequential)
    assert (parallel / "grades.csv").read_text() == (sequential / "grades.csv").read_text()
    assert _autograded(parallel) == _autograded(sequential)
    # Nothing capped in an honest class: what it reports is the lateness and the typed id.
    assert "3 incidents" in done.stdout, done.stdout
    for student, exercise in LATE:
        assert f"  {student}/{exercise}: [late] handed in 22 h after the due date" in done.stdout
    assert "  dee/04_cost: [typed id] the notebook says STUDENT_ID = 'ada'" in done.stdout
    rows = csv.DictReader((parallel / "grades.csv").read_text().splitlines())
    missing = [f"{row['student_id']}/{row['assignment']}" for row in rows if not row["timestamp"]]
    assert missing, "the test class has work never handed in"
    assert f"{len(missing)} rows of grades.csv are work never handed in" in done.stdout
    assert all(pair in done.stdout for pair in missing), done.stdout
    # ada and eve both handed in the reference solution: a flag for review, not a lower grade
    copied = (parallel / "copies.csv").read_text().splitlines()
    assert copied[0] == "assignment,cell,student,other,similarity"
    assert "01_message_ordering,append_round_solution,ada,eve,1.0" in copied
    assert ("01_message_ordering,append_round_solution,ada,"
            "reference:course.exercises.reference.append_round,1.0") in copied
    assert "near-copies flagged for review in copies.csv" in done.stdout
    scores = hostile.scores(parallel)
    assert sum(scores[("ada", "01_message_ordering")].values()) == 7
    assert sum(scores[("cal", "04_cost")].values()) == 0


@pytest.mark.slow
def test_regrading_one_student_replaces_only_their_rows(both):
    sequential, parallel, _ = both
    untouched = {p: p.read_bytes() for p in (parallel / "autograded").rglob("*.ipynb")
                 if "/bob/" not in str(p)}
    before = _state(parallel)
    for course in (sequential, parallel):  # bob fixes his loop and gets a manual point
        hostile.hand_in(course, "bob", "01_message_ordering",
                        hostile.reference("01_message_ordering", "bob"))
        with sqlite3.connect(course / "gradebook.db") as db:
            db.execute("""UPDATE grade SET manual_score = 0.5 WHERE id IN (SELECT g.id FROM grade g
                JOIN base_cell bc ON g.cell_id = bc.id JOIN submitted_notebook sn
                ON g.notebook_id = sn.id JOIN submitted_assignment sa ON sn.assignment_id = sa.id
                WHERE sa.student_id = 'bob' AND bc.name = 'run_cost_sums_every_call')""")
    done = _side_by_side(sequential, parallel, ["*", "--student", "bob", "--force"],
                         ["*", "--student", "bob", "--quiet"])
    assert done.returncode == 0, done.stdout + done.stderr
    after, plain = _state(parallel), _state(sequential)
    # The one difference: nbgrader marks bob's hand-graded cell "needs manual grade" again; the
    # class grader keeps the instructor's score as the grade (column 7: needs_manual_grade).
    kept = [row for row in after["grades"] if row[5] is not None]
    assert [row[3] for row in kept] == ["run_cost_sums_every_call"] and kept[0][5] == 0.5
    assert kept[0][7] == 0 and [r[7] for r in plain["grades"] if r[5] is not None] == [1]
    assert {**after, "grades": [r for r in after["grades"] if r[5] is None]} == \
        {**plain, "grades": [r for r in plain["grades"] if r[5] is None]}
    assert (parallel / "grades.csv").read_text() == (sequential / "grades.csv").read_text()
    for table, rows in after.items():  # only bob's rows changed
        assert [r for r in rows if "bob" not in r] == [r for r in before[table] if "bob" not in r]
    assert before["grades"] != after["grades"]
    assert all(p.read_bytes() == data for p, data in untouched.items())
    assert "nothing to grade" in hostile.batch(parallel, "*", "--quiet").stdout
