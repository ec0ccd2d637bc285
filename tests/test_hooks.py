"""`harness.hooks`: the loop with its options as hooks ends every run exactly as `run` does, and
each point is called where its description says, with what a hook returns acted on."""

from __future__ import annotations

import threading

import pytest

from harness import Exit, RepeatReminder, Toolbox, ToolCall, run
from harness.hooks import (
    POINTS,
    GoalCheck,
    Interrupt,
    Moment,
    Stop,
    from_options,
    run_hooked,
)
from harness.trace import RunResult
from offline import ScriptedModel, Step
from offline.scenarios import SCENARIOS, get_forecast


def _same(expected: RunResult, seen: RunResult) -> None:
    assert (seen.status, seen.answer, seen.detail) == (expected.status, expected.answer,
                                                       expected.detail)
    assert seen.messages == expected.messages
    assert [r.sent for r in seen.calls] == [r.sent for r in expected.calls]
    assert [r.tool_choice for r in seen.calls] == [r.tool_choice for r in expected.calls]
    assert seen.usage == expected.usage


def _both(name: str, **options) -> tuple[RunResult, RunResult]:
    """The scenario through `run` and through `run_hooked` with the same options as hooks."""
    scenario = SCENARIOS[name]
    settings = scenario.loop_options | options
    core = {key: settings.pop(key) for key in ("max_turns", "parallel_tools", "closing_call")
            if key in settings}
    expected = run(scenario.model(), scenario.tools(), scenario.messages(), **core, **settings)
    seen = run_hooked(scenario.model(), scenario.tools(), scenario.messages(),
                      from_options(**settings), **core)
    return expected, seen


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_with_runs_options_as_hooks_every_scenario_ends_as_run_ends_it(name):
    _same(*_both(name))


LAYERED = {"detector": None, "reminder": RepeatReminder(), "token_budget": 4_500, "max_turns": 12}


@pytest.mark.parametrize(("name", "options"), [
    ("refund_doom_loop", LAYERED),
    ("refund_doom_loop", {"reminder": RepeatReminder(), "max_turns": 12}),
    ("refund_doom_loop", {"detector": None, "closing_call": False}),
    ("two_cities", {"parallel_tools": True}),
    ("bench_press", {"max_turns": 2}),
    ("big_pages", {"token_budget": 9_000}),
    ("order_shipment_cycle", {"detector": None, "max_turns": 7}),
], ids=lambda value: value if isinstance(value, str) else ",".join(sorted(value)))
def test_the_options_together_end_the_same_way(name, options):
    _same(*_both(name, **options))


def test_an_interrupt_and_a_goal_check_end_the_same_way():
    bench = SCENARIOS["bench_press"]
    for stop_on in (1, 2, 3):
        event_run, event_hooks = threading.Event(), threading.Event()

        def model(event, stop_on=stop_on):
            def step(sent, number):
                if number == stop_on:
                    event.set()
                return bench.steps[number - 1]
            return ScriptedModel(step)

        expected = run(model(event_run), bench.tools(), bench.messages(), cancel=event_run)
        seen = run_hooked(model(event_hooks), bench.tools(), bench.messages(),
                          from_options(cancel=event_hooks))
        _same(expected, seen)
    check = lambda answer: None if "Porto" in (answer or "") else "Porto too."  # noqa: E731
    steps = [Step.say("Lisbon: rain."), Step.call("get_forecast", city="Porto", day="today"),
             Step.say("Lisbon and Porto: rain.")]
    cities = SCENARIOS["two_cities"]
    _same(run(ScriptedModel(steps), cities.tools(), cities.messages(), before_done=check),
          run_hooked(ScriptedModel(steps), cities.tools(), cities.messages(),
                     from_options(before_done=check)))


class Log:
    """A hook at every point: what telemetry would see, in order."""

    def __init__(self):
        self.seen = []

    def __getattr__(self, point):
        if point not in POINTS:
            raise AttributeError(point)
        return lambda moment: self.seen.append((point, moment.turn)) and None


def test_each_point_is_called_where_its_description_says():
    log = Log()
    steps = [Step.call("get_forecast", city="Lisbon", day="tomorrow"), Step.say("Rain.")]
    run_hooked(ScriptedModel(steps), Toolbox.of(get_forecast), [], [log])
    assert log.seen == [("before_call", 1), ("before_tools", 1), ("before_tool", 1),
                        ("after_tool", 1), ("before_call", 2), ("before_done", 2)]


class Refuse:
    """A guardrail: answers one tool's calls itself, so they never run."""

    def __init__(self, name):
        self.name = name

    def before_tool(self, moment):
        return f"Denied: {self.name} needs approval." if moment.call.name == self.name else None


def test_a_text_at_before_tool_answers_the_call_instead_of_running_it():
    ran = []

    def save_goal(target_kg: float) -> str:
        """Save a goal."""
        ran.append(target_kg)
        return "saved"

    calls = (ToolCall(id="c1", name="get_forecast", arguments={"city": "Porto", "day": "today"}),
             ToolCall(id="c2", name="save_goal", arguments={"target_kg": 90.0}))
    result = run_hooked(ScriptedModel([Step(calls=calls), Step.say("Not saved.")]),
                        Toolbox.of(get_forecast, save_goal), [], [Refuse("save_goal")])
    assert ran == [] and result.status is Exit.DONE
    forecast, denied = result.messages[1:3]
    assert (forecast.tool_call_id, forecast.is_error) == ("c1", False)
    assert (denied.tool_call_id, denied.content, denied.is_error) == (
        "c2", "Denied: save_goal needs approval.", True)


def test_the_first_hook_that_answers_wins_and_a_stop_names_its_exit():
    class Always:
        def before_call(self, moment):
            return Stop(Exit.INTERRUPTED, "the user's own words")

    result = run_hooked(ScriptedModel([]), Toolbox(), [],
                        [Always(), Interrupt(lambda: True)])
    assert (result.status, result.detail, result.calls) == (Exit.INTERRUPTED,
                                                            "the user's own words", [])


def test_a_goal_check_sees_the_candidate_answer():
    seen = []
    hook = GoalCheck(lambda answer: seen.append(answer))
    hook.before_done(Moment(1, RunResult(Exit.DONE, None, []), answer="Rain."))
    assert seen == ["Rain."]
