"""Lesson 05's pieces: the small parts of stopping that exercise 2 does not grade.

`no_tools_choice` is the request field that says "no tool on this call", per wire format.
`goal_check` is a `before_done` hook: it reads a candidate answer and either lets the run end or
sends it on. `left_undone` reads an exit's trace: which tool calls the run answered without running.
The closing call and the loop's exits themselves are exercise 2's, so they are not pieces here.
"""

from __future__ import annotations

from functools import cache
from threading import Event

from course.compare import same
from course.practice.engine import Piece, attempt
from harness.loop import run
from harness.messages import AssistantMessage, ToolMessage
from harness.providers import PROVIDERS
from harness.trace import RunResult
from offline.replay import load_interactions
from offline.scenarios import SCENARIOS
from offline.scripted import ScriptedModel, Step


def no_tools_choice(provider: str) -> dict:
    """The request field(s) that say "no tool on this call" in `provider`'s wire format, as a
    dict to merge into the request body. An unknown provider raises ValueError naming it."""
    if provider in ("openai_chat", "openai_responses"):
        return {"tool_choice": "none"}
    if provider == "anthropic":
        return {"tool_choice": {"type": "none"}}
    if provider == "gemini":
        return {"toolConfig": {"functionCallingConfig": {"mode": "NONE"}}}
    raise ValueError(f"unknown provider {provider!r}: use one of openai_chat, "
                     "openai_responses, anthropic, gemini")


def goal_check(answer: str | None) -> str | None:
    """A `before_done` hook for the two_cities trip: the answer must name Lisbon and Porto.

    Returns None when it names both (the run may end), otherwise a note for the model that
    names each city the answer leaves out, and only those.
    """
    missing = [city for city in ("Lisbon", "Porto") if city not in (answer or "")]
    if not missing:
        return None
    return f"You were also asked about {' and '.join(missing)}. Check before you answer."


def left_undone(result: RunResult) -> list[str]:
    """The names of the tool calls the run answered without running them, in the order they
    were asked: their result is an error whose text starts "Not executed" or "Cancelled".
    A tool that ran and failed is not one of them."""
    names = {call.id: call.name for message in result.messages
             if isinstance(message, AssistantMessage) for call in message.tool_calls}
    return [names[message.tool_call_id] for message in result.messages
            if isinstance(message, ToolMessage) and message.is_error
            and message.content.startswith(("Not executed", "Cancelled"))]


NO_TOOLS = Piece("no_tools_choice", lesson="05_stopping", section="`tool_choice: none` on the wire",
                 reference=no_tools_choice)
GOAL = Piece("goal_check", lesson="05_stopping", section="Done, or not yet: the goal check",
             reference=goal_check)
UNDONE = Piece("left_undone", lesson="05_stopping", section="Reading an exit's trace",
               reference=left_undone)


@NO_TOOLS.behaviour("writes each format's field as the recorded closing call sent it")
def _as_recorded(yours, reference):
    for provider in PROVIDERS:
        want = reference(provider)
        request = load_interactions(provider, "bench_press_capped")[-1]["request"]
        assert want.items() <= request.items(), f"reference and {provider}'s cassette disagree"
        if found := same(f"{provider}, the closing call of bench_press_capped", want,
                         attempt(yours, provider),
                         hint="read the closing request of this format (print it as the lesson "
                              "does); `none` is spelled differently in each, and nested in two"):
            return found
    return None


@NO_TOOLS.behaviour("refuses a provider it does not know, with a ValueError")
def _refuses_unknown(yours, reference):
    outcome = attempt(yours, "mistral")
    seen = type(outcome.error).__name__ if outcome.error else f"returned {outcome.describe()}"
    return same("an unknown provider, 'mistral'", "ValueError", seen,
                hint="an unknown format must fail loudly: a guessed field would be sent as is "
                     "and let the model call tools on the closing call")


