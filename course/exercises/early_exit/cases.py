"""The scripted runs exercise 2's checks give `run_loop`, in the exercises' dict form.

Each `LoopScenario` is a prompt, a script of `Step`s for the `ScriptedModel`, the tools and a turn
cap. Most are the library's scenarios as they are; a grading-only case (a lower cap, a reply cut
after a tool, a closing reply cut off or still calling a tool, the `generated_loops` built from a
seed) reuses the library's steps and tools.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from course.exercises.dict_scenarios import CITIES, TOOLS, system, user
from harness.messages import StopReason
from offline.dictform import to_dicts
from offline.scenarios import SCENARIOS, TRAVEL, Scenario
from offline.scripted import Step

MAX_TURNS = 10
"""The cap of a run whose scenario sets none (the default of `harness.loop.run` too)."""


@dataclass(frozen=True)
class LoopScenario:
    """One run of a loop: the messages it starts from, what the model says, and the cap."""

    name: str
    messages: list[dict[str, Any]]
    steps: list[Step]
    max_turns: int = MAX_TURNS
    tools: dict[str, Callable[..., str]] = field(default_factory=lambda: dict(TOOLS))

    @property
    def label(self) -> str:
        return f'scenario "{self.name}" (max_turns={self.max_turns})'


def _tools(scenario: Scenario) -> dict[str, Callable[..., str]]:
    """The scenario's toolbox the way the exercises take tools: name to function."""
    return {name: tool.function for name, tool in scenario.tools().tools.items()}


def _graded(step: Step) -> Step:
    """A library step as the checks replay it: its own copy, no reasoning (the dict form has
    none), and no expected tool_choice, so a wrong tool_choice is logged and compared instead
    of stopping the run with a ScriptError."""
    return replace(copy.deepcopy(step), thinking=None, expect_tool_choice=None,
                   stop_reason=StopReason(step.stop_reason))


def _shared(source: str, name: str | None = None, *, steps: Sequence[Step] | None = None,
            max_turns: int | None = None, system: bool = True) -> LoopScenario:
    """The library's scenario `source` as a LoopScenario, or a variant of it when the steps,
    the cap or the lack of a system prompt say so."""
    scenario = SCENARIOS[source]
    messages = [m for m in to_dicts(scenario.messages()) if system or m["role"] != "system"]
    return LoopScenario(name or source, messages,
                        [_graded(step) for step in (scenario.steps if steps is None else steps)],
                        max_turns or scenario.loop_options.get("max_turns", MAX_TURNS),
                        _tools(scenario))


def loop_scenarios() -> dict[str, LoopScenario]:
    """Every scripted run the early-exit checks use, by name."""
    lisbon, answer = SCENARIOS["umbrella"].steps
    both = SCENARIOS["two_cities"].steps[0]
    refund = SCENARIOS["refund_doom_loop"].steps
    one_by_one = SCENARIOS["reasoning_roundtrip"].steps[:2]
    scenarios = [
        _shared("umbrella"), _shared("two_cities"), _shared("no_tool_needed"),
        _shared("bench_press"), _shared("bench_press_capped"),
        # A loop without a detector meets the doom loop at its cap: four searches, then closing.
        _shared("refund_doom_loop", steps=[*refund[:4], refund[-1]], max_turns=4),
        _shared("two_cities", "two_cities_capped", max_turns=1, steps=[
            both, Step.say("I reached the step limit before I could read the forecasts. Shall I "
                           "look them up?")]),
        _shared("reasoning_roundtrip", "capped_without_system", max_turns=2, system=False,
                steps=[*one_by_one, Step.say("I have the forecast for Lisbon, but I reached the "
                                             "step limit before checking Porto. Shall I go on?")]),
        # The closing reply is no answer when it is cut too, or still calls a tool (Gemini can).
        _shared("umbrella", "closing_reply_cut", max_turns=1, steps=[
            lisbon, Step.say("I found the forecast for Lisbon but", stop_reason="max_tokens")]),
        _shared("two_cities", "closing_reply_calls_a_tool", max_turns=1,
                steps=[both, replace(both, text="Let me check both cities again.")]),
        _shared("truncated"),
        _shared("umbrella", "truncated_after_a_tool", steps=[  # the answer, cut before "pack"
            lisbon, Step.say(answer.text.partition(" pack")[0],
                             stop_reason=StopReason.MAX_TOKENS)]),
    ]
    return {scenario.name: scenario for scenario in scenarios}


_DAYS = ["today", "tomorrow", "Saturday", "Sunday"]


def generated_loops(seed: int, count: int, *, capped: bool | None = None,
                    truncated: bool = False) -> list[LoopScenario]:
    """Random runs: some calls per turn, a cap that may or may not be reached.

    `capped=True` only keeps runs that reach the cap, `False` only runs that end before it;
    `truncated=True` ends every run with a reply cut at the output-token limit.
    """
    rng, scenarios = random.Random(seed), []
    while len(scenarios) < count:
        turns = rng.randint(1, 5)
        steps = [Step.call_many(*[("get_forecast", {"city": rng.choice(CITIES),
                                                    "day": rng.choice(_DAYS)})
                                  for _ in range(rng.randint(1, 3))],
                                text=rng.choice([None, "Checking."]))
                 for _ in range(turns - 1)]
        last = rng.choice(["Here is what I found.", "Pack a light jacket."])
        stop = StopReason.MAX_TOKENS if truncated else StopReason.END_TURN
        steps.append(Step.say(last, stop_reason=stop))
        max_turns = rng.randint(1, 6)
        reaches_cap = max_turns < turns
        if capped is not None and reaches_cap != capped:
            continue
        if reaches_cap:  # the closing call answers from the script too
            steps = steps[:max_turns] + [Step.say("I reached the step limit. Shall I go on?")]
        question = f"What is the weather in {rng.choice(CITIES)}?"
        messages = [system(TRAVEL), user(question)] if rng.random() < 0.7 else [user(question)]
        scenarios.append(LoopScenario(f"generated run #{len(scenarios) + 1}",
                                      messages, steps, max_turns=max_turns))
    return scenarios
