"""The scenarios the exercise checks run, in the exercises' dict form, with their tools.

Each `LoopScenario` is a prompt, a script of `Step`s for the `ScriptedModel`, the tools and a turn
cap; each `Round` is one input of `append_round`. Nothing here is a fact of its own: the tools,
the prompts and the scripts come from the kit's scenario library (`offline.scenarios`), so the
exercises tell the lessons' story (the Lisbon umbrella, two cities, the bench press chain, the
refund doom loop). A grading-only case (a lower cap, a reply cut after a tool, more cities, the
`generated_*` cases built from a seed) reuses the library's steps and tools.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from harness.messages import StopReason
from offline.dictform import to_dicts
from offline.scenarios import (
    SCENARIOS,
    TRAVEL,
    Scenario,
    compute_record,
    get_forecast,
    get_order,
    get_shipment,
    read_history,
    save_goal,
    search_tickets,
)
from offline.scripted import Step

TOOLS: dict[str, Callable[..., str]] = {tool.__name__: tool for tool in (
    get_forecast, read_history, compute_record, save_goal, search_tickets, get_order,
    get_shipment)}
MAX_TURNS = 10
"""The cap of a run whose scenario sets none (the default of `harness.loop.run` too)."""


def _system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": text}


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


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


_CITIES = ["Lisbon", "Porto", "Faro", "Braga", "Coimbra", "Evora"]
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
        steps = [Step.call_many(*[("get_forecast", {"city": rng.choice(_CITIES),
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
        question = f"What is the weather in {rng.choice(_CITIES)}?"
        messages = [_system(TRAVEL), _user(question)] if rng.random() < 0.7 else [_user(question)]
        scenarios.append(LoopScenario(f"generated run #{len(scenarios) + 1}",
                                      messages, steps, max_turns=max_turns))
    return scenarios


@dataclass(frozen=True)
class Round:
    """One input of `append_round`: the history so far, the assistant turn, finished results."""

    name: str
    history: list[dict[str, Any]]
    turn: dict[str, Any]
    finished: list[tuple[str, str]]


def _call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "name": name, "arguments": arguments}


def _turn(*calls: dict[str, Any], text: str | None = None) -> dict[str, Any]:
    return {"role": "assistant", "content": text, "tool_calls": list(calls)}


def _forecast(call_id: str, city: str) -> dict[str, Any]:
    return _call(call_id, "get_forecast", city=city, day="tomorrow")


def _turn_of(step: Step, *ids: str) -> dict[str, Any]:
    """A library step as a dict-form assistant turn whose calls carry these ids."""
    calls = [_call(call_id, call.name, **copy.deepcopy(call.arguments))
             for call_id, call in zip(ids, step.calls, strict=True)]
    return _turn(*calls, text=step.text)


def _finished(turn: dict[str, Any], order: Sequence[int] | None = None) -> list[tuple[str, str]]:
    """(id, result) of each call of the turn, run on the library's tools: in the order of the
    calls, or finished in `order` (positions of the calls)."""
    done = [(call["id"], TOOLS[call["name"]](**call["arguments"])) for call in turn["tool_calls"]]
    return done if order is None else [done[position] for position in order]


def _answered(turn: dict[str, Any]) -> list[dict[str, Any]]:
    """The turn, then one tool message per call in the order of the calls."""
    return [turn, *[{"role": "tool", "tool_call_id": call_id, "content": result}
                    for call_id, result in _finished(turn)]]


def _prompt(name: str) -> list[dict[str, Any]]:
    return to_dicts(SCENARIOS[name].messages())


def rounds() -> dict[str, Round]:
    """The turns the append_round checks use, by name."""
    lisbon = _turn_of(SCENARIOS["umbrella"].steps[0], "call_Lx01")
    read, compute = SCENARIOS["bench_press"].steps[:2]
    record = _turn_of(compute, "call_rec_02")
    both = _turn_of(SCENARIOS["two_cities"].steps[0], "call_tc_1", "call_tc_2")
    four = _turn(*_turn_of(SCENARIOS["two_cities"].steps[0], "call_4a", "call_4b")["tool_calls"],
                 _forecast("call_4c", "Faro"), _forecast("call_4d", "Braga"),
                 text="Checking all four cities.")
    items = [
        Round("umbrella", _prompt("umbrella"), lisbon, _finished(lisbon)),
        Round("bench_press, second round",
              [*_prompt("bench_press"), *_answered(_turn_of(read, "call_hist_01"))], record,
              _finished(record)),
        Round("two_cities, finished in model order", _prompt("two_cities"), both,
              _finished(both)),
        Round("two_cities, Porto finished first", _prompt("two_cities"), both,
              _finished(both, [1, 0])),
        Round("four cities, finished 3rd, 1st, 4th, 2nd", _prompt("two_cities"), four,
              _finished(four, [2, 0, 3, 1])),
        Round("four cities in model order", _prompt("two_cities"), four, _finished(four)),
        Round("two_cities, Porto's result missing", _prompt("two_cities"), both,
              _finished(both, [0])),
        Round("umbrella, a result for a call never made", _prompt("umbrella"), lisbon,
              [*_finished(lisbon), ("call_ghost_9", get_forecast("Madrid", "tomorrow"))]),
    ]
    return {item.name: item for item in items}


def generated_rounds(seed: int, count: int) -> list[Round]:
    """Random turns of one to five calls whose results finish in a random order."""
    rng, items = random.Random(seed), []
    for index in range(count):
        size = rng.randint(1, 5)
        cities = rng.sample(_CITIES, size)
        ids = [f"call_{rng.randrange(16 ** 6):06x}{position}" for position in range(size)]
        turn = _turn(*[_forecast(call_id, city)
                       for call_id, city in zip(ids, cities, strict=True)],
                     text=rng.choice([None, "Checking."]))
        finished = _finished(turn)
        rng.shuffle(finished)
        history = [_system(TRAVEL), _user("Where is it warmest tomorrow?")]
        items.append(Round(f"generated round #{index + 1}", history, turn,
                           finished))
    return items


def _transcript(name: str, *ids: str) -> list[dict[str, Any]]:
    """The library's scenario as a whole dict-form transcript: the prompt, then each step of
    the script with the results of its calls (given these ids, in order)."""
    fresh = iter(ids)
    history = _prompt(name)
    for step in SCENARIOS[name].steps:
        turn = _turn_of(step, *[next(fresh) for _ in step.calls])
        history += _answered(turn)
    return history


def transcripts() -> dict[str, list[dict[str, Any]]]:
    """Whole transcripts for the to_anthropic checks, by name."""
    question = _prompt("no_tool_needed")[1:]
    chat = [*question, _turn(text=SCENARIOS["no_tool_needed"].steps[0].text),
            _prompt("umbrella")[-1]]
    three = _turn(*_turn_of(SCENARIOS["two_cities"].steps[0], "toolu_01Fc",
                            "toolu_02Fc")["tool_calls"], _forecast("toolu_03Fc", "Faro"))
    return {"umbrella": _transcript("umbrella", "toolu_01Lx"),
            "two_cities": _transcript("two_cities", "toolu_01Tc", "toolu_02Tc"),
            "bench_press": _transcript("bench_press", "toolu_01Bp", "toolu_02Bp", "toolu_03Bp"),
            "no_system_prompt": chat,
            "three_cities, results last": [*_prompt("two_cities"), *_answered(three)]}
