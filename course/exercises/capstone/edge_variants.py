"""Per-student variants of the capstone's edge cases (`offline.edges`): the same rules decide
them, on other tools, arguments, cities, counts, caps, budgets and provider errors, made from
the student's own random generator.

`edge_variants(rng, seen, city)` is called by `scenario_variants.variants_of` after its eight,
with that student's generator, so the same id and seed always give the same cases and two
students different ones: an error on the first and on the closing call, closing replies cut or
calling a tool, the turn cap with no system prompt, a cut reply that wrote a call, budgets
crossed by output and by an answer, repeats after a retry, beside an error, within a reply, at
the cap and over the budget, and arguments that do not parse. Recording and grading them is
`scenario_variants`' and the checks' business; this module only builds scenarios.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from harness.errors import ProviderError
from harness.messages import StopReason, ToolCall
from harness.tools import Tool, Toolbox
from harness.trace import Exit
from offline.edges import _flaky_get_tides, get_alerts
from offline.scenarios import Scenario
from offline.scripted import Step

BEACHES = ("Nazare", "Peniche", "Ericeira", "Comporta", "Sagres", "Carcavelos")
ERRORS = ((429, "rate_limit_error", "Rate limit reached."),
          (529, "overloaded_error", "Overloaded."),
          (500, "api_error", "Internal server error."))


def _with(function: Callable[..., str]) -> Toolbox:
    """The variants' tools and one more, parallel-safe."""
    from course.exercises.capstone.scenario_variants import _tools

    return Toolbox.of(*_tools(), Tool.from_function(function, mode="parallel"))


def _beach_toolbox() -> Toolbox:
    """With a tide service that times out once per run (a fresh one each)."""
    return _with(_flaky_get_tides())


def _alerts_toolbox() -> Toolbox:
    """With the travel alerts, which need no argument."""
    return _with(get_alerts)


def _error(rng: random.Random) -> ProviderError:
    status, kind, message = rng.choice(ERRORS)
    return ProviderError(status, kind, message, retry_after=float(rng.choice((5, 10, 30, 60))))


def _raw(name: str, text: str) -> ToolCall:
    return ToolCall(id="", name=name, raw_arguments=text)


LONG = ("Your evening starts at the old market, then a walk along the river to the cathedral "
        "square, where the cafes stay open late and the trams pass every ten minutes. ")
"""About 40 tokens of output: 16 of them (640) outweigh the spread between formats of the two
requests before it (1,050 to 1,200 tokens, measured on the emulator), so the budgets below sit
above the input alone and below input plus output on every format."""


def _budgets(rng: random.Random, seen: set[str], city: str) -> list[Scenario]:
    """Budgets that output tokens decide: crossed only once output counts (token_cap), crossed
    by the answer itself (done), and crossed by a reply that also repeats a call (token_cap)."""
    from course.exercises.capstone.scenario_variants import _lookup, _scenario

    page = rng.randint(1, 9)
    guide = ToolCall(id="", name="read_guide", arguments={"city": city, "page": page})
    return [
        _scenario(rng, "budget_by_output", "a budget crossed only once output tokens count",
                  f"Plan my evening in {city}.", [
                      Step(calls=(_lookup(rng, seen),)),
                      Step(text=LONG * rng.randint(16, 24), calls=(_lookup(rng, seen),)),
                      Step.say("Your evening is planned.", expect_tool_choice="none")],
                  Exit.TOKEN_CAP, loop_options={"token_budget": rng.randint(1350, 1600)}),
        _scenario(rng, "budget_after_answer", "the answer crosses the budget: done",
                  f"Describe an evening in {city}.", [
                      Step(calls=(_lookup(rng, seen),)), Step.say(LONG * rng.randint(16, 24))],
                  Exit.DONE, loop_options={"token_budget": rng.randint(1100, 1400)}),
        _scenario(rng, "repeat_over_budget", "a repeat in a reply over the budget: token_cap",
                  f"Read me page {page} of the {city} guide.", [
                      Step(calls=(guide,)), Step(calls=(guide,)),
                      Step.say("The guide covers the sights.", expect_tool_choice="none")],
                  Exit.TOKEN_CAP, loop_options={"token_budget": rng.randint(1200, 2000)}),
    ]


