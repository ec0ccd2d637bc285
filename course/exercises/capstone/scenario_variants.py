"""Per-student variants of the capstone's scenarios: other tools, values and call counts, the
same behaviours, generated from the student id and the hidden tests' seed.

`variants_of(student_id, seed)` builds eight `Scenario`s from a hash of both: a run that ends by
itself (with reasoning to send back), a reply whose calls form batches around an exclusive call,
failing tools, a cut reply, the turn cap, the token cap, a doom loop and a 429; then the
student's variants of the edge cases (`edge_variants`). The seed is in
the hidden tests, so no student can work out their variants (or the reference's runs of them)
before grading. `recorded` records one with the emulator into a folder of the student's own, so
the capstone's checks replay the student's loop on them like on the course's scenarios: a
transcript copied from a neighbour is not what this student's recording holds. Recording runs the
reference loop, which a graded kernel does not have: the class grader records every variant
ahead (`record_ahead`) and names the folder in `AHEAD`. Where the id comes from while nbgrader
autogrades is `course.exercises.identity.autograde_identity`'s business. This module builds and
records scenarios; it grades nothing.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import random
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from harness.errors import ProviderError
from harness.messages import ToolCall
from harness.tools import Tool, Toolbox
from harness.trace import Exit
from offline.cassettes import cassette_path
from offline.scenarios import Scenario
from offline.scripted import Step

ASSIGNMENT = "05_capstone"
PUBLIC = "public"
"""The id whose variants the notebook's visible checks use; the hidden ones use the student's."""
CITIES = ("Lisbon", "Porto", "Faro", "Braga", "Coimbra", "Evora", "Aveiro", "Sintra", "Tavira")
MUSEUMS = ("city museum", "tile museum", "modern art centre", "maritime museum")
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY")
RESTAURANTS = ("Casa Azul", "O Farol", "Tasca do Rio", "A Oliveira", "Mar e Serra")
SYSTEMS = ("You are a trip planner. Use tools when you need facts.",
           "You are a travel concierge. Look things up with the tools before answering.",
           "You plan city breaks in Portugal. Use the tools for facts and bookings.")


def get_train_times(origin: str, destination: str) -> str:
    """Today's train departures between two cities."""
    hour = 6 + (len(origin) * 7 + len(destination) * 3) % 10
    return f"{origin} -> {destination}: {hour:02d}:10, {hour + 2:02d}:40, {hour + 5:02d}:05"


def get_museum_hours(city: str, museum: str) -> str:
    """Opening hours of a museum in a city."""
    return f"{museum.title()}, {city}: open 10:00 to {17 + len(museum) % 3}:00, closed Mondays"


def convert_currency(amount: float, source: str, target: str) -> str:
    """Convert an amount between two currencies at today's rate."""
    rate = 1 + (sum(map(ord, source + target)) % 40) / 100
    return f"{amount} {source} = {round(amount * rate, 2)} {target}"


def get_air_quality(city: str) -> str:
    """Today's air quality index for a city."""
    return f"{city}: air quality index {20 + len(city) * 3}, good"


def read_guide(city: str, page: int) -> str:
    """One page of a long city guide."""
    line = f"[{city} guide p.{page}] Sights, food, transport and opening hours, in detail. "
    return line * 60  # about 1,500 tokens a page: the token cap bites first


def book_table(restaurant: str, people: int) -> str:
    """Book a table for tonight (writes a booking)."""
    return f"Booked: a table for {people} at {restaurant}, 20:00"


def check_ferry(route: str) -> str:
    """Today's ferry status on a route."""
    raise ConnectionError(f"ferry service unavailable for {route} (HTTP 503)")


_LOOKUPS = (get_train_times, get_museum_hours, convert_currency, get_air_quality)


@cache
def _tools() -> tuple[Tool, ...]:
    """Lookups are parallel-safe; a booking and an unknown ferry service are exclusive."""
    return (*(Tool.from_function(f, mode="parallel") for f in (*_LOOKUPS, read_guide)),
            Tool.from_function(book_table), Tool.from_function(check_ferry))


def _toolbox() -> Toolbox:
    return Toolbox.of(*_tools())  # built once: no tool here keeps state


def _lookup(rng: random.Random, seen: set[str]) -> ToolCall:
    """A lookup never asked before in this scenario (a repeat would be a doom loop)."""
    while True:
        tool = rng.choice(_LOOKUPS)
        a, b = rng.sample(CITIES, 2)
        arguments: dict[str, Any] = {
            get_train_times: {"origin": a, "destination": b},
            get_museum_hours: {"city": a, "museum": rng.choice(MUSEUMS)},
            convert_currency: {"amount": float(rng.randint(2, 90) * 5),
                               "source": "EUR", "target": rng.choice(CURRENCIES[1:])},
            get_air_quality: {"city": a}}[tool]
        key = f"{tool.__name__}{sorted(arguments.items())}"
        if key not in seen:
            seen.add(key)
            return ToolCall(id="", name=tool.__name__, arguments=arguments)


