"""Noticing a loop that has stopped making progress. Pure: no I/O, no clock.

`call_key` writes a tool call in canonical form (name plus arguments with sorted keys and no
whitespace), so the same request always gets the same key. `NoProgressDetector` is the hard
stop: the same call twice in a row, or a cycle of two or three calls that fills its window.
`RepeatReminder` is the advisory alternative: it never stops the loop, it returns a nudge for the
model at the 3rd, 5th and 8th consecutive repeat.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any


def call_key(name: str, arguments: dict[str, Any] | str) -> str:
    """Canonical form of a call: key order and whitespace do not matter.

    Example:
        >>> call_key("get_order", '{"id": 123}') == call_key("get_order", {"id":123})
        True
    """
    if isinstance(arguments, str):
        text = arguments
        try:
            arguments = json.loads(text)
        except json.JSONDecodeError:
            arguments = " ".join(text.split())  # unparseable: compare the text itself
    return name + json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class NoProgressDetector:
    """Say when the loop should stop because the model repeats itself.

    Example:
        >>> detector = NoProgressDetector()
        >>> [detector.observe("search_tickets", {"q": "refund delay"}) for _ in range(2)]
        [False, True]
    """

    def __init__(self, window: int = 6):
        if window < 4:
            raise ValueError(f"window must be at least 4 to see an A-B-A-B cycle, got {window}")
        self.window = window
        self._recent: deque[str] = deque(maxlen=window)

    def observe(self, name: str, arguments: dict[str, Any] | str, *,
                previous_was_error: bool = False) -> bool:
        """Record one call; True when the loop should stop.

        `previous_was_error` exempts a retry: repeating a call whose last result was an error is
        what a well-behaved model does after a timeout.
        """
        key = call_key(name, arguments)
        repeated = bool(self._recent) and self._recent[-1] == key and not previous_was_error
        self._recent.append(key)
        return repeated or self._fills_window_with_cycle()

    def _fills_window_with_cycle(self) -> bool:
        if len(self._recent) < self.window:
            return False
        recent = list(self._recent)
        for period in (2, 3):
            if len(set(recent[:period])) == period and all(
                    recent[i] == recent[i - period] for i in range(period, len(recent))):
                return True
        return False

    def reset(self) -> None:
        self._recent.clear()


class RepeatReminder:
    """Advisory mode: a reminder text at the 3rd, 5th and 8th consecutive identical call.

    Use it instead of the hard stop, not with it: the default detector ends the run at the 2nd
    identical call, before the first nudge. The layered policy is to nudge, nudge harder, and let
    the token cap end the run if the nudges fail:
    `run(..., detector=None, reminder=RepeatReminder(), token_budget=4_500)`. `run` calls `reset`
    when it starts, because each run starts from a new user message.

    Example:
        >>> reminder = RepeatReminder()
        >>> [bool(reminder.observe("ls", {})) for _ in range(5)]
        [False, False, True, False, True]
    """

    def __init__(self, at: tuple[int, ...] = (3, 5, 8)):
        self.at = at
        self._last: str | None = None
        self._count = 0

    def observe(self, name: str, arguments: dict[str, Any] | str) -> str | None:
        key = call_key(name, arguments)
        self._count = self._count + 1 if key == self._last else 1
        self._last = key
        if self._count not in self.at:
            return None
        if self._count == self.at[0]:
            return (f"You have called {name} with the same arguments {self._count} times in a "
                    f"row. Read its last result before calling it again.")
        return (f"Reminder: {name}({json.dumps(arguments, sort_keys=True)}) has now been called "
                f"{self._count} times in a row with identical arguments and the result will not "
                f"change. Use what you have, try different arguments or another tool, or answer.")

    def reset(self) -> None:
        """A new user message arrived (`run` calls this as it starts): count from zero again."""
        self._last, self._count = None, 0
