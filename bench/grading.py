"""Grading a class: plain sequential `nbgrader autograde` against the parallel batch, in one run.

Builds a course from the repository's release, hands in 40 students x 4 exercises (reference
solutions and the corpus's known bugs, the same for every run), grades one copy with
`nbgrader autograde "*"` then `nbgrader export`, and another with `python -m grader autograde
"*"` (grades.csv included, every kernel in the OS sandbox), and checks that both gave every
student the same score on every test. It times the kernel-start floor too: a kernel running one
trivial cell, plain and sandboxed (the difference is the sandbox's cost per notebook). Set
BENCH_STUDENTS to change the class size (smaller for a quick look; 0 skips it), BENCH_UNSAFE=1 to
time the batch with --unsafe-no-sandbox as well.

The capstone is timed apart, on a class of its own (BENCH_CAPSTONE students, 8 unless set; a third
of them hand in one of its wrong loops): each of its notebooks replays every graded cell's
scenarios and the student's variants, so its cost per notebook is reported against the kernel
floor, sequential nbgrader beside the batch.
"""

from __future__ import annotations

import os
import resource
import shutil
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
CAPSTONE_STUDENTS = int(os.environ.get("BENCH_CAPSTONE", "8"))
CAPSTONE_BUGS = {"05_capstone": ["capstone_budget_input_only", "capstone_closing_cut_as_answer"]}
BUGS = {"01_message_ordering": ["ordering_completion_order", "anthropic_tool_role"],
        "02_early_exit": ["loop_off_by_one_cap", "loop_max_tokens_as_answer"],
        "03_no_progress": ["detector_consecutive_only", "key_order_not_canonical"],
        "04_cost": ["cost_off_by_one", "cost_cached_counted_twice"]}


def hand_in(course: Path, *, students: int = STUDENTS,
            exercises: dict[str, list[str]] = BUGS) -> int:
    import nbformat

    count = 0
    for number in range(students):
        student = f"s{number:03d}"
        for exercise, bugs in exercises.items():  # exercises 1 to 4: 40 x 4 notebooks
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


def kernel_floor(runs: int = 8, *, sandboxed: bool = False) -> float:
    """Median seconds for a kernel to start, run `1 + 1` and shut down (nbclient, over ipc as
    the batch runs them): a plain one, or one in the OS sandbox (`grader.sandbox`)."""
    import json

    import nbclient
    import nbformat
    from traitlets.config import Config

    from grader import kernelspec, sandbox

    env = dict(os.environ)
    folder = Path(tempfile.mkdtemp(prefix="bench-kernels-", dir="/tmp"))
    try:
        (folder / "sockets").mkdir(mode=0o700)
        (folder / "work").mkdir()
        if sandboxed:
            settings = folder / "sandbox.json"
            settings.write_text(json.dumps(sandbox.settings(
                readable=[ROOT / "harness", ROOT / "offline", ROOT / "course", ROOT / "grader"],
                hidden=[folder])))
            os.environ["JUPYTER_PATH"] = kernelspec.write(str(folder / "specs"), settings)
        ipc = Config({"KernelManager": {"transport": "ipc", "ip": str(folder / "sockets" / "k")}})
        samples = []
        for _ in range(runs):
            notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
            started = time.perf_counter()
            nbclient.NotebookClient(notebook, kernel_name="python3", config=ipc,
                                    resources={"metadata": {"path": str(folder / "work")}},
                                    shutdown_kernel="immediate").execute()
            samples.append(time.perf_counter() - started)
        return statistics.median(samples)
    finally:
        os.environ.clear()
        os.environ.update(env)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    floors = (kernel_floor(), kernel_floor(sandboxed=True))  # first, on a quiet machine
    if STUDENTS:
        whole_class(floors)
    if CAPSTONE_STUDENTS:
        capstone(floors)


def _commands() -> tuple[list[str], list[str], str]:
    """The batch's command, plain nbgrader autograde's, and nbgrader itself."""
    nbgrader = str(Path(sys.executable).parent / "nbgrader")
    batch = [sys.executable, "-m", "grader", "autograde", "*", "--jobs",
             str(os.cpu_count() or 1), "--quiet"]
    # The kit's courses refuse plain autograde unless told the code is trusted (the bench's is).
    return batch, [nbgrader, "autograde", "*", "--PlainAutograde.allowed=True"], nbgrader


