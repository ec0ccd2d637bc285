"""Test-wide setup: the network guard is on for the whole session, so no test can reach out; and
under pytest-xdist (`make test` runs two workers) the tests that share expensive work run in one
worker: each module's tests together (module fixtures), and the modules that read the test run's
one graded class together (`classgrader.graded` grades it once per process)."""

import pytest

from offline import guard

SHARED = {"tests/classgrader/test_hostile.py": "graded class",
          "tests/classgrader/test_warnings.py": "graded class",
          "tests/test_exercises.py": "graded class"}
"""Modules that share one process's work, by the name of the group that runs them."""


@pytest.hookimpl(trylast=True)  # after -m and -k have chosen: only what really runs counts
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A corpus submission that this run also grades end to end (tests/test_exercises.py: through
    the class grader and nbgrader, with the same assertions and its score besides) is not graded
    in-process too: tests/grading/test_corpus.py's case is for runs without the slow tests."""
    end_to_end = [i for i in items if getattr(i, "originalname", "") ==
                  "test_each_submission_scores_what_it_should"]
    if not end_to_end:
        return
    from classgrader import graded

    plan = graded.corpus_plan()
    graded_there = {(plan[i.callspec.params["student"]]["module"], i.callspec.params["exercise"])
                    for i in end_to_end}
    twice = [i for i in items if getattr(i, "originalname", "") ==
             "test_submission_loses_exactly_its_cells" and
             (i.callspec.params["name"], i.callspec.params["exercise"]) in graded_there]
    if twice:
        config.hook.pytest_deselected(items=twice)
        dropped = set(twice)
        items[:] = [i for i in items if i not in dropped]


def pytest_sessionstart(session: pytest.Session) -> None:
    guard.install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    guard.uninstall()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """xdist's scheduling by module, with the SHARED modules as one. (Not `--dist loadgroup`:
    pytest-xdist 3.8 marks groups in a node attribute that pytest 9 no longer reads.)"""
    from xdist.scheduler import LoadScopeScheduling

    class Shared(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            return SHARED.get(module, module)

    return Shared(config, log)
