# expect: yours has an assistant message here, the reference a user message
from harness.messages import SystemMessage, ToolMessage


def select_recent(messages, limit=20):
    system = [m for m in messages if isinstance(m, SystemMessage)]
    window = [m for m in messages if not isinstance(m, SystemMessage)][-limit:]
    while window and isinstance(window[0], ToolMessage):  # skips results, not replies
        window = window[1:]
    return system + window
