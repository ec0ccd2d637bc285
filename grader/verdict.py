"""The grading process: every test's score, computed where no student code has ever run.

`python -P -m grader.verdict < JOB.json > SCORES.json`, once per shard after its notebooks ran
(in the OS sandbox too, though it needs it less: it runs only the checks). For each notebook the
job holds the gradebook's locked cells and tests (never the submission's copies) and the evidence
its kernel recorded (`grader.evidence`): per test, the names the test passes (the student's
callables as stand-ins, data as data) and what each of the checks' calls into student code gave.
This process imports the checks itself, runs the locked cells (which bind `check`), then each
test with a `Replayer`: the checks, the reference and the comparison run here, unpatched, on the
recorded answers. It stands in an empty `autograded/STUDENT/ASSIGNMENT/` folder, so per-student
numbers come from the true student, and it reads what the shard made ahead for that student
(`grader.ahead`). The batch takes each test's score from here (`merge`).

A record is the student's data and decides nothing but their answers: a name it gives never
replaces one the gradebook's cells bind (`check`, say), only plain data and the student's own
callables come in, and a test with no record, two records, or a record that does not fit the
checks' calls scores 0 with a note saying so. Whatever a record holds, the failure stays in its
test: every test and every notebook is graded apart, past any exception. A failure of the kit's
own (`KitError`: its reference or a recording) is reported as such, for a grade by hand.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from course.exercises.capstone.scenario_variants import AHEAD
from grader import evidence, observers
from grader.kernel_log import digest, self_check

RECORD_LIMIT = 4_000_000
"""Characters of one test's record the grading process reads at most (a larger one is the
student's doing: the recorder writes far less)."""
DUPLICATED = "$duplicated"
"""What the job holds for a test the notebook recorded more than once."""


def _run(source: str, namespace: dict[str, Any], label: str) -> Any:
    """Run one cell; return the value IPython would display (the last bare expression)."""
    from IPython.core.inputtransformer2 import TransformerManager

    source = TransformerManager().transform_cell(source)
    tree = ast.parse(source, filename=label)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) \
        and not source.rstrip().endswith(";") else None
    exec(compile(tree, label, "exec"), namespace)
    return None if last is None else eval(compile(ast.Expression(last.value), label, "eval"),
                                          namespace)


def _score(value: Any, points: float) -> float:
    """nbgrader's rule for a test that passed: a displayed number is a partial grade."""
    try:
        grade = float(repr(value)) if value is not None else points
    except ValueError:
        return points
    return min(grade, points) if grade >= 0 else points


def _test(cell: dict[str, Any], namespace: dict[str, Any], record: Any) -> dict[str, Any]:
    """One test's score, with a note when the record was at fault, and the message a student
    should read (the check's failure, or the note)."""
    points = float(cell.get("points") or 0)
    problem = _unusable(record)
    if problem:
        return {"score": 0.0, "max": points, "note": problem, "message": problem}
    replayer = observers.Replayer(list(record.get("calls") or []))
    hook = sys.modules["course.exercises.grader_hook"]
    report = sys.modules["course.exercises.report"]
    hook.observer = replayer
    try:
        names = _names(cell["source"], namespace, record["names"])
        missing = _used(cell["source"]) - set(namespace) - set(names) - set(dir(builtins))
        if missing:  # the student's cell that defines it failed, as the notebook shows
            message = f"NameError: name {sorted(missing)[0]!r} is not defined"
            return {"score": 0.0, "max": points, "note": None, "message": message}
        score = _score(_run(cell["source"], {**names, **namespace}, f"<test {cell['name']}>"),
                       points)
        if replayer.calls:
            note = "the notebook's run made calls the checks did not"
            return {"score": 0.0, "max": points, "note": note, "message": note}
        return {"score": score, "max": points, "note": None, "message": None}
    except report.KitError as exc:
        return {"score": 0.0, "max": points, "kit_error": True, "note": f"the kit failed while "
                f"grading this test, not the student: {exc}", "message": None}
    except evidence.Malformed as exc:
        note = f"the record of this test is not the recorder's ({exc})"
        return {"score": 0.0, "max": points, "note": note, "message": note}
    except BaseException as exc:  # noqa: BLE001 (a failed test is an outcome, whatever it is)
        if replayer.problem:
            return {"score": 0.0, "max": points, "note": replayer.problem,
                    "message": replayer.problem}
        message = str(exc) if isinstance(exc, AssertionError) else \
            f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return {"score": 0.0, "max": points, "note": None, "message": message}
    finally:
        hook.observer = None


