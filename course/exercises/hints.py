"""Every hint a failed check can give, in one place, so that they read as one voice.

A hint names the bug in the student's words and ends with the lesson to reread (`lesson`). The
checks choose the hint; this module only holds the texts. Some carry `{placeholders}` that the
check fills in.
"""

from course.exercises.report import lesson

# Exercise 1, message ordering (append_round, to_anthropic).

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
                       "first; text placed before them is a 400. " + lesson("10_four_providers"))
ORDER_USER = ("A user message is {'role': 'user', 'content': ...}; the results of a round are "
              "tool_result blocks with the tool_use_id of their call. "
              + lesson("10_four_providers"))


# Exercise 2, early exit (run_loop).

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


# Exercise 3, the no-progress detector (call_key, NoProgress).

PROGRESS_ORDER = ("Key order must not change the key: serialise the arguments with their keys "
                  "sorted (json.dumps(..., sort_keys=True)), nested objects included. "
                  + lesson("07_no_progress"))
PROGRESS_SPACING = ("Arguments may arrive as a JSON string with any spacing: parse a string with "
                    "json.loads first, then write it in one canonical form. "
                    + lesson("07_no_progress"))
PROGRESS_APART = ("Different requests need different keys: the key must include the tool name and "
                  "every argument with its type (123 and '123' are different arguments). "
                  + lesson("07_no_progress"))
PROGRESS_STR = "Return a string from call_key. " + lesson("07_no_progress")
PROGRESS_REPEAT = ("The same call (same name, same arguments in any key order) twice in a row is "
                   "the doom loop: observe must return True on the second one. "
                   + lesson("07_no_progress"))
PROGRESS_THIRD = ("Your detector waits for a third identical call; the second one already shows no "
                  "progress (the same request and the same result). " + lesson("07_no_progress"))
PROGRESS_RETRY = ("A repeat right after an ERROR is a retry, not a doom loop: when "
                  "previous_was_error=True the repeat must not fire (a retry after a timeout is "
                  "what a well-behaved model does). " + lesson("07_no_progress"))
PROGRESS_CYCLE = ("A cycle A, B, A, B, A, B (or A, B, C, A, B, C) never repeats a call twice in "
                  "a row, so a consecutive-only check misses it: keep a window of the last 6 keys "
                  "and fire when a cycle of length 2 or 3 fills it. " + lesson("07_no_progress"))
PROGRESS_DISTINCT = ("A cycle is made of DISTINCT calls (A, B or A, B, C repeated). A retry after "
                     "an error puts the same call twice in the window, and that pattern is not a "
                     "cycle: check that the first calls of the period differ. "
                     + lesson("07_no_progress"))
PROGRESS_EARLY = ("Your detector fired before the evidence was there: a cycle counts only once it "
                  "fills the whole window of 6, and different calls are progress. "
                  + lesson("07_no_progress"))
PROGRESS_OBSERVE = ("NoProgress() must build with no arguments and observe(name, arguments, *, "
                    "previous_was_error=False) must return True or False. "
                    + lesson("07_no_progress"))


# Exercise 4, cost arithmetic and usage blocks.

COST_FORMULA = ("Turn n sends the prefix plus per_turn x (n - 1) tokens, so N turns send "
                "N x prefix + per_turn x N(N - 1)/2. " + lesson("06_cost"))
COST_OFF_BY_ONE = ("Off by one in the growth term: the first turn sends only the prefix, so the "
                   "sum is per_turn x N(N - 1)/2, not N(N + 1)/2. " + lesson("06_cost"))
COST_INTEGER = "Token counts are whole numbers: return an int. " + lesson("06_cost")
COST_STRICT = ("The budget fires on the first turn whose cumulative input is strictly GREATER "
               "than the budget: a run exactly at the budget has not exceeded it (compare with "
               ">, not >=). " + lesson("06_cost"))
COST_LAST_UNDER = ("That is the last turn still within the budget; the question is the first "
                   "turn over it. " + lesson("06_cost"))
