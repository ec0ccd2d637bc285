"""The emulator's false rejections: one test per class of request the real APIs accepted and the
emulator used to reject, and the rate on the corpus of real accepted requests (`corpus`).

Beyond the 200 (test_conformance), the class tests check what reaches the model: the request must
be read as the real API reads it. The corpus tests replay each fact as our own request of the same
shape and model (`shapes`): at most 1% (weighted as the traffic was) may be refused, and each class
of refusal left is named in `corpus.REMAINING`.
"""

from __future__ import annotations

import base64
import collections
import copy
from typing import Any

import httpx
import pytest

from harness.messages import AssistantMessage, ToolMessage
from harness.providers.catalog import PROVIDERS, RETIRED
from offline.emulator import Emulator, WireError, anthropic
from offline.emulator._ids import EMULATOR_KEY_ID, Ledger
from offline.emulator.openai_responses import TOOL_ITEMS
from offline.scripted import ScriptedModel, Step
from tests.conformance import anthropic_fixtures as A
from tests.conformance import corpus, shapes
from tests.conformance import gemini_fixtures as G
from tests.conformance import openai_responses_fixtures as R
from tests.conformance._fixture import foreign_signature, tagged


def sent(route: str, body: dict[str, Any]) -> list[Any]:
    """The neutral messages the model received for this body (the request must be accepted)."""
    model = ScriptedModel([Step.say("ok")])
    with httpx.Client(transport=Emulator(model), base_url="https://api.example") as client:
        response = client.post(route, json=body)
    assert response.status_code == 200, response.json()
    return model.requests[0].messages


def test_an_anthropic_turn_split_over_messages_is_one_turn() -> None:
    messages = sent("/v1/messages", tagged(A.FIXTURES, "consecutive same-role messages").body)
    assert [type(m).__name__ for m in messages] == [
        "UserMessage", "AssistantMessage", "ToolMessage", "ToolMessage"]
    assert [c.id for c in messages[1].tool_calls] == ["toolu_01Porto", "toolu_01Faro"]
    assert [m.tool_call_id for m in messages[2:]] == ["toolu_01Porto", "toolu_01Faro"]


def test_a_merged_turn_must_still_be_answered_in_full() -> None:
    body = copy.deepcopy(tagged(A.FIXTURES, "consecutive same-role messages").body)
    body["messages"][-1]["content"].pop()  # Faro's result
    with pytest.raises(WireError) as caught:
        anthropic.validate(body, ledger=Ledger())
    assert "toolu_01Faro" in caught.value.body["error"]["message"]


def thinking_body(signature: str, thinking: str = "Two lookups, one per city.") -> dict[str, Any]:
    return A.body([A.ASK, {"role": "assistant", "content": [
        {"type": "thinking", "thinking": thinking, "signature": signature},
        A.use("toolu_01Porto", "Porto")]},
        {"role": "user", "content": [A.result("toolu_01Porto", "10:05")]}], thinking=A.THINKING)


def signature_accepted(signature: str, thinking: str = "Two lookups, one per city.") -> bool:
    try:
        anthropic.validate(thinking_body(signature, thinking), ledger=Ledger())
    except WireError as error:
        assert error.body["error"]["message"] == (
            "messages.1.content.0: Invalid `signature` in `thinking` block")
        return False
    return True


@pytest.mark.parametrize("size", [60, 400, 2000])
def test_real_format_signatures_the_emulator_did_not_issue_are_accepted(size: int) -> None:
    assert signature_accepted(foreign_signature(f"any-{size}", thinking_bytes=size))


@pytest.mark.parametrize("signature", [
    "", "not base64!", base64.b64encode(b"just some bytes").decode(),
    foreign_signature("cut")[:-12],  # truncated: the protobuf lengths no longer add up
    base64.b64encode(b"\x12\x02\x0a\x00\x18\x01").decode(),  # protobuf, no 64-byte signature
])
def test_signatures_not_in_the_real_format_are_rejected(signature: str) -> None:
    assert not signature_accepted(signature)


def test_the_emulators_own_signature_holds_only_for_its_text() -> None:
    own = Ledger().thinking_signature("Two lookups, one per city.")
    assert signature_accepted(own)
    assert not signature_accepted(own, thinking="Two lookups, one per city!")  # edited text
    assert not signature_accepted(Ledger("other seed").thinking_signature(
        "Two lookups, one per city."))  # another emulator's key