def _booking(rng: random.Random) -> ToolCall:
    return ToolCall(id="", name="book_table", arguments={
        "restaurant": rng.choice(RESTAURANTS), "people": rng.randint(2, 8)})


def _turns(rng: random.Random, seen: set[str], count: int, *, most: int = 3) -> list[Step]:
    return [Step(calls=tuple(_lookup(rng, seen) for _ in range(rng.randint(1, most))))
            for _ in range(count)]


def _scenario(rng: random.Random, name: str, summary: str, user: str, steps: list[Step],
              exit: Exit, **options: Any) -> Scenario:
    return Scenario(f"variant_{name}", summary, rng.choice(SYSTEMS), user, _toolbox,
                    tuple(steps), exit, **options)


@cache
def variants_of(student_id: str, seed: int | None = None) -> dict[str, Scenario]:
    """This student's eight scenarios, by name (the same id and seed always give the same ones).

    Example:
        >>> sorted(variants_of("ada")) == sorted(variants_of("bob"))
        True
        >>> variants_of("ada")["variant_done"] == variants_of("bob")["variant_done"]
        False
        >>> variants_of("ada", 7)["variant_done"] == variants_of("ada", 8)["variant_done"]
        False
    """
    rng = random.Random(hashlib.sha256(_key(student_id, seed).encode()).hexdigest())
    city, seen = rng.choice(CITIES), set()
    built = []
    turns = _turns(rng, seen, rng.randint(2, 3))
    thoughts = [Step(calls=step.calls, thinking=f"I still need {step.calls[0].name}.")
                for step in turns]
    built.append(_scenario(
        rng, "done", "a few rounds of lookups, then the answer", f"Plan my day in {city}.",
        [*thoughts, Step(thinking="I have what I need.", text=f"Your day in {city} is planned: "
                         f"{len(turns)} rounds of lookups, all good.")], Exit.DONE,
        thinking=True))
    batch = [_lookup(rng, seen) for _ in range(rng.randint(3, 4))]
    batch.insert(rng.randint(1, len(batch) - 1), _booking(rng))  # a barrier inside the reply
    four = tuple(_lookup(rng, seen) for _ in range(4))  # one batch of four: together is not all
    built.append(_scenario(
        rng, "batches", "lookups and a booking in one reply: batches around a barrier",
        f"Book dinner in {city} and check my trains.", [
            Step(calls=tuple(batch)), Step(calls=four), Step.say(f"Dinner is booked and your {city} plans are "
                                               f"checked.")], Exit.DONE,
        loop_options={"parallel_tools": True}))
    unknown = rng.choice(("get_weather", "find_hotel", "get_tides"))
    wrong = rng.choice(({"restaurant": rng.choice(RESTAURANTS), "people": "four"},
                        {"people": rng.randint(2, 6)}))
    built.append(_scenario(
        rng, "tool_errors", "an unknown tool, invalid arguments, a tool that raises",
        f"Can I take the ferry from {city} and book dinner?", [
            Step.call(unknown, city=city),
            Step(calls=(ToolCall(id="", name="book_table", arguments=wrong),
                        ToolCall(id="", name="check_ferry", arguments={"route": f"{city}-Ilha"}))),
            Step.say("The ferry service is down and the booking failed; try again later.")],
        Exit.DONE, impossible_on={"gemini": (0,)}))  # Gemini never calls an undeclared tool
    built.append(_scenario(
        rng, "truncated", "a cut reply after some lookups", f"Write me a week in {city}.",
        [*_turns(rng, seen, rng.randint(0, 2), most=2),
         Step(text=f"Day 1, {city}: start at the {rng.choice(MUSEUMS)}, walk down to the river, "
                   f"then take the tram to the old town and", stop_reason="max_tokens")],
        Exit.TRUNCATED, max_output_tokens=32))
    cap = rng.randint(2, 4)
    last = Step(calls=(_lookup(rng, seen), _booking(rng)))
    built.append(_scenario(
        rng, "turn_cap", "more rounds than the cap allows: the closing call",
        f"Plan and book an evening in {city}.",
        [*_turns(rng, seen, cap - 1, most=2), last,
         Step.say(f"I reached the step limit before booking your table in {city}. Shall I "
                  f"continue?", expect_tool_choice="none")],
        Exit.TURN_CAP, loop_options={"max_turns": cap}))
    built.append(_scenario(
        rng, "token_cap", "large pages: the token budget fires", f"Summarise the {city} guide.",
        [Step.call("read_guide", city=city, page=page) for page in range(1, 13)]
        + [Step.say("The guide covers sights, food and transport.", expect_tool_choice="none")],
        Exit.TOKEN_CAP, loop_options={"token_budget": rng.randint(12, 24) * 1000}))
    period = rng.choice((1, 2, 3))  # a repeat, an A-B cycle or an A-B-C cycle
    cycle = [_lookup(rng, seen) for _ in range(period)]
    built.append(_scenario(
        rng, "no_progress", f"the same {period} call(s) again and again",
        f"Keep checking things for my trip to {city}.",
        [*_turns(rng, seen, rng.randint(0, 2), most=1)]
        + [Step(calls=(cycle[i % period],)) for i in range(12)]
        + [Step.say("Nothing new turned up.", expect_tool_choice="none")], Exit.NO_PROGRESS))
    limited = ProviderError(429, "rate_limit_error", "Rate limit reached.",
                            retry_after=float(rng.choice((5, 10, 30, 60))))
    built.append(_scenario(
        rng, "rate_limited", "a 429 after some lookups: the run ends with error",
        f"What is on in {city} tonight?",
        [*_turns(rng, seen, rng.randint(1, 2), most=2), Step(error=limited)], Exit.ERROR))
    from course.exercises.capstone.edge_variants import edge_variants  # it builds on these

    built += edge_variants(rng, seen, city)
    return {scenario.name: scenario for scenario in built}


