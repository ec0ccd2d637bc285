"""`python -m grader COMMAND ...`: the class grader's commands, for instructors (`--help` lists
them; `python -m grader COMMAND --help` says what one does and takes)."""

import sys
import textwrap

COMMANDS = {
    "autograde": ("grader.autograde", "grade a class's submissions in parallel, each kernel in "
                  "the OS sandbox, into the gradebook; writes grades.csv and copies.csv and "
                  "prints what needs your attention"),
    "release": ("grader.release", "regenerate exercises/ from solutions/ with nbgrader "
                "(--check: only say which are out of date)"),
}
"""Each command: the module whose main(argv) runs it, and what it does in a line."""

USAGE = "usage: python -m grader {autograde,release} [--help] ..."


def describe() -> str:
    lines = [USAGE, "", "The kit's class grader (docs/instructors.md, 'Grading a whole class').",
             "", "commands:"]
    for name, (_, what) in COMMANDS.items():
        lines += textwrap.wrap(what, 88, initial_indent=f"  {name:<11}",
                               subsequent_indent=" " * 13)
    lines += ["", "Grades also go out with nbgrader's own commands: `nbgrader export`",
              "(grades.csv),",
              "`nbgrader export --exporter=grader.lms.CanvasExport` (Canvas's gradebook CSV),",
              "and come in with `nbgrader zip_collect --collector=grader.lms.CanvasCollector`."]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(describe())
        return 0
    if not argv or argv[0] not in COMMANDS:
        print(describe(), file=sys.stderr)
        return 2
    import importlib

    module = importlib.import_module(COMMANDS[argv[0]][0])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
