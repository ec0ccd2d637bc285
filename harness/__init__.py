"""agent-loop-kit's library: the agent loop, its tools, exits, costs and traces.

The provider-neutral core is importable from here; the four provider adapters live in
`harness.providers`. Everything in this package is meant to be read. The offline stand-ins that
play the providers' part (the scripted model, scenarios, cassettes, the emulator) are the
`offline` package, and the course's checks are in `course`; neither is imported here.
"""

from harness.context import select_recent
from harness.cost import (
    Price,
    cumulative_input,
    first_turn_over_budget,
    run_cost,
)
from harness.errors import (
    HarnessError,
    ProviderError,
)
from harness.loop import run
from harness.messages import (
    AssistantMessage,
    Message,
    Model,
    Reasoning,
    Reply,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    Usage,
    UserMessage,
    parse_messages,
)
from harness.progress import (
    NoProgressDetector,
    RepeatReminder,
    call_key,
)
from harness.providers.catalog import PRICES
from harness.tools import (
    Tool,
    Toolbox,
    execute,
    run_calls,
)
from harness.trace import (
    Exit,
    RunResult,
    format_run,
    summarize,
)

__all__ = [
    "PRICES",
    "AssistantMessage",
    "Exit",
    "HarnessError",
    "Message",
    "Model",
    "NoProgressDetector",
    "Price",
    "ProviderError",
    "Reasoning",
    "RepeatReminder",
    "Reply",
    "RunResult",
    "StopReason",
    "SystemMessage",
    "Tool",
    "ToolCall",
    "ToolMessage",
    "ToolSpec",
    "Toolbox",
    "Usage",
    "UserMessage",
    "call_key",
    "cumulative_input",
    "execute",
    "first_turn_over_budget",
    "format_run",
    "parse_messages",
    "run",
    "run_calls",
    "run_cost",
    "select_recent",
    "summarize",
]
