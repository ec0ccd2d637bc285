"""The turns exercise 1's checks give `append_round`, and the transcripts they give
`to_anthropic`, in the exercises' dict form.

Each `Round` is one input of `append_round`: the history so far, an assistant turn and the results
as they finished. They are the library's scenarios (the umbrella, the bench press chain, two
cities) with the results finished in other orders, a missing result, a result for no call, and
the `generated_rounds` built from a seed.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from course.exercises.dict_scenarios import CITIES, TOOLS, prompt, system, user
from offline.scenarios import SCENARIOS, TRAVEL, get_forecast
from offline.scripted import Step


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
        Round("umbrella", prompt("umbrella"), lisbon, _finished(lisbon)),
        Round("bench_press, second round",
              [*prompt("bench_press"), *_answered(_turn_of(read, "call_hist_01"))], record,
              _finished(record)),
        Round("two_cities, finished in model order", prompt("two_cities"), both,
              _finished(both)),
        Round("two_cities, Porto finished first", prompt("two_cities"), both,
              _finished(both, [1, 0])),
        Round("four cities, finished 3rd, 1st, 4th, 2nd", prompt("two_cities"), four,
              _finished(four, [2, 0, 3, 1])),
        Round("four cities in model order", prompt("two_cities"), four, _finished(four)),
        Round("two_cities, Porto's result missing", prompt("two_cities"), both,
              _finished(both, [0])),
        Round("umbrella, a result for a call never made", prompt("umbrella"), lisbon,
              [*_finished(lisbon), ("call_ghost_9", get_forecast("Madrid", "tomorrow"))]),
    ]
    return {item.name: item for item in items}


def generated_rounds(seed: int, count: int) -> list[Round]:
    """Random turns of one to five calls whose results finish in a random order."""
    rng, items = random.Random(seed), []
    for index in range(count):
        size = rng.randint(1, 5)
        cities = rng.sample(CITIES, size)
        ids = [f"call_{rng.randrange(16 ** 6):06x}{position}" for position in range(size)]
        turn = _turn(*[_forecast(call_id, city)
                       for call_id, city in zip(ids, cities, strict=True)],
                     text=rng.choice([None, "Checking."]))
        finished = _finished(turn)
        rng.shuffle(finished)
        history = [system(TRAVEL), user("Where is it warmest tomorrow?")]
        items.append(Round(f"generated round #{index + 1}", history, turn,
                           finished))
    return items


def _transcript(name: str, *ids: str) -> list[dict[str, Any]]:
    """The library's scenario as a whole dict-form transcript: the prompt, then each step of
    the script with the results of its calls (given these ids, in order)."""
    fresh = iter(ids)
    history = prompt(name)
    for step in SCENARIOS[name].steps:
        turn = _turn_of(step, *[next(fresh) for _ in step.calls])
        history += _answered(turn)
    return history


def transcripts() -> dict[str, list[dict[str, Any]]]:
    """Whole transcripts for the to_anthropic checks, by name."""
    question = prompt("no_tool_needed")[1:]
    chat = [*question, _turn(text=SCENARIOS["no_tool_needed"].steps[0].text),
            prompt("umbrella")[-1]]
    three = _turn(*_turn_of(SCENARIOS["two_cities"].steps[0], "toolu_01Fc",
                            "toolu_02Fc")["tool_calls"], _forecast("toolu_03Fc", "Faro"))
    return {"umbrella": _transcript("umbrella", "toolu_01Lx"),
            "two_cities": _transcript("two_cities", "toolu_01Tc", "toolu_02Tc"),
            "bench_press": _transcript("bench_press", "toolu_01Bp", "toolu_02Bp", "toolu_03Bp"),
            "no_system_prompt": chat,
            "three_cities, results last": [*prompt("two_cities"), *_answered(three)],
            "two_cities, then a question": [  # the user speaks before the model answers
                *prompt("two_cities"), *_answered(_turn_of(SCENARIOS["two_cities"].steps[0],
                                                           "toolu_01Fq", "toolu_02Fq")),
                user("And should I take a coat in Porto?")]}
