"""Valid: one list grown in place (a copy of the caller's, made on entry), hashes of sorted JSON."""

import json
from collections import deque

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISES = ["01_message_ordering", "02_early_exit", "03_no_progress", "04_cost"]
FAILS: set[str] = set()


def append_round(history, turn, finished):
    results = {}
    for call_id, text in finished:
        results[call_id] = text
    new_history = list(history)
    new_history.append(turn)
    for call in turn["tool_calls"]:
        if call["id"] not in results:
            raise ValueError("missing result for " + call["id"])
        new_history.append({"role": "tool", "tool_call_id": call["id"],
                            "content": results.pop(call["id"])})
    if results:
        raise ValueError("results without a call: " + ", ".join(results))
    return new_history


def to_anthropic(history):
    system = None
    messages = []
    pending_results = []
    for message in history:
        if message["role"] != "tool" and pending_results:
            messages.append({"role": "user", "content": pending_results})
            pending_results = []
        if message["role"] == "system":
            system = message["content"]
        elif message["role"] == "user":
            messages.append({"role": "user", "content": message["content"]})
        elif message["role"] == "assistant":
            content = []
            if message["content"] is not None:
                content.append({"type": "text", "text": message["content"]})
            for call in message["tool_calls"]:
                content.append({"type": "tool_use", "id": call["id"], "name": call["name"],
                                "input": call["arguments"]})
            messages.append({"role": "assistant", "content": content})
        else:
            pending_results.append({"type": "tool_result", "tool_use_id": message["tool_call_id"],
                                    "content": [{"type": "text", "text": message["content"]}]})
    if pending_results:
        messages.append({"role": "user", "content": pending_results})
    return system, messages


def run_loop(model, tools, messages, *, max_turns=10):
    messages = messages[:]  # the caller's list is left as it was; this one only ever grows
    for turn in range(max_turns):
        reply = model(messages)
        messages.append(reply["message"])
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        calls = reply["message"]["tool_calls"]
        if len(calls) == 0:
            return "done", reply["message"]["content"]
        last_turn = turn == max_turns - 1
        for call in calls:
            if last_turn:
                content = NOT_EXECUTED
            else:
                content = tools[call["name"]](**call["arguments"])
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    closing = list(messages)
    if closing and closing[0]["role"] == "system":
        closing[0] = {"role": "system",
                      "content": closing[0]["content"] + "\n\n" + CLOSING_INSTRUCTION}
    else:
        closing.insert(0, {"role": "system", "content": CLOSING_INSTRUCTION})
    return "turn_cap", _closing_answer(model(closing, tool_choice="none"))


def call_key(name, arguments):
    if type(arguments) is str:
        arguments = json.loads(arguments)
    return json.dumps({"tool": name, "args": arguments}, sort_keys=True, separators=(",", ":"))


class NoProgress:
    def __init__(self, window=6):
        self.recent = deque(maxlen=window)

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)
        if self.recent and self.recent[-1] == key and not previous_was_error:
            self.recent.append(key)
            return True
        self.recent.append(key)
        if len(self.recent) < self.recent.maxlen:
            return False
        keys = list(self.recent)
        two = len({keys[0], keys[1]}) == 2 and keys == keys[:2] * 3
        three = len({keys[0], keys[1], keys[2]}) == 3 and keys == keys[:3] * 2
        return two or three


def cumulative_input(prefix, per_turn, turns):
    total = 0
    for turn in range(1, turns + 1):
        total += prefix + per_turn * (turn - 1)
    return total


def first_turn_over_budget(prefix, per_turn, budget):
    spent, turn = 0, 0
    while spent <= budget:
        turn += 1
        spent += prefix + per_turn * (turn - 1)
    return turn


def run_cost(usages, prices):
    dollars = 0.0
    for usage in usages:
        cached = usage.get("cached_input_tokens", 0)
        written = usage.get("cache_write_tokens", 0)
        dollars += (usage["input_tokens"] - cached - written) / 1e6 * prices["input"]
        dollars += cached / 1e6 * prices["cached_input"]
        dollars += written / 1e6 * prices["cache_write"]
        dollars += usage["output_tokens"] / 1e6 * prices["output"]
    return dollars


def fill_answers(answers, mine):
    anthropic = mine.anthropic["usage"]
    openai = mine.openai["usage"]
    cache_reads = anthropic["cache_read_input_tokens"]
    everything = anthropic["input_tokens"] + cache_reads + anthropic["cache_creation_input_tokens"]
    answers["anthropic_usage"] = dict(input_tokens=everything,
                                      output_tokens=anthropic["output_tokens"],
                                      cached_input_tokens=cache_reads,
                                      cache_write_tokens=anthropic["cache_creation_input_tokens"])
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]], mine.anthropic_prices)
    answers["openai_usage"] = dict(input_tokens=openai["prompt_tokens"],
                                   output_tokens=openai["completion_tokens"],
                                   cached_input_tokens=openai["prompt_tokens_details"][
                                       "cached_tokens"], cache_write_tokens=0)
    answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.openai_prices)


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
