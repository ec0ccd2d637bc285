"""The Messages emulator: real error texts, SDK-valid bodies, thinking signatures."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from anthropic.types import Message
from anthropic.types.shared import ErrorResponse

from harness.messages import StopReason, ToolCall, ToolMessage, UserMessage
from offline.emulator import Emulator
from offline.scripted import ScriptedModel, Step
from offline.tokens import count_tokens

URL = "https://api.anthropic.com/v1/messages"
TOOLS = [{"name": "get_weather", "description": "Get the current weather for a city.",
          "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                           "required": ["city"]}}]
USER = {"role": "user", "content": "What's the weather in Paris and Rome?"}


def post(emulator: Emulator, body: Any) -> httpx.Response:
    with httpx.Client(transport=emulator) as client:
        return client.post(URL, json=body)


def request(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": messages,
            "tools": TOOLS, **extra}


def use(call_id: str, city: str = "Paris") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {"city": city}}


def result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "Sunny"}


def rejected(body: Any) -> str:
    response = post(Emulator(ScriptedModel([])), body)
    assert response.status_code == 400
    error = ErrorResponse.model_validate(response.json())
    assert error.error.type == "invalid_request_error"
    assert error.request_id is not None and error.request_id.startswith("req_011")
    assert len(error.request_id) == 28
    return error.error.message


def test_a_thinking_round_trip_renders_valid_messages() -> None:
    model = ScriptedModel([
        Step.call_many(("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"}),
                       text="Checking both.", thinking="Two cities, two calls."),
        Step.say("Sunny in both.")])
    emulator = Emulator(model)
    thinking = {"type": "enabled", "budget_tokens": 2048}
    first = post(emulator, request([USER], thinking=thinking)).json()
    message = Message.model_validate(first)
    assert [block.type for block in message.content] == [
        "thinking", "text", "tool_use", "tool_use"]
    assert message.stop_reason == "tool_use"
    assert message.id.startswith("msg_01") and len(message.id) == 28
    ids = [block["id"] for block in first["content"][2:]]
    assert all(i.startswith("toolu_01") and len(i) == 30 for i in ids)
    assert first["content"][0]["signature"].startswith("E")
    assert first["content"][2]["input"] == {"city": "Paris"}

    results = {"role": "user", "content": [result(ids[0]), result(ids[1])]}
    second = post(emulator, request([USER, {"role": "assistant", "content": first["content"]},
                                     results], thinking=thinking)).json()
    assert Message.model_validate(second).stop_reason == "end_turn"
    assert model.requests[1].messages[2:] == [ToolMessage(tool_call_id=ids[0], content="Sunny"),
                                              ToolMessage(tool_call_id=ids[1], content="Sunny")]
    assert model.requests[1].messages[1].reasoning[0].data["thinking"] == (
        "Two cities, two calls.")


def test_invalid_raw_arguments_become_an_empty_input() -> None:
    broken = ToolCall(id="", name="get_weather", raw_arguments='{"city": ')
    body = post(Emulator(ScriptedModel([Step(calls=(broken,))])), request([USER])).json()
    assert body["content"][0]["input"] == {}


@pytest.mark.parametrize(("stop", "wire"), [(StopReason.MAX_TOKENS, "max_tokens"),
                                            (StopReason.REFUSAL, "refusal")])
def test_stop_reasons(stop: StopReason, wire: str) -> None:
    body = post(Emulator(ScriptedModel([Step.say("No.", stop_reason=stop)])),
                request([USER])).json()
    assert Message.model_validate(body).stop_reason == wire


LONG = {"role": "user", "content": "x" * 10_000}  # 2,500 tokens: above Sonnet 4.6's 1,024
FOLLOW_UP = [LONG, {"role": "assistant", "content": "a"}, {"role": "user", "content": "more"}]


def test_without_cache_control_nothing_is_cached() -> None:
    emulator = Emulator(ScriptedModel([Step.say("a"), Step.say("b")]))
    post(emulator, request([LONG]))
    usage = post(emulator, request(FOLLOW_UP)).json()["usage"]
    assert (usage["cache_read_input_tokens"], usage["cache_creation_input_tokens"]) == (0, 0)
    assert usage["input_tokens"] == count_tokens(request(FOLLOW_UP))


def test_a_breakpoint_writes_then_the_next_turn_reads_and_writes_the_new_part() -> None:
    emulator = Emulator(ScriptedModel([Step.say("a"), Step.say("b")]))
    automatic = {"cache_control": {"type": "ephemeral"}}
    first = post(emulator, request([LONG]) | automatic).json()["usage"]
    # Tools first, then {"role":"user","text":"x...","type":"text"}: 10,207 characters / 4.
    assert (first["cache_read_input_tokens"], first["cache_creation_input_tokens"]) == (0, 2551)
    assert first["cache_creation"] == {"ephemeral_5m_input_tokens": 2551,
                                       "ephemeral_1h_input_tokens": 0}
    body = request(FOLLOW_UP) | automatic
    second = post(emulator, body).json()["usage"]
    assert second["cache_read_input_tokens"] == 2551  # the prefix the first turn wrote
    assert 0 < second["cache_creation_input_tokens"] < 50  # only the two new blocks
    assert (second["input_tokens"] + second["cache_read_input_tokens"]
            + second["cache_creation_input_tokens"]) == count_tokens(body)


def test_a_one_hour_breakpoint_reports_its_writes_as_one_hour() -> None:
    emulator = Emulator(ScriptedModel([Step.say("a")]))
    marked = {"role": "user", "content": [{"type": "text", "text": "x" * 10_000,
                                           "cache_control": {"type": "ephemeral", "ttl": "1h"}}]}
    usage = post(emulator, request([marked])).json()["usage"]
    assert usage["cache_creation"] == {"ephemeral_5m_input_tokens": 0,
                                       "ephemeral_1h_input_tokens": 2551}


def test_below_the_models_minimum_a_breakpoint_caches_nothing() -> None:
    emulator = Emulator(ScriptedModel([Step.say("a")]))
    short = {"role": "user", "content": "x" * 3_800}  # with the tools, 1,001 tokens < 1,024
    usage = post(emulator, request([short]) | {"cache_control": {"type": "ephemeral"}}).json()
    assert usage["usage"]["cache_creation_input_tokens"] == 0


def test_tool_use_without_results_in_the_next_message() -> None:
    messages = [USER, {"role": "assistant", "content": [use("toolu_01A"), use("toolu_01B")]},
                {"role": "user", "content": "Well?"}]
    assert rejected(request(messages)) == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_01A, toolu_01B. Each `tool_use` block must have a corresponding `tool_result` "
        "block in the next message.")


def test_a_result_for_an_unknown_tool_use_id() -> None:
    messages = [USER, {"role": "assistant", "content": [use("toolu_01A")]},
                {"role": "user", "content": [result("toolu_01A"), result("toolu_01Z")]}]
    assert rejected(request(messages)) == (
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: "
        "toolu_01Z. Each `tool_result` block must have a corresponding `tool_use` block in the "
        "previous message.")


def test_text_before_the_tool_results() -> None:
    messages = [USER, {"role": "assistant", "content": [use("toolu_01A"), use("toolu_01B")]},
                {"role": "user", "content": [{"type": "text", "text": "Here you go"},
                                             result("toolu_01A"), result("toolu_01B")]}]
    assert rejected(request(messages)) == (
        "messages.2: Did not find 2 `tool_result` block(s) at the beginning of this message. "
        "Messages following `tool_use` blocks must begin with a matching number of "
        "`tool_result` blocks.")


def test_tool_history_without_tools() -> None:
    messages = [USER, {"role": "assistant", "content": [use("toolu_01A")]},
                {"role": "user", "content": [result("toolu_01A")]}]
    body = request(messages)
    del body["tools"]
    assert rejected(body) == ("Requests which include `tool_use` or `tool_result` blocks must "
                              "define tools.")


def test_a_string_input() -> None:
    text_input = use("toolu_01A") | {"input": '{"city":"Paris"}'}
    messages = [USER, {"role": "assistant", "content": [text_input]},
                {"role": "user", "content": [result("toolu_01A")]}]
    assert rejected(request(messages)) == (
        "messages.1.content.0.tool_use.input: Input should be a valid dictionary")


def test_missing_max_tokens() -> None:
    body = request([USER])
    del body["max_tokens"]
    assert rejected(body) == "max_tokens: Field required"


def test_thinking_enabled_needs_the_thinking_block_back() -> None:
    messages = [USER, {"role": "assistant", "content": [use("toolu_01A")]},
                {"role": "user", "content": [result("toolu_01A")]}]
    message = rejected(request(messages, thinking={"type": "enabled", "budget_tokens": 2048}))
    assert message == (
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
        "`tool_use`. When `thinking` is enabled, a final `assistant` message must start with a "
        "thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). "
        "We recommend you include thinking blocks from previous turns. To avoid this "
        "requirement, disable `thinking`. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking")


def test_an_edited_thinking_block_has_an_invalid_signature() -> None:
    emulator = Emulator(ScriptedModel([Step.call_many(("get_weather", {"city": "Paris"}),
                                                      thinking="Call the tool.")]))
    content = post(emulator, request([USER])).json()["content"]
    content[0]["thinking"] = "Call the tool, quickly."
    messages = [USER, {"role": "assistant", "content": content},
                {"role": "user", "content": [result(content[1]["id"])]}]
    response = post(emulator, request(messages))
    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        "messages.1.content.0: Invalid `signature` in `thinking` block")


def test_a_signature_from_another_seed_is_invalid() -> None:
    step = Step.call_many(("get_weather", {"city": "Paris"}), thinking="Call the tool.")
    content = post(Emulator(ScriptedModel([step]), seed="a"), request([USER])).json()["content"]
    messages = [USER, {"role": "assistant", "content": content},
                {"role": "user", "content": [result(content[1]["id"])]}]
    response = post(Emulator(ScriptedModel([Step.say("ok")]), seed="b"), request(messages))
    assert response.json()["error"]["message"].endswith("Invalid `signature` in `thinking` block")


def test_plain_user_text_reaches_the_model() -> None:
    model = ScriptedModel([Step.say("Hello")])
    post(Emulator(model), request([{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
                                  system="Be brief.", tool_choice={"type": "any"}))
    assert model.requests[0].messages[1] == UserMessage(content="Hi")
    assert model.requests[0].messages[0].content == "Be brief."
    assert model.requests[0].tool_choice == "required"
