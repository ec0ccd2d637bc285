"""Tell a student at once when their function hands the exercise back to the reference.

The reference lives in the kit's packages the student imports (`KIT_PACKAGES`), so two checks run
on every graded function: an identity check (the object, once unwrapped, comes from a kit module
or shares a reference function's code: a plain `from harness.cost import cumulative_input` is
caught here) and a watch while the student's code runs (a profile hook records every call into a
reference module, however the reference was reached; for code that runs long, such as the
capstone's replays, a `Tripwire` swaps the reference functions for one that refuses instead, at no
cost per call). Either one fails the check with a message that says why. These run where the
student works (a lesson, the formative cells, `nbgrader validate`), to say so early. They are no
defence under the class grader, where the student's kernel could switch them off: there the
graded kernel has no reference at all (`grader.withhold`) and the grade is decided outside it.
This module does not judge whether the student's own code is right.
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from course.compare import TIMEOUTS
from course.exercises import grader_hook
from course.exercises.report import CheckFailed

_codes_cache: dict[str, dict[types.CodeType, str]] = {}


def _codes_of(module_name: str) -> dict[types.CodeType, str]:
    """Every code object defined in a module (functions, methods, nested functions)."""
    if module_name not in _codes_cache:
        module = importlib.import_module(module_name)
        found: dict[types.CodeType, str] = {}
        for value in vars(module).values():
            if getattr(value, "__module__", None) != module_name:
                continue
            members = vars(value).values() if isinstance(value, type) else [value]
            for member in members:
                member = getattr(member, "__func__", member)  # staticmethod, classmethod
                if isinstance(member, property):
                    member = member.fget
                code = getattr(member, "__code__", None)
                if isinstance(code, types.CodeType):
                    _add_code(found, code, f"{module_name}.{member.__qualname__}")
        _codes_cache[module_name] = found
    return _codes_cache[module_name]


def _add_code(found: dict[types.CodeType, str], code: types.CodeType, name: str) -> None:
    found[code] = name
    for constant in code.co_consts:  # closures and lambdas inside the reference count too
        if isinstance(constant, types.CodeType):
            _add_code(found, constant, name)


def _unwrap(obj: Any) -> Any:
    for _ in range(10):  # partial of a bound method of a wrapped function, and so on
        if isinstance(obj, functools.partial):
            obj = obj.func
        elif isinstance(obj, types.MethodType):
            obj = obj.__func__
        elif hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
        else:
            break
    return obj


KIT_PACKAGES = ("harness", "offline", "course")
"""The kit's own packages, which a student imports: code from any of them is not the student's."""


def kit_folders() -> list[Path]:
    """The folders of the kit's packages (what a sandboxed kernel may read of the kit)."""
    return [Path(str(importlib.import_module(name).__file__)).parent for name in KIT_PACKAGES]


def from_kit(module: str | None) -> bool:
    """Whether `module` (a dotted name) is one of the kit's own modules."""
    return bool(module) and module.split(".")[0] in KIT_PACKAGES


def reference_origin(obj: Any, modules: Iterable[str]) -> str | None:
    """The reference `obj` is (or is built on), or None when it is the student's own."""
    target = _unwrap(obj)
    name = getattr(target, "__qualname__", type(target).__qualname__)
    if from_kit(getattr(target, "__module__", None)):
        return f"{target.__module__}.{name}"
    if isinstance(target, type):
        for base in target.__mro__[1:]:
            if from_kit(base.__module__):
                return f"{base.__module__}.{base.__qualname__}"
    code = getattr(target, "__code__", None)
    for module in modules:
        if code in _codes_of(module):
            return _codes_of(module)[code]
    return None


