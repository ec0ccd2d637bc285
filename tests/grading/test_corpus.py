"""Every corpus submission, graded without nbgrader: each bug loses exactly the cells it should,
with a message that names it; every alternative implementation, the reference solution and the
per-student answers score full marks; the starters score nothing."""

from __future__ import annotations

import pytest

from grading import submissions

CASES = [(name, exercise) for name in submissions.corpus()
         for exercise in submissions.exercises_of(submissions.load(name))]


def _grade(name: str, exercise: str, student_id: str = "student") -> submissions.Graded:
    module = submissions.load(name)
    return submissions.simulate(submissions.submission(exercise, module, student_id=student_id),
                                exercise)


# Every sentence of exercises 1-3's contracts (what the notebook tells the student the function
# must do, must not do, and must leave unchanged), the graded cell that holds it, and the corpus
# solution that breaks that sentence alone. The tests below prove each one loses exactly that
# cell (and the valid ones none).
ADD, ONE, ORDER, REJECT = ("append_round_adds_turn_then_results",
                          "append_round_one_result_per_call", "append_round_keeps_model_order",
                          "append_round_rejects_unmatched_ids")
SYSTEM, USE, RESULTS = ("to_anthropic_keeps_system_apart", "to_anthropic_tool_use_blocks",
                        "to_anthropic_results_in_one_user_message")
FEED, CUT, CAP, PENDING, CLOSING, INSTRUCTION = (
    "run_loop_feeds_results_back", "run_loop_truncated_is_not_an_answer",
    "run_loop_stops_at_the_cap", "run_loop_answers_pending_calls",
    "run_loop_closing_call_is_text_only", "run_loop_instruction_in_system_prompt")
SAME, APART = "call_key_ignores_order_and_spacing", "call_key_tells_calls_apart"
REPEAT, RETRY, CYCLE, QUIET = ("no_progress_flags_a_repeat",
                               "no_progress_allows_a_retry_after_error",
                               "no_progress_catches_cycles", "no_progress_no_false_alarms")
