"""Valid: a compact capstone: a while loop, its own no-progress window instead of the kit's
detector, futures submitted per batch and read back by position, a summary in two passes."""

import json
from concurrent.futures import ThreadPoolExecutor
from threading import Event

from harness.errors import ProviderError
from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED
from harness.messages import StopReason, SystemMessage, ToolMessage
from harness.tools import execute
from harness.trace import Exit, RunResult

EXERCISE = "05_capstone"
FAILS: set[str] = set()


def _key(call):
    arguments = call.raw_arguments or call.arguments
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = " ".join(arguments.split())
    return call.name + json.dumps(arguments, sort_keys=True, separators=(",", ":"))


def _stuck(window, key, retry):
    repeat = bool(window) and window[-1] == key and not retry
    window.append(key)
    del window[:-6]
    cycle = len(window) == 6 and any(
        len(set(window[:p])) == p and all(window[i] == window[i - p] for i in range(p, 6))
        for p in (2, 3))
    return repeat or cycle


def _run(tools, calls, parallel):
    if not parallel:
        return [execute(tools, c) for c in calls]
    out, i = [], 0
    with ThreadPoolExecutor(8) as pool:
        while i < len(calls):
            j = i
            while j < len(calls) and tools.mode_of(calls[j]) == "parallel":
                j += 1
            if j == i:
                out.append(execute(tools, calls[i]))
                i += 1
                continue
            futures = [pool.submit(execute, tools, c) for c in calls[i:j]]
            out += [f.result() for f in futures]
            i = j
    return out


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    out = RunResult(Exit.DONE, None, [*messages])
    h, window, failed, turn, calls = out.messages, [], set(), 0, []
    stop = cancel.is_set if isinstance(cancel, Event) else (cancel or (lambda: False))

    def done(status, answer=None, pending=(), why=NOT_EXECUTED):
        h.extend(ToolMessage(tool_call_id=c.id, content=why, is_error=True) for c in pending)
        out.status, out.answer = status, answer
        return out

    def ask(sent, choice):
        try:
            r = model.complete(sent, tools=tools.specs, tool_choice=choice)
        except ProviderError as e:
            out.error = e
            return None
        h.append(r.message)
        out.usage += r.usage
        return r

    while turn < max_turns:
        turn += 1
        if stop():
            return done(Exit.INTERRUPTED)
        r = ask([*h], "auto")
        if not r:
            return done(Exit.ERROR)
        calls = r.message.tool_calls
        if r.stop_reason == StopReason.MAX_TOKENS:
            return done(Exit.TRUNCATED, pending=calls)
        if not calls:
            return done(Exit.DONE, r.message.content)
        if stop():
            return done(Exit.INTERRUPTED, pending=calls, why="Cancelled: stopped by the user.")
        if token_budget is not None and out.usage.total_tokens > token_budget:
            return done(Exit.TOKEN_CAP, pending=calls)
        if [_stuck(window, _key(c), _key(c) in failed) for c in calls].count(True):
            return done(Exit.NO_PROGRESS, pending=calls)
        if turn < max_turns:
            results = _run(tools, calls, parallel_tools)
            h += results
            failed = {_key(c) for c, res in zip(calls, results, strict=True) if res.is_error}
    h.extend(ToolMessage(tool_call_id=c.id, content=NOT_EXECUTED, is_error=True) for c in calls)
    system = h[0].content + "\n\n" if h and h[0].role == "system" else ""
    rest = h[1:] if system else h
    r = ask([SystemMessage(content=system + CLOSING_INSTRUCTION), *rest], "none")
    if not r:
        return done(Exit.ERROR)
    cut = r.stop_reason == StopReason.MAX_TOKENS or r.message.tool_calls
    return done(Exit.TURN_CAP, None if cut else r.message.content, pending=r.message.tool_calls)


def summarize_exits(results):
    counts, tools = {}, {}
    for r in results:
        s = str(r.status)
        counts[s] = counts.get(s, 0) + 1
        for name in r.tool_names:
            tools.setdefault(s, {})[name] = tools.setdefault(s, {}).get(name, 0) + 1
    return {s: {"share": n / len(results),
                "top_tools": sorted(tools.get(s, {}).items(), key=lambda t: (-t[1], t[0]))[:3]}
            for s, n in counts.items()}
