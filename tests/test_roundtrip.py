"""The adapters and the emulator were written apart, from the real formats; here they must agree.

Property tests (hypothesis) on all four wire formats: a neutral transcript sent by an adapter is
accepted by the emulator's validator and parsed back into the same transcript; a neutral reply
rendered by the emulator is parsed by the adapter into the same reply; and a whole conversation
played through both (replies with reasoning, text and calls, sent back on the next call) is
accepted call after call, with everything the provider needs back arriving unchanged: thinking
blocks and signatures, reasoning items, Responses message and call item ids.
"""

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import (
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
    providers,
)
from harness.messages import Reply
from offline import (
    ScriptedModel,
    Step,
)
from offline.emulator import Emulator

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
    return Step(text=content, calls=calls, stop_reason=stop, thinking=draw(st.none() | text))


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
    if provider in ("anthropic", "openai_responses"):  # one thinking block or reasoning item
        assert len(reply.message.reasoning) == (1 if step.thinking else 0)
    if provider == "openai_responses":  # the message item's id rides along with its text
        assert reply.message.extra.get("item_id", "").startswith("msg_") == bool(step.text)


@st.composite
def conversations(draw):
    """Two questions; the first takes 0-2 tool rounds. Any step may think, so reasoning followed
    by a text answer (the Responses message item) goes back with the second question."""
    steps = []
    for _ in range(draw(st.integers(0, 2))):
        calls = tuple(ToolCall(id="", name=draw(st.sampled_from(NAMES)), arguments=draw(arguments))
                      for _ in range(draw(st.integers(1, 2))))
        steps.append(Step(text=draw(st.none() | text), calls=calls,
                          thinking=draw(st.none() | text)))
    steps += [Step(text=draw(text), thinking=draw(st.none() | text)),
              Step(text=draw(text), thinking=draw(st.none() | text))]
    return steps


def play(provider, steps):
    """Run the steps through the adapter and the emulator; the transcript sent and the model."""
    model = ScriptedModel(steps)
    messages = [SystemMessage(content="Be brief."), UserMessage(content="First question?")]
    with httpx.Client(transport=Emulator(model)) as client:
        adapter = providers.get(provider, client=client, api_key="test")
        replies: list[Reply] = []
        while len(replies) < len(steps):
            replies.append(adapter.complete(messages, tools=TOOLS))  # raises if rejected
            messages.append(replies[-1].message)
            messages += [ToolMessage(tool_call_id=call.id, content=f"result of {call.name}")
                         for call in replies[-1].message.tool_calls]
            if not replies[-1].message.tool_calls and len(replies) < len(steps):
                messages.append(UserMessage(content="Second question?"))
    return messages, model


@pytest.mark.parametrize("provider", list(providers.PROVIDERS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=conversations())
def test_a_conversation_with_reasoning_goes_back_and_forth_unchanged(provider, steps):
    messages, model = play(provider, steps)
    received = model.requests[-1].messages  # the emulator's reading of the last request
    assert shape(received, provider) == shape(messages[:len(received)], provider)
    sent_turns = [m for m in messages if isinstance(m, AssistantMessage)][:-1]
    received_turns = [m for m in received if isinstance(m, AssistantMessage)]
    assert len(received_turns) == len(sent_turns)
    for sent, got in zip(sent_turns, received_turns, strict=True):
        if provider in ("anthropic", "openai_responses"):  # reasoning goes back as it came
            assert [r.data for r in got.reasoning] == [
                {k: v for k, v in r.data.items() if k != "status"} for r in sent.reasoning]
        if provider == "openai_responses":  # the item ids pair text and calls with reasoning
            assert got.extra == sent.extra
            assert [c.extra for c in got.tool_calls] == [c.extra for c in sent.tool_calls]
            assert bool(sent.extra) == bool(sent.content)
