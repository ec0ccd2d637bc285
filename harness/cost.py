"""Token and money arithmetic for agent runs. Pure: no I/O, no clock.

Every turn resends the whole transcript, so the input of a run grows quadratically with its
length: `cumulative_input` is N x prefix + per_turn x N(N-1)/2. This module holds that formula,
the turn where an input budget fires, the overrun ratio, what a `Price` is and the cost of a run
from its usage records, cache reads and cache writes priced apart (the dated prices are in the
provider table, `harness.providers.catalog.PRICES`). It counts no tokens in text: usage comes
from the provider's reply.

Budgets: the loop's `token_budget` counts input plus output (`Usage.total_tokens`), summed over
the run. The arithmetic here counts input only, which is most of it; the loop's budget therefore
fires on the turn `first_turn_over_budget` names or earlier, never later.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.messages import Usage


def cumulative_input(prefix: int, per_turn: int, turns: int) -> int:
    """Input tokens sent over `turns` calls when each call adds `per_turn` to a `prefix`.

    Example:
        >>> cumulative_input(3_000, 1_500, 22)
        412500
    """
    return turns * prefix + per_turn * turns * (turns - 1) // 2


def first_turn_over_budget(prefix: int, per_turn: int, budget: int) -> int:
    """The first turn whose cumulative input exceeds `budget` (strictly greater). With the
    output counted too, as the loop's `token_budget` does, the budget fires on this turn or before.

    Example:
        >>> first_turn_over_budget(5_000, 2_500, 400_000)
        17
    """
    if prefix <= 0 and per_turn <= 0:
        raise ValueError("prefix or per_turn must be positive, or no budget is ever exceeded")
    turn = 1
    while cumulative_input(prefix, per_turn, turn) <= budget:
        turn += 1
    return turn


def overrun_ratio(prefix: int, per_turn: int, turns: int, *, factor: int = 4) -> float:
    """How much more input a run `factor` times longer than `turns` costs.

    Example:
        >>> round(overrun_ratio(3_000, 1_500, 10), 1)   # four times longer, about 13x the cost
        13.2
    """
    return cumulative_input(prefix, per_turn, factor * turns) / cumulative_input(
        prefix, per_turn, turns)


@dataclass(frozen=True)
class Price:
    """Dollars per million tokens, as published on `as_of`.

    `cache_write` is the price of a token written to the prompt cache. Anthropic charges a
    premium: 1.25x the input price for the 5-minute cache the kit's adapter asks for (2x for
    the 1-hour cache, which it does not). OpenAI and Gemini's implicit cache charge none: None
    means a written token costs the input price.
    """

    input: float
    cached_input: float
    output: float
    as_of: str
    cache_write: float | None = None

    def as_dict(self) -> dict[str, float]:
        return {"input": self.input, "cached_input": self.cached_input,
                "cache_write": self.input if self.cache_write is None else self.cache_write,
                "output": self.output}


def run_cost(usages: Iterable[Usage], price: Price) -> float:
    """Dollars spent by a run, from each call's usage.

    Cache reads and writes are both part of `input_tokens`: the reads cost `cached_input`, the
    writes `cache_write` (the input price when the price has none), the rest the input price.

    Example:
        >>> usage = Usage(input_tokens=1_000_000, cached_input_tokens=500_000,
        ...               cache_write_tokens=100_000)
        >>> run_cost([usage], Price(2.0, 0.5, 8.0, as_of="2026-01-01", cache_write=2.5))
        1.3
    """
    write_rate = price.input if price.cache_write is None else price.cache_write
    total = 0.0
    for usage in usages:
        read = usage.cached_input_tokens
        written = usage.cache_write_tokens
        ordinary = usage.input_tokens - read - written
        total += (ordinary * price.input + read * price.cached_input + written * write_rate
                  + usage.output_tokens * price.output)
    return total / 1_000_000
