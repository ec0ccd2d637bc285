"""Bug: the detector compares raw arguments, not call_key: a JSON text repeat looks new."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_flags_a_repeat"}
EXPECT = 'twice in a row'


class NoProgress:
    def __init__(self, window=6):
        self.window = window
        self.keys = []

    def observe(self, name, arguments, *, previous_was_error=False):
        key = (name, arguments)  # call_key left unused
        repeated = bool(self.keys) and self.keys[-1] == key and not previous_was_error
        self.keys = (self.keys + [key])[-self.window:]
        if repeated:
            return True
        if len(self.keys) < self.window:
            return False
        return any(len({repr(k) for k in self.keys[:p]}) == p
                   and all(self.keys[i] == self.keys[i - p] for i in range(p, self.window))
                   for p in (2, 3))
