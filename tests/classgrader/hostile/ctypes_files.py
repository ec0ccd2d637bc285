"""Files by absolute path through the C library: ctypes calls libc's open() on the course's
gradebook and every other student's submitted and autograded notebook (reading, then appending),
next to this kernel's folder in the same shard and in the course. Under
plain nbgrader all of it is there; in the batch the kernel's mount namespace holds none of it."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "mount namespace (only the system, Python, the checks and its own copy)"
EVIDENCE = ["read 0 of", "wrote 0 of"]

OPEN = '''import ctypes
import os

_libc = ctypes.CDLL(None, use_errno=True)
_shard = os.path.abspath(os.path.join(os.getcwd(), "..", "..", ".."))
_paths = [os.path.join(_root, "gradebook.db") for _root in (_shard, {course!r})]
for _root in (_shard, {course!r}):
    for _folder in ("submitted", "autograded"):
        for _other in {students!r}:
            _paths.append(os.path.join(_root, _folder, _other, "03_no_progress",
                                       "03_no_progress.ipynb"))
for _what, _flags in (("read", os.O_RDONLY), ("wrote", os.O_WRONLY | os.O_APPEND)):
    _opened, _errors = 0, set()
    for _path in _paths:
        _fd = _libc.open(_path.encode(), _flags)
        if _fd >= 0:
            _opened += 1
            _libc.close(_fd)
        else:
            _errors.add(os.strerror(ctypes.get_errno()))
    print(f"{{_what}} {{_opened}} of {{len(_paths)}}; errors: {{sorted(_errors)}}")
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    others = sorted(name for name in context["students"] if name != student)
    add_cell(notebook, "call_key_tells_calls_apart",
             OPEN.format(course=context["course"], students=others))
    return notebook
