"""Test-wide setup: the network guard is on for the whole session, so no test can reach out; and
under pytest-xdist (`make test` runs two workers) the tests that share expensive work run in one
worker: each module's tests together (module fixtures), and the modules that read the test run's
one graded class together (`classgrader.graded` grades it once per process)."""

import pytest

from harness import guard

SHARED = {"tests/classgrader/test_hostile.py": "graded class",
          "tests/classgrader/test_warnings.py": "graded class",
          "tests/test_exercises.py": "graded class"}
"""Modules that share one process's work, by the group that runs them."""


def pytest_sessionstart(session: pytest.Session) -> None:
    guard.install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    guard.uninstall()


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not any(item.iter_markers("xdist_group")):
            module = item.nodeid.split("::")[0]
            item.add_marker(pytest.mark.xdist_group(SHARED.get(module, module)))
