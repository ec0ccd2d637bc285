"""The hostile corpus (tests/classgrader/hostile) through the real pipeline: the attackers and
their honest neighbours, graded with the exercise corpus in the test run's one class
(`classgrader.graded`) by `python -m grader` with real nbgrader kernels, each in the OS sandbox.
Each attack must score exactly what its module expects (no unearned point, the rest of the
notebook still graded), its outputs must show the operating system's refusal (there is no Python
hook left to refuse anything), the neighbours full marks with their files untouched, and the
batch must finish. The same attackers under plain `nbgrader autograde` show which attacks the
batch is there to stop. Both runs write their scores, and what stopped each attack, to
test-artifacts/hostile_outcomes.md for the lead to read.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from classgrader import hostile
from classgrader.graded import (
    ATTACKS,
    NEIGHBOURS,
    SECRET,
    digests,
    graded_class,
    hidden_lines,
    outputs_of,
    plain_class,
)
from grader import merge

pytestmark = pytest.mark.slow

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
OUTCOMES: dict[str, dict[str, str]] = {}


@pytest.fixture(scope="module")
def graded():
    yield graded_class()
    _write_outcomes()


def _expected(module_expect: dict | str, exercise: str) -> dict[str, float]:
    full = hostile.max_points(exercise)
    if module_expect == "zero":
        return dict.fromkeys(full, 0.0)
    return {name: float(module_expect.get(name, points)) for name, points in full.items()}


def _observed(scores: dict, student: str, exercise: str) -> dict[str, float]:
    return {name: float(value or 0) for name, value in scores.get((student, exercise), {}).items()}


def _summary(scores: dict[str, float], exercise: str) -> str:
    full = hostile.max_points(exercise)
    lost = sorted(name for name, value in scores.items() if value < full[name])
    total = f"{sum(scores.values()):g}/{sum(full.values()):g}"
    return total if not lost or len(lost) == len(full) else f"{total} (lost {', '.join(lost)})"


def test_the_batch_finishes_and_records_every_submission(graded):
    done = graded.done
    assert done.returncode == 0, done.stdout + done.stderr
    assert graded.seconds < 900
    students = {student for student, _ in graded.scores}
    assert set(ATTACKS) | set(NEIGHBOURS) <= students


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_each_attack_scores_exactly_what_it_earned(graded, name):
    module = ATTACKS[name]
    observed = _observed(graded.scores, name, module.EXERCISE)
    OUTCOMES.setdefault(name, {})["batch"] = _summary(observed, module.EXERCISE)
    assert observed == _expected(module.EXPECT, module.EXERCISE)


def test_neighbours_are_unaffected(graded):
    course = graded.course
    for student, exercise in NEIGHBOURS.items():
        assert _observed(graded.scores, student, exercise) == _expected({}, exercise)
        assert (course / "autograded" / student / exercise / f"{exercise}.ipynb").exists()
    assert digests(course, "submitted") == graded.submitted  # no submission was changed


def test_no_connection_and_no_write_outside_the_kernels_folders(graded):
    course = graded.course
    assert graded.listener.accepted == 0
    assert not (course / "pwned.txt").exists()
    outputs = _outputs(course, "network", "03_no_progress")  # the kernel's own network namespace:
    assert "ConnectionRefusedError" in outputs  # a loopback where nothing listens,
    assert "Network is unreachable" in outputs  # no route out,
    assert "URLError" in outputs and "connected" not in outputs  # and no name server


@pytest.mark.parametrize("name", sorted(n for n, m in ATTACKS.items() if getattr(m, "EVIDENCE",
                                                                                    None)))
def test_the_operating_system_stopped_it(graded, name):
    module = ATTACKS[name]
    outputs = _outputs(graded.course, name, module.EXERCISE)
    missing = [line for line in module.EVIDENCE if line not in outputs]
    assert not missing, f"{name}: {missing} not in its outputs:\n{outputs[-3000:]}"


def test_nothing_reached_the_disk_and_no_secret_reached_an_output(graded):
    course = graded.course
    folder = course / "autograded" / "fills_disk" / "03_no_progress"
    assert sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) < 1_000_000
    for path in (course / "autograded").rglob("*.ipynb"):
        assert SECRET not in outputs_of(path), path


def test_no_hidden_test_reaches_an_output_or_the_feedback(graded):
    """Autograded notebooks hold the hidden tests in their sources (they are the instructor's);
    what reaches students is the outputs, through the feedback."""
    course, hidden = graded.course, hidden_lines()
    for path in (course / "autograded").rglob("*.ipynb"):
        leaks = [line for line in hidden if line in outputs_of(path)]
        assert not leaks, f"{path} prints hidden tests: {leaks}"
    pages = list((course / "feedback" / "reads_hidden_tests").rglob("*.html"))
    assert pages, graded.feedback.stdout + graded.feedback.stderr
    text = html.unescape(re.sub(r"<[^>]+>", "", pages[0].read_text()))
    assert not [line for line in hidden if line in text]


def test_gigantic_output_is_cut(graded):
    for name in ("gigantic_output", "output_flood"):  # one huge message; 119 M characters
        path = graded.course / f"autograded/{name}/03_no_progress/03_no_progress.ipynb"
        assert path.stat().st_size < 1_000_000, name
    flood = graded.course / "autograded/output_flood/03_no_progress/03_no_progress.ipynb"
    assert flood.read_text().count("this notebook printed more than") == 1


def test_every_capped_test_says_why(graded):
    capped = {(i["student"], i["cell"]) for i in graded.report if i["capped_to"] is not None}
    assert ("monkeypatch_checks", "no_progress_catches_cycles") in capped
    assert ("fake_setup_cell", "call_key_tells_calls_apart") in capped
    assert ("identity_theft", "usage_anthropic_adds_cache_reads") in capped
    assert any(i["student"] == "reads_hidden_tests" and "hidden test lines" in i["what"]
               for i in graded.report)
    folder = graded.course / "autograded" / "monkeypatch_checks" / "03_no_progress"
    assert merge.CAPPED in (folder / "03_no_progress.ipynb").read_text()


def test_plain_nbgrader_is_fooled_where_the_batch_is_not(graded):
    plain = plain_class()
    course, listener, scores = plain.course, plain.listener, plain.scores
    problems = [line for line in plain.log.splitlines() if "| INFO]" not in line][-20:]
    for name, module in ATTACKS.items():
        if module.PLAIN is None:
            OUTCOMES.setdefault(name, {})["plain"] = "not run (it would harm the machine)"
            continue
        observed = _observed(scores, name, module.EXERCISE)
        OUTCOMES.setdefault(name, {})["plain"] = _summary(observed, module.EXERCISE)
        assert observed == _expected(module.PLAIN, module.EXERCISE), (name, problems)
    assert listener.accepted == 2  # the network attacks (Python, C) reached the loopback
    assert (course / "pwned.txt").exists()
    assert "secret seen: True" in _outputs(course, "proc_environ", "03_no_progress")
    assert "read 0 of" not in _outputs(course, "ctypes_files", "03_no_progress")
    printed = _outputs(course, "reads_hidden_tests", "03_no_progress")
    assert [line for line in hidden_lines() if line in printed]  # and would reach the feedback
    assert _observed(scores, "zz_neighbour", "03_no_progress") != _expected({}, "03_no_progress")


def _outputs(course: Path, student: str, exercise: str) -> str:
    return outputs_of(course / "autograded" / student / exercise / f"{exercise}.ipynb")


def _write_outcomes() -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    rows = ["| attack | exercise | expected under the batch | batch | stopped by "
            "| plain nbgrader |", "| --- | --- | --- | --- | --- | --- |"]
    for name, module in sorted(ATTACKS.items()):
        doc = re.sub(r"\s+", " ", module.__doc__ or "").split(":")[0]
        expected = _summary(_expected(module.EXPECT, module.EXERCISE), module.EXERCISE)
        seen = OUTCOMES.get(name, {})
        rows.append(f"| {name}: {doc} | {module.EXERCISE} | {expected} | "
                    f"{seen.get('batch', '?')} | {getattr(module, 'STOPPED_BY', '')} | "
                    f"{seen.get('plain', '?')} |")
    (ARTIFACTS / "hostile_outcomes.md").write_text("\n".join(rows) + "\n")
