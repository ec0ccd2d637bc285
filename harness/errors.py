"""The kit's exceptions, in one place.

    HarnessError
     +-- ProviderError        a provider (or the emulator) rejected a request: status, type,
                              message, and the wait it asked for (`retry_after`)
     +-- NetworkBlocked       a real connection was attempted where only replay is allowed
     +-- ScriptError          the ScriptedModel was called in a way its script did not expect
     +-- ReplayMismatch       a request differs from the one recorded in the cassette
     +-- CassetteError        a cassette or scenario is missing, unreadable, or would be overwritten

Tool failures are not exceptions here: `harness.tools.execute` turns them into results.
"""

from __future__ import annotations


class HarnessError(Exception):
    """Base class for every error the harness raises on purpose."""


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


class NetworkBlocked(HarnessError):
    """Raised by the network guard instead of opening a real connection."""


class ScriptError(HarnessError, AssertionError):
    """The scripted model got a call its script did not plan for (an AssertionError for tests)."""


class ReplayMismatch(HarnessError, AssertionError):
    """A replayed request does not match the recording; the message explains the difference."""


class CassetteError(HarnessError):
    """A cassette or scenario problem the user can fix; the message says how."""
