"""The hints a failed check of exercise 3, the no-progress detector (`call_key`, `NoProgress`) can give.

A hint names the bug in the student's words and ends with the lesson to reread (`lesson`); the
checks choose the hint, this module only holds the texts. Some carry `{placeholders}` that the
check fills in.
"""

from course.exercises.report import lesson

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
