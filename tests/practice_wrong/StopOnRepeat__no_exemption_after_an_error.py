# expect: yours ended no_progress after 2 model call(s), the reference done after 3
from harness.hooks import Stop
from harness.loop import NOT_EXECUTED_REPEAT
from harness.progress import NoProgressDetector
from harness.trace import Exit


class StopOnRepeat:
    def __init__(self, detector=NoProgressDetector):
        self.detector, self.watch = detector, detector()

    def before_call(self, moment):
        if moment.turn == 1:
            self.watch = self.detector()

    def before_tools(self, moment):
        fired = [self.watch.observe(c.name, c.raw_arguments or c.arguments) for c in moment.calls]
        if any(fired):
            return Stop(Exit.NO_PROGRESS, f"repeated {moment.calls[-1].name}", NOT_EXECUTED_REPEAT)
        return None
