"""The reference version of every exercise function, in the exercises' dict form.

Where the harness already has the function with the exercise's signature, this module simply
names it (`call_key`, `NoProgress`, the cost functions): the library is the reference. The dict-form
functions the library does not have are written here with the same rules as `harness.loop`:
results in model order, truncation is not an answer, and at the cap "Not executed" results plus one
text-only closing call whose system prompt carries the instruction. `to_anthropic` goes through the
Anthropic adapter, the only place that knows that wire format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from harness.cost import cumulative_input, first_turn_over_budget, run_cost
from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED
from harness.progress import NoProgressDetector, call_key

__all__ = ["NoProgress", "append_round", "call_key", "cumulative_input",
           "first_turn_over_budget", "run_cost", "run_loop", "to_anthropic"]

NoProgress = NoProgressDetector

Model = Callable[..., dict[str, Any]]


def append_round(history: list[dict[str, Any]], turn: dict[str, Any],
                 finished: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The history, then the turn, then one tool message per call in the order of the calls.

    Example:
        >>> turn = {"role": "assistant", "content": None,
        ...         "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]}
        >>> append_round([], turn, [("c1", "ok")])[-1]
        {'role': 'tool', 'tool_call_id': 'c1', 'content': 'ok'}
    """
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    for call_id in asked:
        if call_id not in results:
            raise ValueError(f"call {call_id} has no result")
    for call_id in results:
        if call_id not in asked:
            raise ValueError(f"result {call_id} answers no call of this turn")
    tool_messages = [{"role": "tool", "tool_call_id": call_id, "content": results[call_id]}
                     for call_id in asked]
    return [*history, turn, *tool_messages]


def to_anthropic(history: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    """The `system` and `messages` of an Anthropic Messages request for this history."""
    from harness.providers.anthropic import to_wire  # imported late: grading loads without it

    body = to_wire(history)
    return body.get("system"), body["messages"]


def run_loop(model: Model, tools: Mapping[str, Callable[..., str]],
             messages: list[dict[str, Any]], *, max_turns: int = 10) -> tuple[str, str | None]:
    """Run the loop; return (status, answer) with status done, truncated or turn_cap."""
    history = list(messages)  # the caller's list is left as it was
    calls: list[dict[str, Any]] = []
    for turn in range(1, max_turns + 1):
        reply = model(history, tool_choice="auto")
        message = reply["message"]
        history.append(message)
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None  # a cut reply is not an answer
        calls = message.get("tool_calls") or []
        if not calls:
            return "done", message.get("content")
        if turn == max_turns:
            break  # these calls stay pending: answered below, never run
        for call in calls:
            history.append({"role": "tool", "tool_call_id": call["id"],
                            "content": _run(tools, call)})
    for call in calls:
        history.append({"role": "tool", "tool_call_id": call["id"], "content": NOT_EXECUTED})
    closing = model(_with_instruction(history), tool_choice="none")
    history.append(closing["message"])
    return "turn_cap", closing["message"].get("content")


def _run(tools: Mapping[str, Callable[..., str]], call: dict[str, Any]) -> str:
    try:
        return str(tools[call["name"]](**call["arguments"]))
    except Exception as exc:  # the model reads the failure and adapts; the loop goes on
        return f"Error: {call['name']} failed with {type(exc).__name__}: {exc}"


def _with_instruction(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy whose system message ends with the instruction; the history itself is untouched."""
    if history and history[0].get("role") == "system":
        system = {"role": "system", "content": f"{history[0]['content']}\n\n{CLOSING_INSTRUCTION}"}
        return [system, *history[1:]]
    return [{"role": "system", "content": CLOSING_INSTRUCTION}, *history]
