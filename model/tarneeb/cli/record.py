"""``tarneeb record``: write game records (JSON Lines, spec/records/) of seeded self-play matches."""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from tarneeb.cli.common import add_selfplay_args, rules_from_args
from tarneeb.errors import BadInput
from tarneeb.records import write_match


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("record", help="write game records (JSON Lines) of seeded self-play matches")
    add_selfplay_args(s)
    s.add_argument("--out", "-o", metavar="FILE", help="output file (default: standard output)")
    s.set_defaults(func=cmd_record)


def cmd_record(args: argparse.Namespace) -> int:
    from tarneeb.play.simulate import simulate

    if args.matches < 0:
        raise BadInput(f"--matches: {args.matches} is negative")
    rules = rules_from_args(args)
    out: IO[bytes]
    close = False
    if args.out and args.out != "-":
        try:
            out = open(args.out, "wb")
        except OSError as e:
            raise BadInput(f"--out {args.out}: cannot write: {e.strerror or e}") from None
        close = True
    else:
        out = sys.stdout.buffer
    try:
        for res in simulate(rules, args.matches, args.seed, args.policy, args.max_hands):
            write_match(out, res.match, res.seed, meta={"seed": res.seed, "policy": args.policy,
                                                        "generator": "tarneeb record"})
        out.flush()
    finally:
        if close:
            out.close()
    return 0
