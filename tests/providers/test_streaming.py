"""Each adapter's `stream`: the same request as `complete`, streamed, read back into the same reply.

The emulator answers each case twice with the same seed and script, once plain and once
streamed; `assemble` of the deltas must equal `complete`'s reply, reasoning, ids and usage
included. Also: what the streamed request adds, errors before and inside a stream, and the
server-sent event reader on its own.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from harness.errors import ProviderError
from harness.messages import StopReason, ToolSpec, UserMessage
from harness.providers import ADAPTERS, PROVIDERS, _http, get
from harness.stream import ArgumentsDelta, Finish, TextDelta, ToolCallStart, assemble
from offline.emulator import OFFLINE_KEY, Emulator, serve
from offline.scripted import ScriptedModel, Step

TOOLS = [ToolSpec(name="get_weather", parameters={
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})]
QUESTION = [UserMessage(content="Weather in Paris and in Lisbon?")]
TEXT = "Sunny, 22C in Paris; light rain, 14C in Lisbon. Pack a thin coat."
CASES = {
    "a text answer": lambda: Step.say(TEXT),
    "one call": lambda: Step.call("get_weather", city="Paris"),
    "several calls": lambda: Step.call_many(("get_weather", {"city": "Paris"}),
                                            ("get_weather", {"city": "Lisbon, Portugal"}),
                                            text="Checking both.", thinking="Two cities."),
    "thinking": lambda: Step.say(TEXT, thinking="Both forecasts are in; Lisbon is wet."),
    "a refusal": lambda: Step.say("I can't help with that.", stop_reason="refusal"),
    "a cut reply": lambda: Step.say("Sunny in Par", stop_reason="max_tokens"),
}
OPTIONS: dict[str, dict[str, Any]] = {"anthropic": {"thinking_budget": 512},
                                      "openai_responses": {"reasoning_effort": "low"}}


def adapter(provider: str, case: str, emulator: Emulator | None = None) -> Any:
    emulator = emulator or Emulator(ScriptedModel([CASES[case]()]), seed="stream")
    return get(provider, client=httpx.Client(transport=emulator), api_key=OFFLINE_KEY,
               **OPTIONS.get(provider, {}))


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_streamed_reply_assembles_to_completes_reply(provider: str, case: str) -> None:
    plain = adapter(provider, case).complete(QUESTION, tools=TOOLS)
    deltas = list(adapter(provider, case).stream(QUESTION, tools=TOOLS))
    assert assemble(deltas) == plain
    assert [type(d) for d in deltas].count(Finish) == 1 and isinstance(deltas[-1], Finish)
    starts = [d for d in deltas if isinstance(d, ToolCallStart)]
    assert [s.index for s in starts] == list(range(len(plain.message.tool_calls)))
    if plain.message.content:
        assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == \
            plain.message.content


@pytest.mark.parametrize("provider", ["openai_chat", "openai_responses", "anthropic"])
def test_arguments_arrive_in_pieces_where_the_api_splits_them(provider: str) -> None:
    deltas = list(adapter(provider, "several calls").stream(QUESTION, tools=TOOLS))
    for index in (0, 1):
        assert len([d for d in deltas if isinstance(d, ArgumentsDelta) and d.index == index]) >= 2


def test_gemini_sends_each_call_whole_with_its_invented_id() -> None:
    deltas = list(adapter("gemini", "several calls").stream(QUESTION, tools=TOOLS))
    pieces = [d for d in deltas if isinstance(d, ArgumentsDelta)]
    assert [(p.index, json.loads(p.text)) for p in pieces] == [
        (0, {"city": "Paris"}), (1, {"city": "Lisbon, Portugal"})]
    starts = [d for d in deltas if isinstance(d, ToolCallStart)]
    assert [(s.id, s.extra.get("invented_id")) for s in starts] == [("call_1_1", True),
                                                                     ("call_1_2", True)]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_streamed_request_is_completes_plus_what_asks_to_stream(provider: str) -> None:
    plain, streamed = (Emulator(ScriptedModel([Step.say(TEXT)]), seed="s") for _ in "ab")
    adapter(provider, "", plain).complete(QUESTION, tools=TOOLS)
    list(adapter(provider, "", streamed).stream(QUESTION, tools=TOOLS))
    sent, asked = plain.exchanges[0], streamed.exchanges[0]
    added = {key: value for key, value in asked.request.items() if key not in sent.request}
    assert {k: v for k, v in asked.request.items() if k in sent.request} == sent.request
    assert asked.streamed and not sent.streamed
    if provider == "gemini":
        assert (added, asked.path) == ({}, sent.path.replace(":generate", ":streamGenerate"))
    elif provider == "openai_chat":  # usage comes only when asked for
        assert added == {"stream": True, "stream_options": {"include_usage": True}}
    else:
        assert added == {"stream": True}


def test_nothing_is_sent_until_the_first_delta_is_asked_for() -> None:
    emulator = Emulator(ScriptedModel([Step.say(TEXT)]))
    deltas = adapter("anthropic", "", emulator).stream(QUESTION)
    assert not emulator.exchanges
    next(deltas)
    assert len(emulator.exchanges) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_error_status_raises_before_any_delta(provider: str) -> None:
    emulator = Emulator(ScriptedModel([Step.say(TEXT)]), api_key="sk-the-right-key")
    model = get(provider, client=httpx.Client(transport=emulator), api_key="sk-a-wrong-key")
    with pytest.raises(ProviderError) as caught:
        next(iter(model.stream(QUESTION)))
    assert caught.value.status in (400, 401, 403)  # each API's own answer to a wrong key
    assert caught.value.provider == provider


def sse(*frames: str, content_type: str = "text/event-stream") -> httpx.Client:
    body = "".join(frames).encode()
    return httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(
        200, headers={"content-type": content_type}, content=body)))


@pytest.mark.parametrize("provider, frames, kind", [
    ("anthropic", ['event: message_start\ndata: {"type": "message_start", "message": '
                   '{"content": [], "usage": {"input_tokens": 3, "output_tokens": 1}}}\n\n',
                   'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
                   '"message": "Overloaded"}}\n\n'], "overloaded_error"),
    ("openai_chat", ['data: {"error": {"message": "The server had an error", "type": '
                     '"server_error", "param": null, "code": null}}\n\n'], "server_error"),
    ("openai_responses", ['event: error\ndata: {"type": "error", "code": "server_error", '
                          '"message": "Something went wrong", "sequence_number": 2}\n\n'],
     "server_error"),
    ("gemini", ['data: {"error": {"code": 503, "message": "The model is overloaded.", '
                '"status": "UNAVAILABLE"}}\r\n\r\n'], "UNAVAILABLE"),
])
def test_an_error_inside_a_stream_raises_the_providers_error(provider, frames, kind) -> None:
    model = ADAPTERS[provider](client=sse(*frames), api_key="k")
    with pytest.raises(ProviderError) as caught:
        list(model.stream(QUESTION))
    assert (caught.value.error_type, caught.value.provider) == (kind, provider)
    assert caught.value.status == (503 if provider == "gemini" else 500)


def test_the_adapters_read_the_loopback_servers_chunked_streams() -> None:
    emulator = Emulator(ScriptedModel([Step.call_many(("get_weather", {"city": "Paris"}),
                                                      text="One moment."), Step.say(TEXT)]))
    with serve(emulator) as url, httpx.Client() as client:
        model = get("openai_chat", client=client, api_key="test", base_url=url + "/v1")
        first = assemble(model.stream(QUESTION, tools=TOOLS))
        assert first.stop_reason is StopReason.TOOL_USE
        assert first.message.tool_calls[0].arguments == {"city": "Paris"}
        assert first.usage.input_tokens > 0  # the usage chunk came, after the finish reason


@pytest.mark.parametrize("lines, events", [
    (["data: {\"a\": 1}", "", "data: {\"a\": 2}"], [("", {"a": 1}), ("", {"a": 2})]),
    ([": keep-alive", "", "event: x", "id: 7", "data: {", "data: \"b\": 2}", ""],
     [("x", {"b": 2})]),
    (["data: {\"a\": 1}", "", "data: [DONE]", "", "data: {\"never\": 0}", ""], [("", {"a": 1})]),
    (["event: lonely", "", "data:{\"a\":3}", ""], [("", {"a": 3})]),
])
def test_the_event_reader_follows_the_sse_format(lines, events) -> None:
    assert list(_http.read_events(iter(lines))) == events


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stream_has_completes_signature(provider: str) -> None:
    import inspect

    cls = ADAPTERS[provider]
    assert inspect.signature(cls.stream).parameters == inspect.signature(cls.complete).parameters
