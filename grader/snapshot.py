"""A snapshot of the grading code's state: put it back, and tell whether student code changed it.

`Snapshot.take()` records the harness modules and the standard-library modules the checks rely on:
each module's attributes (and its entry in sys.modules), each function's code, defaults and closure
cells, each class's attributes, the builtins, and a copy of module-level data. `restore()` puts it
all back and empties the lru caches, so a submission that monkeypatched the checks or the reference
is graded as if it had not; `changes()` names what differs (what code changed while a check ran).
It only reads and writes Python objects: the re-check decides what a change costs.
"""

from __future__ import annotations

import copy
import importlib
import sys
import types
from dataclasses import dataclass, field
from typing import Any

STDLIB = ("builtins", "copy", "json", "json.encoder", "json.decoder", "math", "random",
          "functools", "operator", "itertools", "collections", "types", "re", "hashlib", "os",
          "posixpath", "pathlib", "signal", "threading", "warnings", "contextlib", "io", "inspect",
          "typing", "dataclasses", "enum", "decimal", "fractions", "string", "textwrap", "abc")
"""Standard-library modules whose functions the checks call (patched, they could fake a pass)."""

_DATA = (list, dict, set)
_PATHS = ("path", "meta_path", "path_hooks")


def _watched() -> list[str]:
    names = [n for n in sys.modules if n == "harness" or n.startswith("harness.")]
    return sorted(names) + [n for n in STDLIB if n in sys.modules]


@dataclass
class _Function:
    function: types.FunctionType
    code: types.CodeType
    defaults: Any
    kwdefaults: Any
    cells: tuple[Any, ...]


