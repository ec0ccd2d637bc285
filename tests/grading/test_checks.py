"""The grading machinery on its own: messages, silence, time limits, the reference watch, the
dict-form model, the per-student variants, and the reference against the harness loop."""

from __future__ import annotations

import copy
import functools
import re
import sys
import types
import warnings
from pathlib import Path

import pytest

from course import compare
from course.compare import dict_message
from course.exercises import reference
from course.exercises import report as report_module
from course.exercises.cost import (
    checks as cost,
)
from course.exercises.cost import (
    variants,
)
from course.exercises.dictmodel import DictModel
from course.exercises.early_exit import checks as early_exit
from course.exercises.early_exit.cases import loop_scenarios
from course.exercises.identity import autograde_identity
from course.exercises.message_ordering import checks as message_ordering
from course.exercises.message_ordering.cases import transcripts
from course.exercises.no_progress import checks as no_progress
from course.exercises.ownwork import Watch, reference_origin
from course.exercises.report import CheckFailed
from grader.release import differences
from harness.loop import CLOSING_INSTRUCTION, NOT_EXECUTED, run
from harness.messages import ToolCall, parse_messages
from harness.progress import NoProgressDetector
from harness.tools import Toolbox, execute
from offline.dictform import to_dicts
from offline.guard import block_network
from offline.scripted import ScriptedModel, Step


def _loop(model, tools, messages, *, max_turns=10, closing_choice="none"):
    """A correct loop, with a knob to make the closing call wrong."""
    history = list(messages)
    for turn in range(1, max_turns + 1):
        reply = model(history)
        history.append(reply["message"])
        if reply["stop_reason"] == "max_tokens":
            return "truncated", None
        calls = reply["message"]["tool_calls"]
        if not calls:
            return "done", reply["message"]["content"]
        if turn == max_turns:
            break
        history += [{"role": "tool", "tool_call_id": c["id"],
                     "content": tools[c["name"]](**c["arguments"])} for c in calls]
    history += [{"role": "tool", "tool_call_id": c["id"], "content": NOT_EXECUTED}
                for c in calls]
    first = history[0]
    closing = ([{"role": "system", "content": first["content"] + "\n\n" + CLOSING_INSTRUCTION},
                *history[1:]] if first["role"] == "system"
               else [{"role": "system", "content": CLOSING_INSTRUCTION}, *history])
    reply = model(closing, tool_choice=closing_choice)
    if reply["stop_reason"] == "max_tokens" or reply["message"].get("tool_calls"):
        return "turn_cap", None  # not an answer either
    return "turn_cap", reply["message"]["content"]


def _failure(check, *args, **kwargs) -> str:
    with pytest.raises(CheckFailed) as caught:
        check(*args, **kwargs)
    return str(caught.value)


def test_a_failure_names_scenario_call_index_both_sides_and_a_lesson():
    message = _failure(early_exit.run_loop_closing_call_is_text_only,
                       functools.partial(_loop, closing_choice="auto"))
    assert 'scenario "bench_press_capped" (max_turns=3), call 4 (the closing call)' in message
    assert "reference: 'none'" in message and "yours:     'auto'" in message
    assert "lessons/05_stopping.ipynb" in message
    message = _failure(message_ordering.append_round_keeps_model_order,
                       lambda h, t, f: h + [t] + [{"role": "tool", "tool_call_id": i,
                                                   "content": x} for i, x in f])
    assert 'round "two_cities, Porto finished first", the order of the results' in message
    assert 'reference: ["call_tc_1", "call_tc_2"]' in message
    assert 'yours:     ["call_tc_2", "call_tc_1"]' in message
    assert "lessons/09_parallel_tools.ipynb" in message


def test_checks_return_nothing_and_pass_a_correct_loop():
    for check in early_exit.BEHAVIOURS.values():
        assert check(_loop) is None  # a returned number would be read as a partial grade


def test_checks_are_silent_even_when_the_student_code_is_noisy(capsys):
    def noisy(history, turn, finished):
        print("debugging", file=sys.stderr)
        warnings.warn("deprecated thing", DeprecationWarning, stacklevel=1)
        return _append(history, turn, finished)

    message_ordering.append_round_adds_turn_then_results(noisy)
    with pytest.raises(CheckFailed):
        message_ordering.append_round_adds_turn_then_results(lambda *a: print("x") or 1 / 0)
    assert capsys.readouterr() == ("", "")


