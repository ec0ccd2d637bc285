"""Anthropic message threads: create, continue with only the new messages, the 404 with
`thread_not_found` for an unknown or expired thread, and the anthropic SDK's tool runner, which
threads by default and sends the whole conversation again when its thread is gone."""

from __future__ import annotations

from typing import Any

import anthropic
import httpx
import pytest

from offline.emulator import Emulator, serve
from offline.emulator._threads import BETA, Threads
from offline.scripted import ScriptedModel, Step

URL = "https://api.anthropic.com/v1/messages?beta=true"
BETA_HEADERS = {"anthropic-version": "2023-06-01", "anthropic-beta": BETA}
TOOLS = [{"name": "get_weather", "input_schema": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]
ASK = {"role": "user", "content": "Weather in Paris?"}


def post(emulator: Emulator, body: dict[str, Any], headers: dict[str, str] = BETA_HEADERS
         ) -> httpx.Response:
    with httpx.Client(transport=emulator) as client:
        return client.post(URL, json=body, headers=headers)


def create(emulator: Emulator) -> dict[str, Any]:
    first = post(emulator, {"model": "claude-sonnet-4-6", "max_tokens": 512, "system": "Be brief.",
                            "tools": TOOLS, "messages": [ASK], "thread": {"type": "create"}})
    assert first.status_code == 200, first.json()
    return dict(first.json())


def continue_(emulator: Emulator, reply: dict[str, Any], **fields: Any) -> httpx.Response:
    result = {"role": "user", "content": [{"type": "tool_result", "content": "Sunny",
                                           "tool_use_id": reply["content"][0]["id"]}]}
    return post(emulator, {"model": "claude-sonnet-4-6", "max_tokens": 512, "messages": [result],
                           "thread": {"type": "continue", "previous_message_id": reply["id"]},
                           **fields})


def weather() -> ScriptedModel:
    return ScriptedModel([Step.call("get_weather", city="Paris"), Step.say("Sunny in Paris.")])


def test_a_continue_request_stands_for_the_whole_conversation() -> None:
    model = weather()
    emulator = Emulator(model)
    reply = continue_(emulator, create(emulator))
    assert reply.status_code == 200, reply.json()
    assert reply.json()["content"][0]["text"] == "Sunny in Paris."
    second = model.requests[1]  # what the model saw: system, question, call, result; the tools
    assert [m.role for m in second.messages] == ["system", "user", "assistant", "tool"]
    assert [t.name for t in second.tools] == ["get_weather"]


def test_an_unknown_or_expired_thread_is_a_404_with_thread_not_found() -> None:
    now = [0.0]
    emulator = Emulator(weather())
    emulator.threads = Threads(clock=lambda: now[0])
    reply = create(emulator)
    now[0] += 301  # five minutes and a second after the thread's last request
    for gone in (continue_(emulator, reply), continue_(emulator, {**reply, "id": "msg_01Nowhere"})):
        assert gone.status_code == 404
        assert gone.json()["error"]["type"] == "not_found_error"
        assert gone.json()["error"]["details"] == {"error_code": "thread_not_found"}
    assert emulator.model.unconsumed == 1


def test_a_continue_request_leaves_out_system_and_tools_and_continues_once() -> None:
    emulator = Emulator(ScriptedModel([Step.call("get_weather", city="Paris")] + [
        Step.say("Sunny.")] * 2))
    reply = create(emulator)
    repeated = continue_(emulator, reply, tools=TOOLS)
    assert repeated.status_code == 400
    assert repeated.json()["error"]["message"].startswith("tools: not allowed with thread.type")
    assert continue_(emulator, reply).status_code == 200
    again = continue_(emulator, reply)
    assert (again.status_code, again.json()["error"]["details"]["error_code"]) == (
        400, "thread_already_continued")


def test_thread_needs_the_beta_header() -> None:
    response = post(Emulator(weather()), {"model": "claude-sonnet-4-6", "max_tokens": 64,
                                          "messages": [ASK], "thread": {"type": "create"}},
                    headers={"anthropic-version": "2023-06-01"})
    assert (response.status_code, response.json()["error"]["message"]) == (
        400, "thread: Extra inputs are not permitted")


@pytest.mark.parametrize("expire", [False, True])
def test_the_sdk_tool_runner_threads_and_replays_a_lost_thread(expire: bool) -> None:
    now = [0.0]
    calls: list[str] = []

    @anthropic.beta_tool
    def get_weather(city: str) -> str:
        """Weather for a city."""
        calls.append(city)
        now[0] += 400 if expire else 1  # the tool takes longer than a thread lives
        return f"Sunny in {city}"

    model = ScriptedModel([Step.call("get_weather", city="Paris"),
                           Step.call("get_weather", city="Rome"), Step.say("Both sunny.")])
    emulator = Emulator(model, api_key="sk-test")
    emulator.threads = Threads(clock=lambda: now[0])
    with serve(emulator) as url, anthropic.Anthropic(base_url=url, api_key="sk-test",
                                                     max_retries=0) as client:
        runner = client.beta.messages.tool_runner(
            model="claude-sonnet-4-6", max_tokens=512, tools=[get_weather],
            messages=[{"role": "user", "content": "Weather in Paris and Rome?"}])
        final = list(runner)[-1]
    assert final.content[0].text == "Both sunny." and calls == ["Paris", "Rome"]
    threads = [e.request.get("thread", {}).get("type") for e in emulator.exchanges]
    statuses = [e.status for e in emulator.exchanges]
    if expire:  # the continue finds the thread gone: the SDK sends it all again under a new one;
        # when that one is lost too, it goes on without a thread (its "continue_unthreaded")
        assert threads == ["create", "continue", "create", "continue", None]
        assert statuses == [200, 404, 200, 404, 200]
    else:
        assert (threads, statuses) == (["create", "continue", "continue"], [200] * 3)
        assert all("tools" not in e.request for e in emulator.exchanges[1:])
    assert len(model.requests[-1].messages) == 5  # the model always saw the whole conversation
