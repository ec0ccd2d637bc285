"""Hooks: the named points of a run where extra behaviour attaches, and a loop that calls them.

`run_hooked` keeps only the loop's core (send, the answer, truncation, the turn cap and its
closing call); everything else is a hook, an object with a method named after each `POINTS`
entry it attaches to. `from_options` turns `harness.loop.run`'s options into such hooks, and with
them `run_hooked` ends every run as `run` does (tests/test_hooks.py). No wire format, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from threading import Event
from typing import Any

from harness import loop
from harness.loop import _close, _end, _send, _unusual
from harness.messages import Message, Model, StopReason, ToolCall, ToolMessage, UserMessage
from harness.progress import NoProgressDetector, RepeatReminder
from harness.tools import Toolbox, run_calls
from harness.trace import Exit, RunResult

POINTS = {
    "before_call": "before each model call but the closing one; a Stop ends the run",
    "before_tools": "a reply asks for tools, none has run yet; a Stop ends the run",
    "before_tool": "one call is about to run; a text answers it instead, as an error result",
    "after_tool": "one call has run; a text is a note to the model, after the turn's results",
    "before_done": "a reply asks for no tool; a text goes back to the model, and the run goes on",
}


@dataclass(frozen=True)
class Stop:
    """What a hook returns to end the run: the exit, the trace's detail, and the result text
    each call of the reply gets (at `before_tools`; a call never runs once the run stops)."""

    exit: Exit
    detail: str
    pending: str = ""


@dataclass(frozen=True)
class Moment:
    """What a hook is shown: the turn, the run so far, and what this point is about."""

    turn: int
    run: RunResult
    calls: Sequence[ToolCall] = ()
    call: ToolCall | None = None
    output: ToolMessage | None = None
    answer: str | None = None


def run_hooked(model: Model, tools: Toolbox, messages: Sequence[Message], hooks: Sequence[object],
               *, max_turns: int = 10, parallel_tools: bool = False,
               closing_call: bool = True) -> RunResult:
    """The loop, with every option a hook. At each point the hooks are asked in their order;
    the first answer wins, except after a tool, where every note is kept.

    Example:
        >>> from offline.scripted import ScriptedModel, Step
        >>> run_hooked(ScriptedModel([Step.say("Hi")]), Toolbox(), [], from_options()).status
        <Exit.DONE: 'done'>
    """
    if max_turns < 1:
        raise ValueError(f"max_turns must be at least 1, got {max_turns}")
    result = RunResult(Exit.DONE, None, list(messages))
    history = result.messages  # append-only: a hook adds messages or stops, never edits
    for turn in range(1, max_turns + 1):
        if stop := _ask(hooks, "before_call", Moment(turn, result)):
            return _end(result, stop.exit, stop.detail)
        reply = _send(model, tools, history, result, tool_choice="auto")
        if reply is None:
            return _end(result, Exit.ERROR, str(result.error))
        calls = reply.message.tool_calls
        if reply.stop_reason is StopReason.MAX_TOKENS:
            return _end(result, Exit.TRUNCATED, "the reply hit the output-token limit",
                        pending=(calls, loop.NOT_EXECUTED_TRUNCATED))
        if not calls:
            answer = reply.message.content
            if note := _ask(hooks, "before_done", Moment(turn, result, answer=answer)):
                history.append(UserMessage(content=note))
                continue
            return _end(result, Exit.DONE, _unusual(reply.stop_reason), answer=answer)
        if stop := _ask(hooks, "before_tools", Moment(turn, result, calls=calls)):
            return _end(result, stop.exit, stop.detail, pending=(calls, stop.pending))
        if turn == max_turns:
            break
        answered = {c.id: _ask(hooks, "before_tool", Moment(turn, result, call=c)) for c in calls}
        ran = iter(run_calls(tools, [c for c in calls if not answered[c.id]],
                             parallel=parallel_tools))
        results = [ToolMessage(tool_call_id=c.id, content=text, is_error=True)
                   if (text := answered[c.id]) else next(ran) for c in calls]
        history.extend(results)
        notes = [note for c, r in zip(calls, results, strict=True)
                 for note in _notes(hooks, Moment(turn, result, call=c, output=r))]
        history.extend(UserMessage(content=note) for note in notes)
    return _close(model, tools, result, calls, closing_call)


def _ask(hooks: Sequence[object], point: str, moment: Moment) -> Any:
    """The first answer a hook gives at `point`, or None."""
    for hook in hooks:
        if (method := getattr(hook, point, None)) and (said := method(moment)) is not None:
            return said
    return None


def _notes(hooks: Sequence[object], moment: Moment) -> list[str]:
    return [note for hook in hooks if (method := getattr(hook, "after_tool", None))
            and (note := method(moment))]


class Interrupt:
    """The caller's stop: checked before each call and before a reply's tools run."""

    def __init__(self, cancelled: Callable[[], bool]) -> None:
        self.cancelled = cancelled

    def before_call(self, moment: Moment) -> Stop | None:
        return Stop(Exit.INTERRUPTED, f"cancelled before call {moment.turn}") \
            if self.cancelled() else None

    def before_tools(self, moment: Moment) -> Stop | None:
        return Stop(Exit.INTERRUPTED, "cancelled", loop.CANCELLED) if self.cancelled() else None


class TokenBudget:
    """The token cap: input plus output tokens so far over the budget, before the tools run."""

    def __init__(self, budget: int) -> None:
        self.budget = budget

    def before_tools(self, moment: Moment) -> Stop | None:
        spent = moment.run.usage.total_tokens
        return Stop(Exit.TOKEN_CAP, f"{spent} tokens > {self.budget}", loop.NOT_EXECUTED_BUDGET) \
            if spent > self.budget else None


class StopOnRepeat:
    """The no-progress detector, fresh for each run; a retry after an error is no repeat."""

    def __init__(self, detector: Callable[[], NoProgressDetector] = NoProgressDetector) -> None:
        self.detector, self.watch, self.errored = detector, detector(), set[str]()

    def before_call(self, moment: Moment) -> None:
        if moment.turn == 1:
            self.watch, self.errored = self.detector(), set()

    def before_tools(self, moment: Moment) -> Stop | None:
        errored, self.errored = self.errored, set()  # only the turn just before counts
        if loop._repeats(self.watch, moment.calls, errored):
            return Stop(Exit.NO_PROGRESS, f"repeated {moment.calls[-1].name}",
                        loop.NOT_EXECUTED_REPEAT)
        return None

    def after_tool(self, moment: Moment) -> None:
        if moment.call and moment.output and moment.output.is_error:
            self.errored.add(loop._key(moment.call))


class Remind:
    """The advisory reminder: its note after a turn's results; a new run counts from zero."""

    def __init__(self, reminder: RepeatReminder) -> None:
        self.reminder = reminder

    def before_call(self, moment: Moment) -> None:
        if moment.turn == 1:
            self.reminder.reset()

    def after_tool(self, moment: Moment) -> str | None:
        return self.reminder.observe(moment.call.name, moment.call.arguments) \
            if moment.call else None


class GoalCheck:
    """`before_done` as a hook: a text sends the answer back as a user message."""

    def __init__(self, check: Callable[[str | None], str | None]) -> None:
        self.check = check

    def before_done(self, moment: Moment) -> str | None:
        return self.check(moment.answer)


def from_options(*, token_budget: int | None = None,
                 detector: Callable[[], NoProgressDetector] | None = NoProgressDetector,
                 reminder: RepeatReminder | None = None,
                 cancel: Event | Callable[[], bool] | None = None,
                 before_done: Callable[[str | None], str | None] | None = None) -> list[object]:
    """`run`'s options as hooks, in the order `run` makes its checks."""
    hooks: list[object] = [Remind(reminder)] if reminder else []  # first: it resets at call 1
    hooks.append(Interrupt(loop._as_check(cancel)))
    hooks += [TokenBudget(token_budget)] if token_budget is not None else []
    hooks += [StopOnRepeat(detector)] if detector else []
    return hooks + ([GoalCheck(before_done)] if before_done else [])