def _append(history, turn, finished):
    results = dict(finished)
    ids = [c["id"] for c in turn["tool_calls"]]
    bad = [i for i in ids if i not in results] + [i for i in results if i not in ids]
    if bad:
        raise ValueError(bad[0])
    return history + [turn] + [{"role": "tool", "tool_call_id": i, "content": results[i]}
                               for i in ids]


def test_the_self_check_prints_the_grade_cell_message(capsys):
    def completion_order(history, turn, finished):
        _append(history, turn, finished)
        return history + [turn] + [{"role": "tool", "tool_call_id": i, "content": x}
                                   for i, x in finished]

    graded = _failure(message_ordering.append_round_keeps_model_order, completion_order)
    message_ordering.check_append_round(completion_order)
    printed = capsys.readouterr().out
    assert "[ok]      append_round_adds_turn_then_results" in printed
    assert "[differs] append_round_keeps_model_order" in printed
    assert graded.replace("\n", "\n    ") in printed


def test_a_failure_renders_as_its_message_only():
    lines = CheckFailed("first line\nHint: second")._render_traceback_()
    assert lines == ["\x1b[0;31mAssertionError\x1b[0m: first line", "Hint: second"]


def test_tracebacks_are_minimal_only_under_autograde(monkeypatch):
    modes = []
    shell = types.SimpleNamespace(
        InteractiveTB=types.SimpleNamespace(set_mode=lambda mode: modes.append(mode)))
    import IPython

    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    report_module.hide_sources_when_autograding()
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    report_module.hide_sources_when_autograding()
    assert modes == []
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    report_module.hide_sources_when_autograding()
    assert modes == ["Minimal"]


def test_an_endless_loop_is_stopped_and_reported():
    def spin():
        while True:
            pass

    outcome = compare.call(spin, seconds=0.2)
    assert "did not return" in outcome.describe()


def test_a_loop_that_never_stops_calling_the_model_is_stopped():
    def forever(model, tools, messages, *, max_turns=10):
        while True:
            try:
                model(messages)
            except Exception:  # even a loop that swallows errors is stopped
                pass

    message = _failure(early_exit.run_loop_feeds_results_back, forever)
    assert "after call 1" in message and "call 2: the model is sent" in message
    outcome = compare.call(forever, DictModel([Step.say("hi")], limit=3), {}, [])
    assert "kept calling the model" in outcome.describe()


@pytest.mark.parametrize("cheat", [
    reference.append_round,
    functools.partial(reference.append_round),
    types.FunctionType(reference.append_round.__code__, {}),
])
def test_the_reference_is_recognised_however_it_is_wrapped(cheat):
    assert reference_origin(cheat, ["course.exercises.reference"]) is not None


def test_a_subclass_of_the_reference_is_recognised():
    class Mine(NoProgressDetector):
        pass

    assert reference_origin(Mine, ["harness.progress"]) == "harness.progress.NoProgressDetector"
    assert reference_origin(lambda: None, ["harness.progress"]) is None


def test_the_watch_records_reference_calls_through_closures_and_methods():
    from harness import cost as harness_cost

    hidden = (lambda f: (lambda *a: f(*a)))(harness_cost.cumulative_input)
    with Watch(["harness.cost"]) as watch:
        hidden(3_000, 1_500, 22)
    assert watch.hits == ["harness.cost.cumulative_input"]
    with Watch(["harness.progress"]) as watch:
        NoProgressDetector().observe("f", {})
    assert "harness.progress.NoProgressDetector.observe" in watch.hits
    assert sys.getprofile() is None


def test_checks_never_reach_the_network():
    with block_network():
        early_exit.run_loop_feeds_results_back(_loop)
        cost.run_cost_sums_every_call(lambda usages, prices: sum(
            (u["input_tokens"] * prices["input"] + u["output_tokens"] * prices["output"])
            for u in usages) / 1e6)


