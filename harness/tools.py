"""Tools: declare Python functions for the model, run its calls, and turn every failure into text.

`Tool.from_function` builds the JSON schema from type hints with pydantic. `execute` never raises:
an unknown tool, unparseable or invalid arguments and any exception inside the tool each come
back as an error result that says what went wrong and what to try. `run_calls` runs one reply's
calls, one at a time by default or in batches (neighbouring parallel-safe calls go together, an
exclusive call goes alone), and always commits the results in the order the reply listed them.
This module does not talk to models and knows no wire format.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from harness.messages import ToolCall, ToolMessage, ToolSpec, argument_text

Mode = Literal["parallel", "exclusive"]


@dataclass(frozen=True)
class Tool:
    """A Python function the model may call.

    Example:
        >>> def get_forecast(city: str, day: str) -> str:
        ...     "Forecast for a city on a day."
        ...     return f"{city}, {day}: light rain"
        >>> Tool.from_function(get_forecast).spec.parameters["required"]
        ['city', 'day']
    """

    function: Callable[..., Any]
    spec: ToolSpec
    arguments_model: type[BaseModel]
    mode: Mode = "exclusive"
    """`parallel` only when the tool is read-only: unknown means exclusive (fail closed)."""

    @classmethod
    def from_function(cls, function: Callable[..., Any], *, name: str | None = None,
                      description: str | None = None, mode: Mode = "exclusive") -> Tool:
        tool_name = name or function.__name__
        signature = tuple((param.name, param.annotation, param.default)
                          for param in inspect.signature(function).parameters.values())
        try:
            model, schema = _arguments(tool_name, signature)
        except TypeError:  # an unhashable default (a list, say): build it uncached
            model, schema = _arguments.__wrapped__(tool_name, signature)
        doc = description if description is not None else inspect.getdoc(function) or ""
        spec = ToolSpec(name=tool_name, description=doc.strip(), parameters=copy.deepcopy(schema))
        return cls(function=function, spec=spec, arguments_model=model, mode=mode)


@functools.lru_cache(maxsize=1024)
def _arguments(tool_name: str, signature: tuple[tuple[str, Any, Any], ...]
               ) -> tuple[type[BaseModel], dict[str, Any]]:
    """The arguments' pydantic model and JSON schema for one signature (name, type, default).
    Cached: a model takes about a millisecond to build, and a check builds the same few tools
    hundreds of times."""
    empty = inspect.Parameter.empty
    # (annotation, default) per field. Typed Any, as mypy reads `**fields` as if it could also
    # fill create_model's own keywords (__config__, __base__...).
    fields: dict[str, Any] = {
        name: (Any if annotation is empty else annotation, ... if default is empty else default)
        for name, annotation, default in signature}
    model = create_model(f"{tool_name}_arguments", __config__=ConfigDict(extra="forbid"),
                         **fields)
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return model, schema


@dataclass
class Toolbox:
    """The tools of one run, by name."""

    tools: dict[str, Tool] = field(default_factory=dict)

    @classmethod
    def of(cls, *items: Tool | Callable[..., Any]) -> Toolbox:
        """Example: `Toolbox.of(get_forecast, Tool.from_function(search, mode="parallel"))`."""
        built = [item if isinstance(item, Tool) else Tool.from_function(item) for item in items]
        return cls({tool.spec.name: tool for tool in built})

    @property
    def specs(self) -> list[ToolSpec]:
        return [tool.spec for tool in self.tools.values()]

    def mode_of(self, call: ToolCall) -> Mode:
        tool = self.tools.get(call.name)
        return tool.mode if tool else "exclusive"

    def __contains__(self, name: str) -> bool:
        return name in self.tools


def execute(toolbox: Toolbox, call: ToolCall) -> ToolMessage:
    """Run one call; every failure becomes an instructive error result, never an exception."""
    if call.name not in toolbox.tools:
        available = ", ".join(sorted(toolbox.tools)) or "none"
        return _error(call, f"Error: there is no tool named '{call.name}'. "
                            f"Available tools: {available}. Call one of those instead.")
    tool = toolbox.tools[call.name]
    if call.raw_arguments is not None:
        return _error(call, f"Error: the arguments for {call.name} were not a valid JSON object: "
                            f"{argument_text(call)!r}. Send the arguments again as one JSON object "
                            f"matching the tool's schema.")
    try:
        arguments = tool.arguments_model.model_validate(call.arguments)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}"
                             for e in exc.errors())
        return _error(call, f"Error: invalid arguments for {call.name}: {problems}. "
                            f"Fix those fields and call {call.name} again.")
    try:
        output = tool.function(**dict(arguments))
    except Exception as exc:  # the model, not the loop, decides what to do about a failing tool
        return _error(call, f"Error: {call.name} raised {type(exc).__name__}: {exc}. "
                            f"Check the arguments, or try another approach.")
    return ToolMessage(tool_call_id=call.id, content=str(output))


def _error(call: ToolCall, text: str) -> ToolMessage:
    return ToolMessage(tool_call_id=call.id, content=text, is_error=True)


def plan_batches(calls: Iterable[ToolCall], mode_of: Callable[[ToolCall], Mode]
                 ) -> list[list[ToolCall]]:
    """Group calls: parallel-safe neighbours go together; an exclusive call goes alone, as a
    barrier between the batches before and after it."""
    batches: list[list[ToolCall]] = []
    run_is_open = False  # True while the last batch is a run of parallel-safe calls
    for call in calls:
        parallel_safe = mode_of(call) == "parallel"
        if parallel_safe and run_is_open:
            batches[-1].append(call)
        else:
            batches.append([call])
        run_is_open = parallel_safe
    return batches


def run_calls(toolbox: Toolbox, calls: list[ToolCall], *, parallel: bool = False,
              max_workers: int = 8) -> list[ToolMessage]:
    """Run one reply's calls and return their results in model order.

    With `parallel=False` (the default) the calls run one after another, as the reply lists them.
    With `parallel=True` each batch from `plan_batches` runs concurrently and the next batch waits
    for it; the results are still committed in model order, whatever order they finished in.
    """
    if not parallel:
        return [execute(toolbox, call) for call in calls]
    results: dict[int, ToolMessage] = {}
    with ThreadPoolExecutor(max_workers=max_workers) as pool:
        position = 0
        for batch in plan_batches(calls, toolbox.mode_of):
            futures = [pool.submit(execute, toolbox, call) for call in batch]
            for offset, future in enumerate(futures):  # waits for the whole batch: a barrier
                results[position + offset] = future.result()
            position += len(batch)
    return [results[index] for index in range(len(calls))]
