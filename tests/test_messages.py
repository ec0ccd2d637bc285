"""The neutral transcript and its dict form."""

import pytest
from pydantic import ValidationError

from harness import AssistantMessage, ToolCall, Usage, parse_messages
from harness.messages import argument_text, parse_arguments
from offline.dictform import to_dicts

DICTS = [
    {"role": "system", "content": "s"},
    {"role": "user", "content": "u"},
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": "c1", "name": "f", "arguments": {"x": 1}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "r"},
]


def test_dict_form_round_trips():
    assert to_dicts(parse_messages(DICTS)) == DICTS


def test_unknown_role_is_rejected_with_the_field_named():
    with pytest.raises(ValidationError, match="role"):
        parse_messages([{"role": "robot", "content": "x"}])


def test_messages_are_immutable():
    message = AssistantMessage(content="x")
    with pytest.raises(ValidationError):
        message.content = "y"


def test_usage_adds_up():
    total = Usage(input_tokens=1, output_tokens=2, cached_input_tokens=3, reasoning_tokens=4) + \
        Usage(input_tokens=10, output_tokens=20)
    assert total == Usage(input_tokens=11, output_tokens=22, cached_input_tokens=3,
                          reasoning_tokens=4)


def test_argument_parsing_keeps_bad_text():
    assert parse_arguments('{"a": 1}') == ({"a": 1}, None)
    assert parse_arguments("[1]") == ({}, "[1]")
    assert parse_arguments("{oops") == ({}, "{oops")
    bad = ToolCall(id="c", name="f", raw_arguments="{oops")
    assert argument_text(bad) == "{oops"
    assert argument_text(ToolCall(id="c", name="f", arguments={"é": 1})) == '{"é":1}'
