"""Checks for exercise 5, the capstone: `run_agent`, a whole loop, graded by replay.

Every graded cell replays the student's loop on recorded scenarios (`course.exercises.capstone.replays`;
what it compares is `course.exercises.capstone.verdicts`):
the cassette answers each request it holds and refuses any other with the kit's mismatch
message, and the run must then make as many model calls as the reference and, for an exit's
cell, return what the reference returned. The exits are graded on openai_chat, the wire format
that carries the transcript and nothing else; each other format has a cell of its own that
fails only where a scenario passes on openai_chat and not there (what differs is the wire). With
`student_id` a cell adds that student's variants (`course.exercises.capstone.scenario_variants`). One cell
per lesson 08 to 11 besides: errors as results, batches in model order (the tools show how they
were run), every wire format, and `summarize_exits`, a summary of many runs' exits.

The contract's sentences, and the corpus case breaking each: tests/grading/test_corpus.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from course.exercises.capstone import hints
from course.exercises import reference as _reference
from course.exercises.ownwork import Tripwire, refuse_calls, refuse_reference
from course.exercises.capstone.replays import Case, Played, play, reference, untimed
from course.compare import Divergence, Plain, show
from course.exercises.grader_hook import call, observed
from course.exercises.report import checked, fail, self_check
from course.exercises.capstone.scenario_variants import PUBLIC, cancel_point, recorded, variants_of
from course.exercises.identity import autograde_identity
from course.exercises.capstone.verdicts import accepted, batches, returned
from harness.messages import AssistantMessage, ToolCall
from offline.scenarios import SCENARIOS
from harness.trace import Exit, RunResult

SUBJECT = "run_agent"
BASE = "openai_chat"
MODULES = ("harness.loop", "course.exercises.reference")
BATCHING = ("harness.tools.run_calls", "harness.tools.plan_batches")
"""Lesson 09's graded thing: the batch cell refuses a loop that hands it to the library."""
SUMMARY = ("harness.trace.summarize", "course.exercises.reference.summarize_exits")
VARIANTS = tuple(variants_of(PUBLIC))

def _student(student_id: str | None) -> str | None:
    """The id being graded: the autograde folder's while nbgrader autogrades, else as typed."""
    identity = autograde_identity()
    return identity[0] if identity else (str(student_id).strip() if student_id else None)


def _cases(names: Iterable[str], variants: Iterable[str] = (), student_id: str | None = None,
           *, provider: str = BASE, **options: Any) -> list[Case]:
    cases = [Case(SCENARIOS[name], provider, **options) for name in names]
    who = _student(student_id)
    for name in variants if who else ():
        scenario = variants_of(who)[name]
        cases.append(Case(scenario, provider, recorded(who, scenario, provider), **options))
    return cases


_plays: dict[tuple[Any, ...], tuple[tuple[Any, ...], Played]] = {}


def _version(loop: Callable[..., Any]) -> tuple[Any, ...]:
    """The loop, its code and that of the global functions it names: a student who redefines a
    helper in another cell gets a new version, so nothing stale comes from `_plays`."""
    code = getattr(loop, "__code__", None)
    named = [getattr(loop, "__globals__", {}).get(name) for name in getattr(code, "co_names", ())]
    return (loop, code, *(getattr(f, "__code__", f) for f in named if callable(f)))


@observed  # the class grader's grading process gets what each play gave, cached or not
def _play(loop: Callable[..., Any], case: Case, *, also: tuple[str, ...] = ()) -> Played:
    """The student's play of a case, once per version of the loop and case (the wire cells reuse
    the exits'), with the reference loop and the functions named in `also` tripwired."""
    version = _version(loop)
    key = (tuple(map(id, version)), also, case.key)
    if key not in _plays:
        watch = Tripwire(MODULES)
        watch.functions.update(Tripwire({n.rsplit(".", 1)[0] for n in also}, only=also).functions)
        _plays[key] = (version, play(loop, case, watch=watch))  # kept alive: the ids stay theirs
    played = _plays[key][1]
    refuse_calls(SUBJECT, played)  # a Played has the hits and switched_off of its watch
    return played


def _calls(case: Case) -> int:
    """The model calls the reference made: all the recording holds, unless cancel stops it."""
    return reference(case).played if case.cancel is not None else -1


def _check(loop: Callable[..., Any], cases: list[Case], hint: str, exit: Exit | None = None, *,
           parts: tuple[str, ...] = ("status", "answer", "messages")) -> None:
    """Each case accepted by its recording, then `parts` of the returned value compared (only
    the status for a case that ends another way than the cell's `exit`: a retry that is done)."""
    refuse_reference(SUBJECT, loop, MODULES)
    for case in cases:
        ref, run = reference(case), _play(loop, case)
        compared = parts if exit in (None, case.scenario.expected_exit) else ("status",)
        divergence = accepted(ref.played, run, hint) or returned(ref, run, hint,
                                                                    parts=compared)
        if divergence:
            fail(SUBJECT, divergence)


