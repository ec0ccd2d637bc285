"""Bug: the cycle check fires on a window of four, before six calls are in."""

from collections import deque

EXERCISE = "03_no_progress"
FAILS = {"no_progress_catches_cycles", "no_progress_no_false_alarms"}
EXPECT = "fills the whole window of 6"


class NoProgress:
    def __init__(self):
        self.keys = deque(maxlen=4)

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)  # noqa: F821 (the student's own, from the cell above)
        repeated = bool(self.keys) and self.keys[-1] == key and not previous_was_error
        self.keys.append(key)
        keys = list(self.keys)
        cycle = len(keys) == 4 and keys[0] == keys[2] and keys[1] == keys[3] \
            and keys[0] != keys[1]
        return repeated or cycle
