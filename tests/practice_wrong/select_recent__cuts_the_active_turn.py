# expect: with limit 3 yours sends 1 message(s), the reference 6
"""Starts at a user message, but drops the active turn when it alone is longer than `limit`."""

from harness.messages import SystemMessage, UserMessage


def select_recent(messages, limit=20):
    system = [m for m in messages if isinstance(m, SystemMessage)]
    window = [m for m in messages if not isinstance(m, SystemMessage)][-limit:]
    start = next((i for i, m in enumerate(window) if isinstance(m, UserMessage)), len(window))
    return system + window[start:]
