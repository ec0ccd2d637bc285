"""The grading process: every test's score, computed where no student code has ever run.

`python -P -m grader.verdict < JOB.json > SCORES.json`, once per shard after its notebooks ran
(in the OS sandbox too, though it needs it less: it runs only the checks). For each notebook the
job holds the gradebook's locked cells and tests (never the submission's copies) and the evidence
its kernel recorded (`grader.evidence`): per test, the names the test passes (the student's
callables as stand-ins, data as data) and what each of the checks' calls into student code gave.
This process imports the checks itself, runs the locked cells (which bind `check`), then each
test with a `Replayer`: the checks, the reference and the comparison run here, unpatched, on the
recorded answers. It stands in an empty `autograded/STUDENT/ASSIGNMENT/` folder, so per-student
numbers come from the true student. A test with no evidence, or evidence that does not fit the
checks' calls, scores 0 with a note. The batch caps each nbgrader score at this one (`merge`).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import sys
from typing import Any

from grader import evidence
from grader.kernel_log import digest


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


def _test(cell: dict[str, Any], namespace: dict[str, Any], record: dict[str, Any] | None
          ) -> dict[str, Any]:
    points = float(cell.get("points") or 0)
    if not isinstance(record, dict):
        return {"score": 0.0, "max": points, "note": "the test did not run to its end in the "
                "notebook (no record of what the student's code gave the checks)"}
    replayer = evidence.Replayer(list(record.get("calls") or []))
    hook = sys.modules["course.exercises.grader_hook"]
    hook.observer = replayer
    try:
        names = {str(name): evidence.Submitted(name) if value == "$callable"
                 else evidence.decode(value) for name, value in dict(record["names"]).items()}
        score = _score(_run(cell["source"], {**namespace, **names}, f"<test {cell['name']}>"),
                       points)
        note = None if not replayer.calls else "the notebook's run made calls the checks did not"
    except Exception as exc:  # noqa: BLE001 (a failed test is an outcome)
        first = str(exc).splitlines()[0] if str(exc) else ""
        score, note = 0.0, replayer.problem or f"{type(exc).__name__}: {first}"
    finally:
        hook.observer = None
    return {"score": score if note is None else 0.0, "max": points, "note": note}


def grade(cells: list[dict[str, Any]], records: dict[str, Any]) -> dict[str, Any]:
    """Each test's score for one notebook, from the gradebook's cells and its kernel's records."""
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
    return {"scores": scores}


def main() -> int:
    job = json.load(sys.stdin)
    import course.exercises  # noqa: F401 (the checks, imported here before any record is read)

    out, results, root = sys.stdout, {}, os.getcwd()
    for item in job["notebooks"]:
        folder = os.path.join(root, "autograded", item["student"], item["assignment"])
        os.makedirs(folder, exist_ok=True)
        os.chdir(folder)
        records = {}
        for key, text in item["evidence"].items():
            try:
                records[key] = json.loads(text)
            except Exception:  # noqa: BLE001 (not JSON, or nested past the parser's depth)
                records[key] = None
        # One notebook's records cannot stop the shard's other notebooks from being graded.
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                results[item["key"]] = grade(item["cells"], records)
            except Exception:  # noqa: BLE001 (its tests then score 0, each with a note)
                results[item["key"]] = {"scores": {}}
    json.dump(results, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
