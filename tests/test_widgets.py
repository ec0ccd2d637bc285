"""The lesson widgets: what the stepper shows per call, the explorer's numbers, that both build."""

from __future__ import annotations

import pytest

from course.widgets import (
    CostExplorer,
    TranscriptStepper,
    call_view,
    call_views,
    cost_figure,
    cost_view,
    describe,
    render,
)
from harness import ProviderError, ToolCall, loop, run
from harness.messages import AssistantMessage, Reasoning, SystemMessage, ToolMessage, UserMessage
from offline import ScriptedModel, Step
from offline.scenarios import SCENARIOS


@pytest.fixture(scope="module")
def umbrella():
    return SCENARIOS["umbrella"].run()


def test_describe_writes_each_role_in_a_line_or_a_few():
    assert describe(SystemMessage(content="Be brief.")) == "Be brief."
    assert describe(UserMessage(content="Umbrella?")) == "Umbrella?"
    assert describe(ToolMessage(tool_call_id="call_1", content="rain")) == "id=call_1  rain"
    turn = AssistantMessage(content="Let me check.", reasoning=[Reasoning(provider="x", data={})],
                            tool_calls=[ToolCall(id="call_1", name="get_forecast",
                                                 arguments={"city": "Lisbon"})])
    assert describe(turn).splitlines() == [
        "[reasoning: 1 block(s) kept for the next call]", "Let me check.",
        'wants get_forecast({"city": "Lisbon"})  id=call_1']
    broken = AssistantMessage(tool_calls=[ToolCall(id="c", name="f", raw_arguments="{oops")])
    assert describe(broken) == "wants f({oops)  id=c"
    assert describe(AssistantMessage()) == "(empty)"


def test_each_call_shows_exactly_what_was_sent_and_marks_what_is_new(umbrella):
    first, second = call_views(umbrella)
    assert [row.role for row in first.sent] == ["system", "user"]
    assert not any(row.new for row in first.sent)
    assert [row.role for row in second.sent] == ["system", "user", "assistant", "tool"]
    assert [row.new for row in second.sent] == [False, False, True, True]
    assert second.sent[3].text.endswith("Lisbon, tomorrow: light rain, 14 to 18 C")
    assert [row.role for row in first.reply] == ["assistant"]
    assert "wants get_forecast" in first.reply[0].text
    usage = umbrella.calls[1].reply.usage
    assert second.tokens == {"input": usage.input_tokens, "output": usage.output_tokens,
                             "cached": usage.cached_input_tokens}
    assert "tool_choice=auto" in first.title and "tool_use" in first.title


def test_a_list_of_call_records_works_as_well_as_a_run(umbrella):
    assert call_views(umbrella.calls) == call_views(umbrella)


def test_the_closing_call_and_error_results_are_labelled():
    capped = SCENARIOS["bench_press_capped"].run()
    closing = call_views(capped)[-1]
    assert "(closing call)" in closing.title and "tool_choice=none" in closing.title
    # The instruction changed the system prompt; the request and its result are new.
    assert [row.new for row in closing.sent] == [True, False, False, False, False, False,
                                                 True, True]
    assert closing.sent[-1].error and closing.sent[-1].text.endswith(
        loop.NOT_EXECUTED)


def test_a_rejected_call_shows_the_providers_error():
    failing = ScriptedModel([Step(error=ProviderError(429, "rate_limit_error", "slow down"))])
    scenario = SCENARIOS["umbrella"]
    view = call_view(run(failing, scenario.tools(), scenario.messages()).calls[0])
    assert [(row.role, row.error) for row in view.reply] == [("error", True)]
    assert "slow down" in view.reply[0].text
    assert view.tokens == {"input": 0, "output": 0, "cached": 0}


def test_a_list_that_did_not_grow_marks_nothing_new():
    # Lesson 4's stale-list bug: every call sends the same two messages.
    scenario = SCENARIOS["umbrella"]
    record = run(ScriptedModel([Step.say("Hi")]), scenario.tools(), scenario.messages()).calls[0]
    shrunk = call_view(record, previous=record)
    assert not any(row.new for row in shrunk.sent)


def test_the_page_shows_role_chips_and_escapes_text():
    scenario = SCENARIOS["umbrella"]
    sneaky = [SystemMessage(content="<b>bold</b>"), UserMessage(content="a & b")]
    record = run(ScriptedModel([Step.say("<script>x</script>")]), scenario.tools(), sneaky).calls[0]
    page = render(call_view(record))
    for role in ("system", "user", "assistant"):
        assert f"alk-chip alk-{role}" in page
    assert "<script>" not in page and "&lt;script&gt;" in page and "a &amp; b" in page
    assert "tokens: input" in page


