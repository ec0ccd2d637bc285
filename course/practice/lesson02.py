"""Lesson 02's pieces: one tool round trip, by the application's code.

`run_tool` runs the tool one call names and wraps its output in a tool message with the call's
id (the happy path only: `harness.tools.execute` is the library version, and lesson 08 turns
every failure into a result). `round_trip` is one whole round trip: call the model, run what it
asked for, append the reply and the results in that order, call it again.
"""

from __future__ import annotations

import functools

from course.compare import same, same_messages
from course.practice.engine import Piece, attempt
from course.practice.explain import count_hint, differs, message_difference
from course.practice.runs import keeps_the_messages, on_scenario, same_calls, scenario_tools
from harness.messages import Message, Model, ToolCall, ToolMessage
from harness.tools import Toolbox


def run_tool(toolbox: Toolbox, call: ToolCall) -> ToolMessage:
    """Run the tool `call` names, with the call's arguments; return its result as a tool message.

    The result carries the call's id (that is how the model knows which request it answers) and
    the tool's output as text. A tool that fails is not handled here: lesson 8 does that.
    """
    tool = toolbox.tools[call.name]
    output = tool.function(**call.arguments)
    return ToolMessage(tool_call_id=call.id, content=str(output))


def round_trip(model: Model, toolbox: Toolbox, messages: list[Message]) -> list[Message]:
    """One round trip: ask the model, run the tools it asks for, and ask it again.

    Every call sends the whole list and the toolbox's declarations. A reply that asks for no
    tool is the answer: return the messages and that reply. Otherwise append the reply whole,
    then one result per request in the order asked, call the model again and return the messages,
    the reply, the results and the second reply. The list you were given is left as it was.
    """
    history = list(messages)
    reply = model.complete(history, tools=toolbox.specs)
    history.append(reply.message)
    if not reply.message.tool_calls:
        return history
    for call in reply.message.tool_calls:
        history.append(run_tool(toolbox, call))
    second = model.complete(history, tools=toolbox.specs)
    return [*history, second.message]


RUN_TOOL = Piece("run_tool", lesson="02_one_tool", section="Your code runs the tool",
                 reference=run_tool)
ROUND_TRIP = Piece("round_trip", lesson="02_one_tool",
                   section="The whole round trip in one function", reference=round_trip)


def trip_length(first_day: int, last_day: int) -> int:
    """How many days a trip lasts, from its first to its last day of the month."""
    return last_day - first_day + 1


@functools.cache
def _numbers() -> Toolbox:
    return Toolbox.of(trip_length)


def _calls() -> dict[str, tuple[Toolbox, ToolCall]]:
    """One call per case, with its toolbox: the cases of run_tool's check."""
    weather, coach = scenario_tools("umbrella"), scenario_tools("bench_press")
    return {
        "umbrella, the forecast": (weather, ToolCall(
            id="toolu_01A", name="get_forecast", arguments={"city": "Lisbon", "day": "tomorrow"})),
        "bench_press, the second of three tools": (coach, ToolCall(
            id="call_7Qx", name="compute_record",
            arguments={"exercise": "bench press", "weights_kg": [80.0, 82.5, 85.0, 87.5]})),
        "bench_press, the third of three tools": (coach, ToolCall(
            id="call_9Fz", name="save_goal", arguments={"exercise": "bench press",
                                                        "target_kg": 90.0})),
        "a tool that returns a number": (_numbers(), ToolCall(
            id="call_2_1", name="trip_length", arguments={"first_day": 3, "last_day": 5})),
    }


@RUN_TOOL.behaviour("runs the tool the call names, with the call's arguments")
def _runs_the_named_tool(yours, reference):
    for case, (toolbox, call) in _calls().items():
        want, outcome = reference(toolbox, call).content, attempt(yours, toolbox, call)
        if outcome.error and "valid string" in str(outcome.error):
            return same(f"{case}, the result's content", want, outcome, hint=(
                f"yours put the tool's output in the result as it came, {want} as a number; "
                f"the reference made it text first, str(output) == {want!r}: a result's "
                "content is always text"))
        if outcome.error:
            return same(f"{case}, the result's content", want, outcome, hint=(
                f"the call names {call.name}; yours raised instead of running it with "
                f"{call.arguments}: look the tool up by the call's name "
                "(toolbox.tools[call.name]) and call its .function with **call.arguments"))
        if found := differs(f"{case}, the result's content", want,
                            getattr(outcome.value, "content", "(no content)"),
                            lambda want, got, call=call: (
                                f"yours returned {got!r}, the reference {want!r}, the output "
                                f"of {call.name}({call.arguments}): run the tool the call "
                                "names, with **call.arguments, and make its output text")):
            return found
    return None


@RUN_TOOL.behaviour("returns a ToolMessage carrying the call's id")
def _carries_the_id(yours, reference):
    for case, (toolbox, call) in _calls().items():
        outcome = attempt(yours, toolbox, call)
        kind = outcome if outcome.error else type(outcome.value).__name__
        if found := same(f"{case}, what it returns", "ToolMessage", kind,
                         hint=f"yours returned a {kind}: return ToolMessage(tool_call_id=..., "
                              "content=...)"):
            return found
        if found := differs(f"{case}, tool_call_id", call.id, outcome.value.tool_call_id,
                            lambda want, got, call=call: (
                                f"yours answers {got!r}" + (", the tool's name," if got ==
                                                            call.name else "") +
                                f" where the reference answers {want!r}, the call's id: the "
                                "id pairs the result with its request")):
            return found
    return None


_TRIPS = ("umbrella", "two_cities")  # one request in the reply, then two


@ROUND_TRIP.behaviour("sends the whole list and the tools on every call, and calls twice")
def _sends_everything(yours, reference):
    for name in _TRIPS:
        (_, mine), (outcome, theirs) = on_scenario(reference, name), on_scenario(yours, name)
        if found := same_calls(name, mine, theirs, hint="call 2 sends everything call 1 sent, "
                               "then the reply whole, then one result per request in the order "
                               "asked", count_hint="call the model once, run the tools, call it "
                               "once more"):
            return found
        if outcome.error:
            return same(name, "a list of messages", outcome, hint="the function raised")
    return None


@ROUND_TRIP.behaviour("returns the messages, the reply, its results and the final reply")
def _returns_the_trip(yours, reference):
    for name in _TRIPS:
        (want, _), (seen, _) = on_scenario(reference, name), on_scenario(yours, name)
        if found := same_messages(name, want.value, seen, hint=lambda index, mine, theirs: (
                f"{message_difference(mine, theirs)}: return the messages you were given, "
                "the reply that asked, one result per request, and the final reply")):
            return found
    return None


@ROUND_TRIP.behaviour("stops after one call when the reply asks for no tool")
def _one_call_for_an_answer(yours, reference):
    (want, _), (seen, model) = (on_scenario(reference, "no_tool_needed"),
                                on_scenario(yours, "no_tool_needed"))
    return (differs("no_tool_needed, number of model calls", 1, len(model.requests),
                    lambda want, got: count_hint(want, got, "a reply with no tool call is the "
                                                 "answer: return it without calling again"))
            or same_messages("no_tool_needed", want.value, seen,
                             hint="return the messages and the reply"))


ROUND_TRIP.behaviour("leaves the list it was given unchanged")(
    lambda yours, reference: keeps_the_messages(yours, hint="copy the list first (history = "
                                                "list(messages)) and append to the copy"))