class Watch:
    """Records calls into reference modules while student code runs (`with Watch(...):`)."""

    def __init__(self, modules: Iterable[str]):
        self.codes: dict[types.CodeType, str] = {}
        for module in modules:
            self.codes.update(_codes_of(module))
        self.hits: list[str] = []
        self.switched_off = False
        self._timeouts = 0
        self._on = False
        self._previous: Any = None
        self._previous_threads: Any = None

    def _hook(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call":
            name = self.codes.get(frame.f_code)
            if name is not None and name not in self.hits:
                self.hits.append(name)

    def __enter__(self) -> Watch:
        self._on = not grader_hook.recording  # a graded kernel has no reference to watch for
        if not self._on:
            return self
        self._timeouts = TIMEOUTS[0]
        self._previous, self._previous_threads = sys.getprofile(), threading.getprofile()
        sys.setprofile(self._hook)
        threading.setprofile(self._hook)
        return self

    def __exit__(self, *exc: object) -> None:
        # Student code that switched the profiler off could have called the reference unseen.
        # A deadline that passed while the hook ran switches it off too: that is a slow or
        # endless loop, reported as such by the outcome, not hiding.
        if not self._on:
            return
        self.switched_off = sys.getprofile() != self._hook and TIMEOUTS[0] == self._timeouts
        sys.setprofile(self._previous)
        threading.setprofile(self._previous_threads)


class ReferenceCalled(BaseException):
    """Raised by a tripped reference function (BaseException: `except Exception` in the student's
    code must not swallow it)."""


def _tripwire(*args: Any, **kwargs: Any) -> Any:
    # Runs with the globals of the module it was put in: builtins only, so it works in any.
    __import__("course.exercises.ownwork", fromlist=["_"])._trip(__import__("sys")._getframe())


_armed: list[Tripwire] = []


def _trip(frame: types.FrameType) -> None:
    name = frame.f_code.co_qualname
    for tripwire in _armed:
        tripwire.hits.append(name)
    raise ReferenceCalled(f"{name} was called")


class Tripwire:
    """Watch's cheap sibling, for student code that runs a long time (the capstone replays whole
    HTTP exchanges, and a profile hook on every call would double the time): while it is on,
    every function of `modules` (or only those named in `only`) raises `ReferenceCalled` instead
    of running, however the student reached it, from any thread. It swaps each function's code
    object and puts it back on exit; `hits` and `switched_off` read as a Watch's."""

    def __init__(self, modules: Iterable[str], *, only: Iterable[str] | None = None):
        wanted = set(only) if only is not None else None
        self.functions: dict[types.FunctionType, types.CodeType] = {}
        for module_name in modules:
            for value in vars(importlib.import_module(module_name)).values():
                name = f"{module_name}.{getattr(value, '__qualname__', '')}"
                if isinstance(value, types.FunctionType) and value.__module__ == module_name \
                        and value.__code__.co_freevars == () and (wanted is None or name in wanted):
                    self.functions[value] = value.__code__
        self.hits: list[str] = []
        self.switched_off = False
        self._on = False

    def __enter__(self) -> Tripwire:
        self._on = not grader_hook.recording  # a graded kernel has no reference to trip on
        if not self._on:
            return self
        for function in self.functions:
            qualified = f"{function.__module__}.{function.__qualname__}"
            function.__code__ = _tripwire.__code__.replace(co_name=function.__name__,
                                                           co_qualname=qualified)
        _armed.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._on:
            return
        _armed.remove(self)
        for function, code in self.functions.items():
            function.__code__ = code


def refuse_reference(subject: str, obj: Any, modules: Iterable[str]) -> None:
    """Fail at once when `obj` is the reference itself, re-exported or subclassed. (Not in a
    graded kernel, which records every call for the grading process: there the reference is a
    stub that raises, and the record shows it.)"""
    if grader_hook.recording:
        return
    origin = reference_origin(obj, list(modules))
    if origin is not None:
        raise CheckFailed(
            f"{subject} is (or is built on) {origin}, the reference implementation from "
            f"harness, not your own code. This check scores 0 for a submission that uses the "
            f"reference: write {subject} yourself in the solution cell.")


def refuse_calls(subject: str, watch: Watch | Tripwire) -> None:
    """Fail when the student's code called into the reference while it ran (not in a graded
    kernel: see `refuse_reference`)."""
    if grader_hook.recording:
        return
    if watch.switched_off:
        raise CheckFailed(
            f"Your {subject} switched off the profiler the checks use to see calls into the "
            f"reference (sys.setprofile). This check scores 0 for code that hides what it "
            f"calls: write {subject} yourself in the solution cell.")
    if watch.hits:
        raise CheckFailed(
            f"Your {subject} calls {watch.hits[0]}, the reference implementation from "
            f"harness. This check scores 0 for a submission that uses the reference: write "
            f"{subject} yourself in the solution cell.")
