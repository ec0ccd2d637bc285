"""Lesson 01's pieces: the model keeps nothing, so a conversation is a list you send again.

`ask` is the first piece of the course: add the question to a copy of the conversation, send the
whole list, and return the conversation with the reply at its end.
"""

from __future__ import annotations

from harness.messages import AssistantMessage, Message, Model, SystemMessage, UserMessage
from harness.practice.engine import Piece, attempt, same, same_messages
from harness.scripted import ScriptedModel, Step


def ask(model: Model, conversation: list[Message], question: str) -> list[Message]:
    """Send the conversation plus `question` as a user message; return the longer list.

    The returned list is the conversation, then the question, then the model's reply. The list
    you were given is left as it was, because the caller may still need it unchanged.
    """
    sent = [*conversation, UserMessage(content=question)]
    reply = model.complete(sent)
    return [*sent, reply.message]


ASK = Piece("ask", lesson="01_messages", section="One call", reference=ask)

_SYSTEM = SystemMessage(content="You are a travel assistant. Use tools when you need facts.")
_CASES = {
    "a first question": ([_SYSTEM], "What is the capital of Portugal?"),
    "a follow-up": ([_SYSTEM, UserMessage(content="What is the capital of Portugal?"),
                     AssistantMessage(content="Lisbon.")], "And of Spain?"),
}


def _model() -> ScriptedModel:
    return ScriptedModel(lambda sent, number: Step.say(f"I was sent {len(sent)} messages."))


@ASK.behaviour("sends the whole conversation and the question, once")
def _sends_everything(yours, reference):
    for case, (conversation, question) in _CASES.items():
        mine, theirs = _model(), _model()
        reference(mine, list(conversation), question)
        outcome = attempt(yours, theirs, list(conversation), question)
        if outcome.error:
            return same(case, "a list of messages", outcome, hint="the function raised")
        if found := same(f"{case}, number of model calls", len(mine.requests),
                         len(theirs.requests), hint="call model.complete exactly once"):
            return found
        if found := same_messages(f"{case}, call 1", mine.requests[0].messages,
                                  theirs.requests[0].messages,
                                  hint="the model keeps nothing between calls: send every "
                                       "earlier message, then the question as a user message"):
            return found
    return None


@ASK.behaviour("returns the conversation, the question and the reply, in that order")
def _returns_longer_list(yours, reference):
    for case, (conversation, question) in _CASES.items():
        want = reference(_model(), list(conversation), question)
        seen = attempt(yours, _model(), list(conversation), question)
        if found := same_messages(case, want, seen,
                                  hint=lambda index, mine, theirs, want=want: (
                                      "the reply goes last: append reply.message, the whole "
                                      "assistant message" if index == len(want) - 1 else
                                      "keep every earlier message, in order")):
            return found
    return None


@ASK.behaviour("leaves the list it was given unchanged")
def _keeps_the_input(yours, reference):
    for case, (conversation, question) in _CASES.items():
        given = list(conversation)
        attempt(yours, _model(), given, question)
        if found := same_messages(f"{case}, the list you were given", conversation, given,
                                  hint="build a new list ([*conversation, ...]) instead of "
                                       "appending to the caller's"):
            return found
    return None
