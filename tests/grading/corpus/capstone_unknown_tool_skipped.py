"""Bug: a call to a tool the toolbox does not have gets no result."""

from concurrent.futures import ThreadPoolExecutor
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
FAILS = {"run_agent_errors_as_results"}
EXPECT = 'there is no tool'


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    result = RunResult(Exit.DONE, None, list(messages))  # a copy: the caller's list stays
    history = result.messages
    stopped = cancel.is_set if isinstance(cancel, Event) else cancel or (lambda: False)
    detector, errored = NoProgressDetector(), set()

    def send(sent, tool_choice):
        try:
            reply = model.complete(sent, tools=tools.specs, tool_choice=tool_choice)
        except ProviderError as error:  # the caller decides: no retry here
            result.error = error
            return None
        history.append(reply.message)  # whole: text, reasoning, calls, extra
        result.usage += reply.usage
        return reply

    def end(status, answer=None, pending=(), text=""):
        history.extend(ToolMessage(tool_call_id=c.id, content=text, is_error=True)
                       for c in pending)  # every call gets a result
        result.status, result.answer = status, answer
        return result

    def run_tools(calls):
        """The results of one reply's calls, in the order the model asked for them."""
        if not parallel_tools:
            return [execute(tools, call) for call in calls]
        results, batch = [], []
        with ThreadPoolExecutor(max_workers=8) as pool:
            for call in [*calls, None]:
                if call is not None and tools.mode_of(call) == "parallel":
                    batch.append(call)  # parallel-safe: joins the open batch
                    continue
                # map waits for the whole batch and keeps its order, the model's
                results += pool.map(lambda c: execute(tools, c), batch)
                batch = []
                if call is not None:  # an exclusive call runs alone: a barrier
                    results.append(execute(tools, call))
        return results

    for turn in range(1, max_turns + 1):
        if stopped():
            return end(Exit.INTERRUPTED)
        reply = send(list(history), "auto")
        if reply is None:
            return end(Exit.ERROR)
        calls = reply.message.tool_calls
        if reply.stop_reason == StopReason.MAX_TOKENS:
            return end(Exit.TRUNCATED, pending=calls, text=NOT_EXECUTED_TRUNCATED)
        if not calls:
            return end(Exit.DONE, reply.message.content)
        if stopped():
            return end(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
        if token_budget is not None and result.usage.total_tokens > token_budget:
            return end(Exit.TOKEN_CAP, pending=calls, text=NOT_EXECUTED_BUDGET)
        keys = [call_key(c.name, c.raw_arguments or c.arguments) for c in calls]
        repeated = [detector.observe(c.name, c.raw_arguments or c.arguments,
                                     previous_was_error=key in errored)
                    for c, key in zip(calls, keys, strict=True)]
        if any(repeated):
            return end(Exit.NO_PROGRESS, pending=calls, text=NOT_EXECUTED_REPEAT)
        if turn == max_turns:
            break  # these calls stay pending
        results = run_tools(calls)
        history.extend(r for r, c in zip(results, calls, strict=True)
                       if c.name in tools)  # an unknown tool's result is left out
        errored = {key for key, r in zip(keys, results, strict=True) if r.is_error}
    history.extend(ToolMessage(tool_call_id=c.id, content=NOT_EXECUTED, is_error=True)
                   for c in calls)
    if history and isinstance(history[0], SystemMessage):
        system = SystemMessage(content=history[0].content + "\n\n" + CLOSING_INSTRUCTION)
        closing = [system, *history[1:]]
    else:
        closing = [SystemMessage(content=CLOSING_INSTRUCTION), *history]
    reply = send(closing, "none")
    if reply is None:
        return end(Exit.ERROR)
    calls = reply.message.tool_calls
    if reply.stop_reason == StopReason.MAX_TOKENS or calls:  # not an answer either
        return end(Exit.TURN_CAP, pending=calls, text=NOT_EXECUTED)
    return end(Exit.TURN_CAP, reply.message.content)
