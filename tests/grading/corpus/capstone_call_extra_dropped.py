"""Bug (wire): each tool call is rebuilt from its id, name and arguments: provider data on the call
(item ids, thought signatures) is lost."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_on_gemini", "run_agent_on_openai_responses"}
EXPECT = 'is missing; the recording has'
PATCH = [
    ("""\
        history.append(reply.message)  # whole: text, reasoning, calls, extra""",
     """\
        calls = [ToolCall(id=c.id, name=c.name, arguments=c.arguments,
                          raw_arguments=c.raw_arguments) for c in reply.message.tool_calls]
        history.append(reply.message.model_copy(update={"tool_calls": calls}))"""),
    ("""\
from harness.messages import StopReason, SystemMessage, ToolMessage""",
     """\
from harness.messages import StopReason, SystemMessage, ToolCall, ToolMessage"""),
]
