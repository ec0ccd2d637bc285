"""Build the rendered course: execute the lessons offline, then let Sphinx (MyST-NB) write a site.

    python -m book.build                    # every lesson executed; the site in build/site
    python -m book.build --execute 02,06    # only these executed, the others shown unexecuted

It lays out build/site-src as the repository is laid out, so every relative link of a notebook
works in the site too: an index with the course map (from book/course.toml) and both figures,
lessons/ executed in fresh kernels a few at a time (API keys removed; each lesson's setup cell
installs the network guard), the exercises as students get them (the released copies in
exercises/, never solutions/, unexecuted), book/glossary.md, and the guides (docs/, CONTRIBUTING.md,
bench/README.md) at their places. A cell that writes an error stops the build, naming the lesson.
Teacher notes (book/teacher_notes.md) stay out of the site.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from book import map as course_map
from harness.providers.catalog import KEY_VARIABLES

ROOT = course_map.ROOT
BUILD = ROOT / "build"
# What must never reach a student's page: nbgrader's markers of solutions and hidden tests.
HIDDEN = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")

INDEX = """\
# agent-loop-kit

Every LLM agent has the same piece of code at its heart: a loop that calls a model, runs the
tools the model asks for, feeds the results back, and knows when to stop. This course builds that
loop, from the first message list to a loop with every exit, on the real wire formats of four
providers, fully offline. These pages show every lesson as it runs; to run them yourself, clone
the repository and type `make lab`.

```{{figure}} lessons/figures/loop.svg
:alt: the loop, check by check
:name: loop-figure

The loop, one turn per pass: each numbered check can end the run with an exit.
```

```{{figure}} lessons/figures/exits.svg
:alt: the exits, where each fires and what it returns
:name: exits-figure

The exits: which check fires each one, the answer, and what pending tool calls get.
```

## The course map

{table}

Words such as turn, run, closing call and stop reason mean one thing each: see the
[glossary](book/glossary.md). The guides: [learning with the kit](docs/self-learners.md),
[the instructor's guide](docs/instructors.md), [contributing](CONTRIBUTING.md) and
[the benchmarks](bench/README.md).

```{{toctree}}
:hidden:
:caption: Lessons

{lessons}
```

```{{toctree}}
:hidden:
:caption: Exercises

{exercises}
```

```{{toctree}}
:hidden:
:caption: Reference

book/glossary
```

```{{toctree}}
:hidden:
:caption: Guides

{guides}
```
"""
# The guides, as pages at their place in the repository, so that their links work in the site too.
GUIDES = ("docs/self-learners.md", "docs/instructors.md", "CONTRIBUTING.md", "bench/README.md")


def kernel_env(provider: str) -> dict[str, str]:
    """The environment a lesson's kernel gets: no API key, the chosen provider, and lesson 12's
    recordings kept under build/ (the learner's lessons/my_runs/ is left alone)."""
    env = {key: value for key, value in os.environ.items() if key not in KEY_VARIABLES}
    return env | {"AGENT_LOOP_KIT_PROVIDER": provider, "JUPYTER_PLATFORM_DIRS": "1",
                  "AGENT_LOOP_KIT_RUNS": str(BUILD / "my_runs")}


async def _execute(path: Path, provider: str, gate: asyncio.Semaphore) -> nbformat.NotebookNode:
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}},
                            shutdown_kernel="immediate")  # all outputs are in: do not wait
    async with gate:
        await client.async_execute(env=kernel_env(provider))
    notebook.metadata.pop("widgets", None)  # widget state: only widget JavaScript would read it
    return notebook


def execute(paths: list[Path], *, provider: str = "anthropic",
            at_once: int = 2) -> list[nbformat.NotebookNode]:
    """Run each notebook top to bottom in a fresh kernel, `at_once` at a time (kernel start
    dominates); a cell error raises nbclient's CellExecutionError naming the cell."""

    async def run_all() -> list[nbformat.NotebookNode]:
        gate = asyncio.Semaphore(at_once)
        return await asyncio.gather(*(_execute(path, provider, gate) for path in paths))

    return asyncio.run(run_all())


def prepare(source: Path, *, executed: set[str] | None = None, provider: str = "anthropic") -> None:
    """Lay out the site's sources in `source`; `executed` names the lessons to run (None: all)."""
    course = course_map.load()
    shutil.rmtree(source, ignore_errors=True)
    (source / "book").mkdir(parents=True)
    shutil.copytree(ROOT / "lessons" / "figures", source / "lessons" / "figures")
    shutil.copy(ROOT / "book" / "glossary.md", source / "book" / "glossary.md")
    for guide in GUIDES:
        (source / guide).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / guide, source / guide)
    lessons = [ROOT / lesson.file for lesson in course.lessons if (ROOT / lesson.file).exists()]
    run = [path for path in lessons if executed is None or path.name[:2] in executed]
    for path, notebook in zip(run, execute(run, provider=provider), strict=True):
        nbformat.write(notebook, source / "lessons" / path.name)
    for path in lessons:
        if path not in run:
            shutil.copy(path, source / "lessons" / path.name)
    exercises = [ROOT / e.file for e in course.exercises if (ROOT / e.file).exists()]
    for exercise in course.exercises:  # on the map, not yet in this tree: a page that says so
        if not (ROOT / exercise.file).exists():
            target = source / exercise.file
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
                f"# Exercise {exercise.number}: {exercise.title.lower()}\n\nNot in this copy "
                f"of the kit yet: `{exercise.file}` is on the course map but not in the "
                f"repository.")]), target)
    for path in exercises:
        text = path.read_text(encoding="utf-8")
        if found := [marker for marker in HIDDEN if marker in text]:
            raise ValueError(f"{path.relative_to(ROOT)} holds {found}: it is not a student "
                             f"copy. Regenerate exercises/ with `make exercises`.")
        target = source / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    present = course_map.existing(course)
    (source / "index.md").write_text(INDEX.format(
        table=course_map.table(course, linked=present),
        lessons="\n".join(Path(p).with_suffix("").as_posix() for p in sorted(present)
                          if p.startswith("lessons/")),
        exercises="\n".join(Path(e.file).with_suffix("").as_posix()
                             for e in course.exercises),
        guides="\n".join(Path(guide).with_suffix("").as_posix() for guide in GUIDES)),
        encoding="utf-8")


def sphinx(source: Path, out: Path) -> None:
    """Sphinx's HTML builder over `source`, configured by book/conf.py; warnings are errors."""
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going",
                    "-c", str(ROOT / "book"), "-d", str(source.parent / "site-doctrees"),
                    str(source), str(out)], check=True)


def build(out: Path = BUILD / "site", *, executed: set[str] | None = None,
          provider: str = "anthropic") -> Path:
    """The whole site in `out`; returns the index page."""
    source = out.parent / f"{out.name}-src"
    prepare(source, executed=executed, provider=provider)
    sphinx(source, out)
    return out / "index.html"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--execute", default="all",
                        help="lesson numbers to execute, comma-separated (e.g. 02,06), or all")
    parser.add_argument("--out", type=Path, default=BUILD / "site")
    parser.add_argument("--provider", default=os.environ.get("AGENT_LOOP_KIT_PROVIDER",
                                                             "anthropic"))
    options = parser.parse_args()
    executed = None if options.execute == "all" else set(options.execute.split(","))
    started = time.perf_counter()
    index = build(options.out, executed=executed, provider=options.provider)
    print(f"built {index.relative_to(ROOT) if index.is_relative_to(ROOT) else index} "
          f"in {time.perf_counter() - started:.1f} s; open it in a browser")


if __name__ == "__main__":
    main()
