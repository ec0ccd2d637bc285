"""The out-of-kernel re-check: each submission graded again, outside its notebook's state.

`python -m grader.recheck < JOB.json > RESULT.json`, from a folder holding `autograded/STUDENT/
ASSIGNMENT/` for the shard's students (the shard runs it once, in the OS sandbox). It reads every
student's files into memory and removes them from the folder, imports the grading code, snapshots
it (`snapshot`), then takes the students one at a time: it lays out that student's folders alone
(so no child sees another student's work), forks one child per notebook to run its plan
(`cells`), then wipes the folders and the temp folder before the next student. Each child confines
itself before any student code runs (`seccomp.confine_child`: no process of its own, no signal or
ptrace to this parent, which is not dumpable either). The parent watches each child from
outside: a cell that outlives its time is interrupted, then killed, and the notebook runs again
without it; reports that break the protocol (a submission writing to the pipe) score the
notebook 0. The batch caps each nbgrader score at the re-check's score; this module only computes
them. What it adds to the sandbox: the tests' results come from the checks as imported, put back
before every test, never from code the submission patched in its own kernel.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterable
from typing import Any

from grader.cells import run_child

GRACE = 3.0  # seconds between the interrupt and the kill
RESTARTS = 4  # a notebook whose cells keep killing the child stops being retried


class _Interfered(Exception):
    """The child's reports broke the protocol: the submission wrote to the re-check's pipe."""


class _Broken(Exception):
    """The child failed before running any student code: the re-check itself is at fault."""


def _attempt(steps: list[dict[str, Any]], skip: set[int], snapshot: Any,
             guard: dict[str, Any], timeout: float) -> tuple[dict[int, dict], int | None]:
    """Run the plan once in a fresh child; return its reports and the cell that stopped it."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child never returns)
        os.close(read)
        try:
            run_child(steps, skip, snapshot, write, guard)
        finally:
            os._exit(1)
    os.close(write)
    reports: dict[int, dict] = {}
    running, since, interrupted, ended, ready, buffer = None, time.monotonic(), False, False, \
        False, b""
    try:
        while True:
            if select.select([read], [], [], 0.2)[0]:
                chunk = os.read(read, 1 << 16)
                if not chunk:
                    break
                buffer += chunk
                if len(buffer) > 1 << 22:
                    raise _Interfered("a report far too long")
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    ready = ready or line == b"ready"
                    running, ended = _parse(line, reports, running, ended, len(steps))
                    if running is not None and line.startswith(b"start"):
                        since, interrupted = time.monotonic(), False
            if running is not None and time.monotonic() - since > timeout + (
                    GRACE if interrupted else 0):
                if interrupted:
                    os.kill(pid, signal.SIGKILL)
                    break
                os.kill(pid, signal.SIGINT)
                interrupted, since = True, time.monotonic() - timeout
    finally:
        os.close(read)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    if ended:
        return reports, None
    if not ready:
        raise _Broken("the re-check could not start its child process")
    return reports, running if running is not None else min(
        (i for i in range(len(steps)) if i not in reports), default=None)


def _parse(line: bytes, reports: dict[int, dict], running: int | None, ended: bool,
           count: int) -> tuple[int | None, bool]:
    """Follow the protocol: start i, done {...}, end; anything else is interference."""
    if ended:
        raise _Interfered("a report after the end")
    if line == b"ready" and running is None and not reports:
        return None, False
    if line.startswith(b"start ") and running is None:
        index = int(line[6:])
        if index != len(reports) or index >= count:
            raise _Interfered("cells reported out of order")
        return index, False
    if line.startswith(b"done ") and running is not None:
        report = json.loads(line[5:])
        if report.get("index") != running:
            raise _Interfered("a report for another cell")
        reports[running] = report
        return None, False
    if line == b"end" and running is None and len(reports) == count:
        return None, True
    raise _Interfered(f"an unexpected report {line[:40]!r}")


def recheck(steps: list[dict[str, Any]], snapshot: Any, guard: dict[str, Any],
            timeout: float, skip: Iterable[int] = ()) -> dict[str, Any]:
    """Every test's score for one notebook, with a note where it failed, and the cells that
    stopped the process (each was left out of the next attempt, as were the `skip` cells)."""
    skip = set(skip)
    reports: dict[int, dict] = {}
    try:
        for _ in range(RESTARTS + 1):
            reports, stopped = _attempt(steps, skip, snapshot, guard, timeout)
            if stopped is None:
                break
            skip.add(stopped)
    except _Broken as exc:
        return {"error": str(exc), "scores": {}, "stopped": []}
    except (_Interfered, ValueError) as exc:  # ValueError: a report that is not JSON
        note = f"the submission interfered with the re-check ({exc})"
        return {"scores": {s["grade_id"]: {"score": 0.0, "max": s["points"], "note": note}
                           for s in steps if s["kind"] == "grade"}, "stopped": sorted(skip)}
    scores = {}
    for index, step in enumerate(steps):
        if step["kind"] != "grade":
            continue
        report = reports.get(index)
        if index in skip:
            report = {"score": 0.0, "note": "the process running this test died or hung"}
        elif report is None:
            report = {"score": 0.0, "note": "the test never ran (an earlier cell hung)"}
        scores[step["grade_id"]] = {"score": float(report.get("score") or 0.0),
                                    "max": step["points"], "note": report.get("note")}
    return {"scores": scores, "stopped": sorted(skip)}


def _warm(imports: list[str]) -> None:
    """Import the grading code (and IPython's input transformer) before the snapshot."""
    import importlib
    import pkgutil

    import harness.grading

    for info in pkgutil.walk_packages(harness.grading.__path__, "harness.grading."):
        importlib.import_module(info.name)
    for name in ["IPython.core.inputtransformer2", *imports]:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def _take(folder: str) -> dict[str, dict[str, bytes]]:
    """Every student's files under `folder` (STUDENT/...), read into memory and removed."""
    files: dict[str, dict[str, bytes]] = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            student, _, relative = os.path.relpath(path, folder).partition(os.sep)
            with open(path, "rb") as handle:
                files.setdefault(student, {})[relative] = handle.read()
    shutil.rmtree(folder, ignore_errors=True)
    return files


def _lay_out(folder: str, files: dict[str, bytes]) -> None:
    for relative, data in files.items():
        path = os.path.join(folder, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)


def main() -> int:
    from grader.seccomp import protect_parent

    protect_parent()
    job = json.load(sys.stdin)
    os.close(0)  # nothing a child inherits may lead back to the shard
    graded = os.path.abspath("autograded")
    files = _take(graded)
    _warm(job.get("imports", ["harness.providers.anthropic", "harness.loop"]))
    from grader.snapshot import Snapshot

    snapshot = Snapshot.take()
    results, work = {}, tempfile.mkdtemp(prefix="recheck-")
    by_student: dict[str, list[dict[str, Any]]] = {}
    for item in job["notebooks"]:
        by_student.setdefault(item["key"].split("/")[0], []).append(item)
    for student, items in by_student.items():
        _lay_out(os.path.join(graded, student), files.get(student, {}))
        for item in items:
            guard = {"own": item["own"], "confine": sys.platform.startswith("linux"),
                     "tmp": work, "stderr": os.path.join(work, "stderr")}
            results[item["key"]] = recheck(item["steps"], snapshot, guard,
                                           float(job["timeout"]), item.get("skip", ()))
        for folder in (graded, work):  # what this student's children left goes with them
            shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(work)
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
