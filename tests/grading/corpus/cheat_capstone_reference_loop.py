"""Cheat: run_agent hands every run to harness.loop.run, the reference loop."""

from harness.loop import run

EXERCISE = "05_capstone"
IN_CLASS = True
FAILS = {"run_agent_done", "run_agent_truncated", "run_agent_turn_cap", "run_agent_token_cap",
         "run_agent_no_progress", "run_agent_error", "run_agent_interrupted",
         "run_agent_errors_as_results", "run_agent_parallel_batches",
         "run_agent_on_openai_responses", "run_agent_on_anthropic", "run_agent_on_gemini"}
EXPECT = "calls harness.loop.run"
EXPECT_GRADED = "is withheld while this notebook is graded"


def run_agent(model, tools, messages, **options):
    return run(model, tools, messages, **options)
