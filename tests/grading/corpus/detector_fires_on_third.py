"""Bug: the detector waits for three identical calls in a row instead of two."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_flags_a_repeat", "no_progress_allows_a_retry_after_error"}
EXPECT = "waits for a third identical call"


class NoProgress:
    def __init__(self, window=6):
        self.window = window
        self.keys = []
        self.run = 0

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)  # noqa: F821 (the student's own, from the cell above)
        same = bool(self.keys) and self.keys[-1] == key
        self.run = 1 if not same or previous_was_error else self.run + 1
        self.keys = (self.keys + [key])[-self.window:]
        if self.run >= 3:
            return True
        if len(self.keys) < self.window:
            return False
        return any(len(set(self.keys[:p])) == p
                   and all(self.keys[i] == self.keys[i - p] for i in range(p, self.window))
                   for p in (2, 3))
