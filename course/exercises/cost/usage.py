"""Checks for exercise 4's questions on usage blocks: each reply's usage in the neutral form, and
what it cost, for the student being graded (`course.exercises.cost.variants`).

The answers are data the student fills in (`answers`), compared with `expected_answers` for the
true student (while nbgrader autogrades, the one of the folder the notebook runs in), with a
hint that names a known misreading of a provider's usage block, or says when the answers fit the
numbers of the id typed in instead. `expected_answers` is withheld from graded kernels: the
setup cell must hand out no answer.
"""

from __future__ import annotations

from typing import Any

from course.compare import Divergence, show
from course.exercises import reference
from course.exercises.cost import hints, variants
from course.exercises.cost.figures import RELATIVE, alternatives, close
from course.exercises.cost.variants import ASSIGNMENT, UsageQuestions
from course.exercises.report import CheckFailed, checked, fail, lesson, self_check


def expected_answers(questions: UsageQuestions) -> dict[str, Any]:
    """The right answers: each reply's usage in the neutral form, and what each call cost.
    (Withheld from graded kernels, as the reference is: `course.exercises.cost.WITHHELD`.)"""
    a, o = questions.anthropic["usage"], questions.openai["usage"]
    anthropic = {"input_tokens": a["input_tokens"] + a["cache_read_input_tokens"]
                 + a["cache_creation_input_tokens"],
                 "output_tokens": a["output_tokens"],
                 "cached_input_tokens": a["cache_read_input_tokens"],
                 "cache_write_tokens": a["cache_creation_input_tokens"]}
    openai = {"input_tokens": o["prompt_tokens"], "output_tokens": o["completion_tokens"],
              "cached_input_tokens": o["prompt_tokens_details"]["cached_tokens"],
              "cache_write_tokens": 0}
    return {"anthropic_usage": anthropic,
            "anthropic_cost": reference.run_cost([anthropic], questions.anthropic_prices),
            "openai_usage": openai,
            "openai_cost": reference.run_cost([openai], questions.openai_prices)}


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
    theirs = expected_answers(variants.questions_of(questions.typed_id, questions.assignment))
    if given.get(key) == theirs[key] or (key.endswith("cost")
                                         and close(given.get(key), theirs[key],
                                                    relative=RELATIVE)):
        return (f"Your {key} fits the numbers of student {questions.typed_id!r} (the id typed "
                f"in the notebook), not yours: this notebook was submitted by "
                f"{questions.student_id!r} and is graded on that student's own usage blocks. "
                f"Answer from your own blocks. " + lesson("06_cost"))
    return ""


def _check_usage(provider: str, given: Any, student_id: str) -> None:
    questions = variants.for_student(student_id, ASSIGNMENT)
    right = expected_answers(questions)
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
    if not close(cost, right[cost_key], relative=RELATIVE):
        usage = right[usage_key]
        prices, other = (questions.anthropic_prices, questions.openai_prices)[::(
            1 if provider == "anthropic" else -1)]
        candidates = alternatives([usage], prices) | {
            hints.COST_OTHER_PRICES: reference.run_cost([usage], other)}
        hint = _copied_note(questions, given, cost_key) or next(
            (h for h, value in candidates.items() if close(cost, value, relative=RELATIVE)),
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


def check_answers(answers: Any, *, student_id: str) -> None:
    """The formative check for the usage questions (with the id you typed, until grading)."""
    self_check({
        "usage_anthropic_adds_cache_reads":
            lambda: usage_anthropic_adds_cache_reads(answers, student_id=student_id),
        "usage_openai_cached_inside_prompt":
            lambda: usage_openai_cached_inside_prompt(answers, student_id=student_id)})
