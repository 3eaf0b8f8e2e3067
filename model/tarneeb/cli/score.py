"""``tarneeb score``: a score sheet kept at a real table (spec/sheets/), replayed under its rules."""

from __future__ import annotations

import argparse
import sys
from typing import Any

EPILOG = """\
The sheet names its ruleset (an id, or the path of a ruleset file relative to the sheet), the four players in
seat order, the first dealer and each hand's bids or auction and tricks (format: spec/sheets/README.md).
Exit status: 0 when every entry is possible, 1 at the first impossible entry (reported as
FILE: hand N: FIELD: message (clause)), 2 when the file cannot be used.
The words name the players; --json counts seats 0 to 3 (seat 0 is the first player named), teams 0 and 1
(team 0 is seats 0 and 2), hands from 1. Examples:
  tarneeb score spec/sheets/examples/card-kings-41.json
  tarneeb score spec/sheets/examples/classic.json --json
  tarneeb score spec/sheets/examples/tarneeb-400.json --lang ar
"""


def _columns(res: Any) -> list[tuple[str, int]]:
    """The table's columns: (heading, the seat whose score it shows): each player, or each team in the auction
    family (partners carry the team score)."""
    from tarneeb.sheet import team_names

    names = res.sheet.players
    if res.rules.individual:
        return [(names[s], s) for s in range(4)]
    return [(team_names(names, t).replace(" and ", " & "), t) for t in (0, 1)]


def _change(before: int, d: int, after: int) -> str:
    return f"{before} {'+' if d >= 0 else '-'} {abs(d)} = {after}"


def _text(file: str, res: Any) -> str:
    from tarneeb.core.sources import rule_words
    from tarneeb.sheet import bid_words, team_names

    names = res.sheet.players
    rules = res.rules
    cols = _columns(res)
    out = [f"Score sheet {file}: {rules.label()} ({rules.ruleset.name}), target {res.first_target}.",
           "Players: " + ", ".join(f"{n} (player {s + 1})" for s, n in enumerate(names)) + "; "
           f"{team_names(names, 0)} play against {team_names(names, 1)}. {names[res.sheet.first_dealer]} deals first.", ""]
    width = [max(len(h), 6) for h, _ in cols]
    dw = max(len("Dealer"), *(len(n) for n in names))
    out.append(f"{'Hand':>4}  {'Dealer':<{dw}}  " + "  ".join(f"{h:>{w}}" for (h, _), w in zip(cols, width, strict=True)))
    for h in res.hands:
        row = "  ".join(f"{h.scores[s]:>{w}}" for (_, s), w in zip(cols, width, strict=True))
        note = ("  thrown in" if h.redeal else f"  {team_names(names, h.winner)} win the match" if h.winner is not None
                else f"  {team_names(names, h.game_won)} win a game" if h.game_won is not None else "")
        out.append(f"{h.number:>4}  {names[h.dealer]:<{dw}}  {row}{note}")
    out.append("")
    before = res.start_scores
    for h in res.hands:
        out.append(f"Hand {h.number}, dealt by {names[h.dealer]}:")
        if h.redeal and h.calls:
            word = "Bids" if rules.individual else "Calls"
            out.append(f"  {word}: " + ", ".join(f"{names[s]} {bid_words(b)}" for s, b in h.calls) + ".")
        out += [f"  {r.text[:-1]}, by {rule_words(r.clause)}." for r in h.reasons if r.kind in ("deal", "score")]
        if not h.redeal:
            out.append("  Scores: " + "; ".join(f"{head} {_change(before[s], h.deltas[s], h.scores[s])}"
                                                for head, s in cols) + ".")
        out += [f"  {r.text[:-1]}, by {rule_words(r.clause)}." for r in h.reasons if r.kind in ("outcome", "dealer")]
        before = h.scores
    out.append("")
    final = ", ".join(f"{head} {res.scores[s]}" for head, s in cols)
    if res.over:
        out.append(f"Outcome: {team_names(names, res.winner)} win the match by {rule_words(res.winner_clause)}; "
                   f"final scores {final}.")
    else:
        nxt = res.next_dealer
        out.append(f"Outcome: no winner yet; scores {final}"
                   + (f"; {names[nxt]} deals hand {len(res.hands) + 1}." if nxt is not None else "."))
    return "\n".join(out) + "\n"


def error_line(file: str, err: Any) -> str:
    """The first impossible entry as one line: ``FILE: hand N: FIELD: message (clause)``."""
    where = f"hand {err.hand}: " if err.hand else ""
    return f"{file}: {where}{err.field}: {err.message} ({err.clause})"


def cmd_score(args: argparse.Namespace) -> int:
    from tarneeb.cli.common import print_json
    from tarneeb.sheet import read_sheet, result_dict, score_sheet

    res = score_sheet(read_sheet(args.file))
    if args.json:
        print_json(result_dict(res))
    elif res.error is None or res.error.hand:  # an impossible head (the first dealer): its line alone
        if args.lang == "ar":
            from tarneeb.cli.score_ar import text_ar

            sys.stdout.write(text_ar(args.file, res, _columns(res)))
        else:
            sys.stdout.write(_text(args.file, res))
    if res.error is not None:
        sys.stderr.write(error_line(args.file, res.error) + "\n")
        return 1
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "score", help="replay a score sheet kept at a real table: each hand's arithmetic, the dealers, the outcome",
        description="Replay a score sheet (spec/sheets/README.md: the ruleset, the four players, the first dealer, "
                    "each hand's bids or auction and tricks) under its rules: every check and every number is the "
                    "rule core's. Prints the running scores as a table, each hand's arithmetic in words with the "
                    "deciding clauses, who deals each hand, and the outcome; stops at the first impossible entry.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("file", metavar="FILE", help="the score sheet (JSON, format tarneeb-score-sheet version 1)")
    s.add_argument("--json", action="store_true",
                   help="machine-readable output: each hand's dealer, calls, changes, running scores and reasons, "
                        "the outcome (seats 0-3, teams 0/1, hands from 1)")
    s.add_argument("--lang", choices=("en", "ar"), default="en",
                   help="language of the words (ar: Arabic, as players at the table say it, printed right-to-left; "
                        "the JSON and the line of an impossible entry stay as they are)")
    s.set_defaults(func=cmd_score)
