"""select_recent never separates a tool result from its call."""

import pytest

from harness import (
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
    select_recent,
)


def exchange(i):
    call = ToolCall(id=f"c{i}", name="f", arguments={})
    return [UserMessage(content=f"q{i}"), AssistantMessage(tool_calls=[call]),
            ToolMessage(tool_call_id=f"c{i}", content="r"), AssistantMessage(content=f"a{i}")]


def test_keeps_system_and_at_most_the_limit():
    thread = [SystemMessage(content="s")] + [m for i in range(10) for m in exchange(i)]
    chosen = select_recent(thread, limit=20)
    assert chosen[0].role == "system" and len(chosen) - 1 <= 20


@pytest.mark.parametrize("limit", range(1, 25))
def test_never_starts_with_an_orphaned_tool_result(limit):
    thread = [m for i in range(6) for m in exchange(i)]
    chosen = select_recent(thread, limit=limit)
    ids = set()
    for message in chosen:
        if isinstance(message, AssistantMessage):
            ids |= {c.id for c in message.tool_calls}
        if isinstance(message, ToolMessage):
            assert message.tool_call_id in ids
    assert chosen[0].role == "user"


def test_the_active_turn_is_never_cut():
    long_turn = [UserMessage(content="go")]
    for i in range(15):
        long_turn += [AssistantMessage(tool_calls=[ToolCall(id=f"x{i}", name="f")]),
                      ToolMessage(tool_call_id=f"x{i}", content="r")]
    chosen = select_recent(exchange(0) + long_turn, limit=20)
    assert chosen == long_turn
