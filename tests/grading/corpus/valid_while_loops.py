"""Valid: explicit while loops and counters, math.comb, a deque of keys, "" for no system."""

import json
import math
from collections import deque

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISES = ["01_message_ordering", "02_early_exit", "03_no_progress", "04_cost"]
FAILS: set[str] = set()


def append_round(history, turn, finished):
    out = history[:]
    out.append(turn)
    remaining = list(finished)
    calls = turn["tool_calls"]
    i = 0
    while i < len(calls):
        call_id = calls[i]["id"]
        match = [pair for pair in remaining if pair[0] == call_id]
        if not match:
            raise ValueError(f"tool call {call_id} was never answered")
        remaining.remove(match[0])
        out.append({"role": "tool", "tool_call_id": call_id, "content": match[0][1]})
        i += 1
    if remaining:
        raise ValueError(f"{remaining[0][0]} does not belong to this turn")
    return out


def to_anthropic(history):
    system = ""
    messages = []
    i = 0
    while i < len(history):
        message = history[i]
        if message["role"] == "system":
            system = message["content"]
        elif message["role"] == "user":
            messages.append({"role": "user", "content": message["content"]})
        elif message["role"] == "assistant":
            blocks = []
            if message.get("content"):
                blocks.append({"type": "text", "text": message["content"]})
            for call in message.get("tool_calls", []):
                blocks.append({"input": call["arguments"], "name": call["name"],
                               "id": call["id"], "type": "tool_use"})
            messages.append({"role": "assistant", "content": blocks})
        else:
            results = []
            while i < len(history) and history[i]["role"] == "tool":
                results.append({"type": "tool_result", "tool_use_id": history[i]["tool_call_id"],
                                "content": history[i]["content"]})
                i += 1
            messages.append({"role": "user", "content": results})
            continue
        i += 1
    return system, messages


def run_loop(model, tools, messages, *, max_turns=10):
    history = [dict(m) for m in messages]
    calls_made = 0
    while calls_made < max_turns:
        reply = model(history)
        calls_made += 1
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            return ("truncated", None)
        if not message["tool_calls"]:
            return ("done", message["content"])
        if calls_made < max_turns:
            for call in message["tool_calls"]:
                text = tools[call["name"]](**call["arguments"])
                history.append({"role": "tool", "tool_call_id": call["id"], "content": text})
    for call in message["tool_calls"]:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    if history[0]["role"] == "system":
        closing = [{"role": "system",
                    "content": history[0]["content"] + "\n\n" + CLOSING_INSTRUCTION}]
        closing += history[1:]
    else:
        closing = [{"role": "system", "content": CLOSING_INSTRUCTION}] + history
    reply = model(closing, tool_choice="none")
    while reply["stop_reason"] == "max_tokens" or reply["message"]["tool_calls"]:
        return ("turn_cap", None)  # cut off, or a call made anyway: not an answer
    return ("turn_cap", reply["message"]["content"])


def call_key(name, arguments):
    parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
    return name + " " + json.dumps(parsed, sort_keys=True, ensure_ascii=False)


class NoProgress:
    def __init__(self):
        self.keys = deque(maxlen=6)

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)
        last = self.keys[-1] if self.keys else None
        self.keys.append(key)
        if key == last and not previous_was_error:
            return True
        if len(self.keys) < 6:
            return False
        period = 2
        while period <= 3:
            head = [self.keys[j] for j in range(period)]
            if len(set(head)) == period and all(
                    self.keys[j] == head[j % period] for j in range(6)):
                return True
            period += 1
        return False


def cumulative_input(prefix, per_turn, turns):
    return prefix * turns + per_turn * math.comb(turns, 2)


def first_turn_over_budget(prefix, per_turn, budget):
    turn = 0
    while True:
        turn += 1
        if cumulative_input(prefix, per_turn, turn) > budget:
            return turn


def run_cost(usages, prices):
    total = 0
    i = 0
    while i < len(usages):
        usage = usages[i]
        normal = usage["input_tokens"] - usage["cached_input_tokens"] - usage["cache_write_tokens"]
        total += normal * prices["input"] + usage["cached_input_tokens"] * prices["cached_input"]
        total += usage["cache_write_tokens"] * prices["cache_write"]
        total += usage["output_tokens"] * prices["output"]
        i += 1
    return total / 1_000_000


def fill_answers(answers, mine):
    usage = mine.anthropic["usage"]
    neutral = {"input_tokens": usage["input_tokens"], "output_tokens": usage["output_tokens"],
               "cached_input_tokens": 0, "cache_write_tokens": usage["cache_creation_input_tokens"]}
    for extra in ("cache_read_input_tokens", "cache_creation_input_tokens"):
        neutral["input_tokens"] += usage[extra]
    neutral["cached_input_tokens"] += usage["cache_read_input_tokens"]
    answers["anthropic_usage"] = neutral
    answers["anthropic_cost"] = run_cost([neutral], mine.anthropic_prices)
    usage = mine.openai["usage"]
    neutral = {"input_tokens": usage["prompt_tokens"], "output_tokens": usage["completion_tokens"],
               "cached_input_tokens": usage["prompt_tokens_details"]["cached_tokens"],
               "cache_write_tokens": 0}
    answers["openai_usage"] = neutral
    answers["openai_cost"] = run_cost([neutral], mine.openai_prices)
