"""`python -m course`: run a scenario and print its trace, exit first.

    python -m course list                         the scenarios and their intended exits
    python -m course run umbrella                 run one with the ScriptedModel
    python -m course run big_pages --max-turns 3  override a loop setting
    python -m course replay --provider anthropic --scenario umbrella
    python -m course record --provider gemini --scenario umbrella           live, needs a key
    python -m course record --all --emulator --force                       regenerate them all
    python -m course emulate --provider anthropic --script my_script.yaml  serve your own agent
    python -m course emulate --provider gemini --scenario umbrella --port 0
    python -m course copies                       your copies of the lessons in my_work/
    python -m course copies --fresh 03_the_loop   set yours aside, take a fresh copy
    python -m course check 02_early_exit          before handing in: which graded cells pass

This module only parses arguments and prints; the work is done by the modules it calls.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from harness import providers
from harness.trace import format_run
from offline import scenarios
from offline.serving import DEFAULT_KEY, DEFAULT_PORT


def _list(_: argparse.Namespace) -> int:
    width = max(map(len, scenarios.SCENARIOS))
    for scenario in scenarios.SCENARIOS.values():
        print(f"{scenario.name:<{width}}  {scenario.expected_exit.value:<12} {scenario.summary}")
    return 0


def _run(args: argparse.Namespace) -> int:
    scenario = scenarios.get(args.scenario)
    overrides = {key: value for key, value in
                 {"max_turns": args.max_turns, "token_budget": args.token_budget}.items()
                 if value is not None}
    result = scenario.run(**overrides)
    print(format_run(result))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from offline import replay

    print(format_run(replay.replay_scenario(args.provider, args.scenario)))
    return 0


def _record(args: argparse.Namespace) -> int:
    from offline import record
    from offline.edges import EDGES

    if args.all == bool(args.provider and args.scenario):
        print("error: give --provider and --scenario, or --all", file=sys.stderr)
        return 2
    chosen = [(p, s) for p in (providers.PROVIDERS if args.all else [args.provider])
              for s in ([*scenarios.SCENARIOS, *EDGES] if args.all else [args.scenario])]
    for provider, scenario in chosen:
        path = record.record(provider, scenario, live=not args.emulator, force=args.force)
        print(f"recorded {path}")
    return 0


def _emulate(args: argparse.Namespace) -> int:
    from offline import script_file, serving

    if bool(args.script) == bool(args.scenario):
        print("error: give --script (a YAML file) or --scenario NAME (see `list`)", file=sys.stderr)
        return 2
    steps = (script_file.load(args.script) if args.script
             else list(scenarios.get(args.scenario).steps))
    source = args.script or f"the {args.scenario} scenario"
    try:
        with serving.emulate(args.provider, steps, key=args.key, port=args.port, source=source,
                             out=sys.stdout) as session:
            session.wait()
    except OSError as error:  # most often the port is taken
        print(f"error: cannot serve on port {args.port} ({error.strerror}); choose another "
              "with --port (0 picks a free one)", file=sys.stderr)
        return 2
def _copies(args: argparse.Namespace) -> int:
    from pathlib import Path

    from course import copies

    root = Path(args.root) if args.root else copies.ROOT
    if args.fresh:
        kept, copy = copies.fresh(args.fresh, root)
        print(f"{copy.relative_to(root)}: a fresh copy" + (
            f"; yours is now {kept.relative_to(root)}" if kept else ""))
        return 0
    made = copies.make_copies(root)
    print(f"{copies.WORK}/: {len(made)} new cop{'y' if len(made) == 1 else 'ies'}; the ones "
          "you already had are left as they are")
    return 0


def _check(args: argparse.Namespace) -> int:
    from course import handin_check

    return handin_check.main(args.notebook)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list the scenarios").set_defaults(handler=_list)
    run = commands.add_parser("run", help="run a scenario with the ScriptedModel")
    run.add_argument("scenario", help="a scenario name (see `list`)")
    run.add_argument("--max-turns", type=int, help="override the turn cap")
    run.add_argument("--token-budget", type=int, help="override the token budget")
    run.set_defaults(handler=_run)
    replay = commands.add_parser("replay", help="replay a recorded scenario offline")
    replay.add_argument("--provider", required=True)
    replay.add_argument("--scenario", required=True)
    replay.set_defaults(handler=_replay)
    record = commands.add_parser("record", help="record cassettes (live with a key, or emulator)")
    record.add_argument("--provider")
    record.add_argument("--scenario")
    record.add_argument("--all", action="store_true", help="every provider and scenario")
    record.add_argument("--emulator", action="store_true",
                        help="record against the offline emulator instead of the live API")
    record.add_argument("--force", action="store_true", help="overwrite existing cassettes")
    record.set_defaults(handler=_record)
    emulate = commands.add_parser("emulate", help="serve the emulator to your own agent")
    emulate.add_argument("--provider", required=True, choices=list(providers.PROVIDERS))
    emulate.add_argument("--script", help="a YAML script of replies (offline/script_file.py)")
    emulate.add_argument("--scenario", help="or a kit scenario's script (see `list`)")
    emulate.add_argument("--port", type=int, default=DEFAULT_PORT, help="0 picks a free port")
    emulate.add_argument("--key", default=DEFAULT_KEY, help="the API key it accepts")
    emulate.set_defaults(handler=_emulate)
    mine = commands.add_parser("copies", help="make your copies of the lessons and exercises")
    mine.add_argument("--fresh", metavar="NOTEBOOK", help="set your copy of NOTEBOOK (e.g. "
                      "03_the_loop) aside and copy the current one in its place")
    mine.add_argument("--root", help="the kit's folder (default: this one)")
    mine.set_defaults(handler=_copies)
    check = commands.add_parser("check", help="run your notebook from the top and list which "
                                "graded cells pass on its public cases (before handing in)")
    check.add_argument("notebook", help="a notebook's path, or an exercise's name "
                       "(02_early_exit: your copy in my_work/exercises/)")
    check.set_defaults(handler=_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from harness.errors import HarnessError

    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (HarnessError, ValueError) as exc:  # user mistakes: one clear line, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
