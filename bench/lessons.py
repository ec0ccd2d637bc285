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

Each lesson runs ROUNDS times, each time right after a one-cell notebook, and each figure is the
median of its rounds: a kernel's start alone varies from 0.40 s to 0.55 s from one to the next.
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

from harness.practice import with_answers

LESSONS = sorted((Path(__file__).resolve().parent.parent / "lessons").glob("*.ipynb"))
PROVIDER = os.environ.get("AGENT_LOOP_KIT_PROVIDER", "anthropic")
KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SHUTDOWN = os.environ.get("BENCH_SHUTDOWN", "immediate")


def _seconds(notebook: nbformat.NotebookNode, where: Path) -> float:
    env = {key: value for key, value in os.environ.items() if key not in KEY_VARIABLES}
    env |= {"AGENT_LOOP_KIT_PROVIDER": PROVIDER, "JUPYTER_PLATFORM_DIRS": "1"}
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            shutdown_kernel=SHUTDOWN,
                            resources={"metadata": {"path": str(where)}})
    started = time.perf_counter()
    asyncio.run(client.async_execute(env=env))
    return time.perf_counter() - started


def trivial() -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('hello')")])


def main() -> None:
    if not LESSONS:
        print("no lessons found")
        return
    _seconds(trivial(), LESSONS[0].parent)  # warm the disk cache and imports once
    notebooks = {path.stem: with_answers(nbformat.read(path, as_version=4)) for path in LESSONS}
    rounds: dict[str, list[float]] = {name: [] for name in notebooks}
    floor: list[float] = []
    for _ in range(ROUNDS):
        for path in LESSONS:  # a floor notebook, then a lesson: drifting load hits both alike
            floor.append(_seconds(trivial(), path.parent))
            rounds[path.stem].append(_seconds(copy.deepcopy(notebooks[path.stem]), path.parent))
    lessons = {name: statistics.median(times) for name, times in rounds.items()}
    each = statistics.median(floor)
    print(f"provider: {PROVIDER}, {len(lessons)} lessons with the answers filled in, executed "
          f"one at a time, median of {ROUNDS} rounds, {SHUTDOWN} shutdown")
    for name, seconds in lessons.items():
        print(f"  {name:24} {seconds:5.2f} s  (rounds: "
              f"{', '.join(f'{t:.2f}' for t in rounds[name])})")
    total, floor_total = sum(lessons.values()), each * len(lessons)
    print(f"all lessons:                 {total:6.1f} s")
    print(f"{len(lessons)} one-cell notebooks (floor): {floor_total:6.1f} s ({each:.2f} s each, "
          f"median of {len(floor)}; min {min(floor):.2f}, max {max(floor):.2f})")
    print(f"the lessons' own cells:      {total - floor_total:6.1f} s "
          f"({(total - floor_total) / len(lessons):.2f} s per lesson above the floor)")
    print(f"ratio, all lessons / floor:  {total / floor_total:6.2f}x "
          f"(load average {os.getloadavg()[0]:.1f}: compare ratios from one run only)")


if __name__ == "__main__":
    main()
