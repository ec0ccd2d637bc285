"""Valid: the capstone from small module-level helpers (one per exit rule), a ThreadPool from
multiprocessing for the batches, and a summary built with itertools.groupby."""

from functools import partial
from itertools import groupby
from multiprocessing.pool import ThreadPool
from threading import Event

from harness.errors import ProviderError
from harness.loop import (
    CANCELLED,
    CLOSING_INSTRUCTION,
    NOT_EXECUTED,
    NOT_EXECUTED_BUDGET,
    NOT_EXECUTED_REPEAT,
    NOT_EXECUTED_TRUNCATED,
)
from harness.messages import StopReason, SystemMessage, ToolMessage
from harness.progress import NoProgressDetector, call_key
from harness.tools import execute
from harness.trace import Exit, RunResult

EXERCISE = "05_capstone"
FAILS: set[str] = set()


def _is_cancelled(cancel):
    if isinstance(cancel, Event):
        return cancel.is_set()
    return bool(cancel and cancel())


def _key(call):
    return call_key(call.name, call.raw_arguments or call.arguments)


def _answer_pending(history, calls, text):
    history += [ToolMessage(tool_call_id=c.id, content=text, is_error=True) for c in calls]


def _ask(model, tools, sent, choice, result):
    """The reply, appended and counted; None (with result.error set) when the provider refused."""
    try:
        reply = model.complete(sent, tools=tools.specs, tool_choice=choice)
    except ProviderError as error:
        result.error = error
        return None
    result.messages.append(reply.message)
    result.usage = result.usage + reply.usage
    return reply


def _over_budget(result, budget):
    return budget is not None and result.usage.total_tokens > budget


def _repeats(detector, calls, failed):
    flags = [detector.observe(c.name, c.raw_arguments or c.arguments,
                              previous_was_error=_key(c) in failed) for c in calls]
    return any(flags)


def _batches(tools, calls):
    """Runs of parallel-safe calls, and each exclusive call alone, in model order."""
    for parallel, group in groupby(calls, key=lambda c: tools.mode_of(c) == "parallel"):
        group = list(group)
        if parallel:
            yield group
        else:
            yield from ([c] for c in group)


def _run_tools(tools, calls, parallel):
    if not parallel:
        return [execute(tools, c) for c in calls]
    results = []
    for batch in _batches(tools, calls):
        with ThreadPool(len(batch)) as pool:
            results += pool.map(lambda c: execute(tools, c), batch)
    return results


def _closing_history(history):
    if history and isinstance(history[0], SystemMessage):
        head = SystemMessage(content=f"{history[0].content}\n\n{CLOSING_INSTRUCTION}")
        return [head, *history[1:]]
    return [SystemMessage(content=CLOSING_INSTRUCTION), *history]


def _finish(result, status, answer=None):
    result.status, result.answer = status, answer
    return result


def _closing(model, tools, result, pending):
    _answer_pending(result.messages, pending, NOT_EXECUTED)
    reply = _ask(model, tools, _closing_history(result.messages), "none", result)
    if reply is None:
        return _finish(result, Exit.ERROR)
    if reply.stop_reason is StopReason.MAX_TOKENS or reply.message.tool_calls:
        _answer_pending(result.messages, reply.message.tool_calls, NOT_EXECUTED)
        return _finish(result, Exit.TURN_CAP)
    return _finish(result, Exit.TURN_CAP, reply.message.content)


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    result = RunResult(Exit.DONE, None, list(messages))
    detector, failed, calls = NoProgressDetector(), set(), []
    for turn in range(max_turns):
        if _is_cancelled(cancel):
            return _finish(result, Exit.INTERRUPTED)
        reply = _ask(model, tools, list(result.messages), "auto", result)
        if reply is None:
            return _finish(result, Exit.ERROR)
        calls = reply.message.tool_calls
        if reply.stop_reason is StopReason.MAX_TOKENS:
            _answer_pending(result.messages, calls, NOT_EXECUTED_TRUNCATED)
            return _finish(result, Exit.TRUNCATED)
        if not calls:
            return _finish(result, Exit.DONE, reply.message.content)
        for stops, status, text in (
                (partial(_is_cancelled, cancel), Exit.INTERRUPTED, CANCELLED),
                (partial(_over_budget, result, token_budget), Exit.TOKEN_CAP, NOT_EXECUTED_BUDGET),
                (partial(_repeats, detector, calls, failed), Exit.NO_PROGRESS,
                 NOT_EXECUTED_REPEAT)):  # in this order, each asked only if the last did not stop
            if stops():
                _answer_pending(result.messages, calls, text)
                return _finish(result, status)
        if turn == max_turns - 1:
            break
        results = _run_tools(tools, calls, parallel_tools)
        result.messages.extend(results)
        failed = {_key(c) for c, r in zip(calls, results, strict=True) if r.is_error}
    return _closing(model, tools, result, calls)


def summarize_exits(results):
    by_status = sorted(results, key=lambda r: r.status.value)
    summary = {}
    for status, group in groupby(by_status, key=lambda r: r.status.value):
        group = list(group)
        counts = {}
        for name in (n for r in group for n in r.tool_names):
            counts[name] = counts.get(name, 0) + 1
        top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        summary[status] = {"share": len(group) / len(results), "top_tools": top}
    return summary
