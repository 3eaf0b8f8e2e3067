"""Scoring and the outcome: the question kinds ``score`` and ``winner``, and the check that a stated score change
is one a hand can make.

Every rule is the rule core's: a hand's score changes (:func:`tarneeb.core.hand.hand_deltas`), the outcome
(:func:`tarneeb.core.hand.hand_outcome`, :func:`tarneeb.core.rules.auction_outcome`,
:func:`tarneeb.core.rules.individual_outcome`) and the comparisons behind it (:func:`tarneeb.core.rules.qualification`,
:func:`tarneeb.core.rules.tie_keys`); what is left here is the arithmetic as the ruling states it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from tarneeb.core import clauses as C
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.cards import player_name, team_label
from tarneeb.core.spec import Rules
from tarneeb.ruling.facts import all_bids, check_individual_bids, contract_of, family_check
from tarneeb.ruling.situation import Missing, Situation
from tarneeb.ruling.verdict import Decision, fmt_delta, team_name

# ------------------------------------------------------------------ a hand's score


def _hand_tricks(s: Situation) -> list[int]:
    if s.tricks is None:
        raise Missing("tricks", "the tricks each player took are needed")
    if sum(s.tricks) != 13:
        raise Missing("tricks", f"only {sum(s.tricks)} of 13 tricks are accounted for; the hand is scored after "
                                "all 13")
    return s.tricks


def _auction_deltas(r: Rules, s: Situation, tricks: list[int]) -> tuple[int, int]:
    contract = contract_of(s)
    if contract is None:
        raise Missing("contract", "the contract (its player and bid) decides the score")
    bad = _contract_range(r, contract[1])
    if bad is not None:
        raise s.err(["contract.bid"], f"{contract[1]} is not a possible contract under {r.label()} "
                                      f"({bad[1]}) [{bad[0]}]")
    deltas = H.hand_deltas(r, [0, 0, 0, 0], contract, tricks)
    return deltas[0], deltas[1]


def _contract_range(r: Rules, n: int) -> tuple[str, str] | None:
    """The core's objection to a contract of ``n`` tricks as an opening bid (auction.range), None when it is in
    range; the strain is left aside (the contract's trump may be the suit named after the auction)."""
    return R.auction_bid_violation(r, 0, 1, None, 0, n, 0 if r.egyptian else None)


def _individual_deltas(r: Rules, s: Situation) -> tuple[list[int], list[int]]:
    bids = all_bids(s)
    check_individual_bids(r, s)
    if not R.hand_is_played(r, bids):
        total, minimum = R.bid_total(r, bids)
        raise s.err(["bids", "tricks"], f"the bids total {total}, below {minimum}: under {r.label()} the "
                                        f"hand is not played, so no tricks are taken [bid.total]")
    tricks = _hand_tricks(s)
    return bids, H.hand_deltas(r, bids, None, tricks)


def _check_after(r: Rules, s: Situation, after: list[int]) -> None:
    if s.scores_after is None or not after:
        return
    given = s.scores_after if r.individual or len(s.scores_after) == 2 else s.scores_after[:2]
    for k, (a, b) in enumerate(zip(given, after, strict=True)):
        if a != b:
            raise s.err(["scores_after", "scores", "bids", "tricks"],
                        f"under {r.label()} the hand leaves {player_name(k) if r.individual else team_label(k)} on {b}, "
                        f"not {a}")


def decide_score(r: Rules, s: Situation) -> Decision:
    family_check(r, s, uses_bids=True)
    before = s.scores or [0, 0, 0, 0]
    if r.individual:
        bids, deltas = _individual_deltas(r, s)
        after = [before[k] + deltas[k] for k in range(4)] if len(before) == 4 else []
        _check_after(r, s, after)
        parts = [f"{player_name(k)} bid {bids[k]}, took {s.tricks[k] if s.tricks else 0}: {fmt_delta(deltas[k])}"
                 for k in range(4)]
        math = ", ".join(f"{before[k]} {'+' if deltas[k] >= 0 else '-'} {abs(deltas[k])} = {after[k]}"
                         for k in range(4)) if after else ""
        return Decision({"deltas": deltas, "scores": after, "bids": bids, "tricks": list(s.tricks or [0] * 4)},
                        "; ".join(parts) + ".", C.score_ruling_clauses(r),
                        math)
    tricks = _hand_tricks(s)
    d0, d1 = _auction_deltas(r, s, tricks)
    after2 = [before[0] + d0, before[1] + d1]
    _check_after(r, s, after2)
    if s.contract is None:
        raise RuntimeError("a contract's score without a contract")
    bt = R.team_of(s.contract.seat)
    took = R.team_tricks(tricks)[bt]
    math = (f"{team_label(bt)} took {took} {'>=' if R.bid_made(s.contract.bid, took) else '<'} {s.contract.bid}; "
            f"{team_label(0)} {before[0]} {'+' if d0 >= 0 else '-'} {abs(d0)} = {after2[0]}, "
            f"{team_label(1)} {before[1]} {'+' if d1 >= 0 else '-'} {abs(d1)} = {after2[1]}")
    return Decision({"deltas": [d0, d1, d0, d1], "scores": after2,
                     "contract": {"seat": s.contract.seat, "bid": s.contract.bid}, "took": took},
                    f"Contract {s.contract.bid} by {player_name(s.contract.seat)}: {team_label(0)} {fmt_delta(d0)}, "
                    f"{team_label(1)} {fmt_delta(d1)}.",
                    tuple(dict.fromkeys((C.score_clause(r, contract_of(s), tricks), *C.score_ruling_clauses(r)))),
                    math)


# ------------------------------------------------------------------ a score change one hand can make


def _possible_changes(r: Rules, s: Situation) -> list[set[int]] | set[tuple[int, int]]:
    """Every score change the ruleset allows for one hand (per seat, or per team pair for auctions)."""
    if r.individual:
        out = []
        for seat in range(4):
            score = s.scores[seat] if s.scores is not None and len(s.scores) == 4 else 0
            bids = R.legal_bids(r, score)
            stated = s.bids[seat] if s.bids is not None else None
            if stated is not None:
                bids = [stated]
            out.append({R.individual_delta(r, b, t) for b in bids for t in range(14)})
        return out
    pairs: set[tuple[int, int]] = set()
    for n in range(14):
        if _contract_range(r, n) is not None:
            continue
        for bt in (0, 1):
            for t in range(14):
                pairs.add(R.team_deltas(r, n, bt, (t, 13 - t) if bt == 0 else (13 - t, t)))
    return pairs


def check_score_change(r: Rules, s: Situation) -> None:
    """scores -> scores_after must be a change one hand can make under ``r``."""
    if s.scores is None or s.scores_after is None:
        return
    possible = _possible_changes(r, s)
    if isinstance(possible, list):
        if len(s.scores) != 4:
            return
        for seat in range(4):
            d = s.scores_after[seat] - s.scores[seat]
            if d not in possible[seat]:
                vals = sorted({abs(v) for v in possible[seat]})
                raise s.err([f"scores.{seat}", f"scores_after.{seat}"] + (["bids"] if s.bids else []),
                            f"{player_name(seat)} goes from {s.scores[seat]} to {s.scores_after[seat]} "
                            f"({fmt_delta(d)}), which no hand can do under {r.label()}: a hand adds or "
                            f"takes away the bid's value, one of {vals} [score.values]")
        return
    t0, t1 = (s.scores[0], s.scores[1])
    a0, a1 = (s.scores_after[0], s.scores_after[1])
    if (a0 - t0, a1 - t1) not in possible:
        raise s.err(["scores", "scores_after"],
                    f"team changes ({fmt_delta(a0 - t0)}, {fmt_delta(a1 - t1)}) cannot come from one hand under "
                    f"{r.label()} [score.standard]")


# ------------------------------------------------------------------ the outcome


def _decide_winner_individual(r: Rules, s: Situation) -> Decision:
    target = R.target_in_force(r, 0)  # the situation is of a first game
    rt = r if target == r.target else dataclasses.replace(r, target=target)  # as H.hand_outcome judges at a target
    bids: list[int] | None = None
    if s.bids is not None and s.tricks is not None:
        bids, deltas = _individual_deltas(r, s)
        if s.scores is None:
            raise Missing("scores", "the scores before the hand are needed")
        after = [s.scores[k] + deltas[k] for k in range(4)]
        _check_after(r, s, after)
        win, rule = H.hand_outcome(r, after, target, bids, None, s.tricks)
    else:
        after = s.scores_after or s.scores or []
        if len(after) != 4:
            raise Missing("scores", "each player's score is needed")
        win, rule = R.individual_outcome(rt, after)
    standing = f"scores {after}"
    chain: tuple[str, ...] = (rule,) + tuple(c for c in ("win.target", "win.qualify", "tie.both-qualify")
                                             if c != rule)
    if rule == "win.made-bid":
        if bids is None or s.tricks is None:
            raise RuntimeError("a made-bid win without the bids and tricks")
        seat = R.made_bid_winner(r, bids, s.tricks, after)
        if seat is None:
            raise RuntimeError("a made-bid win with no seat that made its bid")
        return Decision({"winner": win, "clause": rule, "reason": "made-bid", "bidder": seat,
                         "bid": bids[seat], "scores": list(after)},
                        f"{player_name(seat, True)} bid {bids[seat]} and made it: {team_name(win or 0)} wins at once "
                        f"({standing}).", chain)
    q0 = R.team_qualifies(rt, after[0], after[2])
    q1 = R.team_qualifies(rt, after[1], after[3])
    math = _winner_math(rt, after, q0, q1)
    answer: dict[str, Any] = {"winner": win, "clause": rule, "scores": list(after), "target": target}
    if win is not None and rule == "tie.both-qualify":
        how = "combined score" if r.tie_rule == "combined" else "top score"
        text = f"Both teams qualify; {team_name(win)} wins on the higher {how} ({standing})."
        answer.update(reason="higher", tie=r.tie_rule)
    elif win is not None:
        text = f"{team_name(win)} qualifies and wins ({standing})."
        answer.update(reason="qualifies")
    elif q0 and q1:
        how = "combined scores" if r.tie_rule == "combined" else "top scores"
        text = f"Both teams qualify with equal {how}: no winner yet, another hand is played ({standing})."
        answer.update(reason="equal", tie=r.tie_rule)
    else:
        text = (f"No team has won: none has one partner at {target} or more with the other above zero "
                f"({standing}); another hand is played.")
        answer.update(reason="none-qualifies")
    return Decision(answer, text, chain, math)


def _winner_math(r: Rules, sc: Sequence[int], q0: bool, q1: bool) -> str:
    """The comparison behind an individual-family outcome, e.g. "combined 45+10 = 55 = 42+13 = 55": the
    comparisons :func:`tarneeb.core.rules.qualification` makes (those of the higher partner: one partner at the
    target, the other above zero) and the keys of :func:`tarneeb.core.rules.tie_keys`."""
    def team(t: int, q: bool) -> str:
        a, b = sc[t], sc[R.partner(t)]
        a_at, b_above, b_at, a_above = R.qualification(r, a, b)
        hi, lo, at, above = (a, b, a_at, b_above) if a >= b else (b, a, b_at, a_above)
        return (f"{team_label(t)}: {hi} {'>=' if at else '<'} {r.target} and {lo} "
                f"{'> 0' if above else '<= 0'}: {'qualifies' if q else 'does not qualify'}")
    if q0 and q1:
        a, b = R.tie_keys(r, sc)
        cmp = "=" if a == b else (">" if a > b else "<")
        if r.tie_rule == "combined":
            return f"combined {sc[0]}+{sc[2]} = {a}, {sc[1]}+{sc[3]} = {b}: {a} {cmp} {b}"
        return f"top score {a} (of {sc[0]}, {sc[2]}) {cmp} {b} (of {sc[1]}, {sc[3]})"
    return "; ".join((team(0, q0), team(1, q1)))


def decide_winner(r: Rules, s: Situation) -> Decision:
    family_check(r, s, uses_bids=s.bids is not None or s.contract is not None)
    if r.individual:
        return _decide_winner_individual(r, s)
    target = R.target_in_force(r, 0)  # the situation is of a first game
    contract = contract_of(s)
    if contract is not None and s.tricks is not None:
        tricks = _hand_tricks(s)
        d0, d1 = _auction_deltas(r, s, tricks)
        if s.scores is None:
            raise Missing("scores", "the team scores before the hand are needed")
        after2 = (s.scores[0] + d0, s.scores[1] + d1)
        _check_after(r, s, list(after2))
        win, rule = H.hand_outcome(r, [after2[0], after2[1], after2[0], after2[1]], target, [0, 0, 0, 0],
                                   contract, tricks)
    else:
        sc = s.scores_after or s.scores
        if sc is None:
            raise Missing("scores", "the team scores are needed")
        after2 = (sc[0], sc[1])
        if contract is None and all(R.target_reached(after2, target)):
            raise Missing("contract", "both teams reached the target; the bidding team decides")
        bt = R.team_of(contract[0]) if contract is not None else 0
        win, rule = R.auction_outcome(r, after2, target, bt, False)
    chain = (rule,) + tuple(c for c in ("win.target", "tie.both-qualify", "score.bid13") if c != rule)
    reached = R.target_reached(after2, target)  # the comparisons R.auction_outcome makes
    math = (f"{team_label(0)}: {after2[0]} {'>=' if reached[0] else '<'} {target}; "
            f"{team_label(1)}: {after2[1]} {'>=' if reached[1] else '<'} {target}")
    answer: dict[str, Any] = {"winner": win, "clause": rule, "scores": list(after2), "target": target}
    if win is None:
        text = f"No team has reached {target} (team scores {list(after2)}): play goes on."
        answer.update(reason="none-reached")
    elif rule == "score.bid13":
        text = f"{team_name(win)} bid 13 and took every trick: it wins on the spot."
        answer.update(reason="bid13")
    elif rule == "tie.both-qualify":
        text = f"Both teams reached {target}: the bidding team, {team_name(win)}, wins."
        answer.update(reason="bidding-team")
    else:
        text = f"{team_name(win)} reached {target} and wins (team scores {list(after2)})."
        answer.update(reason="reached")
    return Decision(answer, text, chain, math)


__all__ = ["check_score_change", "decide_score", "decide_winner"]
