"""``tarneeb ruling FILE [--json]``: settle a table argument from a situation file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def cmd_ruling(args: argparse.Namespace) -> int:
    from tarneeb.ruling import report_json, report_text, resolve_file

    rep = resolve_file(args.file)
    if args.json:
        sys.stdout.write(json.dumps(report_json(rep), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report_text(rep))
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "ruling", help="rule on a situation file (who wins, is it legal, ...) with the deciding clauses",
        description="Read a situation (TOML or JSON; schema spec/disputes/schema.json) and give the ruling under "
                    "each ruleset asked, with the clauses that decide it and any ambiguity of the documents.")
    s.add_argument("file", help="situation file (.toml or .json)")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_ruling)
