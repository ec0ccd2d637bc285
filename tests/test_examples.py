"""Every `Example:` in a docstring of the library, the stand-ins and the course runs as written."""

import doctest
import importlib
import pkgutil

import pytest

import course
import harness
import offline

MODULES = sorted(info.name for package in (harness, offline, course)
                 for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                 if not info.name.endswith("__main__")) + ["harness", "offline", "course"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    found = doctest.testmod(module, report=False, optionflags=doctest.ELLIPSIS)
    assert found.failed == 0, f"{found.failed} of {found.attempted} examples in {name} failed"