def test_the_stepper_builds_and_steps(umbrella):
    stepper = TranscriptStepper(umbrella)
    assert "alk-transcript" in stepper.box._dom_classes
    assert stepper.slider.max == 2 and stepper.previous.disabled and not stepper.next.disabled
    assert "call 1," in stepper.page.value
    stepper.next.click()
    assert stepper.slider.value == 2 and "call 2," in stepper.page.value and stepper.next.disabled
    stepper.next.click()  # past the end: stays on the last call
    assert stepper.slider.value == 2
    stepper.previous.click()
    assert stepper.slider.value == 1


def test_a_run_without_calls_has_nothing_to_step_through():
    scenario = SCENARIOS["umbrella"]
    interrupted = run(ScriptedModel([]), scenario.tools(), scenario.messages(), cancel=lambda: True)
    with pytest.raises(ValueError, match="no model call"):
        TranscriptStepper(interrupted)


def test_cost_view_reproduces_the_worked_examples():
    view = cost_view(3_000, 1_500, 400_000, 30, turn_cap=25)
    assert view["budget_turn"] == 22 and view["at_budget_turn"] == 412_500
    assert view["cumulative"][21] == 412_500 and view["prefix_only"][21] == 66_000
    assert view["at_turn_cap"] == 525_000 and view["first_exit"] == "token_cap"
    assert cost_view(5_000, 2_500, 400_000, 30)["budget_turn"] == 17


def test_cost_view_names_the_exit_that_fires_first():
    assert cost_view(3_000, 1_500, 400_000, 30, turn_cap=10)["first_exit"] == "turn_cap"
    # On the same turn the loop checks the budget before the turn cap.
    assert cost_view(3_000, 1_500, 400_000, 30, turn_cap=22)["first_exit"] == "token_cap"
    assert cost_view(3_000, 1_500, 400_000, 30)["turn_cap"] is None


def test_cost_figure_draws_the_curves_the_budget_and_both_caps_as_plain_svg():
    import xml.etree.ElementTree as ElementTree

    view = cost_view(3_000, 1_500, 400_000, 40, turn_cap=25)
    svg = ElementTree.fromstring(cost_figure(view, 400_000))
    space = "{http://www.w3.org/2000/svg}"
    lines = {line.findtext(f"{space}title"): line.get("points").split()
             for line in svg.iter(f"{space}polyline")}
    assert set(lines) == {"cumulative input", "if each call sent only the prefix",
                          "budget 400,000", "token cap fires: turn 22", "turn cap: 25"}
    assert len(lines["cumulative input"]) == 40
    cap_x = float(lines["turn cap: 25"][0].split(",")[0])
    fires_x = float(lines["token cap fires: turn 22"][0].split(",")[0])
    assert fires_x < cap_x  # turn 22 left of turn 25
    top_y = float(lines["cumulative input"][-1].split(",")[1])
    budget_y = float(lines["budget 400,000"][0].split(",")[1])
    assert top_y < budget_y  # the curve ends above the budget (SVG's y grows downwards)
    assert not [e for e in svg.iter() if e.tag.endswith(("script", "image", "foreignObject"))]
    shorter = ElementTree.fromstring(cost_figure(cost_view(3_000, 1_500, 400_000, 10), 400_000))
    titles = [line.findtext(f"{space}title") for line in shorter.iter(f"{space}polyline")]
    assert "token cap fires: turn 22" not in titles  # past the turns shown: not drawn


def test_the_explorer_builds_and_follows_its_sliders():
    explorer = CostExplorer()
    assert "alk-cost" in explorer.box._dom_classes
    assert "turn 22" in explorer.summary.value and "token_cap" in explorer.summary.value
    first_plot = explorer.plot.value
    explorer.prefix.value, explorer.per_turn.value = 5_000, 2_500
    assert "turn 17" in explorer.summary.value and explorer.plot.value != first_plot
    explorer.turn_cap.value = 10
    assert "<b>turn_cap</b>" in explorer.summary.value
    explorer.turn_cap.value = 0
    assert "turn cap" not in explorer.summary.value
    explorer.prefix.value, explorer.per_turn.value = 0, 0
    assert "no budget is ever reached" in explorer.summary.value


def test_without_a_kernel_the_stepper_shows_every_call_unrolled(umbrella):
    bundle = TranscriptStepper(umbrella)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle  # JupyterLab still steps
    page = bundle["text/html"]
    assert page.count("<details") == 2 and page.count("<details open") == 1
    assert page.index("call 1, tool_choice=auto") < page.index("call 2, tool_choice=auto")
    assert "<script" not in page and "alk-transcript-static" in page


def test_without_a_kernel_the_explorer_shows_its_values_summary_and_curve():
    explorer = CostExplorer()
    explorer.prefix.value = 5_000
    page = explorer._repr_mimebundle_()["text/html"]
    assert "prefix 5,000" in page and explorer.summary.value in page
    assert "<svg" in page and "cumulative input" in page and "<script" not in page


def test_importing_the_widgets_module_loads_no_ipywidgets():
    import subprocess
    import sys

    code = ("import sys, course.widgets; "
            "print('ipywidgets' in sys.modules, 'pygal' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"], "describe() alone must stay cheap to import"
