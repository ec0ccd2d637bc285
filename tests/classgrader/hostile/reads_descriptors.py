"""A cell that reads every file it can reach through its open descriptors and its parent's
(/proc/self/fd, /proc/PARENT/fd): a kernel started with the shard's nbgrader log as its stdout
and stderr could read there which students were graded before it, and when. In the batch the
launcher hands it /dev/null and a file of its own, and its parent is bwrap's reaper, whose
descriptors Landlock keeps it out of. Under plain nbgrader its parent is nbgrader, with the
gradebook open."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the launcher (stdio of its own, nothing else inherited), Landlock (the reaper)"
EVIDENCE = ["other students seen: False", "nbgrader's log seen: False"]

READ = '''import os
import stat

_text, _files = "", set()
for _folder in ("/proc/self/fd", f"/proc/{{os.getppid()}}/fd"):
    try:
        _names = os.listdir(_folder)
    except OSError as _error:
        print(f"{{_folder}}: {{type(_error).__name__}}")
        continue
    for _name in _names:
        _path = f"{{_folder}}/{{_name}}"
        try:
            if stat.S_ISREG(os.stat(_path).st_mode):
                _files.add(os.path.basename(os.readlink(_path)))
                with open(_path, errors="replace") as _handle:
                    _text += _handle.read(1 << 20)  # the gradebook, under plain nbgrader
        except OSError:
            pass
print("files through descriptors:", sorted(_files))
print("other students seen:", any(_other in _text for _other in {others!r}))
print("nbgrader's log seen:", "AutogradeApp" in _text)
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    # ids with an underscore only: "network" or "alice" could be any word in its own files
    others = sorted(other for other in set(context["students"]) - {student} if "_" in other)
    add_cell(notebook, "call_key_tells_calls_apart", READ.format(others=others))
    return notebook
