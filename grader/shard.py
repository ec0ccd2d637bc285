"""One shard of a batch: a few students graded by the real nbgrader in a course of their own.

`grade_shard(payload)` builds a scratch course in a new temporary folder (the course's config with
the batch's settings, a gradebook holding only the assignments, these students' submissions and
the source's supporting files), runs `nbgrader autograde` there in its own process group under a
wall-clock bound, and the re-check (`recheck`) beside it. It returns plain data: each
submission's autograded files, its kernel's cell log, the re-check's scores. It never touches the
instructor's course (the batch merges the results) and runs the same in a local thread or on a
Dask worker, which needs only this package and nbgrader installed.
"""

from __future__ import annotations

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

from grader import zygote
from grader.cells import plan
from grader.policy import ENV, digest

OUTPUT_LIMIT = 100_000
"""Characters kept of any one output in an autograded notebook (a gigantic print is cut)."""

SETTINGS = '''
# Added by grader.shard for one shard: this scratch course, and every kernel guarded.
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db!r}
c.CourseDirectory.student_id = "*"
_ours = ["--HistoryManager.hist_file=:memory:",
         "--IPKernelApp.extensions=grader.policy"]
_theirs = c.Execute.extra_arguments if isinstance(c.Execute.extra_arguments, list) else []
c.Execute.extra_arguments = [a for a in _theirs if a not in _ours] + _ours
c.Execute.shutdown_kernel = "immediate"  # every output is in by then: no need to wait
_their_hook = c.Autograde.post_convert_hook if "post_convert_hook" in c.Autograde else None


def _autograded(**submission):
    """nbgrader's post-convert hook, called once per submission it autograded: one line each."""
    with open({done!r}, "a") as log:
        log.write(" ".join(submission["notebooks"]) + "\\n")
    if callable(_their_hook):
        _their_hook(**submission)


c.Autograde.post_convert_hook = _autograded
'''


AUTOGRADED = ".autograded"
"""The file nbgrader's post-convert hook appends to, a line per submission: the shard's progress."""

_RUNNING: set[int] = set()
"""Process groups of the shards running in this process (nbgrader, re-check, kernel server)."""


def stop_all() -> None:
    """Kill every shard process group this process started (the instructor pressed Ctrl-C)."""
    for group in list(_RUNNING):
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _bin(name: str) -> str:
    return str(Path(sys.executable).parent / name)


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


def _start_zygote(scratch: Path, env: dict[str, str]) -> subprocess.Popen | None:
    """Start the kernel server (`zygote`) and point nbgrader's python3 kernel at it;
    None (plain kernels) where fork or fd passing is missing or the server does not come up."""
    if not (hasattr(os, "fork") and hasattr(socket, "send_fds")):
        return None
    path = scratch / ".zygote"
    server = subprocess.Popen(zygote.serve_command(str(path)), cwd=scratch, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=open(scratch / "zygote.log", "wb"), start_new_session=True)
    _RUNNING.add(server.pid)
    deadline = time.monotonic() + 120
    while not path.exists():
        if server.poll() is not None or time.monotonic() > deadline:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
            server.wait()
            return None
        time.sleep(0.05)
    env[zygote.ENV] = str(path)
    specs = zygote.kernelspec(str(scratch / ".jupyter"), sys.executable)
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [specs, env.get("JUPYTER_PATH")]))
    return server


def _write_course(scratch: Path, payload: dict[str, Any]) -> None:
    dirs = payload["dirs"]
    extra = SETTINGS.format(root=str(scratch), db=f"sqlite:///{scratch / 'gradebook.db'}",
                            done=str(scratch / AUTOGRADED))
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


def _recheck_job(scratch: Path, payload: dict[str, Any]) -> dict[str, Any]:
    """One re-check job for every notebook of the shard, each in a folder of its own."""
    notebooks = []
    for item in payload["submissions"]:
        student, assignment = item["student"], item["assignment"]
        own = scratch / ".recheck" / "autograded" / student / assignment
        _write_files(own, {**item["files"], **payload["source_files"].get(assignment, {})})
        skip = set(payload.get("skip", {}).get(f"{student}.{assignment}", ()))
        for name, cells in payload["definitions"][assignment]["notebooks"].items():
            data = item["files"].get(f"{name}.ipynb")
            submitted = _cells(json.loads(data)) if data else []
            steps = plan(submitted, cells)
            notebooks.append({"key": f"{student}/{assignment}/{name}", "own": str(own),
                              "steps": steps, "skip": [i for i, s in enumerate(steps)
                                                       if digest(s["source"]) in skip]})
    return {"notebooks": notebooks, "private": [str(scratch)], "work": str(scratch / ".recheck"),
            "timeout": payload.get("timeout") or 30, "memory_mb": payload.get("memory_mb")}


