# expect: yours has ["call_1_1"], though a result after it answers it
from harness.messages import AssistantMessage


def unanswered_calls(messages):
    return [call.id for message in messages if isinstance(message, AssistantMessage)
            for call in message.tool_calls]
