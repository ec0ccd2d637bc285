"""How long the lessons take to execute, against the kernel-start floor, in the same run.

Executes every lesson in lessons/ top to bottom with nbclient (a fresh kernel each, offline, one
provider setting), with every your-turn piece filled in with its worked answer (as a student who
finished the lesson runs it: every check passes, later cells use the student's pieces), then the
same number of trivial one-cell notebooks: what executing a notebook costs before any lesson code
runs (kernel start, one cell, the kernel's end). One at a time, so the two figures are comparable.
The difference is what the lessons' own cells cost.

Both sides end their kernel as the tests and the class grader do (`shutdown_kernel="immediate"`):
every output is in once the last cell has replied. A graceful shutdown adds two things no student
waits for (measured on this machine kind, 2026-11-30): ipykernel 7 hangs on exit in about one
kernel in ten (its control thread flushes output to an IOPub thread that has already stopped,
until jupyter_client sends SIGTERM 2.5 s later; 6 of 60 one-cell notebooks), and jupyter_client
checks for the exit every 0.1 s, a step a lesson's kernel crosses more often than the floor's
because it has more objects to collect on the way out. `BENCH_SHUTDOWN=graceful` measures that
way instead.

Each lesson runs ROUNDS times, each time right after a one-cell notebook. The ratio is the time
spent on every lesson execution of the run over the time spent on every one-cell notebook, as
many of each. Each execution is also timed in two parts: the kernel's start (until it answers,
before any cell is sent) and the rest (the cells and the kernel's end). The start varies from
0.40 s to 0.55 s from one kernel to the next, in two clusters, and cannot depend on the notebook;
the second ratio counts every notebook's start as the median of all the run's starts and takes
each notebook's median rest. The two agree within about 0.02 from run to run; a ratio of medians
that gives each side its own starts moves three times as much, by which cluster its few samples
fall in.
"""

from __future__ import annotations

import asyncio
import copy
import os
import statistics
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from course.practice import with_answers
from harness.providers.catalog import KEY_VARIABLES

LESSONS = sorted((Path(__file__).resolve().parent.parent / "lessons").glob("*.ipynb"))
PROVIDER = os.environ.get("AGENT_LOOP_KIT_PROVIDER", "anthropic")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SHUTDOWN = os.environ.get("BENCH_SHUTDOWN", "immediate")


def _seconds(notebook: nbformat.NotebookNode, where: Path) -> tuple[float, float]:
    """The kernel's start (until it answers) and the rest (the cells, the kernel's end)."""
    env = {key: value for key, value in os.environ.items() if key not in KEY_VARIABLES}
    env |= {"AGENT_LOOP_KIT_PROVIDER": PROVIDER, "JUPYTER_PLATFORM_DIRS": "1"}
    ready: list[float] = []
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            shutdown_kernel=SHUTDOWN,
                            resources={"metadata": {"path": str(where)}},
                            on_notebook_start=lambda **_: ready.append(time.perf_counter()))
    started = time.perf_counter()
    asyncio.run(client.async_execute(env=env))
    return ready[0] - started, time.perf_counter() - ready[0]


def trivial() -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('hello')")])


def main() -> None:
    if not LESSONS:
        print("no lessons found")
        return
    _seconds(trivial(), LESSONS[0].parent)  # warm the disk cache and imports once
    notebooks = {path.stem: with_answers(nbformat.read(path, as_version=4)) for path in LESSONS}
    rounds: dict[str, list[tuple[float, float]]] = {name: [] for name in notebooks}
    floor: list[tuple[float, float]] = []
    for _ in range(ROUNDS):
        for path in LESSONS:  # a floor notebook, then a lesson: drifting load hits both alike
            floor.append(_seconds(trivial(), path.parent))
            rounds[path.stem].append(_seconds(copy.deepcopy(notebooks[path.stem]), path.parent))
    median = statistics.median
    starts = [start for runs in [floor, *rounds.values()] for start, _ in runs]
    start, floor_rest = median(starts), median(rest for _, rest in floor)
    lessons = {name: start + median(rest for _, rest in runs) for name, runs in rounds.items()}
    print(f"provider: {PROVIDER}, {len(lessons)} lessons with the answers filled in, executed "
          f"one at a time, {ROUNDS} rounds, {SHUTDOWN} shutdown; each lesson: the run's median "
          f"start + its median rest")
    for name, seconds in lessons.items():
        print(f"  {name:24} {seconds:5.2f} s  (cells and end, rounds: "
              f"{', '.join(f'{rest:.2f}' for _, rest in rounds[name])})")
    spent = sum(sum(times) for runs in rounds.values() for times in runs)
    spent_floor = sum(sum(times) for times in floor)
    print(f"kernel start:                {start:6.2f} s (median of all {len(starts)} notebooks; "
          f"min {min(starts):.2f}, max {max(starts):.2f})")
    print(f"every lesson, every round:   {spent:6.1f} s")
    print(f"as many one-cell notebooks:  {spent_floor:6.1f} s ({start:.2f} s start + "
          f"{floor_rest:.2f} s cell and end, medians)")
    above = (spent - spent_floor) / len(floor)
    print(f"the lessons' own cells:      {above:6.2f} s a lesson above the floor")
    print(f"ratio, lessons / floor:      {spent / spent_floor:6.2f}x "
          f"(load average {os.getloadavg()[0]:.1f}: compare ratios from one run only)")
    common = sum(lessons.values()) / (len(lessons) * (start + floor_rest))
    print(f"ratio, common start:         {common:6.2f}x "
          f"(the run's median start, each notebook's median rest)")


if __name__ == "__main__":
    main()
