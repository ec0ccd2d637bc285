"""The hints a failed check of exercise 2, early exit (`run_loop`) can give.

A hint names the bug in the student's words and ends with the lesson to reread (`lesson`); the
checks choose the hint, this module only holds the texts. Some carry `{placeholders}` that the
check fills in.
"""

from course.exercises.report import lesson

LOOP_FEED_BACK = ("Call {number} does not carry the result of the previous call. Append the "
                  "assistant turn and then each tool result before calling the model again, or "
                  "it will ask for the same thing again and again. "
                  + lesson("04_reading_the_input"))
LOOP_EXIT_EARLY = ("Your run ended right after the tool ran: a tool call is never the end of "
                   "the task. Call the model again with the result so it can answer. "
                   + lesson("03_the_loop"))
LOOP_BEFORE = ("A tool message comes before the assistant turn that asked for it: append the "
               "turn first, then its results. " + lesson("04_reading_the_input"))
LOOP_TRUNCATED = ("A reply cut at the output-token limit (stop_reason 'max_tokens') is not an "
                  "answer: return ('truncated', None) and make no further call. "
                  + lesson("05_stopping"))
LOOP_DONE = ("A reply with no tool calls and stop_reason 'end_turn' is the answer: return "
             "('done', its content). " + lesson("03_the_loop"))
LOOP_RAN_PENDING = ("At the cap the calls of the last reply stay pending: answer each with a "
                    "'Not executed' result and do not run it (a write such as save_goal would "
                    "happen without the model ever knowing). " + lesson("05_stopping"))
LOOP_OFF_BY_ONE = ("Off by one: max_turns={cap} allows {cap} model calls with tool_choice "
                   "'auto', and your loop made {made} before stopping. Count model calls. "
                   + lesson("05_stopping"))
LOOP_NO_CLOSING = ("At the cap the reference answers the pending calls with 'Not executed' "
                   "results and makes ONE closing call with tool_choice='none'; your loop made "
                   "no closing call, so the user gets no answer. " + lesson("05_stopping"))
LOOP_CLOSING_TOOLS = ("The closing call must use tool_choice='none' so the model can only write "
                      "text; with tools allowed it may ask for another tool and the run ends "
                      "with no answer. " + lesson("05_stopping"))
LOOP_PENDING = ("Every pending call needs a tool message whose content starts 'Not executed', "
                "with its own tool_call_id, in the order the model asked, before the closing "
                "call: a call left without a result makes the provider reject the request. "
                + lesson("05_stopping"))
LOOP_INSTRUCTION_IN_RESULT = ("The step-limit instruction is inside a tool result. A model "
                              "reads a tool result as data, not as an instruction: put "
                              "CLOSING_INSTRUCTION in the system message of the closing call, "
                              "and let the tool results only say 'Not executed'. "
                              + lesson("05_stopping"))
LOOP_INSTRUCTION_PLACE = ("The closing call's FIRST message must be the system message, with "
                          "CLOSING_INSTRUCTION added to the original system prompt (or a new "
                          "system message holding it, at the front, when there was none). "
                          + lesson("05_stopping"))
LOOP_APPEND_ONLY = ("The history is append-only: the closing call works on a COPY of the "
                    "transcript with the instruction in its system message; the messages you "
                    "were given must not change. " + lesson("05_stopping"))
LOOP_CLOSING_NO_ANSWER = ("The closing reply was cut at the output-token limit, or still asked for "
                          "a tool (a model can, even under tool_choice 'none'): it is not an "
                          "answer either. Return ('turn_cap', None) and run nothing. "
                          + lesson("05_stopping"))
LOOP_ONE_CLOSING = ("Make ONE closing call and return: run nothing after it, even when its reply "
                    "is cut off or asks for a tool (that reply is simply not an answer). "
                    + lesson("05_stopping"))
LOOP_CLOSING_COPY = ("The closing call carries the whole transcript: every message your previous "
                     "call sent, then the last reply (its pending results and the instruction "
                     "are checked apart). " + lesson("05_stopping"))
LOOP_SEPARATOR = ("Add the instruction at the end of the original system prompt, after a blank "
                  "line: original + '\\n\\n' + CLOSING_INSTRUCTION. " + lesson("05_stopping"))
LOOP_CALLER_LIST = ("The list you were given changed: the caller's list is left as it was, so "
                    "work on a copy (history = list(messages)) and append to that. "
                    + lesson("05_stopping"))
LOOP_RESULT = ("Return a tuple (status, answer): status 'done', 'truncated' or 'turn_cap'. "
               + lesson("11_traces"))
LOOP_GENERIC = "Compare the two transcripts above. " + lesson("03_the_loop")
LOOP_CRASH = ("Your run_loop raised an exception at this point of the run (shown above); fix it "
              "first. " + lesson("03_the_loop"))
