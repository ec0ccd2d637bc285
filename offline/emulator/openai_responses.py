"""OpenAI Responses (`POST /v1/responses`) on the server side, stateless like `store: false`.

`validate` rejects what the real API rejects (texts from real error bodies; tests/conformance/
holds request shapes the real API accepted or rejected), one rule per function; `parse_request`
turns input items into neutral messages; `render` writes a `Response`. Nothing is stored: under
`store: true` an id-only reasoning item is accepted as if it had been, and with server-side state
(`previous_response_id` or `conversation`) the pairing of outputs with calls is not checked, since
the calls may live on the server. A reasoning item must be followed by the output item that came
after it: a function call, a built-in tool item (web search, MCP, code interpreter...) or the
assistant message item with its `msg_` id; a bare `{"role": "assistant", "content": ...}` is a new
message, not that item. Tools may also arrive in an `additional_tools` input item. A reasoning item
appears when the script has thinking; its encrypted_content only when `include` asks for
"reasoning.encrypted_content", and its summary only when `reasoning.summary` is set, as for real.
"""

from __future__ import annotations

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
    argument_text,
    parse_arguments,
)
from harness.providers.catalog import PROVIDERS
from offline.emulator import openai_chat
from offline.emulator._errors import WireError
from offline.emulator._ids import CallIds
from offline.tokens import compact_json

INDENT = 2
PROVIDER = "openai_responses"
FAMILY = PROVIDERS[PROVIDER].family  # whose models, keys and rate limits apply: "openai"

# The fields the API accepts on each input item type. Reasoning items leave out `status`: the
# API answered "Unknown parameter: 'input[1].status'." for one (BerriAI/litellm#13420).
FIELDS = {
    "message": {"type", "role", "content", "id", "status", "phase"},
    "reasoning": {"type", "id", "summary", "encrypted_content", "content"},
    "function_call": {"type", "id", "call_id", "name", "arguments", "status", "namespace",
                      "caller"},
    "function_call_output": {"type", "id", "call_id", "output", "status", "name", "namespace",
                             "caller"},
}

# The output item types (other than reasoning) that the API produces after a reasoning item
# (the Response object's `output` union): any of them is a valid following item when sent back.
TOOL_ITEMS = {"function_call", "custom_tool_call", "web_search_call", "file_search_call",
              "computer_call", "code_interpreter_call", "image_generation_call",
              "local_shell_call", "shell_call", "apply_patch_call", "mcp_call", "mcp_list_tools",
              "mcp_approval_request", "tool_search_call"}

error_body = openai_chat.error_body
invalid_json_error = openai_chat.invalid_json_error
not_found_error = openai_chat.not_found_error


def cache_blocks(body: dict[str, Any]) -> list[str]:
    """The prompt in cache order: tools, instructions, then the input items."""
    items = body.get("input")
    items = items if isinstance(items, list) else [items]
    return [compact_json(part) for part in [*(body.get("tools") or []),
                                            body.get("instructions"), *items]]


def _reject(message: str, *, param: str | None = "input", code: str | None = None,
            status: int = 400) -> WireError:
    return WireError(status, error_body(status, "invalid_request_error", message, param=param,
                                        code=code))


def validate(body: dict[str, Any], **_: Any) -> None:
    """Raise `WireError` for the first rule the request breaks, in the real API's wording."""
    _check_tool_choice(body)
    items = body.get("input")
    if not isinstance(items, list):
        return
    for index, item in enumerate(items):
        _check_fields(index, item)
        if _kind(item) == "reasoning":
            _check_stored(item, store=body.get("store", True))
            _check_following(item, items[index + 1] if index + 1 < len(items) else None)
    if not _has_server_state(body):
        _check_pairs(items)


def _has_server_state(body: dict[str, Any]) -> bool:
    """Earlier turns live on the server: a stored response or a conversation (one or the other,
    never both), so calls answered here may have been made there."""
    return body.get("previous_response_id") is not None or body.get("conversation") is not None


def _check_tool_choice(body: dict[str, Any]) -> None:
    # Tools count wherever they are declared: in `tools` or in an `additional_tools` input item.
    if body.get("tool_choice") is not None and not _tool_definitions(body):
        raise _reject("Invalid value for 'tool_choice': 'tool_choice' is only allowed when "
                      "'tools' are specified.", param="tool_choice")


def _kind(item: dict[str, Any]) -> str | None:
    return item.get("type") or ("message" if "role" in item else None)


