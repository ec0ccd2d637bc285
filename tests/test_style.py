"""House style that a test can watch: lint, module size, docstrings, the loop on one screen."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import harness.loop

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(p for package in ("harness", "grader") for p in (ROOT / package).rglob("*.py")
                 if p.name != "__main__.py")
HARNESS_BUDGET = 9_000  # lines: the library ~2,700, the checks ~3,800, the lessons' pieces ~2,300
"""Lines of harness/ students are asked to read (providers/ and emulator/ apart); README says it."""


def test_ruff_is_clean():
    found = subprocess.run([sys.executable, "-m", "ruff", "check", "harness", "grader", "tests",
                            "bench"],
                           cwd=ROOT, capture_output=True, text=True)
    assert found.returncode == 0, found.stdout + found.stderr


def test_every_module_says_what_it_does():
    missing = [str(p.relative_to(ROOT)) for p in MODULES
               if not ast.get_docstring(ast.parse(p.read_text()))]
    assert not missing, f"modules without a docstring: {missing}"


def test_modules_stay_small():
    # A guide from nanoGPT's size. An emulator module is one API's whole server side (its rules,
    # each with the real error text, reading and rendering) and may go over, up to 400.
    budget = {str(p.relative_to(ROOT)): 400 for p in MODULES if p.parent.name == "emulator"}
    big = {str(p.relative_to(ROOT)): n for p in MODULES
           if (n := len(p.read_text().splitlines())) > budget.get(str(p.relative_to(ROOT)), 300)}
    assert not big, f"modules over budget (lines): {big}"


def test_the_students_library_stays_within_its_budget():
    counted = [p for p in (ROOT / "harness").rglob("*.py")
               if not {"providers", "emulator"} & set(p.relative_to(ROOT / "harness").parts)]
    total = sum(len(p.read_text().splitlines()) for p in counted)
    assert total <= HARNESS_BUDGET, (
        f"harness/ (providers/ and emulator/ apart) is {total} lines, over {HARNESS_BUDGET}: "
        "move what students need not read (instructor tooling belongs in grader/)")
    assert f"{HARNESS_BUDGET:,} lines" in (ROOT / "README.md").read_text(), \
        "the README must state the same budget"


def test_the_loop_fits_on_one_screen():
    lines = inspect.getsource(harness.loop.run).splitlines()
    assert len(lines) <= 70, f"loop.run is {len(lines)} lines"
    assert len(Path(harness.loop.__file__).read_text().splitlines()) <= 150


def test_the_neutral_core_imports_no_wire_format():
    core = ["messages", "tools", "loop", "progress", "cost", "context", "trace", "scripted",
            "tokens", "scenarios", "errors", "guard"]
    for name in core:
        tree = ast.parse((ROOT / "harness" / f"{name}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not {m for m in imported if m and m.startswith(("harness.providers",
                                                                "harness.emulator"))}, name
