"""Valid: compact code (for/else, tuples, comprehensions, a dict of prices by kind)."""

import json

from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED

EXERCISES = ["01_message_ordering", "02_early_exit", "03_no_progress", "04_cost"]
FAILS: set[str] = set()


def append_round(history, turn, finished):
    results, ids = dict(finished), [c["id"] for c in turn["tool_calls"]]
    bad = [i for i in ids if i not in results] + [i for i in results if i not in ids]
    if bad:
        raise ValueError(f"{bad[0]}: every call needs exactly one result")
    return [*history, turn, *({"role": "tool", "tool_call_id": i, "content": results[i]}
                              for i in ids)]


def to_anthropic(history):
    out = []
    for m in history[1:] if history and history[0]["role"] == "system" else history:
        if m["role"] == "tool":
            block = {"type": "tool_result", "tool_use_id": m["tool_call_id"],
                     "content": m["content"]}
            if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                out[-1]["content"].append(block)
                continue
            out.append({"role": "user", "content": [block]})
        elif m["role"] == "assistant":
            out.append({"role": "assistant", "content": [
                *([{"type": "text", "text": m["content"]}] if m["content"] else []),
                *({"type": "tool_use", "id": c["id"], "name": c["name"], "input": c["arguments"]}
                  for c in m["tool_calls"])]})
        else:
            out.append({"role": "user", "content": m["content"]})
    system = history[0]["content"] if history and history[0]["role"] == "system" else None
    return system, out


def run_loop(model, tools, messages, *, max_turns=10):
    history = [*messages]
    for turn in range(max_turns):
        reply = model(history)
        history.append(message := reply["message"])
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        if not message["tool_calls"]:
            return "done", message["content"]
        if turn + 1 < max_turns:
            history += [{"role": "tool", "tool_call_id": c["id"],
                         "content": tools[c["name"]](**c["arguments"])}
                        for c in message["tool_calls"]]
    else:
        history += [{"role": "tool", "tool_call_id": c["id"], "content": NOT_EXECUTED}
                    for c in message["tool_calls"]]
    system = [m for m in history[:1] if m["role"] == "system"]
    prompt = (system[0]["content"] + "\n\n" if system else "") + CLOSING_INSTRUCTION
    closing = [{"role": "system", "content": prompt}, *history[len(system):]]
    return "turn_cap", _closing_answer(model(closing, tool_choice="none"))


def call_key(name, arguments):
    args = json.loads(arguments) if isinstance(arguments, str) else arguments
    return name + "|" + json.dumps(args, sort_keys=True, separators=(",", ":"))


class NoProgress:
    def __init__(self, window=6):
        self.window, self.keys = window, []

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)
        repeat = self.keys[-1:] == [key] and not previous_was_error
        self.keys = [*self.keys, key][-self.window:]
        w = self.keys
        return repeat or (len(w) == self.window and any(
            len(set(w[:p])) == p and w == (w[:p] * self.window)[:self.window] for p in (2, 3)))


def cumulative_input(prefix, per_turn, turns):
    return turns * prefix + per_turn * (turns * (turns - 1) // 2)


def first_turn_over_budget(prefix, per_turn, budget):
    n = 1
    while n * prefix + per_turn * n * (n - 1) // 2 <= budget:
        n += 1
    return n


_KINDS = ("input", "cached_input", "cache_write", "output")


def run_cost(usages, prices):
    counts = [(u["input_tokens"] - u["cached_input_tokens"] - u["cache_write_tokens"],
               u["cached_input_tokens"], u["cache_write_tokens"], u["output_tokens"])
              for u in usages]
    return sum(n * prices[k] for c in counts for n, k in zip(c, _KINDS, strict=True)) / 1e6


def fill_answers(answers, mine):
    a, o = mine.anthropic["usage"], mine.openai["usage"]
    answers |= {
        "anthropic_usage": {"input_tokens": a["input_tokens"] + a["cache_read_input_tokens"]
                            + a["cache_creation_input_tokens"],
                            "output_tokens": a["output_tokens"],
                            "cached_input_tokens": a["cache_read_input_tokens"],
                            "cache_write_tokens": a["cache_creation_input_tokens"]},
        "openai_usage": {"input_tokens": o["prompt_tokens"],
                         "output_tokens": o["completion_tokens"],
                         "cached_input_tokens": o["prompt_tokens_details"]["cached_tokens"],
                         "cache_write_tokens": 0}}
    answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]], mine.anthropic_prices)
    answers["openai_cost"] = run_cost([answers["openai_usage"]], mine.openai_prices)


def _closing_answer(reply):
    # A closing reply cut off, or still asking for a tool, is not an answer either.
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return None
    return reply["message"]["content"]
