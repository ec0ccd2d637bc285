"""The capstone's edge cases: runs no lesson needs, each one making one sentence of the capstone's
contract decide a case (a 429 on the closing call, a cut reply that wrote a call, a budget crossed
by output tokens, a repeat after a retry, ...).

They are `Scenario`s like the thirteen of `offline.scenarios`, recorded into the same cassettes
folder on every wire format (`python -m course record --all` records them too), but kept apart:
lessons, traces and the course's own listings show the thirteen only. Which graded cell replays
which edge, and the sentence it stands for, is `course.exercises.capstone.checks`' business and
tests/grading/test_corpus.py's; this module only defines the runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.errors import ProviderError
from harness.messages import StopReason, ToolCall
from harness.tools import Tool, Toolbox
from harness.trace import Exit
from offline.scenarios import (
    _BENCH_STEPS,
    COACH,
    RATE_LIMITED,
    SUPPORT,
    TRAVEL,
    Scenario,
    _coach_tools,
    _support_tools,
    _weather_tools,
    fetch_page,
    get_forecast,
)
from offline.scripted import Step

OVERLOADED = ProviderError(529, "overloaded_error", "Overloaded.", retry_after=30.0)
"""A provider error on the closing call: the run still ends with error (no retry there either)."""
BENCH = "How much has my bench press improved this month? Set my next goal."


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id="", name=name, arguments=arguments)


POLICY = "https://support.example/refunds"
_LONG = ("Ticket 4812 names order 123, paid on Nov 12 and marked shipped, so the refund should "
         "follow once the carrier confirms the return. Before I say more I will read the order "
         "itself: its status, what it held, and whether the carrier scanned it since. ") * 4
BY_OUTPUT = 700
"""Over the tokens of both replies with their output, under their input alone, on every format."""


def get_alerts(region: str = "all") -> str:
    """Today's travel alerts for a region of Portugal (all of them by default)."""
    return f"Travel alerts ({region}): none today"


def _flaky_get_tides() -> Callable[..., str]:
    attempts = {"count": 0}

    def get_tides(beach: str) -> str:
        """Today's tide times at a beach."""
        attempts["count"] += 1
        if attempts["count"] == 1:  # a timeout once: the retry is fine, the repeat after is not
            raise TimeoutError("tide service timed out after 10 s; try again")
        return f"{beach}: high tide 06:40 and 19:05, low tide 12:55"

    return get_tides


def _beach_tools() -> Toolbox:
    return Toolbox.of(Tool.from_function(get_forecast, mode="parallel"),
                      Tool.from_function(_flaky_get_tides(), mode="parallel"),
                      Tool.from_function(get_alerts, mode="parallel"))


_CLOSING = "I reached the turn limit before saving your goal; say if I should carry on."
_CAPPED = (_BENCH_STEPS[0], _BENCH_STEPS[1])  # two rounds, then the cap at max_turns=2

