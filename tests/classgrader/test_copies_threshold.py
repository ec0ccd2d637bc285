"""The near-copy finder's threshold, from measurements: independently written correct solutions
of the same cell (tests/classgrader/copies_corpus/independent) stay well under `THRESHOLD`, and
disguised copies (copied/: renamed, branches reordered, code moved into a helper, re-commented)
reach it, against the answer they copy; the figures docs/instructors.md states are these."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from grader import copies

CORPUS = Path(__file__).resolve().parent / "copies_corpus"
FUNCTIONS = ("to_anthropic", "run_loop")


def _bags(folder: str) -> dict[str, Counter]:
    """Each file's cell as the finder compares it: the bag of all its functions' statements."""
    return {path.stem: sum(copies.statements(path.read_text()).values(), Counter())
            for path in sorted((CORPUS / folder).glob("*.cell"))}


def _independent(function: str) -> list[float]:
    bags = {k: v for k, v in _bags("independent").items() if k.startswith(function + "__")}
    return [copies.overlap(a, b) for a, b in itertools.combinations(bags.values(), 2)]


def _copied(function: str) -> list[float]:
    originals = _bags("independent")
    return [copies.overlap(bag, originals[f"{function}__{name.split('__')[1]}"])
            for name, bag in _bags("copied").items() if name.startswith(function + "__")]


@pytest.mark.parametrize("function", FUNCTIONS)
def test_independent_solutions_stay_well_under_the_threshold(function):
    found = _independent(function)
    assert len(found) >= 3
    assert max(found) <= copies.THRESHOLD - 0.2, sorted(found)


@pytest.mark.parametrize("function", FUNCTIONS)
def test_disguised_copies_reach_the_threshold(function):
    found = _copied(function)
    assert found and min(found) >= copies.THRESHOLD + 0.1, sorted(found)


def test_the_guide_states_the_measured_figures():
    independent = [s for f in FUNCTIONS for s in _independent(f)]
    copied = [s for f in FUNCTIONS for s in _copied(f)]
    guide = (Path(__file__).resolve().parents[2] / "docs" / "instructors.md").read_text()
    figures = (f"{min(independent):.2f} to {max(independent):.2f}",
               f"{min(copied):.2f} to {max(copied):.2f}", f"{copies.THRESHOLD}")
    assert all(figure in " ".join(guide.split()) for figure in figures), figures