@dataclass
class Snapshot:
    """What the grading code looked like before any student code ran."""

    modules: dict[str, types.ModuleType] = field(default_factory=dict)
    attributes: dict[str, dict[str, Any]] = field(default_factory=dict)
    functions: list[_Function] = field(default_factory=list)
    classes: dict[type, dict[str, Any]] = field(default_factory=dict)
    data: dict[tuple[str, str], tuple[Any, str]] = field(default_factory=dict)
    caches: list[Any] = field(default_factory=list)
    environ: dict[str, str] = field(default_factory=dict)
    paths: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def take(cls, extra: tuple[str, ...] = ()) -> Snapshot:
        for name in extra:
            importlib.import_module(name)
        snapshot = cls()
        seen: set[int] = set()
        for name in _watched():
            module = sys.modules[name]
            snapshot.modules[name] = module
            attributes = dict(vars(module))
            snapshot.attributes[name] = attributes
            for key, value in attributes.items():
                snapshot._record(name, key, value, seen)
        import os

        snapshot.environ = dict(os.environ)
        snapshot.paths = {name: list(getattr(sys, name)) for name in _PATHS}
        return snapshot

    def _record(self, module: str, key: str, value: Any, seen: set[int]) -> None:
        if isinstance(value, types.FunctionType):
            self._function(value, seen)
        elif isinstance(value, type) and value.__module__ == module and id(value) not in seen:
            seen.add(id(value))
            members = dict(vars(value))
            self.classes[value] = members
            for member in members.values():
                member = getattr(member, "__func__", member)
                if isinstance(member, property):
                    member = member.fget
                if isinstance(member, types.FunctionType):
                    self._function(member, seen)
        elif hasattr(value, "cache_clear") and callable(value.cache_clear):
            self.caches.append(value)
            wrapped = getattr(value, "__wrapped__", None)
            if isinstance(wrapped, types.FunctionType):
                self._function(wrapped, seen)
        elif isinstance(value, _DATA) and module.startswith("harness") \
                and not key.startswith("__"):
            try:
                self.data[(module, key)] = (copy.deepcopy(value), _fingerprint(value))
            except Exception:  # an object that cannot be copied is left alone
                pass

    def _function(self, function: types.FunctionType, seen: set[int]) -> None:
        if id(function) in seen:
            return
        seen.add(id(function))
        cells = tuple(cell.cell_contents if _filled(cell) else _EMPTY
                      for cell in function.__closure__ or ())
        self.functions.append(_Function(function, function.__code__, function.__defaults__,
                                        function.__kwdefaults__, cells))
        for cell_value in cells:  # decorators: the wrapped function lives in a closure cell
            if isinstance(cell_value, types.FunctionType):
                self._function(cell_value, seen)

    def restore(self) -> None:
        """Put every recorded object back where it was, and empty the caches."""
        for name, module in self.modules.items():
            sys.modules[name] = module
            namespace = vars(module)
            for key, value in self.attributes[name].items():
                if namespace.get(key, _EMPTY) is not value:
                    namespace[key] = value
        for record in self.functions:
            _put_function(record)
        for cls, members in self.classes.items():
            for key, value in members.items():
                if vars(cls).get(key, _EMPTY) is not value:
                    try:
                        setattr(cls, key, value)
                    except (AttributeError, TypeError, PermissionError):
                        pass  # changes() still reports it
        for (module, key), (value, _) in self.data.items():
            current = vars(self.modules[module]).get(key)
            _refill(current, copy.deepcopy(value))
        for cache in self.caches:
            cache.cache_clear()
        for name, items in self.paths.items():  # import hooks a submission added
            getattr(sys, name)[:] = items
        import os

        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)

    def changes(self) -> list[str]:
        """What differs from the snapshot now, one line each (empty: nothing was changed)."""
        found = []
        for name, module in self.modules.items():
            if sys.modules.get(name) is not module:
                found.append(f"sys.modules[{name!r}] was replaced")
            namespace = vars(module)
            found += [f"{name}.{key} was replaced" for key, value in self.attributes[name].items()
                      if namespace.get(key, _EMPTY) is not value]
        for record in self.functions:
            function = record.function
            if (function.__code__, function.__defaults__, function.__kwdefaults__) != \
                    (record.code, record.defaults, record.kwdefaults) or \
                    _cells(function) != record.cells:
                found.append(f"{function.__module__}.{function.__qualname__} was changed")
        for cls, members in self.classes.items():
            found += [f"{cls.__module__}.{cls.__qualname__}.{key} was replaced"
                      for key, value in members.items() if vars(cls).get(key, _EMPTY) is not value]
        found += [f"sys.{name} was changed" for name, items in self.paths.items()
                  if getattr(sys, name) != items]
        for (module, key), (_, text) in self.data.items():
            current = vars(self.modules[module]).get(key)
            if not key.startswith("_") and _fingerprint(current) != text:
                found.append(f"{module}.{key} (grading data) was modified")
        return found


class _Empty:
    def __repr__(self) -> str:
        return "<empty>"


_EMPTY = _Empty()


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises ValueError)
    except ValueError:
        return False
    return True


def _cells(function: types.FunctionType) -> tuple[Any, ...]:
    return tuple(cell.cell_contents if _filled(cell) else _EMPTY
                 for cell in function.__closure__ or ())


def _put_function(record: _Function) -> None:
    function = record.function
    if function.__code__ is not record.code:
        function.__code__ = record.code
    if function.__defaults__ is not record.defaults:
        function.__defaults__ = record.defaults
    if function.__kwdefaults__ is not record.kwdefaults:
        function.__kwdefaults__ = record.kwdefaults
    for cell, value in zip(function.__closure__ or (), record.cells, strict=False):
        if value is not _EMPTY and (not _filled(cell) or cell.cell_contents is not value):
            cell.cell_contents = value


def _fingerprint(value: Any) -> str:
    """repr, except that a set's order does not count: a restored set may iterate differently."""
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(_fingerprint(item) for item in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_fingerprint(k)}: {_fingerprint(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return f"{type(value).__name__}[{', '.join(_fingerprint(item) for item in value)}]"
    return repr(value)


def _refill(current: Any, original: Any) -> None:
    """Put a list, dict or set's original contents back in place (other references see it)."""
    if isinstance(current, list) and isinstance(original, list):
        current[:] = original
    elif isinstance(current, dict) and isinstance(original, dict):
        current.clear()
        current.update(original)
    elif isinstance(current, set) and isinstance(original, set):
        current.clear()
        current.update(original)
