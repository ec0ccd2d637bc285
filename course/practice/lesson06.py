"""Lesson 06's pieces: read what a call cost, and choose what a thread sends.

`input_tokens` reads one call's input count from a provider's raw response, where each format
puts it (and Anthropic keeps cache reads and writes outside it). `cache_saving` prices one usage
block against the same call with nothing cached. `select_recent` is `harness.context`'s: the
latest messages of a thread, never starting between a call and its result. The run's cumulative
input, the turn a budget fires and the run's cost are exercise 4's, so they are not pieces here.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from course.compare import same, same_messages
from course.practice.engine import Piece, attempt
from harness.context import select_recent
from harness.cost import Price
from harness.loop import run
from harness.messages import Message, SystemMessage, Usage, UserMessage
from harness.providers import PROVIDERS
from harness.providers.catalog import PRICES
from offline.replay import load_interactions
from offline.scenarios import SCENARIOS, TRAVEL


def input_tokens(provider: str, response: dict) -> int:
    """Every input token of one call, cached ones included, read from the usage block of the
    provider's raw response (the JSON body). An unknown provider raises ValueError."""
    if provider == "gemini":
        return response["usageMetadata"]["promptTokenCount"]
    usage = response["usage"]
    if provider == "openai_chat":
        return usage["prompt_tokens"]
    if provider == "openai_responses":
        return usage["input_tokens"]
    if provider == "anthropic":  # cache reads and writes are counted outside input_tokens
        return (usage["input_tokens"] + (usage.get("cache_read_input_tokens") or 0)
                + (usage.get("cache_creation_input_tokens") or 0))
    raise ValueError(f"unknown provider {provider!r}")


def cache_saving(usage: Usage, price: Price) -> float:
    """Dollars the prompt cache saved on one call, against the same call with nothing cached.

    A token read from the cache costs `price.cached_input` instead of `price.input`; a token
    written to it costs `price.cache_write` instead of `price.input` (no premium when
    `cache_write` is None). Negative when the write premium costs more than the reads save.
    Prices are dollars per million tokens.
    """
    write = price.input if price.cache_write is None else price.cache_write
    saved = usage.cached_input_tokens * (price.input - price.cached_input)
    premium = usage.cache_write_tokens * (write - price.input)
    return (saved - premium) / 1_000_000


INPUT = Piece("input_tokens", lesson="06_cost", section="Usage blocks", reference=input_tokens)
SAVING = Piece("cache_saving", lesson="06_cost", section="Prompt caching", reference=cache_saving)
RECENT = Piece("select_recent", lesson="06_cost", section="Choosing what to send",
               reference=select_recent)


def _calls(scenario: str):
    for provider in PROVIDERS:
        for number, exchange in enumerate(load_interactions(provider, scenario), start=1):
            yield provider, number, exchange["response"]


def _reads(scenario: str, yours, reference, *, hint: str):
    for provider, number, response in _calls(scenario):
        if found := same(f"{provider}, {scenario}, call {number}", reference(provider, response),
                         attempt(yours, provider, response), hint=hint):
            return found
    return None


@INPUT.behaviour("reads each format's input count where it is")
def _reads_each_format(yours, reference):
    return _reads("bench_press", yours, reference, hint="each format names it differently: "
                  "print the usage block of this call and find the input count")


@INPUT.behaviour("counts cached tokens once, inside or outside the input count")
def _counts_cache_once(yours, reference):
    return _reads("big_pages", yours, reference, hint="OpenAI and Gemini count cached tokens "
                  "inside the input count; Anthropic's input_tokens leaves out cache reads and "
                  "cache writes, so add them there and nowhere else")


def _saving_on(scenario: str, providers, yours, reference, *, hint: str):
    for provider, number, response in _calls(scenario):
        if provider not in providers:
            continue
        adapter = import_module(f"harness.providers.{provider}")
        reply = adapter._from_wire(response)  # the usage the lesson reads, parsed as the kit does
        price = PRICES[reply.model]
        want, seen = reference(reply.usage, price), attempt(yours, reply.usage, price)
        if seen.error is None and isinstance(seen.value, int | float):
            seen.value = round(seen.value, 10)
        if found := same(f"{provider}, {scenario}, call {number} ({reply.model}'s prices)",
                         round(want, 10), seen, hint=hint):
            return found
    return None


@SAVING.behaviour("saves the read discount on each cached token (OpenAI, Gemini)")
def _saves_reads(yours, reference):
    return _saving_on("big_pages", ("openai_chat", "openai_responses", "gemini"), yours,
                      reference, hint="each cached token costs cached_input instead of input: "
                                      "the saving per token is the difference; prices are per "
                                      "million tokens")


@SAVING.behaviour("charges the write premium where the provider has one (Anthropic)")
def _charges_writes(yours, reference):
    return _saving_on("big_pages", ("anthropic",), yours, reference,
                      hint="a token written to the cache costs cache_write instead of input: "
                           "that difference is a cost, so the call that only writes saves less "
                           "than nothing")


@cache
def _thread() -> list[Message]:
    """Five runs on one thread: umbrella, two_cities, bench_press, umbrella, two_cities."""
    thread: list[Message] = [SystemMessage(content=TRAVEL)]
    for name in ("umbrella", "two_cities", "bench_press", "umbrella", "two_cities"):
        scenario = SCENARIOS[name]
        thread.append(UserMessage(content=scenario.user))
        thread = run(scenario.model(), scenario.tools(), thread).messages
    return thread


def _selects(yours, reference, limits, *, hint: str):
    thread = _thread()
    for limit in limits:
        want = reference(list(thread), limit)
        if found := same_messages(f"a thread of five runs ({len(thread)} messages), limit "
                                  f"{limit}", want, attempt(yours, list(thread), limit),
                                  hint=hint):
            return found
    return None


@RECENT.behaviour("keeps the system prompt and at most `limit` latest others")
def _keeps_latest(yours, reference):
    return _selects(yours, reference, (40, 20), hint="the system prompt first, then the latest "
                    "messages; start at a user message, so fewer than `limit` may be kept")


@RECENT.behaviour("never starts between a tool call and its result")
def _starts_at_a_user(yours, reference):
    return _selects(yours, reference, (12, 7, 6), hint="move the start forward to the first user "
                    "message in the window: a result without its call is refused")


@RECENT.behaviour("keeps the active turn whole when it alone is longer than `limit`")
def _keeps_active_turn(yours, reference):
    return _selects(yours, reference, (3, 1), hint="when the window holds no user message, keep "
                    "everything from the last user message on: the active turn is never cut")
