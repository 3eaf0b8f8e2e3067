"""``tarneeb new-ruleset --from RULESET``: a commented house-rules file to start from.

Every parameter and option of the base is listed with its current value, the values allowed and what it
means; the file loads unchanged (it then plays exactly as its base). Change numbers, add clauses, and run
``tarneeb prove --ruleset FILE`` and ``tarneeb rules FILE``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tarneeb.cli.common import print_json
from tarneeb.core.prose import depends_on
from tarneeb.core.spec import PARAMS, get_ruleset

# what each parameter means, for the scaffold's comments (the values allowed come from the schema)
MEANINGS: dict[str, str] = {
    "family": "individual bids (Tarneeb 41) or a team auction (classic); a house ruleset keeps its base's",
    "direction": "direction of dealing, bidding and play: ccw (to the right) or cw",
    "first_dealer": "who deals the first hand",
    "trump.source": "where trump comes from: a fixed suit, the dealer's last card (its suit, or the other suit "
                    "of its colour), or the contract",
    "trump.fixed_suit": "the trump suit when trump.source is fixed (C, D, H, S)",
    "redeal.dealer": "who deals again after a void hand: the same dealer or the next",
    "tie.rule": "who wins when both teams qualify in one hand",
    "timer.auto_bid": "the bid a turn timer makes for a player (0: no timer bid)",
    "timer.auto_play": "the card a turn timer plays for a player (empty: no timer play)",
    "win.target": "the score a player (individual) or team (auction) must reach",
    "bid.min": "the lowest bid",
    "bid.max": "the highest bid",
    "bid.excluded": "bids that are not allowed (a list)",
    "bid.rising_min": "whether the lowest bid rises with the bidder's own score",
    "bid.rising_table": "[score, minimum bid] pairs: from that score on, bid at least that much",
    "bid.total_min": "when the four bids sum to less than this the hand is void and redealt",
    "score.values": "the value of each bid from bid.min to bid.max (won when made, lost when failed)",
    "win.made_bid_wins": "a made bid of this number wins the game at once (0: no such rule)",
    "auction.min_bid": "the lowest opening bid of the auction",
    "auction.style": "dealer's privilege (the dealer may match the top bid) or a continuous auction",
    "auction.all_pass": "when all four pass: redeal by the next dealer, or the dealer must bid",
    "auction.egyptian": "whether a bid names its strain (a suit or no trump)",
    "play.must_trump": "whether a player void in the led suit must trump",
    "deal.weak_redeal": "whether a hand with no card above 10 is redealt",
    "score.style": "standard (bidders score their tricks) or bid-only (bidders score the bid)",
    "score.kaboot": "taking all 13 tricks scores 16, 26, double, or nothing extra",
    "score.bid13": "a made bid of 13: wins the game, scores 26, or scores like any bid",
    "win.play_on_raise": "after a game the target rises by this much and play goes on (0: no play-on)",
}
_RANGES = {"bid.min": "an integer from 1 to 13", "bid.max": "an integer from bid.min to 13",
           "bid.total_min": "an integer from 0 to 52 (reachable with the highest legal bids)",
           "auction.min_bid": "an integer from 1 to 13", "win.target": "a positive integer",
           "timer.auto_bid": "0, or a bid legal at every score", "win.made_bid_wins": "0, or a legal bid",
           "win.play_on_raise": "0 or a positive integer"}


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return str(v)


def _allowed(param: str) -> str:
    kind, allowed = PARAMS[param]
    if allowed:
        return ", ".join(_toml(a) for a in allowed)
    if kind == "bool":
        return "true, false"
    if kind == "ints":
        return "a list of integers" + (" (one per bid from bid.min to bid.max)" if param == "score.values" else "")
    if kind == "pairs":
        return "a list of [score, bid] pairs"
    return _RANGES.get(param, "an integer")


def scaffold(base_ref: str, new_id: str, name_ar: str = "", summary_ar: str = "") -> str:
    """The commented file (text). ``name_ar`` and ``summary_ar`` are the Arabic sheet's name and summary; left blank,
    the file says so and the Arabic sheet marks them missing (it never shows the English ones in their place)."""
    rs = get_ruleset(base_ref)
    by_param = {o.param: o for o in rs.options}
    out = [
        f"# House rules extending {rs.id}: {rs.name}.",
        "# Every parameter and option of the base is listed below with its current value; change what your",
        "# table plays differently and leave the rest (an unchanged value changes nothing). Then:",
        "#   tarneeb prove --ruleset THIS_FILE         (is it sound? a stuck combination is refused with a witness)",
        "#   tarneeb rules THIS_FILE --format md --lang ar   (the rule sheet; also --lang en, --format html)",
        f"#   tarneeb diff {rs.id} THIS_FILE      (what your rules change, each with a witness)",
        "schema = 1",
        f'id = "{new_id}"',
        f'extends = "{rs.name_ref}"',
        f"name = {_toml(rs.name + ' (house rules)')}",
        "# name and summary may name parameters in braces too, e.g. {win.target}",
        f"summary = {_toml(rs.name + ' as our table plays it: target {win.target}.')}",
        "# The Arabic sheet's name and summary (tarneeb rules THIS_FILE --lang ar). Left blank, the Arabic sheet",
        "# says they are not written yet; write them in Arabic (they may name parameters in braces too).",
        f"name_ar = {_toml(name_ar)}" + ("" if name_ar else "      # TO WRITE: the name in Arabic"),
        f"summary_ar = {_toml(summary_ar)}" + ("" if summary_ar else "   # TO WRITE: the summary in Arabic"),
        "",
        "# Your own rule sheet: the clauses you add cite it (title, and where members can read it).",
        "[[source]]",
        f'id = "{new_id}-sheet"',
        'publisher = "Our club"',
        'title = "House rules"',
        'published = "where the sheet is published (a web address, a notice board)"',
        "",
        "[params]",
    ]
    for p in sorted(rs.params):
        if p == "family" or p in by_param:
            continue
        out += [f"# {MEANINGS.get(p, p)}; allowed: {_allowed(p)}", f"{p} = {_toml(rs.params[p])}"]
    out += ["", "# Option defaults (a player can still choose another value with --option NAME=VALUE).", "[defaults]"]
    if not rs.options:
        out += [f"# {rs.id} has no options."]
    for o in rs.options:
        out += [f"# {o.meaning} (parameter {o.param}); allowed: {o.valid_text()}", f"{o.name} = {_toml(o.default)}"]
    follows = [cid for cid, c in rs.clauses.items() if depends_on(cid, c.template)]
    out += [
        "",
        "# Add a clause, or replace one of the base's by using its id. `text` may name parameters in braces",
        "# ({win.target}) so the sheet always states the numbers the engine plays; give `text_ar` for the Arabic",
        "# sheet. A base clause that states a parameter you change in fixed words must be replaced (the file is",
        "# refused otherwise, naming it). Clauses of the base whose wording depends on parameters:",
    ]
    for cid in follows:
        c = rs.clauses[cid]
        out += [f"#   {cid}: {c.template}"]
    out += [
        "# [[clause]]",
        '# id = "win.made-bid"',
        '# heading = "Extra rules"',
        '# text = "A player who bids {win.made_bid_wins} and makes it wins the game for their team at once."',
        '# text_ar = "اللي بيطلب {win.made_bid_wins} وبيجيبه، فريقه بيربح اللعبة دغري."',
        "",
        "# Clauses of the base that the engine does not cite may be dropped:",
        "# remove_clauses = []",
    ]
    return "\n".join(out) + "\n"


def _ask(prompt: str) -> str:
    """One line from a person at a terminal (the file itself goes to standard output); "" when none is there."""
    if not sys.stdin.isatty():
        return ""
    sys.stderr.write(prompt)
    sys.stderr.flush()
    try:
        return sys.stdin.readline().strip()
    except (EOFError, KeyboardInterrupt):
        return ""


def cmd_new_ruleset(args: argparse.Namespace) -> int:
    name_ar, summary_ar = args.name_ar, args.summary_ar
    if name_ar is None and not args.json:
        name_ar = _ask("The rule sheet's name in Arabic (Enter to leave it blank, marked in the file): ")
    if summary_ar is None and not args.json:
        summary_ar = _ask("Its summary in Arabic (Enter to leave it blank, marked in the file): ")
    text = scaffold(args.base, args.id, name_ar or "", summary_ar or "")
    if args.json:
        print_json({"base": args.base, "id": args.id, "text": text})
    else:
        sys.stdout.write(text)
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "new-ruleset", help="print a commented house-rules file extending a ruleset, to edit",
        description="Write (to standard output) a house-rules file that extends RULESET: every parameter and "
                    "option with its current value, allowed values and meaning. It loads unchanged.")
    s.add_argument("--from", dest="base", required=True, metavar="RULESET",
                   help="the ruleset to extend: a built-in id or the path of a ruleset file")
    s.add_argument("--id", default="my-club", help="the id of the new ruleset (default my-club)")
    s.add_argument("--name-ar", dest="name_ar", metavar="TEXT",
                   help="the Arabic sheet's name (asked at a terminal; else left blank and marked in the file)")
    s.add_argument("--summary-ar", dest="summary_ar", metavar="TEXT",
                   help="the Arabic sheet's summary (asked at a terminal; else left blank and marked in the file)")
    s.add_argument("--json", action="store_true", help="one JSON object with the file's text")
    s.set_defaults(func=cmd_new_ruleset)
