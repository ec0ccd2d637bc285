"""The table of exits: read the docstrings of `Exit` in harness/trace.py, write them into README.md.

    python -m book.exits     # rewrite the table between the markers in README.md

The exits' contract lives in the code: each member of `harness.trace.Exit` carries a docstring
saying when it fires, and this module copies those texts into the README, as book/map.py copies
the course map. It reads harness/trace.py as a syntax tree and imports nothing from the kit.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "harness" / "trace.py"
README = ROOT / "README.md"
BEGIN = ("<!-- exits: written by `python -m book.exits` from the docstrings of Exit in "
         "harness/trace.py; edit those -->")
END = "<!-- end of the exits -->"


def exits(path: Path = TRACE) -> list[tuple[str, str]]:
    """(value, when it fires) for each member of `Exit`, in the order the class lists them.

    Example:
        >>> exits()[0][0]
        'done'
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Exit"]
    if not classes:
        raise ValueError(f"{path} defines no class Exit")
    body = classes[0].body
    found, undocumented = [], []
    for node, after in zip(body, [*body[1:], None], strict=True):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
            continue
        name = node.targets[0].id if isinstance(node.targets[0], ast.Name) else "?"
        # An attribute docstring is the string expression right after the assignment.
        if (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            found.append((node.value.value, " ".join(after.value.value.split())))
        else:
            undocumented.append(name)
    if undocumented:
        raise ValueError(f"{path}: Exit.{', Exit.'.join(undocumented)} has no docstring; give "
                         f"each member one that says when it fires")
    return found


def table(rows: list[tuple[str, str]]) -> str:
    """The exits as a Markdown table: the status, then when it fires."""
    lines = ["| status | when it fires |", "| --- | --- |"]
    for value, when in rows:
        escaped = when.replace("|", r"\|")  # a bare pipe would end the cell
        lines.append(f"| `{value}` | {escaped} |")
    return "\n".join(lines)


def with_table(readme: str, rows: list[tuple[str, str]]) -> str:
    """`readme` with the text between the markers replaced by the table of exits."""
    pattern = re.compile(rf"{re.escape(BEGIN)}\n.*?{re.escape(END)}", re.S)
    if not pattern.search(readme):
        raise ValueError(f"README.md has no exits markers: put the lines\n{BEGIN}\n{END}\n"
                         f"where the table goes")
    return pattern.sub(lambda _: f"{BEGIN}\n{table(rows)}\n{END}", readme)


def main() -> None:
    README.write_text(with_table(README.read_text(encoding="utf-8"), exits()), encoding="utf-8")
    print(f"wrote the table of exits into {README.name}")


if __name__ == "__main__":
    main()
