"""A cell that tries to keep data in the one host folder a kernel may change, the folder of its
unix sockets (a file, a folder, a pipe, a link), then a cell that makes sockets there without end
(empty, but each an inode and a name on the host's disk). Landlock refuses all but sockets, the
watcher stops the kernel past 64 new entries, and the notebook is graded again without that cell.
Not run under plain nbgrader: it would use up the disk's inodes."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN = None
STOPPED_BY = "Landlock (only sockets in the sockets' folder), the watcher (64 new entries)"
EVIDENCE = ["file: PermissionError", "folder: PermissionError", "pipe: PermissionError",
            "link: PermissionError", "sockets made: 10"]

TRY = '''import os
import socket

from ipykernel.connect import get_connection_info

_folder = os.path.dirname(get_connection_info(unpack=True)["ip"])
for _what, _make in (("file", lambda path: open(path, "w").write("data" * 1000)),
                     ("folder", os.mkdir), ("pipe", os.mkfifo),
                     ("link", lambda path: os.symlink("/tmp", path))):
    try:
        _make(os.path.join(_folder, f"kept-{_what}"))
        print(f"{_what}: made")
    except OSError as _error:
        print(f"{_what}: {type(_error).__name__}")
for _index in range(10):
    _server = socket.socket(socket.AF_UNIX)
    _server.bind(os.path.join(_folder, f"mine-{_index}"))
    _server.close()
print("sockets made: 10")
'''

FILL = '''_made = 0
while True:
    _server = socket.socket(socket.AF_UNIX)
    _server.bind(os.path.join(_folder, f"fill-{_made}"))
    _server.close()
    _made += 1
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", FILL)
    add_cell(notebook, "call_key_tells_calls_apart", TRY)  # before FILL
    return notebook
