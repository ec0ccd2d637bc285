"""How long the lessons take to execute, against the kernel-start floor, in the same run.

Executes every lesson in lessons/ top to bottom with nbclient (a fresh kernel each, offline, one
provider setting), with every your-turn piece filled in with its worked answer (as a student who
finished the lesson runs it: every check passes, later cells use the student's pieces), then the
same number of trivial one-cell notebooks: what executing a notebook costs before any lesson code
runs (kernel start, one cell, shutdown). One at a time, so the two figures are comparable. The
difference is what the lessons' own cells cost.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from harness.practice import with_answers

LESSONS = sorted((Path(__file__).resolve().parent.parent / "lessons").glob("*.ipynb"))
PROVIDER = os.environ.get("AGENT_LOOP_KIT_PROVIDER", "anthropic")
KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


def _seconds(notebook: nbformat.NotebookNode, where: Path) -> float:
    env = {key: value for key, value in os.environ.items() if key not in KEY_VARIABLES}
    env |= {"AGENT_LOOP_KIT_PROVIDER": PROVIDER, "JUPYTER_PLATFORM_DIRS": "1"}
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
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
    lessons = {path.stem: _seconds(with_answers(nbformat.read(path, as_version=4)), path.parent)
               for path in LESSONS}
    floor = [_seconds(trivial(), LESSONS[0].parent) for _ in LESSONS]
    print(f"provider: {PROVIDER}, {len(lessons)} lessons with the answers filled in, "
          "executed one at a time")
    for name, seconds in lessons.items():
        print(f"  {name:24} {seconds:5.1f} s")
    total, floor_total = sum(lessons.values()), sum(floor)
    print(f"all lessons:                 {total:6.1f} s")
    print(f"{len(floor)} one-cell notebooks (floor): {floor_total:6.1f} s "
          f"({floor_total / len(floor):.2f} s each)")
    print(f"the lessons' own cells:      {total - floor_total:6.1f} s "
          f"({(total - floor_total) / len(lessons):.2f} s per lesson above the floor)")
    print(f"ratio, all lessons / floor:  {total / floor_total:6.2f}x "
          f"(load average {os.getloadavg()[0]:.1f}: compare ratios from one run only)")


if __name__ == "__main__":
    main()
