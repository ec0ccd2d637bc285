"""Valid: the capstone with its run state in a dataclass, a match statement on what each reply
says, a pool of the default size (the graded batches are small), and a summary with defaultdicts."""

from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from harness.errors import ProviderError
from harness.loop import CANCELLED, CLOSING_INSTRUCTION, NOT_EXECUTED
from harness.messages import StopReason, SystemMessage, ToolMessage, Usage
from harness.progress import NoProgressDetector, call_key
from harness.tools import execute
from harness.trace import Exit, RunResult

EXERCISE = "05_capstone"
FAILS: set[str] = set()


@dataclass
class _State:
    history: list
    usage: Usage = field(default_factory=Usage)
    error: ProviderError | None = None
    failed: set = field(default_factory=set)
    detector: NoProgressDetector = field(default_factory=NoProgressDetector)

    def result(self, status, answer=None, pending=(), text=NOT_EXECUTED):
        self.history.extend(ToolMessage(tool_call_id=c.id, content=text, is_error=True)
                            for c in pending)
        return RunResult(status, answer, self.history, usage=self.usage, error=self.error)


def _call(model, tools, state, sent, choice):
    try:
        reply = model.complete(sent, tools=tools.specs, tool_choice=choice)
    except ProviderError as error:
        state.error = error
        return None
    state.history.append(reply.message)
    state.usage += reply.usage
    return reply


def _run_all(tools, calls, parallel):
    if not parallel:
        return [execute(tools, call) for call in calls]
    results, batch = [], []
    with ThreadPoolExecutor() as pool:
        for call in calls + [None]:
            if call is not None and tools.mode_of(call) == "parallel":
                batch.append(call)
                continue
            futures = [pool.submit(execute, tools, c) for c in batch]
            results.extend(f.result() for f in futures)
            batch = []
            if call is not None:
                results.append(execute(tools, call))
    return results


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    state = _State(list(messages))
    stopped = (lambda: False) if cancel is None else getattr(cancel, "is_set", cancel)
    calls = []
    for turn in range(1, max_turns + 1):
        if stopped():
            return state.result(Exit.INTERRUPTED)
        reply = _call(model, tools, state, list(state.history), "auto")
        if reply is None:
            return state.result(Exit.ERROR)
        calls = reply.message.tool_calls
        match reply.stop_reason, bool(calls):
            case StopReason.MAX_TOKENS, _:
                return state.result(Exit.TRUNCATED, pending=calls)
            case _, False:
                return state.result(Exit.DONE, reply.message.content)
        if stopped():
            return state.result(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
        if token_budget is not None and state.usage.total_tokens > token_budget:
            return state.result(Exit.TOKEN_CAP, pending=calls)
        seen = [state.detector.observe(
            c.name, c.raw_arguments or c.arguments,
            previous_was_error=call_key(c.name, c.raw_arguments or c.arguments) in state.failed)
            for c in calls]
        if any(seen):
            return state.result(Exit.NO_PROGRESS, pending=calls)
        if turn == max_turns:
            break
        results = _run_all(tools, calls, parallel_tools)
        state.history.extend(results)
        state.failed = {call_key(c.name, c.raw_arguments or c.arguments)
                        for c, r in zip(calls, results, strict=True) if r.is_error}
    state.history.extend(ToolMessage(tool_call_id=c.id, content=NOT_EXECUTED, is_error=True)
                         for c in calls)
    head = state.history[:1]
    if head and isinstance(head[0], SystemMessage):
        sent = [SystemMessage(content=head[0].content + "\n\n" + CLOSING_INSTRUCTION)]
        sent += state.history[1:]
    else:
        sent = [SystemMessage(content=CLOSING_INSTRUCTION)] + state.history
    reply = _call(model, tools, state, sent, "none")
    if reply is None:
        return state.result(Exit.ERROR)
    if reply.stop_reason is StopReason.MAX_TOKENS or reply.message.tool_calls:
        return state.result(Exit.TURN_CAP, pending=reply.message.tool_calls)
    return state.result(Exit.TURN_CAP, reply.message.content)


def summarize_exits(results):
    runs = defaultdict(int)
    tools = defaultdict(lambda: defaultdict(int))
    for r in results:
        runs[r.status.value] += 1
        for name in r.tool_names:
            tools[r.status.value][name] += 1
    return {status: {"share": n / len(results),
                     "top_tools": sorted(tools[status].items(),
                                         key=lambda kv: (-kv[1], kv[0]))[:3]}
            for status, n in runs.items()}