def _cells(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"cell_type": c.get("cell_type"), "source": "".join(c.get("source", "")),
             "grade_id": c.get("metadata", {}).get("nbgrader", {}).get("grade_id")}
            for c in notebook.get("cells", []) if isinstance(c, dict)]


def _collect(folder: Path) -> dict[str, bytes]:
    """The autograded files (regular files only; the kernel's temp folder left out), with any
    gigantic output cut."""
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if relative.parts[0] == ".tmp" or not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        files[str(relative)] = _cut(data) if path.suffix == ".ipynb" else data
    return files


def _cut(data: bytes) -> bytes:
    notebook = json.loads(data)
    cut = False
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            for holder, key in [(output, "text"), *[(output.get("data", {}), k)
                                                    for k in output.get("data", {})]]:
                text = holder.get(key)
                text = "".join(text) if isinstance(text, list) else text
                if isinstance(text, str) and len(text) > OUTPUT_LIMIT:
                    holder[key] = text[:OUTPUT_LIMIT] + "\n... output cut by the batch grader ...\n"
                    cut = True
    if not cut:
        return data
    text = json.dumps(notebook, indent=1, sort_keys=True, separators=(",", ": "),
                      ensure_ascii=False)
    return (text + "\n").encode()


def grade_shard(payload: dict[str, Any], progress: Callable[[int], None] | None = None
                ) -> dict[str, Any]:
    """Grade one shard; `progress(n)` is called with the number of submissions done so far."""
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="grade-shard-", dir=payload.get("scratch")))
    try:
        _write_course(scratch, payload)
        policy = {"private": [str(scratch), *payload.get("private", [])],
                  "progress": str(scratch / ".progress"), "memory_mb": payload.get("memory_mb"),
                  "skip": payload.get("skip", {})}
        (scratch / ".progress").mkdir()
        env = _environment(scratch, policy)
        zygote = _start_zygote(scratch, env) if payload.get("fork_kernels", True) else None
        job = _recheck_job(scratch, payload)
        (scratch / ".recheck" / "job.json").write_text(json.dumps(job))
        recheck = subprocess.Popen(
            [sys.executable, "-m", "grader.recheck", str(scratch / ".recheck" /
                                                                     "job.json"),
             str(scratch / ".recheck" / "result.json")], cwd=scratch / ".recheck", env=env,
            stdout=subprocess.DEVNULL, stderr=open(scratch / "recheck.log", "wb"),
            stdin=subprocess.DEVNULL, start_new_session=True)
        _RUNNING.add(recheck.pid)
        log, done = scratch / "autograde.log", scratch / AUTOGRADED

        def tick() -> None:
            if progress and done.exists():
                progress(len(done.read_bytes().splitlines()))

        try:
            code, timed_out = _run([_bin("nbgrader"), "autograde", "*", "--force"], scratch, env,
                                   log, payload["deadline"], tick)
        finally:
            if zygote is not None:
                os.killpg(zygote.pid, signal.SIGKILL)  # the server and any kernel left
                zygote.wait()
                _RUNNING.discard(zygote.pid)
        tick()
        rechecked = _wait_recheck(recheck, scratch, payload["deadline"])
        _RUNNING.discard(recheck.pid)
        return {"submissions": _results(scratch, payload, rechecked), "exit": code,
                "worker": f"{socket.gethostname()}:{os.getpid()}",
                "timed_out": timed_out, "log": log.read_text(errors="replace")[-20_000:],
                "recheck_log": (scratch / "recheck.log").read_text(errors="replace")[-5_000:],
                "seconds": time.monotonic() - started}
    finally:
        if not payload.get("keep"):
            shutil.rmtree(scratch, ignore_errors=True)


def _wait_recheck(process: subprocess.Popen, scratch: Path, seconds: float) -> dict[str, Any]:
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    path = scratch / ".recheck" / "result.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _results(scratch: Path, payload: dict[str, Any], rechecked: dict[str, Any]
             ) -> list[dict[str, Any]]:
    dirs, found = payload["dirs"], []
    for item in payload["submissions"]:
        student, assignment = item["student"], item["assignment"]
        folder = scratch / dirs["autograded"] / student / assignment
        progress = scratch / ".progress" / f"{student}.{assignment}.log"
        found.append({
            "student": student, "assignment": assignment, "ok": folder.is_dir(),
            "files": _collect(folder) if folder.is_dir() else {},
            "cells": progress.read_text().splitlines() if progress.exists() else [],
            "recheck": {key.rsplit("/", 1)[1]: value for key, value in rechecked.items()
                        if key.startswith(f"{student}/{assignment}/")}})
    return found
