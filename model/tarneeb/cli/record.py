"""``tarneeb record``: write game records (JSON Lines, spec/records/) of seeded self-play matches.

Each match is written whole, in one write, so a file cut short by Ctrl-C
still holds only whole matches (a valid record file); the interrupt then
goes on to ``main`` (one line, exit 130).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from tarneeb.cli.common import add_selfplay_args, print_json, progress_bar, rules_from_args
from tarneeb.core.cards import n_of
from tarneeb.errors import BadInput, os_error_words
from tarneeb.records import match_lines


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("record", help="write game records (JSON Lines) of seeded self-play matches")
    add_selfplay_args(s)
    s.add_argument("--out", "-o", metavar="FILE", help="output file (default: standard output)")
    s.add_argument("--json", action="store_true",
                   help="print what was written as one JSON object (on standard error when the records go to "
                        "standard output)")
    s.set_defaults(func=cmd_record)


def cmd_record(args: argparse.Namespace) -> int:
    from tarneeb.play.simulate import simulate

    rules = rules_from_args(args)
    out: IO[bytes]
    to_file = bool(args.out and args.out != "-")
    if to_file:
        try:
            out = open(args.out, "wb")
        except OSError as e:
            raise BadInput(f"--out {args.out}: cannot write: {os_error_words(e)}") from None
    else:
        out = sys.stdout.buffer
    matches = lines = hands = 0
    interrupted = False
    try:
        # on standard error, on a terminal only, and not between the records shown on that terminal
        with progress_bar(show=to_file or not sys.stdout.isatty()) as bar:
            task = bar.add_task(f"recording {rules.label()}", total=args.matches)
            for res in simulate(rules, args.matches, args.seed, args.policy, args.max_hands):
                chunk = list(match_lines(res.match, res.seed, meta={"seed": res.seed, "policy": args.policy,
                                                                     "generator": "tarneeb record"}))
                out.write(b"".join(chunk))  # one write per match: an interrupt never leaves half a match
                matches += 1
                lines += len(chunk)
                hands += res.hands + res.redeals
                bar.advance(task)
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        out.flush()
        if to_file:
            out.close()
        _report(args, matches, lines, hands, interrupted)
    return 0


def _report(args: argparse.Namespace, matches: int, lines: int, hands: int, interrupted: bool) -> None:
    where = args.out if args.out and args.out != "-" else "standard output"
    if args.json:
        obj = {"summary": True, "out": where, "matches": matches, "lines": lines, "hand_records": hands,
               "interrupted": interrupted}
        if where == "standard output":
            sys.stderr.write(json.dumps(obj) + "\n")
        else:
            print_json(obj)
    elif where != "standard output" or interrupted:
        note = "interrupted: " if interrupted else ""
        sys.stderr.write(f"record: {note}wrote {n_of(matches, 'whole match', 'whole matches')}, "
                         f"{n_of(hands, 'hand record')}, {n_of(lines, 'line')} to {where}\n")
