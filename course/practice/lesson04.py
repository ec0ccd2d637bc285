"""Lesson 04's pieces: read the input, not the output, and name the symptom it shows.

`unanswered_calls` and `orphan_results` are the two checks every provider makes on a transcript
(each request has its result after it; each result has its request before it). `diagnose` reads the
lists a run sent, one per model call, and names the first loop bug they show, or says the loop
moved the messages correctly and the cause is in what they say. `select_recent` is
`harness.context`'s: the latest messages of a long thread, never opening on a result whose call
falls outside the window.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

from course.compare import same_messages
from course.practice.engine import Piece, attempt
from course.practice.explain import differs, extra_and_missing, message_difference
from harness.context import select_recent
from harness.loop import run
from harness.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from offline.scenarios import SCENARIOS, TRAVEL


def unanswered_calls(messages: list[Message]) -> list[str]:
    """The ids of the tool calls in `messages` that no tool result *after* them answers, in the
    order the calls were made. A result that comes before its call does not answer it."""
    waiting: list[str] = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            waiting += [call.id for call in message.tool_calls]
        elif isinstance(message, ToolMessage) and message.tool_call_id in waiting:
            waiting.remove(message.tool_call_id)
    return waiting


def orphan_results(messages: list[Message]) -> list[str]:
    """The `tool_call_id`s of the tool results in `messages` whose call no assistant message
    *before* them made, in list order. A call made after its result does not count."""
    asked: set[str] = set()
    orphans = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            asked.update(call.id for call in message.tool_calls)
        elif isinstance(message, ToolMessage) and message.tool_call_id not in asked:
            orphans.append(message.tool_call_id)
    return orphans


def diagnose(sent: list[list[Message]]) -> str:
    """Name the first symptom in `sent`, the lists a run sent to the model, one per call.

    Checked in this order, the first that holds wins:
    "orphan result"    some list holds a tool result whose call is not before it;
    "unanswered call"  some list holds a tool call with no result after it;
    "stale list"       some call was sent no more messages than the call before it;
    "repeated request" the last list holds the same request (name and arguments) twice;
    "read the context" none of these: the loop moved the messages correctly.
    """
    if any(orphan_results(messages) for messages in sent):
        return "orphan result"
    if any(unanswered_calls(messages) for messages in sent):
        return "unanswered call"
    if any(len(after) <= len(before) for before, after in pairwise(sent)):
        return "stale list"
    requests = [(call.name, call.arguments) for message in sent[-1]
                if isinstance(message, AssistantMessage) for call in message.tool_calls]
    if any(request in requests[:index] for index, request in enumerate(requests)):
        return "repeated request"
    return "read the context"


UNANSWERED = Piece("unanswered_calls", lesson="04_reading_the_input",
                   section="2. The run stops at the first tool result",
                   reference=unanswered_calls)
ORPHANS = Piece("orphan_results", lesson="04_reading_the_input",
                section="3. A tool message with no matching request", reference=orphan_results)
DIAGNOSE = Piece("diagnose", lesson="04_reading_the_input", section="Naming the symptom",
                 reference=diagnose)


def _result(call_id: str, text: str = "...") -> ToolMessage:
    return ToolMessage(tool_call_id=call_id, content=text)


def _asks(*ids: str) -> AssistantMessage:
    return AssistantMessage(tool_calls=[ToolCall(id=i, name="get_forecast",
                                                 arguments={"city": "Lisbon"}) for i in ids])


@cache
def _runs() -> dict[str, list[list[Message]]]:
    """The lesson's runs as the lists they sent, one per model call (scripted, offline)."""
    umbrella, doom, cities = (SCENARIOS[n] for n in ("umbrella", "refund_doom_loop", "two_cities"))
    prompt = umbrella.messages()
    lisbon, porto = (f"call_1_{n}" for n in (1, 2))
    looping = [r.sent for r in doom.run(detector=None, closing_call=False).calls]
    cut = [*cities.messages(), _asks(lisbon, porto), _result(lisbon),
           UserMessage(content="And Faro?")]
    return {
        "umbrella, a correct run": [r.sent for r in umbrella.run().calls],
        "the stale list of section 1": [prompt, prompt, prompt],
        "two_cities, the thread cut after Lisbon's result": [cut],
        "the dropped request of section 3": [prompt, [*prompt, _result("call_1_1")]],
        "refund_doom_loop, no detector": looping,
        "a stale list with an orphan result": [prompt, [prompt[0], _result("call_1_1")]],
        "the doom loop's last list, sent twice": [looping[-1], looping[-1]],
    }


_LISTS = {
    "umbrella, a correct run": lambda: _runs()["umbrella, a correct run"][-1],
    "two_cities, cut after Lisbon's result": lambda: _runs()[
        "two_cities, the thread cut after Lisbon's result"][0],
    "a reply with two calls and no result yet": lambda: [*SCENARIOS["umbrella"].messages(),
                                                         _asks("call_a", "call_b")],
    "the dropped request of section 3, call 2": lambda: _runs()[
        "the dropped request of section 3"][1],
}
_OUT_OF_ORDER = {
    "a result before its call": [_result("call_x"), _asks("call_x")],
    "a result, then its call, then another result": [_result("call_x"), _asks("call_x"),
                                                     _result("call_x")],
}


def _same_on(cases, yours, reference, *, extra: str, missing: str):
    for case, messages in cases.items():
        listed = messages() if callable(messages) else messages
        if found := differs(case, reference(list(listed)), attempt(yours, list(listed)),
                            lambda want, got: _ids_hint(want, got, extra, missing)):
            return found
    return None


