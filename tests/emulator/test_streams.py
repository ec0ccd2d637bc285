"""The emulator's streams on the wire: framing, terminators, content types, what streams and what
does not, and a loopback server that sends one event a chunk.

What the events add up to is proven by the official SDKs in test_sdk_streams.py; here the bytes
themselves are read, with plain httpx, as a client without an SDK would read them.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from offline.emulator import Emulator, _streams, serve
from offline.scripted import ScriptedModel, Step

from .test_emulator import APIS, GEMINI, first_request

TEXT = "Sunny, 22C in Paris. Light rain in Lisbon later."


def script() -> ScriptedModel:
    return ScriptedModel([Step.call_many(("get_weather", {"city": "Paris"}),
                                         ("get_weather", {"city": "Lisbon"}), text=TEXT,
                                         thinking="Two cities, two calls.")])


def streamed_request(api: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    url, body = first_request(api)
    if api == "gemini":
        return url.replace(":generateContent", ":streamGenerateContent?alt=sse"), body | extra
    return url, body | {"stream": True} | extra


def send(url: str, body: dict[str, Any], emulator: Emulator | None = None) -> httpx.Response:
    with httpx.Client(transport=emulator or Emulator(script(), seed="wire")) as client:
        return client.post(url, json=body)


def sse_events(text: str) -> list[tuple[str | None, str]]:
    """(event name, data) of each event of a text/event-stream body."""
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        if not block:
            continue
        fields = dict(line.split(": ", 1) for line in block.split("\n"))
        found.append((fields.get("event"), fields["data"]))
    return found


@pytest.mark.parametrize("api", APIS)
def test_a_streamed_request_gets_server_sent_events(api: str) -> None:
    response = send(*streamed_request(api))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = sse_events(response.text)
    assert len(events) >= 3  # Gemini's chunks are the longest: sentences and whole calls
    if api in ("responses", "anthropic"):  # named events; the name is the data's type
        assert all(name == json.loads(data)["type"] for name, data in events)
    else:
        assert all(name is None for name, _ in events)


def test_chat_ends_with_done_and_gemini_separates_events_with_crlf_pairs() -> None:
    chat = send(*streamed_request("chat")).text
    assert chat.endswith("\n\ndata: [DONE]\n\n") and "\r" not in chat
    gemini = send(*streamed_request("gemini")).text
    assert gemini.startswith('data: {"candidates": [{"content": {"parts": [')
    assert gemini.endswith("}\r\n\r\n") and gemini.count("\r\n\r\n") == len(sse_events(gemini))


def test_gemini_without_alt_sse_streams_one_json_array() -> None:
    url, body = first_request("gemini")
    response = send(url.replace(":generateContent", ":streamGenerateContent"), body)
    assert response.headers["content-type"].startswith("application/json")
    chunks = response.json()
    assert isinstance(chunks, list) and len(chunks) >= 2
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    assert "finishReason" not in chunks[0]["candidates"][0]


@pytest.mark.parametrize("api", APIS)
def test_the_stream_carries_the_plain_reply_with_the_same_usage(api: str) -> None:
    url, body = first_request(api)
    plain = send(url, body).json()
    emulator = Emulator(script(), seed="wire")
    send(*streamed_request(api), emulator=emulator)
    exchange = emulator.exchanges[0]
    assert exchange.streamed and exchange.response == plain  # stream flags are not prompt tokens


@pytest.mark.parametrize("api", APIS)
def test_an_invalid_streamed_request_gets_the_json_error_not_a_stream(api: str) -> None:
    url, body = streamed_request(api)
    broken = {"messages": "not a list"} if api in ("chat", "anthropic") else {
        "input": [{"type": "function_call_output", "call_id": "call_x", "output": "?"}]} \
        if api == "responses" else {"contents": [{"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {}}}]}]}
    emulator = Emulator(script(), seed="wire")
    response = send(url, body | broken, emulator=emulator)
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/json"
    assert "error" in response.json()
    assert not emulator.exchanges[0].streamed


def test_chat_usage_comes_last_and_only_when_asked() -> None:
    asked = [json.loads(data) for _, data in sse_events(send(*streamed_request(
        "chat", stream_options={"include_usage": True})).text)[:-1]]
    assert [chunk["usage"] is None for chunk in asked] == [True] * (len(asked) - 1) + [False]
    assert asked[-1]["choices"] == []
    plain = [json.loads(data) for _, data in sse_events(send(*streamed_request("chat")).text)[:-1]]
    assert not any("usage" in chunk for chunk in plain)
    assert all("obfuscation" in chunk for chunk in plain)  # the padding OpenAI adds by default
    bare = send(*streamed_request("chat", stream_options={"include_obfuscation": False})).text
    assert "obfuscation" not in bare


def test_chat_stream_options_without_stream_is_the_real_400() -> None:
    url, body = first_request("chat")
    response = send(url, body | {"stream_options": {"include_usage": True}})
    assert response.status_code == 400
    assert response.json()["error"] == {
        "message": "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        "type": "invalid_request_error", "param": "stream_options", "code": None}


def test_chat_opens_with_the_role_and_splits_each_calls_arguments() -> None:
    chunks = [json.loads(data) for _, data in sse_events(send(*streamed_request("chat")).text)[:-1]]
    deltas = [chunk["choices"][0]["delta"] for chunk in chunks]
    assert deltas[0] == {"role": "assistant", "content": "", "refusal": None}
    assert "".join(d.get("content") or "" for d in deltas) == TEXT
    starts = [call for d in deltas for call in d.get("tool_calls", []) if "id" in call]
    assert [(s["index"], s["function"]) for s in starts] == [
        (0, {"name": "get_weather", "arguments": ""}), (1, {"name": "get_weather",
                                                           "arguments": ""})]
    for index, city in enumerate(("Paris", "Lisbon")):
        pieces = [call["function"]["arguments"] for d in deltas for call in d.get("tool_calls", [])
                  if call["index"] == index and "id" not in call]
        assert len(pieces) >= 2 and json.loads("".join(pieces)) == {"city": city}
    assert (deltas[-1], chunks[-1]["choices"][0]["finish_reason"]) == ({}, "tool_calls")


def test_anthropic_pings_once_after_the_first_block_opens() -> None:
    names = [name for name, _ in sse_events(send(*streamed_request("anthropic")).text)]
    assert names[:3] == ["message_start", "content_block_start", "ping"]
    assert names.count("ping") == 1
    assert names[-2:] == ["message_delta", "message_stop"]


def test_gemini_streams_calls_whole_with_the_finish_reason_last() -> None:
    chunks = [json.loads(data) for _, data in sse_events(send(*streamed_request("gemini")).text)]
    *early, last = [chunk["candidates"][0] for chunk in chunks]
    assert all("functionCall" not in part for c in early for part in c["content"]["parts"])
    assert [part["functionCall"]["args"] for part in last["content"]["parts"]] == [
        {"city": "Paris"}, {"city": "Lisbon"}]
    assert last["finishReason"] == "STOP" and not any("finishReason" in c for c in early)
    usage = [chunk["usageMetadata"] for chunk in chunks]
    assert all("candidatesTokenCount" not in u for u in usage[:-1])
    assert usage[-1]["candidatesTokenCount"] > 0


def test_the_loopback_server_sends_one_event_a_chunk() -> None:
    url, body = streamed_request("anthropic")
    with serve(Emulator(script(), seed="wire")) as base, httpx.Client() as client:
        with client.stream("POST", base + "/v1/messages", json=body) as response:
            assert response.headers["transfer-encoding"] == "chunked"
            assert "content-length" not in response.headers
            arrived = list(response.iter_raw())
    assert len(arrived) > 1  # not one block
    assert [name for name, _ in sse_events(b"".join(arrived).decode())][0] == "message_start"


@pytest.mark.parametrize("text", ["", "one", "  two words ", "a\n\nb c", "x" * 50 + " y"])
def test_pieces_and_slices_rejoin_to_the_text(text: str) -> None:
    assert "".join(_streams.pieces(text, size=8)) == text
    assert "".join(_streams.slices(text)) == text
    assert all(piece.strip() for piece in _streams.pieces(text, size=8)[:-1])


def test_a_non_streaming_gemini_path_still_answers_json() -> None:
    response = send(GEMINI, first_request("gemini")[1])
    assert response.headers["content-type"] == "application/json"
    assert response.json()["candidates"][0]["finishReason"] == "STOP"


def test_a_gemini_reply_without_parts_streams_as_one_chunk() -> None:
    # A call to a function the request did not declare: the real API drops it.
    model = ScriptedModel([Step.call("launch_rockets", count=3)])
    url, body = streamed_request("gemini")
    text = send(url, body, emulator=Emulator(model)).text
    [chunk] = [json.loads(data) for _, data in sse_events(text)]
    assert chunk["candidates"][0]["content"]["parts"] == []
    assert chunk["candidates"][0]["finishReason"] == "UNEXPECTED_TOOL_CALL"
