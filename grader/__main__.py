"""`python -m grader COMMAND ...`: `autograde` grades submissions (see `grader.autograde`),
`release` regenerates exercises/ from solutions/ (see `grader.release`)."""

import sys

COMMANDS = {"autograde": "grader.autograde", "release": "grader.release"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m grader {{{','.join(COMMANDS)}}} ...", file=sys.stderr)
        return 2
    import importlib

    module = importlib.import_module(COMMANDS[argv[0]])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
