"""Bidding and the deal: the question kinds ``bid-legal``, ``redeal`` and ``next-dealer``.

Every rule is the transition's, stepped from the facts (:mod:`tarneeb.ruling.steps`): a bid is legal when the
transition takes it at the bidder's turn (the refusal's clause when not), the deal is cancelled when the last bid or
call cancels it (Cancelled), and the next dealer is the one it names (NextDealer) -- after the stated bids, or after
a completion of a deal played or cancelled. The numbers a ruling states (the bid total and its threshold, the lowest
bid) are core's (:func:`tarneeb.core.rules.bid_total`, :func:`tarneeb.core.rules.min_bid_for`), the clauses
:mod:`tarneeb.core.clauses`'; what is left here is the wording.
"""

from __future__ import annotations

from typing import Any

import tarneeb.ruling.steps as steps
from tarneeb.core import clauses as core_clauses
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import PASS, Bid
from tarneeb.core.cards import n_of, player_name, strain_name
from tarneeb.core.spec import Rules
from tarneeb.core.state import Calling, Cancelled, Dealing, Event, NextDealer, State
from tarneeb.errors import IllegalAction, IllegalBid
from tarneeb.ruling.arithmetic import NONE, math
from tarneeb.ruling.facts import (
    all_bids,
    auction,
    check_individual_bids,
    family_check,
    individual_turn,
    need_dealer,
    opened,
    stated_bids,
    total_scores,
)
from tarneeb.ruling.situation import Missing, Situation
from tarneeb.ruling.verdict import Decision


def _bid_text(n: int | None, strain: int | None) -> str:
    return "a pass" if n is None else f"a bid of {n}{'' if strain is None else ' ' + strain_name(strain)}"


