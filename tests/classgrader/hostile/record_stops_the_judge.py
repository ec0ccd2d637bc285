"""Records forged to stop the grading process: one whose replayed call "raised" SystemExit, one
nested past any parser's depth, and a line that is not JSON at all, with the kernel's recorder
switched off. The student's own tests score 0; every other student of the shard is graded as
ever (tests/classgrader/test_hostile.py checks the neighbours)."""

from classgrader.hostile import add_cell, reference

EXERCISE = "04_cost"
EXPECT: dict[str, float] | str = "zero"  # its recorder off: no true record of any test
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the grading process (a record stops only its own test)"

FORGE = '''import json
import os

from grader.kernel_log import digest

_exit = {"names": {"run_cost": "$callable"}, "calls": [
    {"function": "call", "inputs": "x", "raised": {"$exc": ["builtins:SystemExit", "0"]}}]}
_deep = "[" * 100_000 + "]" * 100_000
_lines = {"check.run_cost_prices_cached_input(run_cost)": json.dumps(_exit),
          "check.run_cost_prices_cache_writes(run_cost)": _deep,
          "check.run_cost_sums_every_call(run_cost)": "{not json"}
get_ipython().events.callbacks["post_run_cell"].clear()  # noqa: F821 (no true record)
for _fd in map(int, os.listdir("/proc/self/fd")):
    try:
        if os.readlink(f"/proc/self/fd/{_fd}").endswith(".log"):
            for _source, _text in _lines.items():
                os.write(_fd, f"evidence {digest(_source)} {_text}\\n".encode())
    except OSError:
        pass
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "run_cost_solution", FORGE)
    return notebook
