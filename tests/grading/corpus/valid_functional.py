"""Valid: a functional style (sorting by position, groupby, recursion, generator sums)."""

import json
import math
from itertools import groupby

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISES = ["01_message_ordering", "02_early_exit", "03_no_progress", "04_cost"]
FAILS: set[str] = set()


def append_round(history, turn, finished):
    position = {call["id"]: index for index, call in enumerate(turn["tool_calls"])}
    unknown = [call_id for call_id, _ in finished if call_id not in position]
    missing = sorted(set(position) - {call_id for call_id, _ in finished})
    if unknown or missing:
        raise ValueError(f"unmatched tool call id: {(unknown or missing)[0]}")
    ordered = sorted(finished, key=lambda pair: position[pair[0]])
    return list(history) + [turn] + [
        {"role": "tool", "tool_call_id": call_id, "content": text} for call_id, text in ordered]


def _blocks(message):
    text = [{"type": "text", "text": message["content"]}] if message.get("content") else []
    return text + [{"type": "tool_use", "id": c["id"], "name": c["name"], "input": c["arguments"]}
                   for c in message.get("tool_calls") or []]


def to_anthropic(history):
    system = next((m["content"] for m in history if m["role"] == "system"), None)
    out = []
    for is_tool, group in groupby((m for m in history if m["role"] != "system"),
                                  key=lambda m: m["role"] == "tool"):
        group = list(group)
        if is_tool:
            out.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": m["content"]}
                for m in group]})
        else:
            out += [{"role": m["role"], "content": _blocks(m) if m["role"] == "assistant"
                     else m["content"]} for m in group]
    return system, out


def _closing(history):
    head, *rest = history or [None]
    if head and head["role"] == "system":
        return [{"role": "system", "content": f"{head['content']}\n\n{CLOSING_INSTRUCTION}"}, *rest]
    return [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]


def _step(model, tools, history, turns_left):
    reply = model(history, tool_choice="auto")
    message, history = reply["message"], history + [reply["message"]]
    if reply["stop_reason"] == "max_tokens":
        return "truncated", None
    if not message.get("tool_calls"):
        return "done", message.get("content")
    if turns_left == 1:
        answered = history + [{"role": "tool", "tool_call_id": c["id"], "content": NOT_EXECUTED}
                              for c in message["tool_calls"]]
        return "turn_cap", _closing_answer(model(_closing(answered), tool_choice="none"))
    results = [{"role": "tool", "tool_call_id": c["id"],
                "content": tools[c["name"]](**c["arguments"])} for c in message["tool_calls"]]
    return _step(model, tools, history + results, turns_left - 1)


def run_loop(model, tools, messages, *, max_turns=10):
    return _step(model, tools, list(messages), max_turns)


def _canonical(value):
    if isinstance(value, dict):
        items = (f"{json.dumps(k)}:{_canonical(value[k])}" for k in sorted(value))
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    return json.dumps(value)


def call_key(name, arguments):
    parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
    return f"{name}({_canonical(parsed)})"


class NoProgress:
    def __init__(self, window=6):
        self.window, self.seen = window, ()

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)
        repeat = bool(self.seen) and self.seen[-1] == key and not previous_was_error
        self.seen = (self.seen + (key,))[-self.window:]
        full = len(self.seen) == self.window
        cycle = full and any(len(set(self.seen[:p])) == p and self.seen == (self.seen[:p] * 6)[:6]
                             for p in (2, 3))
        return repeat or cycle


def cumulative_input(prefix, per_turn, turns):
    return sum(prefix + per_turn * n for n in range(turns))


def first_turn_over_budget(prefix, per_turn, budget):
    # Solve the quadratic, then step to the exact integer answer.
    a, b = per_turn / 2, prefix - per_turn / 2
    guess = max(1, int((-b + math.sqrt(b * b + 4 * a * budget)) / (2 * a)) if a else
                int(budget // prefix))
    while guess > 1 and cumulative_input(prefix, per_turn, guess - 1) > budget:
        guess -= 1
    while cumulative_input(prefix, per_turn, guess) <= budget:
        guess += 1
    return guess


def run_cost(usages, prices):
    return sum((u["input_tokens"] - u["cached_input_tokens"] - u["cache_write_tokens"])
               * prices["input"] + u["cached_input_tokens"] * prices["cached_input"]
               + u["cache_write_tokens"] * prices["cache_write"]
               + u["output_tokens"] * prices["output"] for u in usages) / 1e6


def fill_answers(answers, mine):
    a, o = mine.anthropic["usage"], mine.openai["usage"]
    answers.update(
        anthropic_usage={"input_tokens": sum(a[k] for k in ("input_tokens",
                                                           "cache_read_input_tokens",
                                                           "cache_creation_input_tokens")),
                         "output_tokens": a["output_tokens"],
                         "cached_input_tokens": a["cache_read_input_tokens"],
                         "cache_write_tokens": a["cache_creation_input_tokens"]},
        openai_usage={"input_tokens": o["prompt_tokens"], "output_tokens": o["completion_tokens"],
                      "cached_input_tokens": o["prompt_tokens_details"]["cached_tokens"],
                      "cache_write_tokens": 0})
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]], mine.anthropic_prices)
    answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.openai_prices)


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
