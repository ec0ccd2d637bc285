"""The IPython extension every graded kernel loads: it skips the cells that stopped this kernel
before, logs each cell it runs (so the grader knows which cell to leave out when a kernel dies),
and records what the student's code gave the checks in each test (`grader.observers`).

It guards nothing: the operating system contains the kernel (`grader.sandbox`), and the log is
data from inside the sandbox, trusted only to choose which of this submission's own cells to skip
on its next attempt, and as the submission's answers, which the grading process judges
(`grader.verdict`). The sandbox lets each kernel append to its own log file and no other.
"""

from __future__ import annotations

import json
import os
from typing import Any

ENV = "AGENT_LOOP_KIT_GRADING"
"""JSON settings from the grader: {"progress": the cell logs' folder, "skip": {name: [digest]},
"tests": [digest of each test cell's source]}."""


def settings() -> dict[str, Any]:
    """The grader's settings for this process (empty outside the grader)."""
    try:
        return json.loads(os.environ.get(ENV, "{}"))
    except ValueError:
        return {}


SKIPPED = ("The grader did not run this cell again: when it ran before, it stopped the process "
           "(it crashed or exited, or ignored the time limit) or ran past the time limit. The "
           "other cells were graded.")


def digest(source: str) -> str:
    r"""The short hash that names a cell in the progress log and in the skip lists. Comment and
    blank lines before the code do not count: nbgrader puts a deleted test cell back with a
    comment in front ("# This cell (id:...) was missing..."), and it is the same test.

    Example:
        >>> digest("x = 1\n") == digest("x = 1") == digest("# put back\n\nx = 1")
        True
    """
    import hashlib

    lines = source.rstrip("\n").split("\n")
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("#")):
        lines.pop(0)
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()[:16]


def self_check(source: str) -> bool:
    """Whether a cell only runs one of the checks a student runs on their own work,
    `check.check_NAME(...)` with names and constants for arguments. A graded kernel has no
    reference, so what it prints there means nothing: the kernel records what the student's
    code gave it, as for a test, and the grading process runs the same call on that record, so
    the graded notebook shows the check's true output.

    Example:
        >>> self_check("check.check_run_loop(run_loop)"), self_check("check.check_x(f())")
        (True, False)
    """
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return False
    call = tree.body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id == "check"
            and call.func.attr.startswith("check_")):
        return False
    arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
    return all(keyword.arg for keyword in call.keywords) and \
        all(isinstance(argument, ast.Name | ast.Constant) for argument in arguments)


def _record_tests(ipython: Any, tests: frozenset[str], log: int) -> None:
    """Around each test cell and each self-check cell (`self_check`), record the student's side
    of the checks' calls into the log, as `evidence DIGEST JSON` (the names the cell passes:
    the callables among them are the student's objects the recorder watches for)."""
    import ast
    import types

    import course.exercises.grader_hook
    from grader.observers import Recorder

    recorder, running = Recorder(), []
    course.exercises.grader_hook.observer = recorder
    course.exercises.grader_hook.recording = True
    write, dumps = os.write, json.dumps

    def before(info: Any) -> None:
        running[:] = []
        name = digest(info.raw_cell)
        if name not in tests and not self_check(info.raw_cell):
            return
        try:
            used = {node.id for node in ast.walk(ast.parse(info.raw_cell))
                    if isinstance(node, ast.Name)}
        except SyntaxError:
            used = set()
        names = {n: ipython.user_ns[n] for n in sorted(used) if n in ipython.user_ns
                 and not isinstance(ipython.user_ns[n], types.ModuleType)}
        recorder.begin(names)
        running.append(name)

    def after(result: Any) -> None:
        if running:
            data = f"evidence {running.pop()} {dumps(recorder.end())}\n".encode()
            while data:
                data = data[write(log, data):]

    ipython.events.register("pre_run_cell", before)
    ipython.events.register("post_run_cell", after)


def load_ipython_extension(ipython: Any) -> None:
    """IPython entry point: skip the cells the grader says stopped this kernel before, and log
    each cell to this kernel's file in the grader's progress folder."""
    config = settings()
    folder = os.getcwd().rstrip("/").split("/")
    name = f"{folder[-2]}.{folder[-1]}" if len(folder) > 2 else "kernel"
    skip = frozenset(config.get("skip", {}).get(name, ()))
    if skip:
        def skip_cells(lines: list[str]) -> list[str]:
            if digest("".join(lines)) in skip:
                return [f"raise RuntimeError({SKIPPED!r})\n"]
            return lines

        ipython.input_transformers_cleanup.insert(0, skip_cells)
    log = None
    if config.get("progress"):
        log = os.open(os.path.join(config["progress"], name + ".log"),
                      os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.write(log, f"kernel {os.getpid()}\n".encode())
        write, hashed = os.write, digest

        def before(info: Any) -> None:
            write(log, f"start {hashed(info.raw_cell)}\n".encode())

        def after(result: Any) -> None:
            write(log, f"done {hashed(result.info.raw_cell)}\n".encode())

        ipython.events.register("pre_run_cell", before)
        ipython.events.register("post_run_cell", after)
        if config.get("tests"):
            _record_tests(ipython, frozenset(config["tests"]), log)
    if log is not None:
        os.write(log, b"guarded\n")  # the merge checks that the extension loaded
