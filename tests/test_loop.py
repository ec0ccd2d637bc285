"""Every exit of `harness.loop.run`, the closing call's exact request, and the history rules."""

import threading

import httpx
import pytest

from harness import (
    AssistantMessage,
    Exit,
    NoProgressDetector,
    ProviderError,
    RepeatReminder,
    SystemMessage,
    Toolbox,
    ToolCall,
    ToolMessage,
    Usage,
    UserMessage,
    providers,
    run,
)
from harness.loop import CANCELLED, CLOSING_INSTRUCTION, NOT_EXECUTED, NOT_EXECUTED_TRUNCATED
from offline import (
    ScriptedModel,
    Step,
)
from offline.emulator import Emulator
from offline.scenarios import SCENARIOS, get_forecast

PROMPT = [SystemMessage(content="You are a travel assistant."),
          UserMessage(content="Umbrella for Lisbon tomorrow?")]
TOOLS = Toolbox.of(get_forecast)


def forecast_call(day: str = "tomorrow") -> Step:
    return Step.call("get_forecast", city="Lisbon", day=day)


def test_done_returns_the_text_and_appends_round_in_order():
    model = ScriptedModel([forecast_call(), Step.say("Pack an umbrella.")])
    result = run(model, TOOLS, PROMPT)
    assert result.status is Exit.DONE and result.answer == "Pack an umbrella."
    roles = [m.role for m in result.messages]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    call = result.messages[2].tool_calls[0]
    assert result.messages[3] == ToolMessage(tool_call_id=call.id,
                                             content="Lisbon, tomorrow: light rain, 14 to 18 C")
    # the second call saw the request and its result, in that order
    assert [m.role for m in model.requests[1].messages] == roles[:4]


def test_status_is_the_first_field_of_the_result():
    from dataclasses import fields

    from harness.trace import RunResult
    assert fields(RunResult)[0].name == "status"


def test_input_messages_are_not_mutated():
    prompt = list(PROMPT)
    run(ScriptedModel([forecast_call(), Step.say("ok")]), TOOLS, prompt)
    assert prompt == PROMPT


def test_truncated_reply_is_not_an_answer():
    model = ScriptedModel([Step(text="Day 1: Lisbon and", stop_reason="max_tokens")])
    result = run(model, TOOLS, PROMPT)
    assert result.status is Exit.TRUNCATED and result.answer is None
    assert result.messages[-1].content == "Day 1: Lisbon and"  # kept in the history, not returned


def assert_sendable(history, tools: Toolbox = TOOLS, *, skip=()) -> None:
    """Every emulated API accepts the history as the next request: no call is left unanswered."""
    for name in set(providers.PROVIDERS) - set(skip):
        model = providers.get(name, client=httpx.Client(
            transport=Emulator(ScriptedModel([Step.say("next")]))))
        assert model.complete(history, tools=tools.specs).message.content == "next", name


def test_a_cut_reply_with_a_tool_call_gets_a_result_and_the_tool_does_not_run():
    # Anthropic returns the tool_use blocks it had written before max_tokens cut the reply.
    ran = []
    tools = Toolbox.of(lambda city, day: ran.append(city) or "sunny")
    cut = Step(text="Let me check", calls=forecast_call().calls, stop_reason="max_tokens")
    result = run(ScriptedModel([cut]), tools, PROMPT)
    assert result.status is Exit.TRUNCATED and result.answer is None and ran == []
    call = result.messages[-2].tool_calls[0]
    assert result.messages[-1] == ToolMessage(tool_call_id=call.id,
                                              content=NOT_EXECUTED_TRUNCATED, is_error=True)
    assert NOT_EXECUTED_TRUNCATED.startswith("Not executed: ")
    assert_sendable(result.messages)


def test_a_closing_reply_cut_at_the_limit_is_not_an_answer():
    model = ScriptedModel([forecast_call(),
                           Step(text="I found the forecast but", stop_reason="max_tokens")])
    result = run(model, TOOLS, PROMPT, max_turns=1)
    assert result.status is Exit.TURN_CAP and result.answer is None
    assert "closing reply was cut off" in result.detail
    assert result.messages[-1].content == "I found the forecast but"  # kept for the caller
    assert_sendable(result.messages)