def _unusable(record: Any) -> str | None:
    """Why a test's record cannot be replayed at all, or None."""
    if record == DUPLICATED:
        return "the notebook recorded this test more than once (a record was forged)"
    if not isinstance(record, dict):
        return ("the test did not run to its end in the notebook (no record of what the "
                "student's code gave the checks)")
    if not isinstance(record.get("names"), dict) or not isinstance(record.get("calls"), list):
        return "the record of this test is not the recorder's (its names or calls are missing)"
    return None


def _names(source: str, namespace: dict[str, Any], recorded: dict[str, Any]) -> dict[str, Any]:
    """What the record gives for the names the test uses that the gradebook's cells do not bind:
    a student's callable as a stand-in, anything else as plain data. A name the test does not
    use, or one the gradebook binds (`check`), is never taken from the record."""
    used = _used(source)
    found = {}
    for name, value in recorded.items():
        if name not in used or name in namespace or name.startswith("__"):
            continue
        found[name] = evidence.Submitted(name) if value == "$callable" \
            else evidence.decode(value, plain=True)
    return found


def _used(source: str) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}


def _self_check(source: str, namespace: dict[str, Any], record: Any) -> dict[str, Any]:
    """What a self-check cell (`kernel_log.self_check`) prints when its call runs on the
    kernel's record of it: {"text": its output, "error": why it did not run to its end}."""
    if not self_check(source):
        return {"text": "", "error": "not a self-check cell"}
    problem = _unusable(record)
    if problem:
        return {"text": "", "error": problem}
    replayer = observers.Replayer(list(record.get("calls") or []))
    hook = sys.modules["course.exercises.grader_hook"]
    hook.observer = replayer
    printed = io.StringIO()
    try:
        names = _names(source, namespace, record["names"])
        missing = _used(source) - set(namespace) - set(names) - set(dir(builtins))
        if missing:
            return {"text": "", "error": f"NameError: name {sorted(missing)[0]!r} is not "
                                         f"defined"}
        with contextlib.redirect_stdout(printed):
            _run(source, {**names, **namespace}, "<self-check>")
        return {"text": printed.getvalue(), "error": replayer.problem}
    except BaseException as exc:  # noqa: BLE001 (the cell's output says so, nothing more)
        return {"text": printed.getvalue(), "error": replayer.problem or
                f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"}
    finally:
        hook.observer = None


def grade(cells: list[dict[str, Any]], records: dict[str, Any],
          checks: Sequence[str] = ()) -> dict[str, Any]:
    """Each test's score for one notebook, from the gradebook's cells and its kernel's records,
    and what each of the student's self-check cells `checks` prints (by the cell's digest)."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    scores = {}
    for cell in cells:
        if cell["cell_type"] != "code" or cell["solution"] or not (cell["locked"]
                                                                  or cell["grade"]):
            continue
        if cell["grade"]:
            scores[cell["name"]] = _test(cell, namespace, records.get(digest(cell["source"])))
            continue
        try:  # a locked cell of the gradebook's (imports, setup); one that fails binds less
            _run(cell["source"], namespace, f"<cell {cell['name']}>")
        except BaseException:  # noqa: BLE001, S110 (it may name the student's variables)
            pass
    printed = {digest(source): _self_check(source, namespace, records.get(digest(source)))
               for source in checks}
    return {"scores": scores, "checks": printed}


def _records(evidence_lines: dict[str, Any]) -> dict[str, Any]:
    """The job's records as data: each test's JSON parsed (too large or not JSON: None)."""
    records: dict[str, Any] = {}
    for key, text in evidence_lines.items():
        if text == DUPLICATED:
            records[key] = DUPLICATED
            continue
        try:
            records[key] = json.loads(text) if len(text) <= RECORD_LIMIT else None
        except Exception:  # noqa: BLE001 (not JSON, or nested past the parser's depth)
            records[key] = None
    return records


def main() -> int:
    job = json.load(sys.stdin)
    import course.exercises  # noqa: F401 (the checks, imported here before any record is read)

    out, results, root = sys.stdout, {}, os.getcwd()
    for item in job["notebooks"]:
        folder = os.path.join(root, "autograded", item["student"], item["assignment"])
        os.makedirs(folder, exist_ok=True)
        os.chdir(folder)
        os.environ[AHEAD] = item.get("ahead") or ""
        # One notebook's records cannot stop the shard's other notebooks from being graded.
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                results[item["key"]] = grade(item["cells"], _records(item["evidence"]),
                                             list(item.get("checks") or []))
            except BaseException as exc:  # noqa: BLE001 (its tests then score 0, each noted)
                results[item["key"]] = {"scores": {}, "problem": (
                    f"the grading process failed on this notebook's records "
                    f"({type(exc).__name__}): its tests score 0 until graded by hand")}
    json.dump(results, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
