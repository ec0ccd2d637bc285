"""The students' own copies of the lessons and exercises, where an update does not reach them.

`make lab` runs `python -m course copies` first, then opens JupyterLab on `my_work/` (git-ignored).
`make_copies` copies each lesson and exercise notebook that has no copy there yet and never
touches one that has: a `git pull` updates `lessons/` and `exercises/`, the student's work stays.
`my_work/lessons/answers` and `figures` are links to the kit's own folders, so the worked answers
and the figures are always the current ones and every relative link in a lesson still works.
`fresh` sets a student's copy aside, under a name with the time in it, and copies the current
notebook in its place: the way back to a clean start. Nothing here runs a notebook.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = "my_work"
"""The students' folder at the kit's root (in .gitignore)."""
LINKED = ("answers", "figures")
"""Folders of lessons/ that the copies read and students never edit: linked, not copied."""


def originals(root: Path = ROOT) -> list[Path]:
    """The notebooks a student works in, relative to `root`: every lesson, every exercise."""
    return sorted([*(p.relative_to(root) for p in (root / "lessons").glob("*.ipynb")),
                   *(p.relative_to(root) for p in (root / "exercises").glob("*/*.ipynb"))])


def make_copies(root: Path = ROOT) -> list[Path]:
    """Copy into `root/my_work` each notebook that has no copy yet; return the new copies.

    Example:
        >>> import tempfile
        >>> folder = Path(tempfile.mkdtemp())
        >>> _ = shutil.copytree(ROOT / "lessons", folder / "lessons")
        >>> len(make_copies(folder)) == len(originals(folder)) and make_copies(folder) == []
        True
    """
    work, made = root / WORK, []
    for original in originals(root):
        copy = work / original
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / original, copy)
            made.append(copy)
    for name in LINKED:
        link, target = work / "lessons" / name, root / "lessons" / name
        if target.exists() and not link.exists() and not link.is_symlink():
            link.symlink_to(Path("..", "..", "lessons", name), target_is_directory=True)
    return made


def fresh(name: str, root: Path = ROOT) -> tuple[Path | None, Path]:
    """Set the copy of notebook `name` (a stem such as "03_the_loop") aside and copy the
    current one in its place. Returns (where the old copy went, or None, the new copy)."""
    matches = [path for path in originals(root) if path.stem == name]
    if not matches:
        known = ", ".join(path.stem for path in originals(root))
        raise ValueError(f"no lesson or exercise is called {name!r}; one of: {known}")
    copy = root / WORK / matches[0]
    kept = None
    if copy.exists():
        kept = copy.with_name(f"{copy.stem}.before-{time.strftime('%Y%m%d-%H%M%S')}.ipynb")
        copy.rename(kept)
    make_copies(root)
    return kept, copy
