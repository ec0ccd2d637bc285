"""Gemini generateContent (`POST /{v1beta,v1}/models/{model}:generateContent`) on the server side.

Both versions are read alike; what v1 lacks (preview models, `cachedContent`) is refused before
this module sees the request (`_models`, `_features`).

`validate` rejects what the real API rejects (texts from real error bodies; tests/conformance/
holds request shapes the real API accepted or rejected), reading camelCase and snake_case keys
alike (proto JSON, see `_proto`); `parse_request` turns contents into neutral messages; `render`
writes a camelCase `GenerateContentResponse`. Function calls carry no `id` (like the Developer API)
and end with STOP. Thought signatures: a reply gets one when the script has thinking, or always on
a "gemini-3" model; it sits on the first functionCall part (on the last part when there are no
calls), and the next request must send back the ones issued for calls of the current turn. A call
turn may be split over consecutive model contents; its calls are answered in one user content or
split over several, each response naming a call of the turn (declared or not). Thought text parts
appear only with `includeThoughts`, as for real. Arguments are objects here: a scripted call whose
raw arguments are not a JSON object is rendered with `args: {}`. A scripted call to a function the
request does not declare is answered like the real API: finishReason UNEXPECTED_TOOL_CALL, no call.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from harness.messages import (
    AssistantMessage,
    Message,
    Reasoning,
    Reply,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolChoice,
    ToolMessage,
    ToolSpec,
    Usage,
    UserMessage,
)
from harness.providers.catalog import PROVIDERS
from offline.emulator._errors import WireError
from offline.emulator._ids import CallIds, Ledger
from offline.emulator._proto import read, violations
from offline.tokens import compact_json

INDENT = 2
PROVIDER = "gemini"
FAMILY = PROVIDERS[PROVIDER].family  # whose models, keys and rate limits apply: "gemini"

FINISH = {StopReason.END_TURN: "STOP", StopReason.TOOL_USE: "STOP",
          StopReason.MAX_TOKENS: "MAX_TOKENS", StopReason.REFUSAL: "SAFETY",
          StopReason.OTHER: "OTHER"}
STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
          404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
          504: "DEADLINE_EXCEEDED"}
INVALID_ARGUMENT = "Request contains an invalid argument."
COUNT_MISMATCH = ("Please ensure that the number of function response parts is equal to the "
                  "number of function call parts of the function call turn.")


def error_body(status: int, error_type: str, message: str, *,
               details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Google's error envelope; `error_type` is used when it is already a status name."""
    name = error_type if error_type.isupper() else STATUS.get(status, "UNKNOWN")
    error: dict[str, Any] = {"code": status, "message": message, "status": name}
    if details:
        error["details"] = details
    return {"error": error}


def _reject(message: str, *, status: int = 400) -> WireError:
    return WireError(status, error_body(status, STATUS[status], message))


def invalid_json_error(error: ValueError) -> WireError:
    # Google's parser quotes the offending line with a caret (googlecodelabs/feedback#299);
    # our quote and caret come from Python's parser and differ in detail.
    text, pos = getattr(error, "doc", ""), getattr(error, "pos", 0)
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:].split("\n", 1)[0]
    return _reject(f"Invalid JSON payload received. Unexpected token.\n{line}\n"
                   + " " * (pos - start) + "^")


def not_found_error(method: str, path: str) -> WireError:
    match = re.fullmatch(r"/(?P<version>v\w+)/models/(?P<model>[^/:]+):(?P<method>\w+)", path)
    if match:  # a model or method this version does not serve (google-genai 3.6.1's v1 trap)
        return model_not_found_error(match["model"], match["version"], match["method"])
    return _reject("Method not found.", status=404)


def model_not_found_error(model: str, version: str = "v1beta",
                          method: str = "generateContent") -> WireError:
    # Real text since 2026 (it said "Call ListModels" before).
    return _reject(f"models/{model} is not found for API version {version}, or is not "
                   f"supported for {method}. Call ModelService.ListModels to see the list of "
                   "available models and their supported methods.", status=404)


