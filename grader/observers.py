"""The two observers of the checks' calls into student code (`course.exercises.grader_hook`).

`Recorder` runs in a graded kernel (installed by `grader.kernel_log`): during a test cell, each
outermost observed call that involves the student's objects (the callables the cell names) runs
as usual, and its inputs (a digest), what it returned or raised, and what it left in the lists
and dicts it was given are kept as JSON (`grader.evidence.encode`). `Replayer` runs in the
grading process (`grader.verdict`), which never runs student code: the real checks make the
same calls on the same inputs, the reference runs for real, and each call that involves the
student gets the recorded data back (`grader.evidence.decode`) instead of running anything; a
call whose inputs differ from the record fails the test (`Mismatch`). Neither decides a score.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from course.exercises.ownwork import Watch
from grader.evidence import Malformed, Submitted, decode, encode


def digest_of(args: tuple, kwargs: dict, student: Any) -> str:
    """The inputs of an observed call, the student's objects left out (they differ by side)."""
    data = encode([[None if student(a) else a for a in args],
                   {k: None if student(v) else v for k, v in sorted(kwargs.items())}],
                  digest=True)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:32]


def _changed(args: tuple, kwargs: dict) -> dict[str, Any]:
    """The lists, dicts and sets an observed call was given, as they are after it."""
    return {str(k): encode(v) for k, v in [*enumerate(args), *kwargs.items()]
            if type(v) in (list, dict, set)}


class Recorder:
    """The observer in a graded kernel: `begin(names)` before a test cell, `end()` after it."""

    def __init__(self) -> None:
        self.students: list[Any] | None = None
        self.names: dict[str, Any] = {}
        self.calls: list[dict[str, Any]] = []
        self.depth = 0

    def begin(self, names: dict[str, Any]) -> None:
        self.students = [v for v in names.values() if callable(v)]
        self.names = {name: "$callable" if callable(v) else _safely(encode, v)
                      for name, v in names.items()}
        self.calls = []

    def end(self) -> dict[str, Any]:
        record = {"names": self.names, "calls": self.calls}
        self.students, self.names, self.calls = None, {}, []
        return record

    def _student(self, value: Any) -> bool:
        return isinstance(value, Watch) or any(value is s for s in self.students or ())

    def __call__(self, function: Any, args: tuple, kwargs: dict) -> Any:
        involved = self.students is not None and not self.depth and any(
            map(self._student, [*args, *kwargs.values()]))
        entry: dict[str, Any] = {"function": function.__qualname__} if involved else {}
        if involved:
            entry["inputs"] = digest_of(args, kwargs, self._student)
        self.depth += 1
        try:
            result = function(*args, **kwargs)
        except BaseException as exc:
            if involved:
                entry["raised"] = _safely(encode, exc)
            raise
        else:
            if involved:
                entry["returned"] = _safely(functools.partial(
                    encode, inputs=(*args, *kwargs.values())), result)
        finally:
            self.depth -= 1
            if involved:
                entry["after"] = _safely(_changed, args, kwargs)
                self.calls.append(entry)
        return result


def _safely(function: Any, *args: Any) -> Any:
    """Recording must never change what the notebook's check does: what cannot be encoded (a
    recursion too deep, a __repr__ that raises) is recorded as opaque."""
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001
        return {"$opaque": ["unrecorded", type(exc).__name__]}


class Mismatch(Exception):
    """The recording does not fit the checks' calls: the test fails with this as its note."""


class Replayer:
    """The observer in the grading process, for one test cell: its recorded calls, in order."""

    def __init__(self, calls: list[dict[str, Any]]):
        self.calls = list(calls)
        self.problem: str | None = None
        self.depth = 0

    @staticmethod
    def _student(value: Any) -> bool:
        return isinstance(value, Submitted | Watch)

    def __call__(self, function: Any, args: tuple, kwargs: dict) -> Any:
        if self.depth or not any(map(self._student, [*args, *kwargs.values()])):
            self.depth += 1
            try:
                return function(*args, **kwargs)  # the reference, or the checks' own helpers
            finally:
                self.depth -= 1
        if not self.calls:
            self._fail("the notebook's run stopped before the checks were done with the "
                       "student's code (the test did not run to its end there)")
        entry = self.calls.pop(0)
        if not isinstance(entry, dict) or not isinstance(entry.get("after") or {}, dict):
            self._fail("the record holds something the recorder does not write")
        if entry.get("function") != function.__qualname__ or \
                entry.get("inputs") != digest_of(args, kwargs, self._student):
            self._fail("the checks called the student's code on other inputs in the notebook "
                       "than here (the record does not fit this test)")
        inputs = (*args, *kwargs.values())
        try:
            for key, value in (entry.get("after") or {}).items():
                target = args[int(key)] if key.isdigit() and int(key) < len(args) \
                    else kwargs.get(key)
                _refill(target, decode(value))
            if "raised" in entry:
                error = decode(entry["raised"], inputs=inputs)
            else:
                return decode(entry.get("returned"), inputs=inputs)
        except Malformed as exc:
            self._fail(f"the record holds something the recorder does not write ({exc})")
        if not isinstance(error, Exception):  # interrupted, exited: the test never ended
            self._fail(f"the test was stopped in the notebook ({type(error).__name__})")
        raise error

    def _fail(self, problem: str) -> None:
        self.problem = problem
        raise Mismatch(problem)


def _refill(target: Any, value: Any) -> None:
    if type(target) is type(value) and isinstance(target, list | dict | set):
        target.clear()
        (target.extend if isinstance(target, list) else target.update)(value)

