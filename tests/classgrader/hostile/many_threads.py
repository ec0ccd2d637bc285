"""A cell that starts 1,200 threads that wait (small stacks, so the address space cap is not
what stops them), then lets them go. RLIMIT_NPROC does not bind root, whom the documented
container grades as; in the batch each kernel has a pids cgroup of its own (256 tasks), so
thread 250 or so fails with "can't start new thread", the cell lets the others go, and every
test runs."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "a pids cgroup per kernel (RLIMIT_NPROC where the grader is not root)"
EVIDENCE = ["threads: stopped before 256", "(can't start new thread)"]

THREADS = """import threading

threading.stack_size(1 << 16)
_release, _threads, _error = threading.Event(), [], None
try:
    for _ in range(1200):
        _threads.append(threading.Thread(target=_release.wait))
        _threads[-1].start()
except RuntimeError as _failed:
    _threads.pop()
    _error = str(_failed)
_release.set()
for _thread in _threads:
    _thread.join()
threading.stack_size(0)
print(f"threads: {len(_threads)} started ({_error})")
print("threads: stopped before 256" if len(_threads) < 256 else "threads: not stopped")
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", THREADS)
    return notebook
