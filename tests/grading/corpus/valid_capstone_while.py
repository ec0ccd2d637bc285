"""Valid: the capstone as one while loop with a turn counter, the checks written out in place, a
pool sized to each batch, and a summary with plain dicts and a sort."""

from concurrent.futures import ThreadPoolExecutor

from harness.errors import ProviderError
from harness.loop import CANCELLED, CLOSING_INSTRUCTION, NOT_EXECUTED
from harness.messages import StopReason, SystemMessage, ToolMessage, Usage
from harness.progress import NoProgressDetector, call_key
from harness.tools import execute
from harness.trace import Exit, RunResult

EXERCISE = "05_capstone"
FAILS: set[str] = set()


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    history = list(messages)
    usage = Usage()
    detector = NoProgressDetector()
    failed_keys = set()
    if cancel is None:
        stop_pressed = lambda: False  # noqa: E731
    elif hasattr(cancel, "is_set"):
        stop_pressed = cancel.is_set
    else:
        stop_pressed = cancel

    def unanswered(calls, text):
        for call in calls:
            history.append(ToolMessage(tool_call_id=call.id, content=text, is_error=True))

    turn = 0
    calls = []
    while turn < max_turns:
        turn += 1
        if stop_pressed():
            return RunResult(Exit.INTERRUPTED, None, history, usage=usage)
        try:
            reply = model.complete(history, tools=tools.specs, tool_choice="auto")
        except ProviderError as error:
            return RunResult(Exit.ERROR, None, history, usage=usage, error=error)
        history.append(reply.message)
        usage = usage + reply.usage
        calls = reply.message.tool_calls
        if reply.stop_reason == StopReason.MAX_TOKENS:
            unanswered(calls, NOT_EXECUTED)
            return RunResult(Exit.TRUNCATED, None, history, usage=usage)
        if not calls:
            return RunResult(Exit.DONE, reply.message.content, history, usage=usage)
        if stop_pressed():
            unanswered(calls, CANCELLED)
            return RunResult(Exit.INTERRUPTED, None, history, usage=usage)
        if token_budget is not None and usage.total_tokens > token_budget:
            unanswered(calls, NOT_EXECUTED)
            return RunResult(Exit.TOKEN_CAP, None, history, usage=usage)
        stuck = False
        for call in calls:
            what = call.raw_arguments if call.raw_arguments is not None else call.arguments
            retry = call_key(call.name, what) in failed_keys
            if detector.observe(call.name, what, previous_was_error=retry):
                stuck = True
        if stuck:
            unanswered(calls, NOT_EXECUTED)
            return RunResult(Exit.NO_PROGRESS, None, history, usage=usage)
        if turn == max_turns:
            break
        if parallel_tools:
            results = []
            index = 0
            while index < len(calls):
                if tools.mode_of(calls[index]) != "parallel":
                    results.append(execute(tools, calls[index]))
                    index += 1
                    continue
                end = index
                while end < len(calls) and tools.mode_of(calls[end]) == "parallel":
                    end += 1
                batch = calls[index:end]
                with ThreadPoolExecutor(max_workers=len(batch)) as pool:
                    futures = [pool.submit(execute, tools, call) for call in batch]
                    results.extend(future.result() for future in futures)
                index = end
        else:
            results = [execute(tools, call) for call in calls]
        history.extend(results)
        failed_keys = set()
        for call, result in zip(calls, results, strict=True):
            if result.is_error:
                failed_keys.add(call_key(call.name, call.raw_arguments or call.arguments))

    unanswered(calls, NOT_EXECUTED)
    if stop_pressed():
        return RunResult(Exit.INTERRUPTED, None, history, usage=usage)
    if history and history[0].role == "system":
        prompt = SystemMessage(content=history[0].content + "\n\n" + CLOSING_INSTRUCTION)
        sent = [prompt] + history[1:]
    else:
        sent = [SystemMessage(content=CLOSING_INSTRUCTION)] + history
    try:
        reply = model.complete(sent, tools=tools.specs, tool_choice="none")
    except ProviderError as error:
        return RunResult(Exit.ERROR, None, history, usage=usage, error=error)
    history.append(reply.message)
    usage = usage + reply.usage
    if reply.stop_reason == StopReason.MAX_TOKENS or reply.message.tool_calls:
        unanswered(reply.message.tool_calls, NOT_EXECUTED)
        return RunResult(Exit.TURN_CAP, None, history, usage=usage)
    return RunResult(Exit.TURN_CAP, reply.message.content, history, usage=usage)


def summarize_exits(results):
    counts, tools = {}, {}
    for result in results:
        status = result.status.value
        counts[status] = counts.get(status, 0) + 1
        per_tool = tools.setdefault(status, {})
        for name in result.tool_names:
            per_tool[name] = per_tool.get(name, 0) + 1
    summary = {}
    for status, count in counts.items():
        ranked = sorted(tools[status].items(), key=lambda item: (-item[1], item[0]))
        summary[status] = {"share": count / len(results), "top_tools": ranked[:3]}
    return summary
