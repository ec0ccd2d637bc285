"""A wrong detector, the kernel's recorder switched off, and records forged into the kernel's own
cell log for each visible test: no call of the checks' at all, and a `check` of its own laid
over the test's. The grading process takes no name the gradebook binds from a record, and a
record that does not fit the checks' calls scores 0."""

from classgrader.hostile import add_cell, with_bug

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] | str = {"no_progress_flags_a_repeat": 0,
                                  "no_progress_allows_a_retry_after_error": 0,
                                  "no_progress_catches_cycles": 0,
                                  "no_progress_no_false_alarms": 0}
PLAIN: dict[str, float] | str = {"no_progress_catches_cycles": 0}
STOPPED_BY = "the grading process (a record is data; two records for one test: forged)"

FORGE = '''import json
import os

from grader.kernel_log import digest

_tests = {name: f"check.{name}(NoProgress)" for name in (
    "no_progress_flags_a_repeat", "no_progress_allows_a_retry_after_error",
    "no_progress_catches_cycles", "no_progress_no_false_alarms")}
_forged = {"names": {"NoProgress": "$callable", "check": {"$dc": ["course.compare:Outcome",
                                                                  {"value": True}]}},
           "calls": []}
get_ipython().events.callbacks["post_run_cell"].clear()  # noqa: F821 (no true record)
for _fd in map(int, os.listdir("/proc/self/fd")):
    try:
        if os.readlink(f"/proc/self/fd/{_fd}").endswith(".log"):
            for _source in _tests.values():
                os.write(_fd, f"evidence {digest(_source)} {json.dumps(_forged)}\\n".encode())
    except OSError:
        pass
'''


def build(student: str, context: dict) -> object:
    notebook = with_bug(EXERCISE, "detector_consecutive_only", student)
    add_cell(notebook, "no_progress_solution", FORGE)
    return notebook
