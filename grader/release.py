"""Regenerate `exercises/` from `solutions/` with the real `nbgrader generate_assignment`.

Run `python -m grader release` from the repository (or `make exercises`). The release is
built in a temporary course directory with the repository's `nbgrader_config.py`, so no gradebook
is left behind, then copied over `exercises/`. `--check` builds it and only reports the
assignments whose committed release differs (exit status 1), for tests and CI. This module does
not grade anything.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = "solutions"
RELEASE = "exercises"


def assignments(root: Path = ROOT) -> list[str]:
    """The assignment folders under solutions/, in order."""
    return sorted(p.name for p in (root / SOURCE).iterdir()
                  if p.is_dir() and not p.name.startswith("."))


def nbgrader_env() -> dict[str, str]:
    """The environment for nbgrader: this Python's bin first on PATH (nbgrader runs `alembic`
    by name), and the repository importable by the kernels it starts."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def nbgrader(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the nbgrader CLI of this environment in `cwd`; raise with its log when it fails."""
    command = [str(Path(sys.executable).parent / "nbgrader"), *args]
    done = subprocess.run(command, cwd=cwd, env=nbgrader_env(), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n"
                           f"{done.stdout}\n{done.stderr}")
    return done


def build(names: Sequence[str], into: Path, *, root: Path = ROOT) -> Path:
    """Generate the release of `names` in a course made under `into`; return its exercises/."""
    shutil.copy(root / "nbgrader_config.py", into / "nbgrader_config.py")
    for name in names:
        shutil.copytree(root / SOURCE / name, into / SOURCE / name,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    # One command for all of them: nbgrader takes a glob, and each start costs seconds.
    nbgrader("generate_assignment", "*", "--force", cwd=into)
    return into / RELEASE


def differences(left: Path, right: Path) -> list[str]:
    """Files that differ between two release trees, or exist in only one of them."""
    if not right.exists():
        return [str(right)]
    comparison = filecmp.dircmp(left, right)
    found = [str(right / name) for name in
             comparison.left_only + comparison.right_only + comparison.diff_files]
    found += [str(right / name) for name in comparison.common_files
              if not filecmp.cmp(left / name, right / name, shallow=False)
              and str(right / name) not in found]
    for sub in comparison.common_dirs:
        found += differences(left / sub, right / sub)
    return found


def out_of_date(built: Path, names: Sequence[str]) -> list[str]:
    """The assignments whose committed release differs from the release `built` (by `build`)."""
    return [name for name in names if differences(built / name, ROOT / RELEASE / name)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader release",
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     description=__doc__)
    parser.add_argument("names", nargs="*", help="assignments (default: all of solutions/)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing: list each assignment whose exercises/ differs "
                             "from what solutions/ generates, and exit 1 if any does (for CI)")
    options = parser.parse_args(argv)
    names = options.names or assignments()
    with tempfile.TemporaryDirectory(prefix="release-") as temporary:
        built = build(names, Path(temporary))
        stale = out_of_date(built, names)
        if options.check:
            for name in stale:
                print(f"{RELEASE}/{name} is out of date: run python -m grader release")
            return 1 if stale else 0
        for name in names:
            target = ROOT / RELEASE / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(built / name, target)
            print(f"{RELEASE}/{name}: {'updated' if name in stale else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
