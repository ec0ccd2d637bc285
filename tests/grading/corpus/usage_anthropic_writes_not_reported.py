"""Bug: Anthropic's cache writes are added to the input but not reported as cache writes."""

from course.exercises.cost import variants

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads"}
EXPECT = "cache_creation_input_tokens are cache writes"


def fill_answers(answers, mine):
    answers.update(variants.answers(mine))  # stands for the right numbers, worked out by hand
    answers["anthropic_usage"]["cache_write_tokens"] = 0