COST_BUDGET = ("Add turns until the cumulative input (not the input of one turn) exceeds the "
               "budget. " + lesson("06_cost"))
COST_CACHED_FULL = ("Cached tokens were priced as normal input: they are part of input_tokens "
                    "but cost the cached_input price. Price input_tokens - cached_input_tokens "
                    "at the input price and the cached ones at the cached price. "
                    + lesson("06_cost"))
COST_CACHED_TWICE = ("Cached tokens were counted twice: input_tokens already includes them. "
                     + lesson("06_cost"))
COST_WRITES_FULL = ("Cache writes were priced as normal input: they are part of input_tokens "
                    "but cost the cache_write price (Anthropic charges 1.25x input for them). "
                    "Price input_tokens - cached_input_tokens - cache_write_tokens at the input "
                    "price. " + lesson("06_cost"))
COST_WRITES_TWICE = ("Cache writes were counted twice: input_tokens already includes them. "
                     + lesson("06_cost"))
COST_MILLION = "Prices are in dollars per MILLION tokens: divide by 1,000,000. " + lesson("06_cost")
COST_SUM = "The cost of a run is the sum over every call's usage. " + lesson("06_cost")
COST_EMPTY = ("A run with no calls costs nothing: return 0, a number, for an empty list of "
              "usages. " + lesson("06_cost"))
COST_UNCHANGED = ("run_cost changed the usages or prices it was given: compute from them and "
                  "leave them as they were (the caller still needs them). " + lesson("06_cost"))
COST_PRICING = ("The cost is (input - cached - written) x input price + cached x cached price + "
                "written x cache_write price + output x output price, over one million, summed "
                "over the calls. " + lesson("06_cost"))
COST_OTHER_PRICES = ("That is this call priced at the other provider's prices: price each reply "
                     "at its own model's prices. " + lesson("06_cost"))
COST_ANTHROPIC_INPUT = ("Anthropic's input_tokens does NOT include cache reads: the neutral "
                        "input is input_tokens + cache_read_input_tokens + "
                        "cache_creation_input_tokens, and the cached part is "
                        "cache_read_input_tokens. " + lesson("10_four_providers"))
COST_ANTHROPIC_WRITES = ("Anthropic's cache_creation_input_tokens are cache writes: they belong "
                         "in the neutral input_tokens and, on their own, in cache_write_tokens. "
                         + lesson("06_cost"))
COST_OPENAI_WRITES = ("OpenAI's Chat usage reports no cache writes: its cache_write_tokens are 0 "
                      "(its writes cost nothing extra). " + lesson("06_cost"))
COST_OPENAI_INPUT = ("OpenAI's prompt_tokens already INCLUDE the cached_tokens of "
                     "prompt_tokens_details: the neutral input is prompt_tokens, unchanged. "
                     + lesson("10_four_providers"))
COST_OUTPUT = ("Output is completion_tokens (OpenAI) or output_tokens (Anthropic); reasoning "
               "tokens are already inside it. " + lesson("06_cost"))
COST_ANSWERS = ("Fill `answers` with the four keys anthropic_usage, anthropic_cost, "
                "openai_usage and openai_cost; each usage is a dict with input_tokens, "
                "output_tokens, cached_input_tokens and cache_write_tokens. " + lesson("06_cost"))


# Exercise 5, the capstone (run_agent, summarize_exits).

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
AGENT_NO_PROGRESS = ("Before running a reply's calls, observe each one in a NoProgressDetector (its"
                     " raw_arguments when it has them), with previous_was_error when that call's "
                     "last result was an error: a retry is not a doom loop. Stop with no_progress, "
                     "the calls answered 'Not executed'. "
                     + lesson("07_no_progress"))
AGENT_ERROR = ("A ProviderError from model.complete ends the run with status error, no answer and "
               "no retry: the caller decides (retry_after says when). "
               + lesson("08_errors"))
AGENT_INTERRUPTED = ("Check cancel (an Event or a function) before every model call and again after"
                     " a reply, before running its calls: once set, stop with interrupted, the "
                     "pending calls answered 'Cancelled'. "
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
