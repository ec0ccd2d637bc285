"""The capstone's machinery: run a loop on a recorded scenario, with the recording as the judge.

A `Case` is one scenario on one wire format, with the loop options of the scenario and, for the
interrupted exit, the moment `cancel` is set. `play` runs a loop on a case inside
`offline.replay.replay`: the provider adapter talks to the cassette, which answers every request
it holds and refuses any other with the kit's mismatch message (which call, where in the body,
what was recorded, what was sent). `reference` plays `harness.loop.run` the same way, once per
case, for what the run must return. With `batches=True` the tools are instrumented to show how
the loop ran them (`Batches`). Which parts of two plays a graded cell compares is in
`course.exercises.capstone.checks`; this module only runs and records.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from course.compare import Outcome
from course.exercises.capstone.scenario_variants import AHEAD
from course.exercises.grader_hook import call
from course.exercises.ownwork import Tripwire
from course.exercises.report import KitError
from harness.loop import run
from harness.progress import call_key
from harness.tools import Toolbox, plan_batches
from harness.trace import RunResult
from offline.cassettes import CASSETTES
from offline.replay import replay
from offline.scenarios import Scenario

BASE = "openai_chat"
"""The wire format the exits are graded on: it carries the transcript and nothing else."""
WAIT = 1.0
"""Seconds a call of a batch waits for a second call of its batch to start (only a loop that runs
a batch one call at a time ever waits this long; a loaded machine starts a thread far sooner)."""
FINISH = 30.0
"""Seconds a call waits for the later calls of its batch already running to finish: they always
do, so this bound is never reached; a short one let a loaded machine end the first call first."""
LINGER = 0.15
"""Seconds a batch with a barrier after it stays open: a loop that starts the next batch early
is seen doing it (a right loop waits this long once per barrier)."""


@dataclass(frozen=True)
class Case:
    """One scenario on one wire format, and when the user presses stop (after that many replies;
    0: before the run, as a set `threading.Event`)."""

    scenario: Scenario
    provider: str
    directory: Path = CASSETTES
    cancel: int | None = None
    batches: bool = False

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.scenario.name, self.provider, str(self.directory), self.cancel, self.batches)

    @property
    def label(self) -> str:
        stop = "" if self.cancel is None else (
            " (cancel set before the run)" if self.cancel == 0
            else f" (cancel set once call {self.cancel} has replied)")
        return f"{self.provider}/{self.scenario.name}{stop}"

    def on(self, provider: str) -> Case:
        return replace(self, provider=provider)


@dataclass
class Played:
    """What one run of a loop on a case did."""

    case: Case
    outcome: Outcome
    played: int
    """Replies the recording served."""
    recorded: int
    """Replies the recording holds."""
    hits: list[str] = field(default_factory=list)
    switched_off: bool = False
    batches: Batches | None = None


class Batches:
    """Tools that show how the loop ran one reply's calls. Each call of a batch of parallel-safe
    calls waits until two calls of its batch have run at once (one that waits in vain is in
    `alone`: the batch ran one call at a time), then finishes only after the later calls of the
    batch that have started: a loop that runs a batch together sees calls finish out of model
    order, so results in model order were put there by the loop. Together is two or more at once,
    not all: a pool of two workers runs a batch of four together, the last call alone too. A
    batch with a barrier after it stays open a moment, so a loop that does not wait for it is
    seen. `log` keeps (turn, batch, "start"|"end") in time order."""

    def __init__(self, plans: list[Plan], toolbox: Toolbox, replies: Callable[[], int]):
        self.plans = plans
        self.toolbox, self.replies = toolbox, replies
        self.log: list[tuple[int, int, str]] = []
        self.alone: list[str] = []
        self._started: set[tuple[int, int]] = set()
        self._ended: set[tuple[int, int]] = set()
        self._running: dict[tuple[int, int], set[int]] = {}  # (turn, batch) -> positions running
        self._together: set[tuple[int, int]] = set()  # (turn, batch): two calls ran at once
        self._lock = threading.Condition()

    def tools(self) -> Toolbox:
        return Toolbox({name: replace(tool, function=self._wrap(name, tool.function))
                        for name, tool in self.toolbox.tools.items()})

    def _place(self, name: str, arguments: dict[str, Any]) -> tuple[int, int, int, list[int]]:
        """(turn, batch index, position, positions of its batch) of a call of this reply."""
        turn = self.replies()
        keys, sizes = self.plans[turn - 1] if 0 < turn <= len(self.plans) else ([], [])
        key = call_key(name, arguments)
        position, start = keys.index(key) if key in keys else -1, 0
        for number, size in enumerate(sizes):
            if start <= position < start + size:
                return turn, number, position, list(range(start, start + size))
            start += size
        return turn, -1, position, [position]

    def _wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def instrumented(**arguments: Any) -> Any:
            turn, batch, position, members = self._place(name, arguments)
            with self._lock:
                self.log.append((turn, batch, "start"))
                self._started.add((turn, position))
                running = self._running.setdefault((turn, batch), set())
                if running:  # seen as it starts: however soon either ends, they overlapped
                    self._together.add((turn, batch))
                running.add(position)
                self._lock.notify_all()
                if len(members) > 1 and not self._lock.wait_for(
                        lambda: (turn, batch) in self._together, WAIT):
                    self.alone.append(name)
                elif len(members) > 1:  # the later calls of the batch running finish first
                    self._lock.wait_for(lambda: all(
                        (turn, p) in self._ended for p in members
                        if p > position and (turn, p) in self._started), FINISH)
                later = range(members[-1] + 1, len(self.plans[turn - 1][0])) if batch >= 0 \
                    else range(0)
                if later:  # give a loop that ignores the barrier the time to show it
                    self._lock.wait_for(lambda: any((turn, p) in self._started for p in later),
                                        LINGER)
            try:
                return function(**arguments)
            finally:
                with self._lock:
                    self.log.append((turn, batch, "end"))
                    self._ended.add((turn, position))
                    self._running[(turn, batch)].discard(position)
                    self._lock.notify_all()

        return instrumented


Plan = tuple[list[str], list[int]]
"""One reply's calls as the batch cell expects them run: their keys, and the size of each batch."""
PLANS = "plans.json"
"""Where `plans_ahead` writes the plans, in the folder `scenario_variants.AHEAD` names."""


