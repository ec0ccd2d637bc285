"""Which models the emulator serves, and why it turns a name away: from the provider table.

`unserved` gives the reason a request's model gets no answer, as the real API sees it: a name the
family does not know, one retired by the table's date, one that another of the family's wire
formats serves (OpenAI's Responses-only models), or one the API version does not serve (Gemini's
previews on v1). The texts of those answers are in `_refusals`; the facts themselves, with their
sources, in `harness.providers.catalog`. Nothing here reads a request body.
"""

from __future__ import annotations

from typing import Literal

from harness.providers.catalog import ALIASES, RETIRED, canonical, model_facts

Reason = Literal["unknown", "retired", "other_api", "version"]


def unserved(provider: str, family: str, model: str, version: str | None = None
             ) -> Reason | None:
    """Why `provider` (a wire format of `family`) does not answer for `model`; None if it does.

    Example:
        >>> unserved("openai_chat", "openai", "gpt-5-pro"), unserved("gemini", "gemini", "gpt-9")
        ('other_api', 'unknown')
    """
    facts = model_facts(family, model)
    if facts is None:
        return "retired" if model in RETIRED[family] else "unknown"
    if facts.apis and provider not in facts.apis:
        return "other_api"
    if version and facts.versions and version not in facts.versions:
        return "version"
    return None


def dated_name(family: str, model: str) -> str:
    """The name the API reports a model by: its dated snapshot when it has one (Anthropic's
    `claude-haiku-4-5` is `claude-haiku-4-5-20251001`), else the listed name.

    Example:
        >>> dated_name("anthropic", "claude-haiku-4-5"), dated_name("anthropic", "claude-opus-5")
        ('claude-haiku-4-5-20251001', 'claude-opus-5')
    """
    name = canonical(family, model) or model
    dated = [alias for alias, target in ALIASES[family].items()
             if target == name and alias[-8:].isdigit()]
    return dated[0] if len(dated) == 1 else name


def cache_minimum(family: str, model: str) -> int | None:
    """The model's minimum cacheable prompt in tokens; None when unpublished or not served.

    Example:
        >>> cache_minimum("openai", "gpt-5-mini-2025-08-07"), cache_minimum("openai", "gpt-9")
        (1024, None)
    """
    found = model_facts(family, model)
    return None if found is None else found.cache_minimum
