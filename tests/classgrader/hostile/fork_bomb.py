"""A fork bomb, from Python and from the C library: every child forks again, a thousand times.
In the batch the kernel's seccomp filter refuses any new process (threads are allowed); the
cell fails and every test runs. Not run under plain nbgrader: it would take the machine down."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN = None
STOPPED_BY = "seccomp (no fork, vfork or clone without CLONE_THREAD)"
EVIDENCE = ["os.fork: PermissionError", "libc fork: -1 Operation not permitted",
            "subprocess: PermissionError"]

BOMB = '''import ctypes
import os
import subprocess
import time

try:
    for _ in range(1000):
        if os.fork() == 0:  # the child: forks on, then lingers
            for _ in range(1000):
                os.fork()
            time.sleep(600)
            os._exit(0)
    print("os.fork: forked")
except OSError as _error:
    print(f"os.fork: {type(_error).__name__}")
_libc = ctypes.CDLL(None, use_errno=True)
_result = _libc.fork()
if _result == 0:
    time.sleep(600)
    os._exit(0)
print(f"libc fork: {_result} {os.strerror(ctypes.get_errno()) if _result < 0 else ''}")
try:
    subprocess.run(["sleep", "600"])
except OSError as _error:
    print(f"subprocess: {type(_error).__name__}")
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", BOMB)
    return notebook
