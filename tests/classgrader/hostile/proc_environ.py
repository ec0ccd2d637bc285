"""Other processes through /proc: the cell reads every /proc/PID/environ and cmdline it can (the
other kernels, nbgrader, the grader, whose environments hold the instructor's variables) and
prints whether the test's secret variable is in any of them. Under plain nbgrader the kernel's
own environment has it; in the batch the kernel's pid namespace shows only itself and bwrap's
reaper, which starts with an empty environment."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "pid namespace, and an environment of listed variables only"
EVIDENCE = ["processes [1, 2]; secret seen: False"]

LOOK = '''import os

_seen, _found = [], False
for _pid in sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int):
    _seen.append(int(_pid))
    for _what in ("environ", "cmdline"):
        try:
            with open(f"/proc/{{_pid}}/{{_what}}", "rb") as _handle:
                _found = _found or {secret!r}.encode() in _handle.read()
        except OSError:
            pass
print(f"processes {{_seen if len(_seen) < 5 else 'many'}}; secret seen: {{_found}}")
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", LOOK.format(secret=context["secret"]))
    return notebook
