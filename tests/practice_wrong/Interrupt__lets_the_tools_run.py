# expect: yours ended interrupted after 1 model call(s), the reference interrupted after 0
from harness.hooks import Stop
from harness.trace import Exit


class Interrupt:
    def __init__(self, cancelled):
        self.cancelled = cancelled

    def before_call(self, moment):
        return None  # the stop is only looked at once a reply is in

    def before_tools(self, moment):
        if self.cancelled():
            return Stop(Exit.INTERRUPTED, "cancelled", "Cancelled: the run was stopped.")
        return None
