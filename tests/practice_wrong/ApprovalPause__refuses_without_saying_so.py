# expect: in yours the refused save_goal ran
class ApprovalPause:
    def __init__(self, approve, mode_of):
        self.approve, self.mode_of, self.decisions = approve, mode_of, []

    def before_tool(self, moment):
        if self.mode_of(moment.call) == "parallel":
            return None
        allowed = self.approve(moment.call)
        self.decisions.append((moment.call.name, "approved" if allowed else "refused"))
        return None  # the refusal is recorded, and the tool runs all the same