def _refusal(rules: Rules, state: State, bid: Bid) -> tuple[str, str] | None:
    """The transition's refusal of ``bid`` from the seat to bid in ``state`` (clause, reason), None when it takes it."""
    try:
        transition.step(rules, state, bid)
    except IllegalBid as e:
        return e.rule, e.reason
    return None


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
            speaking = steps.speaking_order(rules, situation.dealer)
            order = "players " + " -> ".join(str(x + 1) for x in speaking)
            return Decision({"legal": False, "seat": seat, "turn": turn, "clause": core_clauses.turn_clause(rules),
                             "irregularity": "bid-out-of-turn", "dealer": situation.dealer,
                             "order": list(speaking)},
                            f"{bid_text.capitalize()} by {player_name(seat)} is not legal now: it is {player_name(turn)}'s turn to "
                            f"bid (the dealer is {player_name(situation.dealer)}; order {order}).",
                            (core_clauses.turn_clause(rules),) + checked,
                            math("not-in-turn", seat=seat, turn=turn))
        if rules.rising_min and situation.scores is None:
            raise Missing("scores", "the bidder's score sets the lowest bid under this ruleset")
        score = situation.scores[seat] if situation.scores is not None else 0
        bad = _refusal(rules, steps.to_bid(rules, opened(rules, situation, situation.scores)[0], seat,
                                           stated_bids(situation)), question.bid)
        if bad is not None and bad[0] == "bid.meaning":
            return Decision({"legal": False, "clause": "bid.meaning", "seat": seat},
                            f"{bid_text} is not legal: a bid here is a number of tricks with no suit.",
                            ("bid.meaning",))
        lo = core_rules.min_bid_for(rules, score)
        arith = (math("range", lowest=lo, bid=question.bid.n, highest=rules.bid_max)
                 if question.bid.n is not None and lo <= question.bid.n <= rules.bid_max else NONE)
        if question.bid.n in rules.bid_excluded:
            arith = math("excluded", bid=question.bid.n, bids=tuple(sorted(rules.bid_excluded)))
        elif rules.rising_min and question.bid.n is not None:
            arith = math("rising-min", score=score, lowest=lo, bid=question.bid.n)
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
                            f"{bid_text.capitalize()} by {player_name(seat)} is legal{extra}{turn_text}.", chain, arith)
        if bad[0] == "bid.range":
            facts.update(lowest=rules.bid_min, highest=rules.bid_max)
        return Decision({"legal": False, "clause": bad[0], **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {bad[1]}.",
                        (bad[0],) + tuple(c for c in checked if c != bad[0]), arith)
    state, _ = auction(rules, situation)
    if type(state) is not Calling:
        raise situation.err(["auction", "question"], "the auction is over: no further call can be made")
    seat = state.to_move
    dealer = state.table.dealer
    if question.seat is not None and question.seat != seat:
        return Decision({"legal": False, "seat": question.seat, "turn": seat, "clause": core_clauses.turn_clause(rules),
                         "irregularity": "bid-out-of-turn", "dealer": dealer, "calls": len(situation.auction or [])},
                        f"{bid_text.capitalize()} by {player_name(question.seat)} is not legal now: after "
                        f"{n_of(len(situation.auction or []), 'call')} from the player after the dealer ({player_name(dealer)}), "
                        f"it is {player_name(seat)}'s turn.",
                        (core_clauses.turn_clause(rules),) + checked, math("not-in-turn", seat=question.seat, turn=seat))
    forced = _refusal(rules, state, PASS) is not None  # the seat may not pass: the dealer forced to bid
    checked = core_clauses.bid_legal_clauses(rules, forced=forced)
    try:
        transition.step(rules, state, question.bid)
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
    next: the stated bids or calls stepped from the stated dealer's deal."""
    family_check(rules, situation, uses_bids=True)
    dealer = need_dealer(situation)
    cancel = core_clauses.redeal_clause(rules)
    if rules.individual:
        bids = all_bids(situation)
        check_individual_bids(rules, situation)
        scores = total_scores(rules, situation)
        total, minimum = core_rules.bid_total(rules, bids, scores)  # the numbers the transition compares (bid.total)
        _, events = steps.in_turn(rules, opened(rules, situation, scores)[0], stated_bids(situation))
        if not _cancelled(events):
            nxt = _after_played(rules, dealer)
            return Decision({"redeal": False, "dealer": nxt.dealer, "reason": "total", "total": total,
                             "minimum": minimum},
                            f"The bids total {total}, at least {minimum}: the hand is played, and {player_name(nxt.dealer)} "
                            f"deals the next one.", (cancel, nxt.clause),
                            math("total", bids=tuple(bids), total=total, minimum=minimum, met=True))
        nd = _next_dealer(events)
        who = "the same dealer" if nd.dealer == dealer else "the next dealer"
        return Decision({"redeal": True, "dealer": nd.dealer, "reason": "total", "total": total, "minimum": minimum,
                         "same_dealer": nd.dealer == dealer},
                        f"The bids total {total}, below {minimum}: the hand is cancelled and {who}, "
                        f"{player_name(nd.dealer)}, deals again.", (cancel, nd.clause),
                        math("total", bids=tuple(bids), total=total, minimum=minimum, met=False))
    if situation.auction is None:
        raise Missing("auction", "the calls of the auction decide it")
    state, events = auction(rules, situation)
    if type(state) is Calling:
        raise Missing("auction", f"the auction is not over ({player_name(state.to_move)} still to call)")
    if type(state) is Dealing:
        nd = _next_dealer(events)
        return Decision({"redeal": True, "dealer": nd.dealer, "reason": "all-pass"},
                        f"All four passed: the hand is dealt again by {player_name(nd.dealer)}.",
                        tuple(dict.fromkeys((cancel, nd.clause))))
    nxt = _after_played(rules, dealer)
    return Decision({"redeal": False, "dealer": nxt.dealer, "reason": "contract"},
                    f"A contract was reached: the hand is played, and {player_name(nxt.dealer)} deals the next one.",
                    (cancel, nxt.clause))


def _cancelled(events: tuple[Event, ...]) -> bool:
    return any(type(e) is Cancelled for e in events)


def _next_dealer(events: tuple[Event, ...]) -> NextDealer:
    """The next dealer the events of a cancelled deal name."""
    return next(e for e in events if type(e) is NextDealer)


def _after_played(rules: Rules, dealer: int) -> NextDealer:
    """The next dealer after a deal by ``dealer`` played to its end (:func:`tarneeb.ruling.steps.dealer_after`)."""
    got = steps.dealer_after(rules, dealer, played=True)
    if not got:
        raise RuntimeError(f"no completion of a played deal by {player_name(dealer)} passes the deal on")
    return got[0]


def decide_next_dealer(rules: Rules, situation: Situation) -> Decision:
    """Question ``next-dealer``: who deals after the hand, played or cancelled (from the bids when they are given):
    the dealer the transition names after the stated bids, or after every completion of a deal played, or
    cancelled, that it takes."""
    dealer = need_dealer(situation)
    result = situation.hand_result
    if result is None and (situation.bids is not None or situation.auction is not None):
        d = decide_redeal(rules, situation)
        chain = d.chain if d.answer["redeal"] else (core_clauses.next_dealer_clause(None),) + d.chain
        return Decision(dict(d.answer), d.text, tuple(dict.fromkeys(chain)), d.math)
    if result is None:
        raise Missing("hand", "say whether the hand was played or cancelled (or give the bids)")
    if result == "played":
        nxt = _after_played(rules, dealer)
        return Decision({"dealer": nxt.dealer, "hand": "played"},
                        f"The hand was played: the deal passes to {player_name(nxt.dealer)}.", (nxt.clause, "play.direction"))
    cancel = core_clauses.redeal_clause(rules)
    ways = steps.dealer_after(rules, dealer, played=False)
    if not ways:
        raise situation.err(["hand"], f"no deal is cancelled under {rules.label()}: the bidding always ends in a "
                                      "contract, and no hand is thrown in")
    if len({e.dealer for e in ways}) > 1:
        raise Missing("hand", "why the hand was cancelled decides who deals next under this ruleset: give the bids or "
                              "the calls")
    nd = ways[0]
    if rules.individual:
        who = "the same dealer deals again" if nd.dealer == dealer else "the next dealer deals"
        return Decision({"dealer": nd.dealer, "hand": "cancelled", "same_dealer": nd.dealer == dealer},
                        f"The hand was cancelled: {who}, {player_name(nd.dealer)}.",
                        (nd.clause, cancel))
    # all passed, or a weak hand was thrown in: the transition passes the deal on either way
    return Decision({"dealer": nd.dealer, "hand": "cancelled", "same_dealer": False},
                    f"The hand was cancelled: the next dealer, {player_name(nd.dealer)}, deals.",
                    (cancel, "deal.weak-redeal", core_clauses.next_dealer_clause(None)))


__all__ = ["decide_bid", "decide_next_dealer", "decide_redeal"]
