"""Bug: a retry right after an error is flagged as a doom loop (previous_was_error ignored)."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_allows_a_retry_after_error"}
EXPECT = "is a retry, not a doom loop"


class NoProgress:
    def __init__(self, window=6):
        self.window = window
        self.keys = []

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)  # noqa: F821 (the student's own, from the cell above)
        repeated = bool(self.keys) and self.keys[-1] == key
        self.keys = (self.keys + [key])[-self.window:]
        if repeated:
            return True
        if len(self.keys) < self.window:
            return False
        return any(len(set(self.keys[:p])) == p
                   and all(self.keys[i] == self.keys[i - p] for i in range(p, self.window))
                   for p in (2, 3))
