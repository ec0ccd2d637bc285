"""Anthropic message threads: the conversation the server holds between turns, in memory.

A request with `"thread": {"type": "create"}` is answered as usual, and the conversation (its
system prompt, tools and messages, the reply included) is kept under the reply's `id`. A request
with `"thread": {"type": "continue", "previous_message_id": ...}` sends only the new messages and
no `system` or `tools`: `expand` rebuilds the whole request before it is checked and answered.
A thread expires `TTL` seconds after its last request; an unknown or expired one gets the 404 with
`error.details.error_code` "thread_not_found", on which the anthropic SDK sends the whole
conversation again. Each reply can be continued once. The real rules and error codes come from the
message-threads guide at platform.claude.com and the anthropic SDK's thread helper; the texts of
the errors are not on record and are ours (the SDK reads only the status and the code). This
module knows nothing of the other formats, and stores nothing on disk.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from offline.emulator import anthropic
from offline.emulator._errors import WireError

BETA = "message-threads-2026-08-12"
"""The `anthropic-beta` value a request with `thread` needs."""
TTL = 300.0
"""Seconds a thread lives after its last request (five minutes, as documented)."""
KEPT = ("system", "tools")
"""The fields a thread takes from its create request, and a continue request must leave out."""


@dataclass
class _Held:
    fields: dict[str, Any]
    messages: list[dict[str, Any]]
    last_used: float
    continued: bool = False


class Threads:
    """The threads one emulator holds, by the `id` of the reply each ends with.

    Example: `Threads().expand(body, headers)` is `body` itself for a request without `thread`.
    """

    def __init__(self, *, ttl: float = TTL, clock: Callable[[], float] = time.monotonic):
        self.ttl, self.clock = ttl, clock
        self._held: dict[str, _Held] = {}

    def forget(self) -> None:
        """Drop every thread, as the real API may at any time (threads are best-effort)."""
        self._held.clear()

    def expand(self, body: dict[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
        """The whole request `body` stands for: itself without `thread`, or for a continue
        request the thread's fields and messages followed by the new ones."""
        thread = body.get("thread")
        if thread is None:
            return body
        if BETA not in headers.get("anthropic-beta", ""):
            # The API's wording for any field it does not take (max_tokens_to_sample and others).
            raise _error(400, "thread: Extra inputs are not permitted")
        rest = {key: value for key, value in body.items() if key != "thread"}
        if not isinstance(thread, dict) or thread.get("type") not in ("create", "continue"):
            raise _error(400, "thread.type: Input should be 'create' or 'continue'")
        if thread["type"] == "create":
            return rest
        return self._continued(rest, thread.get("previous_message_id"))

    def _continued(self, rest: dict[str, Any], previous: Any) -> dict[str, Any]:
        for field in KEPT:
            if field in rest:  # our wording: the thread keeps the create request's values
                raise _error(400, f"{field}: not allowed with thread.type 'continue'; the "
                             "thread keeps the system prompt and tools of its create request")
        key = previous if isinstance(previous, str) else ""
        held = self._held.get(key)
        if held is None or self.clock() - held.last_used > self.ttl:
            self._held.pop(key, None)  # an expired thread is gone for good
            raise _error(404, f"thread.previous_message_id: no thread holds {previous}; send the "
                         "whole conversation with thread.type 'create'", code="thread_not_found")
        if held.continued:
            raise _error(400, f"thread.previous_message_id: {previous} has already been "
                         "continued; continue from the thread's latest reply",
                         code="thread_already_continued")
        messages = [*copy.deepcopy(held.messages), *(rest.get("messages") or [])]
        return {**held.fields, **rest, "messages": messages}

    def record(self, sent: dict[str, Any], whole: dict[str, Any], reply: dict[str, Any]) -> None:
        """Keep the conversation of an answered thread request (`sent` as it came, `whole` as
        `expand` made it) under the id of `reply`, the Message it got."""
        thread = sent.get("thread")
        if not isinstance(thread, dict) or not isinstance(reply.get("id"), str):
            return
        previous = self._held.get(thread.get("previous_message_id") or "")
        if previous is not None:
            previous.continued = True
        answer = {"role": "assistant", "content": copy.deepcopy(reply.get("content") or [])}
        self._held[reply["id"]] = _Held(
            fields={field: copy.deepcopy(whole[field]) for field in KEPT if field in whole},
            messages=[*copy.deepcopy(whole.get("messages") or []), answer],
            last_used=self.clock())


def _error(status: int, message: str, *, code: str | None = None) -> WireError:
    body = anthropic.error_body(status, "", message)
    if code:
        body["error"]["details"] = {"error_code": code}
    return WireError(status, body)