def _plan_key(case: Case) -> str:
    """The case's scenario by what it scripts (students' variants share names), and provider."""
    calls = [call_key(c.name, c.arguments) for step in case.scenario.steps for c in step.calls]
    digest = hashlib.sha256(json.dumps(calls).encode()).hexdigest()[:16]
    return f"{case.provider}/{case.scenario.name}/{digest}"


def plans_for(case: Case) -> list[Plan]:
    """How each reply's calls should run (from `plan_batches`, the reference's own). A graded
    kernel has no `plan_batches`: there the plans come from the folder recorded ahead."""
    ahead = os.environ.get(AHEAD)
    if ahead and (Path(ahead) / PLANS).exists():
        found = json.loads((Path(ahead) / PLANS).read_text()).get(_plan_key(case))
        if found is not None:
            return [(list(keys), list(sizes)) for keys, sizes in found]
    toolbox = case.scenario.tools()
    skipped = case.scenario.impossible_on.get(case.provider, ())
    steps = [s for i, s in enumerate(case.scenario.steps) if i not in skipped]
    return [([call_key(c.name, c.arguments) for c in s.calls],
             [len(batch) for batch in plan_batches(s.calls, toolbox.mode_of)]) for s in steps]


def plans_ahead(cases: list[Case], folder: Path) -> None:
    """Write every case's plans into `folder`, for graded kernels (see `plans_for`)."""
    plans = {_plan_key(case): plans_for(case) for case in cases}
    (folder / PLANS).write_text(json.dumps(plans, sort_keys=True))


def _options(case: Case, session: Any) -> dict[str, Any]:
    options = dict(case.scenario.loop_options)
    if case.batches:
        options["parallel_tools"] = True
    if case.cancel == 0:
        stop = threading.Event()
        stop.set()
        options["cancel"] = stop
    elif case.cancel is not None:
        options["cancel"] = lambda: session.played >= case.cancel
    return options


def play(loop: Callable[..., Any], case: Case, *, watch: Tripwire | None = None,
         seconds: float | None = 5.0) -> Played:
    """Run `loop(model, tools, messages, **options)` on the case's recording, under `watch`
    (and a deadline of `seconds`; None: none, for the reference)."""
    with replay(case.provider, case.scenario, directory=case.directory) as session:
        batches = None
        tools = case.scenario.tools()
        if case.batches:
            batches = Batches(plans_for(case), tools, lambda: session.played)
            tools = batches.tools()
        with watch or contextlib.nullcontext():
            outcome = call(loop, session.model, tools, case.scenario.messages(),
                           seconds=seconds, **_options(case, session))
        return Played(case, outcome, session.played, len(session.cassette),
                      watch.hits if watch else [], bool(watch and watch.switched_off), batches)


_references: dict[tuple[Any, ...], Played] = {}


def reference(case: Case) -> Played:
    """The reference loop's play of the case (once per process), without a deadline."""
    case = replace(case, batches=False)  # the same run, whatever the tools show
    if case.key not in _references:
        played = play(run, case, seconds=None)
        if played.outcome.error is not None:
            raise KitError(f"the reference loop failed on {case.label}: "
                           f"{played.outcome.describe()}")
        _references[case.key] = played
    return _references[case.key]


def untimed(result: RunResult) -> RunResult:
    """A run without its calls' durations: the same value in every process (the class grader's
    grading process checks that a check's inputs are the ones the notebook gave)."""
    return replace(result, calls=[replace(call, seconds=0.0) for call in result.calls])
