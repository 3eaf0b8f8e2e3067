"""``tarneeb rules RULESET``: the generated rule documentation in a terminal.

Uses the same generator (:mod:`tarneeb.docgen.rulebook`) as the sphinx pages.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tarneeb.core.cards import JSON_NUMBERING
from tarneeb.docgen.rulebook import render, ruleset_doc
from tarneeb.i18n.tables import LANGS


def cmd_rules(args: argparse.Namespace) -> int:
    doc = ruleset_doc(args.ruleset, args.lang)
    if args.json:
        sys.stdout.write(json.dumps({"numbering": JSON_NUMBERING, **doc.to_json()}, ensure_ascii=False) + "\n")
        return 0
    sys.stdout.write(render(doc, args.format))
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "rules", help="the rules of a ruleset, in the order a hand is played",
        description="Print the rules of RULESET generated from spec/: clauses by phase of the hand "
                    "with their sources, the options and the ambiguities with the reading taken.",
    )
    s.add_argument("ruleset", help="ruleset id (see `tarneeb rulesets`) or the path of a ruleset file (house rules)")
    s.add_argument("--format", choices=("md", "txt", "rst", "html"), default="txt", help="output format (default txt)")
    s.add_argument("--lang", choices=LANGS, default="en", help="language (default en; ar is Arabic)")
    s.add_argument("--json", action="store_true", help="the structured document as JSON")
    s.set_defaults(func=cmd_rules)
