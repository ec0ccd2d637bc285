# expect: yours asked about ['read_history', 'compute_record', 'save_goal']
# expect: the reference about ['save_goal']
class ApprovalPause:
    def __init__(self, approve, mode_of):
        self.approve, self.mode_of, self.decisions = approve, mode_of, []

    def before_tool(self, moment):
        allowed = self.approve(moment.call)
        self.decisions.append((moment.call.name, "approved" if allowed else "refused"))
        return None if allowed else f"Not approved: the user refused {moment.call.name}."
