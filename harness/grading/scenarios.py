"""The scenarios the exercise checks run, in the exercises' dict form, with their tools.

Each `LoopScenario` is a prompt, a script of `Step`s for the `ScriptedModel`, the tools and a turn
cap; each `Round` is one input of `append_round`. The facts come from the kit's story (the
Lisbon umbrella, two cities, the bench press chain, the refund doom loop). This module holds data
and small deterministic tools only; `generated_*` builds random cases from a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness.messages import StopReason
from harness.scripted import Step

TRAVEL = "You are a travel assistant. Use tools when you need facts."
COACH = "You are a strength coach. Use the tools to read and save training data."
SUPPORT = "You are a support agent. Look tickets up before you answer."

_FORECASTS = {("Lisbon", "tomorrow"): "Lisbon, tomorrow: light rain, 14 to 18 C",
              ("Porto", "tomorrow"): "Porto, tomorrow: showers, 12 to 16 C",
              ("Porto", "Saturday"): "Porto, Saturday: sunny, 15 to 22 C",
              ("Faro", "tomorrow"): "Faro, tomorrow: sunny, 17 to 24 C"}


def get_forecast(city: str, day: str) -> str:
    """The weather forecast for a city on a day."""
    return _FORECASTS.get((city, day), f"{city}, {day}: cloudy, 13 to 19 C")


def read_history(exercise: str, days: int) -> str:
    """The logged sets of an exercise over the last days."""
    return (f"{exercise}, last {days} days: 60 kg x5 (Nov 2), 62.5 kg x5 (Nov 9), "
            f"65 kg x3 (Nov 23)")


def compute_record(exercise: str) -> str:
    """The estimated one-rep max of an exercise from its history."""
    return f"{exercise}: estimated one-rep max 71.5 kg, up 4.2 kg this month"


def save_goal(exercise: str, target_kg: float) -> str:
    """Save a training goal (a write)."""
    return f"Saved goal: {exercise} {target_kg} kg"


def search_tickets(query: str) -> str:
    """Search support tickets."""
    return f"3 tickets match {query!r}: #4411, #4415, #4502 (all still open)"


TOOLS: dict[str, Callable[..., str]] = {
    "get_forecast": get_forecast, "read_history": read_history,
    "compute_record": compute_record, "save_goal": save_goal, "search_tickets": search_tickets}


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
    max_turns: int = 10
    tools: dict[str, Callable[..., str]] = field(default_factory=lambda: dict(TOOLS))

    @property
    def label(self) -> str:
        return f'scenario "{self.name}" (max_turns={self.max_turns})'


_UMBRELLA = [_system(TRAVEL), _user("Should I pack an umbrella for Lisbon tomorrow?")]
_TWO_CITIES = [_system(TRAVEL), _user("Will I need a coat in Lisbon or in Porto tomorrow?")]
_BENCH = [_system(COACH), _user("How much has my bench press improved this month? "
                                 "Then set me a goal 5 kg above my record.")]
_REFUND = [_system(SUPPORT), _user("Why is my refund late?")]

_BENCH_STEPS = [Step.call("read_history", exercise="bench press", days=30),
                Step.call("compute_record", exercise="bench press"),
                Step.call("save_goal", exercise="bench press", target_kg=76.5)]
_CLOSING_BENCH = Step.say("I read your history and your estimated record is 71.5 kg, up 4.2 kg "
                          "this month. I reached the step limit before saving the 76.5 kg goal, "
                          "so it is not saved yet. Shall I save it?")


def loop_scenarios() -> dict[str, LoopScenario]:
    """Every scripted run the early-exit checks use, by name."""
    scenarios = [
        LoopScenario("umbrella", _UMBRELLA, [
            Step.call("get_forecast", city="Lisbon", day="tomorrow"),
            Step.say("Yes. Light rain is expected in Lisbon tomorrow, so pack an umbrella.")]),
        LoopScenario("two_cities", _TWO_CITIES, [
            Step.call_many(("get_forecast", {"city": "Lisbon", "day": "tomorrow"}),
                           ("get_forecast", {"city": "Porto", "day": "tomorrow"}),
                           text="Let me check both forecasts."),
            Step.say("Porto will be cooler (12 to 16 C, showers): take the coat there.")]),
        LoopScenario("no_tool_needed", [_system(TRAVEL), _user("Is Lisbon in Portugal?")], [
            Step.say("Yes, Lisbon is the capital of Portugal.")]),
        LoopScenario("bench_press", _BENCH, [
            *_BENCH_STEPS, Step.say("Your estimated one-rep max is 71.5 kg, up 4.2 kg this "
                                    "month. I saved a goal of 76.5 kg.")]),
        LoopScenario("bench_press_capped", _BENCH, [*_BENCH_STEPS, _CLOSING_BENCH], max_turns=3),
        LoopScenario("refund_doom_loop", _REFUND, [
            *[Step.call("search_tickets", query="refund delay")] * 4,
            Step.say("I found three open tickets about refund delays but could not find yours. "
                     "I reached the step limit. Shall I keep looking?")], max_turns=4),
        LoopScenario("two_cities_capped", _TWO_CITIES, [
            Step.call_many(("get_forecast", {"city": "Lisbon", "day": "tomorrow"}),
                           ("get_forecast", {"city": "Porto", "day": "tomorrow"})),
            Step.say("I reached the step limit before I could read the forecasts. Shall I "
                     "look them up?")], max_turns=1),
        LoopScenario("capped_without_system",
                     [_user("Will it rain in Porto on Saturday?")], [
                         Step.call("get_forecast", city="Porto", day="Saturday"),
                         Step.call("get_forecast", city="Porto", day="Sunday"),
                         Step.say("Saturday in Porto looks sunny. I reached the step limit "
                                  "before checking Sunday. Shall I continue?")], max_turns=2),
        LoopScenario("truncated", _UMBRELLA, [
            Step.say("Light rain is expected tomorrow, so you may want to pa",
                     stop_reason=StopReason.MAX_TOKENS)]),
        LoopScenario("truncated_after_a_tool", _UMBRELLA, [
            Step.call("get_forecast", city="Lisbon", day="tomorrow"),
            Step.say("Yes. Light rain is expected in Lisbon tomorrow, so",
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


def _lisbon(call_id: str) -> dict[str, Any]:
    return _call(call_id, "get_forecast", city="Lisbon", day="tomorrow")


def _porto(call_id: str) -> dict[str, Any]:
    return _call(call_id, "get_forecast", city="Porto", day="tomorrow")


_LISBON = get_forecast("Lisbon", "tomorrow")
_PORTO = get_forecast("Porto", "tomorrow")
_FARO = get_forecast("Faro", "tomorrow")
_BRAGA = get_forecast("Braga", "tomorrow")
_FIRST_BENCH_ROUND = [
    _turn(_call("call_hist_01", "read_history", exercise="bench press", days=30)),
    {"role": "tool", "tool_call_id": "call_hist_01",
     "content": read_history("bench press", 30)}]


def rounds() -> dict[str, Round]:
    """The rounds the append_round checks use, by name."""
    four = _turn(_lisbon("call_4a"), _porto("call_4b"),
                 _call("call_4c", "get_forecast", city="Faro", day="tomorrow"),
                 _call("call_4d", "get_forecast", city="Braga", day="tomorrow"),
                 text="Checking all four cities.")
    items = [
        Round("umbrella", list(_UMBRELLA), _turn(_lisbon("call_Lx01")),
              [("call_Lx01", _LISBON)]),
        Round("bench_press, second round", [*_BENCH, *_FIRST_BENCH_ROUND],
              _turn(_call("call_rec_02", "compute_record", exercise="bench press"),
                    text="Now the record."),
              [("call_rec_02", compute_record("bench press"))]),
        Round("two_cities, finished in model order", list(_TWO_CITIES),
              _turn(_lisbon("call_tc_1"), _porto("call_tc_2"), text="Let me check both."),
              [("call_tc_1", _LISBON), ("call_tc_2", _PORTO)]),
        Round("two_cities, Porto finished first", list(_TWO_CITIES),
              _turn(_lisbon("call_tc_1"), _porto("call_tc_2")),
              [("call_tc_2", _PORTO), ("call_tc_1", _LISBON)]),
        Round("four cities, finished 3rd, 1st, 4th, 2nd", list(_TWO_CITIES), four,
              [("call_4c", _FARO), ("call_4a", _LISBON), ("call_4d", _BRAGA),
               ("call_4b", _PORTO)]),
        Round("four cities in model order", list(_TWO_CITIES), four,
              [("call_4a", _LISBON), ("call_4b", _PORTO), ("call_4c", _FARO),
               ("call_4d", _BRAGA)]),
        Round("two_cities, Porto's result missing", list(_TWO_CITIES),
              _turn(_lisbon("call_tc_1"), _porto("call_tc_2")), [("call_tc_1", _LISBON)]),
        Round("umbrella, a result for a call never made", list(_UMBRELLA),
              _turn(_lisbon("call_Lx01")),
              [("call_Lx01", _LISBON), ("call_ghost_9", "Madrid, tomorrow: sunny")]),
    ]
    return {item.name: item for item in items}


def generated_rounds(seed: int, count: int) -> list[Round]:
    """Random rounds of one to five calls whose results finish in a random order."""
    rng, items = random.Random(seed), []
    for index in range(count):
        size = rng.randint(1, 5)
        cities = rng.sample(_CITIES, size)
        ids = [f"call_{rng.randrange(16 ** 6):06x}{position}" for position in range(size)]
        turn = _turn(*[_call(call_id, "get_forecast", city=city, day="tomorrow")
                       for call_id, city in zip(ids, cities, strict=True)],
                     text=rng.choice([None, "Checking."]))
        finished = [(call_id, get_forecast(city, "tomorrow"))
                    for call_id, city in zip(ids, cities, strict=True)]
        rng.shuffle(finished)
        history = [_system(TRAVEL), _user("Where is it warmest tomorrow?")]
        items.append(Round(f"generated round #{index + 1}", history, turn,
                           finished))
    return items


def transcripts() -> dict[str, list[dict[str, Any]]]:
    """Whole transcripts for the to_anthropic checks, by name."""
    umbrella = [*_UMBRELLA, _turn(_lisbon("toolu_01Lx")),
                {"role": "tool", "tool_call_id": "toolu_01Lx", "content": _LISBON},
                {"role": "assistant", "content": "Yes, pack an umbrella.", "tool_calls": []}]
    two_cities = [*_TWO_CITIES, _turn(_lisbon("toolu_01Tc"), _porto("toolu_02Tc"),
                                      text="Let me check both."),
                  {"role": "tool", "tool_call_id": "toolu_01Tc", "content": _LISBON},
                  {"role": "tool", "tool_call_id": "toolu_02Tc", "content": _PORTO},
                  {"role": "assistant", "content": "Take the coat to Porto.", "tool_calls": []}]
    bench = [*_BENCH,
             _turn(_call("toolu_01Bp", "read_history", exercise="bench press", days=30)),
             {"role": "tool", "tool_call_id": "toolu_01Bp",
              "content": read_history("bench press", 30)},
             _turn(_call("toolu_02Bp", "compute_record", exercise="bench press"),
                   text="Now the record."),
             {"role": "tool", "tool_call_id": "toolu_02Bp",
              "content": compute_record("bench press")},
             {"role": "assistant", "content": "Your estimated record is 71.5 kg.",
              "tool_calls": []}]
    chat = [_user("Is Lisbon in Portugal?"),
            {"role": "assistant", "content": "Yes, it is the capital.", "tool_calls": []},
            _user("And Porto?")]
    four = [*_TWO_CITIES, _turn(_lisbon("toolu_01Fc"), _porto("toolu_02Fc"),
                                _call("toolu_03Fc", "get_forecast", city="Faro", day="tomorrow"))]
    four += [{"role": "tool", "tool_call_id": call["id"], "content": text}
             for call, text in zip(four[-1]["tool_calls"], [_LISBON, _PORTO, _FARO],
                                   strict=True)]
    return {"umbrella": umbrella, "two_cities": two_cities, "bench_press": bench,
            "no_system_prompt": chat, "three_cities, results last": four}