def cache_blocks(body: dict[str, Any]) -> list[str]:
    """The prompt in cache order: tools, the system instruction, then the contents."""
    return [compact_json(part) for part in [*(body.get("tools") or []),
                                            read(body, "systemInstruction"), *_contents(body)]]


def _contents(body: dict[str, Any]) -> list[dict[str, Any]]:
    return list(body.get("contents") or [])


def _parts(content: dict[str, Any]) -> list[dict[str, Any]]:
    return list(content.get("parts") or [])


def _model_turns(contents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The contents with each run of model contents combined into one turn, parts in order: the
    real API takes a call turn split over consecutive model contents, answered by one user content
    holding every response (pydantic-ai's cross-provider replay cassettes)."""
    turns: list[dict[str, Any]] = []
    for content in contents:
        if turns and turns[-1].get("role") == "model" == content.get("role"):
            turns[-1] = {**turns[-1], "parts": _parts(turns[-1]) + _parts(content)}
        else:
            turns.append(content)
    return turns


def _calls(content: dict[str, Any]) -> list[dict[str, Any]]:
    return [call for part in _parts(content) if (call := read(part, "functionCall"))]


def _responses(content: dict[str, Any]) -> list[dict[str, Any]]:
    return [result for part in _parts(content) if (result := read(part, "functionResponse"))]


def _declarations(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [declaration for tool in body.get("tools") or []
            for declaration in read(tool, "functionDeclarations") or []]


def validate(body: dict[str, Any], *, ledger: Ledger, **_: Any) -> None:
    """Raise `WireError` for the first rule the request breaks, in the real API's wording."""
    found = violations(body)
    if found:  # real shape: mnfst/llm-gateway#1858 (one fieldViolation per message)
        details = [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
            {"field": field, "description": text} for field, text in found]}]
        raise WireError(400, error_body(400, "INVALID_ARGUMENT", "\n".join(
            text for _, text in found), details=details))
    contents = _model_turns(_contents(body))
    for index, content in enumerate(contents):
        previous = contents[index - 1] if index else None
        if _calls(content):
            _check_call_turn(previous)
            _check_answered(contents[index + 1] if index + 1 < len(contents) else None)
        if _responses(content) and not _responses(previous or {}):
            _check_response_turn(_response_turn(contents, index), previous)
        _check_unique_ids(content)
    _check_signatures(_contents(body), ledger)


def _is_user_turn(content: dict[str, Any] | None) -> bool:
    return bool(content and content.get("role", "user") == "user" and not _responses(content))


def _check_call_turn(previous: dict[str, Any] | None) -> None:
    # Real text: continuedev/continue#11164, lobehub#7298.
    if not (_is_user_turn(previous) or (previous and _responses(previous))):
        raise _reject("Please ensure that function call turn comes immediately after a user "
                      "turn or after a function response turn.")


def _response_turn(contents: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    """The responses of the turn at `start`: in one content or split over consecutive ones."""
    run = itertools.takewhile(_responses, contents[start:])
    return [response for content in run for response in _responses(content)]


def _check_response_turn(responses: list[dict[str, Any]], previous: dict[str, Any] | None) -> None:
    if not (previous and _calls(previous)):
        # Real text: continuedev/continue#11164, lobehub#7298.
        raise _reject("Please ensure that function response turn comes immediately after a "
                      "function call turn.")
    if len(responses) != len(_calls(previous)):
        # Real text: microsoft/vscode#299295, gemini-cli#4217.
        raise _reject(COUNT_MISMATCH)
    _check_response_names(responses, _calls(previous))


def _check_response_names(responses: list[dict[str, Any]], calls: list[dict[str, Any]]) -> None:
    # A response answers a call of the turn by name; whether `tools` still declares it is moot.
    if sorted(str(r.get("name")) for r in responses) != sorted(str(c.get("name")) for c in calls):
        raise _reject(INVALID_ARGUMENT)  # watt-mind/coach#280


def _check_answered(following: dict[str, Any] | None) -> None:
    # Every call needs its response before the model is asked again (the function-calling docs).
    # No real text is on record for a missing response turn; the count rule's (0 for N) is closest.
    if following is None or not _responses(following):
        raise _reject(COUNT_MISMATCH)


def _check_unique_ids(content: dict[str, Any]) -> None:
    for group in (_calls(content), _responses(content)):
        ids = [item.get("id") for item in group if item.get("id")]
        if len(ids) != len(set(ids)):
            raise _reject(INVALID_ARGUMENT)  # watt-mind/coach#280


def _fingerprint(calls: list[dict[str, Any]]) -> str:
    """What identifies a model turn without ids: its calls' names and arguments, in order."""
    return json.dumps([[call.get("name"), call.get("args") or {}] for call in calls],
                      sort_keys=True, separators=(",", ":"))


def _signed(content: dict[str, Any]) -> bool:
    """Whether the first function call of a model content carries its thoughtSignature."""
    first = next(part for part in _parts(content) if read(part, "functionCall"))
    return bool(read(first, "thoughtSignature"))


def _check_signatures(contents: list[dict[str, Any]], ledger: Ledger) -> None:
    # Real text: lbjlaq/Antigravity-Manager#733, niki914/zafiro#100. Only the current turn
    # (after the last user text turn) is checked, as documented; "position" is our reading:
    # the 1-based index of the model content (the common "position 2" is contents[1]).
    # Two turns may make the same calls, one signed and one not (no thinking that turn): a
    # turn's calls need a signature only while fewer of its look-alikes carry one than we signed.
    start = max((i for i, c in enumerate(contents) if _is_user_turn(c)), default=0)
    turns = [(index, _fingerprint(calls), _signed(contents[index]))
             for index in range(start, len(contents)) if (calls := _calls(contents[index]))]
    for index, fingerprint, signed in turns:
        alike = [has for _, other, has in turns if other == fingerprint]
        owed = min(len(ledger.signed_turns.get(fingerprint, [])), len(alike))
        if not signed and sum(alike) < owed:
            calls = _calls(contents[index])
            raise _reject("Function call is missing a thought_signature in functionCall parts. "
                          "This is required for tools to work correctly, and missing "
                          "thought_signature may lead to degraded model performance. Additional "
                          f"data, function call `default_api:{calls[0].get('name')}` , position "
                          f"{index + 1}. Please refer to "
                          "https://ai.google.dev/gemini-api/docs/thought-signatures for more "
                          "details.")


def parse_request(body: dict[str, Any]) -> tuple[list[Message], list[ToolSpec], ToolChoice]:
    """The neutral view of a (validated) request: messages, tools and tool_choice."""
    messages: list[Message] = []
    system = read(body, "systemInstruction")
    if system:
        messages.append(SystemMessage(content="\n".join(
            part.get("text", "") for part in _parts(system))))
    unanswered: list[ToolCall] = []  # the last model turn's calls, until their responses come
    for index, content in enumerate(_model_turns(_contents(body))):
        if content.get("role") == "model":
            turn = _assistant(index, content)
            messages.append(turn)
            unanswered = list(turn.tool_calls)
        else:
            messages.extend(_user(content, unanswered))
    tools = [ToolSpec(name=d["name"], description=d.get("description") or "",
                      parameters=read(d, "parametersJsonSchema") or read(d, "parameters") or {})
             for d in _declarations(body)]
    mode = read(read(read(body, "toolConfig"), "functionCallingConfig"), "mode", "AUTO")
    choices: dict[str, ToolChoice] = {"ANY": "required", "NONE": "none"}
    return messages, tools, choices.get(str(mode).upper(), "auto")


def _assistant(index: int, content: dict[str, Any]) -> AssistantMessage:
    calls: list[ToolCall] = []
    texts: list[str] = []
    reasoning: list[Reasoning] = []
    for position, part in enumerate(_parts(content)):
        call, signature = read(part, "functionCall"), read(part, "thoughtSignature")
        if call:  # calls carry no id on this API: name them by position
            calls.append(ToolCall(id=call.get("id") or f"gemini_{index}_{position}",
                                  name=call.get("name", ""), arguments=call.get("args") or {},
                                  extra={"thoughtSignature": signature} if signature else {}))
        elif part.get("thought"):
            reasoning.append(Reasoning(provider=PROVIDER, data=part))
        elif "text" in part:
            texts.append(part["text"])
    return AssistantMessage(content="".join(texts) if texts else None, tool_calls=calls,
                            reasoning=reasoning)


def _user(content: dict[str, Any], unused: list[ToolCall]) -> list[Message]:
    # Answered calls leave `unused`: split response contents pair with the calls still open.
    out: list[Message] = []
    for part in _parts(content):
        response = read(part, "functionResponse")
        if response:
            # Pair by id when the client sent one, else by name, in order.
            match = next((c for c in unused if c.id == response.get("id")), None) or next(
                (c for c in unused if c.name == response.get("name")), None)
            if match:
                unused.remove(match)
            result = response.get("response")
            # Gemini has no error flag: by convention a failure is wrapped as {"error": ...}.
            failed = isinstance(result, dict) and list(result) == ["error"]
            out.append(ToolMessage(tool_call_id=match.id if match else response.get("name", ""),
                                   content=_result_text(result), is_error=failed))
        elif "text" in part:
            out.append(UserMessage(content=part["text"]))
    return out


def _result_text(response: Any) -> str:
    # Results are wrapped in a Struct, e.g. {"result": "..."}; unwrap the one-string case.
    if isinstance(response, dict) and len(response) == 1:
        (value,) = response.values()
        if isinstance(value, str):
            return value
    return json.dumps(response, ensure_ascii=False, separators=(",", ":"))


def render(reply: Reply, body: dict[str, Any], *, ids: CallIds, usage: Usage,
           model: str | None = None) -> dict[str, Any]:
    """The `GenerateContentResponse` body (camelCase) for a neutral reply."""
    model = model or "gemini-2.5-flash"
    thinking = "".join(str(r.data.get("thinking", "")) for r in reply.message.reasoning)
    thinking_config = read(read(body, "generationConfig"), "thinkingConfig")
    parts: list[dict[str, Any]] = []
    if thinking and read(thinking_config, "includeThoughts"):
        parts.append({"text": thinking, "thought": True})
    if reply.message.content:
        parts.append({"text": reply.message.content})
    calls = [{"name": call.name,
              "args": {} if call.raw_arguments is not None else dict(call.arguments)}
             for call in reply.message.tool_calls]
    declared = {declaration.get("name") for declaration in _declarations(body)}
    undeclared = next((call["name"] for call in calls if call["name"] not in declared), None)
    if undeclared:  # the real API never hands out such a call (SDK doc of UNEXPECTED_TOOL_CALL)
        calls = []
    parts.extend({"functionCall": call} for call in calls)
    if parts and (thinking or model.startswith("gemini-3")):
        signed = parts[len(parts) - len(calls)] if calls else parts[-1]
        signed["thoughtSignature"] = ids.thought_signature(_fingerprint(calls))
    candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"},
                                 "finishReason": FINISH[reply.stop_reason], "index": 0}
    if undeclared:  # real text: [PAI] test_multimodal_tool_return_matrix (Vertex)
        candidate |= {"finishReason": "UNEXPECTED_TOOL_CALL", "finishMessage": "Unexpected "
                      f"tool call: Model tried to call an undeclared function: {undeclared}"}
    elif calls and model.startswith("gemini-3"):
        candidate["finishMessage"] = "Model generated function call(s)."
    return {"candidates": [candidate], "usageMetadata": _usage(usage), "modelVersion": model,
            "responseId": ids.alnum("response", 22)}


def _usage(usage: Usage) -> dict[str, Any]:
    # Thoughts are counted apart from candidates; cached tokens are part of the prompt.
    prompt, cached, thoughts = (usage.input_tokens, usage.cached_input_tokens,
                                usage.reasoning_tokens)
    metadata: dict[str, Any] = {
        "promptTokenCount": prompt, "candidatesTokenCount": usage.output_tokens - thoughts,
        "totalTokenCount": prompt + usage.output_tokens,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}]}
    if cached:
        metadata |= {"cachedContentTokenCount": cached,
                     "cacheTokensDetails": [{"modality": "TEXT", "tokenCount": cached}]}
    if thoughts:
        metadata["thoughtsTokenCount"] = thoughts
    return metadata
