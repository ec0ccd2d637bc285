"""Bug: the Anthropic reply is priced at the OpenAI prices (everything else right)."""

from course.exercises.cost import variants

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads"}
EXPECT = "the other provider's prices"


def fill_answers(answers, mine):
    answers.update(variants.answers(mine))  # stands for the right numbers, worked out by hand
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]],  # noqa: F821
                                         mine.openai_prices)
