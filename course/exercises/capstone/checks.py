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

from collections.abc import Callable, Iterable
from typing import Any

from course.exercises.capstone import hints
from course.exercises.capstone.ahead import record_ahead  # noqa: F401 (the class grader calls it here)
from course.exercises.capstone.edge_variants import BESIDE, cancels
from course.exercises.capstone.replays import BASE, Case, Played, play, reference
from course.exercises.capstone.scenario_variants import (
    PUBLIC,
    cancel_point,
    recorded,
    variants_of,
)
from course.exercises.capstone.summary import summarize_exits_matches
from course.exercises.capstone.verdicts import accepted, batches, returned
from course.exercises.grader_hook import observed
from course.exercises.identity import autograde_identity
from course.exercises.ownwork import Tripwire, refuse_calls, refuse_reference
from course.exercises.report import checked, fail, self_check
from harness.trace import Exit
from offline.edges import EDGES
from offline.scenarios import SCENARIOS

SUBJECT = "run_agent"
MODULES = ("harness.loop", "course.exercises.reference")
BATCHING = ("harness.tools.run_calls", "harness.tools.plan_batches")
"""Lesson 09's graded thing: the batch cell refuses a loop that hands it to the library."""
VARIANTS = tuple(variants_of(PUBLIC))
CASES = SCENARIOS | EDGES
"""The course's thirteen scenarios and the edge cases that make each sentence of the contract
decide a case (`offline.edges`)."""

INTERRUPTIONS = (("bench_press", 2), ("umbrella", 0), ("bench_press_capped", 3),
                 ("big_pages", 6), ("truncated_with_calls", 2), ("umbrella", 2))
"""(scenario, replies after which cancel is set): between a reply and its calls; before the first
call; on the cap's last turn (no closing call); on a reply over the budget (interrupted, not
token_cap); after a cut reply (truncated) and after the answer (done): the order of the checks."""


def _student(student_id: str | None) -> str | None:
    """The id being graded when a cell asks for a student's variants (it passes `student_id`):
    the autograde folder's while nbgrader autogrades, else as typed; None when it does not."""
    if student_id is None:
        return None
    identity = autograde_identity()
    return identity[0] if identity else (str(student_id).strip() or None)


def _cases(names: Iterable[str], variants: Iterable[str] = (), student_id: str | None = None,
           *, seed: int | None = None, provider: str = BASE, **options: Any) -> list[Case]:
    """The course's scenarios `names`, then, for a student id, that student's `variants` and
    the edge variants beside them (`edge_variants.BESIDE`), made from the id and the hidden
    tests' `seed`, which no student sees before grading."""
    cases = [Case(CASES[name], provider, **options) for name in names]
    who = _student(student_id)
    variants = dict.fromkeys(n for v in variants for n in (v, *BESIDE.get(v, ())))
    for name in variants if who else ():
        scenario = variants_of(who, seed)[name]
        cases.append(Case(scenario, provider, recorded(who, scenario, provider, seed=seed),
                          **options))
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
    """The model calls the run should make: all the recording holds (as the reference's own
    replay of it counts them, never as a student's run reports it), unless cancel stops it."""
    ref = reference(case)
    return ref.played if case.cancel is not None else ref.recorded


def _check(loop: Callable[..., Any], cases: list[Case], hint: str, exit: Exit | None = None, *,
           parts: tuple[str, ...] = ("status", "answer", "messages")) -> None:
    """Each case accepted by its recording, then `parts` of the returned value compared (only
    the status for a case that ends another way than the cell's `exit`: a retry that is done).
    Every play of the student's loop comes before any of the reference's: a graded kernel has no
    reference loop (`grader.withhold`), and the class grader judges elsewhere what it recorded."""
    refuse_reference(SUBJECT, loop, MODULES)
    runs = [_play(loop, case) for case in cases]
    for case, run in zip(cases, runs, strict=True):
        ref = reference(case)
        compared = parts if exit in (None, ref.outcome.value.status) else ("status",)
        divergence = accepted(ref.played, run, hint) or returned(ref, run, hint,
                                                                    parts=compared)
        if divergence:
            fail(SUBJECT, divergence)


