"""Small comparison helpers shared by the checks: normalising messages and finding the first
difference between two lists. They say where two values differ, never why (each check's
diagnosis does that).
"""

from __future__ import annotations

from typing import Any

from course.exercises.report import Plain

END = Plain("(nothing: the list ends here)")


def dict_message(message: Any) -> Any:
    """A dict-form message with the optional keys filled in and unknown keys dropped, so that
    `{"role": "assistant", "content": None, "tool_calls": []}` and `{"role": "assistant"}` agree.
    """
    if not isinstance(message, dict):
        return message
    role = message.get("role")
    if role == "assistant":
        calls = message.get("tool_calls") or []
        if isinstance(calls, list):
            calls = [{key: call.get(key) for key in ("id", "name", "arguments")}
                     if isinstance(call, dict) else call for call in calls]
        return {"role": role, "content": message.get("content"), "tool_calls": calls}
    if role == "tool":
        return {"role": role, "tool_call_id": message.get("tool_call_id"),
                "content": message.get("content")}
    return {"role": role, "content": message.get("content")}


def first_difference(expected: list[Any], seen: list[Any]) -> int | None:
    """Index of the first position where the lists differ (length included), or None."""
    for index, (left, right) in enumerate(zip(expected, seen, strict=False)):
        if left != right:
            return index
    if len(expected) != len(seen):
        return min(len(expected), len(seen))
    return None


def at(items: list[Any], index: int) -> Any:
    return items[index] if index < len(items) else END
