"""Lesson 05's pieces: the small parts of stopping that exercise 2 does not grade.

`no_tools_choice` is the request field that says "no tool on this call", per wire format.
`left_undone` reads an exit's trace: which tool calls the run answered without running them.
(The goal check, an option of the loop, is lesson 13's, where options become hooks.)
The closing call and the loop's exits themselves are exercise 2's, so they are not pieces here.
"""

from __future__ import annotations

from functools import cache
from threading import Event

from course.compare import same, show
from course.practice.engine import Piece, attempt
from course.practice.explain import differs, extra_and_missing
from harness.loop import run
from harness.messages import AssistantMessage, ToolMessage
from harness.providers import PROVIDERS
from harness.trace import RunResult
from offline.replay import load_interactions
from offline.scenarios import SCENARIOS
from offline.scripted import ScriptedModel


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
UNDONE = Piece("left_undone", lesson="05_stopping", section="Reading an exit's trace",
               reference=left_undone)


@NO_TOOLS.behaviour("writes each format's field as the recorded closing call sent it")
def _as_recorded(yours, reference):
    for provider in PROVIDERS:
        want = reference(provider)
        request = load_interactions(provider, "bench_press_capped")[-1]["request"]
        assert want.items() <= request.items(), f"reference and {provider}'s cassette disagree"
        if found := differs(f"{provider}, the closing call of bench_press_capped", want,
                            attempt(yours, provider),
                            lambda want, got, provider=provider: (
                                f"for {provider} yours writes {show(got, width=60)}, the "
                                f"recorded closing call sent {show(want, width=60)}: read "
                                "this format's closing request (print it as the lesson does); "
                                "`none` is spelled differently in each, and nested in two")):
            return found
    return None


@NO_TOOLS.behaviour("refuses a provider it does not know, with a ValueError")
def _refuses_unknown(yours, reference):
    outcome = attempt(yours, "mistral")
    seen = type(outcome.error).__name__ if outcome.error else f"returned {outcome.describe()}"
    return same("an unknown provider, 'mistral'", "ValueError", seen,
                hint=f"for 'mistral' yours {seen}, the reference raised ValueError: an unknown "
                     "format must fail loudly, since a guessed field would be sent as it is "
                     "and let the model call tools on the closing call")


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
        if found := differs(f"{name} (exit {result.status.value})", reference(result),
                            attempt(yours, result), lambda want, got: extra_and_missing(
                                want, got, extra="which ran and failed: its result is an error, "
                                "but does not start \"Not executed\" or \"Cancelled\"",
                                missing="answered without running (its result starts \"Not "
                                "executed\" or \"Cancelled\"): find each such result, then "
                                "the call with its id in an assistant message")):
            return found
    return None
