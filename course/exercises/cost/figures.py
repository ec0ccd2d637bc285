"""How exercise 4's checks compare dollar figures: close enough, and which known mistake a wrong
figure is (a cached token priced as input, the prices per token instead of per million...).
"""

from __future__ import annotations

import math
from typing import Any

from course.exercises import reference
from course.exercises.cost import hints

RELATIVE = 5e-3  # answers typed by hand may be rounded to a few significant digits


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def alternatives(usages: list[dict[str, int]], prices: dict[str, float]) -> dict[str, float]:
    """Costs the usual mistakes give, each with the hint that names it."""
    def plus(key: str, rate: float) -> float:  # the right cost, with `key` tokens at `rate` more
        return reference.run_cost(usages, prices) + sum(u[key] for u in usages) * rate / 1e6

    return {hints.COST_CACHED_FULL: plus("cached_input_tokens",
                                         prices["input"] - prices["cached_input"]),
            hints.COST_CACHED_TWICE: plus("cached_input_tokens", prices["input"]),
            hints.COST_WRITES_FULL: plus("cache_write_tokens",
                                         prices["input"] - prices["cache_write"]),
            hints.COST_WRITES_TWICE: plus("cache_write_tokens", prices["input"]),
            hints.COST_MILLION: 1_000_000 * reference.run_cost(usages, prices),
            hints.COST_SUM: reference.run_cost(usages[-1:], prices)}


def close(got: Any, want: float, *, relative: float = 1e-9) -> bool:
    return is_number(got) and math.isclose(got, want, rel_tol=relative, abs_tol=1e-12)
