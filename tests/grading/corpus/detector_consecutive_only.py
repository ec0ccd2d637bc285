"""Bug: the detector only compares each call with the one before, so A, B, A, B never fires."""

EXERCISE = "03_no_progress"
FAILS = {"no_progress_catches_cycles"}
EXPECT = "consecutive-only check misses it"


class NoProgress:
    def __init__(self):
        self.last = None

    def observe(self, name, arguments, *, previous_was_error=False):
        key = call_key(name, arguments)  # noqa: F821 (the student's own, from the cell above)
        repeated = key == self.last and not previous_was_error
        self.last = key
        return repeated
