"""What a run did: one record per model call, one per run with the exit first, and aggregates.

`RunResult` is what `harness.loop.run` returns; its first field, `status`, says which exit fired,
because every useful question about a loop in production is a question about that field over many
runs. `summarize` answers the first ones: the share of each exit and the tools behind each.
Pure: the loop measures time; this module only stores and counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from harness.errors import ProviderError
from harness.messages import AssistantMessage, Message, Reply, ToolChoice, Usage


class Exit(StrEnum):
    """Why a run ended. Each member's docstring says when it fires; the README's table of exits is
    written from these texts (`python -m book.exits`), so they are the contract."""

    DONE = "done"
    """A reply came with no tool calls (a refusal is an answer too) and the `before_done` goal
    check, if there is one, accepted it; a check that returns a text sends it back as a user
    message, and the run goes on."""
    TRUNCATED = "truncated"
    """The output-token limit cut the reply, so it is not an answer; the calls it had already
    written get "Not executed" results and never run."""
    TURN_CAP = "turn_cap"
    """`max_turns` calls were made and the model still asks for tools. Pending calls get "Not
    executed" results, then one closing call goes out with `tool_choice="none"` and the
    instruction in the system prompt. Its text is the answer, unless it was cut off or still
    called a tool (Gemini can, under `NONE`): then `answer` is None, `detail` says which, and any
    call gets a "Not executed" result."""
    TOKEN_CAP = "token_cap"
    """Input plus output tokens went over `token_budget`."""
    NO_PROGRESS = "no_progress"
    """The same call came twice in a row (a retry after an error is exempt), or an A-B or A-B-C
    cycle filled a window of six."""
    ERROR = "error"
    """The provider rejected the send; the loop never retries itself."""
    INTERRUPTED = "interrupted"
    """The caller's `cancel` (a `threading.Event`, or a function returning True) was set; pending
    calls get "Cancelled" results."""


@dataclass(frozen=True)
class CallRecord:
    """One model call: exactly what was sent, what came back, and how long it took."""

    number: int
    sent: list[Message]
    tool_choice: ToolChoice
    reply: Reply | None
    seconds: float
    closing: bool = False
    error: ProviderError | None = None


@dataclass
class RunResult:
    """The outcome of one run. `status` comes first on purpose."""

    status: Exit
    answer: str | None
    messages: list[Message]
    usage: Usage = field(default_factory=Usage)
    calls: list[CallRecord] = field(default_factory=list)
    detail: str = ""
    error: ProviderError | None = None

    @property
    def turns(self) -> int:
        return len(self.calls)

    @property
    def tool_names(self) -> list[str]:
        return [call.name for message in self.messages if isinstance(message, AssistantMessage)
                for call in message.tool_calls]


def format_run(result: RunResult) -> str:
    """A short text trace, exit first, then one line per call."""
    lines = [f"exit: {result.status.value}", f"answer: {result.answer!r}",
             f"calls: {result.turns}  input: {result.usage.input_tokens}  "
             f"output: {result.usage.output_tokens}"]
    if result.detail:
        lines.append(f"detail: {result.detail}")
    for record in result.calls:
        reply = record.reply
        if reply is None:
            said = f"error: {record.error}"
        else:
            asked = ", ".join(c.name for c in reply.message.tool_calls)
            said = f"{reply.stop_reason.value}" + (f" -> {asked}" if asked else "")
        closing = " (closing call)" if record.closing else ""
        lines.append(f"  call {record.number}{closing}: sent {len(record.sent)} messages, "
                     f"tool_choice={record.tool_choice}, {said}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Summary:
    runs: int
    share: dict[Exit, float]
    top_tools: dict[Exit, list[tuple[str, int]]]


def summarize(results: Iterable[RunResult], *, top: int = 3) -> Summary:
    """Share of each exit, and the tools called most in the runs that ended that way (most calls
    first, ties by name).

    Example: "14% no_progress, 11 of those on search_tickets" points at a tool description.
    """
    results = list(results)
    exits = Counter(result.status for result in results)
    tools: dict[Exit, Counter[str]] = {}
    for result in results:
        tools.setdefault(result.status, Counter()).update(result.tool_names)
    total = len(results) or 1
    share = {status: exits[status] / total for status in Exit if exits[status]}
    top_tools = {status: _most_called(counter, top) for status, counter in tools.items()}
    return Summary(runs=len(results), share=share, top_tools=top_tools)


def _most_called(counter: Counter[str], top: int) -> list[tuple[str, int]]:
    by_count_then_name = sorted(counter.items(), key=lambda pair: (-pair[1], pair[0]))
    return by_count_then_name[:top]
