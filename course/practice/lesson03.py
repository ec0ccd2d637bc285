"""Lesson 03's pieces: the loop, one turn at a time.

`take_turn` is one turn: one model call, then the tools that reply asked for, each result
appended in the order the reply listed them. `run_agent` repeats turns until a reply asks for no
tool (exit done) or `max_turns` turns have run (exit turn_cap). It is the lesson-level loop with two
exits; exercise 2 grades the full one (truncation, pending calls answered at the cap, the
closing call), which is not here.
"""

from __future__ import annotations

from course.compare import same, same_messages
from course.practice.engine import Piece, attempt
from course.practice.explain import count_hint, differs, message_difference
from course.practice.runs import keeps_the_messages, on_scenario, same_calls, scenario_tools
from harness.messages import Message, Model, Reply
from harness.tools import Toolbox, execute
from offline.scenarios import SCENARIOS


def take_turn(model: Model, toolbox: Toolbox, history: list[Message]) -> Reply:
    """One turn: one model call with the history and the toolbox's declarations, then its tools.

    Appends to `history` (the run's own list) the reply whole, then one result per tool call
    (run with `execute`) in the order the reply lists the calls. Returns the reply.
    """
    reply = model.complete(history, tools=toolbox.specs)
    history.append(reply.message)
    for call in reply.message.tool_calls:
        history.append(execute(toolbox, call))
    return reply


def run_agent(model: Model, toolbox: Toolbox, messages: list[Message], max_turns: int = 10
              ) -> tuple[str, str | None, list[Message]]:
    """Take turns until a reply asks for no tool, or `max_turns` turns have run.

    Returns (exit, answer, history): ("done", the reply's text, history) when a reply asks for
    no tool; ("turn_cap", None, history) when the turns run out. The history is the messages,
    then every reply and result in order; the list you were given is left as it was.
    """
    history = list(messages)
    for _ in range(max_turns):
        reply = take_turn(model, toolbox, history)
        if not reply.message.tool_calls:  # no request: this reply is the answer
            return "done", reply.message.content, history
    return "turn_cap", None, history  # never fall off the end without saying why


TAKE_TURN = Piece("take_turn", lesson="03_the_loop", section="One turn", reference=take_turn)
RUN_AGENT = Piece("run_agent", lesson="03_the_loop", section="Writing the loop",
                  reference=run_agent)

_RUNS = ("umbrella", "two_cities", "bench_press", "no_tool_needed")


def _turns(function, name: str, before: int):
    """Take `before` turns of scenario `name` with the reference, then one with `function`.

    Returns (outcome, history, model): the history as `function` left it."""
    scenario = SCENARIOS[name]
    model, toolbox, history = scenario.model(), scenario_tools(name), scenario.messages()
    for _ in range(before):
        take_turn(model, toolbox, history)
    return attempt(function, model, toolbox, history), history, model


_TURNS = {f"{name}, turn {before + 1}": (name, before) for name, before in
          [("umbrella", 0), ("two_cities", 0), ("bench_press", 0), ("bench_press", 1),
           ("no_tool_needed", 0)]}


@TAKE_TURN.behaviour("makes one model call with the whole history and the tools")
def _one_call(yours, reference):
    for case, (name, before) in _TURNS.items():
        (_, _, mine), (outcome, _, theirs) = (_turns(reference, name, before),
                                              _turns(yours, name, before))
        if outcome.error and len(theirs.requests) == before:
            return same(case, "a reply", outcome, hint="the function raised before its call")
        if found := same_calls(case, mine, theirs, hint="send the whole history",
                               count_hint="one turn is exactly one model call"):
            return found
    return None


@TAKE_TURN.behaviour("appends the reply whole, then one result per tool call in model order")
def _appends_in_order(yours, reference):
    for case, (name, before) in _TURNS.items():
        (_, want, _), (outcome, seen, _) = (_turns(reference, name, before),
                                            _turns(yours, name, before))
        if outcome.error:
            return same(case, "a reply", outcome, hint="the function raised")
        if found := same_messages(case, want, seen, hint=lambda index, mine, theirs: (
                f"{message_difference(mine, theirs)}: " + (
                    "append the reply itself (reply.message, whole) before its results"
                    if isinstance(mine, dict) and mine.get("role") == "assistant" else
                    "one result per tool call, each with its call's id, in the order the reply "
                    "lists the calls"))):
            return found
    return None


@TAKE_TURN.behaviour("returns the reply")
def _returns_the_reply(yours, reference):
    for case, (name, before) in _TURNS.items():
        (want, _, _), (seen, _, _) = _turns(reference, name, before), _turns(yours, name, before)
        if found := same(case, want.value, seen, hint="yours returned " + (
                seen.describe() if seen.error else type(seen.value).__name__) + ", the "
                "reference the Reply model.complete gave: return it, since the loop reads its "
                "tool calls to decide whether to go on"):
            return found
    return None


def _agree(case: str, want, seen, model) -> object:
    """The first difference between two runs' (exit, answer, history), or None."""
    if seen.error or not isinstance(seen.value, tuple) or len(seen.value) != 3:
        return same(case, want.value, seen, hint="return a tuple (exit, answer, history)"
                    + (f"; it raised after {len(model.requests)} model call(s)"
                       if seen.error else f", not {type(seen.value).__name__}"))
    return (differs(f"{case}, the exit and the answer", want.value[:2], seen.value[:2],
                    lambda want, got: (
                        f"yours ended {got[0]!r} with {got[1]!r}, the reference {want[0]!r} "
                        f"with {want[1]!r}: only a reply with no tool call ends the run, "
                        "('done', its text), whatever text a reply with calls holds; when the "
                        "turns run out, ('turn_cap', None)"))
            or same_messages(f"{case}, the history", want.value[2], seen.value[2],
                             hint=lambda index, mine, theirs: (
                                 f"{message_difference(mine, theirs)}: each reply whole, then "
                                 "its results in the order asked; a turn includes running its "
                                 "tools, the last one too")))


@RUN_AGENT.behaviour("takes turns until a reply asks for no tool: done, with its text")
def _until_done(yours, reference):
    for name in _RUNS:
        (want, _), (seen, model) = on_scenario(reference, name), on_scenario(yours, name)
        if found := _agree(name, want, seen, model):
            return found
    return None


@RUN_AGENT.behaviour("stops after max_turns turns: turn_cap, no answer")
def _turn_cap(yours, reference):
    for max_turns in (1, 2, 3, 4):  # bench_press needs 4: the last run is done
        case = f"bench_press with max_turns={max_turns}"
        (want, mine), (seen, theirs) = (on_scenario(reference, "bench_press", max_turns=max_turns),
                                        on_scenario(yours, "bench_press", max_turns=max_turns))
        if found := (differs(f"{case}, number of model calls", len(mine.requests),
                             len(theirs.requests), lambda want, got, k=max_turns: count_hint(
                                 want, got, f"one model call per turn, and with max_turns={k} "
                                 f"at most {k} turn(s)")) or _agree(case, want, seen, theirs)):
            return found
    return None


RUN_AGENT.behaviour("leaves the list it was given unchanged")(
    lambda yours, reference: keeps_the_messages(yours, hint="start from a copy "
                                                "(history = list(messages))"))
