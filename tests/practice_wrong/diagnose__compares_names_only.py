# expect: yours says 'repeated request', the reference 'unanswered call'
# expect: only Lisbon's result follows
"""Skips the unanswered-call check, and calls two requests for the same tool a repeat even when
their arguments differ (Lisbon and Porto are two questions, not one asked twice)."""

from itertools import pairwise

from course.practice.lesson04 import orphan_results
from harness.messages import AssistantMessage


def diagnose(sent):
    if any(orphan_results(messages) for messages in sent):
        return "orphan result"
    if any(len(after) <= len(before) for before, after in pairwise(sent)):
        return "stale list"
    names = [c.name for m in sent[-1] if isinstance(m, AssistantMessage) for c in m.tool_calls]
    if len(names) != len(set(names)):
        return "repeated request"
    return "read the context"
