"""Valid: the capstone as a recursive function, one call per turn, the history passed along as a
new list each time; a batch runs on threads started and joined by hand; a Counter summary."""

import threading
from collections import Counter

from harness.errors import ProviderError
from harness.loop import CANCELLED, CLOSING_INSTRUCTION, NOT_EXECUTED
from harness.messages import StopReason, SystemMessage, ToolMessage, Usage
from harness.progress import NoProgressDetector, call_key
from harness.tools import execute
from harness.trace import Exit, RunResult

EXERCISE = "05_capstone"
FAILS: set[str] = set()


def _skipped(calls, text):
    return [ToolMessage(tool_call_id=c.id, content=text, is_error=True) for c in calls]


def _threads(tools, batch):
    out = [None] * len(batch)

    def work(i):
        out[i] = execute(tools, batch[i])

    started = [threading.Thread(target=work, args=(i,)) for i in range(len(batch))]
    for t in started:
        t.start()
    for t in started:
        t.join()
    return out


def _execute(tools, calls, parallel):
    if not parallel:
        return [execute(tools, c) for c in calls]
    done, batch = [], []
    for call in calls:
        if tools.mode_of(call) == "parallel":
            batch.append(call)
        else:
            done += _threads(tools, batch) + [execute(tools, call)]
            batch = []
    return done + _threads(tools, batch)


def _turn(ctx, history, usage, turn, failed):
    model, tools, options = ctx["model"], ctx["tools"], ctx["options"]
    if ctx["stop"]():
        return RunResult(Exit.INTERRUPTED, None, history, usage=usage)
    try:
        reply = model.complete(history, tools=tools.specs, tool_choice="auto")
    except ProviderError as error:
        return RunResult(Exit.ERROR, None, history, usage=usage, error=error)
    history, usage = history + [reply.message], usage + reply.usage
    calls = reply.message.tool_calls
    if reply.stop_reason == StopReason.MAX_TOKENS:
        return RunResult(Exit.TRUNCATED, None, history + _skipped(calls, NOT_EXECUTED), usage=usage)
    if not calls:
        return RunResult(Exit.DONE, reply.message.content, history, usage=usage)
    if ctx["stop"]():
        return RunResult(Exit.INTERRUPTED, None, history + _skipped(calls, CANCELLED), usage=usage)
    budget = options["token_budget"]
    if budget is not None and usage.total_tokens > budget:
        return RunResult(Exit.TOKEN_CAP, None, history + _skipped(calls, NOT_EXECUTED),
                         usage=usage)
    keys = [call_key(c.name, c.raw_arguments or c.arguments) for c in calls]
    fired = [ctx["detector"].observe(c.name, c.raw_arguments or c.arguments,
                                     previous_was_error=k in failed)
             for c, k in zip(calls, keys, strict=True)]
    if True in fired:
        return RunResult(Exit.NO_PROGRESS, None, history + _skipped(calls, NOT_EXECUTED),
                         usage=usage)
    if turn == options["max_turns"]:
        return _close(ctx, history + _skipped(calls, NOT_EXECUTED), usage)
    results = _execute(tools, calls, options["parallel_tools"])
    failed = {k for k, r in zip(keys, results, strict=True) if r.is_error}
    return _turn(ctx, history + results, usage, turn + 1, failed)


def _close(ctx, history, usage):
    first = history[0] if history else None
    if isinstance(first, SystemMessage):
        sent = [SystemMessage(content=first.content + "\n\n" + CLOSING_INSTRUCTION), *history[1:]]
    else:
        sent = [SystemMessage(content=CLOSING_INSTRUCTION), *history]
    try:
        reply = ctx["model"].complete(sent, tools=ctx["tools"].specs, tool_choice="none")
    except ProviderError as error:
        return RunResult(Exit.ERROR, None, history, usage=usage, error=error)
    history, usage = history + [reply.message], usage + reply.usage
    calls = reply.message.tool_calls
    if calls or reply.stop_reason == StopReason.MAX_TOKENS:
        return RunResult(Exit.TURN_CAP, None, history + _skipped(calls, NOT_EXECUTED), usage=usage)
    return RunResult(Exit.TURN_CAP, reply.message.content, history, usage=usage)


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    if cancel is None:
        stop = lambda: False  # noqa: E731
    else:
        stop = getattr(cancel, "is_set", cancel)
    ctx = {"model": model, "tools": tools, "stop": stop, "detector": NoProgressDetector(),
           "options": {"max_turns": max_turns, "token_budget": token_budget,
                       "parallel_tools": parallel_tools}}
    return _turn(ctx, list(messages), Usage(), 1, set())


def summarize_exits(results):
    total = len(results)
    shares = Counter(r.status.value for r in results)
    out = {}
    for status, runs in shares.items():
        calls = Counter(n for r in results if r.status.value == status for n in r.tool_names)
        ranked = sorted(calls.items(), key=lambda pair: (-pair[1], pair[0]))[:3]
        out[status] = {"share": runs / total, "top_tools": ranked}
    return out
