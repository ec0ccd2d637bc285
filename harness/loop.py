"""The agent loop: call the model, run the tools it asks for, feed results back, know when to stop.

`run` is the whole loop; its `RunResult` starts with the `Exit` that fired. It never retries (a
loop that retries on a cap has a cap twice as large), never edits an earlier message (the history
is append-only), appends each reply whole and knows no wire format. The rest are options
a config change can drop: the no-progress detector, the reminder, the token cap, the goal check."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from threading import Event

from harness.errors import ProviderError
from harness.messages import (
    Message,
    Model,
    Reply,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolChoice,
    ToolMessage,
    UserMessage,
)
from harness.progress import NoProgressDetector, RepeatReminder, call_key
from harness.tools import Toolbox, run_calls
from harness.trace import CallRecord, Exit, RunResult

NOT_EXECUTED = "Not executed: the run used up its turns before this call could run."
NOT_EXECUTED_TRUNCATED = "Not executed: the reply that asked for it was cut off by the token limit."
NOT_EXECUTED_BUDGET = "Not executed: the token budget for this run was reached."
NOT_EXECUTED_REPEAT = "Not executed: the same request was repeated without progress."
CANCELLED = "Cancelled: the run was interrupted before this tool ran."
PENDING_STARTS = ("Not executed", "Cancelled")
"""How each result above begins: the mark of a call the loop answered without running it."""
CLOSING_INSTRUCTION = (
    "This run has used up its turns, so no tool can be called any more. Reply to the user from "
    "what the tools have told you so far: say that the turn limit stopped the work, name what is "
    "still not done, and ask if they want you to carry on.")


def run(model: Model, tools: Toolbox, messages: Sequence[Message], *, max_turns: int = 10,
        token_budget: int | None = None,
        detector: Callable[[], NoProgressDetector] | None = NoProgressDetector,
        reminder: RepeatReminder | None = None, parallel_tools: bool = False,
        closing_call: bool = True, cancel: Event | Callable[[], bool] | None = None,
        before_done: Callable[[str | None], str | None] | None = None) -> RunResult:
    """Run the loop until one exit fires: each member of `Exit` says when it fires.

    `cancel` (an Event or a function) interrupts the run once set. `before_done(answer)` is the
    goal check: None lets the answer end the run; a text is sent back as a user message instead.

    Example:
        >>> from offline.scripted import ScriptedModel, Step
        >>> run(ScriptedModel([Step.say("Hi")]), Toolbox(), []).status
        <Exit.DONE: 'done'>
    """
    if max_turns < 1:
        raise ValueError(f"max_turns must be at least 1, got {max_turns}")
    result = RunResult(Exit.DONE, None, list(messages))
    history = result.messages  # the run's own copy: the caller's list is never touched
    watch = detector() if detector else None
    errored: set[str] = set()  # keys of the calls whose last result was an error
    cancelled = _as_check(cancel)
    if reminder:  # a run starts from a new user message, and that starts the count again
        reminder.reset()
    for turn in range(1, max_turns + 1):
        if cancelled():
            return _end(result, Exit.INTERRUPTED, f"cancelled before call {turn}")
        reply = _send(model, tools, history, result, tool_choice="auto")
        if reply is None:
            return _end(result, Exit.ERROR, str(result.error))
        calls = reply.message.tool_calls
        if reply.stop_reason is StopReason.MAX_TOKENS:  # cut tool calls are not run either
            return _end(result, Exit.TRUNCATED, "the reply hit the output-token limit",
                        pending=(calls, NOT_EXECUTED_TRUNCATED))
        if not calls:  # a refusal or another stop is an answer too; the trace says which
            note = before_done(reply.message.content) if before_done else None
            if note:
                history.append(UserMessage(content=note))  # not done yet: one more turn
                continue
            return _end(result, Exit.DONE, _unusual(reply.stop_reason),
                        answer=reply.message.content)
        if cancelled():
            return _end(result, Exit.INTERRUPTED, "cancelled", pending=(calls, CANCELLED))
        spent = result.usage.total_tokens
        if token_budget is not None and spent > token_budget:
            return _end(result, Exit.TOKEN_CAP, f"{spent} tokens > {token_budget}",
                        pending=(calls, NOT_EXECUTED_BUDGET))
        if watch and _repeats(watch, calls, errored):
            return _end(result, Exit.NO_PROGRESS, f"repeated {calls[-1].name}",
                        pending=(calls, NOT_EXECUTED_REPEAT))
        if turn == max_turns:
            break  # the cap: these calls stay pending for the closing call
        results = run_calls(tools, calls, parallel=parallel_tools)
        history.extend(results)
        errored = {_key(c) for c, r in zip(calls, results, strict=True) if r.is_error}
        if reminder:  # a nudge is context for the model, not a tool result
            notes = [reminder.observe(c.name, c.arguments) for c in calls]
            history.extend(UserMessage(content=n) for n in notes if n)
    return _close(model, tools, result, calls, closing_call)


def _as_check(cancel: Event | Callable[[], bool] | None) -> Callable[[], bool]:
    if isinstance(cancel, Event):
        return cancel.is_set
    return cancel or (lambda: False)


def _key(call: ToolCall) -> str:
    return call_key(call.name, call.raw_arguments or call.arguments)


def _repeats(watch: NoProgressDetector, calls: Sequence[ToolCall], errored: set[str]) -> bool:
    """Show the detector every call of the reply (all of them, even after one fires)."""
    fired = [watch.observe(c.name, c.raw_arguments or c.arguments,
                           previous_was_error=_key(c) in errored) for c in calls]
    return any(fired)


def _unusual(stop: StopReason) -> str:
    return "" if stop is StopReason.END_TURN else f"stop reason {stop.value}"


def _send(model: Model, tools: Toolbox, sent: list[Message], result: RunResult, *,
          tool_choice: ToolChoice, closing: bool = False) -> Reply | None:
    """One model call, recorded in the trace; None when the provider rejected it."""
    started = time.perf_counter()
    reply: Reply | None = None
    error: ProviderError | None = None
    try:
        reply = model.complete(list(sent), tools=tools.specs, tool_choice=tool_choice)
    except ProviderError as exc:
        error = exc
        result.error = exc
    seconds = time.perf_counter() - started
    number = len(result.calls) + 1
    result.calls.append(CallRecord(number, list(sent), tool_choice, reply, seconds, closing, error))
    if reply is not None:
        result.messages.append(reply.message)  # whole: text, reasoning and calls
        result.usage += reply.usage
    return reply


def _close(model: Model, tools: Toolbox, result: RunResult, pending: list[ToolCall],
           closing_call: bool) -> RunResult:
    """Turn cap: answer the pending calls, then one text-only call told why in the system prompt.
    A closing reply that is cut off or still calls a tool (Gemini can, under none) is no answer;
    the status stays turn_cap all the same (the cap is what fired), and the detail says why."""
    _answer(result.messages, pending, NOT_EXECUTED)
    if not closing_call:
        return _end(result, Exit.TURN_CAP, "turn cap; no closing call")
    sent = _with_instruction(result.messages, CLOSING_INSTRUCTION)
    reply = _send(model, tools, sent, result, tool_choice="none", closing=True)
    if reply is None:
        return _end(result, Exit.ERROR, f"closing call rejected: {result.error}")
    calls = reply.message.tool_calls
    if reply.stop_reason is StopReason.MAX_TOKENS:
        return _end(result, Exit.TURN_CAP, "turn cap; the closing reply was cut off by the "
                    "token limit: no answer", pending=(calls, NOT_EXECUTED))
    if calls:
        return _end(result, Exit.TURN_CAP, f"turn cap; the closing reply called "
                    f"{calls[0].name} anyway: no answer", pending=(calls, NOT_EXECUTED))
    return _end(result, Exit.TURN_CAP, "turn cap; closing call made", answer=reply.message.content)


def _with_instruction(history: list[Message], instruction: str) -> list[Message]:
    """A copy of the history whose system prompt ends with `instruction`; the history is kept."""
    if history and isinstance(history[0], SystemMessage):
        return [SystemMessage(content=f"{history[0].content}\n\n{instruction}"), *history[1:]]
    return [SystemMessage(content=instruction), *history]


def _answer(history: list[Message], calls: Sequence[ToolCall], text: str) -> None:
    """One error result with `text` for each call: every call in the history gets a result."""
    history.extend(ToolMessage(tool_call_id=c.id, content=text, is_error=True) for c in calls)


def _end(result: RunResult, status: Exit, detail: str = "", *, answer: str | None = None,
         pending: tuple[Sequence[ToolCall], str] | None = None) -> RunResult:
    if pending:
        _answer(result.messages, *pending)  # so the history can be sent again as it is
    result.status = status
    result.answer = answer
    result.detail = detail
    return result
