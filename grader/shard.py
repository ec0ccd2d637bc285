"""One shard of a batch: a few students graded by the real nbgrader in a course of their own.

`grade_shard(payload)` builds a scratch course in a new temporary folder (the course's config with
the batch's settings, a gradebook holding only the assignments, these students' submissions and
the source's supporting files), runs `nbgrader autograde` there in its own process group under a
wall-clock bound, then the grading process (`verdict`) on what each test's kernel recorded. Every
kernel runs in the OS sandbox (`sandbox`), and so does the grading process, unless the payload
says "sandbox": False (the instructor's --unsafe-no-sandbox). It returns plain data: each
submission's autograded files, its kernel's cell log, the grading process's scores. It never
touches the instructor's course (the batch merges the results) and runs the same in a local
thread or on a Dask worker, which needs only this package, nbgrader and bwrap installed.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from course.exercises.capstone.scenario_variants import AHEAD
from course.exercises.ownwork import kit_folders
from grader import ahead as made_ahead
from grader import judge, kernelspec, nbgrader_log, sandbox, withhold
from grader.bounded import TIMEOUTS
from grader.kernel_log import ENV, digest
from offline.cassettes import CASSETTES

SETTINGS = '''
# Added by grader.shard for one shard: this scratch course, its kernels' cell log, and ipc (a
# sandboxed kernel has no network: it talks over unix sockets in a folder of this shard's own).
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db!r}
c.CourseDirectory.student_id = "*"
c.PlainAutograde.allowed = True  # the class grader's own run: every kernel is sandboxed
_ours = ["--HistoryManager.hist_file=:memory:",
         "--IPKernelApp.extensions=grader.kernel_log"]
_theirs = c.Execute.extra_arguments if isinstance(c.Execute.extra_arguments, list) else []
c.Execute.extra_arguments = [a for a in _theirs if a not in _ours] + _ours
c.Execute.shutdown_kernel = "immediate"  # every output is in by then: no need to wait
c.KernelManager.transport = "ipc"
c.KernelManager.ip = {sockets!r}
_their_hook = c.Autograde.post_convert_hook if "post_convert_hook" in c.Autograde else None


def _autograded(**submission):
    """nbgrader's post-convert hook, called once per submission it autograded: one line each."""
    with open({done!r}, "a") as log:
        log.write(" ".join(submission["notebooks"]) + "\\n")
    if callable(_their_hook):
        _their_hook(**submission)