@checked
def run_agent_done(run_agent: Callable[..., Any], *, student_id: str | None = None,
                   seed: int | None = None) -> None:
    """Lesson 03: runs that end by themselves, answered."""
    _check(run_agent, _cases(["umbrella", "two_cities", "no_tool_needed", "bench_press",
                              "reasoning_roundtrip"], ["variant_done"], student_id, seed=seed),
           hints.AGENT_DONE)


@checked
def run_agent_truncated(run_agent: Callable[..., Any], *, student_id: str | None = None,
                        seed: int | None = None) -> None:
    """Lesson 05: a cut reply is no answer."""
    _check(run_agent, _cases(["truncated", "truncated_with_calls"], ["variant_truncated"],
                             student_id, seed=seed), hints.AGENT_TRUNCATED)


@checked
def run_agent_turn_cap(run_agent: Callable[..., Any], *, student_id: str | None = None,
                       seed: int | None = None) -> None:
    """Lesson 05: the turn cap, the pending calls and the closing call (its usage counted)."""
    _check(run_agent, _cases(["bench_press_capped", "closing_cut", "closing_calls_a_tool",
                              "capped_without_system"], ["variant_turn_cap"], student_id,
                             seed=seed),
           hints.AGENT_TURN_CAP, parts=("status", "answer", "messages", "usage"))


@checked
def run_agent_token_cap(run_agent: Callable[..., Any], *, student_id: str | None = None,
                        seed: int | None = None) -> None:
    """Lesson 06: the token budget, counted from every reply's usage."""
    _check(run_agent, _cases(["big_pages", "budget_by_output", "budget_after_answer",
                              "repeat_over_budget"], ["variant_token_cap"], student_id,
                             seed=seed),
           hints.AGENT_TOKEN_CAP, Exit.TOKEN_CAP,
           parts=("status", "answer", "messages", "usage"))


@checked
def run_agent_no_progress(run_agent: Callable[..., Any], *, student_id: str | None = None,
                          seed: int | None = None) -> None:
    """Lesson 07: repeats and cycles stop the run; a retry after an error does not."""
    _check(run_agent, _cases(["refund_doom_loop", "order_shipment_cycle", "retry_after_timeout",
                              "repeat_after_retry", "repeat_beside_error", "repeat_within_reply",
                              "repeat_at_the_cap", "unparseable_arguments"],
                             ["variant_no_progress"], student_id, seed=seed),
           hints.AGENT_NO_PROGRESS, Exit.NO_PROGRESS)


@checked
def run_agent_error(run_agent: Callable[..., Any], *, student_id: str | None = None,
                    seed: int | None = None) -> None:
    """Lesson 08: a provider error ends the run, on the first call, a later one or the closing
    call: result.error set, no retry."""
    _check(run_agent, _cases(["rate_limited", "rate_limited_first", "closing_overloaded"],
                             ["variant_rate_limited"], student_id, seed=seed),
           hints.AGENT_ERROR, parts=("status", "answer", "messages", "error"))


@checked
def run_agent_interrupted(run_agent: Callable[..., Any], *, student_id: str | None = None,
                          seed: int | None = None) -> None:
    """Lesson 05: cancel, before a call and between a reply and its tools, in its place among
    the exits: after a cut reply or an answer it is too late; before the budget, the detector
    and the cap it is not."""
    cases = [Case(CASES[name], BASE, cancel=after) for name, after in INTERRUPTIONS]
    if who := _student(student_id):
        cases += [Case(c.scenario, BASE, c.directory, cancel=cancel_point(who, seed))
                  for c in _cases([], ["variant_done"], who, seed=seed)]
        for name, after in cancels(variants := variants_of(who, seed)):  # on its own runs too
            cases.append(Case(variants[name], BASE, recorded(who, variants[name], BASE,
                                                             seed=seed), cancel=after))
    _check(run_agent, cases, hints.AGENT_INTERRUPTED, Exit.INTERRUPTED)


