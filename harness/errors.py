"""The library's exceptions.

    HarnessError
     +-- ProviderError        a provider (or the emulator) rejected a request: status, type,
                              message, and the wait it asked for (`retry_after`)

The offline stand-ins add theirs under `HarnessError` too (`offline.errors`). Tool failures are
not exceptions here: `harness.tools.execute` turns them into results.
"""

from __future__ import annotations


class HarnessError(Exception):
    """Base class for every error the kit raises on purpose."""


class ProviderError(HarnessError):
    """A provider answered with an error status; the loop ends with `Exit.ERROR`.

    `retry_after` is the wait in seconds the provider asked for (a `retry-after` header, or
    Gemini's `RetryInfo.retryDelay`), None when it gave none. The loop never waits or retries:
    a caller that retries reads it here, bounds the attempts and backs off.
    """

    def __init__(self, status: int, error_type: str, message: str, *, provider: str = "",
                 body: object = None, retry_after: float | None = None):
        self.status = status
        self.error_type = error_type
        self.message = message
        self.provider = provider
        self.body = body
        self.retry_after = retry_after
        where = f"{provider} " if provider else ""
        wait = f" (retry after {retry_after:g} s)" if retry_after is not None else ""
        super().__init__(f"{where}HTTP {status} {error_type}: {message}{wait}")
