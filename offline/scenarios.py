"""The scenario library: thirteen small agent runs, each defined once and used everywhere.

A `Scenario` is a prompt, a toolbox of deterministic Python tools, a script for the ScriptedModel,
the loop settings, and the exit the reference loop is meant to reach. The emulator puts the same
script behind each provider's wire format, the cassettes record it, and lessons, exercises and
tests replay it. Nothing here knows a wire format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness.errors import ProviderError
from harness.messages import Message, StopReason, SystemMessage, ToolCall, UserMessage
from harness.tools import Tool, Toolbox
from harness.trace import Exit, RunResult
from offline.scripted import ScriptedModel, Step

TRAVEL = "You are a travel assistant. Use tools when you need facts."
COACH = "You are a strength coach inside a workout app. Use the tools to read and save data."
SUPPORT = "You are a customer-support agent. Use the tools to look things up before answering."

FORECASTS = {
    ("Lisbon", "tomorrow"): "Lisbon, tomorrow: light rain, 14 to 18 C",
    ("Porto", "tomorrow"): "Porto, tomorrow: heavy rain, 11 to 15 C",
    ("Porto", "the day after tomorrow"): "Porto, the day after tomorrow: showers, 12 to 16 C",
}
BENCH_HISTORY = [("Nov 03", 80.0), ("Nov 10", 82.5), ("Nov 17", 85.0), ("Nov 24", 87.5)]


def get_forecast(city: str, day: str) -> str:
    """Weather forecast for a city on a day ("today", "tomorrow", "the day after tomorrow")."""
    return FORECASTS.get((city, day), f"{city}, {day}: no forecast available")


def read_history(exercise: str, days: int = 30) -> str:
    """The user's logged sets for one exercise over the last `days` days."""
    sets = "; ".join(f"{date}: 5 x {kg} kg" for date, kg in BENCH_HISTORY)
    return f"{exercise}, last {days} days: {sets}"


def compute_record(exercise: str, weights_kg: list[float]) -> str:
    """The personal record and the change over the period, from a list of weights."""
    gain = weights_kg[-1] - weights_kg[0]
    return f"{exercise}: record {max(weights_kg)} kg, up {gain} kg over the period"


def save_goal(exercise: str, target_kg: float) -> str:
    """Save a target weight for an exercise (writes to the user's profile)."""
    return f"Saved goal: {exercise} {target_kg} kg"


def get_uv_index(city: str) -> str:
    """Today's UV index for a city."""
    raise ConnectionError(f"UV service unavailable for {city} (HTTP 503)")


def search_tickets(query: str) -> str:
    """Search support tickets by text."""
    return (f'3 tickets match "{query}": #4812 (open, 9 days), #4790 (open, 12 days), '
            f"#4771 (closed). None mentions a cause.")


def get_order(order_id: int) -> str:
    """Look up an order by id."""
    return f"Order {order_id}: 1 x desk lamp, paid, status: shipped"


def get_shipment(order_id: int) -> str:
    """Look up the shipment of an order."""
    return f"Shipment for order {order_id}: handed to carrier, no scan since Nov 20"


def fetch_page(url: str, page: int) -> str:
    """Fetch one page of a long document."""
    line = f"[{url} p.{page}] Refund policy, section {page}: conditions, exceptions and examples. "
    return line * 60  # about 1,500 tokens a page: large results make the token cap bite first


def _flaky_search_flights() -> Callable[..., str]:
    attempts = {"count": 0}

    def search_flights(origin: str, destination: str) -> str:
        """Search flights between two airports."""
        attempts["count"] += 1
        if attempts["count"] == 1:  # fails once, like a real upstream timeout
            raise TimeoutError("flight search timed out after 10 s; try again")
        return f"{origin} -> {destination}: TP1947 07:05, TP1951 12:40, TP1957 19:15"

    return search_flights


# What a script says to be rate limited: the emulator answers it with the provider's own 429
# (status, envelope, text and headers), so the recordings hold the real shapes.
RATE_LIMITED = ProviderError(429, "rate_limit_error", "Rate limit reached.", retry_after=20.0)


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id="", name=name, arguments=arguments)


@dataclass(frozen=True)
class Scenario:
    """One agent run, defined once. `run()` replays it through the reference loop."""

    name: str
    summary: str
    system: str
    user: str
    tools: Callable[[], Toolbox]
    """A fresh toolbox per run: some tools keep state (the flaky search)."""
    steps: tuple[Step, ...]
    expected_exit: Exit
    loop_options: dict[str, Any] = field(default_factory=dict)
    """Keyword options for `harness.loop.run` (max_turns, token_budget)."""
    max_output_tokens: int = 1024
    thinking: bool = False
    """Ask the provider for reasoning that must come back unchanged on the next call."""
    impossible_on: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Steps (by index) a provider's API can never produce; its script leaves them out."""

    def messages(self) -> list[Message]:
        system = [SystemMessage(content=self.system)] if self.system else []  # "": none at all
        return [*system, UserMessage(content=self.user)]

    def model(self, provider: str | None = None) -> ScriptedModel:
        """The scripted model; for a provider, without the steps its API cannot produce."""
        skip = self.impossible_on.get(provider or "", ())
        steps = [step for index, step in enumerate(self.steps) if index not in skip]
        return ScriptedModel(steps, name=f"scripted:{self.name}")

    def run(self, model: Any = None, **overrides: Any) -> RunResult:
        from harness.loop import run  # the loop depends on nothing here; this keeps it that way

        options = self.loop_options | overrides
        return run(model or self.model(), self.tools(), self.messages(), **options)


