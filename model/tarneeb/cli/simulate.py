"""``tarneeb simulate``: seeded self-play of whole matches, one JSON object per match and a summary."""

from __future__ import annotations

import argparse
from typing import Any

from tarneeb.cli.common import add_selfplay_args, print_json, print_summary, progress_bar, rules_from_args


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("simulate", help="seeded self-play of whole matches")
    add_selfplay_args(s)
    s.add_argument("--json", action="store_true",
                   help="one JSON object per match as it finishes, then a summary object (marked interrupted on Ctrl-C)")
    s.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play the matches one by one, counting each into a running tally and then dropping it (flat memory).

    On Ctrl-C the summary of the matches finished so far is printed, marked
    interrupted, and the interrupt goes on to ``main`` (one line, exit 130).
    """
    from tarneeb.play.simulate import Tally, simulate

    rules = rules_from_args(args)
    tally = Tally()
    shown: list[Any] = []  # the human summary lists each match when there are at most five
    gen = simulate(rules, args.matches, args.seed, args.policy, args.max_hands)
    if args.json:
        try:
            for res in gen:
                tally.add(res)
                print_json(res.to_json())
        except KeyboardInterrupt:
            print_json(tally.summary(interrupted=True))
            raise
        print_json(tally.summary())
        return 0
    try:
        with progress_bar() as prog:  # on standard error: the summary alone goes to standard output
            task = prog.add_task(f"simulating {rules.label()}", total=args.matches)
            for res in gen:
                tally.add(res)
                if args.matches <= 5:
                    shown.append(res)
                prog.advance(task)
    except KeyboardInterrupt:
        print_summary(rules.words(), args.policy, tally.summary(interrupted=True), shown, rules.family == "auction")
        raise
    print_summary(rules.words(), args.policy, tally.summary(), shown, rules.family == "auction")
    return 0
