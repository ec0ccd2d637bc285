"""OpenAI Chat Completions (`POST /v1/chat/completions`) on the server side.

`validate` rejects what the real API rejects, with its status, envelope and exact text (quoted from
real error bodies; tests/emulator/test_openai_chat.py checks each); `parse_request` turns the wire
request into neutral messages; `render` writes a neutral reply as a `ChatCompletion` (streamed as
chunks by `_streams`). Audio, logprobs and n > 1 are not emulated. Stop reasons: end_turn -> stop,
tool_use -> tool_calls, max_tokens -> length, refusal -> content_filter, other -> stop (Chat has
no "other"). """

from __future__ import annotations

from typing import Any

from harness.messages import (
    AssistantMessage,
    Message,
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
from offline.emulator._errors import WireError
from offline.emulator._ids import CallIds
from offline.tokens import compact_json

INDENT = 2
"""OpenAI pretty-prints its JSON bodies."""
PROVIDER = "openai_chat"
FAMILY = PROVIDERS[PROVIDER].family  # whose models, keys and rate limits apply: "openai"

FINISH = {StopReason.END_TURN: "stop", StopReason.TOOL_USE: "tool_calls",
          StopReason.MAX_TOKENS: "length", StopReason.REFUSAL: "content_filter",
          StopReason.OTHER: "stop"}


def error_body(status: int, error_type: str, message: str, *, param: str | None = None,
               code: str | None = None) -> dict[str, Any]:
    """The OpenAI error envelope; `status` is the HTTP status and is not part of the body."""
    return {"error": {"message": message, "type": error_type, "param": param, "code": code}}


def _reject(message: str, *, param: str | None = None, code: str | None = None,
            status: int = 400) -> WireError:
    return WireError(status, error_body(status, "invalid_request_error", message, param=param,
                                        code=code))


def invalid_json_error(error: ValueError | None = None) -> WireError:
    # Real text: ChatGPTNextWeb/NextChat#4064 and many others; it never says where it failed.
    return _reject("We could not parse the JSON body of your request. (HINT: This likely means "
                   "you aren't using your HTTP library correctly. The OpenAI API expects a JSON "
                   "payload, but what was sent was not valid JSON. If you have trouble figuring "
                   "out how to fix this, please contact us through our help center at "
                   "help.openai.com.)")


def not_found_error(method: str, path: str) -> WireError:
    # Real text: harry0703/MoneyPrinterTurbo#57 ("Invalid URL (POST /v1/chat/completions/...)").
    return _reject(f"Invalid URL ({method} {path})", status=404)


def cache_blocks(body: dict[str, Any]) -> list[str]:
    """The prompt in cache order: tools, then the messages (the system prompt is one of them)."""
    return [compact_json(part) for part in [*(body.get("tools") or []),
                                            *(body.get("messages") or [])]]


def validate(body: dict[str, Any], **_: Any) -> None:
    """Raise `WireError` for the first rule the request breaks, in the real API's wording."""
    _check_required(body)
    _check_tools_array(body)
    _check_needs_tools(body, "tool_choice")
    _check_needs_tools(body, "parallel_tool_calls")
    _check_stream_options(body)
    _check_empty_tool_calls(body["messages"])
    _check_tool_sequence(body["messages"])


def _check_required(body: dict[str, Any]) -> None:
    # OpenAI's wording for a missing required field, code missing_required_parameter.
    if not isinstance(body.get("messages"), list):
        raise _reject("Missing required parameter: 'messages'.", param="messages",
                      code="missing_required_parameter")


def _check_tools_array(body: dict[str, Any]) -> None:
    # Real text: continuedev/continue#3370, dnakov/anon-kode#20.
    if body.get("tools") == []:
        raise _reject("Invalid 'tools': empty array. Expected an array with minimum length 1, "
                      "but got an empty array instead.", param="tools", code="empty_array")


def _check_needs_tools(body: dict[str, Any], field: str) -> None:
    # Real text: dapr/dapr-agents#248 (tool_choice); parallel_tool_calls fails the same way.
    if body.get(field) is not None and not body.get("tools"):
        raise _reject(f"Invalid value for '{field}': '{field}' is only allowed when 'tools' "
                      "are specified.", param=field)


def _check_stream_options(body: dict[str, Any]) -> None:
    # Real text: BerriAI/litellm#5803 (stream_options sent on a request that does not stream).
    if body.get("stream_options") is not None and body.get("stream") is not True:
        raise _reject("The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                      param="stream_options")


def _check_empty_tool_calls(messages: list[dict[str, Any]]) -> None:
    # Real text: openai/openai-node#1341 (an assistant message sent back with tool_calls: []).
    for index, message in enumerate(messages):
        if message.get("role") == "assistant" and message.get("tool_calls") == []:
            raise _reject(f"Invalid 'messages[{index}].tool_calls': empty array. Expected an "
                          "array with minimum length 1, but got an empty array instead.",
                          param=f"messages[{index}].tool_calls", code="empty_array")


def _check_tool_sequence(messages: list[dict[str, Any]]) -> None:
    """Each assistant message with tool_calls is followed by one tool message per call id.

    The param of the "did not have response messages" error names the message where a tool
    message was expected (the one after the run of tool messages); when the transcript ends
    there, it names the assistant message. Real bodies show the text, not which index is meant.
    """
    # The ids as the request has them: any JSON value, or missing (None) in a malformed one.
    asked: list[Any] = []
    answered: set[Any] = set()
    opened_at = 0
    for index, message in enumerate(messages):
        if message.get("role") == "tool":
            _check_tool_message(index, message, asked)
            answered.add(message.get("tool_call_id"))
            continue
        _check_answered(asked, answered, index)
        asked, answered, opened_at = [], set(), index
        if message.get("role") == "assistant" and message.get("tool_calls"):
            asked = [call.get("id") for call in message["tool_calls"]]
    _check_answered(asked, answered, opened_at)


def _check_tool_message(index: int, message: dict[str, Any], asked: list[Any]) -> None:
    if not asked:
        # Real text, misspelling included: smarter-sh/smarter#264, miurla/morphic#136.
        raise _reject("Invalid parameter: messages with role 'tool' must be a response to a "
                      "preceeding message with 'tool_calls'.", param=f"messages.[{index}].role")
    call_id = message.get("tool_call_id")
    if call_id not in asked:
        # Real text: dapr/dapr-agents#145; the param is our reading of where it points.
        raise _reject(f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in "
                      "'tool_calls' of previous message.",
                      param=f"messages.[{index}].tool_call_id")


def _check_answered(asked: list[Any], answered: set[Any], index: int) -> None:
    missing = [call_id for call_id in asked if call_id not in answered]
    if missing:
        # Real text: router-for-me/CLIProxyAPI#2798; several ids joined by ", ".
        raise _reject("An assistant message with 'tool_calls' must be followed by tool "
                      "messages responding to each 'tool_call_id'. The following tool_call_ids "
                      f"did not have response messages: {', '.join(missing)}",
                      param=f"messages.[{index}].role")


def parse_request(body: dict[str, Any]) -> tuple[list[Message], list[ToolSpec], ToolChoice]:
    """The neutral view of a (validated) request: messages, tools and tool_choice."""
    messages = [_message(item) for item in body["messages"]]
    tools = [ToolSpec(name=spec["name"], description=spec.get("description") or "",
                      parameters=spec.get("parameters") or {"type": "object", "properties": {}})
             for tool in body.get("tools") or [] if tool.get("type") == "function"
             for spec in [tool["function"]]]
    return messages, tools, _tool_choice(body.get("tool_choice"))


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def _message(item: dict[str, Any]) -> Message:
    role = item.get("role")
    if role in ("system", "developer"):
        return SystemMessage(content=_text(item.get("content")))
    if role == "tool":
        return ToolMessage(tool_call_id=item["tool_call_id"], content=_text(item.get("content")))
    if role == "assistant":
        calls = []
        for call in item.get("tool_calls") or []:
            arguments, raw = parse_arguments(call["function"].get("arguments") or "")
            calls.append(ToolCall(id=call["id"], name=call["function"]["name"],
                                  arguments=arguments, raw_arguments=raw))
        content = item.get("content")
        return AssistantMessage(content=_text(content) if content is not None else None,
                                tool_calls=calls)
    return UserMessage(content=_text(item.get("content")))


def _tool_choice(choice: Any) -> ToolChoice:
    if isinstance(choice, dict):  # a named function, or allowed_tools with its own mode
        return "auto" if choice.get("allowed_tools", {}).get("mode") == "auto" else "required"
    return choice if choice in ("none", "required") else "auto"


def render(reply: Reply, body: dict[str, Any], *, ids: CallIds, usage: Usage,
           model: str | None = None) -> dict[str, Any]:
    """The `ChatCompletion` body for a neutral reply. Example: see tests/emulator."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.message.content,
                               "refusal": None, "annotations": []}
    if reply.message.tool_calls:
        message["tool_calls"] = [
            {"id": "call_" + ids.alnum("call", 24, position), "type": "function",
             "function": {"name": call.name, "arguments": argument_text(call)}}
            for position, call in enumerate(reply.message.tool_calls)]
    return {
        "id": "chatcmpl-" + ids.alnum("completion", 29),
        "object": "chat.completion",
        "created": ids.created,
        "model": model or body.get("model") or "gpt-5-mini",
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": FINISH[reply.stop_reason]}],
        "usage": {
            "prompt_tokens": usage.input_tokens,
            "completion_tokens": usage.output_tokens,
            "total_tokens": usage.input_tokens + usage.output_tokens,
            "prompt_tokens_details": {"cached_tokens": usage.cached_input_tokens,
                                      "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": usage.reasoning_tokens,
                                          "audio_tokens": 0, "accepted_prediction_tokens": 0,
                                          "rejected_prediction_tokens": 0}},
        "service_tier": "default",
        "system_fingerprint": None,
    }
