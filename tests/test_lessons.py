"""The lessons: committed clean, shaped as the house style says, and runnable top to bottom.

Every lesson is executed in a fresh kernel (nbclient) once per provider setting, offline: each
lesson's setup cell installs the network guard, API keys are removed from the kernel's
environment, and a cell appended here checks that the guard really was on. A run fails on any
error output or anything written to stderr. The executions run a few at a time, in one
session-wide pass over the tests that were selected, since most of their time is kernel start.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import re
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
from nbclient import NotebookClient

from course.practice import pieces, with_answers
from harness.providers import PROVIDERS
from harness.providers.catalog import KEY_VARIABLES

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
LESSONS = sorted(LESSONS_DIR.glob("*.ipynb"))
# File names are contracts: exercise hints and the README point at them.
EXPECTED = ["01_messages", "02_one_tool", "03_the_loop", "04_reading_the_input", "05_stopping",
            "06_cost", "07_no_progress", "08_errors", "09_parallel_tools", "10_four_providers",
            "11_traces", "12_live", "13_hooks"]
PROVIDER_LINE = 'PROVIDER = os.environ.get("AGENT_LOOP_KIT_PROVIDER", "anthropic")'
GUARD_CHECK = "from offline import guard as _guard\nassert _guard.is_active(), 'network guard off'"
CELL_TIMEOUT = 120  # seconds; a whole lesson takes a few
BLANK, ANSWERED = "blank", "answered"
CHECK_CELL = re.compile(r"^(\w+) = check\(\1\)$", flags=re.M)
CHARTS = {"06_cost": 2, "09_parallel_tools": 2, "11_traces": 1}  # SVG outputs; others draw none
# What would make a chart run code or ask the network: a URL (the namespace is parsed away).
REFERENCE = re.compile(r"(?:https?:|file:)?//\S+|@import|url\(\s*['\"]?[^#'\"\s]")
# Lesson 12 records into the learner's folder: in the suite, a scratch one (never lessons/my_runs).
LEARNER_RUNS = tempfile.mkdtemp(prefix="agent-loop-kit-my_runs-")
atexit.register(shutil.rmtree, LEARNER_RUNS, ignore_errors=True)


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _code(notebook: nbformat.NotebookNode) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


SHUTDOWN = "immediate"
"""Every output is in when the last cell has replied; a graceful shutdown waits for the kernel to
exit, and jupyter_client gives one that lingers 2.5 s before it sends SIGTERM."""


def kernel_env(provider: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in KEY_VARIABLES}
    env["AGENT_LOOP_KIT_PROVIDER"] = provider
    env["AGENT_LOOP_KIT_RUNS"] = LEARNER_RUNS
    env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
    return env


async def execute(path: Path, provider: str, mode: str = BLANK
                  ) -> tuple[nbformat.NotebookNode, float]:
    """Run a copy of the lesson in a fresh kernel started in lessons/, as a learner would:
    as committed (`BLANK`: every piece unwritten) or with every worked answer filled in."""
    notebook = {BLANK: _read, ANSWERED: lambda p: with_answers(_read(p)),
                SYNTAX_ERROR: lambda p: with_a_syntax_error(_read(p))}[mode](path)
    notebook.cells.append(nbformat.v4.new_code_cell(GUARD_CHECK))
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            allow_errors=True, resources={"metadata": {"path": str(path.parent)}},
                            shutdown_kernel=SHUTDOWN)
    started = time.perf_counter()
    await client.async_execute(env=kernel_env(provider))
    return notebook, time.perf_counter() - started


def with_a_syntax_error(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The lesson with its first your-turn cell broken as a student might break it: a colon
    missing after the signature."""
    cell = next(c for c in notebook.cells if "your-turn" in c.metadata.get("tags", []))
    cell.source = re.sub(r"^(def .*):$", r"\1", cell.source, count=1, flags=re.M)
    return notebook


async def execute_all(runs: list[tuple[Path, str, str]], *, at_once: int) -> list[object]:
    """Execute several lessons concurrently (kernel start dominates); exceptions are returned."""
    gate = asyncio.Semaphore(at_once)

    async def one(run: tuple[Path, str, str]) -> tuple[nbformat.NotebookNode, float]:
        async with gate:
            return await execute(*run)

    return await asyncio.gather(*(one(run) for run in runs), return_exceptions=True)


def problems(notebook: nbformat.NotebookNode) -> list[str]:
    """Every error output and every stderr stream, with the cell it came from."""
    found = []
    for number, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                found.append(f"cell {number} ({cell.source.splitlines()[0][:60]!r}): "
                             f"{output.ename}: {output.evalue}")
            elif output.output_type == "stream" and output.name == "stderr":
                found.append(f"cell {number}: stderr: {output.text[:300]}")
    return found


