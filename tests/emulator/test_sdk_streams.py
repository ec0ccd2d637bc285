"""The official SDKs' own stream parsers rebuild, from the emulator's events, the reply it sends
unstreamed.

Each case is answered twice, by two emulators with the same seed and script on loopback: once as
one JSON body, once streamed. What each SDK assembles from the stream (openai's `.stream()`
helpers and its chunk accumulator, anthropic's `messages.stream()`, the chunks of google-genai's
`generate_content_stream`) must equal the plain reply: text, tool calls with their arguments,
reasoning, stop reason and usage. The cases: a text answer, one call, several calls after some
text, an answer with thinking, and a refusal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import anthropic
import openai
import pytest
from google import genai
from google.genai import types
from openai.lib.streaming.chat import ChatCompletionStreamState

from offline.emulator import Emulator, serve
from offline.scripted import ScriptedModel, Step

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
QUESTION = "What's the weather in Paris and in Lisbon?"
ANSWER = "Sunny, 22C in Paris; light rain, 14C in Lisbon. Pack a thin coat for the evening."
THOUGHT = "Both forecasts are in. Paris is dry, Lisbon is wet: mention a coat for Lisbon."
CASES: dict[str, Callable[[], Step]] = {
    "a text answer": lambda: Step.say(ANSWER),
    "one call": lambda: Step.call("get_weather", city="Paris"),
    "several calls": lambda: Step.call_many(("get_weather", {"city": "Paris"}),
                                            ("get_weather", {"city": "Lisbon, Portugal"}),
                                            text="Checking both cities."),
    "thinking": lambda: Step.say(ANSWER, thinking=THOUGHT),
    "a refusal": lambda: Step.say("I can't help with that request.", stop_reason="refusal"),
}


def answered(case: str, ask: Callable[[str], Any]) -> Any:
    """What `ask(base_url)` returns from a fresh emulator answering `case` (same seed each time,
    so the plain and the streamed answer carry the same ids)."""
    with serve(Emulator(ScriptedModel([CASES[case]()]), seed="streams")) as url:
        return ask(url)


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="test", max_retries=0)


# ---- OpenAI Chat Completions ------------------------------------------------------------------

CHAT: dict[str, Any] = {
    "model": "gpt-5-mini", "messages": [{"role": "user", "content": QUESTION}],
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}]}


def chat_view(completion: Any) -> dict[str, Any]:
    """What a loop reads of a completion (the stream has no annotations and adds indexes)."""
    choice = choice_of(completion)
    calls = [(c.id, c.function.name, c.function.arguments) for c in choice.message.tool_calls or []]
    return {"id": completion.id, "model": completion.model, "content": choice.message.content,
            "calls": calls, "finish_reason": choice.finish_reason,
            "usage": completion.usage.model_dump()}


def choice_of(completion: Any) -> Any:
    return completion.choices[0]


# openai's helpers refuse to hand over a filtered completion: see the last Chat test.
ANSWERS = [case for case in CASES if case != "a refusal"]


@pytest.mark.parametrize("case", ANSWERS)
def test_openai_chat_stream_helper_rebuilds_the_completion(case: str) -> None:
    def streamed(url: str) -> Any:
        with _openai(url) as client, client.chat.completions.stream(
                **CHAT, stream_options={"include_usage": True}) as stream:
            for _ in stream:
                pass
            return stream.get_final_completion()

    def plain(url: str) -> Any:
        with _openai(url) as client:
            return client.chat.completions.create(**CHAT)

    assert chat_view(answered(case, streamed)) == chat_view(answered(case, plain))


@pytest.mark.parametrize("case", ANSWERS)
def test_openai_chat_raw_chunks_accumulate_to_the_completion_with_usage_last(case: str) -> None:
    def streamed(url: str) -> list[Any]:
        with _openai(url) as client:
            return list(client.chat.completions.create(
                **CHAT, stream=True, stream_options={"include_usage": True}))

    chunks = answered(case, streamed)
    state = ChatCompletionStreamState()
    for chunk in chunks:
        state.handle_chunk(chunk)
    plain = answered(case, lambda url: _openai(url).chat.completions.create(**CHAT))
    assert chat_view(state.get_final_completion()) == chat_view(plain)
    *body, last = chunks
    assert (last.choices, last.usage) == ([], plain.usage)
    assert all(chunk.usage is None for chunk in body)
    assert [chunk.choices[0].finish_reason for chunk in body][-1] == plain.choices[0].finish_reason
    pieces = Counter(call.index for chunk in body for call in chunk.choices[0].delta.tool_calls
                     or [] if call.function and call.function.arguments)
    assert all(count >= 2 for count in pieces.values())  # arguments come split
    assert len(pieces) == len(plain.choices[0].message.tool_calls or [])


def test_openai_chat_filtered_stream_raises_the_sdks_own_error_with_what_came() -> None:
    def streamed(url: str) -> Any:
        with _openai(url) as client, client.chat.completions.stream(**CHAT) as stream:
            for _ in stream:
                pass
            with pytest.raises(openai.ContentFilterFinishReasonError):
                stream.get_final_completion()
            return stream.current_completion_snapshot

    snapshot = answered("a refusal", streamed)
    plain = answered("a refusal", lambda url: _openai(url).chat.completions.create(**CHAT))
    assert snapshot.choices[0].message.content == plain.choices[0].message.content
    assert snapshot.choices[0].finish_reason == plain.choices[0].finish_reason == "content_filter"


def test_openai_chat_stream_has_no_usage_unless_asked() -> None:
    def streamed(url: str) -> list[Any]:
        with _openai(url) as client:
            return list(client.chat.completions.create(**CHAT, stream=True))

    chunks = answered("a text answer", streamed)
    assert all(chunk.usage is None and chunk.choices for chunk in chunks)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks) == ANSWER


# ---- OpenAI Responses -------------------------------------------------------------------------

RESPONSES: dict[str, Any] = {
    "model": "gpt-5-mini", "input": QUESTION, "store": False,
    "include": ["reasoning.encrypted_content"], "reasoning": {"effort": "low", "summary": "auto"},
    "tools": [{"type": "function", "name": "get_weather", "parameters": SCHEMA,
               "strict": True}]}
PARSED = {"parsed", "parsed_arguments", "parsed_output"}  # what the helpers parse on the side


def without_parsed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: without_parsed(item) for key, item in value.items() if key not in PARSED}
    if isinstance(value, list):
        return [without_parsed(item) for item in value]
    return value


@pytest.mark.parametrize("case", CASES)
def test_openai_responses_stream_helper_rebuilds_the_response(case: str) -> None:
    def streamed(url: str) -> tuple[list[str], Any]:
        with _openai(url) as client, client.responses.stream(**RESPONSES) as stream:
            kinds = [event.type for event in stream]
            return kinds, stream.get_final_response()

    kinds, final = answered(case, streamed)
    plain = answered(case, lambda url: _openai(url).responses.create(**RESPONSES))
    assert without_parsed(final.model_dump()) == plain.model_dump()
    assert kinds[:2] == ["response.created", "response.in_progress"]
    assert kinds[-1] == "response.completed"
    assert kinds.count("response.output_item.added") == len(plain.output)
    assert kinds.count("response.output_item.done") == len(plain.output)
    if case == "thinking":
        assert "response.reasoning_summary_text.delta" in kinds


@pytest.mark.parametrize("case", CASES)
def test_openai_responses_raw_events_build_up_each_item(case: str) -> None:
    def streamed(url: str) -> list[Any]:
        with _openai(url) as client:
            return list(client.responses.create(**RESPONSES, stream=True))

    events = answered(case, streamed)
    plain = answered(case, lambda url: _openai(url).responses.create(**RESPONSES))
    assert [event.sequence_number for event in events] == list(range(len(events)))
    texts = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert texts == plain.output_text
    refused = "".join(e.delta for e in events if e.type == "response.refusal.delta")
    assert refused == "".join(part.refusal for item in plain.output if item.type == "message"
                              for part in item.content if part.type == "refusal")
    assert bool(refused) == (case == "a refusal")
    for item in plain.output:
        if item.type == "function_call":
            deltas = [e.delta for e in events if e.type == "response.function_call_arguments.delta"
                      and e.item_id == item.id]
            assert "".join(deltas) == item.arguments and len(deltas) >= 2
    assert events[-1].response.model_dump() == plain.model_dump()


# ---- Anthropic Messages -----------------------------------------------------------------------

MESSAGES: dict[str, Any] = {
    "model": "claude-sonnet-4-6", "max_tokens": 2048,
    "messages": [{"role": "user", "content": QUESTION}],
    "tools": [{"name": "get_weather", "input_schema": SCHEMA}],
    "thinking": {"type": "enabled", "budget_tokens": 1024}}


def _anthropic(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="test", max_retries=0)


@pytest.mark.parametrize("case", CASES)
def test_anthropic_stream_final_message_is_the_message(case: str) -> None:
    def streamed(url: str) -> tuple[list[str], Any]:
        with _anthropic(url) as client, client.messages.stream(**MESSAGES) as stream:
            kinds = [event.type for event in stream]
            return kinds, stream.get_final_message()

    kinds, final = answered(case, streamed)
    plain = answered(case, lambda url: _anthropic(url).messages.create(**MESSAGES))
    assert without_parsed(final.model_dump()) == plain.model_dump()
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert kinds.count("content_block_stop") == len(plain.content)


@pytest.mark.parametrize("case", CASES)
def test_anthropic_raw_events_come_in_the_api_order(case: str) -> None:
    def streamed(url: str) -> list[Any]:
        with _anthropic(url) as client:
            return list(client.messages.create(**MESSAGES, stream=True))

    events = answered(case, streamed)
    plain = answered(case, lambda url: _anthropic(url).messages.create(**MESSAGES))
    kinds = [event.type for event in events]
    blocks = ["content_block_start", "content_block_delta", "content_block_stop"]
    assert kinds[0] == "message_start" and kinds[-2:] == ["message_delta", "message_stop"]
    assert set(kinds[1:-2]) <= set(blocks)  # the SDK does not surface the ping
    assert events[-2].delta.stop_reason == plain.stop_reason
    assert events[-2].usage.output_tokens == plain.usage.output_tokens
    for index, block in enumerate(plain.content):
        deltas = [e.delta for e in events if e.type == "content_block_delta" and e.index == index]
        if block.type == "tool_use" and block.input:
            assert len(deltas) >= 3  # an empty partial first, then the JSON in pieces
        if block.type == "thinking":
            assert deltas[-1].type == "signature_delta"
            assert deltas[-1].signature == block.signature


# ---- Gemini -----------------------------------------------------------------------------------

CONFIG = types.GenerateContentConfig(
    tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
        name="get_weather", parameters_json_schema=SCHEMA)])],
    thinking_config=types.ThinkingConfig(include_thoughts=True),
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))


def _genai(url: str) -> genai.Client:
    return genai.Client(api_key="test",
                        http_options=types.HttpOptions(base_url=url, api_version="v1beta"))


def gemini_view(parts: list[Any], last: Any) -> dict[str, Any]:
    """The model turn as a loop reads it: text, thoughts, calls and signatures, and from the
    (last) response the stop reason and usage."""
    candidate = last.candidates[0]
    return {"text": "".join(p.text for p in parts if p.text and not p.thought),
            "thoughts": [p.text for p in parts if p.thought],
            "calls": [(p.function_call.name, p.function_call.args) for p in parts
                      if p.function_call],
            "signatures": [p.thought_signature for p in parts if p.thought_signature],
            "finish_reason": candidate.finish_reason, "usage": last.usage_metadata.model_dump(),
            "model": last.model_version, "response_id": last.response_id}


@pytest.mark.parametrize("case", CASES)
def test_google_genai_stream_chunks_add_up_to_the_response(case: str) -> None:
    def streamed(url: str) -> list[Any]:
        with _genai(url) as client:
            return list(client.models.generate_content_stream(
                model="gemini-2.5-flash", contents=QUESTION, config=CONFIG))

    def plain(url: str) -> Any:
        with _genai(url) as client:
            return client.models.generate_content(model="gemini-2.5-flash", contents=QUESTION,
                                                  config=CONFIG)

    chunks, whole = answered(case, streamed), answered(case, plain)
    parts = [part for chunk in chunks for part in chunk.candidates[0].content.parts or []]
    assert gemini_view(parts, chunks[-1]) == gemini_view(whole.candidates[0].content.parts, whole)
    assert all(chunk.candidates[0].finish_reason is None for chunk in chunks[:-1])
    if case == "a text answer":
        assert len(chunks) >= 2  # the text arrives in pieces
