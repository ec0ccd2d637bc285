"""The capstone's self-check on the public scenarios, as a student runs it: in a fresh process,
the reference solution from solutions/05_capstone, every graded cell's public part (about a hundred
replays: the thirteen scenarios on the four wire formats, each once for the reference and once for
the loop). Figures: the import of the checks, and the self-check itself, wall and CPU; the median
of a few fresh processes, each with the check's caches empty as in a new kernel.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3
PROGRAM = r"""
import contextlib, io, json, sys, time
import nbformat
cells = nbformat.read(sys.argv[1], as_version=4).cells
namespace = {}
for cell in cells:
    if cell.metadata.get("nbgrader", {}).get("solution"):
        exec(cell.source, namespace)
wall, cpu = time.perf_counter(), time.process_time()
from course.exercises.capstone import checks as check
imported = time.perf_counter() - wall, time.process_time() - cpu
wall, cpu = time.perf_counter(), time.process_time()
with contextlib.redirect_stdout(io.StringIO()) as printed:
    check.check_run_agent(namespace["run_agent"], namespace["summarize_exits"])
done = time.perf_counter() - wall, time.process_time() - cpu
assert printed.getvalue().count("[ok]") == 13, printed.getvalue()
print(json.dumps({"import": imported, "check": done}))
"""


def _once() -> dict[str, list[float]]:
    notebook = ROOT / "solutions" / "05_capstone" / "05_capstone.ipynb"
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(notebook)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    runs = [_once() for _ in range(RUNS)]
    print(f"capstone self-check, reference solution, median of {RUNS} fresh processes")
    for part in ("import", "check"):
        wall = statistics.median(run[part][0] for run in runs)
        cpu = statistics.median(run[part][1] for run in runs)
        print(f"{part:<7} wall {wall:5.2f} s   cpu {cpu:5.2f} s")


if __name__ == "__main__":
    main()
