"""Lesson 01's pieces: the model keeps nothing, so a conversation is a list you send again.

`read_reply` reads the three things a reply carries (text, stop reason, usage). `ask` is the
first piece of the course: add the question to a copy of the conversation, send the whole list,
and return the conversation with the reply at its end. `ask_all` asks several questions on one
conversation, so each call resends everything said before.
"""

from __future__ import annotations

from copy import copy
from typing import Any

from course.compare import same, same_messages
from course.practice.engine import Piece, attempt
from course.practice.explain import differs, message_difference
from course.practice.runs import same_calls
from harness.messages import (
    AssistantMessage,
    Message,
    Model,
    Reply,
    StopReason,
    SystemMessage,
    ToolCall,
    Usage,
    UserMessage,
)
from offline.scripted import ScriptedModel, Step


def read_reply(reply: Reply) -> dict[str, Any]:
    """The facts of one reply: its text, its stop reason, and the tokens in and out.

    Returns {"text": ..., "stop_reason": ..., "input_tokens": ..., "output_tokens": ...}. The text
    is None when the reply holds none (a reply that only asks for a tool); the stop reason is the
    StopReason's `.value`, a string: "end_turn", "tool_use", "max_tokens", ...
    """
    return {"text": reply.message.content,
            "stop_reason": reply.stop_reason.value,
            "input_tokens": reply.usage.input_tokens,
            "output_tokens": reply.usage.output_tokens}


def ask(model: Model, conversation: list[Message], question: str) -> list[Message]:
    """Send the conversation plus `question` as a user message; return the longer list.

    The returned list is the conversation, then the question, then the model's reply. The list
    you were given is left as it was, because the caller may still need it unchanged.
    """
    sent = [*conversation, UserMessage(content=question)]
    reply = model.complete(sent)
    return [*sent, reply.message]


def ask_all(model: Model, system: str, questions: list[str]) -> list[Message]:
    """Ask each question in turn on one conversation that starts with the system prompt.

    Returns the whole conversation: the system message, then each question followed by the
    model's reply to it. Each call sends everything said before it, so a follow-up such as
    "And of Spain?" reaches the model with the question it follows.
    """
    conversation: list[Message] = [SystemMessage(content=system)]
    for question in questions:
        conversation = ask(model, conversation, question)
    return conversation


READ_REPLY = Piece("read_reply", lesson="01_messages", section="What a reply carries",
                   reference=read_reply)
ASK = Piece("ask", lesson="01_messages", section="The model keeps nothing", reference=ask)
ASK_ALL = Piece("ask_all", lesson="01_messages", section="Several questions, one conversation",
                reference=ask_all)

_SYSTEM = SystemMessage(content="You are a travel assistant. Use tools when you need facts.")
_CASES = {
    "a first question": ([_SYSTEM], "What is the capital of Portugal?"),
    "a follow-up": ([_SYSTEM, UserMessage(content="What is the capital of Portugal?"),
                     AssistantMessage(content="Lisbon.")], "And of Spain?"),
}
_FORECAST_CALL = ToolCall(id="toolu_01", name="get_forecast",
                          arguments={"city": "Lisbon", "day": "tomorrow"})
_REPLIES = {
    "an answer": Reply(message=AssistantMessage(content="Lisbon is the capital of Portugal."),
                       stop_reason=StopReason.END_TURN,
                       usage=Usage(input_tokens=96, output_tokens=9)),
    "a reply that only asks for a tool": Reply(
        message=AssistantMessage(tool_calls=[_FORECAST_CALL]), stop_reason=StopReason.TOOL_USE,
        usage=Usage(input_tokens=101, output_tokens=23, cached_input_tokens=64)),
    "a reply cut off by the token limit": Reply(
        message=AssistantMessage(content="Lisbon has a mild climate, with"),
        stop_reason=StopReason.MAX_TOKENS, usage=Usage(input_tokens=88, output_tokens=16)),
}
_THREADS = {
    "two questions": ["What is the capital of Portugal?", "And of Spain?"],
    "three questions": ["Pack for Lisbon?", "And for Porto?", "Which is rainier?"],
    "no question": [],
}


def _model() -> ScriptedModel:
    return ScriptedModel(lambda sent, number: Step.say(f"I was sent {len(sent)} messages."))


def _reads(*fields: tuple[str, Any]):
    """A probe comparing some fields of read_reply's result (key, hint(want, got)) on the
    lesson's replies."""
    def probe(yours, reference):
        for case, reply in _REPLIES.items():
            outcome = attempt(yours, reply)
            if outcome.error or not isinstance(outcome.value, dict):
                return same(case, reference(reply), outcome, hint="return a dict with the keys "
                            "text, stop_reason, input_tokens and output_tokens")
            for key, hint in fields:
                if found := differs(f"{case}, {key!r}", reference(reply)[key],
                                    outcome.value.get(key, "(missing)"),
                                    lambda want, got, hint=hint, reply=reply: hint(want, got,
                                                                                   reply)):
                    return found
        return None
    return probe