def test_a_tampered_own_signature_is_rejected_except_inside_its_key_id() -> None:
    # The documented limit: the key id (12 bytes) is how the emulator knows its own signatures;
    # a change inside it makes the signature look like a real one, which only needs the format.
    own = Ledger().thinking_signature("Two lookups, one per city.")
    start = base64.b64decode(own).index(EMULATOR_KEY_ID)  # in bytes; 3 bytes = 4 characters
    accepted = []
    for position in range(len(own)):
        swapped = own[:position] + ("A" if own[position] != "A" else "B") + own[position + 1:]
        if signature_accepted(swapped):
            accepted.append(position)
    window = range(start * 4 // 3, (start + 12) * 4 // 3 + 1)
    assert accepted and all(position in window for position in accepted), (accepted, window)


@pytest.mark.parametrize("kind", sorted(TOOL_ITEMS - {"function_call"}))
def test_any_built_in_tool_item_may_follow_a_reasoning_item(kind: str) -> None:
    item = {"type": kind, "id": f"x_{kind}", "status": "completed"}
    messages = sent("/v1/responses", R.body([R.ASK, R.REASONING, item, R.MESSAGE, R.THANKS]))
    turn = messages[1]
    assert isinstance(turn, AssistantMessage)
    assert turn.content == "The next train leaves at 10:05."
    assert turn.extra == {"item_id": R.MESSAGE["id"]}
    assert turn.reasoning[0].data == R.REASONING


@pytest.mark.parametrize("state", [{"conversation": "conv_1"},
                                   {"conversation": {"id": "conv_1"}},
                                   {"previous_response_id": "resp_1"}])
def test_conversation_and_previous_response_id_are_alike(state: dict[str, Any]) -> None:
    output = {"type": "function_call_output", "call_id": "call_Porto0001", "output": "10:05"}
    messages = sent("/v1/responses", {"model": "gpt-5-mini", "tools": R.TOOLS,
                                      "input": [output], **state})
    assert messages == [ToolMessage(tool_call_id="call_Porto0001", content="10:05")]


def test_tools_in_an_additional_tools_item_reach_the_model() -> None:
    model = ScriptedModel([Step.call("find_train", to="Porto")])
    request = tagged(R.FIXTURES, "tools in an input item").body
    with httpx.Client(transport=Emulator(model), base_url="https://api.example") as client:
        body = client.post("/v1/responses", json=request).json()
    assert [t.name for t in model.requests[0].tools] == ["find_train"]
    assert [m.role for m in model.requests[0].messages] == ["user"]  # the item is no message
    assert [item["name"] for item in body["output"]] == ["find_train"]


def test_split_gemini_responses_pair_with_their_calls_in_order() -> None:
    same_name = {"role": "model", "parts": [  # no ids on this API: pairing goes by name, in order
        {"functionCall": {"name": "find_train", "args": {"to": "Porto"}}},
        {"functionCall": {"name": "find_train", "args": {"to": "Faro"}}}]}
    messages = sent(G.PATH, G.body([G.ASK, same_name, G.user(G.answer("Porto")),
                                    G.user(G.answer("Faro"))]))
    calls = messages[1].tool_calls
    assert [(m.tool_call_id, m.content) for m in messages[2:]] == [
        (calls[0].id, "Porto: 10:05"), (calls[1].id, "Faro: 10:05")]


def test_a_gemini_response_to_an_undeclared_function_is_read() -> None:
    messages = sent(G.PATH, tagged(G.FIXTURES, "response to an undeclared function").body)
    assert messages[1].tool_calls[0].name == "list_stations"
    assert messages[2] == ToolMessage(tool_call_id=messages[1].tool_calls[0].id,
                                      content="stations: 10:05")


# The corpus of real accepted requests (tests/conformance/corpus.py): every fact replayed as our
# own request of the same shape and model, and the false rejections counted as the traffic was.
CORPUS = [pytest.param(api, model, shape, count, id=f"{api}: {model}: {shape}")
          for api, models in corpus.ACCEPTED.items() for model, kinds in models.items()
          for shape, count in kinds.items()]


def replayed(api: str, model: str, shape: str) -> httpx.Response:
    path, body = shapes.build(api, shape, model)
    if api != "gemini":
        body["model"] = model
    with httpx.Client(transport=Emulator(ScriptedModel([Step.say("ok")])),
                      base_url="https://api.example") as client:
        return client.post(path, json=body)


def retired(api: str, model: str) -> bool:
    return model in RETIRED[PROVIDERS[api].family]


@pytest.mark.parametrize(("api", "model", "shape", "count"), CORPUS)
def test_each_fact_of_the_corpus_gets_the_answer_the_real_api_gives_today(
        api: str, model: str, shape: str, count: int) -> None:
    response = replayed(api, model, shape)
    if retired(api, model):  # accepted when recorded; the real API refuses the name since
        assert response.status_code == 404, response.json()
        assert "deprecated" in response.text or "not found" in response.text or (
            f"model: {model}" in response.text)
    elif (api, model) in corpus.REMAINING:
        assert response.status_code in (400, 404)  # a named false rejection: see the rate test
    else:
        assert response.status_code == 200, response.json()


def test_false_rejections_on_the_corpus_are_at_most_one_percent_and_each_is_named() -> None:
    accepted, falsely = 0, collections.Counter[tuple[str, str]]()
    for param in CORPUS:
        api, model, shape, count = param.values
        if retired(api, model):
            continue
        accepted += count
        if replayed(api, model, shape).status_code != 200:
            falsely[(api, model)] += count
    rate = sum(falsely.values()) / accepted
    assert set(falsely) == set(corpus.REMAINING), falsely
    assert accepted > 900 and rate <= 0.01, (accepted, dict(falsely), f"{rate:.2%}")
