"""Grade a whole class in parallel with the real nbgrader, into the course's own gradebook.

Usage (from the course directory, or with --course):

    python -m grader autograde ASSIGNMENT [ASSIGNMENT ...] [--course DIR]
        [--jobs N] [--student ID ...] [--force] [--scheduler tcp://HOST:PORT | local]
        [--shard-size N] [--csv PATH] [--timeout SECONDS] [--memory-mb MB]
        [--unsafe-no-sandbox] [--report PATH] [--quiet]

It grades what `nbgrader autograde` would (not yet graded, or handed in again; every submission
with --force; `--student ID` regrades that student and replaces only their rows), split into
shards that each run `nbgrader autograde` in a scratch course of their own (`shard`), with
every kernel contained by the operating system (`sandbox`; Linux; elsewhere run the grader in
the container recipe, or pass --unsafe-no-sandbox to grade with no containment at all) and every
test judged again by the checks in a process that runs no student code, from what the kernel
recorded (`verdict`). A submission whose kernel dies or hangs is
graded again without the cell that stopped it. One writer merges the results (`merge`) and
writes grades.csv with nbgrader's exporter, then lists near-copies in the class (`copies`) in
copies.csv beside it, for review. Shards run in --jobs local threads (default: one per core) or on
Dask (`--scheduler local` or an address; needs the `grader` extra). ASSIGNMENT "*" means every
assignment in the gradebook.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from grader import copies
from grader.course import Course, build_template, definition
from grader.engine import DaskEngine, LocalEngine, Progress
from grader.merge import Incident, Merger, export
from grader.shard import grade_shard, stop_all

COPIES = "copies.csv"
"""Near-copies for review, written next to grades.csv (which stays nbgrader's export)."""
SHOWN = 20
"""Near-copies printed in the summary; copies.csv and the report list them all."""
ROUNDS = 4
"""Grading rounds: the first, then retries, each without the cells that stopped a kernel."""


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    autograde = argparse.ArgumentParser(prog="python -m grader autograde",
                                        description=__doc__.splitlines()[0])
    autograde.add_argument("assignments", nargs="+", metavar="ASSIGNMENT")
    autograde.add_argument("--course", default=".", help="the course directory (default: here)")
    autograde.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                           help="shards graded at once (default: one per core)")
    autograde.add_argument("--student", action="append", default=[],
                           help="(re)grade only this student; repeat for several")
    autograde.add_argument("--force", action="store_true", help="regrade every submission")
    autograde.add_argument("--scheduler", help="a Dask scheduler address, or 'local'")
    autograde.add_argument("--shard-size", type=int,
                           help="students per shard (default: one shard per slot on local "
                                "threads, 20 on Dask)")
    autograde.add_argument("--csv", help="where grades.csv goes (default: the course directory)")
    autograde.add_argument("--timeout", type=int,
                           help="seconds per cell (default: the course's Execute.timeout)")
    autograde.add_argument("--memory-mb", type=int, default=4096,
                           help="address space per kernel in MB (default 4096; 0: no cap)")
    autograde.add_argument("--unsafe-no-sandbox", action="store_true",
                           help="run students' code with no OS sandbox (it could read the "
                                "gradebook, other students' work and your files, and use the "
                                "network): only for code you trust, where no sandbox can run")
    autograde.add_argument("--report", help="write the incidents as JSON here")
    autograde.add_argument("--quiet", action="store_true", help="no progress line")
    return autograde.parse_args(argv)


def split(pairs: list[tuple[str, str]], count: int) -> list[list[tuple[str, str]]]:
    """Deal submissions into `count` shards, a student's submissions together.

    Example:
        >>> split([("a", "x"), ("a", "y"), ("b", "x")], 2)
        [[('a', 'x'), ('a', 'y')], [('b', 'x')]]
    """
    students: dict[str, list[tuple[str, str]]] = {}
    for pair in pairs:
        students.setdefault(pair[0], []).append(pair)
    shards: list[list[tuple[str, str]]] = [[] for _ in range(max(1, min(count, len(students))))]
    for group in sorted(students.values(), key=len, reverse=True):
        min(shards, key=len).extend(group)
    return [shard for shard in shards if shard]


def culprit(cells: list[str]) -> str | None:
    """The cell the kernel was running when it stopped, from its cell log (the last `start`
    without a `done`), or None when it stopped between cells or never started one."""
    running = None
    for line in cells:
        kind, _, name = line.partition(" ")
        if kind == "kernel":
            running = None
        elif kind == "start":
            running = name
        elif kind == "done" and name == running:
            running = None
    return running


