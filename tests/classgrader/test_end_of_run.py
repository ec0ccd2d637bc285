"""The end of every run of `python -m grader autograde`: whichever stage raises (grading, the
export, the near-copy finder), the others still run, the summary is printed, the --report file,
grades.csv and copies.csv are written, the failure is an incident of its own and the command
exits 1. Each stage is forced to fail in turn, in a course of the test run's release with one
submission (the grading stage is skipped where it is not the one failing: it is not the subject)."""

from __future__ import annotations

import json

import pytest

from classgrader import hostile
from grader import autograde, copies, merge

pytestmark = pytest.mark.slow


def _fail(*args, **kwargs):
    raise RuntimeError("forced to fail by the test")


@pytest.mark.parametrize(("stage", "target", "name"), [
    ("grading", (autograde.Batch, "_grade"), "grading"),
    ("grades.csv", (autograde, "export"), "grades.csv"),
    ("the near-copy finder", (copies, "compare"), "compare"),
])
def test_a_failing_stage_leaves_the_rest_written(stage, target, name, tmp_path, monkeypatch,
                                                 capsys):
    course = hostile.course(tmp_path)
    hostile.hand_in(course, "ada", "03_no_progress", hostile.reference("03_no_progress", "ada"))
    (course / "copies.csv").write_text("a copies.csv of an earlier run\n")
    monkeypatch.setenv("PATH", hostile.environment()["PATH"])  # nbgrader runs alembic by name
    if stage != "grading":
        monkeypatch.setattr(autograde.Batch, "_grade", lambda self: None)
    monkeypatch.setattr(*target, _fail)
    report = tmp_path / "report.json"
    code = autograde.main(["03_no_progress", "--course", str(course), "--unsafe-no-sandbox",
                           "--quiet", "--report", str(report)])
    printed = capsys.readouterr().out
    assert code == 1
    failure = f"{stage} failed: RuntimeError: forced to fail by the test"
    assert failure in printed and "near-copies flagged for review in copies.csv" in printed
    assert [i["what"] for i in json.loads(report.read_text())] == [
        f"{failure} (the other stages still ran)"]
    assert (course / "copies.csv").read_text().splitlines() == [
        "assignment,cell,student,other,similarity"]  # this run's, empty: nothing compared
    if stage != "grades.csv":
        assert (course / "grades.csv").read_text().startswith("assignment,duedate,")


def test_an_incident_that_cannot_be_printed_as_is_still_is(tmp_path, monkeypatch, capsys):
    # A terminal that cannot show every character (LANG=C): the summary still prints, escaped.
    course = hostile.course(tmp_path)
    hostile.hand_in(course, "ada", "03_no_progress", hostile.reference("03_no_progress", "ada"))
    monkeypatch.setenv("PATH", hostile.environment()["PATH"])

    def odd(self):
        self.merger = merge.Merger(self.course, self.definitions)
        self.merger.incidents.append(merge.Incident("ada", "03_no_progress", "said \udcff"))
        self.merger.close()

    monkeypatch.setattr(autograde.Batch, "_grade", odd)
    report = tmp_path / "report.json"
    assert autograde.main(["03_no_progress", "--course", str(course), "--unsafe-no-sandbox",
                           "--quiet", "--report", str(report)]) == 0
    assert "ada/03_no_progress: said \\udcff" in capsys.readouterr().out
    assert json.loads(report.read_text())[0]["what"] == "said \udcff"
