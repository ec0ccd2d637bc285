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
from course.exercises.cost import hints
from course.exercises.cost import variants
from course.exercises.ownwork import Watch, refuse_calls, refuse_reference
from course.exercises.report import CheckFailed, checked, fail, lesson, self_check
from course.compare import Divergence, Outcome, show
from course.exercises.grader_hook import call
from course.exercises.cost.variants import ASSIGNMENT, UsageQuestions

MODULES = ("course.exercises.reference", "harness.cost")
RELATIVE = 5e-3  # answers typed by hand may be rounded to a few significant digits


def _run(subject: str, function: Callable[..., Any], cases: Sequence[tuple[Any, ...]]
         ) -> list[Outcome]:
    refuse_reference(subject, function, MODULES)
    with Watch(MODULES) as watch:
        outcomes = [call(function, *case) for case in cases]
    refuse_calls(subject, watch)
    return outcomes


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


CUMULATIVE_CASES = [(3_000, 1_500, 22), (5_000, 2_500, 16), (5_000, 2_500, 17), (3_000, 1_500, 1),
                    (3_000, 1_500, 0), (1_000, 0, 5), (0, 100, 4), (3_000, 1_500, 40)]


def _cumulative_hint(case: tuple[int, int, int], got: Any) -> str:
    prefix, per_turn, turns = case
    if _is_number(got) and got == turns * prefix + per_turn * turns * (turns + 1) // 2:
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
        if seen.error is not None or not _is_number(seen.value) or seen.value != want:
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
            exact = reference.cumulative_input(prefix, per_turn, turns)
            items.append((prefix, per_turn, exact if rng.random() < 0.5 else exact + 1))
    outcomes = _run("first_turn_over_budget", first_turn_over_budget, items)
    for case, seen in zip(items, outcomes, strict=True):
        want = reference.first_turn_over_budget(*case)
        if seen.error is not None or not _is_number(seen.value) or seen.value != want:
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


def _alternatives(usages: list[dict[str, int]], prices: dict[str, float]) -> dict[str, float]:
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


def _close(got: Any, want: float, *, relative: float = 1e-9) -> bool:
    return _is_number(got) and math.isclose(got, want, rel_tol=relative, abs_tol=1e-12)


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
        if seen.error is None and _close(seen.value, want):
            continue
        hint = next((h for h, value in _alternatives(usages, prices).items()
                     if usages and seen.error is None and _close(seen.value, value)),
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


def _usage_hint(provider: str, questions: UsageQuestions, got: Any) -> str:
    if not isinstance(got, dict):
        return hints.COST_ANSWERS
    if provider == "anthropic":
        raw = questions.anthropic["usage"]
        if got.get("input_tokens") == raw["input_tokens"]:
            return hints.COST_ANTHROPIC_INPUT
        if got.get("output_tokens") != raw["output_tokens"]:
            return hints.COST_OUTPUT
        if got.get("cache_write_tokens") != raw["cache_creation_input_tokens"]:
            return hints.COST_ANTHROPIC_WRITES
        return hints.COST_ANTHROPIC_INPUT
    raw = questions.openai["usage"]
    if got.get("output_tokens") != raw["completion_tokens"]:
        return hints.COST_OUTPUT
    if got.get("cache_write_tokens") != 0:
        return hints.COST_OPENAI_WRITES
    return hints.COST_OPENAI_INPUT


def _copied_note(questions: UsageQuestions, given: dict[str, Any], key: str) -> str:
    """A note when the answer fits another student's numbers (the id typed in the notebook)."""
    if questions.typed_id == questions.student_id or not questions.typed_id:
        return ""
    theirs = variants.answers(variants.questions_of(questions.typed_id, questions.assignment))
    if given.get(key) == theirs[key] or (key.endswith("cost")
                                         and _close(given.get(key), theirs[key],
                                                    relative=RELATIVE)):
        return (f"Your {key} fits the numbers of student {questions.typed_id!r} (the id typed "
                f"in the notebook), not yours: this notebook was submitted by "
                f"{questions.student_id!r} and is graded on that student's own usage blocks. "
                f"Answer from your own blocks. " + lesson("06_cost"))
    return ""


def _check_usage(provider: str, given: Any, student_id: str) -> None:
    questions = variants.for_student(student_id, ASSIGNMENT)
    right = variants.answers(questions)
    if not isinstance(given, dict):
        raise CheckFailed(f"answers must be a dict, got {show(given)}. Hint: {hints.COST_ANSWERS}")
    who = f"student {questions.student_id!r}"
    usage_key, cost_key = f"{provider}_usage", f"{provider}_cost"
    got = given.get(usage_key)
    got_usage = {k: got.get(k) for k in right[usage_key]} if isinstance(got, dict) else got
    if got_usage != right[usage_key]:
        hint = _copied_note(questions, given, usage_key) or _usage_hint(provider, questions, got)
        fail("answers", Divergence(f'answers["{usage_key}"] for {who}', show(right[usage_key]),
                                   show(got), hint))
    cost = given.get(cost_key)
    if not _close(cost, right[cost_key], relative=RELATIVE):
        usage = right[usage_key]
        prices, other = (questions.anthropic_prices, questions.openai_prices)[::(
            1 if provider == "anthropic" else -1)]
        candidates = _alternatives([usage], prices) | {
            hints.COST_OTHER_PRICES: reference.run_cost([usage], other)}
        hint = _copied_note(questions, given, cost_key) or next(
            (h for h, value in candidates.items() if _close(cost, value, relative=RELATIVE)),
            hints.COST_PRICING)
        fail("answers", Divergence(f'answers["{cost_key}"] for {who}',
                                   f"{right[cost_key]:.6f} (within {RELATIVE:.1%})", show(cost),
                                   hint))


@checked
def usage_anthropic_adds_cache_reads(answers: Any, *, student_id: str) -> None:
    """The Anthropic reply in neutral form (reads and writes in the input) and its cost."""
    _check_usage("anthropic", answers, student_id)


@checked
def usage_openai_cached_inside_prompt(answers: Any, *, student_id: str) -> None:
    """The OpenAI reply in the neutral form (cached tokens already inside prompt) and its cost."""
    _check_usage("openai", answers, student_id)


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


def check_answers(answers: Any, *, student_id: str) -> None:
    """The formative check for the usage questions (with the id you typed, until grading)."""
    self_check({
        "usage_anthropic_adds_cache_reads":
            lambda: usage_anthropic_adds_cache_reads(answers, student_id=student_id),
        "usage_openai_cached_inside_prompt":
            lambda: usage_openai_cached_inside_prompt(answers, student_id=student_id)})