def test_a_closing_reply_that_still_calls_a_tool_is_not_an_answer():
    # Gemini can emit a call under tool_choice NONE (UNEXPECTED_TOOL_CALL): never run, answered.
    model = ScriptedModel([forecast_call("monday"), forecast_call("tuesday")])
    result = run(model, TOOLS, PROMPT, max_turns=1)
    assert result.status is Exit.TURN_CAP and result.answer is None
    assert result.detail == ("turn cap; the closing reply called get_forecast anyway: "
                             "no answer")
    last_call = result.messages[-2].tool_calls[0]
    assert last_call.arguments["day"] == "tuesday"
    assert result.messages[-1] == ToolMessage(tool_call_id=last_call.id, content=NOT_EXECUTED,
                                              is_error=True)
    assert result.turns == 2  # still one closing call, never a second
    assert_sendable(result.messages)


def test_every_exit_leaves_a_sendable_history():
    for scenario in SCENARIOS.values():  # skipped: APIs that never return the history's calls
        assert_sendable(scenario.run().messages, scenario.tools(), skip=scenario.impossible_on)


def test_before_done_sends_the_run_on_with_a_user_message():
    seen = []

    def check(answer):
        seen.append(answer)
        return None if "Porto" in answer else "You were asked about Porto too. Check it."

    model = ScriptedModel([Step.say("Lisbon: take an umbrella."), forecast_call(),
                           Step.say("Lisbon and Porto: take an umbrella.")])
    result = run(model, TOOLS, PROMPT, before_done=check)
    assert result.status is Exit.DONE and result.answer == "Lisbon and Porto: take an umbrella."
    assert seen == ["Lisbon: take an umbrella.", "Lisbon and Porto: take an umbrella."]
    assert [m.role for m in result.messages] == ["system", "user", "assistant", "user",
                                                 "assistant", "tool", "assistant"]
    assert result.messages[3] == UserMessage(content="You were asked about Porto too. Check it.")
    assert model.requests[1].messages[-1] == result.messages[3]  # the model read it next


def test_before_done_turns_count_against_the_cap():
    model = ScriptedModel([Step.say("first"), Step.say("second"),
                           Step.say("closing", expect_tool_choice="none")])
    result = run(model, TOOLS, PROMPT, max_turns=2, before_done=lambda answer: "Not yet.")
    assert result.status is Exit.TURN_CAP and result.answer == "closing"
    assert result.turns == 3 and result.calls[-1].closing
    assert result.calls[-1].sent[-1] == UserMessage(content="Not yet.")


def test_cancel_accepts_a_function_or_an_event_and_runs_while_unset():
    flag = threading.Event()
    for cancel in (flag, flag.is_set, lambda: False):
        result = run(ScriptedModel([Step.say("ok")]), TOOLS, PROMPT, cancel=cancel)
        assert result.status is Exit.DONE, cancel


def test_turn_cap_answers_pending_calls_and_makes_one_closing_call():
    steps = [forecast_call(str(day)) for day in range(3)]
    model = ScriptedModel([*steps, Step.say("I ran out of steps.", expect_tool_choice="none")])
    result = run(model, TOOLS, PROMPT, max_turns=3)
    assert result.status is Exit.TURN_CAP and result.answer == "I ran out of steps."
    assert result.turns == 4 and result.calls[-1].closing
    closing = model.requests[-1]
    assert closing.tool_choice == "none"
    assert [t.name for t in closing.tools] == ["get_forecast"]  # tools stay declared
    assert closing.messages[0] == SystemMessage(
        content=f"You are a travel assistant.\n\n{CLOSING_INSTRUCTION}")
    pending = closing.messages[-1]
    assert isinstance(pending, ToolMessage) and pending.content == NOT_EXECUTED
    assert pending.tool_call_id == closing.messages[-2].tool_calls[0].id
    # the instruction is in the system prompt only, never in a tool result
    assert all(CLOSING_INSTRUCTION not in m.content for m in closing.messages[1:]
               if isinstance(m, ToolMessage))
    # the history itself keeps the original system prompt and is append-only
    assert result.messages[0] == PROMPT[0]
    assert result.messages[:len(closing.messages) - 1] == [PROMPT[0], *closing.messages[1:]][:-1]
    assert result.messages[-1].content == "I ran out of steps."


