"""How grading throughput grows with Dask workers: a model from measured parts, checked here.

Measures, on one exercise (03_no_progress) of a small class:
- a shard's fixed cost `a` and per-notebook cost `b`: `grader.shard.grade_shard` run directly on
  shards of 1 and of 4 submissions (seconds = a + b x notebooks);
- the scheduler's overhead `d` per task: a no-op task carrying a real shard payload, round trip
  through a local Dask cluster (one worker process);
- the merge's cost `g` per notebook (nbgrader's preprocessors into the instructor's gradebook, on
  the instructor's machine): `grader.merge.Merger` on the 4-submission shard's results;
- the batch's fixed cost `F` (start-up, LocalCluster, export, near-copies): a one-student batch
  on `--scheduler local` minus one shard's and one merge's predicted time.
Then the model  T(W) = F + N x g + S x d + ceil(S / min(W, C)) x (a + b x m)  for N notebooks in
S shards of m on W single-threaded workers and C cores per machine (a real cluster: C >= W),
against the batch measured with 1 and 2 local workers. BENCH_DASK_STUDENTS sets the class
(default 8).
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from grading import submissions  # noqa: E402 (the test corpus is the class)

from grader import release  # noqa: E402

EXERCISE = "03_no_progress"
STUDENTS = int(os.environ.get("BENCH_DASK_STUDENTS", "8"))
SHARD = 2
"""Students per shard in the measured runs (S = STUDENTS / SHARD shards)."""


def echo(payload: dict, progress: object = None) -> dict:
    """A shard that grades nothing: the scheduler's round trip with a real payload."""
    return {"submissions": [], "bytes": len(payload["gradebook"])}


def course(where: Path, students: int) -> Path:
    import nbformat

    folder = where / f"course-{students}"
    folder.mkdir()
    release.build([EXERCISE], folder)
    for number in range(students):
        module = submissions.load("detector_consecutive_only") if number % 3 == 1 else None
        target = folder / "submitted" / f"s{number:03d}" / EXERCISE
        target.mkdir(parents=True)
        nbformat.write(submissions.submission(EXERCISE, module, student_id=f"s{number:03d}"),
                       target / f"{EXERCISE}.ipynb")
    return folder


def batch_seconds(folder: Path, *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "grader", "autograde", EXERCISE, "--force",
                           "--quiet", "--course", str(folder), *args], cwd=folder,
                          env=release.nbgrader_env(), capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(done.stdout + done.stderr)
    return time.perf_counter() - started


def shard_costs(folder: Path) -> tuple[float, float, float, dict]:
    """(a, b) from grading shards of 1 and 4 submissions directly, g from merging the 4, and
    one payload."""
    from grader.autograde import Batch, parse
    from grader.merge import Merger
    from grader.shard import grade_shard

    batch = Batch(parse([EXERCISE, "--force", "--course", str(folder)]))
    try:
        timings = {}
        for size in (1, 4):
            payload = batch.payload(batch.pairs[:size])
            started = time.perf_counter()
            result = grade_shard(payload)
            timings[size] = time.perf_counter() - started
        merger = Merger(batch.course, batch.definitions)
        started = time.perf_counter()
        for outcome in result["submissions"]:
            merger.merge(outcome)
        merger.close()
        merge = (time.perf_counter() - started) / len(result["submissions"])
    finally:
        shutil.rmtree(batch.scratch, ignore_errors=True)
    per_notebook = (timings[4] - timings[1]) / 3
    return timings[1] - per_notebook, per_notebook, merge, payload


def scheduler_overhead(payload: dict, tasks: int = 20) -> float:
    """Seconds per task, one at a time, of a no-op shard through a one-worker LocalCluster."""
    from grader.engine import DaskEngine, Progress

    engine = DaskEngine("local", 1)
    try:
        list(engine.run(echo, [payload], Progress(1, quiet=True)))  # warm: the function ships
        started = time.perf_counter()
        for index in range(tasks):
            list(engine.run(echo, [payload], Progress(1, quiet=True), index))
        return (time.perf_counter() - started) / tasks
    finally:
        engine.close()


def model(workers: int, *, notebooks: int, per_shard: int, a: float, b: float, d: float,
          f: float, g: float, cores: int) -> float:
    """Predicted seconds for `notebooks` in shards of `per_shard` on `workers` workers."""
    shards = math.ceil(notebooks / per_shard)
    return f + notebooks * g + shards * d \
        + math.ceil(shards / min(workers, cores)) * (a + b * per_shard)


def main() -> None:
    cores = os.cpu_count() or 1
    work = Path(tempfile.mkdtemp(prefix="bench-dask-"))
    try:
        one, class_ = course(work, 4), course(work, STUDENTS)
        a, b, g, payload = shard_costs(one)
        d = scheduler_overhead(payload)
        f = batch_seconds(one, "--student", "s000", "--scheduler", "local", "--jobs", "1") \
            - (a + b + g)
        measured = {w: batch_seconds(class_, "--scheduler", "local", "--jobs", str(w),
                                     "--shard-size", str(SHARD)) for w in (1, 2)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    parts = {"a": a, "b": b, "d": d, "f": f, "g": g}
    print(f"shard fixed cost a = {a:.2f} s, per notebook b = {b:.2f} s, merge per notebook "
          f"g = {g:.2f} s, scheduler overhead d = {d * 1000:.0f} ms per task "
          f"({len(payload['gradebook']) // 1024} KB gradebook in the payload), batch fixed cost "
          f"F = {f:.1f} s; {cores} cores, load average {os.getloadavg()[0]:.1f}")
    for workers, seconds in measured.items():
        predicted = model(workers, notebooks=STUDENTS, per_shard=SHARD, cores=cores, **parts)
        print(f"{STUDENTS} notebooks in shards of {SHARD} on {workers} local worker(s): measured "
              f"{seconds:.1f} s, model {predicted:.1f} s ({(predicted / seconds - 1) * 100:+.0f}%)")
    print("model for a real cluster (C >= W), 160 notebooks:")
    for workers in (1, 2, 4, 8, 16, 32):
        for size in sorted({20, max(1, 160 // workers)}, reverse=True):
            total = model(workers, notebooks=160, per_shard=size, cores=workers, **parts)
            print(f"  W={workers:>2} shard size {size:>3}: {total:6.0f} s, "
                  f"{160 / total * 60:6.1f} notebooks/min")


if __name__ == "__main__":
    main()
