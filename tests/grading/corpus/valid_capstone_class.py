"""Valid: the capstone as an object (one run's state on self, one method per step), threads
started by hand for a batch, and a summary built from Counters."""

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


class _Run:
    def __init__(self, model, tools, messages, max_turns, budget, parallel, cancel):
        self.model, self.tools, self.max_turns = model, tools, max_turns
        self.budget, self.parallel = budget, parallel
        self.cancel = cancel if callable(cancel) else getattr(cancel, "is_set", lambda: False)
        self.history = list(messages)
        self.usage = Usage()
        self.detector = NoProgressDetector()
        self.failed = set()
        self.error = None

    def finish(self, status, answer=None, pending=(), text=NOT_EXECUTED):
        for call in pending:
            self.history.append(ToolMessage(tool_call_id=call.id, content=text, is_error=True))
        result = RunResult(status, answer, self.history, usage=self.usage)
        result.error = self.error
        return result

    def ask(self, messages, choice):
        try:
            reply = self.model.complete(messages, tools=self.tools.specs, tool_choice=choice)
        except ProviderError as error:
            self.error = error
            return None
        self.history.append(reply.message)
        self.usage = self.usage + reply.usage
        return reply

    def stuck(self, calls):
        verdicts = []
        for call in calls:
            arguments = call.raw_arguments if call.raw_arguments else call.arguments
            retry = call_key(call.name, arguments) in self.failed
            verdicts.append(self.detector.observe(call.name, arguments, previous_was_error=retry))
        return True in verdicts

    def execute_all(self, calls):
        if not self.parallel:
            return [execute(self.tools, call) for call in calls]
        slots = [None] * len(calls)
        group = []

        def flush():
            threads = [threading.Thread(target=lambda i=i: slots.__setitem__(
                i, execute(self.tools, calls[i]))) for i in group]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            group.clear()

        for index, call in enumerate(calls):
            if self.tools.mode_of(call) == "parallel":
                group.append(index)
            else:
                flush()
                slots[index] = execute(self.tools, call)
        flush()
        return slots

    def close(self, pending):
        for call in pending:
            self.history.append(ToolMessage(tool_call_id=call.id, content=NOT_EXECUTED,
                                            is_error=True))
        head = self.history[0] if self.history else None
        if isinstance(head, SystemMessage):
            sent = [SystemMessage(content=f"{head.content}\n\n{CLOSING_INSTRUCTION}")]
            sent += self.history[1:]
        else:
            sent = [SystemMessage(content=CLOSING_INSTRUCTION)] + self.history
        reply = self.ask(sent, "none")
        if reply is None:
            return self.finish(Exit.ERROR)
        if reply.stop_reason is StopReason.MAX_TOKENS or reply.message.tool_calls:
            return self.finish(Exit.TURN_CAP, pending=reply.message.tool_calls)
        return self.finish(Exit.TURN_CAP, reply.message.content)

    def go(self):
        calls = []
        for number in range(self.max_turns):
            if self.cancel():
                return self.finish(Exit.INTERRUPTED)
            reply = self.ask(list(self.history), "auto")
            if reply is None:
                return self.finish(Exit.ERROR)
            calls = reply.message.tool_calls
            if reply.stop_reason is StopReason.MAX_TOKENS:
                return self.finish(Exit.TRUNCATED, pending=calls)
            if len(calls) == 0:
                return self.finish(Exit.DONE, reply.message.content)
            if self.cancel():
                return self.finish(Exit.INTERRUPTED, pending=calls, text=CANCELLED)
            if self.budget is not None and self.usage.total_tokens > self.budget:
                return self.finish(Exit.TOKEN_CAP, pending=calls)
            if self.stuck(calls):
                return self.finish(Exit.NO_PROGRESS, pending=calls)
            if number + 1 == self.max_turns:
                break
            results = self.execute_all(calls)
            self.history += results
            self.failed = {call_key(c.name, c.raw_arguments or c.arguments)
                           for c, r in zip(calls, results, strict=True) if r.is_error}
        return self.close(calls)


def run_agent(model, tools, messages, *, max_turns=10, token_budget=None,
              parallel_tools=False, cancel=None):
    return _Run(model, tools, messages, max_turns, token_budget, parallel_tools, cancel).go()


def summarize_exits(results):
    if not results:
        return {}
    runs = Counter(result.status.value for result in results)
    tools = {}
    for result in results:
        tools.setdefault(result.status.value, Counter()).update(result.tool_names)
    summary = {}
    for status, count in runs.items():
        ranked = sorted(tools[status].items(), key=lambda pair: (-pair[1], pair[0]))
        summary[status] = {"share": count / len(results), "top_tools": ranked[:3]}
    return summary
