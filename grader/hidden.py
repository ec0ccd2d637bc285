"""Hidden test content in a graded notebook's outputs: found, and removed before any page.

A submission can read its own tests from the kernel's memory (`In`, the history) and print them
after they ran. `HiddenTests(cells)` knows one notebook's hidden tests from its source cells (the
gradebook's) and finds their content in output text: a whole hidden line, any run of `PIECE`
characters of one holding some of what only it says, or a seed on its own, read across
all the notebook's outputs with whitespace left out (so a line split across prints or cells, or
spaced out, is found) and as `repr`, JSON or HTML escape it. `redact` replaces each line holding
it with `HIDDEN`. An encoding it does not know (base64, a reversed string) goes unseen: this is a
backstop, not a wall. Nothing here grades; merge.py calls it on every autograded notebook.
"""

from __future__ import annotations

import bisect
import html
import itertools
import json
import re
from typing import Any

HIDDEN = "[a hidden test line was removed by the grader]\n"
PIECE = 16
"""Characters (whitespace not counted) from which a piece of a hidden line counts as hidden
content when it holds SECRET letters or digits the released notebook does not show around them:
`seed=41017,cases` is 16."""
KNOWN = 8
"""A run of a hidden line this long or longer that the released notebook also holds is known."""
SECRET = 4
"""Letters or digits of its own a piece needs (`seed`; `4101`) to count as hidden content."""


def hidden_lines(cells: list[dict[str, Any]]) -> set[str]:
    """The lines between nbgrader's hidden-test markers in the tests of one notebook."""
    lines: set[str] = set()
    for cell in cells:
        inside = False
        for line in _text(cell.get("source") or "").splitlines():
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and line.strip():
                lines.add(line.strip())
    return lines


def _released(cells: list[dict[str, Any]]) -> str:
    """Every cell's source without its hidden tests: what a student may print freely."""
    kept = []
    for cell in cells:
        inside = False
        for line in _text(cell.get("source") or "").splitlines():
            inside = ("BEGIN HIDDEN TESTS" in line or inside) and "END HIDDEN TESTS" not in line
            if not inside and "HIDDEN TESTS" not in line:
                kept.append(line)
    return "\n".join(kept)


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _secret_pieces(whole: str, visible: str) -> set[str]:
    """The runs of PIECE characters of `whole` (a squeezed hidden line) that hold at least
    SECRET letters or digits of its own: outside every run of KNOWN characters or more that the
    released notebook also holds. `_over_budget,` is a name a check message may well quote;
    `_budget,seed=409` gives the hidden call away."""
    known = [False] * len(whole)
    for start in range(len(whole) - KNOWN + 1):
        end = start + KNOWN
        if whole[start:end] not in visible:
            continue
        while end < len(whole) and whole[start:end + 1] in visible:
            end += 1
        known[start:end] = [True] * (end - start)
    own = [not seen and char.isalnum() for seen, char in zip(known, whole, strict=True)]
    return {whole[i:i + PIECE] for i in range(len(whole) - PIECE + 1)
            if sum(own[i:i + PIECE]) >= SECRET}


def _forms(line: str) -> set[str]:
    """A line as printed, and as `repr` and JSON write it inside a longer string."""
    escaped = line.replace("\\", "\\\\")
    return {line, escaped, escaped.replace("'", "\\'"), escaped.replace('"', '\\"'),
            json.dumps(line)[1:-1], json.dumps(line, ensure_ascii=False)[1:-1],
            html.escape(line), html.escape(line, quote=False)}


