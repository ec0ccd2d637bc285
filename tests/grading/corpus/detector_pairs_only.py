"""Bug: only A-B cycles are caught; an A-B-C cycle runs on to the turn cap."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_catches_cycles"}
EXPECT = 'cycle'


class NoProgress:
    def __init__(self, window=6):
        self.window = window
        self.keys = []

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)  # noqa: F821 (the student's own, from the cell above)
        repeated = bool(self.keys) and self.keys[-1] == key and not previous_was_error
        self.keys = (self.keys + [key])[-self.window:]
        if repeated:
            return True
        if len(self.keys) < self.window:
            return False
        return any(len(set(self.keys[:p])) == p
                   and all(self.keys[i] == self.keys[i - p] for i in range(p, self.window))
                   for p in (2,))
