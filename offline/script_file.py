"""Script files: the replies of a `ScriptedModel` written as YAML, for `python -m course emulate`.

A script is a list of steps, one per model call, in order. Each step is a mapping with any of:

    - text: I'll look the weather up.       # what the model says
      thinking: Paris, so one call.          # reasoning before it (each API shows it its way)
      calls:                                 # tool calls, in order
        - name: get_weather
          arguments: {city: Paris}
      stop_reason: tool_use                  # end_turn, tool_use, max_tokens, refusal or other;
                                             # when left out: tool_use with calls, else end_turn
    - error: {status: 429, retry_after: 20}  # the provider refuses this call instead of replying
    - text: Sunny, 22C in Paris.

`load(path)` reads one into `offline.scripted.Step`s; `parse(data, source=...)` does the same for
data already read. A script that does not fit gets a `ScriptFileError` naming the file, the step
and the field, and saying what would fit. Nothing here serves or runs the script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from harness.errors import ProviderError
from harness.messages import StopReason, ToolCall
from offline.errors import ScriptError
from offline.scripted import Step

FIELDS = ("text", "thinking", "calls", "stop_reason", "error")
ERROR_FIELDS = ("status", "message", "type", "retry_after")
STOP_REASONS = tuple(reason.value for reason in StopReason)
EXAMPLE = "- text: Sunny, 22C in Paris."


class ScriptFileError(ScriptError, ValueError):
    """A script file that cannot be read as steps; the message names where and how to fix it."""


def load(path: str | Path) -> list[Step]:
    """The steps of the YAML script at `path`.

    Example:
        steps = load("my_script.yaml")   # then ScriptedModel(steps)
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScriptFileError(f"{path}: cannot read the script ({error.strerror}).") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" at line {where.line + 1}" if where is not None else ""
        raise ScriptFileError(f"{path}: not valid YAML{line}: "
                              f"{getattr(error, 'problem', None) or error}.") from None
    return parse(data, source=str(path))


def parse(data: Any, *, source: str = "script") -> list[Step]:
    """Steps from a script already read (a list of step mappings); see the module docstring."""
    if not isinstance(data, list) or not data:
        raise ScriptFileError(f"{source}: a script is a list of steps, one per model call, such "
                              f"as\n{EXAMPLE}\n(got {_kind(data)}).")
    return [_step(item, f"{source}: step {number}") for number, item in enumerate(data, 1)]


def _step(item: Any, where: str) -> Step:
    if not isinstance(item, dict):
        raise ScriptFileError(f"{where}: a step is a mapping of {', '.join(FIELDS)} "
                              f"(got {_kind(item)}).")
    _known(item, FIELDS, where)
    if not {"text", "calls", "error"} & set(item):
        raise ScriptFileError(f"{where}: the step has no text, calls or error; give the model "
                              "something to answer with.")
    if "error" in item:
        if set(item) - {"error"}:
            raise ScriptFileError(f"{where}: a step with `error` refuses the call, so it has no "
                                  "text, thinking, calls or stop_reason.")
        return Step(error=_error(item["error"], f"{where}, field 'error'"))
    stop = item.get("stop_reason")
    if stop is not None and stop not in STOP_REASONS:
        raise ScriptFileError(f"{where}, field 'stop_reason': {stop!r} is not one of "
                              f"{', '.join(STOP_REASONS)}.")
    calls = item.get("calls") or []
    if not isinstance(calls, list):
        raise ScriptFileError(f"{where}, field 'calls': a list of calls, each with a name and "
                              f"arguments (got {_kind(calls)}).")
    return Step(text=_text(item, "text", where), thinking=_text(item, "thinking", where),
                calls=tuple(_call(call, f"{where}, field 'calls[{index}]'")
                            for index, call in enumerate(calls)),
                stop_reason=StopReason(stop) if stop else None)


def _call(call: Any, where: str) -> ToolCall:
    if not isinstance(call, dict) or not isinstance(call.get("name"), str) or not call["name"]:
        raise ScriptFileError(f"{where}: a call is a mapping with a `name` (the tool's) and "
                              "`arguments`, such as {name: get_weather, arguments: {city: Paris}}.")
    _known(call, ("name", "arguments"), where)
    arguments = call.get("arguments", {})
    if not isinstance(arguments, dict):
        raise ScriptFileError(f"{where}, 'arguments': a mapping of argument names to values "
                              f"(got {_kind(arguments)}).")
    return ToolCall(id="", name=call["name"], arguments=arguments)


def _error(error: Any, where: str) -> ProviderError:
    if not isinstance(error, dict) or not isinstance(error.get("status"), int):
        raise ScriptFileError(f"{where}: a mapping with an HTTP `status` (an integer) and, if "
                              "you like, message, type and retry_after, such as {status: 429}.")
    _known(error, ERROR_FIELDS, where)
    retry = error.get("retry_after")
    if retry is not None and (isinstance(retry, bool) or not isinstance(retry, int | float)):
        raise ScriptFileError(f"{where}, 'retry_after': seconds as a number (got {_kind(retry)}).")
    status = error["status"]
    return ProviderError(status, str(error.get("type") or "api_error"),
                         str(error.get("message") or f"scripted error {status}"),
                         retry_after=None if retry is None else float(retry))


def _text(item: dict[str, Any], field: str, where: str) -> str | None:
    value = item.get(field)
    if value is not None and not isinstance(value, str):
        raise ScriptFileError(f"{where}, field '{field}': text (got {_kind(value)}); quote it if "
                              "YAML read it as something else.")
    return value


def _known(item: dict[str, Any], fields: tuple[str, ...], where: str) -> None:
    unknown = [str(key) for key in item if key not in fields]
    if unknown:
        raise ScriptFileError(f"{where}: unknown field {unknown[0]!r}; the fields are "
                              f"{', '.join(fields)}.")


def _kind(value: Any) -> str:
    names = {dict: "a mapping", list: "a list", str: "text", bool: "true or false",
             int: "a number", float: "a number", type(None): "nothing"}
    return names.get(type(value), f"a {type(value).__name__}")
