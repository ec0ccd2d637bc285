"""The provider table: the facts about each API and its models, written once for the whole kit.

For each of the four wire formats: where it lives, which version it speaks, which environment
variables hold its key, which model it uses by default and which cheap one the live lesson picks.
For each provider family: the models its API serves on `AS_OF`, one a line (context window,
output limit, thinking, cache minimum, price where the kit quotes one), their snapshots and aliases,
and the models retired by then. Everything in the kit reads these and no other module states them.
Facts only: no wire format, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.cost import Price

AS_OF = "2026-12-01"
"""The day the model facts below were checked: a model retired after it is still listed here."""


@dataclass(frozen=True)
class Provider:
    """One wire format, as the kit's adapter for it and everything around it sees it."""

    name: str
    """The adapter's name: "openai_chat", "openai_responses", "anthropic" or "gemini"."""
    family: str
    """The company whose keys, models and limits it shares: "openai" for both OpenAI formats."""
    base_url: str
    api_version: str
    key_variables: tuple[str, ...]
    """The environment variables an adapter reads its key from, first set wins."""
    default_model: str
    live_model: str
    """The cheap model lesson 12 runs on unless the learner picks another."""


@dataclass(frozen=True)
class ModelFacts:
    """What the kit needs to know about one model a provider serves (None: not published)."""

    cache_minimum: int | None
    """The shortest prompt, in tokens, that the provider's prompt cache stores."""
    context_window: int | None = None
    max_output: int | None = None  # the most output tokens a request may ask for
    thinking: tuple[str, ...] = ()
    """How the API lets this model think, in the family's terms; empty: it does not. OpenAI: the
    reasoning efforts. Anthropic: "enabled" (a token budget), "adaptive". Gemini: "budget", and
    "off" when a budget of 0 turns thinking off."""
    default_effort: str | None = None  # OpenAI: the effort of a request that names none
    chat_tools_need_no_reasoning: bool = False
    """OpenAI: Chat Completions refuses function tools unless the reasoning effort is "none"."""
    apis: tuple[str, ...] = ()
    """The wire formats that serve it, when not every format of its family does."""
    versions: tuple[str, ...] = ()  # Gemini: the API versions serving it, if not v1 and v1beta
    price: Price | None = None  # the list price for standard requests


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

# Prices: dollars per million tokens for standard (not batch) requests, from each provider's
# pricing page on the date in `as_of`. Prices change: check the page before quoting a figure to
# anyone paying the bill. Lesson 06 ("What caches, where") gives the cache minimums' sources.
GPT5 = Price(1.25, 0.125, 10.00, "2025-10-01")
GPT5_MINI = Price(0.25, 0.025, 2.00, "2025-10-01")
SONNET_4_6 = Price(3.00, 0.30, 15.00, "2026-02-17", cache_write=3.75)
HAIKU_4_5 = Price(1.00, 0.10, 5.00, "2025-10-15", cache_write=1.25)
GEMINI_FLASH_2_5 = Price(0.30, 0.03, 2.50, "2025-10-01")
GEMINI_PRO_2_5 = Price(1.25, 0.125, 10.00, "2025-10-01")

# OpenAI. Names: ChatModel and ResponsesModel of the openai SDK 3.57.0 (less the shut-down ones);
# limits, efforts, the gpt-5.6 alias: the model pages at developers.openai.com (5.5 and 5.4 carry
# 1.05M) and the reasoning guide. Cache: from 1024 tokens on (OpenAI's Prompt Caching 201).
# Chat Completions refuses function tools with reasoning on GPT-5.2, 5.4 (livekit/agents#5088,
# openai/openai-openapi#541), 5.6 (danny-avila/LibreChat#14231) and 6 (onyx-dot-app/onyx#15008).
CHAT, RESPONSES = ("openai_chat",), ("openai_responses",)
LOW_HIGH = ("low", "medium", "high")
GPT5_EFFORTS, TO_XHIGH = ("minimal", *LOW_HIGH), ("none", *LOW_HIGH, "xhigh")
TO_MAX = (*TO_XHIGH, "max")


def _gpt(window: int | None, output: int | None, thinking: tuple[str, ...] = (), *,
         default: str | None = None, no_chat_tools: bool = False, apis: tuple[str, ...] = (),
         price: Price | None = None) -> ModelFacts:
    return ModelFacts(1024, window, output, thinking, default_effort=default,
                      chat_tools_need_no_reasoning=no_chat_tools, apis=apis, price=price)


