"""Bug: OpenAI's cached tokens are subtracted from prompt_tokens, as if reported apart."""

EXERCISE = "04_cost"
FAILS = {"usage_openai_cached_inside_prompt"}
EXPECT = "already INCLUDE the cached_tokens"


def fill_answers(answers, mine):
    a, o = mine.anthropic["usage"], mine.openai["usage"]
    cached = o["prompt_tokens_details"]["cached_tokens"]
    answers["anthropic_usage"] = {
        "input_tokens": a["input_tokens"] + a["cache_read_input_tokens"]
        + a["cache_creation_input_tokens"],
        "output_tokens": a["output_tokens"], "cached_input_tokens": a["cache_read_input_tokens"],
        "cache_write_tokens": a["cache_creation_input_tokens"]}
    answers["openai_usage"] = {"input_tokens": o["prompt_tokens"] - cached,
                               "output_tokens": o["completion_tokens"],
                               "cached_input_tokens": cached, "cache_write_tokens": 0}
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]],  # noqa: F821
                                         mine.anthropic_prices)
    answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.openai_prices)  # noqa: F821