@checked
def run_agent_done(run_agent: Callable[..., Any], *, student_id: str | None = None) -> None:
    """Lesson 03: runs that end by themselves, answered."""
    _check(run_agent, _cases(["umbrella", "two_cities", "no_tool_needed", "bench_press",
                              "reasoning_roundtrip"], ["variant_done"], student_id),
           hints.AGENT_DONE)


@checked
def run_agent_truncated(run_agent: Callable[..., Any], *, student_id: str | None = None) -> None:
    """Lesson 05: a cut reply is no answer."""
    _check(run_agent, _cases(["truncated"], ["variant_truncated"], student_id),
           hints.AGENT_TRUNCATED)


@checked
def run_agent_turn_cap(run_agent: Callable[..., Any], *, student_id: str | None = None) -> None:
    """Lesson 05: the turn cap, the pending calls and the closing call."""
    _check(run_agent, _cases(["bench_press_capped"], ["variant_turn_cap"], student_id),
           hints.AGENT_TURN_CAP)


@checked
def run_agent_token_cap(run_agent: Callable[..., Any], *, student_id: str | None = None) -> None:
    """Lesson 06: the token budget, counted from every reply's usage."""
    _check(run_agent, _cases(["big_pages"], ["variant_token_cap"], student_id),
           hints.AGENT_TOKEN_CAP,
           parts=("status", "answer", "messages", "usage"))


@checked
def run_agent_no_progress(run_agent: Callable[..., Any], *,
                          student_id: str | None = None) -> None:
    """Lesson 07: repeats and cycles stop the run; a retry after an error does not."""
    _check(run_agent, _cases(["refund_doom_loop", "order_shipment_cycle", "retry_after_timeout"],
                             ["variant_no_progress"], student_id), hints.AGENT_NO_PROGRESS,
           Exit.NO_PROGRESS)


@checked
def run_agent_error(run_agent: Callable[..., Any], *, student_id: str | None = None) -> None:
    """Lesson 08: a provider error ends the run, no retry."""
    _check(run_agent, _cases(["rate_limited"], ["variant_rate_limited"], student_id),
           hints.AGENT_ERROR)


@checked
def run_agent_interrupted(run_agent: Callable[..., Any], *,
                          student_id: str | None = None) -> None:
    """Lesson 05: cancel, before a call and between a reply and its tools."""
    cases = [Case(SCENARIOS["bench_press"], BASE, cancel=2),
             Case(SCENARIOS["umbrella"], BASE, cancel=0)]
    if who := _student(student_id):
        cases += [Case(c.scenario, BASE, c.directory, cancel=cancel_point(who))
                  for c in _cases([], ["variant_done"], who)]
    _check(run_agent, cases, hints.AGENT_INTERRUPTED)


@checked
def run_agent_errors_as_results(run_agent: Callable[..., Any], *,
                                student_id: str | None = None) -> None:
    """Lesson 08: failing tools become results the model reads."""
    _check(run_agent, _cases(["tool_errors"], ["variant_tool_errors"],
                             student_id), hints.AGENT_ERRORS, parts=("messages",))


@checked
def run_agent_parallel_batches(run_agent: Callable[..., Any], *,
                               student_id: str | None = None) -> None:
    """Lesson 09: batches of parallel-safe calls, barriers, results in model order."""
    refuse_reference(SUBJECT, run_agent, MODULES)
    public = variants_of(PUBLIC)["variant_batches"]
    cases = _cases(["two_cities"], ["variant_batches"], student_id, batches=True)
    cases.append(Case(public, BASE, recorded(PUBLIC, public, BASE), batches=True))
    for case in cases:
        run = _play(run_agent, case, also=BATCHING)
        divergence = accepted(_calls(case), run, hints.AGENT_BATCHES) or batches(run)
        if divergence:
            fail(SUBJECT, divergence)


def _on(case: Case, provider: str, student_id: str | None) -> Case:
    """The same case on another wire format (a variant recorded there first)."""
    if case.scenario.name in SCENARIOS:
        return case.on(provider)
    who = _student(student_id) or PUBLIC
    return Case(case.scenario, provider, recorded(who, case.scenario, provider),
                cancel=case.cancel)


