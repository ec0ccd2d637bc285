"""The project's set-up files agree with each other."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pins(path: Path) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;]+)", path.read_text(), flags=re.M)
    return {name.lower(): version for name, version in found}


def conda_pins() -> dict[str, str]:
    found = re.findall(r"^\s+- ([A-Za-z0-9_.-]+)=([^\s=]+)\s*$", (ROOT / "environment.yml")
                       .read_text(), flags=re.M)
    return {name.lower(): version for name, version in found if name != "python"}


def test_environment_yml_pins_the_same_versions_as_the_lock():
    lock, conda = pins(ROOT / "requirements/lab.txt"), conda_pins()
    assert conda, "environment.yml lists no pinned packages"
    mismatched = {name: (version, lock.get(name)) for name, version in conda.items()
                  if lock.get(name) != version}
    assert not mismatched, f"environment.yml vs requirements/lab.txt (conda, lock): {mismatched}"


def test_every_direct_dependency_is_in_environment_yml():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["lab"]
    names = {re.split(r"[<>=\[ ]", spec)[0].lower() for spec in wanted}
    assert names <= set(conda_pins()), names - set(conda_pins())


def test_test_lock_agrees_with_the_lab_lock():
    lab, test = pins(ROOT / "requirements/lab.txt"), pins(ROOT / "requirements/test.txt")
    differ = {name: (v, test.get(name)) for name, v in lab.items() if test.get(name) != v}
    assert not differ, f"requirements/lab.txt vs requirements/test.txt: {differ}"


def test_ci_runs_the_readme_test_command():
    readme, ci = (ROOT / "README.md").read_text(), (ROOT / ".ci/run").read_text()
    assert "make test" in readme and "make test" in ci


def test_the_locks_leave_out_what_requirements_overrides_removes():
    # rfc3987-syntax costs every process that imports nbformat about 1 s (requirements/
    # overrides.txt says why); a lock compiled without the overrides brings it back.
    for lock in ("lab", "test"):
        text = (ROOT / f"requirements/{lock}.txt").read_text()
        assert "--override requirements/overrides.txt" in text.splitlines()[1], lock
        assert "rfc3987-syntax" not in pins(ROOT / f"requirements/{lock}.txt"), lock
