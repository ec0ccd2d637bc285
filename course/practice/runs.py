"""What the lessons' checks share: what each model call sent, and scenario runs, cheaply.

`same_calls` compares two scripted models' calls, one by one (messages, then declared tools),
then their number.

`scenario_tools(name)` builds a scenario's toolbox once (each tool is a pydantic model to build,
most of a check's time otherwise); only scenarios whose tools keep no state may share one.
`on_scenario` runs a piece the way the loop runs: the scenario's scripted model, its tools and
its opening messages. `keeps_the_messages` is the behaviour every such piece has: the caller's
list comes back as it went in. No lesson's pieces live here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from course.compare import Divergence, Outcome, same_messages
from course.practice.engine import attempt
from course.practice.explain import count_hint as explain_count
from course.practice.explain import differs, message_difference
from harness.tools import Toolbox
from offline.scenarios import SCENARIOS
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
