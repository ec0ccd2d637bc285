"""Anthropic Messages (`POST /v1/messages`) on the server side.

`validate` rejects what the real API rejects (texts from real error bodies; tests/conformance/
holds request shapes the real API accepted or rejected); `parse_request` turns the wire request
into neutral messages; `render` writes a `Message`. Consecutive messages of one role are combined
into a single turn before the turn rules are checked and before the request is read, as the API
reference says of `messages`; the indexes in those rules' error texts count the combined turns (our
reading: no real error for a split turn is on record).

Thinking signatures: the emulator signs its own thinking blocks (a keyed hash of the text, in the
real signature's layout, see `_ids`) and verifies them, so an edited block is rejected as for
real. A signature it did not issue, such as one from a real recording, cannot be verified
offline: it is accepted when it has the real format (base64 protobuf with a 64-byte signature)
and rejected otherwise. So an edited real block is accepted here where the real API rejects it.
A thinking block (with a signature bound to its text) is rendered whenever the script
has thinking, even without `thinking` in the request, so the round trip can be practised; the real
API sends them only with thinking enabled. Tool `input` is an object on this API: a scripted call
whose raw arguments are not a JSON object is rendered with `input: {}`. Prompt caching happens
only at `cache_control` breakpoints (on a tool, a system block or a message block, or the
top-level `cache_control` that marks the last block), as `_cache.PromptCache.at_breakpoints`
describes; `input_tokens` is what was neither read nor written.
"""

from __future__ import annotations

import json
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
from offline.emulator._ids import CallIds, Ledger, thinking_signature_fields
from offline.tokens import compact_json

INDENT = None
"""Anthropic sends compact JSON."""
PROVIDER = "anthropic"
FAMILY = PROVIDERS[PROVIDER].family  # whose models, keys and rate limits apply: "anthropic"

STOP = {StopReason.END_TURN: "end_turn", StopReason.TOOL_USE: "tool_use",
        StopReason.MAX_TOKENS: "max_tokens", StopReason.REFUSAL: "refusal",
        StopReason.OTHER: "pause_turn"}

ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error",
               403: "permission_error", 404: "not_found_error", 413: "request_too_large",
               429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}

THINKING_FIRST = (
    "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
    "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you "
    "include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. "
    "Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking")


def error_body(status: int, error_type: str, message: str, *,
               request_id: str | None = None) -> dict[str, Any]:
    """The Anthropic error envelope; the emulator fills a missing request_id per call."""
    if error_type not in ERROR_TYPES.values():
        error_type = ERROR_TYPES.get(status, "api_error")
    return {"type": "error", "error": {"type": error_type, "message": message},
            "request_id": request_id}


def _reject(message: str, *, status: int = 400) -> WireError:
    return WireError(status, error_body(status, ERROR_TYPES.get(status, "api_error"), message))


def invalid_json_error(error: ValueError) -> WireError:
    # Real shape: anthropics/claude-code#8272 ("The request body is not valid JSON: <why>:
    # line L column C (char P)"); the reason comes from Python's parser, so it reads differently.
    if isinstance(error, json.JSONDecodeError):  # Python's parser says where it stopped
        reason = error.msg
        where = f": line {error.lineno} column {error.colno} (char {error.pos})"
    else:  # not UTF-8, or not an object
        reason, where = str(error), ""
    return _reject(f"The request body is not valid JSON: {reason[:1].lower()}{reason[1:]}{where}")


def not_found_error(method: str, path: str) -> WireError:
    # Real body for an unknown path: ppipada/flexigpt-vscode-extension#8.
    return _reject("Not Found", status=404)


