# expect: with limit 12 yours sends 13 message(s), the reference 10
# expect: asking for save_goal
from harness.messages import SystemMessage, ToolMessage, UserMessage


def select_recent(messages, limit=20):
    system = [m for m in messages if isinstance(m, SystemMessage)]
    window = [m for m in messages if not isinstance(m, SystemMessage)][-limit:]
    if window and isinstance(window[0], ToolMessage):  # an opening assistant message passes
        users = [i for i, m in enumerate(window) if isinstance(m, UserMessage)]
        window = window[users[0]:] if users else window
    return system + window
