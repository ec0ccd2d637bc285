"""The kit's token-count rule: characters / 4, and the ScriptedModel's prompt-cache rule."""

from __future__ import annotations

import random

from offline.tokens import (
    CACHE_MINIMUM,
    _shared_prefix,
    cached_tokens,
    count_tokens,
    output_tokens,
)


def _naive_prefix(first: str, second: str) -> int:
    shared = 0
    for left, right in zip(first, second, strict=False):
        if left != right:
            break
        shared += 1
    return shared


def test_counts_are_characters_over_four_rounded_up():
    assert [count_tokens("a" * n) for n in (0, 1, 4, 5, 8)] == [0, 1, 1, 2, 2]
    assert count_tokens({"b": 1, "a": [1, 2]}) == count_tokens('{"a":[1,2],"b":1}') == 5
    assert output_tokens("Yes.", [("get_forecast", '{"city":"Lisbon"}')]) == 1 + 8


def test_the_cache_serves_the_shared_prefix_from_1024_tokens_in_steps_of_128():
    chars = 4 * CACHE_MINIMUM
    assert cached_tokens(None, "a" * chars) == 0
    assert cached_tokens("a" * (chars - 4), "a" * chars) == 0  # 1,023 tokens: below the minimum
    assert cached_tokens("a" * chars, "a" * chars + "b") == 1024
    assert cached_tokens("a" * 8000, "a" * 8000 + "b") == 1920  # 2,000 tokens, down to 15 x 128
    # the prefix ends at the first difference, however much agrees after it
    assert cached_tokens("a" * 5000 + "x" + "a" * 9000, "a" * 5000 + "y" + "a" * 9000) == 1152


def test_the_shared_prefix_is_found_exactly():
    rng = random.Random(7)
    for _ in range(300):
        base = "".join(rng.choice("ab") for _ in range(rng.randint(0, 12_000)))
        cut = rng.randint(0, len(base))
        other = base[:cut] + rng.choice(["", "c", "cab", base[cut:]]) + "".join(
            rng.choice("ab") for _ in range(rng.randint(0, 50)))
        expected = _naive_prefix(base, other)
        assert _shared_prefix(base, other) == _shared_prefix(other, base) == expected
        got = cached_tokens(base, other)
        tokens = expected // 4
        assert got == (0 if tokens < CACHE_MINIMUM else tokens // 128 * 128), (cut, expected)