def _ids_hint(want, got, extra: str, missing: str) -> str:
    if isinstance(got, list) and any(not isinstance(item, str) for item in got):
        return ("yours returns whole messages; the reference only their ids (the strings in "
                "tool_call_id, or in each call's id)")
    return extra_and_missing(want, got, extra=extra, missing=missing,
                             order="the same ids in another order: keep the list's order")


@UNANSWERED.behaviour("finds the calls no result answers, in the order they were made")
def _finds_unanswered(yours, reference):
    return _same_on(_LISTS, yours, reference,
                    extra="though a result after it answers it (drop each id a tool message's "
                          "tool_call_id answers)",
                    missing="which no result after it answers (collect the ids of every "
                            "assistant message's tool_calls)")


@UNANSWERED.behaviour("does not count a result that comes before its call")
def _order_counts_for_calls(yours, reference):
    return _same_on(_OUT_OF_ORDER, yours, reference,
                    extra="which a later result answers",
                    missing="whose only result comes before the call: walk the list in order, "
                            "a result answers only a call made before it")


@ORPHANS.behaviour("finds the results whose call was never made")
def _finds_orphans(yours, reference):
    return _same_on(_LISTS, yours, reference,
                    extra="though an assistant message before it made that call",
                    missing="whose call no assistant message's tool_calls holds")


@ORPHANS.behaviour("does not count a call made after its result")
def _order_counts_for_results(yours, reference):
    return _same_on(_OUT_OF_ORDER, yours, reference,
                    extra="which no call before it answers",
                    missing="whose call comes only after it: walk the list in order, the call "
                            "must be in an assistant message before the result")


_SINGLE = ("umbrella, a correct run", "the stale list of section 1",
           "two_cities, the thread cut after Lisbon's result", "the dropped request of section 3",
           "refund_doom_loop, no detector")
_WHY = {
    "umbrella, a correct run": "each list is longer than the one before, every call has its "
                               "result after it, and no request repeats",
    "the stale list of section 1": "the three lists are the same two messages",
    "two_cities, the thread cut after Lisbon's result": "message 2 asks for two forecasts and "
                                                        "only Lisbon's result follows",
    "the dropped request of section 3": "call 2's list holds a result with no assistant "
                                        "message before it",
    "refund_doom_loop, no detector": "every list grows, and the last one asks for "
                                     "search_tickets('refund delay') again and again",
    "a stale list with an orphan result": "the second list is no longer than the first and "
                                          "holds an orphan result: the orphan comes first in "
                                          "the docstring's order",
    "the doom loop's last list, sent twice": "the same list twice is a stale list, which the "
                                             "docstring checks before a repeated request",
}


@DIAGNOSE.behaviour("names the symptom of each of the lesson's runs")
def _names_each(yours, reference):
    return _diagnoses(_SINGLE, yours, reference)


@DIAGNOSE.behaviour("when two symptoms show, names the first in the docstring's order")
def _first_wins(yours, reference):
    return _diagnoses(("a stale list with an orphan result",
                       "the doom loop's last list, sent twice"), yours, reference)


def _diagnoses(names, yours, reference):
    for name in names:
        sent = _runs()[name]
        want = reference([list(m) for m in sent])
        calls = f"{len(sent)} model call" + "s" * (len(sent) != 1)
        if found := differs(f"{name} (the lists of {calls})", want,
                            attempt(yours, [list(m) for m in sent]),
                            lambda want, got, name=name: (
                                f"yours says {got!r}, the reference {want!r}: {_WHY[name]}")):
            return found
    return None


RECENT = Piece("select_recent", lesson="04_reading_the_input",
               section="Choosing the window of a long thread", reference=select_recent)


@cache
def _thread() -> list[Message]:
    """Five runs on one thread: umbrella, two_cities, bench_press, umbrella, two_cities."""
    thread: list[Message] = [SystemMessage(content=TRAVEL)]
    for name in ("umbrella", "two_cities", "bench_press", "umbrella", "two_cities"):
        scenario = SCENARIOS[name]
        thread.append(UserMessage(content=scenario.user))
        thread = run(scenario.model(), scenario.tools(), thread).messages
    return thread


def _selects(yours, reference, limits, *, hint: str):
    thread = _thread()
    for limit in limits:
        want = reference(list(thread), limit)
        seen = attempt(yours, list(thread), limit)
        sizes = ("" if seen.error or not isinstance(seen.value, list) else
                 f"with limit {limit} yours sends {len(seen.value)} message(s), the reference "
                 f"{len(want)}; ")
        if found := same_messages(f"a thread of five runs ({len(thread)} messages), limit "
                                  f"{limit}", want, seen,
                                  hint=lambda index, mine, theirs, sizes=sizes: (
                                      f"{sizes}{message_difference(mine, theirs)}: {hint}")):
            return found
    return None


@RECENT.behaviour("keeps the system prompt and at most `limit` latest others")
def _keeps_latest(yours, reference):
    return _selects(yours, reference, (40, 20), hint="the system prompt first, then the latest "
                    "messages; start at a user message, so fewer than `limit` may be kept")


@RECENT.behaviour("never starts between a tool call and its result")
def _starts_at_a_user(yours, reference):
    return _selects(yours, reference, (12, 7, 6), hint="move the start forward to the first user "
                    "message in the window: a result without its call is refused, and so is a "
                    "thread that opens on the model's own message")


@RECENT.behaviour("keeps the run in progress whole when it alone is longer than `limit`")
def _keeps_active_turn(yours, reference):
    return _selects(yours, reference, (3, 1), hint="when the window holds no user message, keep "
                    "everything from the last user message on: the run in progress is never "
                    "cut")
