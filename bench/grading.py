"""Grading a class: plain sequential `nbgrader autograde` against the parallel batch, in one run.

Builds a course from the repository's release, hands in 40 students x 4 exercises (reference
solutions and the corpus's known bugs, the same for every run), grades one copy with
`nbgrader autograde "*"` then `nbgrader export`, and two more with `python -m grader
autograde "*"` (grades.csv included), with forked kernels and with --no-fork, and checks that all
gave every student the same score on every test. It times the kernel-start floor too: a kernel
running one trivial cell, started fresh and forked from the batch's warm server. Set
BENCH_STUDENTS to change the class size (smaller for a quick look).
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from grading import submissions  # noqa: E402 (the test corpus is the class)

from grader import release  # noqa: E402

STUDENTS = int(os.environ.get("BENCH_STUDENTS", "40"))
BUGS = {"01_message_ordering": ["ordering_completion_order", "anthropic_tool_role"],
        "02_early_exit": ["loop_off_by_one_cap", "loop_max_tokens_as_answer"],
        "03_no_progress": ["detector_consecutive_only", "key_order_not_canonical"],
        "04_cost": ["cost_off_by_one", "cost_cached_counted_twice"]}


def hand_in(course: Path) -> int:
    import nbformat

    count = 0
    for number in range(STUDENTS):
        student = f"s{number:03d}"
        for exercise in submissions.EXERCISES:
            bugs = BUGS[exercise]
            bug = bugs[number % len(bugs)] if number % 3 == 1 else None
            module = submissions.load(bug) if bug else None
            folder = course / "submitted" / student / exercise
            folder.mkdir(parents=True)
            nbformat.write(submissions.submission(exercise, module, student_id=student),
                           folder / f"{exercise}.ipynb")
            count += 1
    return count


def scores(course: Path) -> dict[tuple[str, str, str], float]:
    query = """SELECT sa.student_id, a.name, bc.name, g.auto_score FROM grade g
        JOIN base_cell bc ON g.cell_id = bc.id JOIN submitted_notebook sn ON g.notebook_id = sn.id
        JOIN submitted_assignment sa ON sn.assignment_id = sa.id
        JOIN assignment a ON sa.assignment_id = a.id"""
    with sqlite3.connect(course / "gradebook.db") as db:
        return {(s, a, c): score for s, a, c, score in db.execute(query)}


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (the command and everything it started) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=release.nbgrader_env(), capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def kernel_floor(runs: int = 8, *, forked: bool = False) -> float:
    """Median seconds for a kernel to start, run `1 + 1` and shut down (nbclient): a fresh one,
    or one forked from the batch's warm server (`zygote`)."""
    import nbclient
    import nbformat

    from grader import zygote

    env, server = dict(os.environ), None
    folder = Path(tempfile.mkdtemp(prefix="bench-kernels-"))
    try:
        if forked:
            socket_path = folder / "zygote"
            server = subprocess.Popen(zygote.serve_command(str(socket_path)),
                                      env=release.nbgrader_env(), start_new_session=True)
            while not socket_path.exists():
                time.sleep(0.05)
            os.environ[zygote.ENV] = str(socket_path)
            os.environ["JUPYTER_PATH"] = zygote.kernelspec(str(folder), sys.executable)
        samples = []
        for _ in range(runs):
            notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
            started = time.perf_counter()
            nbclient.NotebookClient(notebook, kernel_name="python3").execute()
            samples.append(time.perf_counter() - started)
        return statistics.median(samples)
    finally:
        os.environ.clear()
        os.environ.update(env)
        if server is not None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    floors = (kernel_floor(), kernel_floor(forked=True))  # first, on a quiet machine
    work = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    try:
        base = work / "base"
        base.mkdir()
        release.build(submissions.EXERCISES, base)
        notebooks = hand_in(base)
        courses = {name: work / name for name in ("sequential", "batch", "no_fork")}
        for course in courses.values():
            shutil.copytree(base, course)
        nbgrader = str(Path(sys.executable).parent / "nbgrader")
        jobs = os.cpu_count() or 1
        batch = [sys.executable, "-m", "grader", "autograde", "*", "--jobs",
                 str(jobs), "--quiet"]
        runs = {"autograde": timed([nbgrader, "autograde", "*"], courses["sequential"]),
                "export": timed([nbgrader, "export"], courses["sequential"]),
                "batch": timed(batch, courses["batch"]),
                "no_fork": timed([*batch, "--no-fork"], courses["no_fork"])}
        expected = scores(courses["sequential"])
        same = bool(expected) and all(scores(courses[name]) == expected
                                      for name in ("batch", "no_fork"))
        report(notebooks, jobs, runs, same, floors)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(notebooks: int, jobs: int, runs: dict[str, tuple[float, float]], same: bool,
           floors: tuple[float, float]) -> None:
    def line(label: str, wall: float, cpu: float) -> str:
        return (f"{label}: {wall:.0f} s, {notebooks / wall * 60:.1f} notebooks/min, "
                f"{wall / notebooks:.2f} s wall and {cpu / notebooks:.2f} s CPU per notebook")

    (autograde, autograde_cpu), (export, _) = runs["autograde"], runs["export"]
    print(f"class: {STUDENTS} students x {len(submissions.EXERCISES)} exercises = "
          f"{notebooks} notebooks; {jobs} cores")
    print(line("sequential nbgrader autograde", autograde, autograde_cpu)
          + f"; then nbgrader export {export:.1f} s")
    print(line(f"batch --jobs {jobs} (grades.csv included)", *runs["batch"]))
    print(line(f"batch --jobs {jobs} --no-fork", *runs["no_fork"]))
    for name in ("batch", "no_fork"):
        wall = runs[name][0]
        print(f"speed-up, {name}: {autograde / wall:.2f}x over autograde alone, "
              f"{(autograde + export) / wall:.2f}x over autograde + export")
    print(f"identical scores on every test of every student: {'yes' if same else 'NO'}")
    fresh, forked = floors
    print(f"kernel floor (start, one trivial cell, shutdown): fresh {fresh:.2f} s, forked "
          f"{forked:.2f} s; per notebook, sequential spends {autograde / notebooks / fresh:.1f}x "
          f"the fresh floor, the batch {runs['batch'][0] / notebooks / fresh:.2f}x (wall, "
          f"{jobs} cores)")


if __name__ == "__main__":
    main()
