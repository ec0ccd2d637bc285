"""Noise on stderr outside the test cells (prints, a warning, the raw file descriptor) and
inside the student's function while a check runs: no test loses a point for it."""

from classgrader.hostile import append, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "nothing to stop"

NOISE = """import os
import sys
import warnings

sys.stderr.write("noise at definition time\\n")
os.write(2, b"noise on the file descriptor\\n")
warnings.warn("a warning at definition time")
_quiet_call_key = call_key


def call_key(name, arguments):
    sys.stderr.write("noise while the check runs\\n")
    warnings.warn("a warning while the check runs")
    return _quiet_call_key(name, arguments)
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    append(notebook, "call_key_solution", NOISE)
    return notebook
