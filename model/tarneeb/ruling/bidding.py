"""Bidding and the deal: the question kinds ``bid-legal``, ``redeal`` and ``next-dealer``.

Every rule is the rule core's: a bid's legality (:func:`tarneeb.core.rules.bid_violation`, the auction played
through a :class:`~tarneeb.core.match.Match`), whether the hand is played (:func:`tarneeb.core.rules.hand_is_played`)
and the next dealer (:func:`tarneeb.core.hand.next_dealer`), the clauses from :mod:`tarneeb.core.clauses`; what is
left here is the wording.
"""

from __future__ import annotations

from typing import Any

from tarneeb.core import clauses as C
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.cards import n_of, player_name, strain_name
from tarneeb.core.match import Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction
from tarneeb.ruling.facts import all_bids, auction_match, check_individual_bids, family_check, individual_turn, need_dealer
from tarneeb.ruling.situation import Missing, Situation
from tarneeb.ruling.verdict import Decision


def _bid_text(n: int | None, strain: int | None) -> str:
    return "a pass" if n is None else f"a bid of {n}{'' if strain is None else ' ' + strain_name(strain)}"


# ------------------------------------------------------------------ a bid


def decide_bid(r: Rules, s: Situation) -> Decision:
    q = s.question
    if q.bid is None:
        raise s.err(["question.bid"], "a bid-legal question names the bid (a number or 'pass')")
    bid_text = _bid_text(q.bid.n, q.bid.strain)
    checked = C.bid_legal_clauses(r)
    family_check(r, s, uses_bids=True)
    if r.individual:
        seat = q.seat
        if seat is None:
            raise Missing("question.seat", "say which seat bids")
        if s.bids is not None and s.bids[seat] is not None:
            raise s.err(["question.seat", f"bids.{seat}"], f"{player_name(seat)} has already bid ({s.bids[seat]}); "
                                                           "each player bids once")
        check_individual_bids(r, s)
        turn = individual_turn(r, s)
        if turn is not None and turn != seat:
            if s.dealer is None:
                raise RuntimeError("a bidding turn known without the dealer")
            order = "players " + " -> ".join(str(x + 1) for x in H.bidding_order(r, s.dealer))
            return Decision({"legal": False, "seat": seat, "turn": turn, "clause": C.turn_clause(r),
                             "irregularity": "bid-out-of-turn", "dealer": s.dealer,
                             "order": list(H.bidding_order(r, s.dealer))},
                            f"{bid_text.capitalize()} by {player_name(seat)} is not legal now: it is {player_name(turn)}'s turn to "
                            f"bid (the dealer is {player_name(s.dealer)}; order {order}).", (C.turn_clause(r),) + checked,
                            f"{player_name(seat)} != {player_name(turn)}")
        if r.rising_min and s.scores is None:
            raise Missing("scores", "the bidder's score sets the lowest bid under this ruleset")
        score = s.scores[seat] if s.scores is not None else 0
        bad = R.bid_violation(r, score, q.bid.n, q.bid.strain)
        if bad is not None and bad[0] == "bid.meaning":
            return Decision({"legal": False, "clause": "bid.meaning", "seat": seat},
                            f"{bid_text} is not legal: a bid here is a number of tricks with no suit.",
                            ("bid.meaning",))
        bad = R.bid_violation(r, score, q.bid.n)
        lo = R.min_bid_for(r, score)
        math = f"{lo} <= {q.bid.n} <= {r.bid_max}" if q.bid.n is not None and lo <= q.bid.n <= r.bid_max else ""
        if q.bid.n in r.bid_excluded:
            math = f"{q.bid.n} is among the excluded bids {sorted(r.bid_excluded)}"
        elif r.rising_min and q.bid.n is not None:
            math = f"score {score}: lowest bid {lo}; {q.bid.n} {'>=' if q.bid.n >= lo else '<'} {lo}"
        turn_text = "" if turn is None else f", in turn (the dealer is {player_name(s.dealer)})"
        facts: dict[str, Any] = {"seat": seat}
        if r.rising_min:
            facts.update(score=score, lowest=lo)
        if bad is None:
            extra = f" (a player on {score} may bid {lo} or more)" if r.rising_min else ""
            chain = checked if turn is None else checked + (C.turn_clause(r),)
            if turn is not None:
                facts.update(in_turn=True, dealer=s.dealer)
            return Decision({"legal": True, **facts},
                            f"{bid_text.capitalize()} by {player_name(seat)} is legal{extra}{turn_text}.", chain, math)
        if bad[0] == "bid.range":
            facts.update(lowest=r.bid_min, highest=r.bid_max)
        return Decision({"legal": False, "clause": bad[0], **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {bad[1]}.",
                        (bad[0],) + tuple(c for c in checked if c != bad[0]), math)
    m = auction_match(r, s)
    if m.phase is not Phase.BIDDING:
        raise s.err(["auction", "question"], "the auction is over: no further call can be made")
    seat = m.to_move
    if q.seat is not None and q.seat != seat:
        return Decision({"legal": False, "seat": q.seat, "turn": seat, "clause": C.turn_clause(r),
                         "irregularity": "bid-out-of-turn", "dealer": m.dealer, "calls": len(s.auction or [])},
                        f"{bid_text.capitalize()} by {player_name(q.seat)} is not legal now: after "
                        f"{n_of(len(s.auction or []), 'call')} from the player after the dealer ({player_name(m.dealer)}), "
                        f"it is {player_name(seat)}'s turn.",
                        (C.turn_clause(r),) + checked, f"{player_name(q.seat)} != {player_name(seat)}")
    top = m.auction_top
    checked = C.bid_legal_clauses(r, forced=R.dealer_forced(r, m.dealer, seat, None if top is None or top.n is None
                                                           else (top.n, top.strain), m.passes))
    try:
        m.apply(q.bid)
    except IllegalAction as e:
        facts = {"seat": seat}
        if e.rule == "auction.range":
            facts.update(lowest=r.min_bid, highest=13)
        return Decision({"legal": False, "clause": e.rule, **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {e.reason}.",
                        (e.rule,) + tuple(c for c in checked if c != e.rule))
    return Decision({"legal": True, "seat": seat}, f"{bid_text.capitalize()} by {player_name(seat)} is legal.", checked)


# ------------------------------------------------------------------ a cancelled deal, the next dealer


def decide_redeal(r: Rules, s: Situation) -> Decision:
    family_check(r, s, uses_bids=True)
    dealer = need_dealer(s)
    cancel = C.redeal_clause(r)
    if r.individual:
        bids = all_bids(s)
        check_individual_bids(r, s)
        total, minimum = R.bid_total(r, bids)  # the numbers R.hand_is_played compares
        sums = "+".join(str(b) for b in bids) + f" = {total}"
        if R.hand_is_played(r, bids):
            nxt = H.next_dealer(r, dealer, None)
            return Decision({"redeal": False, "dealer": nxt, "reason": "total", "total": total,
                             "minimum": minimum},
                            f"The bids total {total}, at least {minimum}: the hand is played, and {player_name(nxt)} "
                            f"deals the next one.", (cancel, C.next_dealer_clause(None)),
                            f"{sums} >= {minimum}")
        nd = H.next_dealer(r, dealer, cancel)
        who = "the same dealer" if nd == dealer else "the next dealer"
        return Decision({"redeal": True, "dealer": nd, "reason": "total", "total": total, "minimum": minimum,
                         "same_dealer": nd == dealer},
                        f"The bids total {total}, below {minimum}: the hand is cancelled and {who}, "
                        f"{player_name(nd)}, deals again.", (cancel, C.next_dealer_clause(cancel)),
                        f"{sums} < {minimum}")
    if s.auction is None:
        raise Missing("auction", "the calls of the auction decide it")
    m = auction_match(r, s)
    if m.phase is Phase.BIDDING:
        raise Missing("auction", f"the auction is not over ({player_name(m.to_move)} still to call)")
    if m.phase is Phase.DEAL:
        return Decision({"redeal": True, "dealer": m.dealer, "reason": "all-pass"},
                        f"All four passed: the hand is dealt again by {player_name(m.dealer)}.",
                        tuple(dict.fromkeys((cancel, C.next_dealer_clause(m.records[-1].redeal)))))
    nxt = H.next_dealer(r, dealer, None)
    return Decision({"redeal": False, "dealer": nxt, "reason": "contract"},
                    f"A contract was reached: the hand is played, and {player_name(nxt)} deals the next one.",
                    (cancel, C.next_dealer_clause(None)))


def decide_next_dealer(r: Rules, s: Situation) -> Decision:
    dealer = need_dealer(s)
    result = s.hand_result
    if result is None and (s.bids is not None or s.auction is not None):
        d = decide_redeal(r, s)
        chain = d.chain if d.answer["redeal"] else (C.next_dealer_clause(None),) + d.chain
        return Decision(dict(d.answer), d.text, tuple(dict.fromkeys(chain)), d.math)
    if result is None:
        raise Missing("hand", "say whether the hand was played or cancelled (or give the bids)")
    if result == "played":
        nxt = H.next_dealer(r, dealer, None)
        return Decision({"dealer": nxt, "hand": "played"}, f"The hand was played: the deal passes to {player_name(nxt)}.",
                        (C.next_dealer_clause(None), "play.direction"))
    cancel = C.redeal_clause(r)
    nd = H.next_dealer(r, dealer, cancel)
    if r.individual:
        who = "the same dealer deals again" if nd == dealer else "the next dealer deals"
        return Decision({"dealer": nd, "hand": "cancelled", "same_dealer": nd == dealer},
                        f"The hand was cancelled: {who}, {player_name(nd)}.",
                        (C.next_dealer_clause(cancel), cancel))
    # all passed, or a weak hand was thrown in: both pass the deal on (core.hand.next_dealer)
    return Decision({"dealer": nd, "hand": "cancelled", "same_dealer": False},
                    f"The hand was cancelled: the next dealer, {player_name(nd)}, deals.",
                    (cancel, "deal.weak-redeal", C.next_dealer_clause(None)))


__all__ = ["decide_bid", "decide_next_dealer", "decide_redeal"]