CONTRACT = [
    # Exercise 1, append_round
    ("return a new list: the history you were given is left as it was", ADD,
     "ordering_history_mutated"),
    ("the history comes first and unchanged", ADD, "ordering_history_dropped"),
    ("then the turn, then the results (never a result before its turn)", ADD,
     "ordering_results_before_turn"),
    ("one tool message per call (never merged)", ONE, "ordering_results_merged"),
    ("one tool message for EACH call (never one skipped)", ONE, "ordering_result_skipped"),
    ("in the order of turn['tool_calls'], not the order they finished", ORDER,
     "ordering_completion_order"),
    ("each call's own text with its id", ORDER, "ordering_results_paired_by_position"),
    ("a call with no result in finished raises ValueError", REJECT,
     "ordering_missing_result_skipped"),
    ("a result that answers no call raises ValueError", REJECT, "ordering_orphan_result_kept"),
    ("... whose message names the offending id", REJECT, "ordering_error_without_id"),
    # Exercise 1, to_anthropic
    ("the system prompt travels apart, not in messages", SYSTEM, "anthropic_system_in_messages"),
    ("system is None when the history has none", SYSTEM, "anthropic_default_system"),
    ("a text block only if the turn has text", USE, "anthropic_empty_text_block"),
    ("tool_use input is an object, not a JSON string", USE, "anthropic_input_string"),
    ("no tool role: results go in a user message", RESULTS, "anthropic_tool_role"),
    ("all the results of a round in ONE user message", RESULTS, "anthropic_results_split"),
    ("the tool_result blocks come first in it", RESULTS, "anthropic_text_before_results"),
    ("a user's text after the results comes after them (in their message or the next)", RESULTS,
     "anthropic_question_before_results"),
    # Exercise 2, run_loop
    ("append the model's message whole", FEED, "loop_turn_without_its_text"),
    ("a reply without tool calls is the answer: ('done', its text)", FEED,
     "loop_done_without_its_text"),
    ("run each call in the order the model asked", FEED, "loop_tools_in_reverse"),
    ("each result goes back before the next call", FEED, "loop_results_not_fed_back"),
    ("... after the assistant turn that asked for it", FEED, "loop_results_before_turn"),
    ("a tool call is never the end of the task", FEED, "loop_exit_after_first_result"),
    ("max_tokens: ('truncated', None), not an answer", CUT, "loop_max_tokens_as_answer"),
    ("... and the loop never retries by itself", CUT, "loop_truncated_retried"),
    ("max_turns calls with tools allowed, not one more", CAP, "loop_off_by_one_cap"),
    ("the status at the cap is 'turn_cap'", CAP, "loop_status_misspelt_at_the_cap"),
    ("each pending call gets a result starting 'Not executed'", PENDING,
     "loop_pending_without_not_executed"),
    ("... every one of them, before the closing call", PENDING, "loop_pending_unanswered"),
    ("... in the order the model asked", PENDING, "loop_pending_in_reverse"),
    ("the closing call has tool_choice 'none'", CLOSING, "loop_closing_call_tools_allowed"),
    ("... on a copy of the whole transcript", CLOSING, "loop_closing_call_without_the_history"),
    ("ONE more call, then return", CLOSING, "loop_closing_call_retried"),
    ("('turn_cap', None) when the closing reply is cut or calls a tool", CLOSING,
     "loop_closing_reply_always_an_answer"),
    ("... and nothing runs after the closing call", CLOSING, "loop_closing_reply_tools_run"),
    ("the instruction ends the original system message", INSTRUCTION,
     "loop_instruction_in_a_second_system_message"),
    ("... after a blank line", INSTRUCTION, "loop_instruction_without_blank_line"),
    ("... never in a tool result", INSTRUCTION, "loop_instruction_in_tool_result"),
    ("... nor in another message", INSTRUCTION, "loop_instruction_as_user_message"),
    ("never edit a message you were given", INSTRUCTION, "loop_history_rewritten"),
    ("the caller's list is left as it was", INSTRUCTION, "loop_caller_list_grows"),
    # Exercise 3, call_key and NoProgress
    ("call_key returns a string", SAME, "key_returns_a_tuple"),
    ("key order does not matter, nested objects too", SAME, "key_top_level_order_only"),
    ("a JSON string is parsed first: spacing does not matter", SAME, "key_json_string_not_parsed"),
    ("... nor its key order", SAME, "key_order_not_canonical"),
    ("a different tool is a different request", APART, "key_without_the_name"),
    ("a different type (123 is not '123') is a different request", APART, "key_values_as_text"),
    ("an extra argument is a different request", APART, "key_paging_ignored"),
    ("the same call twice in a row fires on the second, not the third", REPEAT,
     "detector_fires_on_third"),
    ("the detector uses call_key (a JSON text repeat is a repeat)", REPEAT,
     "detector_raw_arguments"),
    ("a repeat right after an error is a retry and does not fire", RETRY, "detector_retry_flagged"),
    ("if it repeats again after a good result, it fires", RETRY, "detector_error_exempts_forever"),
    ("a cycle is made of distinct calls", RETRY, "detector_cycle_of_repeated_calls"),
    ("a cycle of 2 fires: not only consecutive repeats", CYCLE, "detector_consecutive_only"),
    ("a cycle of 3 fires too", CYCLE, "detector_pairs_only"),
    ("a cycle fires once it fills the window of 6, not before", QUIET, "detector_short_window"),
]


# Exercise 5, the capstone: each sentence of the notebook's exits table and of its "lessons 08,
# 09 and 10 in your loop" section, the cells that grade it and the corpus loop that breaks it. A
# bug only the wire shows loses the cell of each format it reaches.
DONE, CUT, CAP, BUDGET, REPEATS, ERROR, STOP = (
    "run_agent_done", "run_agent_truncated", "run_agent_turn_cap", "run_agent_token_cap",
    "run_agent_no_progress", "run_agent_error", "run_agent_interrupted")
ERRORS, BATCHES, SUMMARY = ("run_agent_errors_as_results", "run_agent_parallel_batches",
                            "summarize_exits_matches")
RESPONSES, ANTHROPIC, GEMINI = ("run_agent_on_openai_responses", "run_agent_on_anthropic",
                                "run_agent_on_gemini")
