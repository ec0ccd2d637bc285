"""The provider table: the facts about each API and its models, written once for the whole kit.

For each of the four wire formats: where it lives, which version it speaks, which environment
variables hold its key, which model it uses by default and which cheap one the live lesson picks.
For each provider family (the company behind one or more formats): the models it serves, with the
shortest prompt its cache stores and, where the kit quotes one, the price. The adapters, the
cassettes, recording, the live lesson and the emulator all read these; no other module states
them. Facts only: no wire format, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.cost import Price


@dataclass(frozen=True)
class Provider:
    """One wire format, as the kit's adapter for it and everything around it sees it."""

    name: str
    """The adapter's name: "openai_chat", "openai_responses", "anthropic" or "gemini"."""
    family: str
    """The company whose keys, models and limits this format shares ("openai" for both of
    OpenAI's formats)."""
    base_url: str
    api_version: str
    key_variables: tuple[str, ...]
    """The environment variables an adapter reads its key from, first set wins."""
    default_model: str
    live_model: str
    """The cheap model lesson 12 runs on unless the learner picks another."""


@dataclass(frozen=True)
class ModelFacts:
    """What the kit needs to know about one model a provider serves."""

    cache_minimum: int
    """The shortest prompt, in tokens, that the provider's prompt cache stores."""
    price: Price | None = None
    """List price for standard requests; None where the kit quotes no price."""


PROVIDERS: dict[str, Provider] = {provider.name: provider for provider in (
    Provider(name="openai_chat", family="openai", base_url="https://api.openai.com/v1",
             api_version="v1", key_variables=("OPENAI_API_KEY",), default_model="gpt-5-mini",
             live_model="gpt-5-mini"),
    Provider(name="openai_responses", family="openai", base_url="https://api.openai.com/v1",
             api_version="v1", key_variables=("OPENAI_API_KEY",), default_model="gpt-5-mini",
             live_model="gpt-5-mini"),
    Provider(name="anthropic", family="anthropic", base_url="https://api.anthropic.com/v1",
             api_version="2023-06-01", key_variables=("ANTHROPIC_API_KEY",),
             default_model="claude-sonnet-4-6", live_model="claude-haiku-4-5"),
    Provider(name="gemini", family="gemini",
             base_url="https://generativelanguage.googleapis.com/v1beta", api_version="v1beta",
             key_variables=("GEMINI_API_KEY", "GOOGLE_API_KEY"),
             default_model="gemini-2.5-flash", live_model="gemini-2.5-flash"),
)}

KEY_VARIABLES: tuple[str, ...] = tuple(dict.fromkeys(
    variable for entry in PROVIDERS.values() for variable in entry.key_variables))
"""Every environment variable any provider reads its key from (what a key-free run unsets)."""

# Cache minimums. OpenAI: "works automatically for prompts containing 1024 tokens or more"
# (Prompt Caching 201). Anthropic: the per-model minimums of the prompt-caching guide at
# platform.claude.com (users observed 2,048 for Sonnet 4.6: anthropics/anthropic-sdk-python#1194).
# Gemini: the implicit-caching table of ai.google.dev/gemini-api/docs/caching (its figures have
# changed over 2025-2026). Lesson 06 ("What caches, where") gives the sources and dates.
# Prices: dollars per million tokens for standard (not batch) requests, from each provider's
# pricing page on the date in `as_of`. Prices change: check the page before quoting a figure to
# anyone paying the bill.
MODELS: dict[str, dict[str, ModelFacts]] = {
    "openai": {
        "gpt-5": ModelFacts(
            cache_minimum=1024, price=Price(1.25, 0.125, 10.00, "2025-10-01")),
        "gpt-5-mini": ModelFacts(
            cache_minimum=1024, price=Price(0.25, 0.025, 2.00, "2025-10-01")),
        "gpt-5-nano": ModelFacts(cache_minimum=1024),
        "gpt-4.1": ModelFacts(cache_minimum=1024),
        "gpt-4.1-mini": ModelFacts(cache_minimum=1024),
        "gpt-4o": ModelFacts(cache_minimum=1024),
        "gpt-4o-mini": ModelFacts(cache_minimum=1024),
    },
    "anthropic": {
        "claude-sonnet-4-6": ModelFacts(
            cache_minimum=1024, price=Price(3.00, 0.30, 15.00, "2026-02-17", cache_write=3.75)),
        "claude-sonnet-4-5": ModelFacts(cache_minimum=1024),
        "claude-sonnet-4": ModelFacts(cache_minimum=1024),
        "claude-opus-4-6": ModelFacts(cache_minimum=4096),
        "claude-opus-4-5": ModelFacts(cache_minimum=4096),
        "claude-haiku-4-5": ModelFacts(
            cache_minimum=4096, price=Price(1.00, 0.10, 5.00, "2025-10-15", cache_write=1.25)),
    },
    "gemini": {
        "gemini-2.5-flash": ModelFacts(
            cache_minimum=2048, price=Price(0.30, 0.03, 2.50, "2025-10-01")),
        "gemini-2.5-pro": ModelFacts(
            cache_minimum=2048, price=Price(1.25, 0.125, 10.00, "2025-10-01")),
        "gemini-2.5-flash-lite": ModelFacts(cache_minimum=2048),
        "gemini-3-flash-preview": ModelFacts(cache_minimum=4096),
        "gemini-3.1-pro-preview": ModelFacts(cache_minimum=4096),
    },
}

PRICES: dict[str, Price] = {name: facts.price for models in MODELS.values()
                            for name, facts in models.items() if facts.price is not None}
"""The price of every model the kit quotes one for, by model name."""

_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8})$")


def provider(name: str) -> Provider:
    """The table's entry for `name`; a ValueError naming the known ones for any other.

    Example:
        >>> provider("gemini").api_version
        'v1beta'
    """
    if name not in PROVIDERS:
        raise ValueError(f"unknown provider {name!r}; choose one of: {', '.join(PROVIDERS)}")
    return PROVIDERS[name]


def model_facts(family: str, model: str) -> ModelFacts | None:
    """The facts about a model of `family`, a dated snapshot of a listed model included (the
    real APIs accept `gpt-5-mini-2025-08-07` for `gpt-5-mini`); None for a model not listed.

    Example:
        >>> model_facts("openai", "gpt-5-mini-2025-08-07").cache_minimum
        1024
    """
    known = MODELS[family]
    return known.get(model) or known.get(_SNAPSHOT.sub("", model))
