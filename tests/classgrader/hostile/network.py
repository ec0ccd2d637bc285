"""A cell that opens network connections: to a server on loopback (the test listens there), to
an outside address, and a URL. The kernel's network namespace has a loopback of its own (nothing
listens there), no route out and no name server; the tests still run."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "network namespace"
EVIDENCE = ["ConnectionRefusedError", "Network is unreachable"]

CONNECT = '''import socket
import urllib.request

for _attempt in (lambda: socket.create_connection(("127.0.0.1", {port}), timeout=3),
                 lambda: socket.create_connection(("198.51.100.7", 80), timeout=3),
                 lambda: urllib.request.urlopen("http://example.com/", timeout=3)):
    try:
        _attempt()
        print("connected")
    except Exception as _error:
        print(type(_error).__name__, _error)
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", CONNECT.format(port=context["port"]))
    return notebook
