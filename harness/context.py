"""Choosing what part of a long thread to send. Pure: no I/O.

`select_recent` keeps the system messages and at most the latest N others, and starts the
selection at a user message so that no tool result is ever sent without the assistant message
that asked for it (every provider rejects that) and no provider sees a thread opening
mid-exchange. The run in progress (the last user message and everything after it) is never cut,
even when it alone is longer than N. It does not summarise or compact.
"""

from __future__ import annotations

from harness.messages import Message, SystemMessage, UserMessage


def select_recent(messages: list[Message], limit: int = 20) -> list[Message]:
    """System messages plus at most `limit` of the latest others, starting at a user message.

    Example:
        >>> from harness.messages import UserMessage
        >>> len(select_recent([UserMessage(content=str(i)) for i in range(30)]))
        20
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    system = [m for m in messages if isinstance(m, SystemMessage)]
    others = [m for m in messages if not isinstance(m, SystemMessage)]
    window = others[-limit:]
    # Move the start forward to a user message: the limit is an upper bound...
    start = next((i for i, m in enumerate(window) if isinstance(m, UserMessage)), None)
    if start is not None:
        return system + window[start:]
    # ...unless the run in progress alone is longer than the limit: it is never cut.
    users = [i for i, m in enumerate(others) if isinstance(m, UserMessage)]
    return system + (others[users[-1]:] if users else others)
