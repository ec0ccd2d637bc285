"""The cells of one notebook as the re-check runs them, and the child process that runs them.

`plan` lists the code cells: the student's own cells as submitted, the locked cells and tests from
the gradebook (never from the submission). `run_child` runs a plan in a forked child that has
confined itself (`seccomp.confine_child`) and stands in the student's own folder, so the id comes
from the true student: before each test it puts the grading code back (`snapshot`) and rebinds the
names the locked cells bound, and a test scores 0 if it raises, writes to stderr or leaves the
grading code changed. It reports each cell on a pipe; `recheck` watches it from outside.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import signal
import sys
import types
from typing import Any


def plan(cells: list[dict[str, Any]], definition: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The code cells to run, in order: locked cells and tests from `definition` (the gradebook's
    source cells, in their order), the student's other code as submitted; locked cells or tests
    the submission lost go back after the source cell before them, as nbgrader does.

    Example:
        >>> plan([{"cell_type": "code", "source": "x = 1", "grade_id": None}], [])
        [{'kind': 'student', 'source': 'x = 1', 'grade_id': None, 'points': 0}]
    """
    source = {d["name"]: d for d in definition}
    steps: list[dict[str, Any]] = []
    where: dict[str, int] = {}
    for cell in cells:
        known = source.get(cell.get("grade_id"))
        if known and known["cell_type"] == "code" and (known["locked"] or known["grade"]) \
                and not known["solution"]:
            steps.append(_step(known))
            where[known["name"]] = len(steps) - 1
        elif cell["cell_type"] == "code":
            steps.append({"kind": "student", "source": cell["source"],
                          "grade_id": cell.get("grade_id"), "points": 0})
            if known:
                where[known["name"]] = len(steps) - 1
    for index, known in enumerate(definition):
        if known["name"] in where or known["cell_type"] != "code" or known["solution"] \
                or not (known["locked"] or known["grade"]):
            continue
        before = [where[d["name"]] for d in definition[:index] if d["name"] in where]
        at = max(before) + 1 if before else 0
        steps.insert(at, _step(known))
        where = {name: i + (i >= at) for name, i in where.items()}
        where[known["name"]] = at
    return steps


def _step(known: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "grade" if known["grade"] else "locked", "source": known["source"],
            "grade_id": known["name"], "points": float(known.get("points") or 0)}


def _protected(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Names a locked cell bound to grading objects (modules, harness objects)."""
    found = {}
    for name, value in after.items():
        if before.get(name) is value or name.startswith("__"):
            continue
        module = getattr(value, "__module__", None) if not isinstance(value, types.ModuleType) \
            else value.__name__
        if isinstance(value, types.ModuleType) or (isinstance(module, str) and (
                module == "harness" or module.startswith("harness."))):
            found[name] = value
    return found


def _run(source: str, namespace: dict[str, Any], label: str) -> Any:
    """Run one cell; return the value IPython would display (the last bare expression)."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        source = TransformerManager().transform_cell(source)
    except ImportError:
        pass
    tree = ast.parse(source, filename=label)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) \
        and not source.rstrip().endswith(";") else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, label, "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), label, "eval"), namespace)


def _score(value: Any, points: float) -> float:
    """nbgrader's rule for a test that passed: a printed number is a partial grade."""
    if value is None:
        return points
    try:
        grade = float(repr(value))
    except ValueError:
        return points
    return min(grade, points) if grade >= 0 else points


def run_child(steps: list[dict[str, Any]], skip: set[int], snapshot: Any, out: int,
           guard: dict[str, Any]) -> None:
    from grader.seccomp import confine_child

    os.chdir(guard["own"])
    sys.path.insert(0, "")
    if guard.get("tmp"):
        import tempfile

        tempfile.tempdir = os.environ["TMPDIR"] = guard["tmp"]
    null = os.open(os.devnull, os.O_RDWR)
    err = os.open(guard["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(err, 2)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if guard.get("confine"):
        confine_child()
    # Captured before any student code runs: it could rebind this module's names.
    write, dumps, fstat, flush, grade, run = os.write, json.dumps, os.fstat, sys.stderr.flush, \
        _grade, _run
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    write(out, b"ready\n")
    protected: dict[str, Any] = {}
    for index, step in enumerate(steps):
        write(out, f"start {index}\n".encode())
        report: dict[str, Any] = {"index": index}
        if index in skip:
            report["error"] = "not run: it stopped the process in an earlier attempt"
        elif step["kind"] == "grade":
            report.update(grade(step, namespace, protected, snapshot, guard["own"]))
        else:
            before = dict(namespace)
            try:
                run(step["source"], namespace, f"<cell {index}>")
            except BaseException as exc:  # noqa: BLE001 (a failing cell is an outcome)
                report["error"] = f"{type(exc).__name__}: {exc}"[:300]
            if step["kind"] == "locked":
                protected.update(_protected(before, namespace))
        try:
            flush()
        except BaseException:  # noqa: BLE001
            pass
        report["stderr"] = fstat(2).st_size
        write(out, ("done " + dumps(report) + "\n").encode())
    write(out, b"end\n")
    os._exit(0)


def _grade(step: dict[str, Any], namespace: dict[str, Any], protected: dict[str, Any],
           snapshot: Any, own: str) -> dict[str, Any]:
    snapshot.restore()
    os.chdir(own)  # the id comes from the folder: a chdir in an earlier cell must not count
    namespace.update(protected)
    changed = snapshot.changes()
    if changed:
        return {"score": 0.0, "note": "the grading code was changed and could not be put back: "
                + "; ".join(changed[:3])}
    try:
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001
        pass
    size = os.fstat(2).st_size
    try:
        value = _run(step["source"], namespace, f"<test {step['grade_id']}>")
        score, note = _score(value, step["points"]), None
    except BaseException as exc:  # noqa: BLE001 (a failed test is an outcome)
        score, note = 0.0, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    try:
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001
        pass
    if os.fstat(2).st_size != size and score:
        score, note = 0.0, "wrote to stderr during the test"
    changed = snapshot.changes()
    if changed:
        score, note = 0.0, "the submission changed the grading code while the test ran: " \
            + "; ".join(changed[:3])
    return {"score": score, "note": note}
