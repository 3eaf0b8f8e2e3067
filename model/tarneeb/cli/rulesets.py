"""``tarneeb rulesets``: the rulesets with their documents and one-line summaries."""

from __future__ import annotations

import argparse
from typing import Any

from tarneeb.cli.common import console, print_json
from tarneeb.core.sources import cite
from tarneeb.core.spec import rulesets


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("rulesets", help="list the rulesets")
    s.add_argument("--json", action="store_true", help="the rulesets as a JSON list")
    s.set_defaults(func=cmd_rulesets)


def cmd_rulesets(args: argparse.Namespace) -> int:
    rows = [{"id": rs.id, "name": rs.name, "document": rs.document, "source": cite(rs.document, ""), "summary": rs.summary,
             "options": [o.name for o in rs.options]} for rs in rulesets().values()]
    if args.json:
        print_json(rows)
        return 0
    from rich.table import Table

    t = Table(title="Rulesets")
    for col in ("id", "source", "summary"):
        t.add_column(col, overflow="fold")
    for row in rows:
        t.add_row(str(row["id"]), str(row["source"]), str(row["summary"]))
    console().print(t)
    return 0
