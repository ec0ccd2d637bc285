"""The offline stand-ins' exceptions, under the library's `HarnessError`.

    HarnessError (harness.errors)
     +-- NetworkBlocked       a real connection was attempted where only replay is allowed
     +-- ScriptError          the ScriptedModel was called in a way its script did not expect
     +-- ReplayMismatch       a request differs from the one recorded in the cassette
     +-- CassetteError        a cassette or scenario is missing, unreadable, or would be overwritten
"""

from __future__ import annotations

from harness.errors import HarnessError


class NetworkBlocked(HarnessError):
    """Raised by the network guard instead of opening a real connection."""


class ScriptError(HarnessError, AssertionError):
    """The scripted model got a call its script did not plan for (an AssertionError for tests)."""


class ReplayMismatch(HarnessError, AssertionError):
    """A replayed request does not match the recording; the message explains the difference."""


class CassetteError(HarnessError):
    """A cassette or scenario problem the user can fix; the message says how."""
