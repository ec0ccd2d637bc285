"""What student code did, as data: the encoding of the record a graded kernel keeps of each
call the checks make into student code (`grader.observers`), and its decoding where it is judged.

The record comes from a kernel the student controls, so it is data and nothing more: JSON that
decodes to plain values (numbers, strings, lists, tuples, dicts, sets), to values of the fixed
set of the kit's types a check compares (`RECORDABLE`: messages, runs, outcomes; built through
their own constructors, validated where they validate), to exceptions of the built-in or the
kit's kinds (or a fresh class that only carries the name), to the call's own inputs, or to
`Opaque` stand-ins that run nothing. No class is looked up by a name the record gives, nothing
is imported, no object is built without its constructor, and a recorded exception is never
raised as anything but an ordinary Exception. A call whose inputs differ from the recording
fails the test (`Mismatch`). This module does not decide scores.
"""

from __future__ import annotations

import builtins
import dataclasses
import enum
import functools
import sys
import types
from typing import Any

DEPTH = 60  # nesting deeper than this is recorded as an opaque value

RECORDABLE = frozenset({
    "course.compare:Outcome", "course.compare:_TimeUp", "course.compare:Runaway",
    "course.exercises.report:CheckFailed", "course.exercises.report:KitError",
    "course.exercises.ownwork:ReferenceCalled", "course.exercises.dictmodel:Event",
    "course.exercises.early_exit.runs:Run", "course.exercises.capstone.replays:Played",
    "harness.trace:RunResult", "harness.trace:CallRecord", "harness.trace:Exit",
    "harness.messages:StopReason", "harness.messages:SystemMessage",
    "harness.messages:UserMessage", "harness.messages:AssistantMessage",
    "harness.messages:ToolMessage", "harness.messages:ToolCall", "harness.messages:Reasoning",
    "harness.messages:Usage", "harness.messages:Reply", "harness.messages:ToolSpec",
    "harness.errors:HarnessError", "harness.errors:ProviderError",
    "offline.errors:NetworkBlocked", "offline.errors:ScriptError",
    "offline.errors:ReplayMismatch", "offline.errors:CassetteError",
})
"""The kit's types a record may hold, as `module:qualname`: what the checks compare, and the
errors they tell apart. Any other class is recorded as opaque."""
FIELDS = {"course.exercises.capstone.replays:Batches": ("log", "alone")}
"""Objects recorded by some of their attributes only (they hold locks and tools), and decoded as
a plain namespace of those."""
_BUILTIN_ERRORS = {name: kind for name, kind in vars(builtins).items()
                   if isinstance(kind, type) and issubclass(kind, BaseException)}


class Opaque:
    """A value that is not plain data (a student's own object), as its type and repr: equal only
    to the same, and nothing to run."""

    def __init__(self, kind: str, text: str):
        self.kind, self.text = str(kind), str(text)

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


class Malformed(ValueError):
    """A record that is not the recorder's data: the test fails with this as its note."""


def _path(kind: Any) -> str:
    return f"{kind.__module__}:{kind.__qualname__}"


