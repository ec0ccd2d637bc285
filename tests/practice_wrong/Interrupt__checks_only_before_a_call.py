# expect: "Cancelled: the run was interrupted before this tool ran." in the reference
from harness.hooks import Stop
from harness.trace import Exit


class Interrupt:
    def __init__(self, cancelled):
        self.cancelled = cancelled

    def before_call(self, moment):
        if self.cancelled():
            return Stop(Exit.INTERRUPTED, f"cancelled before call {moment.turn}")
        return None
