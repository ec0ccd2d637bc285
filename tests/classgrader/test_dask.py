"""The batch on Dask: a real scheduler and two workers started as separate processes on loopback
with the `dask` CLIs, then `--scheduler tcp://...`; and, side by side, the embedded
`--scheduler local`. A small class (honest students, a crashing one, a monkeypatching one)
must grade exactly as it does on local threads, with the shards run inside the worker processes.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from classgrader import hostile

pytest.importorskip("distributed", reason="the grader extra is not installed")
pytestmark = pytest.mark.slow

DASK = str(Path(sys.executable).parent / "dask")
CLASS = ["ada", "bob", "cal", "os_exit", "monkeypatch_checks"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _class(course: Path, students: list[str] = CLASS) -> dict[str, dict[str, float]]:
    attacks = {m.__name__.rsplit(".", 1)[1]: m for m in hostile.attacks()}
    expected = {}
    full = hostile.max_points("03_no_progress")
    for student in students:
        if student in attacks:
            notebook = attacks[student].build(student, {})
            expect = attacks[student].EXPECT
        else:
            notebook, expect = hostile.reference("03_no_progress", student), {}
        hostile.hand_in(course, student, "03_no_progress", notebook)
        expected[student] = {name: 0.0 if expect == "zero" else float(expect.get(name, points))
                             for name, points in full.items()}
    return expected


def _graded(course: Path) -> dict[str, dict[str, float]]:
    return {student: {k: float(v or 0) for k, v in cells.items()}
            for (student, _), cells in hostile.scores(course).items()}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """`dask scheduler` and `dask worker` (two worker processes), on loopback only."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = hostile.environment()
    log = tmp_path_factory.mktemp("dask") / "worker.log"
    processes = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                   "--no-dashboard"], env=env, start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    with open(log, "wb") as output:
        processes.append(subprocess.Popen(
            [DASK, "worker", address, "--nworkers", "2", "--nthreads", "1", "--host",
             "127.0.0.1", "--no-dashboard", "--memory-limit", "0"], env=env,
            start_new_session=True, stdout=output, stderr=subprocess.STDOUT))
    deadline = time.monotonic() + 120
    while log.read_text().count("Registered to:") < 2:  # both workers joined the scheduler
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)
    yield address, processes
    for process in reversed(processes):
        os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _worker_pids(processes: list[subprocess.Popen]) -> set[int]:
    import psutil

    return {child.pid for child in psutil.Process(processes[1].pid).children(recursive=True)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory, cluster):
    """Both runs side by side (independent: one on the cluster, one on its own LocalCluster):
    {"remote"|"local": (course, expected, done)}, and the cluster's worker processes."""
    address, processes = cluster

    def run(name: str, students: list[str], scheduler: str) -> tuple:
        course = hostile.course(tmp_path_factory.mktemp(name))
        expected = _class(course, students)
        done = hostile.batch(course, "03_no_progress", "--scheduler", scheduler, "--jobs", "2",
                             "--quiet")
        return course, expected, done

    hostile.released()  # once, before two threads want it
    with ThreadPoolExecutor(2) as pool:
        remote = pool.submit(run, "remote", CLASS, address)
        local = pool.submit(run, "local", CLASS[:2], "local")
        runs = {"remote": remote.result(), "local": local.result()}
    return runs, _worker_pids(processes)


def test_batch_fans_out_over_a_dask_scheduler_and_workers(graded):
    (course, expected, done), workers = graded[0]["remote"], graded[1]
    assert done.returncode == 0, done.stdout + done.stderr
    assert _graded(course) == expected
    assert re.search(r"on Dask at tcp://127\.0\.0\.1:\d+: 2 workers, 2 threads", done.stdout)
    pids = {int(pid) for pid in re.findall(r":(\d+)", done.stdout.split("as machine:pid:")[1])}
    assert pids and pids <= workers, done.stdout


def test_batch_on_an_embedded_local_cluster(graded):
    course, expected, done = graded[0]["local"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert _graded(course) == expected
    assert "on Dask at tcp://127.0.0.1" in done.stdout
