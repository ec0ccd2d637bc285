"""`WireError`: a request the emulated API rejects, carrying the real status and error body.

Validators raise it with a body already in the provider's error shape; the emulator sends it as
is, with any `headers` the real API adds to that answer (`retry-after` on a rate limit). It never
leaves the emulator: clients see an HTTP error response, as from the real API.
"""

from __future__ import annotations

from typing import Any


class WireError(Exception):
    """Example: `raise WireError(400, openai_chat.error_body(400, "invalid_request_error", m))`."""

    def __init__(self, status: int, body: dict[str, Any], *,
                 headers: dict[str, str] | None = None):
        self.status = status
        self.body = body
        self.headers = headers or {}
        super().__init__(f"HTTP {status}: {body}")
