# expect: yours has an assistant message asking for search_tickets here
# expect: the reference a user message
class Remind:
    def __init__(self, reminder):
        self.reminder = reminder

    def before_call(self, moment):
        if moment.turn == 1:
            self.reminder.reset()

    def after_tool(self, moment):
        self.reminder.observe(moment.call.name, moment.call.arguments)
        return None  # the note is dropped: nothing reaches the model
