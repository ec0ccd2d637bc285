"""Bug: once a call has failed, its repeats never fire again, even after a good result."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_allows_a_retry_after_error"}
EXPECT = "twice in a row is the doom loop"


class NoProgress:
    def __init__(self, window=6):
        self.window = window
        self.keys = []
        self.failed = set()

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)  # noqa: F821 (the student's own, from the cell above)
        if previous_was_error:
            self.failed.add(key)
        repeated = bool(self.keys) and self.keys[-1] == key and key not in self.failed
        self.keys = (self.keys + [key])[-self.window:]
        if repeated:
            return True
        if len(self.keys) < self.window:
            return False
        return any(len(set(self.keys[:p])) == p
                   and all(self.keys[i] == self.keys[i - p] for i in range(p, self.window))
                   for p in (2, 3))
