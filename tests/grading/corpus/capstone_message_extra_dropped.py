"""Bug (wire): the reply's message is appended without its provider data (the Responses API's
message item id)."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_on_openai_responses"}
EXPECT = 'body.input[1].type is missing'
PATCH = [
    ("""\
        history.append(reply.message)  # whole: text, reasoning, calls, extra""",
     """\
        history.append(reply.message.model_copy(update={"extra": {}}))"""),
]
