"""Lesson 13's pieces: the loop's options as hooks on its named points, and a hook of your own.

`goal_check` is a goal check for the two_cities trip (a function: `GoalCheck` makes it a hook).
`Interrupt`, `StopOnRepeat` and `Remind` are `harness.hooks`'s versions of `run`'s cancel, its
no-progress detector and its reminder, each an object whose methods are named after the points
it attaches to; the checks run yours and the reference in `run_hooked` on the same scenarios.
`ApprovalPause` has no library version: it asks before an exclusive tool runs, answers a refused
call with a result instead of running it, and keeps a record of every decision.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Event

from course.compare import Outcome, same
from course.practice.engine import Piece, attempt
from course.practice.runs import compare_runs, hooked_run, hooked_run_with
from harness.hooks import Interrupt, Moment, Remind, StopOnRepeat, run_hooked
from harness.messages import ToolCall
from harness.progress import RepeatReminder
from harness.trace import RunResult
from offline.scenarios import SCENARIOS
from offline.scripted import ScriptedModel


def goal_check(answer: str | None) -> str | None:
    """A goal check for the two_cities trip: the answer must name Lisbon and Porto.

    Returns None when it names both (the run may end), otherwise a note for the model that
    names each city the answer leaves out, and only those.
    """
    missing = [city for city in ("Lisbon", "Porto") if city not in (answer or "")]
    if not missing:
        return None
    return f"Your answer does not cover {' and '.join(missing)} yet: check the forecast first."


class ApprovalPause:
    """Ask before an exclusive tool runs: `approve(call)` says yes or no (a person, in an app).

    Parallel-safe calls (`mode_of(call) == "parallel"`) pass without asking. Every question is
    recorded in `decisions` as (tool name, "approved" or "refused"), in order. A refused call is
    answered, without running, by a text that starts "Not approved:" and names the tool.
    """

    def __init__(self, approve: Callable[[ToolCall], bool],
                 mode_of: Callable[[ToolCall], str]) -> None:
        self.approve, self.mode_of = approve, mode_of
        self.decisions: list[tuple[str, str]] = []

    def before_tool(self, moment: Moment) -> str | None:
        call = moment.call
        if call is None or self.mode_of(call) == "parallel":
            return None  # reads change nothing: no reason to stop the user for them
        allowed = bool(self.approve(call))
        self.decisions.append((call.name, "approved" if allowed else "refused"))
        if allowed:
            return None
        return f"Not approved: the user did not allow {call.name} to run. Ask before trying again."


GOAL = Piece("goal_check", lesson="13_hooks", section="A goal check before the run ends",
             reference=goal_check)
INTERRUPT = Piece("Interrupt", lesson="13_hooks", section="The caller's stop, as a hook",
                  reference=Interrupt)
REPEAT = Piece("StopOnRepeat", lesson="13_hooks", section="The detector, as a hook",
               reference=StopOnRepeat)
REMIND = Piece("Remind", lesson="13_hooks", section="The reminder, as a hook", reference=Remind)
APPROVAL = Piece("ApprovalPause", lesson="13_hooks", section="A hook of your own: approval",
                 reference=ApprovalPause)


# ---- goal_check -------------------------------------------------------------------------------

_ANSWERS = {
    "both cities": "Lisbon: light rain; Porto: showers. Take the umbrella.",
    "Lisbon only": "Lisbon: light rain, take an umbrella.",
    "Porto only": "Porto the day after: showers.",
    "no text at all": None,
}


def _named(note: object) -> object:
    """What a note does, in a form to compare: None, or the cities it names."""
    if not isinstance(note, str):
        return note
    return {"names": [city for city in ("Lisbon", "Porto") if city in note]}


@GOAL.behaviour("lets an answer end the run only when it names both cities")
def _ends_when_both(yours, reference):
    for case, answer in _ANSWERS.items():
        outcome = attempt(yours, answer)
        want, seen = reference(answer) is None, outcome.value is None
        if outcome.error or want != seen:
            said = "let it end the run" if seen else "sent it back"
            return same(f"the answer {answer!r} ({case})", {"ends the run": want},
                        outcome if outcome.error else {"ends the run": seen},
                        hint=f"yours {said}, and it names "
                             f"{_named(answer or '')['names'] or 'no city'}: None only when "
                             f"both Lisbon and Porto are in the answer (an answer of None has "
                             f"neither)")
    return None


@GOAL.behaviour("sends back a note naming each missing city, and only those")
def _names_the_missing(yours, reference):
    for case, answer in _ANSWERS.items():
        want, outcome = _named(reference(answer)), attempt(yours, answer)
        got = outcome if outcome.error else _named(outcome.value)
        if found := same(f"the answer {answer!r} ({case})", want, got,
                         hint=f"yours names {got['names'] if isinstance(got, dict) else got}, "
                              f"the reference {want['names'] if want else 'nothing'}, the "
                              "cities the answer leaves out: name those and no other, so the "
                              "model knows what to look up"):
            return found
    return None


# ---- Interrupt --------------------------------------------------------------------------------

def _stopped_at(hook_class, call: int) -> RunResult:
    """bench_press with the stop pressed while call `call` is on its way (0: before the run)."""
    bench, stop = SCENARIOS["bench_press"], Event()
    if call == 0:
        stop.set()

    def step(sent, number):
        if number == call:
            stop.set()
        return bench.steps[number - 1]

    return run_hooked(ScriptedModel(step), bench.tools(), bench.messages(),
                      [hook_class(stop.is_set)])


@INTERRUPT.behaviour("stops before a model call once cancelled: interrupted, nothing pending")
def _before_a_call(yours, reference):
    return compare_runs("bench_press, stop pressed before the run", _stopped_at(reference, 0),
                         attempt(_stopped_at, yours, 0),
                         ended="at before_call, a cancelled run stops with "
                               "Stop(Exit.INTERRUPTED, f\"cancelled before call {moment.turn}\")",
                         history="nothing is pending before a call: the history is the messages")


@INTERRUPT.behaviour("stops before a reply's tools run; its calls answered \"Cancelled\"")
def _before_the_tools(yours, reference):
    for call in (1, 2, 3):
        if found := compare_runs(
                f"bench_press, stop pressed during call {call}", _stopped_at(reference, call),
                attempt(_stopped_at, yours, call),
                ended="check the signal at before_tools too: the reply that was on its way is "
                      "kept, and its calls must not run",
                history="at before_tools the Stop's third field is the text each pending call "
                        "gets: harness.loop.CANCELLED"):
            return found
    return None


# ---- StopOnRepeat -----------------------------------------------------------------------------

_STUCK = ("refund_doom_loop", "order_shipment_cycle", "retry_after_timeout", "tool_errors",
          "bench_press")


@REPEAT.behaviour("stops a repeat and a cycle with no_progress, the repeated call not run")
def _stops_repeats(yours, reference):
    for name in _STUCK[:2]:
        if found := compare_runs(
                name, hooked_run_with(name, reference), attempt(hooked_run_with, name, yours),
                ended="at before_tools, show the detector every call of the reply and stop "
                      "with Stop(Exit.NO_PROGRESS, ..., loop.NOT_EXECUTED_REPEAT) when it fires",
                history="the calls of the reply that repeated are answered NOT_EXECUTED_REPEAT"):
            return found
    return None


@REPEAT.behaviour("lets a retry after an error through, and only the turn just before counts")
def _exempts_retries(yours, reference):
    for name in _STUCK[2:]:
        if found := compare_runs(
                name, hooked_run_with(name, reference), attempt(hooked_run_with, name, yours),
                ended="a call whose result in the turn just before was an error is a retry: at "
                      "after_tool keep the keys of the calls that failed, and pass "
                      "previous_was_error to the detector for them (then forget them)",
                history="a retry after an error runs like any other call"):
            return found
    return None


@REPEAT.behaviour("starts each run with a fresh detector")
def _fresh_each_run(yours, reference):
    mine, theirs = reference(), attempt(yours)
    if theirs.error:
        return same("StopOnRepeat()", "a hook", theirs, hint="the constructor raised")
    for run_number in (1, 2):
        if found := compare_runs(
                f"refund_doom_loop, run {run_number} with the same hook",
                hooked_run("refund_doom_loop", [mine]),
                attempt(hooked_run, "refund_doom_loop", [theirs.value]),
                ended="a new run starts a new count: at before_call of turn 1, make a new "
                      "detector and forget the errors",
                history="the same hook serves a second run as if it were new"):
            return found
    return None


# ---- Remind -----------------------------------------------------------------------------------

def _nudged(hook_class, runs: int = 1) -> list[RunResult]:
    """refund_doom_loop, no detector, 12 turns, `runs` times with one reminder."""
    hook = hook_class(RepeatReminder())
    return [hooked_run("refund_doom_loop", [hook], max_turns=12) for _ in range(runs)]


@REMIND.behaviour("adds the reminder's note after the turn's results, at the 3rd and 5th call")
def _notes(yours, reference):
    seen = attempt(_nudged, yours)
    return compare_runs("refund_doom_loop, 12 turns, no detector", _nudged(reference)[0],
                         seen if seen.error else Outcome(value=seen.value[0]),
                         ended="the reminder only advises: the run ends as it would without it",
                         history="at after_tool return reminder.observe(call.name, "
                                 "call.arguments): its note, or None; the loop adds the note "
                                 "as a user message after the turn's results")


@REMIND.behaviour("counts from zero again in a new run")
def _resets(yours, reference):
    seen = attempt(_nudged, yours, 2)
    return compare_runs("refund_doom_loop, the second run with the same reminder",
                         _nudged(reference, 2)[1],
                         seen if seen.error else Outcome(value=seen.value[1]),
                         ended="the reminder only advises",
                         history="a new run starts from a new user message: at before_call of "
                                 "turn 1 call reminder.reset(); without it the count goes on from "
                                 "the first run's twelve identical calls, past 3, 5 and 8, and "
                                 "the second run is never nudged")


# ---- ApprovalPause ----------------------------------------------------------------------------

def _asked(hook_class, answers: dict[str, bool], name: str = "bench_press"):
    """The scenario with an approver answering by tool name; (run, decisions, calls asked)."""
    asked: list[str] = []

    def approve(call: ToolCall) -> bool:
        asked.append(call.name)
        return answers.get(call.name, True)

    toolbox = SCENARIOS[name].tools()
    hook = hook_class(approve, toolbox.mode_of)
    scenario = SCENARIOS[name]
    result = run_hooked(scenario.model(), toolbox, scenario.messages(), [hook])
    return result, list(hook.decisions), asked


@APPROVAL.behaviour("asks only before exclusive calls, and records each decision")
def _asks_exclusive(yours, reference):
    for answers in ({}, {"save_goal": False}):
        case = "bench_press, " + ("the user refuses save_goal" if answers else "all approved")
        _, mine, asked_mine = _asked(reference, answers)
        seen = attempt(_asked, yours, answers)
        if seen.error:
            return same(case, "a finished run", seen, hint="run_hooked called your hook and it "
                        "raised")
        _, decisions, asked = seen.value
        if found := same(f"{case}, the tools approve() was asked about", asked_mine, asked,
                         hint=f"yours asked about {asked or 'nothing'}, the reference about "
                              f"{asked_mine}: ask only when mode_of(call) is not \"parallel\" "
                              "(read_history and compute_record are parallel-safe)"):
            return found
        if found := same(f"{case}, decisions", mine, decisions,
                         hint="append (call.name, \"approved\" or \"refused\") to "
                              "self.decisions each time you ask"):
            return found
    return None


@APPROVAL.behaviour("answers a refused call with a \"Not approved\" result, never runs it")
def _refuses(yours, reference):
    want, _, _ = _asked(reference, {"save_goal": False})
    seen = attempt(_asked, yours, {"save_goal": False})
    if seen.error:
        return same("bench_press, save_goal refused", "a finished run", seen,
                    hint="run_hooked called your hook and it raised")
    result = seen.value[0]
    refusal = [m.content[:13] for m in result.messages if m.role == "tool" and m.is_error]
    ran = [m.content[:40] for m in result.messages if m.role == "tool"][-1:]
    return (same("bench_press, save_goal refused, the results that are errors",
                 [m.content[:13] for m in want.messages if m.role == "tool" and m.is_error],
                 refusal, hint=f"in yours the refused save_goal ran (its result: {ran}): "
                               "return a text from before_tool for a refused call: the loop "
                               "answers the call with it (an error result) and never runs the "
                               "tool; start it with \"Not approved:\"")
            or same("bench_press, save_goal refused, the refusal names the tool", [True],
                    [("save_goal" in m.content) for m in result.messages
                     if m.role == "tool" and m.content.startswith("Not approved")],
                    hint="yours' refusal does not say which tool it refused: name it, so the "
                         "model can tell the user what did not happen"))
