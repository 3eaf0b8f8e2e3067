"""The ``tarneeb`` command line.

Core commands live here; other commands register themselves from their own
modules (see ``EXTENSIONS``), so each concern stays in one module. Every
command has ``--json``; errors print one located message and exit 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tarneeb.core.spec import get_ruleset, load_rules, parse_option_args, rulesets
from tarneeb.errors import TarneebError

# command modules: each exposes register(subparsers) -> None
EXTENSIONS = (
    "tarneeb_proofs.cli",  # prove                      (issue 3)
    "tarneeb.cli.verify",  # record, verify             (issue 4)
    "tarneeb.cli.vectors",  # vectors, fuzz             (issue 4)
    "tarneeb.cli.rules",  # rules                        (issue 5)
    "tarneeb.cli.ruling",  # ruling                     (issue 5)
    "tarneeb_proofs.diff_cli",  # diff                  (issue 5)
)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _console() -> Any:
    from rich.console import Console

    return Console()


def cmd_rulesets(args: argparse.Namespace) -> int:
    rows = [{"id": rs.id, "name": rs.name, "document": rs.document, "summary": rs.summary,
             "options": [o.name for o in rs.options]} for rs in rulesets().values()]
    if args.json:
        _print_json(rows)
        return 0
    from rich.table import Table

    t = Table(title="Rulesets")
    for col in ("id", "document", "summary"):
        t.add_column(col, overflow="fold")
    for row in rows:
        t.add_row(str(row["id"]), str(row["document"]), str(row["summary"]))
    _console().print(t)
    return 0


def show_data(rid: str) -> dict[str, Any]:
    from tarneeb.core.ambiguity import ambiguities

    rs = get_ruleset(rid)
    return {
        "id": rs.id, "name": rs.name, "document": rs.document, "publisher": rs.publisher, "summary": rs.summary,
        "clauses": [{"id": c.id, "text": c.text, "source": f"{c.doc}: {c.heading}"} for c in rs.clauses.values()],
        "options": [{"name": o.name, "type": o.type, "default": o.default, "valid": o.valid_text(),
                     "meaning": o.meaning} for o in rs.options],
        "ambiguities": [{"id": a.id, "question": a.question, "reading": a.taken[rs.id],
                         "reading_text": a.reading_text(a.taken[rs.id])}
                        for a in ambiguities() if rs.id in a.taken],
    }


def cmd_show(args: argparse.Namespace) -> int:
    data = show_data(args.ruleset)
    if args.json:
        _print_json(data)
        return 0
    from rich.table import Table

    con = _console()
    con.print(f"[bold]{data['name']}[/bold] ({data['id']}), from {data['document']}")
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


def cmd_simulate(args: argparse.Namespace) -> int:
    from tarneeb.play.simulate import simulate, summarize

    rules = load_rules(args.ruleset, dict(parse_option_args(args.option or [])))
    results = []
    gen = simulate(rules, args.matches, args.seed, args.policy, args.max_hands)
    if args.json:
        for res in gen:
            results.append(res)
            _print_json(res.to_json())
        _print_json(summarize(results))
        return 0
    from rich.progress import Progress

    with Progress(transient=True, disable=not sys.stderr.isatty()) as prog:
        task = prog.add_task(f"simulating {rules.label()}", total=args.matches)
        for res in gen:
            results.append(res)
            prog.advance(task)
    _print_summary(rules.label(), args.policy, summarize(results), results)
    return 0


def _print_summary(label: str, policy: str, s: dict[str, Any], results: Sequence[Any]) -> None:
    from rich.markup import escape

    con = _console()
    con.print(f"[bold]{escape(label)}[/bold] ({policy} policy): {s['matches']} matches, "
              f"team 0 won {s['team0_wins']}, team 1 won {s['team1_wins']}, unfinished {s['unfinished']}; "
              f"{s['hands']} hands played ({s['mean_hands']} per match), {s['redeals']} redeals; "
              f"decided by {s['decided_by']}")
    if len(results) <= 5:
        for r in results:
            con.print(f"  seed {r.seed}: first dealer {r.first_dealer}, {r.hands} hands, {r.redeals} redeals, "
                      f"final scores {r.final_scores}, winner "
                      f"{'team ' + str(r.winner) if r.winner is not None else 'none (unfinished)'}"
                      f"{' by ' + r.winner_rule if r.winner_rule else ''}")


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: one seeded match per ruleset with a hand-by-hand summary of the first hand."""
    from tarneeb.play.simulate import play_match

    out = []
    for rid in rulesets():
        rules = load_rules(rid)
        res = play_match(rules, args.seed, 0, "heuristic", args.max_hands)
        out.append(res)
        if args.json:
            _print_json(res.to_json())
        else:
            played = [r for r in res.match.records if r.redeal is None]
            if played:
                _console().print(hand_text(rules, played[0]), highlight=False)
            _print_summary(rules.label(), "heuristic", {
                "matches": 1, "team0_wins": int(res.winner == 0), "team1_wins": int(res.winner == 1),
                "unfinished": int(res.winner is None), "hands": res.hands, "redeals": res.redeals,
                "mean_hands": res.hands, "decided_by": {res.winner_rule: 1} if res.winner_rule else {},
            }, [res])
    return 0


