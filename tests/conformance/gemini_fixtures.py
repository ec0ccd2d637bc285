"""generateContent (`POST /v1beta/models/{model}:generateContent`): request shapes the real API
accepted or rejected."""

from __future__ import annotations

from typing import Any

from tests.conformance._fixture import Fixture

PATH = "/v1beta/models/gemini-2.5-flash:generateContent"
TOOLS = [{"functionDeclarations": [{
    "name": "find_train", "description": "Find the next train to a station.",
    "parametersJsonSchema": {"type": "object", "properties": {"to": {"type": "string"}},
                             "required": ["to"]}}]}]
ASK = {"role": "user", "parts": [{"text": "Next trains to Porto and to Faro?"}]}
TWO_CALLS = {"role": "model", "parts": [
    {"functionCall": {"name": "find_train", "args": {"to": "Porto"}}},
    {"functionCall": {"name": "find_train", "args": {"to": "Faro"}}}]}


def body(contents: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"contents": contents, "tools": TOOLS, **extra}


def answer(to: str, *, name: str = "find_train") -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": {"result": f"{to}: 10:05"}}}


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


def error(message: str) -> dict[str, Any]:
    return {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}


COUNT = ("Please ensure that the number of function response parts is equal to the number of "
         "function call parts of the function call turn.")

FIXTURES = [
    Fixture(
        fact="Parallel calls answered in one user content: one functionResponse per call.",
        path=PATH, body=body([ASK, TWO_CALLS, user(answer("Porto"), answer("Faro"))])),
    Fixture(
        fact="Parallel calls answered in consecutive user contents, one functionResponse each, "
             "form one response turn.",
        tags=("split function responses",),
        path=PATH, body=body([ASK, TWO_CALLS, user(answer("Porto")), user(answer("Faro"))])),
    Fixture(
        fact="Split responses still count: a call left without its response is rejected.",
        status=400, error=error(COUNT),
        path=PATH, body=body([ASK, TWO_CALLS, user(answer("Porto")),
                              user({"text": "Only Porto, please."})])),
    Fixture(
        fact="A user text content may follow the response turn (consecutive user contents).",
        path=PATH, body=body([ASK, TWO_CALLS, user(answer("Porto"), answer("Faro")),
                              user({"text": "Which is earlier?"})])),
    Fixture(
        fact="A response is matched to its call by name, not to the declared tools: answering a "
             "call of a function no longer declared is valid.",
        tags=("response to an undeclared function",),
        path=PATH,
        body=body([ASK, {"role": "model", "parts": [
                       {"functionCall": {"name": "list_stations", "args": {}}}]},
                   user(answer("stations", name="list_stations"))])),
    Fixture(
        fact="A response whose name matches no call of the turn is an invalid argument.",
        status=400, error=error("Request contains an invalid argument."),
        path=PATH, body=body([ASK, TWO_CALLS,
                              user(answer("Porto"), answer("Faro", name="find_bus"))])),
    Fixture(
        fact="A response turn must come right after the call turn.",
        status=400,
        error=error("Please ensure that function response turn comes immediately after a "
                    "function call turn."),
        path=PATH, body=body([ASK, user(answer("Porto"))])),
]