class HiddenTests:
    """The hidden content of one notebook's tests, from its source cells (the gradebook's)."""

    def __init__(self, cells: list[dict[str, Any]]):
        lines, released = hidden_lines(cells), _released(cells)
        visible = _squeeze(released)
        self.wholes = {_squeeze(form) for line in lines for form in _forms(line)} - {""}
        """Each hidden line, whitespace left out, as printed or escaped."""
        self.pieces = {piece for whole in self.wholes for piece in _secret_pieces(whole, visible)}
        """Every PIECE characters of a hidden line holding some of what only it says."""
        seeds = {number for line in lines for number in re.findall(r"\d{4,}", line)
                 if not re.search(rf"(?<!\d){number}(?!\d)", released)}
        self.seeds = re.compile(rf"(?<!\d)({'|'.join(sorted(seeds))})(?!\d)") if seeds else None
        """A number of four digits or more that only a hidden line holds (a seed), on its own."""

    def leaks(self, texts: list[str]) -> list[set[int]]:
        """For each text, the indexes of its lines that hold hidden content. The texts are read
        as one with whitespace left out, so a line split across prints or outputs is found too."""
        lines = [text.splitlines(keepends=True) for text in texts]
        every = [(which, index, _squeeze(line)) for which, text_lines in enumerate(lines)
                 for index, line in enumerate(text_lines)]
        squeezed = "".join(chars for _, _, chars in every)
        starts = list(itertools.accumulate((len(chars) for _, _, chars in every), initial=0))

        def owner(position: int) -> tuple[int, int]:  # (text, line) of a squeezed character
            which, index, _ = every[bisect.bisect_right(starts, position) - 1]
            return which, index

        spans = [(m.start(), m.end()) for whole in self.wholes
                 for m in re.finditer(re.escape(whole), squeezed)]
        spans += [(i, i + PIECE) for i in range(len(squeezed) - PIECE + 1)
                  if squeezed[i:i + PIECE] in self.pieces]
        found: list[set[int]] = [set() for _ in texts]
        for start, end in spans:  # every line the match runs through, in every text
            (first, low), (last, high) = owner(start), owner(end - 1)
            for which in range(first, last + 1):
                found[which].update(range(low if which == first else 0,
                                          high + 1 if which == last else len(lines[which])))
        if self.seeds:
            for which, text_lines in enumerate(lines):
                found[which].update(index for index, line in enumerate(text_lines)
                                    if self.seeds.search(line))
        return found

    def redact(self, notebook: dict[str, Any]) -> bool:
        """Replace each output line holding hidden content with a note, in place; True if any."""
        holders = [place for cell in notebook.get("cells", [])
                   for output in cell.get("outputs", []) for place in _places(output)]
        texts = [_shown(holder[key], key) for holder, key in holders]
        changed = False
        for (holder, key), text, marked in zip(holders, texts, self.leaks(texts), strict=True):
            if not marked:
                continue
            if not isinstance(holder[key], str | list) or _is_json(key):
                holder[key] = HIDDEN  # structured data: the whole value goes
            else:
                kept: list[str] = []
                for index, line in enumerate(text.splitlines(keepends=True)):
                    if index not in marked:
                        kept.append(line)
                    elif index - 1 not in marked:  # one note for a run of lines
                        kept.append(HIDDEN)
                holder[key] = "".join(kept)
            changed = True
        return changed


def _is_json(key: Any) -> bool:
    return isinstance(key, str) and key.endswith("json")


def _shown(value: Any, key: Any) -> str:
    """An output field as text: JSON data as JSON, a list of lines joined."""
    if _is_json(key) or not isinstance(value, str | list):
        return json.dumps(value, ensure_ascii=False)
    return "".join(str(part) for part in value) if isinstance(value, list) else value


def _places(output: dict[str, Any]) -> list[tuple[Any, Any]]:
    """Where text lives in one output: a stream's text, each data type, an error's parts."""
    found: list[tuple[Any, Any]] = [(output, key) for key in ("text", "ename", "evalue")
                                    if key in output]
    found += [(output["data"], key) for key in output.get("data") or {}]
    traceback = output.get("traceback")
    if isinstance(traceback, list):
        found += [(traceback, index) for index in range(len(traceback))]
    return found


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)