def hand_text(rules: Any, rec: Any) -> str:
    """One played hand, readable: hands, bids, tricks with winners, score changes."""
    from tarneeb.core.cards import card_str, hand_str, strain_name
    from tarneeb.core.rules import deal_hands

    hands = deal_hands(rules, rec.dealer, rec.deck)
    trump = strain_name(rec.trump, letter=True) if rec.trump is not None else "-"
    lines = [f"  first hand of {rules.id}: dealer seat {rec.dealer}"
             + (f", revealed {card_str(rec.revealed)}" if rec.revealed is not None else "") + f", trump {trump}"]
    for s in range(4):
        lines.append(f"    seat {s}: {hand_str(hands[s])}")
    lines.append("    bids: " + ", ".join(f"seat {s} {str(b).removeprefix('bid:')}" for s, b in rec.bids))
    if rec.contract is not None:
        lines.append(f"    contract: seat {rec.contract[0]} for {rec.contract[1]}")
    for i, t in enumerate(rec.tricks, 1):
        lines.append(f"    trick {i:2}: led by seat {t.leader}: " + " ".join(card_str(c) for c in t.cards)
                     + f" -> seat {t.winner}")
    lines.append(f"    tricks taken {rec.tricks_won}; score changes {rec.deltas}; scores {rec.scores_after}")
    return "\n".join(lines)


CommandFn = Callable[[argparse.Namespace], int]


def count_arg(lowest: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``lowest``."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < lowest:
            raise argparse.ArgumentTypeError(f"{n} is below the lowest allowed value, {lowest}")
        return n

    return parse


def add_selfplay_args(s: argparse.ArgumentParser) -> None:
    """The arguments shared by every command that plays seeded matches (simulate, record)."""
    s.add_argument("--ruleset", required=True)
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a ruleset option (repeatable)")
    s.add_argument("--matches", type=count_arg(1), default=10)
    s.add_argument("--seed", default="0")
    s.add_argument("--policy", choices=("heuristic", "random"), default="heuristic")
    s.add_argument("--max-hands", type=count_arg(1), default=200, help="stop a match unfinished after this many played hands")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tarneeb", description="Reference model of the Tarneeb card games.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("rulesets", help="list the rulesets")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_rulesets)

    s = sub.add_parser("show", help="clauses, options and ambiguities of a ruleset")
    s.add_argument("ruleset")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_show)

    s = sub.add_parser("simulate", help="seeded self-play of whole matches")
    add_selfplay_args(s)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("demo", help="one seeded match per ruleset")
    s.add_argument("--seed", default="demo")
    s.add_argument("--max-hands", type=count_arg(1), default=200)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_demo)

    for mod in EXTENSIONS:
        try:
            m = importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name is not None and mod.startswith(e.name):
                continue  # that command module is not installed
            raise
        m.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc: int = args.func(args)
        return rc
    except TarneebError as e:
        print(f"tarneeb: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