OPENAI: dict[str, ModelFacts] = {
    "gpt-6.2-astra": _gpt(None, None, TO_MAX[1:], default="medium", no_chat_tools=True),
    "gpt-6-astra": _gpt(1_050_000, 128_000, TO_MAX[1:], default="medium", no_chat_tools=True),
    "gpt-6.2-sol": _gpt(None, None, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-6.1-sol": _gpt(1_050_000, 128_000, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-6-sol": _gpt(1_050_000, 128_000, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-6.1-terra": _gpt(None, None, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-6-luna": _gpt(1_050_000, 128_000, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-5.6-sol": _gpt(1_050_000, 128_000, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-5.6-terra": _gpt(1_050_000, 128_000, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-5.6-luna": _gpt(1_050_000, 128_000, TO_MAX, default="medium", no_chat_tools=True),
    "gpt-5.5": _gpt(1_050_000, 128_000, TO_XHIGH, default="none"),
    "gpt-5.5-pro": _gpt(1_050_000, 128_000, ("high",), apis=RESPONSES),
    "gpt-5.4": _gpt(1_050_000, 128_000, TO_XHIGH, default="none", no_chat_tools=True),
    "gpt-5.4-mini": _gpt(None, 128_000, TO_XHIGH, default="none", no_chat_tools=True),
    "gpt-5.4-nano": _gpt(None, 128_000, TO_XHIGH, default="none", no_chat_tools=True),
    "gpt-5.2": _gpt(400_000, 128_000, TO_XHIGH, default="none", no_chat_tools=True),
    "gpt-5.2-pro": _gpt(400_000, 128_000, ("medium", "high", "xhigh"), apis=RESPONSES),
    "gpt-5.1": _gpt(400_000, 128_000, ("none", *LOW_HIGH), default="none"),
    "gpt-5.1-codex-max": _gpt(400_000, 128_000, (*LOW_HIGH, "xhigh"), apis=RESPONSES),
    "gpt-5": _gpt(400_000, 128_000, GPT5_EFFORTS, default="medium", price=GPT5),
    "gpt-5-mini": _gpt(400_000, 128_000, GPT5_EFFORTS, default="medium", price=GPT5_MINI),
    "gpt-5-nano": _gpt(400_000, 128_000, GPT5_EFFORTS, default="medium"),
    "gpt-5-pro": _gpt(400_000, 272_000, ("high",), apis=RESPONSES),
    "gpt-5-codex": _gpt(400_000, 128_000, LOW_HIGH, apis=RESPONSES),
    "gpt-4.1": _gpt(1_047_576, 32_768),
    "gpt-4.1-mini": _gpt(1_047_576, 32_768),
    "gpt-4o": _gpt(128_000, 16_384),
    "gpt-4o-mini": _gpt(128_000, 16_384),
    "gpt-audio-mini": _gpt(None, None, apis=CHAT),
    "o3": _gpt(200_000, 100_000, LOW_HIGH, default="medium"),
    "o3-pro": _gpt(200_000, 100_000, LOW_HIGH, apis=RESPONSES),
    "o1-pro": _gpt(200_000, 100_000, LOW_HIGH, apis=RESPONSES),
    "o3-deep-research": _gpt(200_000, 100_000, LOW_HIGH, apis=RESPONSES),
    "o4-mini-deep-research": _gpt(200_000, 100_000, LOW_HIGH, apis=RESPONSES),
    "computer-use-preview": _gpt(8_192, 1_024, LOW_HIGH, apis=RESPONSES),
}

# Anthropic. Names, limits and thinking: the model pages at platform.claude.com (the Claude 5
# family and Opus 4.7 and 4.8 take adaptive thinking only: the budget form is refused, as
# memberjunction's notes on claude-sonnet-5 record; 4.6 takes both; 4.5 and Haiku 4.5 the budget
# only: askalf/dario#273). Cache minimums: the prompt-caching guide (512 for the Claude 5 family
# as relayed by news.creeta.com; users observed 2,048 for Sonnet 4.6: anthropic-sdk-python#1194).
ADAPTIVE, BOTH, BUDGET = ("adaptive",), ("enabled", "adaptive"), ("enabled",)
ANTHROPIC: dict[str, ModelFacts] = {
    "claude-fable-5-2": ModelFacts(None, 1_000_000, 128_000, ADAPTIVE),
    "claude-fable-5-1": ModelFacts(None, 1_000_000, 128_000, ADAPTIVE),
    "claude-fable-5": ModelFacts(512, 1_000_000, 128_000, ADAPTIVE),
    "claude-opus-5-5": ModelFacts(None, 1_000_000, 128_000, ADAPTIVE),
    "claude-sonnet-5-5": ModelFacts(None, 1_000_000, 128_000, ADAPTIVE),
    "claude-haiku-5-5": ModelFacts(None, 1_000_000, 128_000, ADAPTIVE),
    "claude-opus-5": ModelFacts(512, 1_000_000, 128_000, ADAPTIVE),
    "claude-sonnet-5": ModelFacts(1024, 1_000_000, 128_000, ADAPTIVE),
    "claude-opus-4-8": ModelFacts(1024, 1_000_000, 128_000, ADAPTIVE),
    "claude-opus-4-7": ModelFacts(2048, 1_000_000, 128_000, ADAPTIVE),
    "claude-opus-4-6": ModelFacts(4096, 1_000_000, 128_000, BOTH),
    "claude-sonnet-4-6": ModelFacts(1024, 1_000_000, 64_000, BOTH, price=SONNET_4_6),
    "claude-haiku-4-5": ModelFacts(4096, 200_000, 64_000, BUDGET, price=HAIKU_4_5),
    "claude-opus-4-5": ModelFacts(4096, 200_000, 64_000, BUDGET),
}

# Gemini. Names, limits, thinking: ListModels on v1beta (recorded 2026-08-04, simonw/llm-gemini),
# the model and deprecation pages at ai.google.dev (3.7 and 3.8 Flash came after the list). 2.5
# Flash and Pro were shut down on 2026-12-01 with their requests routed to newer models: they still
# answer. Previews: v1beta only (TheManuelML/obsidian-agent#6). Pro: "Budget 0 is invalid".
# Cache minimums: the implicit-caching table of ai.google.dev/gemini-api/docs/caching.
THINKS, ALWAYS, V1BETA = ("budget", "off"), ("budget",), ("v1beta",)
GEMINI: dict[str, ModelFacts] = {
    "gemini-3.8-flash": ModelFacts(None, None, None, THINKS),
    "gemini-3.7-flash": ModelFacts(None, None, None, THINKS),
    "gemini-3.6-flash": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemini-3.5-flash": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemini-3.5-flash-lite": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemini-3.1-flash-lite": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemini-3.1-flash-lite-preview": ModelFacts(None, 1_048_576, 65_536, THINKS, versions=V1BETA),
    "gemini-3.1-pro-preview": ModelFacts(4096, 1_048_576, 65_536, ALWAYS, versions=V1BETA),
    "gemini-3-flash-preview": ModelFacts(4096, 1_048_576, 65_536, THINKS, versions=V1BETA),
    "gemini-3-pro-image": ModelFacts(None, 131_072, 32_768, THINKS),
    "gemini-3.1-flash-image": ModelFacts(None, 65_536, 65_536, THINKS),
    "gemini-2.5-flash": ModelFacts(2048, 1_048_576, 65_536, THINKS, price=GEMINI_FLASH_2_5),
    "gemini-2.5-pro": ModelFacts(2048, 1_048_576, 65_536, ALWAYS, price=GEMINI_PRO_2_5),
    "gemini-2.5-flash-lite": ModelFacts(2048, 1_048_576, 65_536, THINKS),
    "gemini-2.5-flash-image": ModelFacts(None, 32_768, 32_768, ()),
    "gemini-flash-latest": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemini-flash-lite-latest": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemini-pro-latest": ModelFacts(None, 1_048_576, 65_536, THINKS),
    "gemma-4-31b-it": ModelFacts(None, 262_144, 32_768, THINKS),
    "gemma-4-26b-a4b-it": ModelFacts(None, 262_144, 32_768, THINKS),
}

MODELS: dict[str, dict[str, ModelFacts]] = {
    "openai": OPENAI, "anthropic": ANTHROPIC, "gemini": GEMINI}
"""Each family's models by the name its API gives them."""


def _dated(date: str, *models: str) -> dict[str, str]:
    return {f"{model}-{date}": model for model in models}


ALIASES: dict[str, dict[str, str]] = {
    "openai": {
        "gpt-5.6": "gpt-5.6-sol", **_dated("2026-04-23", "gpt-5.5", "gpt-5.5-pro"),
        **_dated("2026-03-17", "gpt-5.4-mini", "gpt-5.4-nano"),
        **_dated("2025-12-11", "gpt-5.2", "gpt-5.2-pro"), **_dated("2025-11-13", "gpt-5.1"),
        **_dated("2025-08-07", "gpt-5", "gpt-5-mini", "gpt-5-nano"),
        **_dated("2025-10-06", "gpt-5-pro"),
        **_dated("2025-04-14", "gpt-4.1", "gpt-4.1-mini"),
        **_dated("2024-11-20", "gpt-4o"), **_dated("2024-08-06", "gpt-4o"),
        **_dated("2024-07-18", "gpt-4o-mini"), **_dated("2025-12-15", "gpt-audio-mini"),
        **_dated("2025-04-16", "o3"), **_dated("2025-06-10", "o3-pro"),
        **_dated("2025-03-19", "o1-pro"), **_dated("2025-03-11", "computer-use-preview"),
        **_dated("2025-06-26", "o3-deep-research", "o4-mini-deep-research")},
    "anthropic": {**_dated("20251001", "claude-haiku-4-5"),
                  **_dated("20251101", "claude-opus-4-5")},
    "gemini": {"gemini-3.1-pro-preview-customtools": "gemini-3.1-pro-preview"},
}
"""Dated snapshots and aliases, each naming the model whose facts it shares."""


def _shut(date: str, *models: str) -> dict[str, str]:
    return dict.fromkeys(models, date)


# Retired by AS_OF: requests for these fail. OpenAI: the openai SDK's notes on ChatModel (and the
# deprecations page for gpt-4.5-preview). Anthropic: the model deprecations page, DEPRECATED_MODELS
# of the anthropic SDK. Gemini: the deprecations page at ai.google.dev and its release notes.
RETIRED: dict[str, dict[str, str]] = {
    "openai": {
        **_shut("2024-09-13", "gpt-3.5-turbo-16k", "gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613"),
        **_shut("2025-06-06", "gpt-4-32k", "gpt-4-32k-0314", "gpt-4-32k-0613"),
        **_shut("2025-07-14", "gpt-4.5-preview"), **_shut("2025-07-28", "o1-preview"),
        **_shut("2025-10-27", "o1-mini"), **_shut("2026-02-12", "codex-mini-latest"),
        **_shut("2026-02-17", "chatgpt-4o-latest"),
        **_shut("2026-05-07", "gpt-4o-audio-preview", "gpt-4o-mini-audio-preview"),
        **_shut("2026-07-23", "gpt-4o-search-preview", "gpt-4o-mini-search-preview",
                "gpt-5-chat-latest", "gpt-5.1-chat-latest", "gpt-5.1-codex"),
        **_shut("2026-08-10", "gpt-5.2-chat-latest", "gpt-5.3-chat-latest"),
        **_shut("2026-10-23", "o4-mini", "o4-mini-2025-04-16", "o3-mini", "o3-mini-2025-01-31",
                "o1", "o1-2024-12-17", "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14",
                "gpt-4o-2024-05-13", "gpt-4-turbo", "gpt-4", "gpt-4-0613", "gpt-3.5-turbo")},
    "anthropic": {
        **_shut("2025-10-28", "claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"),
        **_shut("2026-01-05", "claude-3-opus-20240229", "claude-3-opus-latest"),
        **_shut("2026-02-19", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022"),
        **_shut("2026-06-15", "claude-sonnet-4-0", "claude-sonnet-4-20250514",
                "claude-opus-4-0", "claude-opus-4-20250514"),
        **_shut("2026-11-30", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929")},
    "gemini": {
        **_shut("2025-09-24", "gemini-1.5-flash", "gemini-1.5-pro", "gemini-1.5-flash-8b"),
        **_shut("2025-12-02", "gemini-2.5-pro-preview-03-25", "gemini-2.5-pro-preview-05-06",
                "gemini-2.5-pro-preview-06-05"), **_shut("2026-03-09", "gemini-3-pro-preview"),
        **_shut("2026-06-01", "gemini-2.0-flash", "gemini-2.0-flash-001", "gemini-2.0-flash-exp",
                "gemini-2.0-flash-lite", "gemini-2.0-flash-lite-001"),
        **_shut("2026-06-25", "gemini-3-pro-image-preview", "gemini-3.1-flash-image-preview")},
}
"""Each family's retired model names, with the day they stopped answering."""

PRICES: dict[str, Price] = {name: facts.price for models in MODELS.values()
                            for name, facts in models.items() if facts.price is not None}
"""The price of every model the kit quotes one for, by model name."""


def provider(name: str) -> Provider:
    """The table's entry for `name`; a ValueError naming the known ones for any other.

    Example:
        >>> provider("gemini").api_version
        'v1beta'
    """
    if name not in PROVIDERS:
        raise ValueError(f"unknown provider {name!r}; choose one of: {', '.join(PROVIDERS)}")
    return PROVIDERS[name]


def canonical(family: str, model: str) -> str | None:
    """The name `model` (a listed name, snapshot or alias) is listed under; None if not served.

    Example:
        >>> canonical("openai", "gpt-5-mini-2025-08-07"), canonical("openai", "gpt-9")
        ('gpt-5-mini', None)
    """
    name = ALIASES[family].get(model, model)
    return name if name in MODELS[family] else None


def model_facts(family: str, model: str) -> ModelFacts | None:
    """The facts about `model` of `family`, a listed name, snapshot or alias; None otherwise.

    Example:
        >>> model_facts("anthropic", "claude-haiku-4-5").max_output
        64000
    """
    name = canonical(family, model)
    return None if name is None else MODELS[family][name]
