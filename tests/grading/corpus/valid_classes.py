"""Valid: an object style (a converter class, a loop object, Decimal money, binary search)."""

import hashlib
import json
from dataclasses import dataclass, field
from decimal import Decimal

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISES = ["01_message_ordering", "02_early_exit", "03_no_progress", "04_cost"]
FAILS: set[str] = set()


def append_round(history, turn, finished):
    by_id = {}
    for call_id, text in finished:
        by_id[call_id] = text
    calls = [call["id"] for call in turn["tool_calls"]]
    for call_id in calls:
        if call_id not in by_id:
            raise ValueError(f"no result was given for tool call {call_id!r}")
    for call_id in by_id:
        if call_id not in calls:
            raise ValueError(f"result for {call_id!r}, which the turn never asked for")
    round_ = [turn] + [{"role": "tool", "tool_call_id": c, "content": by_id[c]} for c in calls]
    return history + round_


class _Converter:
    def __init__(self):
        self.system = None
        self.messages = []

    def add(self, message):
        getattr(self, "_" + message["role"])(message)

    def _system(self, message):
        self.system = message["content"]

    def _user(self, message):
        self.messages.append({"role": "user", "content": [{"type": "text",
                                                           "text": message["content"]}]})

    def _assistant(self, message):
        content = []
        if message["content"]:
            content.append({"type": "text", "text": message["content"]})
        for call in message["tool_calls"]:
            content.append({"type": "tool_use", "id": call["id"], "name": call["name"],
                            "input": dict(call["arguments"])})
        self.messages.append({"role": "assistant", "content": content})

    def _tool(self, message):
        block = {"type": "tool_result", "tool_use_id": message["tool_call_id"],
                 "content": message["content"], "is_error": False}
        last = self.messages[-1]
        if last["role"] == "user" and last["content"][0]["type"] == "tool_result":
            last["content"].append(block)
        else:
            self.messages.append({"role": "user", "content": [block]})


def to_anthropic(history):
    converter = _Converter()
    for message in history:
        converter.add(message)
    return converter.system, converter.messages


@dataclass
class _Loop:
    model: object
    tools: dict
    history: list
    max_turns: int
    turns: int = 0
    pending: list = field(default_factory=list)

    def step(self):
        self.turns += 1
        reply = self.model(self.history, tool_choice="auto")
        self.history.append(reply["message"])
        if reply["stop_reason"] == "max_tokens":
            return ("truncated", None)
        self.pending = reply["message"]["tool_calls"]
        if not self.pending:
            return ("done", reply["message"]["content"])
        if self.turns >= self.max_turns:
            return self.close()
        for call in self.pending:
            output = self.tools[call["name"]](**call["arguments"])
            self.history.append({"role": "tool", "tool_call_id": call["id"], "content": output})
        return None

    def close(self):
        for call in self.pending:
            self.history.append({"role": "tool", "tool_call_id": call["id"],
                                 "content": NOT_EXECUTED})
        copy = [dict(m) for m in self.history]
        if copy[0]["role"] == "system":
            copy[0]["content"] = copy[0]["content"] + "\n\n" + CLOSING_INSTRUCTION
        else:
            copy.insert(0, {"role": "system", "content": CLOSING_INSTRUCTION})
        reply = self.model(copy, tool_choice="none")
        finished = reply["stop_reason"] != "max_tokens" and not reply["message"]["tool_calls"]
        return ("turn_cap", reply["message"]["content"] if finished else None)


def run_loop(model, tools, messages, *, max_turns=10):
    loop = _Loop(model, tools, list(messages), max_turns)
    while True:
        outcome = loop.step()
        if outcome is not None:
            return outcome


def call_key(name, arguments):
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    canonical = json.dumps([name, arguments], sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


class NoProgress:
    WINDOW = 6

    def __init__(self):
        self.history = []

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)
        stuck = len(self.history) > 0 and self.history[-1] == key and not previous_was_error
        self.history.append(key)
        return stuck or self._cycle()

    def _cycle(self):
        window = self.history[-self.WINDOW:]
        if len(window) < self.WINDOW:
            return False
        for period in (2, 3):
            pattern = window[:period]
            if len(set(pattern)) != period:
                continue
            if all(window[i] == pattern[i % period] for i in range(self.WINDOW)):
                return True
        return False


def cumulative_input(prefix, per_turn, turns):
    return (turns * (2 * prefix + (turns - 1) * per_turn)) // 2


def first_turn_over_budget(prefix, per_turn, budget):
    low, high = 1, 1
    while cumulative_input(prefix, per_turn, high) <= budget:
        high *= 2
    while low < high:  # the first turn over the budget lies in [low, high]
        middle = (low + high) // 2
        if cumulative_input(prefix, per_turn, middle) > budget:
            high = middle
        else:
            low = middle + 1
    return low


def run_cost(usages, prices):
    million = Decimal(1_000_000)
    total = Decimal(0)
    for usage in usages:
        fresh = usage["input_tokens"] - usage["cached_input_tokens"] - usage["cache_write_tokens"]
        total += Decimal(fresh) * Decimal(str(prices["input"]))
        total += Decimal(usage["cached_input_tokens"]) * Decimal(str(prices["cached_input"]))
        total += Decimal(usage["cache_write_tokens"]) * Decimal(str(prices["cache_write"]))
        total += Decimal(usage["output_tokens"]) * Decimal(str(prices["output"]))
    return float(total / million)


def fill_answers(answers, mine):
    a = mine.anthropic["usage"]
    o = mine.openai["usage"]
    answers["anthropic_usage"] = {
        "input_tokens": a["input_tokens"] + a["cache_creation_input_tokens"]
        + a["cache_read_input_tokens"],
        "cached_input_tokens": a["cache_read_input_tokens"],
        "cache_write_tokens": a["cache_creation_input_tokens"],
        "output_tokens": a["output_tokens"]}
    answers["openai_usage"] = {
        "cached_input_tokens": o["prompt_tokens_details"]["cached_tokens"],
        "input_tokens": o["prompt_tokens"],
        "cache_write_tokens": 0,
        "output_tokens": o["completion_tokens"]}
    # Rounded by hand to five significant digits, as a student reading a calculator would.
    anthropic = run_cost([answers["anthropic_usage"]], mine.anthropic_prices)
    openai = run_cost([answers["openai_usage"]], mine.openai_prices)
    answers["anthropic_cost"] = float(f"{anthropic:.5g}")
    answers["openai_cost"] = float(f"{openai:.5g}")
