"""``tarneeb demo``: the main job, one seeded match per ruleset with the first hand shown in full."""

from __future__ import annotations

import argparse
from typing import Any

from tarneeb.cli.common import console, count_arg, print_json, print_summary
from tarneeb.core.sources import cite, rule_words
from tarneeb.core.spec import load_rules, rulesets


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("demo", help="one seeded match per ruleset")
    s.add_argument("--seed", default="demo", help="seed text; the same seed gives the same matches (default demo)")
    s.add_argument("--max-hands", type=count_arg(1), default=200,
                   help="stop a match unfinished after this many played hands (default 200)")
    s.add_argument("--json", action="store_true", help="one JSON object per match instead of the human output")
    s.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: one seeded match per ruleset (each its own deals), its cancelled deals and first played hand."""
    from tarneeb.play.simulate import play_match

    con = console()
    for rid in rulesets():
        rules = load_rules(rid)
        res = play_match(rules, f"{args.seed}-{rid}", 0, "heuristic", args.max_hands)
        if args.json:
            print_json(res.to_json())
            continue
        rs = rules.ruleset
        con.print(f"\n[bold]{rs.name}[/bold], ruleset {rid}, from {cite(rs.document, '')}", highlight=False)
        con.print(f"  {rs.summary}", highlight=False)
        records = res.match.records
        cancelled = [r for r in records if r.redeal is not None]
        for rec in cancelled[:3]:
            con.print("  " + cancelled_text(rules, rec, records), highlight=False)
        if len(cancelled) > 3:
            con.print(f"  ... and {len(cancelled) - 3} more cancelled deal(s)")
        played = [r for r in records if r.redeal is None]
        if played:
            con.print(hand_text(rules, played[0]), highlight=False)
        print_summary(rules.words(), "heuristic", {
            "matches": 1, "team0_wins": int(res.winner == 0), "team1_wins": int(res.winner == 1),
            "unfinished": int(res.winner is None), "hands": res.hands, "redeals": res.redeals,
            "mean_hands": res.hands, "decided_by": {res.winner_rule: 1} if res.winner_rule else {},
        }, [res], rules.family == "auction")
    return 0


def call_text(seat: int, bid: Any) -> str:
    """``player 2 bid 8`` or ``player 2 passed``."""
    from tarneeb.core.cards import player_name

    said = str(bid).removeprefix("bid:")
    return f"{player_name(seat)} passed" if said == "pass" else f"{player_name(seat)} bid {said}"


def cancelled_text(rules: Any, rec: Any, records: Any) -> str:
    """One cancelled deal: its bids, the clause that cancelled it, and who deals next (and by which clause)."""
    from tarneeb.core.cards import player_name
    from tarneeb.core.clauses import next_dealer_clause

    bids = ", ".join(call_text(s, b) for s, b in rec.bids) or "none"
    if rules.family == "individual" and rec.bids:
        bids += f" (total {sum(int(str(b).removeprefix('bid:')) for _, b in rec.bids)})"
    later = [r for r in records if r.deal_no == rec.deal_no + 1]
    nxt = f"; {player_name(later[0].dealer)} deals next, by {rule_words(next_dealer_clause(rec.redeal))}" if later else ""
    return (f"deal {rec.deal_no + 1} (dealt by {player_name(rec.dealer)}) was cancelled by {rule_words(rec.redeal)}: "
            f"{rules.ruleset.clauses[rec.redeal].text} Bids: {bids}{nxt}.")


def hand_text(rules: Any, rec: Any) -> str:
    """One played hand, readable: hands, bids, tricks with winners, score changes."""
    from tarneeb.core.cards import card_str, hand_codes, per_player, per_team, player_name, strain_name
    from tarneeb.core.rules import deal_hands

    hands = deal_hands(rules, rec.dealer, rec.deck)
    trump = strain_name(rec.trump) if rec.trump is not None else "none"
    lines = [f"  the first played hand (deal {rec.deal_no + 1}): dealt by {player_name(rec.dealer)}"
             + (f", revealed {card_str(rec.revealed)}" if rec.revealed is not None else "") + f", trump {trump}"]
    for s in range(4):
        lines.append(f"    {player_name(s)}: {hand_codes(hands[s])}")
    lines.append("    bids: " + ", ".join(call_text(s, b) for s, b in rec.bids))
    if rec.contract is not None:
        lines.append(f"    contract: {player_name(rec.contract[0])} for {rec.contract[1]}")
    for i, t in enumerate(rec.tricks, 1):
        lines.append(f"    trick {i:2}: led by {player_name(t.leader)}: " + " ".join(card_str(c) for c in t.cards)
                     + f" -> {player_name(t.winner)}")
    team = rules.family == "auction"  # the scores are the teams', each held by both partners

    def scores(v: Any) -> str:
        return per_team([v[0], v[1]]) if team else per_player(v)

    lines.append(f"    tricks taken: {per_player(rec.tricks_won)}")
    lines.append(f"    score changes: {scores(rec.deltas)}; scores: {scores(rec.scores_after)}")
    return "\n".join(lines)