def _key(student_id: str, seed: int | None) -> str:
    """What a student's variants are made from, and the name of their recordings' folder."""
    return f"{ASSIGNMENT}/{student_id}" if seed is None else f"{ASSIGNMENT}/{student_id}/{seed}"


def cancel_point(student_id: str, seed: int | None = None) -> int:
    """After which model call the student's interrupted case sets `cancel` (on variant_done)."""
    steps = len(variants_of(student_id, seed)["variant_done"].steps) - 1
    name = f"{ASSIGNMENT}/cancel/{student_id}" if seed is None else f"{_key(student_id, seed)}/cancel"
    return random.Random(name).randint(1, steps)


AHEAD = "AGENT_LOOP_KIT_RECORDED_AHEAD"
"""An environment variable naming a folder of variants recorded ahead, by `record_ahead`."""
PROVIDERS_USED = ("openai_chat", "openai_responses", "anthropic", "gemini")
"""The wire formats the capstone's checks replay a variant on."""
_folders: dict[str, Path] = {}


def folder_name(student_id: str, seed: int | None) -> str:
    """The folder of one student's recordings (for one seed) within a folder of many."""
    return _key(student_id, seed).replace("/", "--")


def recorded(student_id: str, scenario: Scenario, provider: str, *,
             seed: int | None = None) -> Path:
    """The folder holding this student's variants, with `scenario` recorded on `provider`: the
    one recorded ahead when `AHEAD` names one that holds it, else one of this process's own
    (each recording made once, on first use; removed when the process ends)."""
    name = folder_name(student_id, seed)
    ahead = os.environ.get(AHEAD)
    if ahead and cassette_path(provider, scenario.name,
                               directory=Path(ahead) / name).exists():
        return Path(ahead) / name
    from offline.record import record  # recording needs the emulator: only load it here

    if name not in _folders:
        _folders[name] = Path(tempfile.mkdtemp(prefix="capstone-variants-"))
        atexit.register(shutil.rmtree, _folders[name], ignore_errors=True)
    folder = _folders[name]
    if not cassette_path(provider, scenario.name, directory=folder).exists():
        record(provider, scenario, directory=folder)
    return folder


def record_ahead(student_id: str, seeds: list[int | None], folder: Path) -> None:
    """Record, into `folder`, every variant a graded notebook of this student replays: for each
    seed of the hidden tests, the student's eight on every wire format, and the public batches
    variant the visible cell uses (the class grader's step before the kernel starts)."""
    from offline.record import record

    wanted = [(PUBLIC, None, variants_of(PUBLIC)["variant_batches"], "openai_chat")]
    wanted += [(student_id, seed, scenario, provider) for seed in seeds
               for scenario in variants_of(student_id, seed).values()
               for provider in PROVIDERS_USED]
    for who, seed, scenario, provider in wanted:
        where = folder / folder_name(who, seed)
        if not cassette_path(provider, scenario.name, directory=where).exists():
            record(provider, scenario, directory=where)
