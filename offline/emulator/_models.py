"""The models the emulator serves, per provider, with each one's minimum cacheable prompt.

One list in one place: a request for any other model gets the provider's real "model not found"
answer (404). Dated snapshots of a listed model (`gpt-5-mini-2025-08-07`,
`claude-sonnet-4-5-20250929`) are accepted too, as the real APIs accept them. The minimum is the
prompt length, in tokens, below which the provider caches nothing; sources and dates are in
lessons/06_cost.ipynb ("What caches, where").
"""

from __future__ import annotations

import re

# OpenAI: "works automatically for prompts containing 1024 tokens or more" (Prompt Caching 201).
# Anthropic: per-model minimums of the prompt-caching guide at platform.claude.com (users observed
# 2,048 for Sonnet 4.6: anthropics/anthropic-sdk-python#1194). Gemini: the implicit-caching table
# of ai.google.dev/gemini-api/docs/caching (its figures have changed over 2025-2026).
MODELS: dict[str, dict[str, int]] = {
    "openai": {"gpt-5": 1024, "gpt-5-mini": 1024, "gpt-5-nano": 1024, "gpt-4.1": 1024,
               "gpt-4.1-mini": 1024, "gpt-4o": 1024, "gpt-4o-mini": 1024},
    "anthropic": {"claude-sonnet-4-6": 1024, "claude-sonnet-4-5": 1024, "claude-sonnet-4": 1024,
                  "claude-opus-4-6": 4096, "claude-opus-4-5": 4096, "claude-haiku-4-5": 4096},
    "gemini": {"gemini-2.5-flash": 2048, "gemini-2.5-pro": 2048, "gemini-2.5-flash-lite": 2048,
               "gemini-3-flash-preview": 4096, "gemini-3.1-pro-preview": 4096},
}
_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8})$")


def serves(provider: str, model: str) -> bool:
    """Whether the emulator answers for `model` (a listed model or a dated snapshot of one)."""
    return cache_minimum(provider, model) is not None


def cache_minimum(provider: str, model: str) -> int | None:
    """The model's minimum cacheable prompt in tokens; None when the emulator does not serve it.

    Example:
        >>> cache_minimum("openai", "gpt-5-mini-2025-08-07"), cache_minimum("openai", "gpt-9")
        (1024, None)
    """
    known = MODELS[provider]
    return known.get(model, known.get(_SNAPSHOT.sub("", model)))
