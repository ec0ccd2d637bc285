"""Test-wide setup: the network guard is on for the whole session, so no test can reach out."""

import pytest

from harness import guard


def pytest_sessionstart(session: pytest.Session) -> None:
    guard.install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    guard.uninstall()
