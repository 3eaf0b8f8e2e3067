"""``tarneeb simulate``: seeded self-play of whole matches, one JSON object per match and a summary."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tarneeb.cli.common import add_selfplay_args, print_json, print_summary, rules_from_args


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("simulate", help="seeded self-play of whole matches")
    add_selfplay_args(s)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    from tarneeb.play.simulate import simulate, summarize

    rules = rules_from_args(args)
    results = []
    gen = simulate(rules, args.matches, args.seed, args.policy, args.max_hands)
    if args.json:
        for res in gen:
            results.append(res)
            print_json(res.to_json())
        print_json(summarize(results))
        return 0
    from rich.progress import Progress

    with Progress(transient=True, disable=not sys.stderr.isatty()) as prog:
        task = prog.add_task(f"simulating {rules.label()}", total=args.matches)
        for res in gen:
            results.append(res)
            prog.advance(task)
    print_summary(rules.label(), args.policy, summarize(results), results)
    return 0
