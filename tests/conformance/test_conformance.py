"""The emulator answers every conformance fixture as the real API answered that shape.

A fixture the real API accepted must get 200 (and a body the official SDK types accept); one it
rejected must get the real status and error body, text included.
"""

from __future__ import annotations

import httpx
import pytest
from anthropic.types import Message
from google.genai import types as genai
from openai.types.responses import Response

from offline.emulator import Emulator
from offline.scripted import ScriptedModel, Step
from tests.conformance import anthropic_fixtures, gemini_fixtures, openai_responses_fixtures
from tests.conformance._fixture import Fixture

APIS = {"anthropic": (anthropic_fixtures, "/v1/messages", Message),
        "openai_responses": (openai_responses_fixtures, "/v1/responses", Response),
        "gemini": (gemini_fixtures, None, genai.GenerateContentResponse)}
CASES = [pytest.param(api, fixture, id=f"{api}: {fixture.fact[:70]}")
         for api, (module, _, _) in APIS.items() for fixture in module.FIXTURES]


def answer(api: str, fixture: Fixture) -> httpx.Response:
    _, route, _ = APIS[api]
    with httpx.Client(transport=Emulator(ScriptedModel([Step.say("ok")])),
                      base_url="https://api.example") as client:
        return client.post(fixture.path or route, json=fixture.body)


@pytest.mark.parametrize(("api", "fixture"), CASES)
def test_the_emulator_answers_as_the_real_api_did(api: str, fixture: Fixture) -> None:
    response = answer(api, fixture)
    body = response.json()
    assert response.status_code == fixture.status, body
    if fixture.status == 200:
        APIS[api][2].model_validate(body)
        return
    body.pop("request_id", None)  # Anthropic's, different on every call
    assert body == fixture.error


def test_every_api_has_accepted_and_rejected_fixtures() -> None:
    for api, (module, _, _) in APIS.items():
        statuses = {fixture.status for fixture in module.FIXTURES}
        assert 200 in statuses and statuses - {200}, api
        assert len({fixture.fact for fixture in module.FIXTURES}) == len(module.FIXTURES), api
