"""What the lessons' checks share: what each model call sent, and scenario runs, cheaply.

`same_calls` compares two scripted models' calls, one by one (messages, then declared tools),
then their number.

`scenario_tools(name)` builds a scenario's toolbox once (each tool is a pydantic model to build,
most of a check's time otherwise); only scenarios whose tools keep no state may share one.
`on_scenario` runs a piece the way the loop runs: the scenario's scripted model, its tools and
its opening messages. `keeps_the_messages` is the behaviour every such piece has: the caller's
list comes back as it went in. `hooked_run` runs a scenario through `harness.hooks.run_hooked`
with some hooks, and `compare_runs` says how two such runs first differ (lesson 13). `streamed` is
a scenario's first reply as one adapter streams it through the emulator. No lesson's pieces live
here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from course.compare import Divergence, Outcome, same, same_messages
from course.practice.engine import attempt
from course.practice.explain import count_hint as explain_count
from course.practice.explain import differs, message_difference
from harness.hooks import run_hooked
from harness.messages import ToolCall
from harness.stream import Delta
from harness.tools import Toolbox
from harness.trace import RunResult
from offline.emulator import emulated
from offline.scenarios import SCENARIOS, provider_options
from offline.scripted import ScriptedModel

STATELESS = ("umbrella", "two_cities", "no_tool_needed", "bench_press")
"""Scenarios whose tools return the same text for the same call, so one toolbox serves all."""


@functools.cache
def scenario_tools(name: str) -> Toolbox:
    """The scenario's toolbox, built once."""
    if name not in STATELESS:
        raise ValueError(f"scenario {name!r} has tools that keep state: build a fresh toolbox "
                         f"with SCENARIOS[{name!r}].tools() for each run")
    return SCENARIOS[name].tools()


def on_scenario(function: Callable[..., Any], name: str, **options: Any
                ) -> tuple[Outcome, ScriptedModel]:
    """`function(model, toolbox, messages, **options)` on the scenario; what it did, and the
    scripted model (whose `requests` say what each call sent)."""
    scenario = SCENARIOS[name]
    model = scenario.model()
    return attempt(function, model, scenario_tools(name), scenario.messages(), **options), model


def keeps_the_messages(yours: Callable[..., Any], *, hint: str) -> Divergence | None:
    """None when `yours(model, toolbox, messages)` leaves the caller's `messages` as they were."""
    scenario = SCENARIOS["umbrella"]
    given = scenario.messages()
    attempt(yours, scenario.model(), scenario_tools("umbrella"), given)
    before = len(scenario.messages())
    return same_messages("umbrella, the list you were given", scenario.messages(), given,
                         hint=f"the caller gave {before} messages and yours left "
                              f"{len(given)} in that list: {hint}")


def same_calls(case: str, mine: ScriptedModel, theirs: ScriptedModel, *, hint: str,
               count_hint: str) -> Divergence | None:
    """The first model call whose messages or declared tools differ ("call N, message M"),
    else a difference in the number of calls, else None. Each hint says what yours sent."""
    for number, (sent, seen) in enumerate(zip(mine.requests, theirs.requests, strict=False),
                                          start=1):
        def what(index: int, want: Any, got: Any, sent: Any = sent, seen: Any = seen,
                 number: int = number) -> str:
            sizes = (f"on call {number} yours sent {len(seen.messages)} message(s), the "
                     f"reference {len(sent.messages)}; " if len(seen.messages) !=
                     len(sent.messages) else "")
            return f"{sizes}{message_difference(want, got)}: {hint}"

        if found := (same_messages(f"{case}, call {number}", sent.messages, seen.messages,
                                   hint=what)
                     or differs(f"{case}, call {number}, tools declared",
                                [tool.name for tool in sent.tools],
                                [tool.name for tool in seen.tools],
                                lambda want, got: f"yours declared {got or 'no tools'}, the "
                                f"reference {want}: pass tools=toolbox.specs on every call, "
                                "the model sees only what each request carries")):
            return found
    return differs(f"{case}, number of model calls", len(mine.requests), len(theirs.requests),
                   lambda want, got: explain_count(want, got, count_hint))


# The hooked loop (lesson 13): a scenario with some hooks, and how two such runs differ.

def hooked_run(name: str, hooks: list[object], **options: Any) -> RunResult:
    """Scenario `name` through run_hooked with these hooks (its own loop options first)."""
    scenario = SCENARIOS[name]
    settings = {key: value for key, value in scenario.loop_options.items()
                if key in ("max_turns", "parallel_tools", "closing_call")} | options
    return run_hooked(scenario.model(), scenario.tools(), scenario.messages(), hooks, **settings)


def hooked_run_with(name: str, hook_class: Callable[[], object]) -> RunResult:
    """Scenario `name` with one new hook of this class (made here, so a blank one is caught)."""
    return hooked_run(name, [hook_class()])


def _ends(result: RunResult) -> list[object]:
    return [result.status.value, result.turns]


def compare_runs(case: str, want: RunResult, seen: Outcome, *, ended: str,
                  history: str) -> Divergence | None:
    """How the run ended first (exit, detail, number of calls), then the history."""
    if seen.error:
        return same(case, "a finished run", seen, hint="run_hooked called your hook and it raised")
    mine, yours = want, seen.value
    if _ends(mine) != _ends(yours):
        return same(f"{case}, how the run ended (exit, model calls)", _ends(mine),
                    _ends(yours), hint=f"yours ended {yours.status.value} after {yours.turns} "
                    f"model call(s), the reference {mine.status.value} after {mine.turns}: "
                    f"{ended}")
    return same_messages(f"{case}, the history", mine.messages, yours.messages,
                         hint=lambda index, want, got: f"{message_difference(want, got)}: "
                                                       f"{history}")


@functools.cache
def streamed(provider: str, scenario: str) -> tuple[list[Delta], list[ToolCall]]:
    """A scenario's first reply from one adapter, streamed through the emulator, and the calls
    `complete` returns for the same reply (from an emulator just like it)."""
    case = SCENARIOS[scenario]
    options, messages, specs = provider_options(provider, case), case.messages(), case.tools().specs
    deltas = emulated(provider, case.model(provider), **options).stream(messages, tools=specs)
    reply = emulated(provider, case.model(provider), **options).complete(messages, tools=specs)
    return list(deltas), reply.message.tool_calls
