"""Bug (honesty): the neighbour's id typed in, and the neighbour's numbers copied."""

from course.exercises.cost import variants

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads", "usage_openai_cached_inside_prompt"}
EXPECT = "fits the numbers of student 'ada'"
TYPED_ID = "ada"


def fill_answers(answers, mine):
    # Stands for numbers typed from ada's notebook: they are ada's whatever `mine` holds.
    answers.update(variants.answers(variants.questions_of("ada")))
