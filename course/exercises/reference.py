"""The reference version of every exercise function, in the exercises' dict form.

Where the harness already has the function with the exercise's signature, this module simply
names it (`call_key`, `NoProgress`, the cost functions): the library is the reference. `run_loop`
is `harness.loop.run` on the dict form (through `NeutralModel`), so the exercise and the library
cannot disagree about an exit. `to_anthropic` goes through the Anthropic adapter, the only place
that knows that wire format. Only `append_round` is written here: the library has no function
with its signature (`harness.tools.run_calls` returns results in model order for the same reason).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from harness import loop
from harness import cost
from harness.cost import Price, cumulative_input, first_turn_over_budget
from harness.messages import Usage
from course.exercises.dictmodel import NeutralModel
from harness.messages import parse_messages
from harness.progress import NoProgressDetector, call_key
from harness.tools import Tool, Toolbox
from harness.trace import Exit, RunResult, summarize

__all__ = ["NoProgress", "append_round", "call_key", "cumulative_input",
           "first_turn_over_budget", "run_agent", "run_cost", "run_loop", "summarize_exits",
           "to_anthropic"]

NoProgress = NoProgressDetector
run_agent = loop.run
"""The capstone's loop is the library's: `run(model, tools, messages, *, max_turns, ...)`."""

Model = Callable[..., dict[str, Any]]


def append_round(history: list[dict[str, Any]], turn: dict[str, Any],
                 finished: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The history, then the turn, then one tool message per call in the order of the calls.

    Example:
        >>> turn = {"role": "assistant", "content": None,
        ...         "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]}
        >>> append_round([], turn, [("c1", "ok")])[-1]
        {'role': 'tool', 'content': 'ok', 'tool_call_id': 'c1'}
    """
    results = dict(finished)
    asked = [call["id"] for call in turn["tool_calls"]]
    for call_id in asked:
        if call_id not in results:
            raise ValueError(f"call {call_id} has no result")
    for call_id in results:
        if call_id not in asked:
            raise ValueError(f"result {call_id} answers no call of this turn")
    answered = [{"role": "tool", "content": results[call_id], "tool_call_id": call_id}
                for call_id in asked]
    return [*history, turn, *answered]


def to_anthropic(history: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    """The `system` and `messages` of an Anthropic Messages request for this history."""
    from harness.providers.anthropic import to_wire  # imported late: grading loads without it

    body = to_wire(parse_messages(history))
    return body.get("system"), body["messages"]


def run_cost(usages: Iterable[Mapping[str, int]], prices: Mapping[str, float]) -> float:
    """`harness.cost.run_cost` on the exercise's dict form: each usage a dict of token counts
    (`cached_input_tokens` and `cache_write_tokens` may be left out), the prices a dict of
    dollars per million tokens (without `cache_write`, a written token costs the input price)."""
    neutral = [Usage(input_tokens=usage["input_tokens"], output_tokens=usage["output_tokens"],
                     cached_input_tokens=usage.get("cached_input_tokens", 0),
                     cache_write_tokens=usage.get("cache_write_tokens", 0)) for usage in usages]
    price = Price(prices["input"], prices["cached_input"], prices["output"],
                  as_of="the exercise's", cache_write=prices.get("cache_write"))
    return cost.run_cost(neutral, price)


def run_loop(model: Model, tools: Mapping[str, Callable[..., str]],
             messages: list[dict[str, Any]], *, max_turns: int = 10) -> tuple[str, str | None]:
    """Run the loop; return (status, answer) with status done, truncated or turn_cap.

    This is `harness.loop.run` itself with only its turn cap switched on, driven through the
    dict-form model: one loop decides every exit, every pending result and every tool-error text.
    """
    toolbox = Toolbox.of(*(Tool.from_function(function, name=name)
                           for name, function in tools.items()))
    result = loop.run(NeutralModel(model), toolbox, parse_messages(list(messages)),
                      max_turns=max_turns, detector=None)  # the caller's list is left as it was
    return result.status.value, result.answer


def summarize_exits(results: Iterable[RunResult]) -> dict[str, dict[str, Any]]:
    """Each exit that occurs, in the order it first occurs: its share of the runs, and the three
    tools called most in the runs that ended that way (most calls first, ties by name). This is
    `harness.trace.summarize` in the exercise's dict form."""
    results = list(results)
    summary = summarize(results)
    occurring = dict.fromkeys(Exit(result.status) for result in results)
    return {status.value: {"share": summary.share[status], "top_tools": summary.top_tools[status]}
            for status in occurring}
