"""The hints a failed check of exercise 4, cost arithmetic and usage blocks can give.

A hint names the bug in the student's words and ends with the lesson to reread (`lesson`); the
checks choose the hint, this module only holds the texts. Some carry `{placeholders}` that the
check fills in.
"""

from course.exercises.report import lesson

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