@checked
def run_agent_errors_as_results(run_agent: Callable[..., Any], *,
                                student_id: str | None = None, seed: int | None = None) -> None:
    """Lesson 08: failing tools become results the model reads."""
    _check(run_agent, _cases(["tool_errors"], ["variant_tool_errors"], student_id, seed=seed),
           hints.AGENT_ERRORS, parts=("messages",))


@checked
def run_agent_parallel_batches(run_agent: Callable[..., Any], *,
                               student_id: str | None = None, seed: int | None = None) -> None:
    """Lesson 09: batches of parallel-safe calls, barriers, results in model order."""
    refuse_reference(SUBJECT, run_agent, MODULES)
    public = variants_of(PUBLIC)["variant_batches"]
    cases = _cases(["two_cities"], ["variant_batches"], student_id, seed=seed, batches=True)
    cases.append(Case(public, BASE, recorded(PUBLIC, public, BASE), batches=True))
    runs = [_play(run_agent, case, also=BATCHING) for case in cases]  # all before any reference
    for case, run in zip(cases, runs, strict=True):
        divergence = accepted(_calls(case), run, hints.AGENT_BATCHES) or batches(run)
        if divergence:
            fail(SUBJECT, divergence)


def _on(case: Case, provider: str, student_id: str | None, seed: int | None) -> Case:
    """The same case on another wire format (a variant recorded there first)."""
    if case.scenario.name in CASES:
        return case.on(provider)
    who = _student(student_id) or PUBLIC
    return Case(case.scenario, provider, recorded(who, case.scenario, provider, seed=seed),
                cancel=case.cancel)


def _wire_check(run_agent: Callable[..., Any], provider: str, student_id: str | None,
                seed: int | None) -> None:
    """Every case on openai_chat and on `provider`, the student's plays first (all of them:
    which ones count is the reference's to say, afterwards); a case counts on `provider` when
    the student's loop gets it right on openai_chat."""
    refuse_reference(SUBJECT, run_agent, MODULES)
    first = ["umbrella", "reasoning_roundtrip"]
    cases = [*_cases([*first, *(n for n in CASES if n not in first)], VARIANTS, student_id,
                     seed=seed),
             Case(SCENARIOS["bench_press"], BASE, cancel=2)]
    others = [_on(case, provider, student_id, seed) for case in cases]
    base_runs = [_play(run_agent, case) for case in cases]
    other_runs = [_play(run_agent, other) for other in others]
    for case, base in zip(cases[:2], base_runs[:2], strict=True):
        # a tool round trip, and reasoning: without them nothing to judge
        if divergence := accepted(_calls(case), base, hints.AGENT_WIRE):
            fail(f"{SUBJECT} (on {BASE} first: see run_agent_done)", divergence)
    for case, base, other, run in zip(cases, base_runs, others, other_runs, strict=True):
        ref = reference(case)
        if accepted(ref.played, base, hints.AGENT_WIRE) or returned(ref, base,
                                                                    hints.AGENT_WIRE):
            continue  # wrong on openai_chat already: that is another cell's, not the wire's
        divergence = accepted(_calls(other), run, hints.AGENT_WIRE)
        if divergence:
            fail(f"{SUBJECT} (right on {BASE})", divergence)


@checked
def run_agent_on_openai_responses(run_agent: Callable[..., Any], *,
                                  student_id: str | None = None, seed: int | None = None) -> None:
    """Lesson 10: every scenario right on openai_chat is right on the Responses API."""
    _wire_check(run_agent, "openai_responses", student_id, seed)


@checked
def run_agent_on_anthropic(run_agent: Callable[..., Any], *, student_id: str | None = None,
                           seed: int | None = None) -> None:
    """Lesson 10: every scenario right on openai_chat is right on Anthropic Messages."""
    _wire_check(run_agent, "anthropic", student_id, seed)


@checked
def run_agent_on_gemini(run_agent: Callable[..., Any], *, student_id: str | None = None,
                        seed: int | None = None) -> None:
    """Lesson 10: every scenario right on openai_chat is right on Gemini."""
    _wire_check(run_agent, "gemini", student_id, seed)


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