def capstone(floors: tuple[float, float]) -> None:
    """The capstone's class alone: its cost per notebook, sequential and batch, against the
    plain kernel floor, and the same scores from both."""
    work = Path(tempfile.mkdtemp(prefix="bench-capstone-"))
    try:
        base = work / "base"
        base.mkdir()
        release.build(list(CAPSTONE_BUGS), base)
        notebooks = hand_in(base, students=CAPSTONE_STUDENTS, exercises=CAPSTONE_BUGS)
        for name in ("sequential", "batch"):
            shutil.copytree(base, work / name)
        batch, plain, _ = _commands()
        sequential = timed(plain, work / "sequential")
        batched = timed(batch, work / "batch")
        same = bool(scores(work / "sequential")) and scores(work / "batch") == scores(
            work / "sequential")
        fresh = floors[0]
        print(f"capstone: {notebooks} notebooks, 13 graded cells each")
        for label, (wall, cpu) in (("sequential nbgrader autograde", sequential),
                                   (f"batch --jobs {os.cpu_count()}, sandboxed", batched)):
            print(f"  {label}: {wall / notebooks:.2f} s wall and {cpu / notebooks:.2f} s CPU per "
                  f"notebook, {wall / notebooks / fresh:.1f}x the plain kernel floor "
                  f"({fresh:.2f} s)")
        print(f"  identical scores on every test of every student: {'yes' if same else 'NO'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def whole_class(floors: tuple[float, float]) -> None:
    """Exercises 1 to 4 for the whole class, sequential nbgrader against the batch."""
    unsafe = os.environ.get("BENCH_UNSAFE") == "1"
    work = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    try:
        base = work / "base"
        base.mkdir()
        release.build(submissions.EXERCISES, base)
        notebooks = hand_in(base)
        batches = ["batch", "unsafe"] if unsafe else ["batch"]
        courses = {name: work / name for name in ["sequential", *batches]}
        for course in courses.values():
            shutil.copytree(base, course)
        batch, plain, nbgrader = _commands()
        jobs = os.cpu_count() or 1
        runs = {"autograde": timed(plain, courses["sequential"]),
                "export": timed([nbgrader, "export"], courses["sequential"]),
                "batch": timed(batch, courses["batch"])}
        if unsafe:
            runs["unsafe"] = timed([*batch, "--unsafe-no-sandbox"], courses["unsafe"])
        expected = scores(courses["sequential"])
        same = bool(expected) and all(scores(courses[name]) == expected for name in batches)
        report(notebooks, jobs, runs, same, floors)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(notebooks: int, jobs: int, runs: dict[str, tuple[float, float]], same: bool,
           floors: tuple[float, float]) -> None:
    def line(label: str, wall: float, cpu: float) -> str:
        return (f"{label}: {wall:.0f} s, {notebooks / wall * 60:.1f} notebooks/min, "
                f"{wall / notebooks:.2f} s wall and {cpu / notebooks:.2f} s CPU per notebook")

    (autograde, autograde_cpu), (export, _) = runs["autograde"], runs["export"]
    print(f"class: {STUDENTS} students x {len(BUGS)} exercises = "
          f"{notebooks} notebooks; {jobs} cores")
    print(line("sequential nbgrader autograde", autograde, autograde_cpu)
          + f"; then nbgrader export {export:.1f} s")
    print(line(f"batch --jobs {jobs}, sandboxed (grades.csv included)", *runs["batch"]))
    if "unsafe" in runs:
        print(line(f"batch --jobs {jobs} --unsafe-no-sandbox", *runs["unsafe"]))
    for name in [n for n in ("batch", "unsafe") if n in runs]:
        wall = runs[name][0]
        print(f"speed-up, {name}: {autograde / wall:.2f}x over autograde alone, "
              f"{(autograde + export) / wall:.2f}x over autograde + export")
    print(f"identical scores on every test of every student: {'yes' if same else 'NO'}")
    fresh, boxed = floors
    print(f"kernel floor (start, one trivial cell, shutdown): plain {fresh:.2f} s, sandboxed "
          f"{boxed:.2f} s (the sandbox adds {boxed - fresh:+.2f} s a kernel); per notebook, "
          f"sequential spends {autograde / notebooks / fresh:.1f}x the plain floor, the batch "
          f"{runs['batch'][0] / notebooks / fresh:.2f}x (wall, {jobs} cores)")
    print(f"load average while measuring: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