def _check_fields(index: int, item: dict[str, Any]) -> None:
    # Real text: BerriAI/litellm#13420 ("Unknown parameter: 'input[1].status'.").
    allowed = FIELDS.get(_kind(item) or "")
    for key in item:
        if allowed is not None and key not in allowed:
            raise _reject(f"Unknown parameter: 'input[{index}].{key}'.",
                          param=f"input[{index}].{key}", code="unknown_parameter")


def _check_stored(item: dict[str, Any], *, store: bool) -> None:
    if store is False and not item.get("encrypted_content"):
        # Real text, status 404: anomalyco/opencode#7724 and #8987.
        raise _reject(f"Item with id '{item.get('id')}' not found. Items are not persisted "
                      "when `store` is set to false. Try again with `store` set to true, or "
                      "remove this item from your input.", status=404)


def _check_following(item: dict[str, Any], following: dict[str, Any] | None) -> None:
    if not _follows_reasoning(following or {}):
        # Real text: openai-agents-python docs (reasoning_item_id_policy="omit"); param "input"
        # and code null as recorded for an assistant message sent back without its msg_ id
        # (pydantic-ai, test_openai_responses_thinking_with_modified_history).
        raise _reject(f"Item '{item.get('id')}' of type 'reasoning' was provided without its "
                      "required following item.")


def _follows_reasoning(item: dict[str, Any]) -> bool:
    """An output item of the same response: a tool item, or the assistant message item sent back
    with its id (without one it is a new message the model never wrote)."""
    if _kind(item) in TOOL_ITEMS:
        return True
    return (_kind(item) == "message" and item.get("role") == "assistant"
            and bool(item.get("id")))


def _check_pairs(items: list[dict[str, Any]]) -> None:
    calls: list[Any] = []  # call ids as sent: any JSON value, or None in a malformed request
    answerable: list[Any] = []  # any tool item's call id: a client-run tool_search_call's too
    outputs: set[Any] = set()
    for item in items:
        if _kind(item) in TOOL_ITEMS and "call_id" in item:
            answerable.append(item["call_id"])
        if _kind(item) == "function_call":
            calls.append(item.get("call_id"))
        elif _kind(item) == "function_call_output":
            if item.get("call_id") not in [*calls, *answerable]:
                # Real text: continuedev/continue#10092, microsoft/vscode#320060.
                raise _reject("No tool call found for function call output with call_id "
                              f"{item.get('call_id')}.")
            outputs.add(item.get("call_id"))
    for call_id in calls:
        if call_id not in outputs:
            # Real text: router-for-me/CLIProxyAPI#2368.
            raise _reject(f"No tool output found for function call {call_id}.")


def parse_request(body: dict[str, Any]) -> tuple[list[Message], list[ToolSpec], ToolChoice]:
    """The neutral view of a (validated) request: messages, tools and tool_choice."""
    messages: list[Message] = []
    if body.get("instructions"):
        messages.append(SystemMessage(content=body["instructions"]))
    items = body.get("input") or []
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    turn: dict[str, Any] | None = None  # the assistant turn being assembled from its items
    for item in items:
        kind, role = _kind(item), item.get("role")
        if kind == "reasoning" or kind in TOOL_ITEMS or (kind == "message" and role == "assistant"):
            turn = turn or {"content": None, "tool_calls": [], "reasoning": [], "extra": {}}
            _add_to_turn(turn, kind, item)
            continue
        if turn is not None:
            messages.append(AssistantMessage(**turn))
            turn = None
        if kind == "function_call_output":
            messages.append(ToolMessage(tool_call_id=item["call_id"],
                                        content=_text(item.get("output"))))
        elif kind == "message" and role in ("system", "developer"):
            messages.append(SystemMessage(content=_text(item.get("content"))))
        elif kind == "message":
            messages.append(UserMessage(content=_text(item.get("content"))))
    if turn is not None:
        messages.append(AssistantMessage(**turn))
    return messages, _tools(body), _tool_choice(body.get("tool_choice"))


def _add_to_turn(turn: dict[str, Any], kind: str | None, item: dict[str, Any]) -> None:
    if kind == "reasoning":
        turn["reasoning"].append(Reasoning(provider=PROVIDER, data=item))
    elif kind == "function_call":
        arguments, raw = parse_arguments(item.get("arguments") or "")
        extra = {"item_id": item["id"]} if item.get("id") else {}
        turn["tool_calls"].append(ToolCall(id=item["call_id"], name=item["name"],
                                           arguments=arguments, raw_arguments=raw, extra=extra))
    elif kind == "message":
        turn["content"] = (turn["content"] or "") + _text(item.get("content"))
        if item.get("id") and "item_id" not in turn["extra"]:
            turn["extra"]["item_id"] = item["id"]


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(str(part.get("text", part.get("refusal", ""))) for part in content
                         if isinstance(part, dict))
    return content or ""