def test_the_dict_model_speaks_the_exercise_convention():
    model = DictModel([Step.call("get_forecast", city="Lisbon", day="tomorrow")],
                      tools=loop_scenarios()["umbrella"].tools)
    reply = model([{"role": "user", "content": "Umbrella?", "name": "ignored"}])
    assert reply["stop_reason"] == "tool_use"
    assert reply["message"]["tool_calls"][0]["arguments"] == {"city": "Lisbon", "day": "tomorrow"}
    assert set(reply["usage"]) == {"input_tokens", "output_tokens"}
    assert model.calls[0].messages[0]["name"] == "ignored"  # logged exactly as sent
    with pytest.raises(ValueError, match="tool_choice"):
        model([], tool_choice="any")
    with pytest.raises(ValueError, match="cannot read message 0"):
        DictModel([Step.say("hi")])([{"role": "tool", "content": "no id"}])


@pytest.mark.parametrize("wire", ["anthropic", "openai_chat"])
def test_the_model_to_try_a_loop_on_rejects_an_unanswered_call_with_the_real_text(wire):
    from harness.errors import ProviderError

    model, tools, messages, max_turns = early_exit.scripted_model("bench_press_capped",
                                                                  wire=wire)
    first = model(messages)["message"]
    with pytest.raises(ProviderError) as rejected:  # the pending call was never answered
        model([*messages, first], tool_choice="none")
    assert rejected.value.status == 400
    assert {"anthropic": "`tool_use` ids were found without `tool_result` blocks immediately after",
            "openai_chat": "must be followed by tool messages responding to each 'tool_call_id'"
            }[wire] in rejected.value.message


def test_the_model_to_try_a_loop_on_runs_the_reference_loop_to_its_exit():
    model, tools, messages, max_turns = early_exit.scripted_model("bench_press_capped")
    status, answer = reference.run_loop(model, tools, messages, max_turns=max_turns)
    assert status == "turn_cap" and answer
    assert [call.tool_choice for call in model.calls][-1] == "none"


def test_the_reference_loop_words_tool_errors_as_the_library_does():
    def get_forecast(city: str, day: str) -> str:
        raise TimeoutError("the weather service timed out")

    tools = {"get_forecast": get_forecast}
    model = DictModel([Step.call("get_forecast", city="Lisbon", day="tomorrow"),
                       Step.say("The forecast service is down.")], tools=tools)
    outcome = reference.run_loop(model, tools, [{"role": "user", "content": "Umbrella?"}])
    assert outcome == ("done", "The forecast service is down.")
    sent = model.calls[1].messages[-1]
    call = ToolCall(id=sent["tool_call_id"], name="get_forecast",
                    arguments={"city": "Lisbon", "day": "tomorrow"})
    assert sent == {"role": "tool", "tool_call_id": call.id, "is_error": True,
                    "content": execute(Toolbox.of(get_forecast), call).content}
    assert sent["content"].startswith("Error: get_forecast raised TimeoutError")


def test_the_reference_loop_follows_the_library_when_the_closing_reply_is_no_answer():
    for name in ("closing_reply_cut", "closing_reply_calls_a_tool"):
        scenario = loop_scenarios()[name]
        model = DictModel(scenario.steps, tools=scenario.tools)
        assert reference.run_loop(model, scenario.tools, copy.deepcopy(scenario.messages),
                                  max_turns=scenario.max_turns) == ("turn_cap", None), name
        assert [call.tool_choice for call in model.calls] == ["auto", "none"], name


def test_the_reference_loop_agrees_with_harness_loop_run():
    for scenario in loop_scenarios().values():
        dict_model = DictModel(scenario.steps, tools=scenario.tools)
        status, answer = reference.run_loop(dict_model, scenario.tools,
                                            copy.deepcopy(scenario.messages),
                                            max_turns=scenario.max_turns)
        scripted = ScriptedModel(list(scenario.steps))
        result = run(scripted, Toolbox.of(*scenario.tools.values()),
                     parse_messages(scenario.messages), max_turns=scenario.max_turns,
                     detector=None)
        assert (status, answer) == (result.status.value, result.answer), scenario.name
        sent = [[dict_message(m) for m in to_dicts(r.messages)] for r in scripted.requests]
        mine = [[dict_message(m) for m in event.messages] for event in dict_model.calls]
        assert mine == sent, scenario.name
        assert [e.tool_choice for e in dict_model.calls] == \
            [r.tool_choice for r in scripted.requests]


