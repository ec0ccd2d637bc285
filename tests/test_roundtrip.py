"""The adapters and the emulator were written apart, from the real formats; here they must agree.

Property tests (hypothesis) on all four wire formats: a neutral transcript sent by an adapter is
accepted by the emulator's validator and parsed back into the same transcript; a neutral reply
rendered by the emulator is parsed by the adapter into the same reply.
"""

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import (
    AssistantMessage,
    ScriptedModel,
    Step,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
    providers,
)
from harness.emulator import Emulator

NAMES = ["get_forecast", "search_tickets", "save_goal"]
TOOLS = [ToolSpec(name=n, description=f"The {n} tool.",
                  parameters={"type": "object", "properties": {}}) for n in NAMES]
text = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), min_size=1, max_size=40)
scalar = st.one_of(st.integers(-1000, 1000), st.booleans(), text)
arguments = st.dictionaries(st.from_regex(r"[a-z]{1,8}", fullmatch=True),
                            st.one_of(scalar, st.lists(scalar, max_size=3)), max_size=3)


@st.composite
def transcripts(draw):
    messages = [SystemMessage(content=draw(text)), UserMessage(content=draw(text))]
    counter = 0
    for _ in range(draw(st.integers(0, 3))):
        calls = []
        for _ in range(draw(st.integers(1, 3))):
            counter += 1
            calls.append(ToolCall(id=f"call_{counter}", name=draw(st.sampled_from(NAMES)),
                                  arguments=draw(arguments)))
        messages.append(AssistantMessage(content=draw(st.none() | text), tool_calls=calls))
        messages += [ToolMessage(tool_call_id=c.id, content=draw(text),
                                 is_error=draw(st.booleans())) for c in calls]
        if draw(st.booleans()):
            messages += [AssistantMessage(content=draw(text)), UserMessage(content=draw(text))]
    return messages


def shape(messages, provider):
    """What must survive the trip: roles, texts, calls, and which call each result answers."""
    position, out = {}, []
    for m in messages:
        if isinstance(m, AssistantMessage):
            for c in m.tool_calls:
                position[c.id] = len(position)
            out.append(("assistant", m.content or None,
                        [(c.name, c.arguments) for c in m.tool_calls]))
        elif isinstance(m, ToolMessage):
            # OpenAI's formats carry no error flag: only Anthropic and Gemini keep it.
            flag = m.is_error if provider in ("anthropic", "gemini") else None
            out.append(("tool", position[m.tool_call_id], m.content, flag))
        else:
            out.append((m.role, m.content))
    return out


@pytest.mark.parametrize("provider", list(providers.PROVIDERS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=transcripts())
def test_a_transcript_sent_by_an_adapter_is_accepted_and_read_back_the_same(provider, messages):
    model = ScriptedModel([Step.say("ok")])
    with httpx.Client(transport=Emulator(model)) as client:
        reply = providers.get(provider, client=client, api_key="test").complete(
            messages, tools=TOOLS, tool_choice="auto")
    assert reply.message.content == "ok"  # accepted: no ProviderError from the validator
    assert shape(model.requests[0].messages, provider) == shape(messages, provider)
    assert [t.name for t in model.requests[0].tools] == NAMES


@st.composite
def steps(draw):
    calls = tuple(ToolCall(id="", name=draw(st.sampled_from(NAMES)), arguments=draw(arguments))
                  for _ in range(draw(st.integers(0, 3))))
    content = draw(st.none() | text) if calls else draw(text)
    stop = draw(st.sampled_from(["max_tokens", None])) if not calls else None
    return Step(text=content, calls=calls, stop_reason=stop)


@pytest.mark.parametrize("provider", list(providers.PROVIDERS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(step=steps())
def test_a_reply_rendered_by_the_emulator_is_read_back_the_same(provider, step):
    with httpx.Client(transport=Emulator(ScriptedModel([step]))) as client:
        reply = providers.get(provider, client=client, api_key="test").complete(
            [UserMessage(content="go")], tools=TOOLS)
    assert reply.stop_reason == step.stop_reason
    assert (reply.message.content or None) == (step.text or None)
    assert [(c.name, c.arguments) for c in reply.message.tool_calls] == [
        (c.name, c.arguments) for c in step.calls]
    assert len({c.id for c in reply.message.tool_calls}) == len(step.calls)  # ids unique
    assert reply.usage.input_tokens > 0
