"""Cheat: run_loop hands the work to the reference loop of course.exercises."""

from course.exercises import reference as _reference

EXERCISE = "02_early_exit"
FAILS = {"run_loop_feeds_results_back", "run_loop_truncated_is_not_an_answer",
         "run_loop_stops_at_the_cap", "run_loop_answers_pending_calls",
         "run_loop_closing_call_is_text_only", "run_loop_instruction_in_system_prompt"}
EXPECT = "calls course.exercises.reference.run_loop"
EXPECT_GRADED = "is withheld while this notebook is graded"


def run_loop(model, tools, messages, *, max_turns=10):
    return _reference.run_loop(model, tools, messages, max_turns=max_turns)