def _cache_parts(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every block of the prompt in cache order: tools, system blocks, message blocks."""
    system = body.get("system")
    system_blocks = ([{"type": "text", "text": system}] if isinstance(system, str)
                     else list(system or []))
    return [*(body.get("tools") or []), *system_blocks,
            *({"role": message.get("role"), **block} for message in body.get("messages") or []
              for block in _blocks(message))]


def cache_blocks(body: dict[str, Any]) -> list[str]:
    """The blocks as cached text; a `cache_control` marker is not part of the cached text."""
    return [compact_json({k: v for k, v in part.items() if k != "cache_control"})
            for part in _cache_parts(body)]


def breakpoints(body: dict[str, Any]) -> tuple[list[int], str]:
    """The indices of the blocks that end with a breakpoint, and the TTL of the last one."""
    parts = _cache_parts(body)
    marks = [(index, part["cache_control"]) for index, part in enumerate(parts)
             if isinstance(part.get("cache_control"), dict)]
    if isinstance(body.get("cache_control"), dict) and parts:  # automatic: the last block
        marks.append((len(parts) - 1, body["cache_control"]))
    ttl = marks[-1][1].get("ttl", "5m") if marks else "5m"
    return [index for index, _ in marks], ttl


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content or [] if isinstance(block, dict)]


def merged_turns(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages with each run of one role combined into a single turn (blocks in order)."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        if turns and turns[-1].get("role") == message.get("role"):
            turns[-1] = {**turns[-1], "content": _blocks(turns[-1]) + _blocks(message)}
        else:
            turns.append(message)
    return turns


def validate(body: dict[str, Any], *, ledger: Ledger, **_: Any) -> None:
    """Raise `WireError` for the first rule the request breaks, in the real API's wording."""
    for field in ("model", "max_tokens", "messages"):
        if field not in body:
            raise _reject(f"{field}: Field required")  # the API's pydantic-style wording
    _check_inputs(body["messages"])
    messages = merged_turns(body["messages"])
    _check_tools_defined(body, messages)
    for index, message in enumerate(messages):
        if message.get("role") == "assistant":
            _check_answered(index, message, messages)
        elif message.get("role") == "user":
            _check_results(index, message, messages)
    if (body.get("thinking") or {}).get("type") in ("enabled", "adaptive"):
        _check_thinking_first(messages)
    _check_signatures(messages, ledger)


def _check_inputs(messages: list[dict[str, Any]]) -> None:
    # Real text: andreasjansson/greger.el#60.
    for index, message in enumerate(messages):
        for position, block in enumerate(_blocks(message)):
            if block.get("type") == "tool_use" and not isinstance(block.get("input"), dict):
                raise _reject(f"messages.{index}.content.{position}.tool_use.input: Input should "
                              "be a valid dictionary")


def _check_tools_defined(body: dict[str, Any], messages: list[dict[str, Any]]) -> None:
    # The documented text, also seen in real error bodies (vercel/ai#12378).
    uses_tools = any(block.get("type") in ("tool_use", "tool_result")
                     for message in messages for block in _blocks(message))
    if uses_tools and not body.get("tools"):
        raise _reject("Requests which include `tool_use` or `tool_result` blocks must define "
                      "tools.")


def _tool_use_ids(message: dict[str, Any] | None) -> list[Any]:  # ids as sent, None if missing
    if not message or message.get("role") != "assistant":
        return []
    return [block.get("id") for block in _blocks(message) if block.get("type") == "tool_use"]


def _results(message: dict[str, Any] | None) -> list[tuple[int, dict[str, Any]]]:
    if not message or message.get("role") != "user":
        return []
    return [(position, block) for position, block in enumerate(_blocks(message))
            if block.get("type") == "tool_result"]


def _check_answered(index: int, message: dict[str, Any], messages: list[dict[str, Any]]) -> None:
    following = messages[index + 1] if index + 1 < len(messages) else None
    answered = {block.get("tool_use_id") for _, block in _results(following)}
    missing = [call_id for call_id in _tool_use_ids(message) if call_id not in answered]
    if missing:
        # Real text: anthropics/claude-code#3512 (and ~20 more); ids joined by ", ".
        raise _reject(f"messages.{index}: `tool_use` ids were found without `tool_result` blocks "
                      f"immediately after: {', '.join(missing)}. Each `tool_use` block must have "
                      "a corresponding `tool_result` block in the next message.")


def _check_results(index: int, message: dict[str, Any], messages: list[dict[str, Any]]) -> None:
    asked = _tool_use_ids(messages[index - 1] if index > 0 else None)
    results = _results(message)
    for position, block in results:
        if block.get("tool_use_id") not in asked:
            # Real text: anthropics/claude-code#13460, tghamm/Anthropic.SDK#184.
            raise _reject(f"messages.{index}.content.{position}: unexpected `tool_use_id` found "
                          f"in `tool_result` blocks: {block.get('tool_use_id')}. Each "
                          "`tool_result` block must have a corresponding `tool_use` block in the "
                          "previous message.")
    if asked and [position for position, _ in results] != list(range(len(results))):
        # Real text (the older wording, Feb 2025): anthropics/claude-code#37.
        raise _reject(f"messages.{index}: Did not find {len(asked)} `tool_result` block(s) at "
                      "the beginning of this message. Messages following `tool_use` blocks must "
                      "begin with a matching number of `tool_result` blocks.")


def _check_thinking_first(messages: list[dict[str, Any]]) -> None:
    # Real text: deepset-ai/haystack-core-integrations#2146, Kilo-Org/kilocode#5219.
    if len(messages) < 2 or not _results(messages[-1]):
        return
    index = len(messages) - 2
    blocks = _blocks(messages[index])
    if _tool_use_ids(messages[index]) and blocks[0].get("type") not in (
            "thinking", "redacted_thinking"):
        raise _reject(f"messages.{index}.content.0.type: Expected `thinking` or "
                      f"`redacted_thinking`, but found `{blocks[0].get('type')}`. "
                      + THINKING_FIRST)


def _check_signatures(messages: list[dict[str, Any]], ledger: Ledger) -> None:
    # Real text: anthropics/claude-code#10627 (the block was edited or the signature invented).
    for index, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        for position, block in enumerate(_blocks(message)):
            if block.get("type") == "thinking" and not _signature_holds(block, ledger):
                raise _reject(f"messages.{index}.content.{position}: Invalid `signature` in "
                              "`thinking` block")


def _signature_holds(block: dict[str, Any], ledger: Ledger) -> bool:
    """The emulator's own signatures must match the text; others need only the real format."""
    signature = block.get("signature")
    if ledger.issued_thinking_signature(signature):
        return signature == ledger.thinking_signature(str(block.get("thinking", "")))
    return thinking_signature_fields(signature) is not None


def parse_request(body: dict[str, Any]) -> tuple[list[Message], list[ToolSpec], ToolChoice]:
    """The neutral view of a (validated) request: messages, tools and tool_choice."""
    messages: list[Message] = []
    system = body.get("system")
    if system:
        text = system if isinstance(system, str) else "\n".join(
            block.get("text", "") for block in system)
        messages.append(SystemMessage(content=text))
    for message in merged_turns(body["messages"]):
        if message.get("role") == "assistant":
            messages.append(_assistant(_blocks(message)))
        else:
            messages.extend(_user(_blocks(message)))
    tools = [ToolSpec(name=tool["name"], description=tool.get("description") or "",
                      parameters=tool.get("input_schema") or {})
             for tool in body.get("tools") or [] if "input_schema" in tool]
    return messages, tools, _tool_choice(body.get("tool_choice"))


def _assistant(blocks: list[dict[str, Any]]) -> AssistantMessage:
    texts = [block.get("text", "") for block in blocks if block.get("type") == "text"]
    calls = [ToolCall(id=block["id"], name=block["name"], arguments=block.get("input") or {})
             for block in blocks if block.get("type") == "tool_use"]
    reasoning = [Reasoning(provider=PROVIDER, data=block) for block in blocks
                 if block.get("type") in ("thinking", "redacted_thinking")]
    return AssistantMessage(content="".join(texts) if texts else None, tool_calls=calls,
                            reasoning=reasoning)


def _user(blocks: list[dict[str, Any]]) -> list[Message]:
    out: list[Message] = []
    for block in blocks:
        if block.get("type") == "tool_result":
            content = block.get("content")
            text = content if isinstance(content, str) else "\n".join(
                part.get("text", "") for part in content or [] if isinstance(part, dict))
            out.append(ToolMessage(tool_call_id=block["tool_use_id"], content=text,
                                   is_error=bool(block.get("is_error"))))
    texts = [block.get("text", "") for block in blocks if block.get("type") == "text"]
    if texts:
        out.append(UserMessage(content="\n".join(texts)))
    return out


def _tool_choice(choice: Any) -> ToolChoice:
    kind = (choice or {}).get("type", "auto")
    choices: dict[str, ToolChoice] = {"any": "required", "tool": "required", "none": "none"}
    return choices.get(kind, "auto")


def render(reply: Reply, body: dict[str, Any], *, ids: CallIds, usage: Usage,
           model: str | None = None) -> dict[str, Any]:
    """The `Message` body for a neutral reply: thinking, then text, then tool_use blocks."""
    content: list[dict[str, Any]] = []
    thinking = "".join(str(r.data.get("thinking", "")) for r in reply.message.reasoning)
    if thinking:
        content.append({"type": "thinking", "thinking": thinking,
                        "signature": ids.ledger.thinking_signature(thinking)})
    if reply.message.content:
        content.append({"type": "text", "text": reply.message.content})
    for position, call in enumerate(reply.message.tool_calls):
        content.append({"type": "tool_use", "id": "toolu_01" + ids.alnum("toolu", 22, position),
                        "name": call.name,
                        "input": {} if call.raw_arguments is not None else dict(call.arguments)})
    written, one_hour = usage.cache_write_tokens, breakpoints(body)[1] == "1h"
    return {
        "id": "msg_01" + ids.alnum("message", 22), "type": "message", "role": "assistant",
        "model": model or body.get("model") or "claude-sonnet-4-6", "content": content,
        "stop_reason": STOP[reply.stop_reason], "stop_sequence": None,
        "usage": {
            "input_tokens": (usage.input_tokens - usage.cached_input_tokens
                             - usage.cache_write_tokens),
            "cache_creation_input_tokens": usage.cache_write_tokens,
            "cache_read_input_tokens": usage.cached_input_tokens,
            "cache_creation": {"ephemeral_5m_input_tokens": 0 if one_hour else written,
                               "ephemeral_1h_input_tokens": written if one_hour else 0},
            "output_tokens": usage.output_tokens, "service_tier": "standard"},
    }