def _tool_definitions(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool the request declares: `tools`, then those of `additional_tools` input items."""
    items = body.get("input")
    items = items if isinstance(items, list) else []
    return [*(body.get("tools") or []),
            *(tool for item in items if _kind(item) == "additional_tools"
              for tool in item.get("tools") or [])]


def _tools(body: dict[str, Any]) -> list[ToolSpec]:
    return [ToolSpec(name=tool["name"], description=tool.get("description") or "",
                     parameters=tool.get("parameters") or {"type": "object", "properties": {}})
            for tool in _tool_definitions(body) if tool.get("type") == "function"]


def _tool_choice(choice: Any) -> ToolChoice:
    if isinstance(choice, dict):
        return "auto" if choice.get("mode") == "auto" else "required"
    return choice if choice in ("none", "required") else "auto"


def render(reply: Reply, body: dict[str, Any], *, ids: CallIds, usage: Usage,
           model: str | None = None) -> dict[str, Any]:
    """The `Response` body for a neutral reply, echoing the request's settings as the API does."""
    incomplete = {StopReason.MAX_TOKENS: "max_output_tokens",
                  StopReason.OTHER: "content_filter"}.get(reply.stop_reason)
    reasoning = body.get("reasoning") or {}
    return {
        "id": ids.openai_item("resp"), "object": "response", "created_at": ids.created,
        "status": "incomplete" if incomplete else "completed", "background": False,
        "completed_at": None if incomplete else ids.created, "error": None,
        "incomplete_details": {"reason": incomplete} if incomplete else None,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"), "max_tool_calls": None,
        "model": model or body.get("model") or "gpt-5-mini",
        "output": _output(reply, body, ids, incomplete=bool(incomplete)),
        "parallel_tool_calls": body.get("parallel_tool_calls", True),
        "previous_response_id": body.get("previous_response_id"), "prompt_cache_key": None,
        "reasoning": {"effort": reasoning.get("effort", "medium"),
                      "summary": reasoning.get("summary")},
        "safety_identifier": None, "service_tier": "default", "store": body.get("store", True),
        "temperature": 1.0, "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": body.get("tool_choice", "auto"), "tools": _echo_tools(body),
        "top_logprobs": 0, "top_p": 1.0, "truncation": "disabled",
        "usage": {
            "input_tokens": usage.input_tokens,
            "input_tokens_details": {"cached_tokens": usage.cached_input_tokens,
                                     "cache_write_tokens": 0},
            "output_tokens": usage.output_tokens,
            "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
            "total_tokens": usage.input_tokens + usage.output_tokens},
        "user": None, "metadata": {},
    }


def _echo_tools(body: dict[str, Any]) -> list[dict[str, Any]]:
    # The API echoes function tools with every field present, defaults filled in.
    return [{"type": "function", "name": tool["name"], "description": tool.get("description"),
             "parameters": tool.get("parameters"), "strict": tool.get("strict")}
            if tool.get("type") == "function" else tool for tool in body.get("tools") or []]


def _output(reply: Reply, body: dict[str, Any], ids: CallIds, *,
            incomplete: bool) -> list[dict[str, Any]]:
    output: list[dict[str, Any]] = []
    thinking = "".join(str(r.data.get("thinking", "")) for r in reply.message.reasoning)
    if thinking:
        item: dict[str, Any] = {"id": ids.openai_item("rs"), "type": "reasoning", "summary": []}
        if (body.get("reasoning") or {}).get("summary"):
            item["summary"] = [{"type": "summary_text", "text": thinking}]
        if "reasoning.encrypted_content" in (body.get("include") or []):
            item["encrypted_content"] = ids.encrypted_reasoning(thinking)
        output.append(item)
    if reply.message.content:
        part = ({"type": "refusal", "refusal": reply.message.content}
                if reply.stop_reason == StopReason.REFUSAL else
                {"type": "output_text", "text": reply.message.content, "annotations": [],
                 "logprobs": []})
        output.append({"id": ids.openai_item("msg"), "type": "message",
                       "status": "incomplete" if incomplete else "completed",
                       "content": [part], "role": "assistant"})
    for position, call in enumerate(reply.message.tool_calls):
        output.append({"id": ids.openai_item("fc", position), "type": "function_call",
                       "status": "completed", "arguments": argument_text(call),
                       "call_id": "call_" + ids.alnum("call", 24, position), "name": call.name})
    return output