class Batch:
    """One run of the command: the course, what to grade, and the shards' results as they come."""

    def __init__(self, options: argparse.Namespace):
        self.options = options
        self.course = Course.open(options.course)
        self.scratch = Path(tempfile.mkdtemp(prefix="grading-batch-"))
        with self.course.gradebook() as gradebook:
            names = options.assignments
            if names == ["*"]:
                names = [a.name for a in gradebook.assignments]
            try:
                self.definitions = {name: definition(gradebook, name) for name in names}
            except Exception as exc:
                raise SystemExit(f"{exc}: register it first (nbgrader generate_assignment "
                                 f"NAME) in {self.course.root}") from None
        self.template = build_template(self.scratch / "template.db",
                                       list(self.definitions.values()),
                                       self.course.coursedir.course_id)
        self.pairs = self.course.submissions(list(self.definitions), options.student or None,
                                             regrade=options.force or bool(options.student))
        self.skip: dict[str, set[str]] = {}
        self.copies: list[copies.Copy] = []
        self.missing: list[tuple[str, str]] = []  # rows of grades.csv never handed in
        self.failures: dict[tuple[str, str], str] = {}

    def payload(self, shard: list[tuple[str, str]]) -> dict[str, Any]:
        course, coursedir = self.course, self.course.coursedir
        assignments = sorted({a for _, a in shard})
        timeout = self.options.timeout or course.config.get("Execute", {}).get("timeout") or 30
        cells = {a: sum(len(c) for c in self.definitions[a]["notebooks"].values())
                 for a in assignments}
        return {"config": course.config_text, "gradebook": self.template,
                "dirs": {"source": coursedir.source_directory,
                         "submitted": coursedir.submitted_directory,
                         "autograded": coursedir.autograded_directory},
                "source_files": {a: course.source_files(a) for a in assignments},
                "definitions": {a: self.definitions[a] for a in assignments},
                "submissions": [{"student": s, "assignment": a,
                                 "files": course.files(course.submitted(s, a))} for s, a in shard],
                "skip": {f"{s}.{a}": sorted(self.skip.get(f"{s}.{a}", ())) for s, a in shard},
                "timeout": timeout, "memory_mb": self.options.memory_mb or None,
                "deadline": 120 + sum(cells[a] * (timeout + 10) + 30 for _, a in shard),
                "private": [*course.private_paths(), str(self.scratch)],
                "scratch": str(self.scratch) if not self.remote else None,
                "sandbox": not self.options.unsafe_no_sandbox}

    @property
    def remote(self) -> bool:
        return bool(self.options.scheduler) and self.options.scheduler != "local"

    def run(self) -> tuple[list[Incident], int]:
        options = self.options
        engine = DaskEngine(options.scheduler, options.jobs) if options.scheduler \
            else LocalEngine(options.jobs)
        progress = Progress(len(self.pairs), quiet=options.quiet)
        merger = Merger(self.course, self.definitions)
        merger.register([student for student, _ in self.pairs])
        pending, offset = list(self.pairs), 0
        self.engine, self.workers = engine.describe(), set()
        try:
            for round_ in range(ROUNDS):
                if not pending:
                    break
                shards = split(pending, self._shards(engine.slots) if round_ == 0
                               else len(pending))
                pending = []
                for index, result in engine.run(grade_shard, [self.payload(s) for s in shards],
                                                progress, offset):
                    self.workers.add(result.get("worker", "?"))
                    final = self._absorb(shards[index], result, merger, pending, round_)
                    progress.update(offset + index, final, final=True)
                offset += len(shards)
            for (student, assignment), reason in self.failures.items():
                merger.merge({"student": student, "assignment": assignment, "ok": False,
                              "reason": reason})
        except BaseException:
            stop_all()  # Ctrl-C or a bug: no shard may keep running behind the instructor's back
            raise
        finally:
            engine.close()
            merger.close()
            shutil.rmtree(self.scratch, ignore_errors=True)
        grades = Path(options.csv) if options.csv else self.course.root / "grades.csv"
        self.missing = export(self.course, grades)
        self.copies = self._copies(grades.with_name(COPIES))
        return merger.incidents, len(self.failures)

    def _copies(self, path: Path) -> list[copies.Copy]:
        """Near-copies in the whole class (not only who was graded now), into copies.csv."""
        course = self.course
        handed_in = {pair: course.files(course.submitted(*pair))
                     for pair in course.submissions(list(self.definitions), regrade=True)}
        found = copies.find(handed_in, self.definitions)
        copies.write_csv(found, path)
        return found

    def _shards(self, slots: int) -> int:
        size = self.options.shard_size or (20 if self.options.scheduler else 0)
        students = len({student for student, _ in self.pairs})
        return max(slots, -(-students // size)) if size else slots

    def _absorb(self, shard: list[tuple[str, str]], result: dict[str, Any], merger: Merger,
                pending: list[tuple[str, str]], round_: int) -> int:
        """Merge what a shard graded; queue what must be graded again. Returns how many of the
        shard's submissions are settled."""
        outcomes = {(r["student"], r["assignment"]): r for r in result.get("submissions", [])}
        settled = 0
        for pair in shard:
            outcome = outcomes.get(pair)
            key = f"{pair[0]}.{pair[1]}"
            if outcome is not None and outcome["ok"]:
                merger.merge({**outcome, "skipped": sorted(self.skip.get(key, ()))})
                settled += 1
                continue
            stopped = culprit(outcome["cells"]) if outcome else None
            reason = result.get("error") or ("the shard ran out of time" if result.get(
                "timed_out") else "the kernel died or hung")
            if stopped and stopped not in self.skip.get(key, set()) and round_ + 1 < ROUNDS:
                self.skip.setdefault(key, set()).add(stopped)
                pending.append(pair)
            elif stopped is None and round_ == 0:
                pending.append(pair)  # once more, alone: the shard itself may have failed
            else:
                self.failures[pair] = f"could not be graded: {reason}"
                settled += 1
        return settled


def main(argv: Sequence[str] | None = None) -> int:
    options = parse(argv)
    if not options.unsafe_no_sandbox and not options.scheduler:
        from grader.sandbox import unavailable

        reason = unavailable()
        if reason:
            raise SystemExit(f"refusing to grade: students' code must run in the OS sandbox, and "
                             f"{reason}. Run the grader in the container recipe "
                             f"(docs/instructors.md, 'Grading a whole class'), or pass "
                             f"--unsafe-no-sandbox to grade without any containment.")
    started = time.monotonic()
    batch = Batch(options)
    if not batch.pairs:
        shutil.rmtree(batch.scratch, ignore_errors=True)
        print("nothing to grade (use --force to regrade)")
        return 0
    incidents, failed = batch.run()
    seconds = time.monotonic() - started
    notebooks = sum(len(batch.definitions[a]["notebooks"]) for _, a in batch.pairs)
    print(f"graded {len(batch.pairs)} submissions ({notebooks} notebooks) in {seconds:.0f} s, "
          f"{notebooks / seconds * 60:.1f} notebooks a minute; {len(incidents)} incidents")
    # Each shard reports the machine and process that graded it (one process locally, one per
    # Dask worker on a cluster), so an instructor sees the work was spread as asked.
    print(f"on {batch.engine}; shards graded by {len(batch.workers)} process(es), as "
          f"machine:pid: {', '.join(sorted(batch.workers))}")
    for incident in incidents:
        where = "/".join(filter(None, [incident.student, incident.assignment, incident.cell]))
        print(f"  {where}: {incident.what}")
    if batch.missing:  # nbgrader's export lists them as 0.0 without saying why
        print(f"{len(batch.missing)} rows of grades.csv are work never handed in (score 0.0, "
              f"no timestamp): {', '.join('/'.join(pair) for pair in batch.missing[:SHOWN])}"
              + (" ..." if len(batch.missing) > SHOWN else ""))
    flagged = [Incident(c.student, c.assignment, f"near-copy of {c.other} (similarity "
                        f"{c.similarity:.2f}): for the instructor to review", cell=c.cell)
               for c in batch.copies]
    print(f"{len(flagged)} near-copies flagged for review in {COPIES} (not graded down)")
    for incident in flagged[:SHOWN]:
        print(f"  {incident.student}/{incident.assignment}/{incident.cell}: {incident.what}")
    if len(flagged) > SHOWN:
        print(f"  ... and {len(flagged) - SHOWN} more in {COPIES}")
    if options.report:
        Path(options.report).write_text(json.dumps([asdict(i) for i in incidents + flagged],
                                                   indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