def _weather_tools() -> Toolbox:
    return Toolbox.of(Tool.from_function(get_forecast, mode="parallel"))


def _coach_tools() -> Toolbox:
    return Toolbox.of(Tool.from_function(read_history, mode="parallel"),
                      Tool.from_function(compute_record, mode="parallel"), save_goal)


def _support_tools() -> Toolbox:
    return Toolbox.of(Tool.from_function(search_tickets, mode="parallel"),
                      Tool.from_function(get_order, mode="parallel"),
                      Tool.from_function(get_shipment, mode="parallel"))


def _repeat(*calls: ToolCall, times: int) -> tuple[Step, ...]:
    return tuple(Step(calls=(calls[i % len(calls)],)) for i in range(times))


_WEIGHTS = [kg for _, kg in BENCH_HISTORY]
_BENCH_STEPS = (
    Step(text="Let me look up your bench press history.",
         calls=(_call("read_history", exercise="bench press", days=30),)),
    Step(calls=(_call("compute_record", exercise="bench press", weights_kg=_WEIGHTS),)),
    Step(text="You're up 7.5 kg this month; I'll set the next goal.",
         calls=(_call("save_goal", exercise="bench press", target_kg=90.0),)),
)

SCENARIOS: dict[str, Scenario] = {s.name: s for s in [
    Scenario(
        "umbrella", "one tool call, then the answer", TRAVEL,
        "Should I pack an umbrella for Lisbon tomorrow?", _weather_tools,
        (Step.call("get_forecast", city="Lisbon", day="tomorrow"),
         Step.say("Yes. Light rain is expected in Lisbon tomorrow (14 to 18 C), so pack an "
                  "umbrella.")),
        Exit.DONE),
    Scenario(
        "two_cities", "two tool calls in one reply, each answered with its own id", TRAVEL,
        "I'm in Lisbon tomorrow and Porto the day after. Where do I need an umbrella?",
        _weather_tools,
        (Step(calls=(_call("get_forecast", city="Lisbon", day="tomorrow"),
                     _call("get_forecast", city="Porto", day="the day after tomorrow"))),
         Step.say("Both: light rain in Lisbon tomorrow and showers in Porto the day after. Keep "
                  "the umbrella in your day bag for the whole trip.")),
        Exit.DONE),
    Scenario(
        "no_tool_needed", "a direct answer, no tool call", TRAVEL,
        "What is the capital of Portugal?", _weather_tools,
        (Step.say("Lisbon is the capital of Portugal."),), Exit.DONE),
    Scenario(
        "bench_press", "a chain: read history, compute a record, save a goal", COACH,
        "How much has my bench press improved this month? Set my next goal.", _coach_tools,
        (*_BENCH_STEPS,
         Step.say("Your bench press went from 80 kg to 87.5 kg this month, a 7.5 kg gain. "
                  "I saved your next goal: 90 kg.")),
        Exit.DONE),
    Scenario(
        "bench_press_capped", "the chain with a low turn cap: closing call, save not executed",
        COACH, "How much has my bench press improved this month? Set my next goal.",
        _coach_tools,
        (*_BENCH_STEPS,
         Step.say("Your bench press went from 80 kg to 87.5 kg this month. I hit the turn limit "
                  "for this answer before saving your 90 kg goal, so it is not saved yet. "
                  "Do you want me to carry on and save it?", expect_tool_choice="none")),
        Exit.TURN_CAP, loop_options={"max_turns": 3}),
    Scenario(
        "tool_errors", "unknown tool, invalid JSON arguments, a tool that raises", TRAVEL,
        "What's the weather and UV index in Lisbon tomorrow?",
        lambda: Toolbox.of(Tool.from_function(get_forecast, mode="parallel"), get_uv_index),
        (Step.call("get_weather", city="Lisbon"),
         Step(calls=(ToolCall(id="", name="get_forecast",
                              raw_arguments='{"city": "Lisbon", "day": tomorrow}'),)),
         Step(calls=(_call("get_forecast", city="Lisbon", day="tomorrow"),
                     _call("get_uv_index", city="Lisbon"))),
         Step.say("Lisbon tomorrow: light rain, 14 to 18 C. The UV service is down right now, "
                  "so I can't give you the UV index.")),
        Exit.DONE,
        # Gemini never hands out a call to an undeclared function: it ends the reply with
        # finishReason UNEXPECTED_TOOL_CALL instead, so its recording starts at the next step.
        impossible_on={"gemini": (0,)}),
    Scenario(
        "retry_after_timeout", "a call fails once and is repeated: not a lack of progress",
        TRAVEL, "Find me a flight from Lisbon to Porto.",
        lambda: Toolbox.of(_flaky_search_flights()),
        (Step.call("search_flights", origin="LIS", destination="OPO"),
         Step.call("search_flights", origin="LIS", destination="OPO"),
         Step.say("There are three flights from Lisbon to Porto: 07:05, 12:40 and 19:15.")),
        Exit.DONE),
    Scenario(
        "refund_doom_loop", "the same search again and again", SUPPORT,
        "Why is my refund delayed?", _support_tools,
        _repeat(_call("search_tickets", query="refund delay"), times=12)
        + (Step.say("I could not find the cause of the delay in our tickets. I'm escalating "
                    "your case to a person.", expect_tool_choice="none"),),
        Exit.NO_PROGRESS),
    Scenario(
        "order_shipment_cycle", "get_order and get_shipment alternating: an A-B cycle", SUPPORT,
        "Where is my order 123?", _support_tools,
        _repeat(_call("get_order", order_id=123), _call("get_shipment", order_id=123), times=12)
        + (Step.say("Order 123 was handed to the carrier and has had no scan since Nov 20. "
                    "I've asked the carrier for an update.", expect_tool_choice="none"),),
        Exit.NO_PROGRESS),
    Scenario(
        "big_pages", "large tool results: the token cap fires before the turn cap", SUPPORT,
        "Summarise our refund policy document.", lambda: Toolbox.of(fetch_page),
        tuple(Step.call("fetch_page", url="https://support.example/refunds", page=page)
              for page in range(1, 11))
        + (Step.say("Refunds are possible within 30 days, with the exceptions in sections 2 "
                    "to 9.", expect_tool_choice="none"),),
        Exit.TOKEN_CAP, loop_options={"token_budget": 20_000}),
    Scenario(
        "truncated", "the reply stops at the output-token limit", TRAVEL,
        "Plan a full week in Portugal, day by day.", _weather_tools,
        (Step(text="Day 1, Lisbon: start in Alfama, walk up to the castle, then take tram 28 "
                   "to Estrela and", stop_reason=StopReason.MAX_TOKENS),),
        Exit.TRUNCATED, max_output_tokens=32),
    Scenario(
        "reasoning_roundtrip", "reasoning that must go back unchanged between tool calls",
        TRAVEL, "Is it warmer in Lisbon or in Porto tomorrow?", _weather_tools,
        (Step(thinking="I need both forecasts. Start with Lisbon.",
              calls=(_call("get_forecast", city="Lisbon", day="tomorrow"),)),
         Step(thinking="Lisbon is 14 to 18 C. Now Porto, to compare.",
              calls=(_call("get_forecast", city="Porto", day="tomorrow"),)),
         Step(thinking="Porto is 11 to 15 C, colder than Lisbon on both ends.",
              text="Lisbon: 14 to 18 C against Porto's 11 to 15 C, so Lisbon is warmer by "
                   "about 3 degrees.")),
        Exit.DONE, thinking=True),
    Scenario(
        "rate_limited", "the provider answers 429 on the second call: the run ends with error",
        TRAVEL, "Should I pack an umbrella for Lisbon tomorrow?", _weather_tools,
        (Step.call("get_forecast", city="Lisbon", day="tomorrow"), Step(error=RATE_LIMITED)),
        Exit.ERROR),
]}


def provider_options(provider: str, scenario: Scenario) -> dict[str, Any]:
    """Adapter settings a scenario needs: its output limit, and reasoning where it asks for it.
    Example: `provider_options("gemini", SCENARIOS["truncated"])` is `{"max_output_tokens": 32}`."""
    options: dict[str, Any] = {"max_output_tokens": scenario.max_output_tokens}
    reasoning: dict[str, dict[str, Any]] = {
        "anthropic": {"thinking_budget": 1024, "max_output_tokens": 2048},
        "openai_responses": {"reasoning_effort": "low"},
        "gemini": {"thinking_budget": 512}}
    if scenario.thinking:
        options |= reasoning.get(provider, {})
    return options


def get(name: str | Scenario) -> Scenario:
    """The scenario called `name`, or a ValueError that lists the valid names. A `Scenario`
    itself comes back as it is (the capstone's per-student variants are in no table)."""
    if isinstance(name, Scenario):
        return name
    from offline.edges import EDGES  # the capstone's edge cases, recorded beside the thirteen

    try:
        return (SCENARIOS | EDGES)[name]
    except KeyError:
        raise ValueError(f"unknown scenario {name!r}; choose one of: "
                         f"{', '.join(SCENARIOS)}") from None
