# expect: yours ended no_progress after 1 model call(s), the reference no_progress after 2
from harness import call_key
from harness.hooks import Stop
from harness.loop import NOT_EXECUTED_REPEAT
from harness.progress import NoProgressDetector
from harness.trace import Exit


class StopOnRepeat:
    def __init__(self, detector=NoProgressDetector):
        self.watch, self.errored = detector(), set()

    def before_tools(self, moment):
        errored, self.errored = self.errored, set()
        fired = [self.watch.observe(c.name, c.raw_arguments or c.arguments,
                                    previous_was_error=call_key(c.name, c.raw_arguments
                                                                or c.arguments) in errored)
                 for c in moment.calls]
        if any(fired):
            return Stop(Exit.NO_PROGRESS, f"repeated {moment.calls[-1].name}", NOT_EXECUTED_REPEAT)
        return None

    def after_tool(self, moment):
        if moment.output.is_error:
            self.errored.add(call_key(moment.call.name,
                                      moment.call.raw_arguments or moment.call.arguments))