def _text_hint(want, got, reply) -> str:
    if want is None and got == "":
        return ("yours gives an empty string for a reply that holds no text; the reference None "
                "(reply.message.content as it is): no text and empty text are different facts")
    return f"yours reads {got!r}, the reference {want!r}: the text is reply.message.content"


def _stop_hint(want, got, reply) -> str:
    if isinstance(got, str) and got == reply.stop_reason.name:
        return (f"yours gives the member's .name, {got!r}; the reference its .value, {want!r}: "
                "use reply.stop_reason.value")
    return (f"yours says {got!r}, the reference {want!r}: the stop reason is "
            "reply.stop_reason.value")


def _tokens_hint(key: str):
    def hint(want, got, reply) -> str:
        usage = reply.usage
        if key == "input_tokens" and got == usage.input_tokens + usage.output_tokens:
            return (f"yours counts {got}, input and output together; the reference {want}, "
                    "reply.usage.input_tokens alone (cached tokens are already inside it)")
        if key == "input_tokens" and got == usage.input_tokens - usage.cached_input_tokens:
            return (f"yours counts {got}, the input without its cached part; the reference "
                    f"{want}: reply.usage.input_tokens already counts every input token")
        return f"yours counts {got}, the reference {want}: read reply.usage.{key}"
    return hint


READ_REPLY.behaviour("reads the text, and None when the reply has none")(_reads(
    ("text", _text_hint)))
READ_REPLY.behaviour("names the stop reason: end_turn, tool_use, max_tokens")(_reads(
    ("stop_reason", _stop_hint)))
READ_REPLY.behaviour("counts the tokens that went in and came out")(_reads(
    ("input_tokens", _tokens_hint("input_tokens")),
    ("output_tokens", _tokens_hint("output_tokens"))))


def _sent_alike(yours, reference, cases: dict[str, tuple], *, hint: str, count_hint: str):
    """Run both on each case's arguments, each with its own model; compare what they sent."""
    for case, arguments in cases.items():
        mine, theirs = _model(), _model()
        reference(mine, *[copy(value) for value in arguments])
        outcome = attempt(yours, theirs, *[copy(value) for value in arguments])
        if outcome.error:
            return same(case, "a list of messages", outcome, hint="the function raised")
        if found := same_calls(case, mine, theirs, hint=hint, count_hint=count_hint):
            return found
    return None


ASK.behaviour("sends the whole conversation and the question, once")(
    lambda yours, reference: _sent_alike(
        yours, reference, _CASES, count_hint="call model.complete exactly once",
        hint="the model keeps nothing between calls: send every earlier message, then the "
             "question as a user message"))


@ASK.behaviour("returns the conversation, the question and the reply, in that order")
def _returns_longer_list(yours, reference):
    for case, (conversation, question) in _CASES.items():
        want = reference(_model(), list(conversation), question)
        seen = attempt(yours, _model(), list(conversation), question)
        if found := same_messages(case, want, seen,
                                  hint=lambda index, mine, theirs, want=want: (
                                      f"{message_difference(mine, theirs)}: return the "
                                      "conversation, then the question, then reply.message (the "
                                      "whole assistant message) last")):
            return found
    return None


@ASK.behaviour("leaves the list it was given unchanged")
def _keeps_the_input(yours, reference):
    for case, (conversation, question) in _CASES.items():
        given = list(conversation)
        attempt(yours, _model(), given, question)
        if found := same_messages(f"{case}, the list you were given", conversation, given,
                                  hint=f"the caller's list had {len(conversation)} message(s) "
                                       f"and yours left it with {len(given)}: build a new list "
                                       "([*conversation, ...]) instead of appending to the "
                                       "caller's"):
            return found
    return None


ASK_ALL.behaviour("makes one model call per question, each sending everything said before")(
    lambda yours, reference: _sent_alike(
        yours, reference, {case: (_SYSTEM.content, questions)
                           for case, questions in _THREADS.items()},
        count_hint="one model call per question", hint="start from the system prompt and send "
        "every earlier question and reply again: the model keeps nothing between calls"))


@ASK_ALL.behaviour("returns the system prompt, then each question followed by its reply")
def _returns_the_thread(yours, reference):
    for case, questions in _THREADS.items():
        want = reference(_model(), _SYSTEM.content, list(questions))
        seen = attempt(yours, _model(), _SYSTEM.content, list(questions))
        if found := same_messages(case, want, seen, hint=lambda index, mine, theirs: (
                f"{message_difference(mine, theirs)}: the system message first (a "
                "SystemMessage), then question, reply, question, reply ...")):
            return found
    return None
