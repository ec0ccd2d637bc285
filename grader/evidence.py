"""What student code did, as data: recorded in the graded notebook, handed back to the checks.

The checks run and judge student code only through the functions marked
`course.exercises.grader_hook.observed` (`call`, `runs.record`, `ownwork.refuse_reference`,
`refuse_calls` and the capstone's `_play`). Under the class grader each of the two sides sets an
observer there:

- in a graded kernel, a `Recorder` (installed by `grader.kernel_log`): during a test cell, each
  outermost observed call that involves the student's objects (the callables the cell names) or a
  watch over them runs as usual, and its inputs (a digest), what it returned or raised, and what
  it left in the lists and dicts it was given are kept as JSON;
- in the grading process (`grader.verdict`), which never runs student code, a `Replayer`: the
  real checks make the same calls on the same inputs, the reference runs for real, and each call
  that involves the student gets the recorded data back instead of running anything.

The data is the submission's answer and is trusted for nothing else: it decodes to plain values,
harness's own dataclasses, pydantic models, enums, exceptions and objects (classes already
imported, never imported by name; no __init__ run), or opaque stand-ins that run nothing; a call
whose inputs differ from the recording fails the test. This module does not decide scores.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import sys
from typing import Any

from course.exercises.ownwork import Watch, from_kit

DEPTH = 60  # nesting deeper than this is recorded as an opaque value


class Opaque:
    """A value that is not plain data (a student's own object), as its type and repr: equal only
    to the same, and nothing to run."""

    def __init__(self, kind: str, text: str):
        self.kind, self.text = kind, text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and (self.kind, self.text) == (other.kind, other.text)

    def __hash__(self) -> int:
        return hash((self.kind, self.text))

    def __repr__(self) -> str:
        return self.text


class Submitted:
    """Stands for a student's function or class in the grading process (it cannot be called)."""

    def __init__(self, name: str):
        self.__name__ = self.__qualname__ = name


def _path(kind: Any) -> str:
    return f"{kind.__module__}:{kind.__qualname__}"


def encode(value: Any, *, digest: bool = False, depth: int = 0) -> Any:
    """`value` as JSON-able data, tagged so that `decode` gives the same types back. `digest`:
    for comparing inputs (opaque objects and exceptions by type only: no address in a repr)."""
    again = functools.partial(encode, digest=digest, depth=depth + 1)
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if depth > DEPTH:
        return {"$opaque": ["deep", "..."]}
    if isinstance(value, enum.Enum):
        return {"$enum": [_path(kind), again(value.value)]}
    for plain in (bool, int, float, str):  # a subclass: its plain value
        if isinstance(value, plain):
            return plain(value)
    if isinstance(value, list):
        return [again(item) for item in list.__iter__(value)]
    if isinstance(value, tuple):
        return {"$tuple": [again(item) for item in tuple.__iter__(value)]}
    if isinstance(value, dict):
        items = list(dict.items(value))
        if all(type(k) is str and not k.startswith("$") for k, _ in items):
            return {k: again(v) for k, v in items}
        return {"$dict": [[again(k), again(v)] for k, v in items]}
    if isinstance(value, set | frozenset):
        return {"$frozenset" if isinstance(value, frozenset) else "$set": [again(item)
                                                                          for item in value]}
    if isinstance(value, BaseException):
        return {"$exc": [_path(kind), "" if digest else _text(value)]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"$dc": [_path(kind), {f.name: again(getattr(value, f.name))
                                      for f in dataclasses.fields(value)}]}
    if callable(value) and hasattr(value, "__qualname__"):
        return {"$opaque": ["function", f"{value.__module__}.{value.__qualname__}"]}
    if _harness_class(_path(kind)) is kind:  # harness's own pydantic models and objects
        if hasattr(value, "model_dump"):
            return {"$model": [_path(kind), again(value.model_dump())]}
        if hasattr(value, "__dict__"):
            return {"$obj": [_path(kind), again(dict(vars(value)))]}
    return {"$opaque": [kind.__qualname__, "" if digest else _text(value, repr)]}


def _text(value: Any, show: Any = str) -> str:
    try:
        return str(show(value))[:2000]
    except BaseException:  # noqa: BLE001 (a __str__ that raises is the student's)
        return f"<{type(value).__name__}>"


def decode(data: Any) -> Any:
    """The value `encode` recorded (see the module's docstring for what it can be)."""
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return data
    if len(data) == 1:
        tag, body = next(iter(data.items()))
        if tag == "$tuple":
            return tuple(decode(item) for item in body)
        if tag == "$dict":
            return {decode(k): decode(v) for k, v in body}
        if tag in ("$set", "$frozenset"):
            return (set if tag == "$set" else frozenset)(decode(item) for item in body)
        if tag == "$exc":
            error = _exception_class(body[0]).__new__(_exception_class(body[0]))
            error.args = (body[1],)
            return error
        if tag == "$enum":
            kind = _harness_class(body[0])
            return kind(decode(body[1])) if kind and issubclass(kind, enum.Enum) \
                else Opaque(body[0], repr(body[1]))
        if tag == "$dc":
            kind = _harness_class(body[0])
            fields = {k: decode(v) for k, v in body[1].items()}
            try:
                return kind(**fields)  # type: ignore[misc]
            except Exception:  # noqa: BLE001 (not one of harness's dataclasses, or other fields)
                return Opaque(body[0], repr(fields))
        if tag in ("$model", "$obj"):
            kind = _harness_class(body[0])
            try:  # a model is validated again; an object gets its state back, no __init__ run
                if tag == "$model":
                    return kind.model_validate(decode(body[1]))  # type: ignore[union-attr]
                found = object.__new__(kind)  # type: ignore[arg-type]
                found.__dict__.update(decode(body[1]))
                return found
            except Exception:  # noqa: BLE001 (not one of harness's, or not this shape)
                return Opaque(str(body[0]), repr(body[1]))
        if tag == "$opaque":
            return Opaque(*body)
    return {k: decode(v) for k, v in data.items()}


def _harness_class(path: str) -> type | None:
    """A class of harness's that is already imported, named `module:qualname`; never imports."""
    module, _, qualname = str(path).partition(":")
    if module != "builtins" and not from_kit(module):
        return None
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None) if found is not None and part.isidentifier() else None
    return found if isinstance(found, type) else None


