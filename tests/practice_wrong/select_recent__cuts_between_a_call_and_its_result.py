# expect: with limit 20 yours sends 21 message(s), the reference 18
# expect: the result for call_1_1 here, the reference a user message
"""Keeps exactly the latest `limit` messages: the window may open on a tool result."""

from harness.messages import SystemMessage


def select_recent(messages, limit=20):
    system = [m for m in messages if isinstance(m, SystemMessage)]
    others = [m for m in messages if not isinstance(m, SystemMessage)]
    return system + others[-limit:]
