"""The exercises' model: the shared `ScriptedModel`, called the way the exercises call a model.

An exercise's loop calls `model(messages, *, tool_choice="auto")` with messages in the dict form
(plain dicts, as `offline.dictform.to_dicts` writes them) and gets back `{"message", "stop_reason",
"usage"}`. `DictModel` does exactly that in front of a `ScriptedModel` (it is an adapter, not
another fake model) and keeps a log of what it was sent and which tools ran, which is what the
checks compare. With `wire="anthropic"` (or another provider) every call also goes through that
provider's adapter and the emulator, so a request the real API rejects fails as it would live: the
model a student tries a loop on by hand rejects an unanswered call with the real text.

`NeutralModel` is the way back: a model with that calling convention seen as a `harness` Model, so
that `harness.loop.run` itself can be the exercises' reference loop.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from course.compare import Runaway
from harness.messages import (
    Message,
    Model,
    Reply,
    StopReason,
    ToolChoice,
    ToolSpec,
    Usage,
    parse_messages,
)
from offline.dictform import to_dicts
from offline.scripted import ScriptedModel, Step
from harness.tools import Tool


@dataclass(frozen=True)
class Event:
    """One thing a run did: a model call (`kind="call"`) or a tool run (`kind="tool"`)."""

    kind: str
    number: int
    """Call number (1-based) for a call; for a tool, the number of calls made before it."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: str | None = None
    name: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)


class DictModel:
    """A scripted model with the exercises' calling convention.

    Example:
        >>> model = DictModel([Step.say("Hello!")])
        >>> model([{"role": "user", "content": "Hi"}])["message"]["content"]
        'Hello!'
    """

    def __init__(self, steps: Sequence[Step], *, tools: Mapping[str, Callable[..., str]] = (),
                 limit: int | None = None, log: list[Event] | None = None,
                 wire: str | None = None):
        self.scripted = ScriptedModel(list(steps))
        self.model: Model = self.scripted
        if wire is not None:  # imported late: the checks themselves never need a wire format
            from offline.emulator import emulated

            self.model = emulated(wire, self.scripted)
        self.specs = [Tool.from_function(fn, name=name).spec for name, fn in dict(tools).items()]
        self.limit = limit
        """Calls allowed before `Runaway` stops a loop that never ends (None: no limit)."""
        self.log: list[Event] = [] if log is None else log

    @property
    def calls(self) -> list[Event]:
        return [event for event in self.log if event.kind == "call"]

    def __call__(self, messages: Sequence[dict[str, Any]], *,
                 tool_choice: str = "auto") -> dict[str, Any]:
        number = len(self.calls) + 1
        if self.limit is not None and number > self.limit:
            raise Runaway(f"call {number} made; this scenario needs at most {self.limit - 1}")
        sent = copy.deepcopy(list(messages))  # what was sent then, whatever happens to it later
        self.log.append(Event("call", number, messages=sent, tool_choice=tool_choice))
        if tool_choice not in ("auto", "none", "required"):
            raise ValueError(f"tool_choice must be 'auto', 'none' or 'required', "
                             f"got {tool_choice!r}")
        try:
            neutral = parse_messages([_known_keys(message) for message in sent])
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(part) for part in problem["loc"])
            raise ValueError(f"the model cannot read message {where}: {problem['msg']}") from None
        reply = self.model.complete(neutral, tools=self.specs, tool_choice=tool_choice)
        return {"message": to_dicts([reply.message])[0],
                "stop_reason": reply.stop_reason.value,
                "usage": {"input_tokens": reply.usage.input_tokens,
                          "output_tokens": reply.usage.output_tokens}}


class NeutralModel:
    """A dict-form model (`model(messages, *, tool_choice)`) with the library's `complete`.

    Example:
        >>> reply = NeutralModel(DictModel([Step.say("Hello!")])).complete([])
        >>> reply.message.content, reply.stop_reason
        ('Hello!', <StopReason.END_TURN: 'end_turn'>)
    """

    def __init__(self, model: Callable[..., dict[str, Any]]):
        self.model = model

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: ToolChoice = "auto") -> Reply:
        # `tools` is not passed on: a dict-form model was built with its tools already.
        reply = self.model(to_dicts(list(messages)), tool_choice=tool_choice)
        return Reply(message=parse_messages([reply["message"]])[0],
                     stop_reason=StopReason(reply["stop_reason"]),
                     usage=Usage(**reply.get("usage", {})))


_KEYS = {"system": ("role", "content"), "user": ("role", "content"),
         "assistant": ("role", "content", "tool_calls"),
         "tool": ("role", "tool_call_id", "content", "is_error")}


def _known_keys(message: Any) -> Any:
    """Drop keys the dict form does not define (a student's extra "name" is harmless)."""
    if not isinstance(message, dict) or message.get("role") not in _KEYS:
        return message  # let validation say what is wrong with it
    kept = {key: message[key] for key in _KEYS[message["role"]] if key in message}
    if isinstance(kept.get("tool_calls"), list):
        kept["tool_calls"] = [{key: call[key] for key in ("id", "name", "arguments") if key in call}
                              if isinstance(call, dict) else call for call in kept["tool_calls"]]
    return kept


def logged_tools(tools: Mapping[str, Callable[..., str]], log: list[Event]
                 ) -> dict[str, Callable[..., str]]:
    """The same tools, each run recorded in `log` with the number of model calls before it."""

    def wrap(name: str, function: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(function)  # the same signature: a Tool built from it has the same schema
        def run(**arguments: Any) -> str:
            calls = sum(1 for event in log if event.kind == "call")
            log.append(Event("tool", calls, name=name, arguments=copy.deepcopy(arguments)))
            return function(**arguments)

        run.__name__ = name
        return run

    return {name: wrap(name, function) for name, function in tools.items()}