def test_closing_call_adds_a_system_message_when_there_is_none():
    model = ScriptedModel([forecast_call(), Step.say("stopped")])
    run(model, TOOLS, PROMPT[1:], max_turns=1)
    assert model.requests[-1].messages[0] == SystemMessage(content=CLOSING_INSTRUCTION)


def test_the_closing_call_counts_toward_the_token_total():
    usage = Usage(input_tokens=100, output_tokens=10)
    model = ScriptedModel([Step(calls=forecast_call().calls, usage=usage),
                           Step.say("closing", usage=usage)])
    result = run(model, TOOLS, PROMPT, max_turns=1)
    assert result.usage == Usage(input_tokens=200, output_tokens=20)


def test_turn_cap_without_closing_call():
    model = ScriptedModel([forecast_call()])
    result = run(model, TOOLS, PROMPT, max_turns=1, closing_call=False)
    assert result.status is Exit.TURN_CAP and result.answer is None and result.turns == 1
    assert result.messages[-1].content == NOT_EXECUTED


def test_token_cap_fires_when_the_total_goes_over_the_budget():
    usage = Usage(input_tokens=600, output_tokens=10)
    model = ScriptedModel([Step(calls=forecast_call(str(d)).calls, usage=usage)
                           for d in range(5)])
    result = run(model, TOOLS, PROMPT, token_budget=1_500)
    assert result.status is Exit.TOKEN_CAP and result.turns == 3  # 1,830 > 1,500 after call 3
    assert result.messages[-1].content.startswith("Not executed")


def test_budget_equal_to_spend_does_not_fire():
    usage = Usage(input_tokens=500, output_tokens=0)
    model = ScriptedModel([Step(calls=forecast_call().calls, usage=usage), Step.say("done")])
    assert run(model, TOOLS, PROMPT, token_budget=500).status is Exit.DONE


def test_no_progress_on_the_same_call_twice():
    model = ScriptedModel([forecast_call(), forecast_call(), Step.say("unused")])
    result = run(model, TOOLS, PROMPT)
    assert result.status is Exit.NO_PROGRESS and result.turns == 2
    assert model.unconsumed == 1
    # the repeated call was not run: its result says so
    assert result.messages[-1].content.startswith("Not executed")


def test_no_progress_can_be_switched_off():
    model = ScriptedModel([forecast_call(), forecast_call(), Step.say("fine")])
    assert run(model, TOOLS, PROMPT, detector=None).status is Exit.DONE


def test_retry_after_an_error_is_not_a_lack_of_progress():
    result = SCENARIOS["retry_after_timeout"].run()
    assert result.status is Exit.DONE
    first, second = (m for m in result.messages if isinstance(m, ToolMessage))
    assert first.is_error and "timed out" in first.content and not second.is_error


def test_error_exit_carries_the_provider_message_and_never_retries():
    rejection = ProviderError(400, "invalid_request_error", "tool_choice needs tools",
                              provider="openai_chat")
    model = ScriptedModel([Step(error=rejection)])
    result = run(model, TOOLS, PROMPT)
    assert result.status is Exit.ERROR and result.error is rejection
    assert "tool_choice needs tools" in result.detail
    assert result.turns == 1 and result.calls[0].error is rejection


def test_interrupted_before_the_first_call():
    cancel = threading.Event()
    cancel.set()
    model = ScriptedModel([Step.say("never")])
    result = run(model, TOOLS, PROMPT, cancel=cancel)
    assert result.status is Exit.INTERRUPTED and model.requests == []


def test_interrupted_with_pending_calls_gives_cancelled_results():
    state = {"calls": 0}

    def cancel() -> bool:
        return state["calls"] >= 1

    def script(messages, number):
        state["calls"] += 1
        return Step(calls=(ToolCall(id="c1", name="get_forecast",
                                    arguments={"city": "Lisbon", "day": "x"}),))

    result = run(ScriptedModel(script), TOOLS, PROMPT, cancel=cancel)
    assert result.status is Exit.INTERRUPTED
    assert result.messages[-1] == ToolMessage(tool_call_id="c1", content=CANCELLED, is_error=True)


