"""Which models the emulator serves: those of the provider table, with their cache minimums.

A request for a model the table does not list for its provider family gets the real "model not
found" answer (404). Dated snapshots of a listed model (`gpt-5-mini-2025-08-07`,
`claude-sonnet-4-5-20250929`) are accepted too, as the real APIs accept them. The facts
themselves, with their sources, are in `harness.providers.catalog`.
"""

from __future__ import annotations

from harness.providers.catalog import model_facts


def serves(family: str, model: str) -> bool:
    """Whether the emulator answers for `model` (a listed model or a dated snapshot of one)."""
    return model_facts(family, model) is not None


def cache_minimum(family: str, model: str) -> int | None:
    """The model's minimum cacheable prompt in tokens; None when the emulator does not serve it.

    Example:
        >>> cache_minimum("openai", "gpt-5-mini-2025-08-07"), cache_minimum("openai", "gpt-9")
        (1024, None)
    """
    facts = model_facts(family, model)
    return None if facts is None else facts.cache_minimum
