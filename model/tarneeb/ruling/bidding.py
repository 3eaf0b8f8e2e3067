"""Bidding and the deal: the question kinds ``bid-legal``, ``redeal`` and ``next-dealer``.

Every rule is the rule core's: a bid's legality (:func:`tarneeb.core.rules.bid_violation`, the auction played
through a :class:`~tarneeb.core.match.Match`), whether the hand is played (:func:`tarneeb.core.rules.hand_is_played`)
and the next dealer (:func:`tarneeb.core.hand.next_dealer`), the clauses from :mod:`tarneeb.core.clauses`; what is
left here is the wording.
"""

from __future__ import annotations

from typing import Any

from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.cards import n_of, player_name, strain_name
from tarneeb.core.match import Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction
from tarneeb.ruling.facts import (
    all_bids,
    auction_match,
    check_individual_bids,
    family_check,
    individual_turn,
    need_dealer,
    total_scores,
)
from tarneeb.ruling.situation import Missing, Situation
from tarneeb.ruling.verdict import Decision


def _bid_text(n: int | None, strain: int | None) -> str:
    return "a pass" if n is None else f"a bid of {n}{'' if strain is None else ' ' + strain_name(strain)}"


# ------------------------------------------------------------------ a bid


def decide_bid(rules: Rules, situation: Situation) -> Decision:
    """Question ``bid-legal``: may the question's seat make the question's bid (or pass) now: in turn, in range,
    not excluded, above the auction's top (the clause broken when not)."""
    question = situation.question
    if question.bid is None:
        raise situation.err(["question.bid"], "a bid-legal question names the bid (a number or 'pass')")
    bid_text = _bid_text(question.bid.n, question.bid.strain)
    checked = core_clauses.bid_legal_clauses(rules)
    family_check(rules, situation, uses_bids=True)
    if rules.individual:
        seat = question.seat
        if seat is None:
            raise Missing("question.seat", "say which seat bids")
        if situation.bids is not None and situation.bids[seat] is not None:
            raise situation.err(["question.seat", f"bids.{seat}"], f"{player_name(seat)} has already bid ({situation.bids[seat]}); "
                                                                   "each player bids once")
        check_individual_bids(rules, situation)
        turn = individual_turn(rules, situation)
        if turn is not None and turn != seat:
            if situation.dealer is None:
                raise RuntimeError("a bidding turn known without the dealer")
            order = "players " + " -> ".join(str(x + 1) for x in core_hand.bidding_order(rules, situation.dealer))
            return Decision({"legal": False, "seat": seat, "turn": turn, "clause": core_clauses.turn_clause(rules),
                             "irregularity": "bid-out-of-turn", "dealer": situation.dealer,
                             "order": list(core_hand.bidding_order(rules, situation.dealer))},
                            f"{bid_text.capitalize()} by {player_name(seat)} is not legal now: it is {player_name(turn)}'s turn to "
                            f"bid (the dealer is {player_name(situation.dealer)}; order {order}).",
                            (core_clauses.turn_clause(rules),) + checked,
                            f"{player_name(seat)} != {player_name(turn)}")
        if rules.rising_min and situation.scores is None:
            raise Missing("scores", "the bidder's score sets the lowest bid under this ruleset")
        score = situation.scores[seat] if situation.scores is not None else 0
        bad = core_rules.bid_violation(rules, score, question.bid.n, question.bid.strain)
        if bad is not None and bad[0] == "bid.meaning":
            return Decision({"legal": False, "clause": "bid.meaning", "seat": seat},
                            f"{bid_text} is not legal: a bid here is a number of tricks with no suit.",
                            ("bid.meaning",))
        bad = core_rules.bid_violation(rules, score, question.bid.n)
        lo = core_rules.min_bid_for(rules, score)
        math = (f"{lo} <= {question.bid.n} <= {rules.bid_max}"
                if question.bid.n is not None and lo <= question.bid.n <= rules.bid_max else "")
        if question.bid.n in rules.bid_excluded:
            math = f"{question.bid.n} is among the excluded bids {sorted(rules.bid_excluded)}"
        elif rules.rising_min and question.bid.n is not None:
            math = f"score {score}: lowest bid {lo}; {question.bid.n} {'>=' if question.bid.n >= lo else '<'} {lo}"
        turn_text = "" if turn is None else f", in turn (the dealer is {player_name(situation.dealer)})"
        facts: dict[str, Any] = {"seat": seat}
        if rules.rising_min:
            facts.update(score=score, lowest=lo)
        if bad is None:
            extra = f" (a player on {score} may bid {lo} or more)" if rules.rising_min else ""
            chain = checked if turn is None else checked + (core_clauses.turn_clause(rules),)
            if turn is not None:
                facts.update(in_turn=True, dealer=situation.dealer)
            return Decision({"legal": True, **facts},
                            f"{bid_text.capitalize()} by {player_name(seat)} is legal{extra}{turn_text}.", chain, math)
        if bad[0] == "bid.range":
            facts.update(lowest=rules.bid_min, highest=rules.bid_max)
        return Decision({"legal": False, "clause": bad[0], **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {bad[1]}.",
                        (bad[0],) + tuple(c for c in checked if c != bad[0]), math)
    m = auction_match(rules, situation)
    if m.phase is not Phase.BIDDING:
        raise situation.err(["auction", "question"], "the auction is over: no further call can be made")
    seat = m.to_move
    if question.seat is not None and question.seat != seat:
        return Decision({"legal": False, "seat": question.seat, "turn": seat, "clause": core_clauses.turn_clause(rules),
                         "irregularity": "bid-out-of-turn", "dealer": m.dealer, "calls": len(situation.auction or [])},
                        f"{bid_text.capitalize()} by {player_name(question.seat)} is not legal now: after "
                        f"{n_of(len(situation.auction or []), 'call')} from the player after the dealer ({player_name(m.dealer)}), "
                        f"it is {player_name(seat)}'s turn.",
                        (core_clauses.turn_clause(rules),) + checked, f"{player_name(question.seat)} != {player_name(seat)}")
    top = m.auction_top
    top_bid = None if top is None or top.n is None else (top.n, top.strain)
    checked = core_clauses.bid_legal_clauses(rules, forced=core_rules.dealer_forced(rules, m.dealer, seat, top_bid, m.passes))
    try:
        m.apply(question.bid)
    except IllegalAction as e:
        facts = {"seat": seat}
        if e.rule == "auction.range":
            facts.update(lowest=rules.min_bid, highest=13)
        return Decision({"legal": False, "clause": e.rule, **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {e.reason}.",
                        (e.rule,) + tuple(c for c in checked if c != e.rule))
    return Decision({"legal": True, "seat": seat}, f"{bid_text.capitalize()} by {player_name(seat)} is legal.", checked)


# ------------------------------------------------------------------ a cancelled deal, the next dealer


def decide_redeal(rules: Rules, situation: Situation) -> Decision:
    """Question ``redeal``: is the hand played or thrown in after the bids (the bid total, all passed), and who deals
    next."""
    family_check(rules, situation, uses_bids=True)
    dealer = need_dealer(situation)
    cancel = core_clauses.redeal_clause(rules)
    if rules.individual:
        bids = all_bids(situation)
        check_individual_bids(rules, situation)
        scores = total_scores(rules, situation)
        total, minimum = core_rules.bid_total(rules, bids, scores)  # the numbers core_rules.hand_is_played compares
        sums = "+".join(str(b) for b in bids) + f" = {total}"
        if core_rules.hand_is_played(rules, bids, scores):
            nxt = core_hand.next_dealer(rules, dealer, None)
            return Decision({"redeal": False, "dealer": nxt, "reason": "total", "total": total,
                             "minimum": minimum},
                            f"The bids total {total}, at least {minimum}: the hand is played, and {player_name(nxt)} "
                            f"deals the next one.", (cancel, core_clauses.next_dealer_clause(None)),
                            f"{sums} >= {minimum}")
        nd = core_hand.next_dealer(rules, dealer, cancel)
        who = "the same dealer" if nd == dealer else "the next dealer"
        return Decision({"redeal": True, "dealer": nd, "reason": "total", "total": total, "minimum": minimum,
                         "same_dealer": nd == dealer},
                        f"The bids total {total}, below {minimum}: the hand is cancelled and {who}, "
                        f"{player_name(nd)}, deals again.", (cancel, core_clauses.next_dealer_clause(cancel)),
                        f"{sums} < {minimum}")
    if situation.auction is None:
        raise Missing("auction", "the calls of the auction decide it")
    m = auction_match(rules, situation)
    if m.phase is Phase.BIDDING:
        raise Missing("auction", f"the auction is not over ({player_name(m.to_move)} still to call)")
    if m.phase is Phase.DEAL:
        return Decision({"redeal": True, "dealer": m.dealer, "reason": "all-pass"},
                        f"All four passed: the hand is dealt again by {player_name(m.dealer)}.",
                        tuple(dict.fromkeys((cancel, core_clauses.next_dealer_clause(m.records[-1].redeal)))))
    nxt = core_hand.next_dealer(rules, dealer, None)
    return Decision({"redeal": False, "dealer": nxt, "reason": "contract"},
                    f"A contract was reached: the hand is played, and {player_name(nxt)} deals the next one.",
                    (cancel, core_clauses.next_dealer_clause(None)))


def decide_next_dealer(rules: Rules, situation: Situation) -> Decision:
    """Question ``next-dealer``: who deals after the hand, played or cancelled (from the bids when they are given)."""
    dealer = need_dealer(situation)
    result = situation.hand_result
    if result is None and (situation.bids is not None or situation.auction is not None):
        d = decide_redeal(rules, situation)
        chain = d.chain if d.answer["redeal"] else (core_clauses.next_dealer_clause(None),) + d.chain
        return Decision(dict(d.answer), d.text, tuple(dict.fromkeys(chain)), d.math)
    if result is None:
        raise Missing("hand", "say whether the hand was played or cancelled (or give the bids)")
    if result == "played":
        nxt = core_hand.next_dealer(rules, dealer, None)
        return Decision({"dealer": nxt, "hand": "played"}, f"The hand was played: the deal passes to {player_name(nxt)}.",
                        (core_clauses.next_dealer_clause(None), "play.direction"))
    cancel = core_clauses.redeal_clause(rules)
    nd = core_hand.next_dealer(rules, dealer, cancel)
    if rules.individual:
        who = "the same dealer deals again" if nd == dealer else "the next dealer deals"
        return Decision({"dealer": nd, "hand": "cancelled", "same_dealer": nd == dealer},
                        f"The hand was cancelled: {who}, {player_name(nd)}.",
                        (core_clauses.next_dealer_clause(cancel), cancel))
    # all passed, or a weak hand was thrown in: both pass the deal on (core.hand.next_dealer)
    return Decision({"dealer": nd, "hand": "cancelled", "same_dealer": False},
                    f"The hand was cancelled: the next dealer, {player_name(nd)}, deals.",
                    (cancel, "deal.weak-redeal", core_clauses.next_dealer_clause(None)))


__all__ = ["decide_bid", "decide_next_dealer", "decide_redeal"]
