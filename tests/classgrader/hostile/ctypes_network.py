"""Network through the C library, where no Python hook looks: ctypes calls libc's socket() and
connect() to the test's server on loopback and to an outside address. Under plain nbgrader the
loopback connection goes through; in the batch the kernel's network namespace has only a loopback
of its own (nothing listens there) and no route out."""

from classgrader.hostile import add_cell, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "network namespace"
EVIDENCE = ["connect 127.0.0.1: -1 Connection refused",
            "connect 198.51.100.7: -1 Network is unreachable"]

CONNECT = '''import ctypes
import os
import socket
import struct

_libc = ctypes.CDLL(None, use_errno=True)
for _host, _port in (("127.0.0.1", {port}), ("198.51.100.7", 80)):
    _fd = _libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
    _address = struct.pack("=HH4s8x", socket.AF_INET, socket.htons(_port),
                           socket.inet_aton(_host))
    _result = _libc.connect(_fd, _address, len(_address))
    print(f"connect {{_host}}: {{_result}} "
          f"{{os.strerror(ctypes.get_errno()) if _result else 'connected'}}")
    _libc.close(_fd)
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    add_cell(notebook, "call_key_tells_calls_apart", CONNECT.format(port=context["port"]))
    return notebook
