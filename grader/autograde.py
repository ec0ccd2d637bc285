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
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from grader import copies, intake, summary
from grader.course import Course, build_template, definition
from grader.engine import DaskEngine, LocalEngine, Progress
from grader.export import export
from grader.merge import Incident, Merger
from grader.rounds import culprit, split
from grader.shard import grade_shard, stop_all

ROUNDS = 4
"""Grading rounds: the first, then retries, each without the cells that stopped a kernel."""
T = TypeVar("T")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    autograde = argparse.ArgumentParser(
        prog="python -m grader autograde", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 3)[3], epilog=summary.HELP)
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
        self.skip: dict[str, set[str]] = {}  # cells a kernel stopped on: left out next round
        self.timeouts: dict[str, dict[str, dict[str, Any]]] = {}  # by submission, cell digest
        self.intake: dict[tuple[str, str], intake.Intake] = {}
        self.copies: list[copies.Copy] = []
        self.missing: list[tuple[str, str]] = []  # rows of grades.csv never handed in
        self.failures: dict[tuple[str, str], str] = {}
        self.failure_kinds: dict[tuple[str, str], str] = {}
        self.problems: list[Incident] = []  # the stages' own, and what no stage could compare
        self.stage_failed = False
        self.merger: Merger | None = None
        self.engine = "no engine (grading did not start)"
        self.workers: set[str] = set()
        self._look()

    def _look(self) -> None:
        """Read each submission before grading (`grader.intake.look`): what the instructor
        should know is an incident; one with no notebook to grade fails at once."""
        self.intake, failed, incidents = intake.look(self.course, self.pairs, self.definitions)
        for pair, (kind, reason) in failed.items():
            self.failures[pair], self.failure_kinds[pair] = reason, kind
        self.problems += [Incident(**incident) for incident in incidents]

    def _skips(self, key: str) -> list[str]:
        """The cells a retry leaves out: those that stopped a kernel, and those that ran past the
        time limit (they would cost it again, and score what they scored)."""
        return sorted(self.skip.get(key, set()) | set(self.timeouts.get(key, {})))

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
                                 "files": self.intake[(s, a)].files} for s, a in shard],
                "skip": {f"{s}.{a}": self._skips(f"{s}.{a}") for s, a in shard},
                "timeout": timeout, "memory_mb": self.options.memory_mb or None,
                "deadline": 120 + sum(cells[a] * (timeout + 10) + 30 for _, a in shard),
                "private": [*course.private_paths(), str(self.scratch)],
                "scratch": str(self.scratch) if not self.remote else None,
                "sandbox": not self.options.unsafe_no_sandbox}

    @property
    def remote(self) -> bool:
        return bool(self.options.scheduler) and self.options.scheduler != "local"

    def run(self) -> tuple[list[Incident], int]:
        """Grade, then write grades.csv and copies.csv. Each stage is guarded: one that fails is
        an incident of its own and the others still run, so whatever a submission holds the
        instructor gets the grades merged so far, the CSVs, the summary and the report."""
        options = self.options
        self._stage("grading", self._grade)
        grades = Path(options.csv) if options.csv else self.course.root / "grades.csv"
        self.missing = self._stage("grades.csv", lambda: export(self.course, grades)) or []
        self.copies = self._stage("the near-copy finder", self._copies) or []
        # Written even when the finder failed: a copies.csv of an earlier run would mislead.
        self._stage(summary.COPIES, lambda: copies.write_csv(self.copies,
                                                            grades.with_name(summary.COPIES)))
        merged = self.merger.incidents if self.merger else []
        return merged + self.problems, len(self.failures)

    def _stage(self, name: str, work: Callable[[], T]) -> T | None:
        """Run one stage of the run; if it raises, record it (no student's fault) and go on."""
        try:
            return work()
        except Exception as exc:
            self.problems.append(Incident("", "", f"{name} failed: {type(exc).__name__}: {exc} "
                                          "(the other stages still ran)"))
            self.stage_failed = True
            return None

    def _grade(self) -> None:
        """Every round of shards, each result merged as it comes, then the submissions that
        could not be graded."""
        options = self.options
        merger = self.merger = Merger(self.course, self.definitions)
        engine = DaskEngine(options.scheduler, options.jobs) if options.scheduler \
            else LocalEngine(options.jobs)
        progress = Progress(sum(self._notebooks(pair) for pair in self.pairs),
                            quiet=options.quiet)
        progress.start()
        pending, offset = [pair for pair in self.pairs if pair not in self.failures], 0
        self.engine, self.workers = engine.describe(), set()
        try:
            merger.register([student for student, _ in self.pairs])
            for round_ in range(ROUNDS):
                if not pending:
                    break
                shards = split(pending, self._shards(engine.slots) if round_ == 0
                               else len(pending))
                pending = []
                for index, result in engine.run(grade_shard, [self.payload(s) for s in shards],
                                                progress, offset):
                    self.workers.add(result.get("worker", "?"))
                    settled = self._absorb(shards[index], result, merger, pending, round_)
                    progress.update(offset + index, sum(map(self._notebooks, settled)),
                                    final=True)
                offset += len(shards)
            for (student, assignment), reason in self.failures.items():
                merger.merge({"student": student, "assignment": assignment, "ok": False,
                              "reason": reason,
                              "kind": self.failure_kinds.get((student, assignment), "")})
        except BaseException:
            stop_all()  # Ctrl-C or a bug: no shard may keep running behind the instructor's back
            raise
        finally:
            progress.close()
            engine.close()
            merger.close()
            shutil.rmtree(self.scratch, ignore_errors=True)

    def _copies(self) -> list[copies.Copy]:
        """Near-copies in the whole class (not only who was graded now); what could not be
        compared is an incident of its student's."""
        course = self.course
        with course.gradebook() as gradebook:  # every assignment: copies.csv lists the class's
            every = {a.name: definition(gradebook, a.name) for a in gradebook.assignments}
        handed_in = {pair: course.files(course.submitted(*pair))
                     for pair in course.submissions(list(every), regrade=True)}
        found = copies.compare(handed_in, every)
        self.problems += [Incident(u.student, u.assignment, f"near-copy finder: {u.why}",
                                   cell=u.cell) for u in found.uncompared]
        return found.copies

    def _shards(self, slots: int) -> int:
        size = self.options.shard_size or (20 if self.options.scheduler else 0)
        students = len({student for student, _ in self.pairs})
        return max(slots, -(-students // size)) if size else slots

    def _notebooks(self, pair: tuple[str, str]) -> int:
        return len(self.definitions[pair[1]]["notebooks"])

    def _absorb(self, shard: list[tuple[str, str]], result: dict[str, Any], merger: Merger,
                pending: list[tuple[str, str]], round_: int) -> list[tuple[str, str]]:
        """Merge what a shard graded; queue what must be graded again. Returns the shard's
        submissions that are settled."""
        outcomes = {(r["student"], r["assignment"]): r for r in result.get("submissions", [])}
        settled = []
        for pair in shard:
            outcome = outcomes.get(pair)
            key = f"{pair[0]}.{pair[1]}"
            for stopped in (outcome or {}).get("timeouts", []):
                self.timeouts.setdefault(key, {})[stopped["digest"]] = stopped
            if outcome is not None and outcome["ok"]:
                merger.merge({**outcome, "skipped": sorted(self.skip.get(key, ())),
                              "timeouts": list(self.timeouts.get(key, {}).values())})
                settled.append(pair)
                continue
            stopped = culprit(outcome["cells"]) if outcome else None
            reason = result.get("error") or ("the shard ran out of time" if result.get(
                "timed_out") else "its kernel stopped (it crashed, exited, or ignored the time "
                "limit) in every attempt; grade it by hand in formgrader, or look at "
                f"submitted/{pair[0]}/{pair[1]}/ for what stops it")
            if stopped and stopped not in self.skip.get(key, set()) and round_ + 1 < ROUNDS:
                self.skip.setdefault(key, set()).add(stopped)
                pending.append(pair)
            elif stopped is None and round_ == 0:
                pending.append(pair)  # once more, alone: the shard itself may have failed
            else:
                self.failures[pair] = f"could not be graded: {reason}"
                self.failure_kinds[pair] = "not graded"
                settled.append(pair)
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
    flagged = summary.near_copies(batch.copies)
    missing = summary.never_handed_in(batch.missing)
    unwritten = summary.write_report(options.report, incidents + flagged + missing) \
        if options.report else None  # first: nothing printed below can keep it from being written
    summary.show(batch, incidents, flagged, time.monotonic() - started)
    if unwritten:
        print(unwritten)
    return 1 if failed or batch.stage_failed or unwritten else 0


if __name__ == "__main__":
    sys.exit(main())