def test_the_reference_to_anthropic_is_the_adapter():
    from harness.providers.anthropic import to_wire

    for history in transcripts().values():
        body = to_wire(parse_messages(history))
        assert reference.to_anthropic(history) == (body.get("system"), body["messages"])


def test_each_student_gets_their_own_numbers(tmp_path, monkeypatch):
    ada, bob = variants.questions_of("ada"), variants.questions_of("bob")
    assert ada == variants.questions_of("ada")
    assert ada.anthropic["usage"] != bob.anthropic["usage"]
    cached = ada.openai["usage"]["prompt_tokens_details"]["cached_tokens"]
    assert cached % 128 == 0 and 1024 <= cached < ada.openai["usage"]["prompt_tokens"]
    assert autograde_identity("/c/autograded/bob/04_cost/sub") == ("bob", "04_cost")
    assert autograde_identity("/home/bob/04_cost") is None
    folder = tmp_path / "autograded" / "bob" / "04_cost"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    graded = variants.for_student("ada")
    assert (graded.student_id, graded.typed_id) == ("bob", "ada")
    assert graded.anthropic == bob.anthropic


def test_typing_a_neighbours_id_does_not_help(tmp_path, monkeypatch):
    copied = cost.expected_answers(variants.questions_of("ada"))
    cost.usage_anthropic_adds_cache_reads(copied, student_id="ada")  # fine before grading
    folder = tmp_path / "autograded" / "bob" / "04_cost"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    message = _failure(cost.usage_anthropic_adds_cache_reads, copied, student_id="ada")
    assert "fits the numbers of student 'ada'" in message
    cost.usage_anthropic_adds_cache_reads(cost.expected_answers(variants.questions_of("bob")),
                                          student_id="ada")


def test_the_worked_numbers_of_the_seeds():
    no_progress.call_key_tells_calls_apart(lambda n, a: n + repr(sorted(a.items())))
    assert reference.first_turn_over_budget(3_000, 1_500, 400_000) == 22
    assert reference.first_turn_over_budget(5_000, 2_500, 400_000) == 17
    assert reference.cumulative_input(3_000, 1_500, 22) == 412_500


def test_every_hint_points_to_a_lesson_that_exists():
    root = Path(__file__).resolve().parents[2]
    named = set()
    for module in (root / "course" / "exercises").rglob("*.py"):
        named |= set(re.findall(r'lesson\("([0-9a-z_]+)"\)', module.read_text()))
    assert len(named) >= 8
    missing = [name for name in named if not (root / "lessons" / f"{name}.ipynb").exists()]
    assert not missing, missing


def test_release_differences_are_found(tmp_path):
    left, right = tmp_path / "a", tmp_path / "b"
    for folder in (left, right):
        (folder / "x").mkdir(parents=True)
        (folder / "x" / "n.ipynb").write_text("{}")
    assert differences(left, right) == []
    (right / "x" / "n.ipynb").write_text("{ }")
    assert differences(left, right) == [str(right / "x" / "n.ipynb")]


def test_a_closing_call_that_drops_a_message_is_reported_at_its_real_index():
    def run_loop(model, tools, messages, *, max_turns=10):
        history = copy.deepcopy(messages)
        calls = []
        for _ in range(max_turns):
            reply = model(history, tool_choice="auto")
            history.append(reply["message"])
            calls = reply["message"].get("tool_calls") or []
            if reply["stop_reason"] == "max_tokens":
                return "truncated", None
            if not calls:
                return "done", reply["message"]["content"]
            if len(history) >= 2 * max_turns:
                break
            for call in calls:
                history.append({"role": "tool", "tool_call_id": call["id"],
                                "content": str(tools[call["name"]](**call["arguments"]))})
        history += [{"role": "tool", "tool_call_id": c["id"], "content": NOT_EXECUTED}
                    for c in calls]
        system = {"role": "system", "content": CLOSING_INSTRUCTION}
        head = [m for m in history if m["role"] != "system"]
        closing = model([system, *head[1:]], tool_choice="none")  # the first message dropped
        return "turn_cap", closing["message"]["content"]

    with pytest.raises(CheckFailed) as failed:
        early_exit.run_loop_closing_call_is_text_only(run_loop)
    where = str(failed.value)
    assert "(the closing call), message index" in where
    assert re.search(r"message index \d+ \(counting from 0, of the \d+ messages it sent\)", where)