@functools.cache
def _exception_class(path: str) -> type:
    """An exception class with the recorded one's name, standing for it: harness's or a
    built-in one when it is one (so `except CheckFailed` still works), else an Exception."""
    base = _harness_class(path)
    if base is None or not issubclass(base, BaseException):
        base = Exception
    name = path.rpartition(".")[2].rpartition(":")[2] or "Exception"
    return type(name, (base,), {"__str__": lambda self: self.args[0] if self.args else "",
                                "__module__": base.__module__})


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
                entry["returned"] = _safely(encode, result)
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
            self._fail(f"the notebook's run stopped before {function.__qualname__}")
        entry = self.calls.pop(0)
        if entry.get("function") != function.__qualname__ or \
                entry.get("inputs") != digest_of(args, kwargs, self._student):
            self._fail(f"the notebook's run called {entry.get('function')} on other inputs")
        for key, value in (entry.get("after") or {}).items():
            target = args[int(key)] if key.isdigit() and int(key) < len(args) \
                else kwargs.get(key)
            _refill(target, decode(value))
        if "raised" in entry:
            error = decode(entry["raised"])
            if not isinstance(error, Exception):  # interrupted, exited: the test never ended
                self._fail(f"the test was stopped in the notebook ({type(error).__name__})")
            raise error
        return decode(entry.get("returned"))

    def _fail(self, problem: str) -> None:
        self.problem = problem
        raise Mismatch(problem)


def _refill(target: Any, value: Any) -> None:
    if type(target) is type(value) and isinstance(target, list | dict | set):
        target.clear()
        (target.extend if isinstance(target, list) else target.update)(value)

