"""How a shard runs its grading process (`grader.verdict`), and keeps one notebook's fault its own.

`job` gathers, per notebook of the shard, the gradebook's cells and what its kernel recorded
(the `evidence DIGEST JSON` lines of its cell log, left unread here: a test recorded twice is
marked, not chosen between). `run` grades them all in one process, in the sandbox; if that
process dies, hangs or leaves notebooks out, each one left is graded again in a process of its
own, so that whatever a record does costs only its own notebook, whose tests then score 0 with
a note naming the cause. It computes no score itself.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from grader import sandbox
from grader.kernel_log import self_check
from grader.verdict import DUPLICATED

ALONE_SECONDS = 120.0
"""Seconds a notebook graded on its own may take (the slowest, a capstone, takes a few)."""


def job(scratch: Path, payload: dict[str, Any], ahead: Path) -> dict[str, Any]:
    """The grading process's job for the shard's submissions."""
    notebooks = []
    for item in payload["submissions"]:
        student, assignment = item["student"], item["assignment"]
        log = scratch / ".progress" / f"{student}.{assignment}.log"
        records: dict[str, str] = {}
        for line in log.read_bytes().splitlines() if log.exists() else []:
            if line.startswith(b"evidence "):
                _, key, text = (line.decode(errors="replace").split(" ", 2) + ["", ""])[:3]
                records[key] = DUPLICATED if key in records else text
        for name, cells in payload["definitions"][assignment]["notebooks"].items():
            executed = scratch / payload["dirs"]["autograded"] / student / assignment / \
                f"{name}.ipynb"
            notebooks.append({"key": f"{student}/{assignment}/{name}", "student": student,
                              "assignment": assignment, "cells": cells, "evidence": records,
                              "checks": _self_checks(executed), "ahead": str(ahead / student)})
    return {"notebooks": notebooks}


SELF_CHECKS = 50
"""Self-check cells of one notebook the grading process runs at most (a notebook has a few)."""


def _self_checks(executed: Path) -> list[str]:
    """The sources of the notebook's self-check cells (`kernel_log.self_check`), as its kernel
    ran them: the student's cells, taken only in that one shape."""
    try:
        cells = json.loads(executed.read_text())["cells"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return []
    found = []
    for cell in cells if isinstance(cells, list) else []:
        source = cell.get("source") if isinstance(cell, dict) else None
        source = "".join(source) if isinstance(source, list) else source
        if isinstance(source, str) and len(source) < 2_000 and cell.get("cell_type") == "code" \
                and not (cell.get("metadata") or {}).get("nbgrader") and self_check(source):
            found.append(source)
    return found[:SELF_CHECKS]


def run(work: dict[str, Any], *, scratch: Path, env: dict[str, str], settings: Path | None,
        running: set[int], seconds: float) -> dict[str, Any]:
    """Every notebook's scores: all in one process, then, for any it did not return, each alone
    (a notebook that fails alone too gets its `problem`)."""
    results = _process(work, scratch=scratch, env=env, settings=settings, running=running,
                       seconds=max(60.0, seconds))
    for item in work["notebooks"]:
        if item["key"] in results:
            continue
        alone = _process({"notebooks": [item]}, scratch=scratch, env=env, settings=settings,
                         running=running, seconds=ALONE_SECONDS)
        results[item["key"]] = alone.get(item["key"]) or {
            "scores": {}, "problem": "the grading process could not grade this notebook (it "
                                     "stopped or ran out of time on this notebook's records)"}
    return results


def _process(work: dict[str, Any], *, scratch: Path, env: dict[str, str], settings: Path | None,
             running: set[int], seconds: float) -> dict[str, Any]:
    """One grading process (in its sandbox unless `settings` is None: the job on stdin, the
    scores on stdout); {} if it fails or runs out of time."""
    command = [sys.executable, "-P", "-m", "grader.verdict"]
    if settings is not None:
        command = [sys.executable, "-I", "-S", sandbox.__file__, str(settings), "--", *command]
    folder = scratch / f".verdict-{len(list(scratch.glob('.verdict-*')))}"
    folder.mkdir()
    with open(scratch / "verdict.log", "ab") as log:
        process = subprocess.Popen(command, cwd=folder, env=env, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=log, start_new_session=True)
    running.add(process.pid)
    try:
        out, _ = process.communicate(json.dumps(work).encode(), timeout=seconds)
        found = json.loads(out or b"{}")
        return found if isinstance(found, dict) else {}
    except (subprocess.TimeoutExpired, ValueError):
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {}
    finally:
        running.discard(process.pid)
