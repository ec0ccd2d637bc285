"""The line between the graded notebook and the grading process (grader/evidence.py,
grader/verdict.py), without nbgrader: a test cell run as a kernel runs it, with a `Recorder`,
then judged by `verdict.grade` from the record alone, as JSON, in this process with the student's
code out of reach. The whole corpus is judged this way by the batch tests (tests/classgrader)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import types

import pytest
from grading import submissions

import course.exercises.grader_hook as hook
from course import compare
from course.exercises.report import CheckFailed
from grader import evidence, observers, verdict
from grader.kernel_log import digest


def _cells(exercise: str) -> list[dict]:
    """The gradebook's view of an exercise's cells (as grader.course.definition gives it)."""
    return [{"name": m.get("grade_id"), "cell_type": c.cell_type, "source": c.source,
             "locked": bool(m.get("locked")), "grade": bool(m.get("grade")),
             "solution": bool(m.get("solution")), "points": m.get("points", 0)}
            for c in submissions.notebook("solutions", exercise).cells
            if (m := submissions.nbgrader(c))]


def kernel(exercise: str, corpus: str | None, *, after: str = "") -> tuple[dict, dict]:
    """Run a submission as a graded kernel would (`after`: more code after the solution cells);
    return each test's outcome there and the records, through JSON."""
    built = submissions.submission(exercise, submissions.load(corpus) if corpus else None,
                                   student_id="ada")
    tests = {c["name"]: c["source"] for c in _cells(exercise) if c["grade"]}
    namespace: dict = {"__name__": "__main__"}
    recorder, records, passed = observers.Recorder(), {}, {}
    hook.observer = recorder
    try:
        for cell in built.cells:
            meta = submissions.nbgrader(cell)
            if meta.get("grade"):
                source = tests[meta["grade_id"]]
                used = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
                recorder.begin({n: namespace[n] for n in sorted(used) if n in namespace
                                and not isinstance(namespace[n], types.ModuleType)})
                passed[meta["grade_id"]] = submissions._run(source, namespace) is None
                records[digest(source)] = json.loads(json.dumps(recorder.end()))
            elif meta.get("solution") or meta.get("locked") or "STUDENT_ID =" in cell.source:
                submissions._run(cell.source, namespace)
                if meta.get("solution") and after:
                    submissions._run(after, namespace)
    finally:
        hook.observer = None
    return passed, records


def judged(exercise: str, records: dict) -> dict[str, float]:
    scores = verdict.grade(_cells(exercise), records)["scores"]
    return {name: found["score"] for name, found in scores.items()}


def judged_apart(exercise: str, records: dict, folder) -> dict[str, float]:
    """`judged` as the batch runs it, by `python -P -m grader.verdict` in a process of its own:
    nothing the notebook's run computed (the reference's plays, their timings) is shared."""
    job = {"notebooks": [{"student": "ada", "assignment": exercise, "key": "it",
                          "cells": _cells(exercise),
                          "evidence": {k: json.dumps(v) for k, v in records.items()}}]}
    done = subprocess.run([sys.executable, "-P", "-m", "grader.verdict"], input=json.dumps(job),
                          capture_output=True, text=True, cwd=folder, check=True)
    return {name: found["score"] for name, found in json.loads(done.stdout)["it"]["scores"].items()}


@pytest.mark.parametrize("exercise,corpus", [
    ("01_message_ordering", "ordering_completion_order"), ("01_message_ordering", None),
    ("02_early_exit", "loop_caller_list_grows"), ("02_early_exit", "loop_exit_after_first_result"),
    ("03_no_progress", "key_returns_a_tuple"), ("03_no_progress", "detector_retry_flagged"),
    ("04_cost", "cost_mutates_usages"), ("04_cost", "usage_anthropic_cache_not_added"),
    ("05_capstone", None), ("05_capstone", "capstone_no_closing_call")])
def test_the_grading_process_agrees_with_the_notebook_on_honest_code(exercise, corpus, tmp_path,
                                                                     monkeypatch):
    # Honest code only: a kernel here has the whole kit, and a record of answers the reference
    # gave is answers all the same. Under the class grader a kernel has no reference to hand
    # the work to (grader.withhold: tests/classgrader/test_withhold.py and the hostile corpus).
    folder = tmp_path / "autograded" / "ada" / exercise  # where nbgrader runs ada's notebook
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    passed, records = kernel(exercise, corpus)
    assert not all(passed.values()) or corpus is None
    assert judged_apart(exercise, records, tmp_path) == {name: 1.0 if ok else 0.0
                                                         for name, ok in passed.items()}


def test_a_patched_reference_fools_the_notebook_not_the_grading_process():
    from course.exercises import reference

    patch = "import course.exercises.reference as _r\n_r.NoProgress = NoProgress"
    original = reference.NoProgress
    try:
        passed, records = kernel("03_no_progress", "detector_consecutive_only", after=patch)
    finally:  # the kernel's process ends with the notebook; the grading process never saw it
        reference.NoProgress = original
    assert passed["no_progress_catches_cycles"]  # in the kernel, the patch works
    assert judged("03_no_progress", records)["no_progress_catches_cycles"] == 0.0


