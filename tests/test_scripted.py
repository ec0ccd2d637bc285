"""The ScriptedModel: replays, records, fails on extra calls, reports unconsumed steps."""

import pytest

from harness import UserMessage
from offline import ScriptedModel, Step
from offline.errors import ScriptError


def test_records_what_it_was_sent_and_counts_usage_from_the_transcript():
    model = ScriptedModel([Step.say("one"), Step.say("two")])
    short = model.complete([UserMessage(content="hi")])
    long = model.complete([UserMessage(content="hi " * 200)], tool_choice="none")
    assert model.requests[1].tool_choice == "none"
    assert long.usage.input_tokens > short.usage.input_tokens
    assert short.usage.output_tokens == 1


def test_unconsumed_steps_are_reported():
    model = ScriptedModel([Step.say("a"), Step.say("b")])
    model.complete([])
    assert model.unconsumed == 1
    with pytest.raises(ScriptError, match="1 scripted step"):
        model.assert_consumed()


def test_wrong_tool_choice_is_a_script_error():
    model = ScriptedModel([Step.say("closing", expect_tool_choice="none")])
    with pytest.raises(ScriptError, match="tool_choice='none'"):
        model.complete([], tool_choice="auto")


def test_function_script_sees_the_transcript():
    model = ScriptedModel(lambda messages, n: Step.say(f"{n}:{len(messages)}"))
    assert model.complete([UserMessage(content="x")]).message.content == "1:1"


def test_call_ids_are_unique_per_call():
    model = ScriptedModel([Step.call_many(("f", {}), ("g", {}))])
    ids = [c.id for c in model.complete([]).message.tool_calls]
    assert len(set(ids)) == 2