EDGES: dict[str, Scenario] = {s.name: s for s in [
    Scenario(
        "rate_limited_first", "the provider answers 429 on the very first call", TRAVEL,
        "Should I pack an umbrella for Porto tomorrow?", _weather_tools,
        (Step(error=RATE_LIMITED),), Exit.ERROR),
    Scenario(
        "closing_overloaded", "the turn cap, then the closing call is refused: error", COACH,
        BENCH, _coach_tools, (*_CAPPED, Step(error=OVERLOADED, expect_tool_choice="none")),
        Exit.ERROR, loop_options={"max_turns": 2}),
    Scenario(
        "closing_cut", "the turn cap, then a closing reply cut off: no answer", COACH, BENCH,
        _coach_tools,
        (*_CAPPED, Step(text="Your bench press went from 80 kg to 87.5 kg, and",
                        stop_reason=StopReason.MAX_TOKENS, expect_tool_choice="none")),
        Exit.TURN_CAP, loop_options={"max_turns": 2}),
    Scenario(
        "closing_calls_a_tool", "the turn cap, then a closing reply that still calls a tool",
        COACH, BENCH, _coach_tools,
        (*_CAPPED, Step(calls=(_call("save_goal", exercise="bench press", target_kg=90.0),),
                        expect_tool_choice="none")),
        Exit.TURN_CAP, loop_options={"max_turns": 2}),
    Scenario(
        "capped_without_system", "the turn cap on a history with no system prompt", "", BENCH,
        _coach_tools, (*_CAPPED, Step.say(_CLOSING, expect_tool_choice="none")),
        Exit.TURN_CAP, loop_options={"max_turns": 2}),
    Scenario(
        "truncated_with_calls", "a reply cut off after it wrote a call", TRAVEL,
        "Check tomorrow's weather in Lisbon and Porto, then plan my week.", _weather_tools,
        (Step.call("get_forecast", city="Lisbon", day="tomorrow"),
         Step(text="Lisbon looks wet. Now Porto:",
              calls=(_call("get_forecast", city="Porto", day="tomorrow"),),
              stop_reason=StopReason.MAX_TOKENS)),
        Exit.TRUNCATED, max_output_tokens=32),
    Scenario(
        "budget_by_output", "a budget crossed only once output tokens count too", SUPPORT,
        "Why is my refund delayed? Look at the ticket and the order.", _support_tools,
        (Step.call("search_tickets", query="refund 4812"),
         Step(text=_LONG, calls=(_call("get_order", order_id=123),)),
         Step.say("Order 123 shipped; the refund waits for the carrier.")),
        Exit.TOKEN_CAP, loop_options={"token_budget": BY_OUTPUT}),
    Scenario(
        "budget_after_answer", "the budget is crossed by the reply that answers: done", SUPPORT,
        "Summarise the first page of our refund policy.", lambda: Toolbox.of(fetch_page),
        (Step.call("fetch_page", url=POLICY, page=1),
         Step.say("Page 1 sets the conditions: refunds within 30 days, receipt needed.")),
        Exit.DONE, loop_options={"token_budget": 1500}),
    Scenario(
        "repeat_over_budget", "a repeat in a reply that also crosses the budget: token_cap",
        SUPPORT, "Summarise the first page of our refund policy.", lambda: Toolbox.of(fetch_page),
        (Step.call("fetch_page", url=POLICY, page=1), Step.call("fetch_page", url=POLICY, page=1),
         Step.say("Page 1 sets the conditions.", expect_tool_choice="none")),
        Exit.TOKEN_CAP, loop_options={"token_budget": 1500}),
    Scenario(
        "repeat_at_the_cap", "a repeat in the last reply the cap allows: no_progress", SUPPORT,
        "Why is my refund delayed?", _support_tools,
        (Step.call("search_tickets", query="refund delay"),
         Step.call("search_tickets", query="refund delay")),
        Exit.NO_PROGRESS, loop_options={"max_turns": 2}),
    Scenario(
        "repeat_after_retry", "a retry after a timeout, then the same call again: no_progress",
        TRAVEL, "When is high tide at Nazare today?", _beach_tools,
        (Step.call("get_tides", beach="Nazare"), Step.call("get_tides", beach="Nazare"),
         Step.call("get_tides", beach="Nazare"), Step.say("High tide at Nazare is at 06:40.")),
        Exit.NO_PROGRESS),
    Scenario(
        "repeat_beside_error", "one call fails, the other is repeated: no_progress", TRAVEL,
        "Tides at Nazare and the weather in Lisbon tomorrow?", _beach_tools,
        (Step(calls=(_call("get_tides", beach="Nazare"),
                     _call("get_forecast", city="Lisbon", day="tomorrow"))),
         Step(calls=(_call("get_forecast", city="Lisbon", day="tomorrow"),)),
         Step.say("Light rain in Lisbon tomorrow; the tide service is down.")),
        Exit.NO_PROGRESS),
    Scenario(
        "repeat_within_reply", "one reply asks for the same call twice: nothing of it runs",
        TRAVEL, "Weather in Lisbon and Porto tomorrow?", _weather_tools,
        (Step.call("get_forecast", city="Porto", day="tomorrow"),
         Step(calls=(_call("get_forecast", city="Lisbon", day="tomorrow"),
                     _call("get_forecast", city="Lisbon", day="tomorrow"))),
         Step.say("Rain in both cities tomorrow.")),
        Exit.NO_PROGRESS),
    Scenario(
        "unparseable_arguments", "two different calls whose arguments do not parse: no repeat",
        TRAVEL, "Any travel alerts in the north today?", _beach_tools,
        (Step(calls=(ToolCall(id="", name="get_alerts", raw_arguments='{"region": north}'),)),
         Step(calls=(_call("get_alerts"),)),
         Step(calls=(ToolCall(id="", name="get_alerts", raw_arguments='{"region": "north"'),)),
         Step.say("No travel alerts today, in the north or anywhere.")),
        Exit.DONE,
        impossible_on={"gemini": (0, 2), "anthropic": (0, 2)}),  # their arguments: an object
]}
