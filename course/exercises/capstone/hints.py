"""The hints a failed check of exercise 5, the capstone (`run_agent`, `summarize_exits`) can give.

A hint names the bug in the student's words and ends with the lesson to reread (`lesson`); the
checks choose the hint, this module only holds the texts. Some carry `{placeholders}` that the
check fills in.
"""

from course.exercises.report import lesson

AGENT_DONE = ("A reply without tool calls ends the run: status done, its text the answer; every "
              "call before it runs, in the order asked, and its result goes back. "
              + lesson("03_the_loop"))
AGENT_TRUNCATED = ("A reply cut at the output-token limit is not an answer: status truncated, "
                   "answer None, no further call, and any call it wrote gets a 'Not executed' "
                   "result. "
                   + lesson("05_stopping"))
AGENT_TURN_CAP = ("After max_turns calls the pending calls get NOT_EXECUTED results, then ONE "
                  "closing call with tool_choice 'none' on a copy of the history whose system "
                  "prompt ends with '\\n\\n' + CLOSING_INSTRUCTION; status turn_cap, its text the "
                  "answer. "
                  + lesson("05_stopping"))
AGENT_TOKEN_CAP = ("Add up every reply's usage; after a reply with calls, when input plus output "
                   "tokens so far exceed token_budget, stop with token_cap before running its calls"
                   " (each gets a 'Not executed' result). "
                   + lesson("06_cost"))
AGENT_NO_PROGRESS = ("Before running any of a reply's calls, observe every one in a "
                     "NoProgressDetector (its raw_arguments when it has them), with "
                     "previous_was_error only when that same call's last result was an error: a "
                     "retry is not a doom loop, a repeat after a good result is. Budget first, "
                     "the cap after; stop with no_progress, the calls answered 'Not executed'. "
                     + lesson("07_no_progress"))
AGENT_ERROR = ("A ProviderError from model.complete, on any call and the closing call too, ends "
               "the run with status error, result.error set to it, no answer and no retry: the "
               "caller decides (retry_after says when). "
               + lesson("08_errors"))
AGENT_INTERRUPTED = ("Check cancel (an Event or a function) before every model call, the closing "
                     "call too, and again after a reply with calls, before the budget, the "
                     "detector and the cap: once set, stop with interrupted, the pending calls "
                     "answered 'Cancelled' (is_error=True). A cut reply or an answer is read "
                     "first. "
                     + lesson("05_stopping"))
AGENT_ERRORS = ("Every tool call gets a result, also an unknown tool, arguments that are not valid "
                "and a tool that raises: harness.tools.execute turns each into an error result "
                "(is_error=True) for the model to read. "
                + lesson("08_errors"))
AGENT_BATCHES = ("With parallel_tools=True, run each batch of parallel-safe calls together, an "
                 "exclusive call alone, the next batch only after the last one finished, and commit"
                 " the results in the order the model asked (not the order they finished). "
                 + lesson("09_parallel_tools"))
AGENT_WIRE = ("Append the model's message whole: its reasoning and extra (signatures, item ids) "
              "must go back unchanged, and every field of a tool result (is_error too) reaches the "
              "wire. "
              + lesson("10_four_providers"))
AGENT_SHAPE = ("Return a harness.trace.RunResult: status (an Exit), answer, messages (the whole "
               "history) and usage (the sum of every reply's usage). "
               + lesson("11_traces"))
AGENT_SUMMARISE = ("For each exit that occurs: its share of the runs (a fraction), and up to three "
                   "(tool, calls) pairs from the runs that ended that way, most calls first, ties "
                   "by name. "
                   + lesson("11_traces"))