# ---- committed state and shape --------------------------------------------------------------

def test_the_lessons_are_the_ones_the_exercises_point_at():
    assert [path.stem for path in LESSONS] == EXPECTED


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_committed_without_outputs(path):
    notebook = _read(path)
    nbformat.validate(notebook)
    assert notebook.metadata.kernelspec.name == "python3"
    dirty = [number for number, cell in enumerate(notebook.cells) if cell.cell_type == "code"
             and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, f"{path.name}: cells with outputs or execution counts: {dirty}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_follows_the_house_style(path):
    notebook = _read(path)
    markdown = sum(cell.cell_type == "markdown" for cell in notebook.cells)
    assert 2 * markdown >= len(notebook.cells), f"{path.name}: {markdown} of " \
                                                f"{len(notebook.cells)} cells are markdown"
    assert notebook.cells[0].cell_type == "markdown" and notebook.cells[0].source.startswith("# ")
    versions, setup, *_, last = _code(notebook)
    assert "version(" in versions, "the first code cell prints versions"
    assert PROVIDER_LINE in setup and "guard.install()" in setup, \
        "the second code cell reads PROVIDER and installs the network guard"
    assert all(name in setup for name in PROVIDERS), "the setup cell lists the four providers"
    assert "inspect.getsource" in last, "the last code cell shows the matching harness module"
    questions = notebook.cells[-1].source
    assert questions.startswith("## Check yourself")
    assert 2 <= questions.count("<details><summary>") <= 3


def test_later_lessons_import_earlier_work_instead_of_copying_it():
    # Each lesson's pieces are built there under their own names, and so is worked code.
    built = {name: piece.lesson for name, piece in pieces().items()} | {
        "batches_of": "09_parallel_tools", "sends": "06_cost"}
    for path in LESSONS:
        source = "\n".join(_code(_read(path)))
        for name, home in built.items():
            if path.stem != home:
                assert not re.search(rf"^def {name}\(", source, re.M), f"{path.name} copies {name}"


def test_the_readme_links_every_lesson():
    readme = ROOT / "README.md"
    if not readme.exists():
        pytest.skip("README.md is not written yet; its lesson table must link every lesson")
    text = readme.read_text()
    missing = [path.name for path in LESSONS if f"lessons/{path.name}" not in text]
    assert not missing, f"README.md does not link: {missing}"


# ---- execution --------------------------------------------------------------------------------

# As committed on every provider; with the answers filled in on one (the pieces are neutral).
# Lesson 12 (live, no pieces) has its own runs below: no key, and a fake key on loopback.
OFFLINE = [path for path in LESSONS if path.stem != "12_live"]
SYNTAX_ERROR = "syntax_error"
RUNS = [(path, provider, BLANK) for path in OFFLINE for provider in PROVIDERS] + [
    (path, "anthropic", ANSWERED) for path in OFFLINE] + [
    (LESSONS_DIR / "01_messages.ipynb", "anthropic", SYNTAX_ERROR)]


@pytest.fixture(scope="session")
def executed(request):
    """Execute every (lesson, provider, mode) the session selected, a few kernels at a time."""
    wanted = [item.callspec.params["run"] for item in request.session.items
              if item.originalname == "test_lesson_runs_offline" and hasattr(item, "callspec")]
    at_once = max(2, min(4, os.cpu_count() or 2))
    return dict(zip(wanted, asyncio.run(execute_all(wanted, at_once=at_once)), strict=True))


def charts(notebook: nbformat.NotebookNode) -> list[str]:
    """Every SVG output of an executed lesson: its pygal charts, shown with `plain_svg`."""
    return [output.data["image/svg+xml"] for cell in notebook.cells
            for output in cell.get("outputs", []) if "image/svg+xml" in output.get("data", {})]


def outside_references(svg: str) -> list[str]:
    """Scripts, embedded documents and references to other files or the network in one SVG."""
    root = ElementTree.fromstring(svg)
    found = [element.tag for element in root.iter()
             if element.tag.rpartition("}")[2] in {"script", "foreignObject", "image", "iframe"}]
    for element in root.iter():
        for value in [element.text or "", *element.attrib.values()]:
            found += REFERENCE.findall(value)
    return found


def check_outputs(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """What each your-turn check printed, by piece name."""
    return {match.group(1): "".join(o.get("text", "") for o in cell.get("outputs", []))
            for cell in notebook.cells if cell.cell_type == "code"
            for match in [CHECK_CELL.search(cell.source)] if match}


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS, ids=[f"{p.stem}-{provider}-{mode}"
                                           for p, provider, mode in RUNS])
def test_lesson_runs_offline(run, executed):
    if isinstance(executed[run], BaseException):
        raise executed[run]  # the kernel died or a cell timed out
    path, provider, mode = run
    notebook, seconds = executed[run]
    found = problems(notebook)
    assert not found, f"{path.name} with {provider}, {mode}:\n" + "\n".join(found)
    assert seconds < 60, f"{path.name} took {seconds:.1f} s"
    drawn = charts(notebook)
    assert len(drawn) == CHARTS.get(path.stem, 0), f"{path.name} drew {len(drawn)} charts"
    for number, chart in enumerate(drawn, start=1):  # shown the same in JupyterLab and the site
        assert chart.startswith("<svg") and 'width="' in chart, f"chart {number}: {chart[:200]}"
        assert not outside_references(chart), (number, outside_references(chart))
    checks = check_outputs(notebook)
    if mode == SYNTAX_ERROR:  # reported in one line, and the lesson runs on to its end
        broken = next(c for c in notebook.cells if "your-turn" in c.metadata.get("tags", []))
        said = "".join(o.get("text", "") for o in broken.outputs)
        assert said.startswith("[syntax error] line ") and said.count("\n") == 1, said
        first = next(iter(checks))
        assert "has a syntax error" in checks[first] and checks[first].count("\n") == 1
    for name, printed in checks.items():
        if mode in (BLANK, SYNTAX_ERROR):  # never stuck: one line, the lesson goes on
            assert printed.startswith("[not yet]") and printed.count("\n") == 1, (name, printed)
        else:
            assert printed.startswith("[ok]") and "[differs]" not in printed, (name, printed)


# ---- lesson 12 with and without a key -------------------------------------------------------

LIVE_KEY = "sk-lesson-12-fake-key-0123456789"  # accepted by the emulator below, by nobody else


def _repository_state() -> str:
    """What git sees (tracked changes, untracked files) plus the learner folder's default files."""
    status = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    learner = [LESSONS_DIR / "my_runs", ROOT / "my_work" / "lessons" / "my_runs"]
    return status + "\n".join(sorted(str(p) for folder in learner for p in folder.rglob("*")))


@pytest.mark.slow
@pytest.mark.parametrize("provider, key", [("anthropic", False)] + [
    (provider, True) for provider in PROVIDERS], ids=lambda v: v if isinstance(v, str) else (
        "fake_key" if v else "no_key"))
def test_lesson_12_runs_live_on_the_emulator_and_records_only_into_the_learners_folder(
        provider, key, tmp_path):
    """No key: the lesson serves the emulator itself. A fake key: the emulator on loopback is
    the provider's host (base-URL override), and the lesson takes the live path to it."""
    from course import live
    from harness import providers
    from offline.emulator import Emulator, serve

    before, emulator = _repository_state(), Emulator(live.stand_in(), api_key=LIVE_KEY)
    notebook = _read(LESSONS_DIR / "12_live.ipynb")
    notebook.cells.append(nbformat.v4.new_code_cell(GUARD_CHECK))
    env = kernel_env(provider) | {"AGENT_LOOP_KIT_RUNS": str(tmp_path)}
    with serve(emulator) as url:
        if key:
            real = providers.PROVIDERS[provider].base_url
            env |= {providers.PROVIDERS[provider].key_variables[0]: LIVE_KEY,
                    live.BASE_URL_VARIABLE: url + urlsplit(real).path}
        client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                                allow_errors=True, shutdown_kernel=SHUTDOWN,
                                resources={"metadata": {"path": str(LESSONS_DIR)}})
        asyncio.run(client.async_execute(env=env))
    found = problems(notebook)
    assert not found, f"12_live with {provider}:\n" + "\n".join(found)
    said = "".join(o.get("text", "") for cell in notebook.cells for o in cell.get("outputs", []))
    assert ("Live: " + provider if key else "No API key") in said
    if key:  # four runs of two model calls or more reached the "real" host
        assert len(emulator.exchanges) >= 8
        assert {exchange.status for exchange in emulator.exchanges} == {200}  # the key passed
    else:  # the lesson served its own emulator
        assert not emulator.exchanges
    recorded = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*") if path.is_file())
    assert [(path.parent.name, path.stem.split("-", 2)[-1]) for path in recorded] == [
        (provider, "again-1"), (provider, "again-2"), (provider, "reference"), (provider, "yours")]
    assert not any(LIVE_KEY in (tmp_path / path).read_text() for path in recorded)
    assert _repository_state() == before, "lesson 12 wrote outside the learner's folder"
