# expect: yours has an assistant message asking for search_tickets here
# expect: the reference a user message
# expect: never nudged
class Remind:
    def __init__(self, reminder):
        self.reminder = reminder

    def after_tool(self, moment):
        return self.reminder.observe(moment.call.name, moment.call.arguments)
