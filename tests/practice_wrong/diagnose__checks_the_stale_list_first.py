# expect: yours says 'stale list', the reference 'orphan result'
"""Checks the symptoms in the wrong order: a stale list hides the orphan the API refuses."""

from itertools import pairwise

from course.practice.lesson04 import orphan_results, unanswered_calls
from harness.messages import AssistantMessage


def diagnose(sent):
    if any(len(after) <= len(before) for before, after in pairwise(sent)):
        return "stale list"
    if any(orphan_results(messages) for messages in sent):
        return "orphan result"
    if any(unanswered_calls(messages) for messages in sent):
        return "unanswered call"
    requests = [(c.name, c.arguments) for m in sent[-1] if isinstance(m, AssistantMessage)
                for c in m.tool_calls]
    if any(r in requests[:i] for i, r in enumerate(requests)):
        return "repeated request"
    return "read the context"
