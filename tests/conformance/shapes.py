"""One request body per shape class of the real-traffic corpus, for any model: our own texts, ids
and values in the structure real accepted requests of that class had (see `corpus`).

`build(api, shape, model)` gives (path, body). A shape is what the emulator's rules look at: the
turns and their order, tool calls and their answers, reasoning and thinking blocks, server-side
state; fields no rule reads are left out. Streaming is not a shape here (issue 25, item 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conformance._fixture import foreign_signature

Body = dict[str, Any]
ASK = "Next trains to Porto and to Faro?"
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJ"
       "RU5ErkJggg==")  # a 1x1 pixel of our own
SCHEMA = {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}


def _chat(model: str, messages: list[Any], **extra: Any) -> Body:
    return {"model": model, "messages": messages, **extra}


CHAT_TOOLS = [{"type": "function", "function": {"name": "find_train", "parameters": SCHEMA}}]


def _chat_calls(*cities: str) -> list[Any]:
    calls = [{"id": f"call_{city}0001", "type": "function", "function": {
        "name": "find_train", "arguments": f'{{"to":"{city}"}}'}} for city in cities]
    results = [{"role": "tool", "tool_call_id": f"call_{city}0001", "content": f"{city}: 10:05"}
               for city in cities]
    return [{"role": "assistant", "content": None, "tool_calls": calls}, *results]


USER = {"role": "user", "content": ASK}
CHAT: dict[str, Callable[[str], Body]] = {
    "text": lambda m: _chat(m, [USER]),
    "system and text": lambda m: _chat(m, [{"role": "system", "content": "Be brief."}, USER]),
    "content parts": lambda m: _chat(m, [{"role": "user", "content": [
        {"type": "text", "text": "What station is this?"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}]}]),
    "tools, first call": lambda m: _chat(m, [USER], tools=CHAT_TOOLS, tool_choice="auto"),
    "tool round trip": lambda m: _chat(m, [USER, *_chat_calls("Porto")], tools=CHAT_TOOLS),
    "parallel round trip": lambda m: _chat(m, [USER, *_chat_calls("Porto", "Faro")],
                                           tools=CHAT_TOOLS),
    "closing call": lambda m: _chat(m, [USER, *_chat_calls("Porto")], tools=CHAT_TOOLS,
                                    tool_choice="none"),
    "reasoning effort": lambda m: _chat(m, [USER], reasoning_effort="low"),
}

RESPONSES_TOOLS = [{"type": "function", "name": "find_train", "parameters": SCHEMA,
                    "strict": False}]
CALL = {"type": "function_call", "call_id": "call_Porto0001", "name": "find_train",
        "arguments": '{"to":"Porto"}', "id": "fc_5a1e0c4d9b7f2e3801692f0a1122aa33bb44cc55dd"}
OUTPUT = {"type": "function_call_output", "call_id": "call_Porto0001", "output": "10:05"}
REASONING = {"type": "reasoning", "id": "rs_5a1e0c4d9b7f2e3801692f0a1133bb44cc55dd66ee",
             "summary": [], "encrypted_content": "gAAAAABpAAAAAOurOwnCipherTextForTests=="}
SEARCH = {"type": "tool_search_call", "call_id": "search_Porto", "execution": "client",
          "status": "completed", "arguments": {"queries": ["train times"]}}


def _responses(model: str, items: list[Any] | str, **extra: Any) -> Body:
    return {"model": model, "input": items, **extra}


RESPONSES: dict[str, Callable[[str], Body]] = {
    "text": lambda m: _responses(m, ASK),
    "instructions and text": lambda m: _responses(m, [USER], instructions="Be brief."),
    "tools, first call": lambda m: _responses(m, [USER], tools=RESPONSES_TOOLS,
                                              tool_choice="auto"),
    "tool round trip": lambda m: _responses(m, [USER, CALL, OUTPUT], tools=RESPONSES_TOOLS),
    "reasoning items": lambda m: _responses(m, [USER, REASONING, CALL, OUTPUT],
                                            tools=RESPONSES_TOOLS, store=False,
                                            include=["reasoning.encrypted_content"]),
    "server-side state": lambda m: _responses(m, [OUTPUT], tools=RESPONSES_TOOLS,
                                              previous_response_id="resp_5a1e0c4d9b7f2e38"),
    "tools in an input item": lambda m: _responses(m, [USER, {
        "type": "additional_tools", "role": "developer", "tools": RESPONSES_TOOLS}],
        tool_choice="auto"),
    "client tool search": lambda m: _responses(m, [USER, SEARCH, {
        "type": "function_call_output", "call_id": "search_Porto", "output": "Found one."}],
        tools=[{"type": "tool_search"}, *RESPONSES_TOOLS]),
}


def _claude(model: str, messages: list[Any], **extra: Any) -> Body:
    return {"model": model, "max_tokens": 2048, "messages": messages, **extra}


CLAUDE_TOOLS = [{"name": "find_train", "input_schema": SCHEMA}]


def _uses(*cities: str, first: list[Any] | None = None) -> list[Any]:
    uses = [{"type": "tool_use", "id": f"toolu_01{city}", "name": "find_train",
             "input": {"to": city}} for city in cities]
    results = [{"type": "tool_result", "tool_use_id": f"toolu_01{city}", "content": "10:05"}
               for city in cities]
    return [{"role": "assistant", "content": [*(first or []), *uses]},
            {"role": "user", "content": results}]


THINKING = {"type": "thinking", "thinking": "One lookup.", "signature": foreign_signature("p")}
WEB_SEARCH = [{"role": "assistant", "content": [
    {"type": "server_tool_use", "id": "srvtoolu_01Porto", "name": "web_search",
     "input": {"query": "Porto trains"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01Porto", "content": [
        {"type": "web_search_result", "url": "https://trains.example/porto", "title": "Porto",
         "encrypted_content": "EoEBCkYIBxgCKkB0ZXN0", "page_age": None}]},
    {"type": "text", "text": "The next one leaves at 10:05."}]},
    {"role": "user", "content": "And to Faro?"}]
ANTHROPIC: dict[str, Callable[[str], Body]] = {
    "text": lambda m: _claude(m, [USER]),
    "system and text": lambda m: _claude(m, [USER], system="Be brief."),
    "content blocks": lambda m: _claude(m, [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"type": "text", "text": "What station is this?"}]}]),
    "tools, first call": lambda m: _claude(m, [USER], tools=CLAUDE_TOOLS),
    "tool round trip": lambda m: _claude(m, [USER, *_uses("Porto")], tools=CLAUDE_TOOLS),
    "parallel round trip": lambda m: _claude(m, [USER, *_uses("Porto", "Faro")],
                                             tools=CLAUDE_TOOLS),
    "thinking enabled, first call": lambda m: _claude(
        m, [USER], thinking={"type": "enabled", "budget_tokens": 1024}),
    "thinking adaptive, first call": lambda m: _claude(m, [USER], thinking={"type": "adaptive"}),
    "thinking round trip": lambda m: _claude(
        m, [USER, *_uses("Porto", first=[THINKING])], tools=CLAUDE_TOOLS,
        thinking={"type": "enabled", "budget_tokens": 1024}),
    "server tool blocks": lambda m: _claude(m, [USER, *WEB_SEARCH], tools=[
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}, *CLAUDE_TOOLS]),
}

GEMINI_TOOLS = [{"functionDeclarations": [{"name": "find_train", "parametersJsonSchema": SCHEMA}]}]
SIGNATURE = "CiQBcsjafGZ0ZXN0LXNpZ25hdHVyZS1vZi1vdXItb3du"


def _user(*parts: Any) -> Any:
    return {"role": "user", "parts": list(parts)}


def _model_calls(*cities: str) -> Any:
    return {"role": "model", "parts": [
        {"functionCall": {"name": "find_train", "args": {"to": city}},
         **({"thoughtSignature": SIGNATURE} if index == 0 else {})}
        for index, city in enumerate(cities)]}


def _answers(*cities: str) -> Any:
    return _user(*({"functionResponse": {"name": "find_train",
                                         "response": {"result": f"{city}: 10:05"}}}
                   for city in cities))


GEMINI_ASK = _user({"text": ASK})


def _gemini(contents: list[Any], **extra: Any) -> Body:
    return {"contents": contents, **extra}


GEMINI: dict[str, Callable[[str], Body]] = {
    "text": lambda m: _gemini([GEMINI_ASK]),
    "system and text": lambda m: _gemini([GEMINI_ASK], systemInstruction={
        "parts": [{"text": "Be brief."}]}),
    "media parts": lambda m: _gemini([_user({"inlineData": {"mimeType": "image/png",
                                                            "data": PNG}},
                                            {"text": "What station is this?"})]),
    "structured output": lambda m: _gemini([GEMINI_ASK], generationConfig={
        "responseMimeType": "application/json", "responseJsonSchema": SCHEMA}),
    "tools, first call": lambda m: _gemini([GEMINI_ASK], tools=GEMINI_TOOLS),
    "tool round trip": lambda m: _gemini([GEMINI_ASK, _model_calls("Porto"), _answers("Porto")],
                                         tools=GEMINI_TOOLS),
    "parallel round trip": lambda m: _gemini(
        [GEMINI_ASK, _model_calls("Porto", "Faro"), _answers("Porto", "Faro")],
        tools=GEMINI_TOOLS),
    "split call turn": lambda m: _gemini(
        [GEMINI_ASK, _model_calls("Porto"), _model_calls("Faro"), _answers("Porto", "Faro")],
        tools=GEMINI_TOOLS),
    "thinking off": lambda m: _gemini([GEMINI_ASK], generationConfig={
        "thinkingConfig": {"thinkingBudget": 0}}),
    "thoughts included": lambda m: _gemini([GEMINI_ASK], generationConfig={
        "thinkingConfig": {"includeThoughts": True}}),
}

ROUTES = {"openai_chat": ("/v1/chat/completions", CHAT),
          "openai_responses": ("/v1/responses", RESPONSES),
          "anthropic": ("/v1/messages", ANTHROPIC),
          "gemini": ("/v1beta/models/{model}:generateContent", GEMINI)}


def build(api: str, shape: str, model: str) -> tuple[str, Body]:
    """The path and body of a request of `shape` for `model` on `api`."""
    path, shapes = ROUTES[api]
    return path.format(model=model), shapes[shape](model)
