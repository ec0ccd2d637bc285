"""Bug (honesty): the neighbour's id typed in, and the neighbour's numbers copied."""

from course.exercises.cost import variants

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads", "usage_openai_cached_inside_prompt"}
EXPECT = "fits the numbers of student 'ada'"
TYPED_ID = "ada"


def fill_answers(answers, mine):
    # Worked out right, from ada's blocks (her id typed in): her numbers, whatever `mine` holds.
    theirs = variants.questions_of("ada")
    a, o = theirs.anthropic["usage"], theirs.openai["usage"]
    answers["anthropic_usage"] = {
        "input_tokens": a["input_tokens"] + a["cache_read_input_tokens"]
        + a["cache_creation_input_tokens"], "output_tokens": a["output_tokens"],
        "cached_input_tokens": a["cache_read_input_tokens"],
        "cache_write_tokens": a["cache_creation_input_tokens"]}
    answers["openai_usage"] = {
        "input_tokens": o["prompt_tokens"], "output_tokens": o["completion_tokens"],
        "cached_input_tokens": o["prompt_tokens_details"]["cached_tokens"],
        "cache_write_tokens": 0}
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]],  # noqa: F821
                                         theirs.anthropic_prices)
    answers["openai_cost"] = run_cost([answers["openai_usage"]], theirs.openai_prices)  # noqa: F821
