"""``tarneeb show RULESET``: the clauses, options and ambiguities (with the reading taken) of a ruleset."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tarneeb.cli.common import console, print_json
from tarneeb.core.cards import JSON_NUMBERING
from tarneeb.core.sources import cite, rule_words, topic_words
from tarneeb.core.spec import get_ruleset
from tarneeb.docgen.rulebook import doc_technical, label, ruleset_doc, runs_by
from tarneeb.i18n.tables import LANGS


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("show", help="clauses, options and ambiguities of a ruleset")
    s.add_argument("ruleset", help="ruleset id (see `tarneeb rulesets`) or the path of a ruleset file (house rules)")
    s.add_argument("--lang", choices=LANGS, default="en",
                   help="language of the texts (default en; ar is Arabic, printed right-to-left)")
    s.add_argument("--json", action="store_true", help="the ruleset as one JSON object")
    s.set_defaults(func=cmd_show)


def show_data(rid: str, lang: str = "en") -> dict[str, Any]:
    """What ``tarneeb show RID --json`` prints; with ``lang="ar"`` the texts are the Arabic ones.

    The keys are the same in every language; ``lang`` says which one the texts are in, and in Arabic each
    clause and option also has ``citation`` (the Arabic citation) beside ``source`` (the English one).
    """
    if lang != "en":
        return _show_data_lang(rid, lang)
    from tarneeb.core.ambiguity import ambiguities, taken_for

    rs = get_ruleset(rid)
    return {
        "numbering": JSON_NUMBERING,
        "id": rs.id, "name": rs.name, "document": rs.document, "publisher": rs.publisher, "summary": rs.summary,
        "clauses": [{"id": c.id, "text": c.text, "doc": c.doc, "heading": c.heading,
                     "source": cite(c.doc, c.heading)} for c in rs.clauses.values()],
        "options": [{"name": o.name, "type": o.type, "default": o.default, "valid": o.valid_text(),
                     "meaning": o.meaning} for o in rs.options],
        "ambiguities": [{"id": a.id, "question": a.question, "reading": taken,
                         "reading_text": a.reading_text(taken),
                         "selectable": [r for r in a.params if r != taken]}
                        for a in ambiguities() if (taken := taken_for(a, rs)) is not None],
    }


def _show_data_lang(rid: str, lang: str) -> dict[str, Any]:
    d = ruleset_doc(rid, lang)  # a missing translation is a located SpecError
    rs = get_ruleset(rid)
    by_id = {c.id: c for s in d.sections for c in s.clauses}
    return {
        "numbering": JSON_NUMBERING,
        "id": rs.id, "lang": lang, "name": d.name, "document": rs.document, "publisher": rs.publisher,
        "summary": d.summary,
        "clauses": [{"id": c.id, "text": by_id[c.id].text, "doc": c.doc, "heading": c.heading,
                     "source": cite(c.doc, c.heading), "citation": cite(c.doc, c.heading, lang)}
                    for c in rs.clauses.values()],
        "options": [{"name": o.name, "title": item.title, "type": o.type, "default": o.default, "valid": item.allowed,
                     "meaning": item.meaning, "citation": cite(o.doc, o.heading, lang)}
                    for o, item in zip(rs.options, d.options, strict=True)],
        "ambiguities": [{"id": a.id, "question": a.question, "reading": a.reading, "reading_text": a.reading_text,
                         "selectable": list(a.selectable),
                         "other_readings": [{"id": r, "text": t} for r, t in a.others]}
                        for a in d.ambiguities],
        "default_text": {o.name: item.default for o, item in zip(rs.options, d.options,
                                                                                      strict=True)},
        "technical": doc_technical(d),
    }


def show_lines_rtl(data: dict[str, Any], width: int = 100) -> list[str]:
    """The Arabic ``show`` as plain lines, right-to-left, in the players' words: the rules by source, the options
    by their Arabic names and values, each ambiguity with the reading taken and the others; no id in them. The
    ids (ruleset, clauses in order, options as typed, readings and the ``--reading`` commands) are on one
    technical line at the end, in a first-strong isolate."""
    from tarneeb.docgen.rulebook import technical_line, txt_line, wrap_at
    from tarneeb.i18n.arabic import rtl_line, seat_convention

    L = {k: label(data["lang"], k) for k in ("document", "rules", "source", "options", "allowed", "ambiguities",
                                             "reading", "other_readings")}

    def wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
        return wrap_at(text, indent, width, keep_runs=True, first=first)

    lines = wrap(f"{data['name']}، {L['document']}: {cite(data['document'], '', data['lang'])}")
    lines += wrap(data["summary"]) + wrap(seat_convention(data["lang"])) + ["", L["rules"]]
    for source, run in runs_by(data["clauses"], lambda c: str(c["citation"])):  # a source once, above its clauses
        lines += wrap(f"({L['source']}: {source})")
        for c in run:
            lines += wrap(c["text"], "    ", first="  • ")
    if data["options"]:
        lines += ["", L["options"]]
        for o in data["options"]:
            lines += wrap(f"{o['title']}: {data['default_text'][o['name']]}   ({L['allowed']}: {o['valid']})")
            lines += wrap(o["meaning"], "    ")
    lines += ["", L["ambiguities"]]
    for a in data["ambiguities"]:
        lines += wrap(a["question"], "    ", first="  • ")
        lines += wrap(f"{L['reading']}: {a['reading_text']}", "    ")
        lines += [ln for r in a["other_readings"] for ln in wrap(f"{L['other_readings']}: {r['text']}", "    ")]
    out = [txt_line(ln) for ln in lines]
    return [*out, "", rtl_line(technical_line(data["lang"], data["technical"]))]


def cmd_show(args: argparse.Namespace) -> int:
    data = show_data(args.ruleset, args.lang)
    if args.json:
        print_json(data)
        return 0
    if args.lang != "en":
        # rich tables lay cells out left to right; Arabic gets lines a bidi-aware terminal shows right-to-left
        sys.stdout.write("\n".join(show_lines_rtl(data)) + "\n")
        return 0
    from rich.table import Table

    con = console()
    con.print(f"[bold]{data['name']}[/bold], ruleset {data['id']}, from {cite(data['document'], '')}")
    con.print(data["summary"])
    t = Table(title="Clauses")
    for col in ("rule", "its wording (ours)", "source"):
        t.add_column(col, overflow="fold")
    for c in data["clauses"]:
        t.add_row(rule_words(c["id"]), c["text"], c["source"])
    con.print(t)
    if data["options"]:
        t = Table(title="Options")
        for col in ("name", "default", "valid", "meaning"):
            t.add_column(col, overflow="fold")
        for o in data["options"]:
            d = o["default"]  # as the valid values are written: true, false, a name or a number (never JSON quotes)
            t.add_row(o["name"], ("true" if d else "false") if isinstance(d, bool) else str(d), o["valid"], o["meaning"])
        con.print(t)
    t = Table(title="Ambiguities and the reading taken")
    for col in ("about", "question", "reading"):
        t.add_column(col, overflow="fold")
    for a in data["ambiguities"]:
        t.add_row(topic_words(a["id"]), a["question"], f"{a['reading']}: {a['reading_text']}" + "".join(
            f"\nselect another: --reading {a['id']}={r}" for r in a.get("selectable", [])))
    con.print(t)
    return 0
