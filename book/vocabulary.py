"""The course's vocabulary, checked mechanically: words the glossary says not to use, and where.

book/glossary.md lists, under each term, the words that mean it elsewhere ("*Not:* round,
iteration, ..."). `misuses()` finds those words in the lessons, the released exercises and the
`harness` docstrings, apart from a few contexts where they mean something else (a round trip,
the model-facing texts the loop sends, a wire value). It finds words, not meanings: a human still
reads the texts. It changes nothing.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

from harness import loop

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "book" / "glossary.md"
# Where a listed word means something else: removed from a text before it is searched.
ALLOWED = [re.escape(text) for text in (loop.NOT_EXECUTED, loop.CLOSING_INSTRUCTION)] + [
    r"\bround[- ]trips?\b",                # one request and its answer, not a turn
    r"\b(?:go|goes|going|went) round\b",   # the loop goes round: the verb
    r"\bfinish reason `",                  # naming a wire value, e.g. Gemini's
]


def avoided(glossary: Path = GLOSSARY) -> dict[str, str]:
    """Each word the glossary says not to use, with the term to use instead."""
    words, term = {}, ""
    for block in glossary.read_text(encoding="utf-8").split("\n\n"):
        if block.startswith("## "):
            term = block[3:].split("\n")[0].strip()
        if "*Not:*" in block:
            listed = re.sub(r"\([^)]*\)", "", block.split("*Not:*", 1)[1].replace("\n", " "))
            for word in listed.strip().rstrip(".").split(","):
                words[word.strip()] = term
    return words


def _pattern(word: str) -> re.Pattern[str]:
    plural = "s?" if word[-1].isalpha() else ""
    return re.compile(rf"(?<![\w`]){re.escape(word)}{plural}(?![\w`(])", re.I)


def texts(root: Path = ROOT) -> Iterator[tuple[str, str]]:
    """(where, text) for every lesson and released exercise cell and every harness docstring."""
    notebooks = sorted(root.glob("lessons/*.ipynb")) + sorted(root.glob("exercises/*/*.ipynb"))
    for path in notebooks:
        for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            yield f"{path.relative_to(root)} cell {number}", "".join(cell["source"])
    for path in sorted(p for package in ("harness", "offline", "course")
                       for p in (root / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                if docstring := ast.get_docstring(node):
                    yield f"{path.relative_to(root)}:{getattr(node, 'lineno', 1)}", docstring


def misuses(where: str, text: str, words: dict[str, str]) -> list[str]:
    """Each avoided word in `text`, with some context and the term to say instead."""
    flat = re.sub(r"\s+", " ", text)
    for allowed in ALLOWED:
        flat = re.sub(allowed, " ", flat, flags=re.I)
    found = []
    for word, term in words.items():
        for match in _pattern(word).finditer(flat):
            context = flat[max(0, match.start() - 40):match.end() + 30]
            found.append(f"{where}: {match.group()!r} in '...{context}...': say {term!r}")
    return found
