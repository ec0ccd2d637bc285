"""Every command of the class grader says what it does: `python -m grader --help` lists each with
a line, and each command's own --help describes it beyond its options."""

from __future__ import annotations

import subprocess
import sys

import pytest

from grader.__main__ import COMMANDS


def _help(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args, "--help"],
                          capture_output=True, text=True, timeout=120)


def test_the_grader_lists_its_commands_with_what_each_does():
    done = _help()
    assert done.returncode == 0, done.stderr
    for name, (_, what) in COMMANDS.items():
        assert name in done.stdout and what.split()[0] in done.stdout


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_describes_itself(command):
    done = _help(command)
    assert done.returncode == 0, done.stderr
    options = done.stdout.split("options:")[0]
    assert len(options.split()) > 60, done.stdout  # prose, not only the usage line