def _wire_check(run_agent: Callable[..., Any], provider: str, student_id: str | None) -> None:
    refuse_reference(SUBJECT, run_agent, MODULES)
    first = ["umbrella", "reasoning_roundtrip"]
    cases = [*_cases([*first, *(n for n in SCENARIOS if n not in first)], VARIANTS, student_id),
             Case(SCENARIOS["bench_press"], BASE, cancel=2)]
    for case in cases[:2]:  # a tool round trip, and reasoning: without them nothing to judge
        if divergence := accepted(_calls(case), _play(run_agent, case), hints.AGENT_WIRE):
            fail(f"{SUBJECT} (on {BASE} first: see run_agent_done)", divergence)
    for case in cases:
        base, ref = _play(run_agent, case), reference(case)
        if accepted(ref.played, base, hints.AGENT_WIRE) or returned(ref, base,
                                                                    hints.AGENT_WIRE):
            continue  # wrong on openai_chat already: that is another cell's, not the wire's
        other = _on(case, provider, student_id)
        divergence = accepted(_calls(other), _play(run_agent, other), hints.AGENT_WIRE)
        if divergence:
            fail(f"{SUBJECT} (right on {BASE})", divergence)


@checked
def run_agent_on_openai_responses(run_agent: Callable[..., Any], *,
                                  student_id: str | None = None) -> None:
    """Lesson 10: every scenario right on openai_chat is right on the Responses API."""
    _wire_check(run_agent, "openai_responses", student_id)


@checked
def run_agent_on_anthropic(run_agent: Callable[..., Any], *,
                           student_id: str | None = None) -> None:
    """Lesson 10: every scenario right on openai_chat is right on Anthropic Messages."""
    _wire_check(run_agent, "anthropic", student_id)


@checked
def run_agent_on_gemini(run_agent: Callable[..., Any], *, student_id: str | None = None) -> None:
    """Lesson 10: every scenario right on openai_chat is right on Gemini."""
    _wire_check(run_agent, "gemini", student_id)


def _runs(rng: random.Random) -> list[RunResult]:
    """A made-up batch of runs: random exits, random tool calls."""
    tools = ["search_tickets", "get_order", "get_shipment", "get_forecast", "save_goal"]
    return [RunResult(rng.choice(list(Exit)), None, [AssistantMessage(tool_calls=[
        ToolCall(id=f"c{i}_{j}", name=rng.choice(tools)) for j in range(rng.randint(0, 4))])
        for i in range(rng.randint(0, 3))]) for _ in range(rng.randint(1, 30))]


def _summary(value: Any) -> Any:
    """A summary in one comparable form: shares rounded, pairs as tuples."""
    if not isinstance(value, dict):
        return value
    return {getattr(k, "value", k): {"share": round(v.get("share", -1), 9), "top_tools": [
        tuple(pair) for pair in v.get("top_tools", [])]} if isinstance(v, dict) else v
        for k, v in value.items()}


@checked
def summarize_exits_matches(summarize_exits: Callable[..., Any], *, seed: int | None = None,
                            cases: int = 20) -> None:
    """Lesson 11: each exit's share and the tools behind it, over many runs."""
    subject = "summarize_exits"
    refuse_reference(subject, summarize_exits, [*MODULES, "harness.trace"])
    batches = [[untimed(reference(c).outcome.value) for c in _cases(SCENARIOS)], [],
               *(_runs(random.Random(n)) for n in range(3))]
    if seed is not None:
        batches += [_runs(random.Random(seed + n)) for n in range(cases)]
    for number, runs in enumerate(batches, start=1):
        with Tripwire(["harness.trace", "course.exercises.reference"], only=SUMMARY) as watch:
            outcome = call(summarize_exits, list(runs))
        refuse_calls(subject, watch)
        want = _summary(_reference.summarize_exits(runs))
        got = _summary(outcome.value) if outcome.error is None else Plain(outcome.ended())
        if want != got:
            where = f"batch {number} of {len(runs)} runs" + (
                " (the reference's runs of the public scenarios)" if number == 1 else "")
            if isinstance(got, dict) and set(got) == set(want):  # name the first field that differs
                status = next(s for s in want if want[s] != got[s])
                field = "share" if want[status]["share"] != got[status]["share"] else "top_tools"
                where, want, got = f"{where}, exit {status!r}, {field}", want[status][field], \
                    got[status][field]
            fail(subject, Divergence(where, show(want), got if isinstance(got, Plain)
                                     else show(got), hints.AGENT_SUMMARISE))


BEHAVIOURS = {name: globals()[name] for name in (
    "run_agent_done", "run_agent_truncated", "run_agent_turn_cap", "run_agent_token_cap",
    "run_agent_no_progress", "run_agent_error", "run_agent_interrupted",
    "run_agent_errors_as_results", "run_agent_parallel_batches",
    "run_agent_on_openai_responses", "run_agent_on_anthropic", "run_agent_on_gemini")}


def check_run_agent(run_agent: Callable[..., Any],
                    summarize_exits: Callable[..., Any] | None = None) -> None:
    """The formative check on the public scenarios: one line per graded cell."""
    checks = {name: (lambda check=check: check(run_agent)) for name, check in BEHAVIOURS.items()}
    if summarize_exits is not None:
        checks["summarize_exits_matches"] = lambda: summarize_exits_matches(summarize_exits)
    self_check(checks)
