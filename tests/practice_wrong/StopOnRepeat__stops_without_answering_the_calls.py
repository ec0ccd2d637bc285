# expect: its content is "" in yours
from harness import call_key
from harness.hooks import Stop
from harness.progress import NoProgressDetector
from harness.trace import Exit


class StopOnRepeat:
    def __init__(self, detector=NoProgressDetector):
        self.detector, self.watch, self.errored = detector, detector(), set()

    def before_call(self, moment):
        if moment.turn == 1:
            self.watch, self.errored = self.detector(), set()

    def before_tools(self, moment):
        errored, self.errored = self.errored, set()
        fired = [self.watch.observe(c.name, c.raw_arguments or c.arguments,
                                    previous_was_error=call_key(c.name, c.raw_arguments
                                                                or c.arguments) in errored)
                 for c in moment.calls]
        if any(fired):
            return Stop(Exit.NO_PROGRESS, "no progress")  # no text for the pending calls
        return None

    def after_tool(self, moment):
        if moment.output.is_error:
            self.errored.add(call_key(moment.call.name,
                                      moment.call.raw_arguments or moment.call.arguments))
