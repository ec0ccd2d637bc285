"""agent-loop-kit's reference harness: the agent loop, its tools, exits, costs and traces.

The provider-neutral core is importable from here. Provider adapters live in `harness.providers`,
the offline emulator in `harness.emulator`, cassette replay in `harness.replay`, and the checks
that grade exercises in `harness.grading`.
"""

from harness.context import select_recent
from harness.cost import PRICES, Price, cumulative_input, first_turn_over_budget, run_cost
from harness.errors import (
    CassetteError,
    HarnessError,
    NetworkBlocked,
    ProviderError,
    ReplayMismatch,
    ScriptError,
)
from harness.guard import block_network
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
    to_dicts,
)
from harness.progress import NoProgressDetector, RepeatReminder, call_key
from harness.scripted import ScriptedModel, Step
from harness.tools import Tool, Toolbox, execute, run_calls
from harness.trace import Exit, RunResult, format_run, summarize

__all__ = [
    "PRICES", "AssistantMessage", "CassetteError", "Exit", "HarnessError", "Message", "Model",
    "NetworkBlocked", "NoProgressDetector", "Price", "ProviderError", "Reasoning",
    "RepeatReminder", "ReplayMismatch", "Reply", "RunResult", "ScriptError", "ScriptedModel",
    "Step", "StopReason", "SystemMessage", "Tool", "ToolCall", "ToolMessage", "ToolSpec",
    "Toolbox", "Usage", "UserMessage", "block_network", "call_key", "cumulative_input", "execute",
    "first_turn_over_budget", "format_run", "parse_messages", "run", "run_calls", "run_cost",
    "select_recent", "summarize", "to_dicts"
]