CAPSTONE = [
    # The exits table, row by row, in the order the loop checks them
    ("interrupted: cancel checked before every model call", {STOP},
     "capstone_cancel_only_before_calls"),
    ("... and again after a reply, before its calls run (the last turn's too: no closing call)",
     {STOP}, "capstone_cap_before_cancel"),
    ("... but after the reply is read: a cut reply or an answer is not interrupted", {STOP},
     "capstone_cancel_before_truncated"),
    ("error: set result.error", {ERROR}, "capstone_error_not_set"),
    ("... no retry", {ERROR}, "capstone_error_retried"),
    ("... the closing call's error too", {ERROR}, "capstone_closing_error_raised"),
    ("truncated: a cut reply is no answer", {CUT, STOP}, "capstone_truncated_as_answer"),
    ("... any call it wrote gets a 'Not executed' result", {CUT},
     "capstone_truncated_calls_unanswered"),
    ("... and is not run", {CUT}, "capstone_truncated_calls_run"),
    ("done: the last reply's text is the answer", {DONE}, "capstone_done_without_answer"),
    ("token_cap: only after a reply with calls (an answer over the budget is done)",
     {BUDGET, STOP},
     "capstone_budget_before_answer"),
    ("... checked before its calls run", {BUDGET}, "capstone_token_cap_after_tools"),
    ("... input plus output tokens", {BUDGET}, "capstone_budget_input_only"),
    ("... before the detector (a repeat over the budget is token_cap)", {BUDGET},
     "capstone_repeat_before_budget"),
    ("no_progress: each call of the reply observed", {REPEATS}, "capstone_first_call_observed"),
    ("... with raw_arguments when it has them", {REPEATS}, "capstone_raw_arguments_ignored"),
    ("... previous_was_error when that same call's last result was an error", {REPEATS},
     "capstone_retry_is_a_repeat"),
    ("... that same call's, not any call's", {REPEATS}, "capstone_retry_after_any_error"),
    ("... its LAST result: a repeat after the retry succeeded fires", {REPEATS},
     "capstone_retry_exemption_kept"),
    ("... before the turn cap (a repeat on the last turn is no_progress)", {REPEATS},
     "capstone_cap_before_repeat"),
    ("turn_cap: ONE closing call with tool_choice none", {CAP, ERROR},
     "capstone_no_closing_call"),
    ("... a new system message at the front when there is none", {CAP},
     "capstone_closing_assumes_a_system"),
    ("... None when the closing reply was cut off", {CAP}, "capstone_closing_cut_as_answer"),
    ("... or still called a tool (its calls then get 'Not executed')", {CAP},
     "capstone_closing_calls_unanswered"),
    ("usage: the sum of every reply's, the closing call's too", {CAP},
     "capstone_closing_usage_not_added"),
    ("pending results ('Not executed', 'Cancelled') carry is_error=True",
     {CUT, CAP, BUDGET, REPEATS, STOP, ERROR}, "capstone_pending_not_errors"),
    # Lessons 08, 09 and 10 in your loop
    ("lesson 08: every call gets a result, an unknown tool too", {ERRORS},
     "capstone_unknown_tool_skipped"),
    ("lesson 08: an error result keeps is_error", {ERRORS, REPEATS},
     "capstone_error_flag_dropped"),
    ("lesson 09: results in model order", {BATCHES}, "capstone_completion_order"),
    ("lesson 09: a batch runs together", {BATCHES}, "capstone_batches_one_at_a_time"),
    ("lesson 09: an exclusive call is a barrier", {BATCHES}, "capstone_batches_without_barrier"),
    ("lesson 10: the message's extra goes back (Responses item ids)", {RESPONSES},
     "capstone_message_extra_dropped"),
    ("lesson 10: reasoning goes back (encrypted items, signed thinking)", {RESPONSES, ANTHROPIC},
     "capstone_reasoning_dropped"),
    ("lesson 10: a call's extra goes back (item ids, thought signatures)", {RESPONSES, GEMINI},
     "capstone_call_extra_dropped"),
    ("lesson 11: shares are fractions", {SUMMARY}, "capstone_summary_counts"),
    ("lesson 11: ties by name", {SUMMARY}, "capstone_summary_ties_first_seen"),
]
CAPSTONE_CHAINED = {
    # One sentence, more than its cell, where the text itself chains the behaviours:
    "capstone_truncated_as_answer": "a cut reply is read before cancel is, so a loop that never "
                                    "sees the cut ends interrupted where it should be truncated",
    "capstone_budget_before_answer": "a budget looked at before the reply is read comes before "
                                     "cancel too: a reply over it ends token_cap, not interrupted",
    "capstone_no_closing_call": "no closing call, no closing call's error: the 529 on it is missed",
    "capstone_pending_not_errors": "every exit with pending calls writes them: each cell whose "
                                   "history has one (the closing call's error comes after the cap)",
    "capstone_error_flag_dropped": "a timeout's result without is_error is in the history the "
                                   "no_progress cell compares (the retry case)",
}


