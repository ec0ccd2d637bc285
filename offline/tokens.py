"""The kit's documented token-count rule, used wherever no real tokenizer answers.

One token is four characters of compact JSON (rounded up), which is close to what real
tokenizers give for English and JSON. Input counts the whole request, so it grows with the
transcript exactly as a real API's does. `cached_tokens` follows OpenAI's published rule for the
ScriptedModel: the part of a request identical to the start of the previous one, counted once it
reaches 1,024 tokens and in steps of 128 (the emulator applies each provider's own caching rule,
see `offline.emulator._cache`). Pure: no I/O.
"""

from __future__ import annotations

import json
import math
from typing import Any

CHARS_PER_TOKEN = 4
CACHE_MINIMUM = 1024
CACHE_STEP = 128


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def count_tokens(value: Any) -> int:
    """Tokens in a string, or in any JSON value written compactly.

    Example:
        >>> count_tokens("Should I pack an umbrella?")
        7
    """
    text = value if isinstance(value, str) else compact_json(value)
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def output_tokens(text: str | None, calls: list[tuple[str, str]], thinking: str = "") -> int:
    """Tokens of a reply: its text, each call's name and argument text, and its thinking.

    Example:
        >>> output_tokens("Yes.", [("get_forecast", '{"city":"Lisbon"}')])
        9
    """
    return (count_tokens(text or "") + sum(count_tokens(name + args) for name, args in calls)
            + (count_tokens(thinking) if thinking else 0))


def cached_tokens(previous: str | None, current: str) -> int:
    """Tokens of `current` served from a prompt cache filled by `previous`.

    Example:
        >>> cached_tokens("a" * 8000, "a" * 8000 + "b")
        1920
    """
    tokens = _shared_prefix(previous or "", current) // CHARS_PER_TOKEN
    return 0 if tokens < CACHE_MINIMUM else tokens // CACHE_STEP * CACHE_STEP


def _shared_prefix(first: str, second: str) -> int:
    """How many leading characters two strings share, by bisection: each slice comparison runs
    in C, about 16 of them for a 40,000-character request instead of 40,000 Python steps."""
    low, high = 0, min(len(first), len(second))
    while low < high:  # the first `low` characters agree; beyond `high` they cannot
        middle = (low + high + 1) // 2
        low, high = (middle, high) if first[:middle] == second[:middle] else (low, middle - 1)
    return low
