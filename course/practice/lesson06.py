"""Lesson 06's pieces: read what a call cost.

`input_tokens` reads one call's input count from a provider's raw response, where each format
puts it (and Anthropic keeps cache reads and writes outside it). `cache_saving` prices one usage
block against the same call with nothing cached. The run's cumulative input, the turn a budget
fires and the run's cost are exercise 4's, so they are not pieces here.
"""

from __future__ import annotations

from importlib import import_module

from course.compare import show
from course.practice.engine import Piece, attempt
from course.practice.explain import differs
from harness.cost import Price
from harness.messages import Usage
from harness.providers import PROVIDERS
from harness.providers.catalog import PRICES
from offline.replay import load_interactions


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


def _calls(scenario: str):
    for provider in PROVIDERS:
        for number, exchange in enumerate(load_interactions(provider, scenario), start=1):
            yield provider, number, exchange["response"]


def _usage_block(provider: str, response: dict) -> dict:
    """The usage block's counts, nested ones named by their path (a.b)."""
    block = response.get("usageMetadata" if provider == "gemini" else "usage") or {}
    flat = {}
    for key, value in block.items():
        if isinstance(value, int):
            flat[key] = value
        elif isinstance(value, dict):
            flat |= {f"{key}.{inner}": n for inner, n in value.items() if isinstance(n, int)}
    return flat


def _input_hint(provider: str, response: dict, advice: str):
    def hint(want, got) -> str:
        counts = _usage_block(provider, response)
        named = [key for key, value in counts.items() if value == got]
        again = [key for key, value in counts.items() if value and got == want + value]
        read = (f" (the block's {named[0]})" if named else
                f", {want} and its {again[0]} ({counts[again[0]]}) once more" if again else "")
        return f"yours reads {got}{read} for {provider}, the reference {want}: {advice}"
    return hint


def _reads(scenario: str, yours, reference, *, advice: str):
    for provider, number, response in _calls(scenario):
        if found := differs(f"{provider}, {scenario}, call {number}",
                            reference(provider, response), attempt(yours, provider, response),
                            _input_hint(provider, response, advice),
                            advice=f"{provider}'s usage block is "
                                   f"{show(_usage_block(provider, response), width=90)}"):
            return found
    return None


@INPUT.behaviour("reads each format's input count where it is")
def _reads_each_format(yours, reference):
    return _reads("bench_press", yours, reference, advice="each format names it differently: "
                  "print this call's usage block and find the input count")


@INPUT.behaviour("counts cached tokens once, inside or outside the input count")
def _counts_cache_once(yours, reference):
    return _reads("big_pages", yours, reference, advice="OpenAI and Gemini count cached tokens "
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
        if found := differs(f"{provider}, {scenario}, call {number} ({reply.model}'s prices)",
                            round(want, 10), seen, lambda want, got: _saving_hint(want, got, hint)):
            return found
    return None


def _saving_hint(want, got, advice: str) -> str:
    said = f"yours says ${got}, the reference ${want}"
    if isinstance(got, int | float) and want and abs(got / want - 1_000_000) < 1:
        return f"{said}, a million times more: prices are per million tokens, so divide by 1e6"
    if got == 0 and want < 0:
        return (f"{said}: yours saves nothing on a call that only wrote to the cache, where the "
                f"write premium cost ${-want}; {advice}")
    return f"{said}: {advice}"


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