def test_assistant_turn_is_appended_whole_with_reasoning():
    model = ScriptedModel([Step(thinking="check the forecast", calls=forecast_call().calls),
                           Step.say("yes")])
    result = run(model, TOOLS, PROMPT)
    turn = result.messages[2]
    assert isinstance(turn, AssistantMessage) and turn.reasoning[0].data == {
        "thinking": "check the forecast"}
    assert model.requests[1].messages[2] == turn


def test_reminder_mode_nudges_in_a_user_message_not_a_tool_result():
    model = ScriptedModel([forecast_call()] * 3 + [Step.say("ok")])
    result = run(model, TOOLS, PROMPT, detector=None, reminder=RepeatReminder())
    nudges = [m for m in result.messages if isinstance(m, UserMessage)][1:]
    assert len(nudges) == 1 and "3 times in a row" in nudges[0].content
    assert result.status is Exit.DONE


def test_a_new_user_message_starts_the_repeat_count_again():
    reminder = RepeatReminder()
    first = run(ScriptedModel([forecast_call()] * 2 + [Step.say("rain")]), TOOLS, PROMPT,
                detector=None, reminder=reminder)
    thread = [*first.messages, UserMessage(content="And the day after?")]
    # Two more identical calls would be the 3rd and 4th in a row if the count carried over.
    second = run(ScriptedModel([forecast_call()] * 2 + [Step.say("rain again")]), TOOLS, thread,
                 detector=None, reminder=reminder)
    assert [m.content for m in second.messages[len(thread):] if isinstance(m, UserMessage)] == []
    assert second.status is Exit.DONE


@pytest.mark.parametrize("provider", sorted(providers.PROVIDERS))
def test_the_layered_policy_nudges_twice_then_the_token_cap_ends_the_run(provider):
    # The settings lesson 07 recommends, on each wire format through the emulator.
    doom = SCENARIOS["refund_doom_loop"]
    with httpx.Client(transport=Emulator(doom.model())) as client:
        result = doom.run(providers.get(provider, client=client), detector=None,
                          reminder=RepeatReminder(), max_turns=12, token_budget=4_500)
    nudges = [m.content for m in result.messages[2:] if isinstance(m, UserMessage)]
    assert [n.split(" ")[0] for n in nudges] == ["You", "Reminder:"]
    assert result.status is Exit.TOKEN_CAP and result.turns == 8


def test_custom_detector_factory():
    model = ScriptedModel([forecast_call(), forecast_call(), Step.say("ok")])
    # a detector that never fires on exact repeats is still a valid factory
    assert run(model, TOOLS, PROMPT, detector=lambda: NoProgressDetector(window=4)
               ).status is Exit.NO_PROGRESS


def test_rejects_a_turn_cap_below_one():
    with pytest.raises(ValueError, match="max_turns"):
        run(ScriptedModel([]), TOOLS, PROMPT, max_turns=0)


def test_an_extra_call_is_a_script_error():
    from offline.errors import ScriptError
    model = ScriptedModel([forecast_call()])
    with pytest.raises(ScriptError, match="call 2 was not scripted"):
        run(model, TOOLS, PROMPT)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_reaches_its_exit(name):
    scenario = SCENARIOS[name]
    assert scenario.run().status is scenario.expected_exit


def test_bench_press_capped_does_not_run_the_save():
    result = SCENARIOS["bench_press_capped"].run()
    saved = [m for m in result.messages if isinstance(m, ToolMessage)
             and m.content.startswith("Saved goal")]
    assert saved == [] and "not saved" in result.answer


def test_big_pages_fires_the_token_cap_before_the_turn_cap():
    scenario = SCENARIOS["big_pages"]
    result = scenario.run()
    assert result.status is Exit.TOKEN_CAP and result.turns < 10
    assert result.usage.total_tokens > scenario.loop_options["token_budget"]
