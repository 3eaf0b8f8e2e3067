"""``tarneeb diff A B [--question KIND] [--json]``: situations where two rulesets rule differently (Z3).

Loaded through the ``tarneeb.commands`` entry point; it imports z3 (by way of
``.diff``) when loaded, so without z3 the engine lists a stand-in instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from .diff import diff, witness_text


def cmd_diff(args: argparse.Namespace) -> int:
    """``tarneeb diff``: compare two rulesets question by question; the exit code says whether they differ."""
    t0 = time.perf_counter()
    ws = diff(args.a, args.b, args.question or None, timeout_ms=args.timeout * 1000)
    if args.json:
        sys.stdout.write(json.dumps({"a": args.a, "b": args.b, "checks": [w.to_json() for w in ws],
                                     "seconds": round(time.perf_counter() - t0, 3)}, ensure_ascii=False) + "\n")
        return 0
    found = [w.check for w in ws if w.status == "difference"]
    out = [f"{args.a} vs {args.b}"]
    for w in ws:
        out.append(witness_text(w))
    out.append(f"Differences in {len(found)} of {len(ws)} checks"
               + (f": {', '.join(found)}" if found else "") + f" ({time.perf_counter() - t0:.1f} s).")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``diff`` command to the CLI's subcommands."""
    s = subparsers.add_parser(
        "diff", help="find situations where two rulesets rule differently (Z3), with the smallest witness",
        description="For each question kind, search with Z3 for a concrete situation that rulesets A and B rule "
                    "differently; print the smallest witness found (checked against the engine) or 'no "
                    "difference' (proved). A ruleset is ID or ID:option=value,option=value.")
    s.add_argument("a", metavar="A", help="the first ruleset: ID or ID:option=value,...")
    s.add_argument("b", metavar="B", help="the second ruleset: ID or ID:option=value,...")
    s.add_argument("--question", action="append", metavar="KIND",
                   help="a question kind (trump, bid-legal, score, redeal, winner, card-legal, trick-winner, "
                        "next-dealer) or a check (redeal-dealer, tie-rule); repeatable; default: all")
    s.add_argument("--timeout", type=int, default=20, help="seconds per check (default 20)")
    s.add_argument("--json", action="store_true", help="one JSON object per question kind")
    s.set_defaults(func=cmd_diff)
