"""Checks for exercise 4, cost arithmetic: the quadratic input formula, the budget turn, the cost
of a run (cache reads and writes priced apart, arguments left unchanged), and the per-student
questions read from usage blocks shaped like real provider replies.

The functions are compared with `harness.cost` on fixed and generated cases; the answers are
compared with the values of the student being graded (`course.exercises.cost.variants`). Each public
function is one graded behaviour (the name is the grade id of its test cell). A known wrong
formula gets a hint that names it.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from harness.providers.catalog import PRICES
from course.exercises import reference
from course.exercises.cost import hints, usage
from course.exercises.cost.figures import alternatives, close, is_number
from course.exercises.cost import variants
from course.exercises.ownwork import Watch, refuse_calls, refuse_reference
from course.exercises.report import CheckFailed, checked, fail, lesson, self_check
from course.compare import Divergence, Outcome, show
from course.exercises.grader_hook import call
from course.exercises.cost.variants import ASSIGNMENT, UsageQuestions

MODULES = ("course.exercises.reference", "harness.cost")


def _run(subject: str, function: Callable[..., Any], cases: Sequence[tuple[Any, ...]]
         ) -> list[Outcome]:
    refuse_reference(subject, function, MODULES)
    with Watch(MODULES) as watch:
        outcomes = [call(function, *case) for case in cases]
    refuse_calls(subject, watch)
    return outcomes


CUMULATIVE_CASES = [(3_000, 1_500, 22), (5_000, 2_500, 16), (5_000, 2_500, 17), (3_000, 1_500, 1),
                    (3_000, 1_500, 0), (1_000, 0, 5), (0, 100, 4), (3_000, 1_500, 40)]


def _cumulative_hint(case: tuple[int, int, int], got: Any) -> str:
    prefix, per_turn, turns = case
    if is_number(got) and got == turns * prefix + per_turn * turns * (turns + 1) // 2:
        return hints.COST_OFF_BY_ONE
    return hints.COST_FORMULA


@checked
def cumulative_input_matches_formula(cumulative_input: Callable[..., Any], *,
                                     seed: int | None = None, cases: int = 50) -> None:
    """N x prefix + per_turn x N(N - 1)/2, exactly, as an integer."""
    items = list(CUMULATIVE_CASES)
    if seed is not None:
        rng = random.Random(seed)
        items += [(rng.randint(0, 20_000), rng.randint(0, 9_000), rng.randint(0, 60))
                  for _ in range(cases)]
    for case, seen in zip(items, _run("cumulative_input", cumulative_input, items), strict=True):
        want = reference.cumulative_input(*case)
        where = f"cumulative_input{case}"
        if seen.error is not None or not is_number(seen.value) or seen.value != want:
            hint = _cumulative_hint(case, seen.value) if seen.error is None else hints.COST_FORMULA
            fail("cumulative_input", Divergence(where, show(want), seen.describe(), hint))
        if not isinstance(seen.value, int):
            fail("cumulative_input",
                 Divergence(where, show(want), seen.describe(), hints.COST_INTEGER))


BUDGET_CASES = [(3_000, 1_500, 400_000), (5_000, 2_500, 400_000), (3_000, 1_500, 412_500),
                (5_000, 2_500, 380_000), (3_000, 1_500, 2_999), (3_000, 1_500, 3_000),
                (1_000, 0, 5_000), (2_000, 500, 1_000_000)]


def _budget_hint(case: tuple[int, int, int], want: int, got: Any) -> str:
    prefix, per_turn, budget = case
    if got == want - 1 and reference.cumulative_input(prefix, per_turn, got) == budget:
        return hints.COST_STRICT
    if got == want - 1:
        return hints.COST_LAST_UNDER
    return hints.COST_BUDGET


@checked
def first_turn_over_budget_is_strict(first_turn_over_budget: Callable[..., Any], *,
                                     seed: int | None = None, cases: int = 50) -> None:
    """The first turn whose cumulative input is strictly greater than the budget."""
    items = list(BUDGET_CASES)
    if seed is not None:
        rng = random.Random(seed)
        for _ in range(cases):
            prefix, per_turn = rng.randint(1, 9_000), rng.randint(0, 4_000)
            turns = rng.randint(1, 40)
            # A budget equal to a turn's total, or one more (the strictness at stake). Written
            # out, not the reference's: graded kernels have none, and cases must not need it.
            exact = turns * prefix + per_turn * turns * (turns - 1) // 2
            items.append((prefix, per_turn, exact if rng.random() < 0.5 else exact + 1))
    outcomes = _run("first_turn_over_budget", first_turn_over_budget, items)
    for case, seen in zip(items, outcomes, strict=True):
        want = reference.first_turn_over_budget(*case)
        if seen.error is not None or not is_number(seen.value) or seen.value != want:
            hint = _budget_hint(case, want, seen.value) if seen.error is None else hints.COST_BUDGET
            fail("first_turn_over_budget", Divergence(
                f"first_turn_over_budget{case} (cumulative input at turn {want}: "
                f"{reference.cumulative_input(case[0], case[1], want):,})",
                show(want), seen.describe(), hint))


def _usage(input_tokens: int, output: int, cached: int, written: int = 0) -> dict[str, int]:
    return {"input_tokens": input_tokens, "output_tokens": output,
            "cached_input_tokens": cached, "cache_write_tokens": written}


_ROUND = {"input": 2.0, "cached_input": 0.5, "cache_write": 2.5, "output": 8.0}
_SONNET, _GPT5 = PRICES["claude-sonnet-4-6"].as_dict(), PRICES["gpt-5"].as_dict()

CACHED_CASES = [([_usage(1_000_000, 0, 500_000)], _ROUND), ([_usage(24_310, 412, 22_528)], _SONNET),
                ([_usage(18_944, 731, 17_792)], _GPT5)]
# No reads here, as no writes in CACHED_CASES: each cell is about one price.
WRITE_CASES = [([_usage(1_000_000, 0, 0, 400_000)], _ROUND),  # Sonnet: first cached turns
               ([_usage(2_900, 120, 0, 2_871)], _SONNET), ([_usage(3_612, 388, 0, 3_581)], _SONNET)]
_RUN = [_usage(3_000, 120, 0), _usage(4_500, 95, 0), _usage(6_000, 210, 0)]
SUM_CASES = [(_RUN, _SONNET), ([*_RUN, _usage(7_500, 330, 0)], _GPT5), ([], _GPT5)]


def _check_costs(run_cost: Callable[..., Any], items: Sequence[tuple[list[Any], dict]]) -> None:
    given = copy.deepcopy(list(items))  # the student's function gets its own copies
    outcomes = _run("run_cost", run_cost, given)
    for (usages, prices), (sent_usages, sent_prices), seen in zip(items, given, outcomes,
                                                                  strict=True):
        want = reference.run_cost(usages, prices)
        where = f"run_cost({show(usages, width=400)}, {show(prices)})"
        if (sent_usages, sent_prices) != (usages, prices):
            changed = f"changed to {show(sent_usages, width=400)}, {show(sent_prices)}"
            fail("run_cost", Divergence(where, "the arguments as given", changed,
                                        hints.COST_UNCHANGED))
        if seen.error is None and close(seen.value, want):
            continue
        hint = next((h for h, value in alternatives(usages, prices).items()
                     if usages and seen.error is None and close(seen.value, value)),
                    hints.COST_EMPTY if not usages else hints.COST_PRICING)
        fail("run_cost", Divergence(where, show(want), seen.describe(), hint))


@checked
def run_cost_prices_cached_input(run_cost: Callable[..., Any]) -> None:
    """Cached tokens are part of input_tokens and cost the cached price."""
    _check_costs(run_cost, CACHED_CASES)


@checked
def run_cost_prices_cache_writes(run_cost: Callable[..., Any]) -> None:
    """Cache writes are part of input_tokens and cost the cache_write price."""
    _check_costs(run_cost, WRITE_CASES)


@checked
def run_cost_sums_every_call(run_cost: Callable[..., Any], *, seed: int | None = None,
                             cases: int = 30) -> None:
    """The cost of a run is the sum over its calls (and 0 for no call)."""
    items = list(SUM_CASES)
    if seed is not None:
        rng = random.Random(seed)
        for _ in range(cases):
            usages = []
            for _ in range(rng.randint(1, 6)):  # no cache: this cell is about the sum
                usages.append(_usage(rng.randint(0, 90_000), rng.randint(0, 3_000), 0))
            items.append((usages, rng.choice([_ROUND, _SONNET, _GPT5])))
    _check_costs(run_cost, items)


def check_cost_functions(*, cumulative_input: Callable[..., Any],
                         first_turn_over_budget: Callable[..., Any],
                         run_cost: Callable[..., Any]) -> None:
    """The formative check for the three functions, one line per behaviour."""
    self_check({
        "cumulative_input_matches_formula":
            lambda: cumulative_input_matches_formula(cumulative_input),
        "first_turn_over_budget_is_strict":
            lambda: first_turn_over_budget_is_strict(first_turn_over_budget),
        "run_cost_prices_cached_input": lambda: run_cost_prices_cached_input(run_cost),
        "run_cost_prices_cache_writes": lambda: run_cost_prices_cache_writes(run_cost),
        "run_cost_sums_every_call": lambda: run_cost_sums_every_call(run_cost)})


# The usage questions' checks live in `usage`; the test cells call them from here.
usage_anthropic_adds_cache_reads = usage.usage_anthropic_adds_cache_reads
usage_openai_cached_inside_prompt = usage.usage_openai_cached_inside_prompt
check_answers = usage.check_answers
expected_answers = usage.expected_answers