_ANSWERS = {
    "both cities": "Lisbon: light rain; Porto: showers. Take the umbrella.",
    "Lisbon only": "Lisbon: light rain, take an umbrella.",
    "Porto only": "Porto the day after: showers.",
    "no text at all": None,
}


def _named(note) -> object:
    """What a note does, in a form to compare: None, or the cities it names."""
    if not isinstance(note, str):
        return note
    return {"names": [city for city in ("Lisbon", "Porto") if city in note]}


def _on_answers(yours, reference, view, *, hint: str):
    """Run both on each candidate answer and compare `view` of what they return."""
    for case, answer in _ANSWERS.items():
        outcome = attempt(yours, answer)
        if found := same(f"the answer {answer!r} ({case})", view(reference(answer)),
                         outcome if outcome.error else view(outcome.value), hint=hint):
            return found
    return None


@GOAL.behaviour("lets an answer end the run only when it names both cities")
def _ends_when_both(yours, reference):
    return _on_answers(yours, reference, lambda note: {"ends the run": note is None},
                       hint="return None only when both names are in the answer; an answer "
                            "that is None has no names in it")


@GOAL.behaviour("sends back a note naming each missing city, and only those")
def _names_the_missing(yours, reference):
    return _on_answers(yours, reference, _named,
                       hint="name the cities the answer leaves out, so the model knows what to "
                            "check; a city already answered is not the model's to redo")


def _trip(before_done) -> RunResult:
    script = [Step.say("Lisbon: light rain tomorrow, take an umbrella."),
              Step.call("get_forecast", city="Porto", day="the day after tomorrow"),
              Step.say("Lisbon: light rain tomorrow; Porto: showers the day after.")]
    cities = SCENARIOS["two_cities"]
    return run(ScriptedModel(script), cities.tools(), cities.messages(), before_done=before_done)


@GOAL.behaviour("as `before_done`, sends the run on once, and it ends done")
def _in_the_loop(yours, reference):
    want = _trip(reference)
    seen = attempt(_trip, yours)
    if seen.error:
        return same("two_cities with the goal check", "a finished run", seen,
                    hint="the loop called your check and it raised")
    return same("two_cities with the goal check, the exit and the roles of the messages",
                [want.status.value, [m.role for m in want.messages]],
                [seen.value.status.value, [m.role for m in seen.value.messages]],
                hint="the first answer leaves Porto out: the note goes back as a user message, "
                     "and the second answer names both")


@cache
def _exits() -> dict[str, RunResult]:
    """One run per way of leaving work undone (scripted, offline)."""
    bench, uv = SCENARIOS["bench_press_capped"], SCENARIOS["tool_errors"]
    stop = Event()

    def presses_stop(sent, number):  # the user presses stop while call 2 is on its way
        if number == 2:
            stop.set()
        return bench.steps[number - 1]

    cities = SCENARIOS["two_cities"]
    return {
        "bench_press_capped, closing call": bench.run(),
        "bench_press_capped, no closing call": bench.run(closing_call=False),
        "bench_press, interrupted during call 2": run(ScriptedModel(presses_stop), bench.tools(),
                                                      bench.messages(), cancel=stop),
        "two_cities, turn cap 1, no closing call": cities.run(max_turns=1, closing_call=False),
        "umbrella, done": SCENARIOS["umbrella"].run(),
        "tool_errors, tools that failed": uv.run(),
    }


@UNDONE.behaviour("names the calls each exit left undone, in the order they were asked")
def _names_undone(yours, reference):
    return _left_on(yours, reference, [n for n in _exits() if not n.startswith("tool_errors")])


@UNDONE.behaviour("does not count a tool that ran and failed")
def _not_failures(yours, reference):
    return _left_on(yours, reference, ["tool_errors, tools that failed"])


def _left_on(yours, reference, names):
    for name in names:
        result = _exits()[name]
        if found := same(f"{name} (exit {result.status.value})", reference(result),
                         attempt(yours, result),
                         hint="find each result that says it did not run, then the call with "
                              "its id in an assistant message: that call's name"):
            return found
    return None