def edge_variants(rng: random.Random, seen: set[str], city: str) -> list[Scenario]:
    """This student's edge cases, each named variant_ plus the edge it stands for."""
    from course.exercises.capstone.scenario_variants import (
        CITIES,
        SYSTEMS,
        _booking,
        _lookup,
        _scenario,
        _toolbox,
        _turns,
    )

    def capped(name: str, summary: str, closing: Step, exit: Exit, *,
               system: str | None = None) -> Scenario:
        cap = rng.randint(1, 3)
        steps = (*_turns(rng, seen, cap, most=2), closing)
        return Scenario(f"variant_{name}", summary,
                        rng.choice(SYSTEMS) if system is None else system,
                        f"Plan an evening in {city} and book it.", _toolbox, steps, exit,
                        loop_options={"max_turns": cap})

    built = [
        _scenario(rng, "rate_limited_first", "a provider error on the very first call",
                  f"Is {city} busy tonight?", [Step(error=_error(rng))], Exit.ERROR),
        capped("closing_error", "the turn cap, then the closing call fails: error",
               Step(error=_error(rng), expect_tool_choice="none"), Exit.ERROR),
        capped("closing_cut", "the turn cap, then a closing reply cut off: no answer",
               Step(text=f"So far your evening in {city} has", stop_reason=StopReason.MAX_TOKENS,
                    expect_tool_choice="none"), Exit.TURN_CAP),
        capped("closing_calls_a_tool", "the turn cap, then a closing reply that calls a tool",
               Step(calls=(_booking(rng),), expect_tool_choice="none"), Exit.TURN_CAP),
        capped("capped_without_system", "the turn cap with no system prompt",
               Step.say(f"I stopped at the step limit planning {city}.",
                        expect_tool_choice="none"), Exit.TURN_CAP, system=""),
    ]
    cut = _lookup(rng, seen)
    built.append(_scenario(
        rng, "truncated_with_calls", "a reply cut off after it wrote a call",
        f"Check a few things in {city}, then plan my week.",
        [*_turns(rng, seen, rng.randint(1, 2), most=2),
         Step(text=f"Now {cut.name}:", calls=(cut,), stop_reason=StopReason.MAX_TOKENS)],
        Exit.TRUNCATED, max_output_tokens=32))
    first, second = _lookup(rng, seen), _lookup(rng, seen)
    built.append(_scenario(
        rng, "repeat_at_the_cap", "a repeat in the last reply the cap allows: no_progress",
        f"Check {city} for me.", [Step(calls=(first,)), Step(calls=(second,)),
                                  Step(calls=(second,))], Exit.NO_PROGRESS,
        loop_options={"max_turns": 3}))
    beach, other = rng.choice(BEACHES), _lookup(rng, seen)
    tides = ToolCall(id="", name="get_tides", arguments={"beach": beach})
    built += [
        Scenario("variant_repeat_after_retry", "a retry after a timeout, then a repeat",
                 rng.choice(SYSTEMS), f"When is high tide at {beach}?", _beach_toolbox,
                 (Step(calls=(tides,)), Step(calls=(tides,)), Step(calls=(tides,)),
                  Step.say(f"High tide at {beach} is at 06:40.")), Exit.NO_PROGRESS),
        Scenario("variant_repeat_beside_error", "one call fails, the other is repeated",
                 rng.choice(SYSTEMS), f"Tides at {beach}, and {other.name}?", _beach_toolbox,
                 (Step(calls=(tides, other)), Step(calls=(other,)),
                  Step.say("The tide service is down.")), Exit.NO_PROGRESS),
    ]
    again = _lookup(rng, seen)
    built.append(_scenario(
        rng, "repeat_within_reply", "one reply asks for the same call twice",
        f"Two things about {city}, please.",
        [*_turns(rng, seen, 1, most=2), Step(calls=(again, again)), Step.say("Done.")],
        Exit.NO_PROGRESS))
    built += _budgets(rng, seen, city)
    where = rng.choice([c for c in CITIES if c != city])
    # Between the two calls that do not parse, the same tool with no arguments: a detector shown
    # parsed arguments only sees that call three times, the last a repeat of a success.
    built.append(Scenario(
        "variant_unparseable_arguments", "two different calls whose arguments do not parse",
        rng.choice(SYSTEMS), f"Any travel alerts for {where} today?", _alerts_toolbox, (
            Step(calls=(_lookup(rng, seen),)),
            Step(calls=(_raw("get_alerts", f'{{"region": {where}}}'),)),
            Step(calls=(ToolCall(id="", name="get_alerts", arguments={}),)),
            Step(calls=(_raw("get_alerts", f'{{"region": "{where}"'),)),
            Step.say(f"No travel alerts today, in {where} or anywhere.")),
        Exit.DONE, impossible_on={"gemini": (1, 3), "anthropic": (1, 3)}))  # objects there
    return built


BESIDE = {
    "variant_truncated": ("variant_truncated_with_calls",),
    "variant_turn_cap": ("variant_closing_cut", "variant_closing_calls_a_tool",
                         "variant_capped_without_system"),
    "variant_token_cap": ("variant_budget_by_output", "variant_budget_after_answer",
                          "variant_repeat_over_budget"),
    "variant_no_progress": ("variant_repeat_after_retry", "variant_repeat_beside_error",
                            "variant_repeat_within_reply", "variant_repeat_at_the_cap",
                            "variant_unparseable_arguments"),
    "variant_rate_limited": ("variant_rate_limited_first", "variant_closing_error"),
}
"""The edge variants a cell replays beside the variant it already had (the truncated cell's
beside variant_truncated, ...), as the course's edges sit beside its scenarios."""


def cancels(variants: dict[str, Scenario]) -> list[tuple[str, int]]:
    """(variant, replies after which cancel is set) at the points the text names, as the
    course's `INTERRUPTIONS` but on the student's own runs: before the first call, on the cap's
    last turn, on a reply over the budget, after a cut reply and after the answer."""
    done, capped = variants["variant_done"], variants["variant_turn_cap"]
    return [("variant_done", 0), ("variant_turn_cap", capped.loop_options["max_turns"]),
            ("variant_budget_by_output", 2),
            ("variant_truncated_with_calls", len(variants["variant_truncated_with_calls"].steps)),
            ("variant_done", len(done.steps))]