c.Autograde.post_convert_hook = _autograded
'''

BOUNDS = '''
# Added by grader.shard: nbgrader's Execute, bounded (grader/bounded.py): the grading
# process keeps at most so much of a notebook's output and takes no gigantic message.
from grader.bounded import bounded_steps as _bounded_steps
c.Autograde.autograde_preprocessors = _bounded_steps(c.Autograde)
'''
"""More of the shard's config: its nbgrader runs `BoundedExecute` in Execute's place."""

AUTOGRADED = ".autograded"
"""The file nbgrader's post-convert hook appends to, a line per submission naming its notebooks:
the shard's progress."""

_RUNNING: set[int] = set()
"""Process groups of the shards running in this process (nbgrader, grading processes)."""


def stop_all() -> None:
    """Kill every shard process group this process started (the instructor pressed Ctrl-C)."""
    for group in list(_RUNNING):
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _environment(scratch: Path, policy: dict[str, Any]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PWD", "OLDPWD", ENV)}
    here = str(Path(__file__).resolve().parents[1])  # so kernels import this very harness
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
    for name, sub in (("TMPDIR", ".tmp"), ("JUPYTER_RUNTIME_DIR", ".runtime")):
        (scratch / sub).mkdir(exist_ok=True)
        env[name] = str(scratch / sub)
    env[ENV] = json.dumps(policy)
    return env


def _sandbox(scratch: Path, env: dict[str, str], payload: dict[str, Any],
             ahead: Path) -> dict[str, Path]:
    """Sandbox settings for the shard's kernels and grading process, and the python3 kernelspec
    on the launcher: each sees the checks, the (scrubbed) cassettes, nothing of the course. A
    kernel sees the kit without its assignment's reference (`withhold`) and what was made
    ahead for its own student; the grading process sees the whole kit and all made ahead."""
    reason = sandbox.unavailable()
    if reason:
        raise RuntimeError(f"cannot sandbox graded code on {socket.gethostname()}: {reason}")
    common = {"readable": [*kit_folders(), Path(__file__).parent, CASSETTES],
              "hidden": [scratch, *payload.get("private", [])],
              "limits": {"memory_mb": payload.get("memory_mb") or 0}}
    kernels = {ENV: env[ENV], AHEAD: sandbox.AHEAD_MOUNT}
    withheld = {name: withhold.binds(name) for name in payload["definitions"]}
    _compiled(env["PYTHONPATH"])
    paths = {"kernel": scratch / "sandbox-kernel.json",
             "verdict": scratch / "sandbox-verdict.json"}
    paths["kernel"].write_text(json.dumps(sandbox.settings(
        **common, env=kernels, logs=scratch / ".progress", withheld=withheld, ahead=ahead)))
    paths["verdict"].write_text(json.dumps(sandbox.settings(
        **common | {"readable": [*common["readable"], ahead]}, env={ENV: env[ENV]})))
    specs = kernelspec.write(str(scratch / ".jupyter"), paths["kernel"])
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [specs, env.get("JUPYTER_PATH")]))
    return paths


@functools.cache
def _compiled(path: str) -> None:
    """Compile what sandboxed kernels import (they cannot write bytecode; nor can we under
    PYTHONDONTWRITEBYTECODE, and without bytecode a kernel takes twice as long to start), once
    per process: the kit from `path` and its dependencies, never a student's code."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-P", "-c", "import ipykernel.kernelapp, course.exercises, "
                    "course.exercises.capstone.checks, offline.record, grader.kernel_log, "
                    "grader.verdict, IPython.core.inputtransformer2"],
                   env=env | {"PYTHONPATH": path}, cwd=tempfile.gettempdir(),
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _write_course(scratch: Path, payload: dict[str, Any]) -> None:
    dirs = payload["dirs"]
    extra = SETTINGS.format(root=str(scratch), db=f"sqlite:///{scratch / 'gradebook.db'}",
                            done=str(scratch / AUTOGRADED), sockets=str(scratch / ".k" / "k"))
    extra += BOUNDS
    if payload.get("timeout"):
        extra += f"c.Execute.timeout = {int(payload['timeout'])}\n"
    (scratch / "nbgrader_config.py").write_text(payload["config"] + "\n" + extra)
    (scratch / "gradebook.db").write_bytes(payload["gradebook"])
    for assignment, files in payload["source_files"].items():
        _write_files(scratch / dirs["source"] / assignment, files)
    for item in payload["submissions"]:
        _write_files(scratch / dirs["submitted"] / item["student"] / item["assignment"],
                     item["files"])


def _write_files(folder: Path, files: dict[str, bytes]) -> None:
    for relative, data in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _run(command: list[str], cwd: Path, env: dict[str, str], log: Path, seconds: float,
         tick: Callable[[], None] | None = None) -> tuple[int | None, bool]:
    """Run in a new process group; kill the whole group past `seconds` (returns timed_out)."""
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        _RUNNING.add(process.pid)
        try:
            deadline = time.monotonic() + seconds
            while process.poll() is None:
                if time.monotonic() > deadline:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                    return None, True
                if tick:
                    tick()
                time.sleep(0.25)
        finally:
            _RUNNING.discard(process.pid)
    return process.returncode, False


def _collect(folder: Path) -> dict[str, bytes]:
    """The autograded files (regular files only; the kernel's temp folder left out). Their
    outputs were bounded as they arrived (`BoundedExecute`)."""
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if relative.parts[0] == ".tmp" or not path.is_file() or path.is_symlink():
            continue
        files[str(relative)] = path.read_bytes()
    return files


def grade_shard(payload: dict[str, Any], progress: Callable[[int], None] | None = None
                ) -> dict[str, Any]:
    """Grade one shard; `progress(n)` is called with the number of notebooks done so far."""
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="grade-shard-", dir=payload.get("scratch")))
    ahead = Path(tempfile.mkdtemp(prefix="grade-ahead-", dir=payload.get("scratch")))
    try:
        _write_course(scratch, payload)
        tests = sorted({digest(cell["source"]) for definition in payload["definitions"].values()
                        for cells in definition["notebooks"].values() for cell in cells
                        if cell["grade"] and cell["cell_type"] == "code"})
        policy = {"progress": str(scratch / ".progress"), "skip": payload.get("skip", {}),
                  "tests": tests}
        (scratch / ".progress").mkdir()
        (scratch / ".k").mkdir(mode=0o700)
        env = _environment(scratch, policy)
        made_ahead.record(ahead, payload)
        boxes = _sandbox(scratch, env, payload, ahead) if payload.get("sandbox", True) else {}
        log, done = scratch / "autograde.log", scratch / AUTOGRADED

        def tick() -> None:
            if progress and done.exists():  # a line per submission, naming its notebooks
                progress(len(done.read_bytes().split()))

        nbgrader = str(Path(sys.executable).parent / "nbgrader")
        code, timed_out = _run([nbgrader, "autograde", "*", "--force"], scratch, env, log,
                               payload["deadline"], tick)
        tick()
        scores = judge.run(judge.job(scratch, payload, ahead), scratch=scratch, env=env,
                           settings=boxes.get("verdict"), running=_RUNNING,
                           seconds=payload["deadline"] - (time.monotonic() - started))
        return {"submissions": _results(scratch, payload, scores), "exit": code,
                "worker": f"{socket.gethostname()}:{os.getpid()}",
                "timed_out": timed_out, "log": log.read_text(errors="replace")[-20_000:],
                "verdict_log": (scratch / "verdict.log").read_text(errors="replace")[-5_000:]
                if (scratch / "verdict.log").exists() else "",
                "seconds": time.monotonic() - started}
    finally:
            shutil.rmtree(scratch, ignore_errors=True)
            shutil.rmtree(ahead, ignore_errors=True)


def _timeouts(scratch: Path) -> dict[str, list[dict[str, Any]]]:
    """The cells stopped at the time limit (`BoundedExecute`'s notes), by submission."""
    found: dict[str, list[dict[str, Any]]] = {}
    path = scratch / TIMEOUTS
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        found.setdefault(f"{item.get('student')}.{item.get('assignment')}", []).append(item)
    return found


def _results(scratch: Path, payload: dict[str, Any], scores: dict[str, Any]
             ) -> list[dict[str, Any]]:
    dirs, found = payload["dirs"], []
    log = scratch / "autograde.log"
    warned = nbgrader_log.findings(log.read_text(errors="replace") if log.exists() else "")
    timeouts = _timeouts(scratch)
    for item in payload["submissions"]:
        student, assignment = item["student"], item["assignment"]
        folder = scratch / dirs["autograded"] / student / assignment
        progress = scratch / ".progress" / f"{student}.{assignment}.log"
        lines = progress.read_bytes().splitlines() if progress.exists() else []
        found.append({
            "student": student, "assignment": assignment, "ok": folder.is_dir(),
            "files": _collect(folder) if folder.is_dir() else {},
            "cells": [line.decode(errors="replace") for line in lines
                      if not line.startswith(b"evidence ")],
            "warnings": warned.get(f"{student}.{assignment}", []),
            "timeouts": timeouts.get(f"{student}.{assignment}", []),
            "verdict": {key.rsplit("/", 1)[1]: value for key, value in scores.items()
                        if key.startswith(f"{student}/{assignment}/")}})
    return found
