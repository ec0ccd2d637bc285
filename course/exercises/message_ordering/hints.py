"""The hints a failed check of exercise 1, message ordering (`append_round`, `to_anthropic`) can give.

A hint names the bug in the student's words and ends with the lesson to reread (`lesson`); the
checks choose the hint, this module only holds the texts. Some carry `{placeholders}` that the
check fills in.
"""

from course.exercises.report import lesson

ORDER_BEFORE = ("A tool message comes before the assistant turn that asked for it. The turn "
                "goes first, then its results: a result with no request before it is rejected "
                "('tool message has no matching request'). " + lesson("04_reading_the_input"))
ORDER_MERGED = ("Several results were merged into one tool message. Each call needs its own "
                "tool message carrying its own tool_call_id, or the other calls stay "
                "unanswered. " + lesson("09_parallel_tools"))
ORDER_SKIPPED = ("A result was skipped: every call of the turn needs its own tool message, or "
                 "the next request is rejected. " + lesson("09_parallel_tools"))
ORDER_COMPLETION = ("The results are in the order they finished, not the order the model asked "
                    "for them. Follow turn['tool_calls']. " + lesson("09_parallel_tools"))
ORDER_NOT_MODEL_ORDER = ("The results must follow the order of turn['tool_calls'], the order "
                         "the model asked for them. " + lesson("09_parallel_tools"))
ORDER_WRONG_RESULT = ("A tool message carries another call's result: match each result to its "
                      "call by id (two calls to the same tool have different ids). "
                      + lesson("09_parallel_tools"))
ORDER_PREFIX = ("The earlier history comes first, unchanged: the transcript only grows. "
                + lesson("03_the_loop"))
ORDER_CALLER_LIST = ("Return a NEW list: the history you were given is left as it was (its owner "
                     "may still need it, or send it again). Build [*history, turn, ...] instead "
                     "of appending to it. " + lesson("03_the_loop"))
ORDER_RAISE = ("A call without a result, or a result without a call, must raise ValueError "
               "naming the id, before anything is appended: no provider accepts such a round. "
               + lesson("09_parallel_tools"))
ORDER_NAME_ID = ("Raise ValueError with a message that names the id (for example "
                 "f'call {call_id} has no result'), so whoever reads it can find the call. "
                 + lesson("09_parallel_tools"))
ORDER_SHAPE = ("Return history + [turn] + one {'role': 'tool', 'tool_call_id', 'content'} "
               "message per call. " + lesson("01_messages"))
ORDER_SYSTEM = ("Anthropic has no system role inside messages: the system prompt travels apart, "
                "as the first value you return (None when there is none). "
                + lesson("10_four_providers"))
ORDER_TOOL_USE = ("Each tool call becomes a block {'type': 'tool_use', 'id', 'name', 'input'} in "
                  "the assistant message, after its text block if it has text. "
                  + lesson("10_four_providers"))
ORDER_EMPTY_TEXT = ("An assistant turn without text gets no text block: the API rejects an empty "
                    "one ('text content blocks must be non-empty'). Start with the tool_use "
                    "blocks. " + lesson("10_four_providers"))
ORDER_INPUT_STRING = ("A tool_use input must be an object (a dict), not a JSON string: the API "
                      "answers 'Input should be a valid dictionary'. "
                      + lesson("10_four_providers"))
ORDER_SPLIT = ("The results of one round are split over several user messages. The API merges "
               "them, but Anthropic documents that split results teach the model to stop making "
               "parallel calls: put all of them as tool_result blocks in ONE user message that "
               "follows the turn. " + lesson("10_four_providers"))
ORDER_TOOL_ROLE = ("Anthropic has no tool role: results go back as tool_result blocks "
                   "{'type': 'tool_result', 'tool_use_id', 'content'} inside a user message. "
                   + lesson("10_four_providers"))
ORDER_RESULTS_FIRST = ("In the user message that carries results, the tool_result blocks come "
                       "first; text placed before them (in that message, or in a message between "
                       "the turn and its results) is a 400. " + lesson("10_four_providers"))
ORDER_USER = ("A user message is {'role': 'user', 'content': ...}; the results of a round are "
              "tool_result blocks with the tool_use_id of their call. "
              + lesson("10_four_providers"))