def test_records_that_do_not_fit_the_checks_calls_score_zero():
    _, records = kernel("04_cost", None)
    test = next(c for c in _cells("04_cost") if c["name"] == "run_cost_prices_cached_input")
    record = records[digest(test["source"])]
    assert judged("04_cost", records)["run_cost_prices_cached_input"] == 1.0
    other = {**record, "calls": [{**record["calls"][0], "inputs": "0" * 32}, *record["calls"][1:]]}
    fewer = {**record, "calls": record["calls"][:-1]}
    more = {**record, "calls": record["calls"] + record["calls"][-1:]}
    for changed, note in ((other, "on other inputs"), (fewer, "stopped before"),
                          (more, "calls the checks did not"), (None, "did not run to its end")):
        found = verdict.grade(_cells("04_cost"), {digest(test["source"]): changed})
        assert found["scores"]["run_cost_prices_cached_input"]["score"] == 0.0
        assert note in found["scores"]["run_cost_prices_cached_input"]["note"]


def test_data_comes_back_as_the_same_types_and_runs_nothing():
    value = {"a": (1, 2.5, None), 3: {frozenset({"x"})}, "$b": [None, True],
             "c": compare.Outcome(value=[1], error=KeyError("k"))}
    back = evidence.decode(json.loads(json.dumps(evidence.encode(value))))
    assert back["a"] == (1, 2.5, None) and back[3] == {frozenset({"x"})}
    assert back["$b"] == [None, True] and isinstance(back["c"], compare.Outcome)
    assert isinstance(back["c"].error, KeyError) and str(back["c"].error) == "'k'"
    from harness.messages import AssistantMessage, ToolCall
    from offline.scripted import ScriptedModel, Step

    message = AssistantMessage(content="hi", tool_calls=[ToolCall(id="c1", name="f",
                                                                  arguments={"x": 1})])
    model = ScriptedModel([Step.say("Hello!")])
    back = evidence.decode(json.loads(json.dumps(evidence.encode([message, model]))))
    assert back[0] == message  # one of the kit's types a check compares, validated again
    assert isinstance(back[1], evidence.Opaque)  # any other object: a stand-in, nothing built
    check_failed = evidence.decode(evidence.encode(CheckFailed("no")))
    assert isinstance(check_failed, CheckFailed) and str(check_failed) == "no"
    # Named classes outside the fixed set are never looked up, let alone imported or called,
    # even the kit's own (a ScriptedModel, an emulator).
    for data in ({"$dc": ["os:system", {"command": "true"}]}, {"$enum": ["subprocess:Popen", 1]},
                 {"$dc": ["offline.scripted:ScriptedModel", {"script": []}]},
                 {"$model": ["harness.messages:Message", {}]}):
        assert isinstance(evidence.decode(data), evidence.Opaque)
    stranger = evidence.decode({"$exc": ["student:Trap", "boom"]})
    assert type(stranger).__name__ == "Trap" and type(stranger).__mro__[1] is Exception
    with pytest.raises(TypeError):
        evidence.Submitted("run_loop")()


def test_names_in_a_record_are_plain_data_and_never_replace_the_gradebooks():
    passed, records = kernel("03_no_progress", "detector_consecutive_only")
    test = next(c for c in _cells("03_no_progress") if c["name"] == "no_progress_catches_cycles")
    record = records[digest(test["source"])]
    assert judged("03_no_progress", records)["no_progress_catches_cycles"] == 0.0
    # A forged `check` that would pass anything, and the detector as some kit object.
    forged = {**record, "names": {**record["names"], "check": {"$dc": [
        "course.compare:Outcome", {"value": None}]}, "NoProgress": {"$model": [
            "harness.messages:Usage", {}]}}}
    found = verdict.grade(_cells("03_no_progress"), {digest(test["source"]): forged})
    assert found["scores"]["no_progress_catches_cycles"]["score"] == 0.0


@pytest.mark.parametrize("raised", [
    {"$exc": ["builtins:SystemExit", "0"]}, {"$exc": ["builtins:KeyboardInterrupt", ""]},
    {"$exc": ["course.compare:_TimeUp", ""]}, {"$dc": ["course.compare:Outcome", {}]}])
def test_a_record_that_raises_stops_only_its_own_test(raised):
    _, records = kernel("04_cost", None)
    test = next(c for c in _cells("04_cost") if c["name"] == "run_cost_prices_cached_input")
    record = records[digest(test["source"])]
    forged = {**record, "calls": [{**record["calls"][0], "raised": raised}]}
    forged_records = {**records, digest(test["source"]): forged}
    scores = verdict.grade(_cells("04_cost"), forged_records)["scores"]
    assert scores["run_cost_prices_cached_input"]["score"] == 0.0
    others = {name: found["score"] for name, found in scores.items()
              if name != "run_cost_prices_cached_input"}
    assert set(others.values()) == {1.0}, others  # the rest of the notebook still graded


@pytest.mark.parametrize("record", [
    "$duplicated", [1, 2], {"names": "x", "calls": []},
    {"names": {"run_cost": "$callable"}, "calls": [[]]},
    {"names": {"run_cost": "$callable"},
     "calls": [{"function": "call", "inputs": 1, "returned": {"$input": 99}}]},
    {"names": {"run_cost": "$callable"},
     "calls": [{"function": "call", "returned": {"$dc": ["x", 1, 2]}}]}])
def test_malformed_or_forged_records_score_zero_with_a_note(record):
    test = next(c for c in _cells("04_cost") if c["name"] == "run_cost_prices_cached_input")
    found = verdict.grade(_cells("04_cost"), {digest(test["source"]): record})
    scored = found["scores"]["run_cost_prices_cached_input"]
    assert scored["score"] == 0.0 and scored["note"]