def test_every_capstone_sentence_has_a_wrong_loop_that_loses_its_cells():
    for sentence, cells, name in CAPSTONE:
        assert submissions.load(name).FAILS == cells, (sentence, name)
        assert len(cells) == 1 or name in CAPSTONE_CHAINED or cells <= {
            RESPONSES, ANTHROPIC, GEMINI}, (sentence, name)  # else the table says why
    covered = set().union(*(cells for _, cells, _ in CAPSTONE))
    released = {c.metadata["nbgrader"]["grade_id"] for c in
                submissions.notebook("solutions", "05_capstone").cells
                if c.metadata.get("nbgrader", {}).get("grade")}
    assert covered == released  # every graded cell, every exit and every format, has its bug
    assert len({name for _, _, name in CAPSTONE}) == len(CAPSTONE)
    wrong = {n for n in submissions.corpus("capstone_")}
    assert wrong == {name for _, _, name in CAPSTONE}  # and every wrong loop states a sentence


def test_every_contract_sentence_has_a_wrong_solution_that_loses_its_cell():
    for sentence, cell, name in CONTRACT:
        module = submissions.load(name)
        assert cell in module.FAILS, (sentence, name, module.FAILS)
    # One cell per wrong solution, but where the contract itself chains two behaviours: a
    # call_key bug is a detector bug too ("use your own call_key"), the cap's pending calls run
    # are also not "Not executed", a loop that stops after one tool round has no cap to reach,
    # a short window fires both early and falsely, and waiting for a third repeat breaks the
    # repeat rule in both of the cells that state it.
    chained = {"key_json_string_not_parsed", "key_order_not_canonical", "loop_off_by_one_cap",
               "loop_runs_pending_at_cap", "loop_exit_after_first_result",
               "detector_short_window", "detector_fires_on_third"}
    for _, cell, name in CONTRACT:
        if name not in chained:
            assert submissions.load(name).FAILS == {cell}, name
    assert len({name for _, _, name in CONTRACT}) == len(CONTRACT)


def test_corpus_is_large_enough():
    names = submissions.corpus()
    bugs = [n for n in names if not n.startswith(("valid_", "cheat_"))]
    assert len(bugs) >= 20
    assert len([n for n in names if n.startswith("valid_")]) >= 5
    for name in names:
        module = submissions.load(name)
        assert module.__doc__, f"{name} must say what it is in its docstring"


@pytest.mark.parametrize(("name", "exercise"), CASES)
def test_submission_loses_exactly_its_cells(name: str, exercise: str, tmp_path, monkeypatch):
    module = submissions.load(name)
    student = "copycat" if getattr(module, "TYPED_ID", None) else "student"
    # Autograde runs each notebook in autograded/<student>/<assignment>/: so do we.
    folder = tmp_path / "autograded" / student / exercise
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    graded = _grade(name, exercise, student)
    assert graded.failed == set(module.FAILS), {k: v for k, v in graded.cells.items() if v}
    if module.FAILS:
        first = next(message for message in graded.cells.values() if message)
        assert module.EXPECT in first


@pytest.mark.parametrize("exercise", submissions.EXERCISES)
def test_reference_solution_scores_full_marks(exercise: str):
    built = submissions.submission(exercise, None, student_id="student")
    graded = submissions.simulate(built, exercise)
    assert graded.cells and not graded.failed, graded.cells


@pytest.mark.parametrize("exercise", submissions.EXERCISES)
def test_starter_scores_nothing(exercise: str):
    graded = submissions.simulate(submissions.starter(exercise), exercise)
    assert graded.failed == set(graded.cells)
    for message in graded.cells.values():  # the checks explain, even on an empty starter
        assert "Traceback" not in message


def test_cheats_cover_every_exercise():
    cheats = {submissions.load(n).EXERCISE for n in submissions.corpus("cheat_")}
    assert cheats == set(submissions.EXERCISES)