def encode(value: Any, *, digest: bool = False, inputs: tuple[Any, ...] = (),
           depth: int = 0) -> Any:
    """`value` as JSON-able data, tagged so that `decode` gives the same types back. `digest`:
    for comparing inputs (opaque objects and exceptions by type only: no address in a repr).
    `inputs`: the call's own arguments, recorded by position when they come back."""
    again = functools.partial(encode, digest=digest, inputs=inputs, depth=depth + 1)
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if depth > DEPTH:
        return {"$opaque": ["deep", "..."]}
    for index, given in enumerate(inputs):
        if not isinstance(value, list | dict | set) and (value is given or (
                dataclasses.is_dataclass(value) and type(value) is type(given)
                and _equal(value, given))):
            return {"$input": index}
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
    path = _path(kind)
    if path in FIELDS:
        return {"$fields": [path, {name: again(getattr(value, name, None))
                                   for name in FIELDS[path]}]}
    if path in RECORDABLE and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"$dc": [path, {f.name: again(getattr(value, f.name))
                               for f in dataclasses.fields(value)}]}
    if path in RECORDABLE and hasattr(value, "model_dump"):
        return {"$model": [path, again(value.model_dump())]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and digest:
        return {"$dc": [path, {f.name: again(getattr(value, f.name))
                               for f in dataclasses.fields(value)}]}
    if callable(value) and hasattr(value, "__qualname__"):
        return {"$opaque": ["function", f"{value.__module__}.{value.__qualname__}"]}
    return {"$opaque": [kind.__qualname__, "" if digest else _text(value, repr)]}


def _equal(left: Any, right: Any) -> bool:
    try:
        return bool(left == right)
    except Exception:  # noqa: BLE001 (a comparison that fails is no match)
        return False


def _text(value: Any, show: Any = str) -> str:
    try:
        return str(show(value))[:2000]
    except BaseException:  # noqa: BLE001 (a __str__ that raises is the student's)
        return f"<{type(value).__name__}>"


def decode(data: Any, *, inputs: tuple[Any, ...] = (), plain: bool = False,
           depth: int = 0) -> Any:
    """The value `encode` recorded (see the module's docstring for what it can be). `plain`:
    data only, every kit type and input an `Opaque` (for the names a test cell passes)."""
    if depth > DEPTH + 2:
        raise Malformed("nested deeper than the recorder writes")
    again = functools.partial(decode, inputs=inputs, plain=plain, depth=depth + 1)
    if isinstance(data, list):
        return [again(item) for item in data]
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if not isinstance(data, dict):
        raise Malformed(f"not JSON data: {type(data).__name__}")
    if len(data) == 1 and next(iter(data)).startswith("$"):
        tag, body = next(iter(data.items()))
        return _tagged(tag, body, again, inputs=inputs, plain=plain)
    return {k: again(v) for k, v in data.items()}


def _tagged(tag: str, body: Any, again: Any, *, inputs: tuple[Any, ...], plain: bool) -> Any:
    if tag == "$tuple" and isinstance(body, list):
        return tuple(again(item) for item in body)
    if tag == "$dict" and isinstance(body, list):
        return {_hashable(again(pair[0])): again(pair[1]) for pair in body
                if isinstance(pair, list) and len(pair) == 2}
    if tag in ("$set", "$frozenset") and isinstance(body, list):
        return (set if tag == "$set" else frozenset)(_hashable(again(item)) for item in body)
    if tag == "$opaque" and isinstance(body, list) and len(body) == 2:
        return Opaque(*body)
    if not isinstance(body, list) or len(body) != 2 or not isinstance(body[0], str):
        if tag == "$input" and isinstance(body, int) and not plain and 0 <= body < len(inputs):
            return inputs[body]
        raise Malformed(f"a {tag} the recorder does not write")
    path, fields = body
    if plain:
        return Opaque(path, repr(fields)[:200])
    if tag == "$exc":
        return _exception(path, str(fields))
    kind = _recordable(path)
    try:
        if tag == "$enum" and kind is not None and issubclass(kind, enum.Enum):
            return kind(again(fields))
        if tag == "$fields" and path in FIELDS and isinstance(fields, dict):
            return types.SimpleNamespace(**{name: again(fields.get(name))
                                            for name in FIELDS[path]})
        if tag == "$dc" and kind is not None and isinstance(fields, dict):
            return kind(**{str(k): again(v) for k, v in fields.items()})
        if tag == "$model" and kind is not None and hasattr(kind, "model_validate"):
            return kind.model_validate(again(fields))
    except Exception:  # noqa: BLE001 (not these fields: a stand-in, as for a student's object)
        pass
    return Opaque(path, repr(fields)[:200])


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return Opaque(type(value).__name__, repr(value)[:200])
    return value


def _recordable(path: str) -> type | None:
    """One of `RECORDABLE`, when its module is already imported; never imports."""
    if path not in RECORDABLE:
        return None
    module, _, qualname = path.partition(":")
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found if isinstance(found, type) else None


def _exception(path: str, text: str) -> BaseException:
    """The recorded exception as an instance of its own kind when that is a built-in or one of
    the kit's recordable ones, else of a fresh Exception class that only carries its name. Its
    constructor never runs: the message is all it holds."""
    module, _, name = path.partition(":")
    kind = _recordable(path) or (_BUILTIN_ERRORS.get(name) if module == "builtins" else None)
    if kind is None or not issubclass(kind, BaseException):
        kind = _stand_in(name.rpartition(".")[2] or "Exception")
    else:
        kind = _as_recorded(kind)
    error = kind.__new__(kind)
    error.args = (text,)
    return error


@functools.cache
def _as_recorded(kind: type) -> type:
    """`kind` (so `except kind` and isinstance still hold), shown by its recorded message as it
    was (a KeyError's own str would quote it again)."""
    return type(kind.__name__, (kind,), {"__str__": lambda self: self.args[0] if self.args
                                         else "", "__module__": kind.__module__})


@functools.cache
def _stand_in(name: str) -> type:
    safe = name if name.isidentifier() else "Exception"
    return type(safe, (Exception,), {"__str__": lambda self: self.args[0] if self.args else ""})
