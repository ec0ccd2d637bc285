"""Bug (wire): the reply is appended as a new message with its text and calls only: reasoning and
provider data are lost."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_on_anthropic", "run_agent_on_openai_responses"}
EXPECT = 'reasoning_roundtrip, call 2'
PATCH = [
    ("""\
        history.append(reply.message)  # whole: text, reasoning, calls, extra""",
     """\
        history.append(AssistantMessage(content=reply.message.content,
                                        tool_calls=reply.message.tool_calls))"""),
    ("""\
from harness.messages import StopReason""",
     """\
from harness.messages import AssistantMessage, StopReason"""),
]
