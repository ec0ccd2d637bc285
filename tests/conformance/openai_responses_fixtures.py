"""Responses API (`POST /v1/responses`): request shapes the real API accepted or rejected."""

from __future__ import annotations

from typing import Any

from tests.conformance._fixture import Fixture

TOOLS = [{"type": "function", "name": "find_train", "description": "Find the next train.",
          "parameters": {"type": "object", "properties": {"to": {"type": "string"}},
                         "required": ["to"]}, "strict": False}]
ASK = {"role": "user", "content": "Next train to Porto?"}
THANKS = {"role": "user", "content": "Thanks. And to Faro?"}
# Our own ids in the real shapes: prefix, 16 hex shared by one response, "01", then more hex.
REASONING = {"type": "reasoning", "id": "rs_5a1e0c4d9b7f2e3801692f0a11aa22bb33cc44dd55ee66ff",
             "summary": [], "encrypted_content": "gAAAAABpAAAAAOurOwnCipherTextForTests=="}
MESSAGE = {"type": "message", "id": "msg_5a1e0c4d9b7f2e3801692f0a1122334455667788aabbccdd",
           "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": "The next train leaves at 10:05.",
                        "annotations": []}]}


def body(items: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-5-mini", "input": items, "tools": TOOLS, "store": False,
            "include": ["reasoning.encrypted_content"], **extra}


def error(message: str, *, param: str | None = "input") -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "param": param,
                      "code": None}}


def built_in(kind: str, suffix: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": f"{suffix}_5a1e0c4d9b7f2e3801692f0a1900aa00bb00cc00dd00ee00",
            "status": "completed", **fields}


# The built-in tool items a reasoning item can be followed by, in the shapes they come back in.
BUILT_IN = {
    "web_search_call": built_in("web_search_call", "ws", action={
        "type": "search", "query": "Lisbon Porto train times"}),
    "code_interpreter_call": built_in("code_interpreter_call", "ci", code="print(6 * 7)",
                                      container_id="cntr_tests", outputs=[]),
    "image_generation_call": built_in("image_generation_call", "ig", result=None),
    "file_search_call": built_in("file_search_call", "fs", queries=["timetable"], results=None),
    "mcp_call": built_in("mcp_call", "mcp", server_label="timetables", name="next_train",
                         arguments='{"to":"Porto"}', output="10:05", error=None),
}
MCP_LIST = {"type": "mcp_list_tools", "id": "mcpl_5a1e0c4d9b7f2e3801692f0a1800aa00bb00cc00dd",
            "server_label": "timetables", "tools": [
                {"name": "next_train", "input_schema": {"type": "object"}, "annotations": None,
                 "description": "The next train to a station."}]}
MCP_TOOLS = {"type": "mcp", "server_label": "timetables",
             "server_url": "https://mcp.example.org/mcp", "require_approval": "never"}

FIXTURES = [
    Fixture(
        fact="A reasoning item followed by the assistant message item it came with (its msg_ id "
             "kept) is valid: that message is the reasoning's required following item.",
        body=body([ASK, REASONING, MESSAGE, THANKS])),
    Fixture(
        fact="The same text sent as a bare {role, content} message is a new message, so the "
             "reasoning item before it lacks its following item: 400, param input, code null.",
        status=400,
        error=error(f"Item '{REASONING['id']}' of type 'reasoning' was provided without its "
                    "required following item."),
        body=body([ASK, REASONING, {"role": "assistant",
                                    "content": "The next train leaves at 10:05."}, THANKS])),
    Fixture(
        fact="A reasoning item followed by a user message has no following item either.",
        status=400,
        error=error(f"Item '{REASONING['id']}' of type 'reasoning' was provided without its "
                    "required following item."),
        body=body([ASK, REASONING, THANKS])),
    *(Fixture(
        fact=f"A built-in tool item ({kind}) is a valid following item for a reasoning item.",
        tags=("built-in tool item after reasoning",),
        body=body([ASK, *([MCP_LIST] if kind == "mcp_call" else []), REASONING, item,
                   MESSAGE, THANKS],
                  tools=[MCP_TOOLS] if kind == "mcp_call" else [{"type": "web_search"}]))
      for kind, item in BUILT_IN.items()),
    Fixture(
        fact="With `conversation`, the call an output answers lives on the server: an output "
             "whose call is not in `input` is valid, as with previous_response_id.",
        tags=("conversation like previous_response_id",),
        body={"model": "gpt-5-mini", "conversation": "conv_5a1e0c4d9b7f2e38", "tools": TOOLS,
              "tool_choice": "auto",
              "input": [{"type": "function_call_output", "call_id": "call_Porto0001",
                         "output": "10:05"}]}),
    Fixture(
        fact="With previous_response_id, likewise.",
        body={"model": "gpt-5-mini", "previous_response_id": "resp_5a1e0c4d9b7f2e38",
              "tools": TOOLS,
              "input": [{"type": "function_call_output", "call_id": "call_Porto0001",
                         "output": "10:05"}]}),
    Fixture(
        fact="Without server-side state, an output needs its call in `input`.",
        status=400,
        error=error("No tool call found for function call output with call_id call_Porto0001."),
        body=body([ASK, {"type": "function_call_output", "call_id": "call_Porto0001",
                         "output": "10:05"}])),
    Fixture(
        fact="Tools may arrive in an `additional_tools` input item; tool_choice is then valid "
             "without a top-level `tools`.",
        tags=("tools in an input item",),
        body={"model": "gpt-5-mini", "tool_choice": "auto",
              "input": [ASK, {"type": "additional_tools", "role": "developer",
                              "tools": TOOLS}]}),
    Fixture(
        fact="tool_choice with no tools anywhere is rejected.",
        status=400,
        error=error("Invalid value for 'tool_choice': 'tool_choice' is only allowed when "
                    "'tools' are specified.", param="tool_choice"),
        body={"model": "gpt-5-mini", "tool_choice": "auto", "input": [ASK]}),
]
