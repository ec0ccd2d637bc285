"""Every file the kit's prose names is in the kit: no reader is sent to a file they cannot open.

The prose is what a reader follows: the READMEs, the markdown cells of the lessons and exercises,
and the docstrings and comments of the library, the grader and the benchmarks. A name that looks
like a file (`something.md`, `lessons/06_cost.ipynb`, `../exercises/...`) must match a file tracked
by git: relative to the document (a link), or by its path or the end of its path. Files the kit
writes when it runs (gradebooks, CSVs, reports) are data, not references, so only documents,
notebooks, Python modules and configuration count.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMED_FILE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:md|ipynb|py|ya?ml|toml))(?![\w/])")
# Names that are examples inside quoted text, not references; each says where and why.
EXAMPLES = {
    "my_runs/my_loop.py": "lesson 12: the learner's own loop, a file they write (git-ignored)",
    "lessons/my_runs/my_loop.py": "docs/self-learners.md, lesson 12: the same file, from the root",
    "my_work/lessons/my_runs/my_loop.py": "the same, in the student's copies (course.copies)",
    "src/refund.py": "lesson 07: the file a scripted model edits again and again (edit counter)",
    "my_script.yaml": "python -m course emulate: the learner's own script, a file they write",
}


def tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split()
    return [*listed, *untracked]  # a new file counts before it is committed


def python_prose(source: str) -> str:
    """The comments and string literals of a module (docstrings are string literals)."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING):
            found.append(token.string)
    return "\n".join(found)


def prose(path: Path) -> str:
    if path.suffix == ".md":
        return path.read_text()
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        return "\n".join("".join(cell["source"]) for cell in cells
                         if cell["cell_type"] == "markdown")
    return python_prose(path.read_text())


def read_by_people(files: list[str]) -> list[str]:
    documents = [name for name in files if name.endswith((".md", ".ipynb"))]
    modules = [name for name in files if name.endswith(".py")
               and name.split("/")[0] in ("harness", "offline", "course", "grader", "bench")]
    return [name for name in documents + modules if (ROOT / name).exists()]


def test_every_file_named_in_the_prose_exists():
    files = tracked()
    dangling = []
    for name in read_by_people(files):
        for named in set(NAMED_FILE.findall(prose(ROOT / name))):
            if named in EXAMPLES:
                continue
            here = os.path.normpath(os.path.join(os.path.dirname(name), named))  # a link
            if here not in files and not any(path == named or path.endswith("/" + named)
                                             for path in files):
                dangling.append(f"{name} names {named}")
    assert not dangling, "files named but not in the kit:\n" + "\n".join(sorted(dangling))


def test_the_check_sees_a_dangling_name():
    source = '"""Run the loop. See design.md, "Exits".\n\nAlso harness/loop.py."""\n# why: x.md\n'
    assert set(NAMED_FILE.findall(python_prose(source))) == {"design.md", "harness/loop.py",
                                                             "x.md"}
