"""``tarneeb show RULESET``: the clauses, options and ambiguities (with the reading taken) of a ruleset."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tarneeb.cli.common import console, print_json
from tarneeb.core.sources import cite
from tarneeb.core.spec import get_ruleset


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("show", help="clauses, options and ambiguities of a ruleset")
    s.add_argument("ruleset", help="the ruleset id (see `tarneeb rulesets`)")
    s.add_argument("--json", action="store_true", help="the ruleset as one JSON object")
    s.set_defaults(func=cmd_show)


def show_data(rid: str) -> dict[str, Any]:
    """What ``tarneeb show RID --json`` prints."""
    from tarneeb.core.ambiguity import ambiguities

    rs = get_ruleset(rid)
    return {
        "id": rs.id, "name": rs.name, "document": rs.document, "publisher": rs.publisher, "summary": rs.summary,
        "clauses": [{"id": c.id, "text": c.text, "doc": c.doc, "heading": c.heading,
                     "source": cite(c.doc, c.heading)} for c in rs.clauses.values()],
        "options": [{"name": o.name, "type": o.type, "default": o.default, "valid": o.valid_text(),
                     "meaning": o.meaning} for o in rs.options],
        "ambiguities": [{"id": a.id, "question": a.question, "reading": a.taken[rs.id],
                         "reading_text": a.reading_text(a.taken[rs.id])}
                        for a in ambiguities() if rs.id in a.taken],
    }


def cmd_show(args: argparse.Namespace) -> int:
    data = show_data(args.ruleset)
    if args.json:
        print_json(data)
        return 0
    from rich.table import Table

    con = console()
    con.print(f"[bold]{data['name']}[/bold] ({data['id']}), from {cite(data['document'], '')}")
    con.print(data["summary"])
    t = Table(title="Clauses")
    for col in ("id", "rule (our wording)", "source"):
        t.add_column(col, overflow="fold")
    for c in data["clauses"]:
        t.add_row(c["id"], c["text"], c["source"])
    con.print(t)
    if data["options"]:
        t = Table(title="Options")
        for col in ("name", "default", "valid", "meaning"):
            t.add_column(col, overflow="fold")
        for o in data["options"]:
            t.add_row(o["name"], json.dumps(o["default"]), o["valid"], o["meaning"])
        con.print(t)
    t = Table(title="Ambiguities and the reading taken")
    for col in ("id", "question", "reading"):
        t.add_column(col, overflow="fold")
    for a in data["ambiguities"]:
        t.add_row(a["id"], a["question"], f"{a['reading']}: {a['reading_text']}")
    con.print(t)
    return 0
