"""The lessons' your-turn pieces: each check bites, each answer passes, nothing graded leaks.

In-process and fast: the pieces' checks run here without a kernel (the lessons test runs them in
notebooks, blank and with the answers filled in). Every piece must have a your-turn cell and a
check cell in its lesson, a section that explains it, a worked answer in lessons/answers/ that is
in sync with the reference, and at least one typical wrong version in tests/practice_wrong/
(`<piece>__<what is wrong>.py`) that its check catches.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import io
import re
from pathlib import Path

import nbformat
import pytest

from course.practice import answer, check, pieces

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
WRONG = Path(__file__).resolve().parent / "practice_wrong"
PIECES = pieces()
YOUR_TURN = "your-turn"

# Which graded exercise is taken after which lesson (its last paired lesson in the README), and
# the reference functions whose bodies it grades. Before that lesson, no lesson and no worked
# answer may hold such a body, and no lesson may print its source.
GRADED_AFTER = {
    "01_message_ordering": ("10", ["course.exercises.reference.append_round",
                                   "course.exercises.reference.to_anthropic",
                                   "harness.providers.anthropic._map_message",
                                   "harness.providers.anthropic._map_messages",
                                   "harness.providers.anthropic._add_to_user"]),
    "02_early_exit": ("05", ["course.exercises.reference.run_loop", "harness.loop.run",
                             "harness.loop._close"]),
    "03_no_progress": ("07", ["harness.progress.call_key",
                              "harness.progress.NoProgressDetector.observe",
                              "harness.progress.NoProgressDetector._fills_window_with_cycle"]),
    "04_cost": ("06", ["harness.cost.cumulative_input", "harness.cost.first_turn_over_budget",
                       "harness.cost.run_cost"]),
    "05_capstone": ("11", ["harness.loop.run", "harness.loop._close",
                           "course.exercises.reference.summarize_exits",
                           "harness.tools.run_calls", "harness.trace.summarize",
                           "harness.trace._most_called"]),
}
ALIKE = 0.8  # normalised-tree similarity from which a body counts as the graded one


def _run_check(function) -> tuple[str, object]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        used = check(function)
    return printed.getvalue(), used


def _define(source: str, name: str):
    namespace: dict[str, object] = {}
    exec(compile(source, f"<{name}>", "exec"), namespace)  # noqa: S102 - our own files
    return namespace[name]


def _blank(name: str):
    return _define(f"def {name}(*args, **kwargs):\n    raise NotImplementedError()\n", name)


def _notebook(lesson: str) -> nbformat.NotebookNode:
    return nbformat.read(LESSONS / f"{lesson}.ipynb", as_version=4)


@pytest.mark.parametrize("name", sorted(PIECES))
def test_check_finds_the_piece_by_reading_its_module_only(name):
    # `check` imports just the module whose source holds `Piece("name"`: keep that spelling.
    homes = [path.stem for path in (ROOT / "course" / "practice").glob("lesson*.py")
             if f'Piece("{name}"' in path.read_text()]
    assert [home.split("_")[0] for home in homes] == [f"lesson{PIECES[name].lesson[:2]}"], homes


def test_there_are_enough_pieces_and_every_lesson_has_some():
    lessons = {piece.lesson for piece in PIECES.values()}
    assert len(PIECES) >= 25, f"only {len(PIECES)} pieces in the course"
    expected = {path.stem for path in LESSONS.glob("[01][0-9]_*.ipynb")} - {"12_live"}
    assert expected <= lessons, f"lessons without a piece: {sorted(expected - lessons)}"


@pytest.mark.parametrize("name", sorted(PIECES))
def test_a_blank_piece_says_so_in_one_line_and_hands_over_the_reference(name):
    printed, used = _run_check(_blank(name))
    assert printed.startswith("[not yet]") and printed.count("\n") == 1, printed
    assert used is PIECES[name].reference


@pytest.mark.parametrize("name", sorted(PIECES))
def test_the_worked_answer_passes_every_behaviour_and_is_in_sync(name):
    piece = PIECES[name]
    path = LESSONS / piece.answer_file
    assert path.exists(), f"{path} missing: run `make answers`"
    assert path.read_text() == answer(name), f"{path} is stale: run `make answers`"
    function = _define(path.read_text(), name)
    printed, used = _run_check(function)
    assert used is function, printed
    assert printed.count("[ok]") == len(piece.behaviours) >= 2, printed


WRONG_FILES = sorted(WRONG.glob("*.py"))


def _expected(path: Path) -> list[str]:
    """The `# expect: ...` lines at the top of a wrong version: what its hint must say."""
    return [line.removeprefix("# expect:").strip() for line in path.read_text().splitlines()
            if line.startswith("# expect:")]


def _first_divergence(printed: str) -> str:
    """The behaviour a check printed `[differs]` for."""
    found = re.search(r"^\[differs\] \w+: (.+)$", printed, flags=re.M)
    return found.group(1) if found else ""


@pytest.mark.parametrize("path", WRONG_FILES, ids=[p.stem for p in WRONG_FILES])
def test_a_typical_wrong_version_is_caught_and_its_hint_names_the_mistake(path):
    # Each wrong version says, in `# expect:` lines, what its hint must tell the student: what
    # this version did, next to what the reference did (counts, the values that differ).
    name = path.stem.split("__")[0]
    printed, used = _run_check(_define(path.read_text(), name))
    assert used is PIECES[name].reference, f"{path.name} passed:\n{printed}"
    assert "[differs]" in printed and "reference:" in printed and "yours:" in printed, printed
    assert f'Reread "{PIECES[name].section}"' in printed
    expected = _expected(path)
    assert expected, f"{path.name}: say what its hint must name, in a `# expect: ...` line"
    hint = printed.split("Hint:", 1)[-1]
    for fragment in expected:
        assert fragment.lower() in hint.lower(), \
            f"{path.name}: the hint does not say {fragment!r}:\n{printed}"


def test_every_behaviour_of_every_piece_has_a_wrong_version_it_catches_first():
    # One wrong version per message: each behaviour's hint is seen by at least one version.
    caught = set()
    for path in WRONG_FILES:
        name = path.stem.split("__")[0]
        printed, _ = _run_check(_define(path.read_text(), name))
        caught.add((name, _first_divergence(printed)))
    missing = [f"{name}: {behaviour.says}" for name, piece in sorted(PIECES.items())
               for behaviour in piece.behaviours if (name, behaviour.says) not in caught]
    assert not missing, "behaviours no wrong version in tests/practice_wrong/ fails first:\n" + \
        "\n".join(missing)


@pytest.mark.parametrize("name", sorted(PIECES))
def test_the_lesson_asks_for_the_piece_checks_it_and_explains_it(name):
    piece = PIECES[name]
    cells = _notebook(piece.lesson).cells
    turns = [c for c in cells if YOUR_TURN in c.metadata.get("tags", [])
             and re.search(rf"^(?:def|class) {name}\b", c.source, flags=re.M)]
    assert len(turns) == 1, f"{piece.lesson}: one your-turn cell (tag {YOUR_TURN!r}) defines {name}"
    assert "raise NotImplementedError()" in turns[0].source
    position = cells.index(turns[0])
    assert any(f"{name} = check({name})" in c.source for c in cells[position + 1:]), \
        f"{piece.lesson}: no `{name} = check({name})` after the your-turn cell"
    headings = [line.lstrip("#").strip() for c in cells[:position + 1] if c.cell_type == "markdown"
                for line in c.source.splitlines() if line.startswith("#")]
    assert piece.section in headings, f"{piece.lesson}: no heading {piece.section!r} before {name}"


def _graded_before(lesson: str) -> dict[str, str]:
    """Graded reference functions (qualified name -> exercise) whose exercise comes later."""
    return {qualified: exercise for exercise, (after, names) in GRADED_AFTER.items()
            if lesson[:2] <= after for qualified in names}


def _resolve(qualified: str):
    module, _, rest = qualified.partition(".")
    target = importlib.import_module(module)
    for part in rest.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            target = importlib.import_module(f"{target.__name__}.{part}")
    return target


def _tokens(source: str) -> dict[str, list[str]]:
    from grader.copies import tokens

    python = re.sub(r"^\s*%.*$", "", source, flags=re.M)  # IPython's magics are not Python
    return {node.name: tokens(node) for node in ast.walk(ast.parse(python))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def _graded_tokens() -> dict[str, list[str]]:
    from grader.copies import tokens

    found = {}
    for _, names in GRADED_AFTER.values():
        for qualified in names:
            source = inspect.cleandoc("\n" + inspect.getsource(_resolve(qualified)))
            found[qualified] = tokens(ast.parse(source).body[0])
    return found


def _aliases(source: str) -> dict[str, list[str]]:
    """What each name a lesson imports stands for: `from harness import trace` makes `trace`
    harness.trace; `adapter = importlib.import_module(f"harness.providers.{PROVIDER}")` makes
    `adapter` any of the four adapters."""
    from harness.providers import PROVIDERS

    found: dict[str, list[str]] = {}
    for line in source.splitlines():
        if imported := re.match(r"\s*from ([\w.]+) import (.+)$", line):
            for part in imported.group(2).split(","):
                name, _, alias = part.strip().partition(" as ")
                found[(alias or name).strip()] = [f"{imported.group(1)}.{name.strip()}"]
        elif imported := re.match(r"\s*import ([\w.]+)(?: as (\w+))?$", line):
            found[imported.group(2) or imported.group(1)] = [imported.group(1)]
        elif dynamic := re.match(r"\s*(\w+) = importlib\.import_module\(f\"([\w.]+)\.\{", line):
            found[dynamic.group(1)] = [f"{dynamic.group(2)}.{name}" for name in PROVIDERS]
    return found


def _resolved(shown: str, aliases: dict[str, list[str]]) -> list[str]:
    head, _, rest = shown.partition(".")
    return [f"{full}.{rest}" if rest else full for full in aliases.get(head, [head])]


def _holds(shown: str, qualified: str) -> bool:
    """Whether printing `shown`'s source prints `qualified`'s: the same object, a class around
    the method, or the module the function is written in (a package's __init__ holds only its
    own code, not its submodules')."""
    if shown == qualified:
        return True
    try:
        target = _resolve(shown)
    except (ImportError, AttributeError):
        return False
    if inspect.ismodule(target):
        return inspect.unwrap(_resolve(qualified)).__module__ == target.__name__
    return qualified.startswith(shown + ".")


def test_the_graded_body_check_sees_through_imports_and_dynamic_modules():
    aliases = _aliases("from harness import trace\nimport harness.tools\n"
                       "adapter = importlib.import_module(f\"harness.providers.{PROVIDER}\")\n")
    assert _resolved("trace.summarize", aliases) == ["harness.trace.summarize"]
    assert _resolved("harness.tools.run_calls", aliases) == ["harness.tools.run_calls"]
    assert "harness.providers.anthropic._map_message" in _resolved("adapter._map_message",
                                                                   aliases)


LESSON_FILES = sorted(LESSONS.glob("[01][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", LESSON_FILES, ids=[p.stem for p in LESSON_FILES])
def test_no_lesson_holds_or_prints_a_graded_body_before_its_exercise(path):
    from grader.copies import similarity

    graded, bodies = _graded_before(path.stem), _graded_tokens()
    sources = [c.source for c in _notebook(path.stem).cells if c.cell_type == "code"]
    aliases = _aliases("\n".join(sources))
    sources += [(LESSONS / PIECES[n].answer_file).read_text() for n in PIECES
                if PIECES[n].lesson == path.stem]
    for source in sources:
        if source.lstrip().startswith(("%", "!")):
            continue
        for name, tokens in _tokens(source).items():
            for qualified in graded:
                score = similarity(tokens, bodies[qualified])
                assert score < ALIKE, (f"{path.name}: {name} is {score:.0%} like {qualified}, "
                                       f"graded in exercise {graded[qualified]}")
        for shown in re.findall(r"getsource\(([\w.]+)\)", source):
            for name in _resolved(shown, aliases):
                for qualified in graded:
                    assert not _holds(name, qualified), \
                        f"{path.name} prints {shown}: it holds {qualified}, graded later"


def test_a_syntax_error_in_a_your_turn_cell_is_one_line_and_the_check_falls_back():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "course.practice")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        shell.run_cell("%%your_turn\ndef ask(model, conversation, question)\n    return []\n")
    said = printed.getvalue()
    assert said.startswith("[syntax error] line 2:") and said.count("\n") == 1, said
    checked, used = _run_check(shell.user_ns["ask"])
    assert checked.startswith("[not yet] ask: its your-turn cell has a syntax error (line 2:")
    assert checked.count("\n") == 1 and used is PIECES["ask"].reference
    # A cell that parses runs as it is, magics included, and defines the piece.
    shell.run_cell("%%your_turn\ndef ask(model, conversation, question):\n    return 'mine'\n")
    assert shell.user_ns["ask"](None, [], "") == "mine"
