"""Bug: Anthropic's input_tokens is taken as all the input; the cache reads are left out."""

EXERCISE = "04_cost"
FAILS = {"usage_anthropic_adds_cache_reads"}
EXPECT = "does NOT include cache reads"


def fill_answers(answers, mine):
    anthropic, openai = mine.anthropic["usage"], mine.openai["usage"]
    answers["anthropic_usage"] = {"input_tokens": anthropic["input_tokens"],
                                  "output_tokens": anthropic["output_tokens"],
                                  "cached_input_tokens": anthropic["cache_read_input_tokens"],
                                  "cache_write_tokens": anthropic["cache_creation_input_tokens"]}
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]],  # noqa: F821
                                         mine.anthropic_prices)
    answers["openai_usage"] = {"input_tokens": openai["prompt_tokens"],
                               "output_tokens": openai["completion_tokens"],
                               "cached_input_tokens":
                                   openai["prompt_tokens_details"]["cached_tokens"],
                               "cache_write_tokens": 0}
    answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.openai_prices)  # noqa: F821
