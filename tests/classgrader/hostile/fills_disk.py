"""A cell that writes a megabyte at a time, up to 4 GB, in its own folder and in /tmp. In the
batch both are small tmpfs of the kernel's own (and RLIMIT_FSIZE caps any one file): the writes
stop at "No space left on device", nothing reaches the disk, and every test runs. Not run under
plain nbgrader: it would fill the machine's disk."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN = None
STOPPED_BY = "size-capped tmpfs (and RLIMIT_FSIZE)"
EVIDENCE = ["own folder: No space left on device", "/tmp: No space left on device"]

FILL = '''import os

for _name, _folder in (("own folder", "."), ("/tmp", "/tmp")):
    _written = 0
    try:
        for _file in range(64):
            with open(os.path.join(_folder, f"fill{_file}"), "wb") as _handle:
                for _megabyte in range(64):
                    _handle.write(b"x" * (1 << 20))
                    _handle.flush()
                    _written += 1
        print(f"{_name}: wrote {_written} MB")
    except OSError as _error:
        print(f"{_name}: {_error.strerror} after {_written} MB")
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", FILL)
    return notebook
