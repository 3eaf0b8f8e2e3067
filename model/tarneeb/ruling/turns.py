"""Turn order, sequences of deals, one seat's score and irregularities: question kinds that
:func:`tarneeb.ruling.decision.decide` picks, beside those of :mod:`~tarneeb.ruling.tricks`,
:mod:`~tarneeb.ruling.bidding` and :mod:`~tarneeb.ruling.scoring`.

As there, every rule is the transition's, stepped from the facts (:mod:`tarneeb.ruling.steps`): who leads (the
seat to move when the play starts, or after the last trick), whose turn (the seat to move after the stated bids,
calls or cards), the next dealer (:mod:`tarneeb.ruling.bidding`), whether a card played broke a clause (the refusal
of that card from a hand that held the card proving it, :func:`_find_revoke`); a seat's score alone
(:func:`tarneeb.core.rules.individual_delta`) and the clauses an irregularity breaks
(:func:`tarneeb.core.clauses.irregularity_clauses`) are core's single decisions. No rule document says what happens
*after* an irregularity: that is answered by the readings of the ambiguity register (:mod:`tarneeb.ruling.readings`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import tarneeb.ruling.steps as steps
from tarneeb.core import clauses as core_clauses
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import PLAYS
from tarneeb.core.cards import CARD_BITS, card_str, n_of, player_name
from tarneeb.core.sources import rule_words
from tarneeb.core.spec import Rules
from tarneeb.core.state import Calling, Dealing, Naming, Played
from tarneeb.errors import IllegalPlay
from tarneeb.ruling.arithmetic import NONE, math
from tarneeb.ruling.bidding import decide_next_dealer
from tarneeb.ruling.facts import (
    auction,
    direction_word,
    family_check,
    individual_turn,
    leader_of_next,
    need_dealer,
    play_start,
    trick_played,
    trick_winner,
    trump_of,
)
from tarneeb.ruling.facts import trumps as facts_trumps
from tarneeb.ruling.situation import Missing, Situation, TrickInProgress
from tarneeb.ruling.verdict import Decision, fmt_delta

IRREGULARITY_NAMES: dict[str, str] = {
    "revoke": "A revoke (not following suit, or not trumping under must-trump, when able)",
    "bid-out-of-turn": "A bid out of turn",
    "lead-out-of-turn": "A lead or play out of turn",
    "exposed-card": "An exposed card (shown or dropped face up outside play)",
    "misdeal": "A misdeal (cards dealt in the wrong order or by the wrong seat)",
    "wrong-card-count": "A wrong number of cards in a hand",
}


# ------------------------------------------------------------------ who leads, whose turn


def _decide_who_leads(rules: Rules, situation: Situation) -> Decision:
    if situation.trick is not None and len(situation.trick.cards) == 4:
        trump, chain = trump_of(rules, situation)
        _, w = trick_winner(rules, situation, situation.trick, trump)
        return Decision({"leader": w, "reason": "won-trick"}, f"{player_name(w, True)} won the trick and leads the next one.",
                        ("play.next-lead", "play.winner") + chain, math("won-trick", seat=w))
    got = leader_of_next(rules, situation)
    if got is None:
        if situation.dealer is None:
            raise Missing("dealer", "the dealer (and in the auction family the contract) decides who leads")
        raise Missing("history", "who won the last trick decides who leads; give the finished tricks in order")
    seat, clause, why, facts = got
    n = len(situation.history) + 1
    chain = (clause, "play.winner") if clause != "play.lead" else (clause, core_clauses.turn_clause(rules))
    if facts.get("reason") == "auction":  # the contract the auction settled decides the lead
        chain = (*chain, core_clauses.contract_clause(rules, False))
    return Decision({"leader": seat, "trick": n, **facts}, f"{player_name(seat, True)} leads trick {n}: {why}.", chain,
                    math("trick-leader", trick=n, seat=seat))


def _as_turn(lead: Decision) -> Decision:
    """A who-leads ruling as a whose-turn one: the leader is the seat to play."""
    return Decision({**lead.answer, "seat": lead.answer["leader"], "phase": "play"}, lead.text, lead.chain, lead.math)


def _trick_turn(rules: Rules, situation: Situation, trick: TrickInProgress) -> Decision:
    n = len(trick.cards)
    state, events = trick_played(rules, situation, trick)
    seat = state.to_move
    order = [e.seat for e in events if type(e) is Played] + [seat]
    way = direction_word(rules)
    return Decision({"seat": seat, "phase": "play", "reason": "direction", "cards": n, "leader": trick.leader,
                     "direction": way},
                    f"{player_name(seat, True)} plays next: card {n + 1} of the trick led by "
                    f"{player_name(trick.leader)}, going {way}.",
                    ("play.direction",),
                    math("play-order", seats=tuple(order)))


def _decide_whose_turn(rules: Rules, situation: Situation) -> Decision:
    if situation.trick is not None and situation.trick.cards and len(situation.trick.cards) < 4:
        return _trick_turn(rules, situation, situation.trick)
    if situation.trick is not None and (len(situation.trick.cards) == 4 or situation.history or situation.played):
        return _as_turn(_decide_who_leads(rules, situation))
    family_check(rules, situation, uses_bids=True)
    dealer = need_dealer(situation)
    clause = core_clauses.turn_clause(rules)
    order = math("bidding-order", seats=tuple(steps.speaking_order(rules, dealer)))
    if rules.individual:
        done = situation.bids is not None and all(b is not None for b in situation.bids)
        if not done:
            seat = individual_turn(rules, situation)
            if seat is None:
                raise RuntimeError("an unfinished individual bidding with no seat to bid")
            made = sum(b is not None for b in situation.bids or [])
            return Decision({"seat": seat, "phase": "bidding", "made": made, "dealer": dealer},
                            f"{player_name(seat, True)} bids next ({n_of(made, 'bid')} made; the dealer, "
                            f"{player_name(dealer)}, bids last).", (clause,),
                            order)
    elif situation.auction is not None or situation.contract is None:
        state, _ = auction(rules, situation)
        if type(state) is Calling:
            return Decision({"seat": state.to_move, "phase": "bidding", "calls": len(situation.auction or [])},
                            f"{player_name(state.to_move, True)} calls next ({n_of(len(situation.auction or []), 'call')} made).",
                            (clause,),
                            order)
        if type(state) is Dealing:
            dealer = state.table.dealer
            return Decision({"seat": dealer, "phase": "deal", "reason": "all-pass"},
                            f"All passed: {player_name(dealer)} deals again.",
                            (core_clauses.redeal_clause(rules),))
        if type(state) is Naming and situation.trump is None:
            holder, bid, _ = state.contract
            return Decision({"seat": state.to_move, "phase": "trump", "reason": "auction",
                             "contract": {"seat": holder, "bid": bid}},
                            f"{player_name(state.to_move, True)} names trump next: the auction ends with "
                            f"{player_name(holder)}'s bid of {bid} as the contract, and the contract holder names trump.",
                            ("trump.source", core_clauses.contract_clause(rules, False)))
    return _as_turn(_decide_who_leads(rules, situation))


# ------------------------------------------------------------------ a sequence of deals


def decide_deal_sequence(rules: Rules, situation: Situation) -> Decision:
    """Who deals after the deals of ``situation.deals`` (the first dealt by ``situation.dealer``), each played or cancelled."""
    dealer = need_dealer(situation)
    steps: list[tuple[int, int, str, int]] = []
    chain: list[str] = []
    for d in situation.deals:
        sub = dataclasses.replace(situation, dealer=dealer, hand_result=d.hand, deals=[],
                                  bids=None if d.bids is None else list(d.bids),
                                  auction=None if d.auction is None else list(d.auction))
        try:
            one = decide_next_dealer(rules, sub)
        except Missing as e:
            raise Missing(f"deals[{d.index}].{e.field}", e.why) from None
        nxt = one.answer["dealer"]
        how = "played" if nxt != dealer and d.hand == "played" else ("cancelled" if d.hand == "cancelled" else "")
        steps.append((d.index + 1, dealer, how, nxt))
        chain += [c for c in one.chain if c not in chain]
        dealer = nxt
    return Decision({"dealer": dealer, "deals": len(situation.deals)},
                    f"After {n_of(len(situation.deals), 'deal')}, {player_name(dealer)} deals.", tuple(chain),
                    math("deals", steps=tuple(steps)))


# ------------------------------------------------------------------ one seat's score


def decide_seat_score(rules: Rules, situation: Situation) -> Decision:
    """The score change of the question's seat from that seat's bid and tricks (individual bids)."""
    seat = situation.question.seat
    if seat is None:
        raise RuntimeError("a seat's score asked without the seat")
    family_check(rules, situation, uses_bids=True)
    if not rules.individual:
        raise Missing("question.seat", "in the auction family a team is scored: ask without a seat, with the "
                                       "contract and the tricks")
    bid = situation.bids[seat] if situation.bids is not None else None
    if bid is None:
        raise Missing(f"bids.{seat}", f"{player_name(seat)}'s bid is needed")
    took = situation.seat_tricks.get(seat)
    if took is None:
        raise Missing(f"tricks.{seat}", f"the tricks {player_name(seat)} took are needed")
    if not 0 <= took <= 13:
        raise situation.err([f"tricks.{seat}"], f"{took} tricks: a seat takes 0 to 13")
    before = situation.seat_scores.get(seat)
    bad = core_rules.bid_violation(rules, before or 0, bid)
    if bad is not None and (bad[0] != "bid.rising-min" or before is not None):
        raise situation.err([f"bids.{seat}"], f"a bid of {bid} cannot have been made under {rules.label()}: {bad[1]} [{bad[0]}]")
    d = core_rules.individual_delta(rules, bid, took)
    made = core_rules.bid_made(bid, took)
    value = core_rules.bid_value(rules, bid)
    answer: dict[str, object] = {"seat": seat, "delta": d, "bid": bid, "took": took, "made": made}
    text = f"{player_name(seat, True)} bid {bid} and took {took}: {'made' if made else 'failed'}, {fmt_delta(d)}."
    if before is not None:
        answer["score"] = before + d
        answer["before"] = before
        text = text[:-1] + f", from {before} to {before + d}."
    arith = math("seat-score", took=took, bid=bid, made=made, delta=d, value=None if value == bid else value,
                 before=before)
    return Decision(answer, text, core_clauses.score_ruling_clauses(rules), arith)


# ------------------------------------------------------------------ irregularities


def _find_revoke(rules: Rules, situation: Situation, seat: int) -> tuple[int, int, int, str] | None:
    """(trick index, card played, later card that proves the seat held the suit, clause) of the first proven
    revoke by ``seat`` in ``situation.history`` (and the trick in progress), or None: a card the transition refuses
    from the seat holding it and the later card, after the cards played before it, in every trump the facts allow."""
    tricks = list(situation.history) + ([situation.trick] if situation.trick is not None else [])
    try:
        trumps: tuple[int, ...] = (trump_of(rules, situation)[0],)
    except Missing:
        trumps = facts_trumps(rules, situation)
    starts = [play_start(rules, situation, t) for t in trumps]
    by_seat = [{e.seat: e.card for e in trick_played(rules, situation, t, start=starts[0])[1] if type(e) is Played}
               for t in tricks]  # the card each seat played to each trick
    for i, t in enumerate(tricks):
        card = by_seat[i].get(seat)
        if card is None or t.cards[0] == card:
            continue
        before = t.cards[:t.cards.index(card)]
        later = [x[seat] for x in by_seat[i + 1:] if seat in x] + situation.hands.get(seat, [])
        for proof in later:
            refused = []
            for start in starts:
                state = steps.position(rules, start, t.leader, before, CARD_BITS[card] | CARD_BITS[proof],
                                       steps.seats_in_trick(rules, start, t.leader, before))
                try:
                    transition.step(rules, state, PLAYS[card])
                except IllegalPlay as e:
                    refused.append(e.rule)
            if len(refused) == len(starts):
                return i, card, proof, refused[0]
    return None


def _turn_of(rules: Rules, situation: Situation, irr: str) -> Decision | None:
    """For a bid or a lead out of turn by the question's seat: whose turn the facts give (the whose-turn ruling,
    in the phase of the irregularity), or None when they do not tell (the irregularity is then taken as stated)."""
    if irr not in ("bid-out-of-turn", "lead-out-of-turn") or situation.question.seat is None:
        return None
    try:
        if irr == "bid-out-of-turn":
            if situation.dealer is None or (not rules.individual and situation.contract is not None and situation.auction is None):
                return None
            d = _decide_whose_turn(rules, situation)
            return d if d.answer.get("phase") == "bidding" else None
        if situation.trick is not None:
            d = _decide_whose_turn(rules, situation)
            return d if d.answer.get("phase") == "play" else None
        return _as_turn(_decide_who_leads(rules, situation))  # Missing when the facts do not tell who leads
    except Missing:
        return None


def _decide_irregularity(rules: Rules, situation: Situation) -> Decision:
    irr = situation.question.irregularity
    if irr is None:
        raise RuntimeError("an irregularity ruled without the irregularity")
    trick_no = len(situation.history) + (len(situation.played) // 4)
    name = IRREGULARITY_NAMES[irr]
    answer: dict[str, object] = {"irregularity": irr, "remedy": None, "documents": "silent"}
    arith = NONE
    must = False
    if irr == "revoke" and situation.question.seat is not None and (situation.history or situation.trick is not None):
        seat = situation.question.seat
        found = _find_revoke(rules, situation, seat)
        if found is None:
            answer.update(revoke=False, breaks=[])
            return Decision(answer, f"No revoke by {player_name(seat)} is shown: every card it played is legal as far as "
                                    "its later plays and hand tell.", ("play.follow",) + (
                                        ("play.must-trump",) if rules.must_trump else ()))
        i, card, later, clause = found
        t = (list(situation.history) + ([situation.trick] if situation.trick is not None else []))[i]
        must = clause == "play.must-trump"
        arith = math("revoke", trick=i + 1, led=t.cards[0] // 13, seat=seat, card=card, trump=must, proof=later)
        answer.update(revoke=True, trick=i + 1, card=card_str(card), proof=card_str(later))
    decided = _turn_of(rules, situation, irr)
    offender = situation.question.seat
    if decided is not None and offender is not None:
        what = "bid" if irr == "bid-out-of-turn" else "lead or play"
        if decided.answer["seat"] == offender:  # the facts put this player in turn: nothing happened out of turn
            answer.update(out_of_turn=False, turn=offender, breaks=[])
            return Decision(answer, f"No {what} out of turn: {decided.text}", decided.chain, decided.math)
        answer.update(out_of_turn=True, turn=decided.answer["seat"])
        arith = math("not-in-turn", seat=offender, turn=decided.answer["seat"], inner=decided.math or None)
    breaks = core_clauses.irregularity_clauses(rules, irr, trick_no, must)
    answer["breaks"] = list(breaks)
    if breaks:
        head = f"{name} breaks {' and '.join(rule_words(b) for b in breaks)}."
    else:
        head = f"{name}: no rule of this ruleset deals with it."
    if answer.get("revoke"):
        head = f"{player_name(situation.question.seat, True)} revoked in trick {answer['trick']}. " + head
    text = head + " The rule documents are silent on what happens next; a club picks one of the readings below."
    return Decision(answer, text, breaks, arith)


DECIDERS: dict[str, Callable[[Rules, Situation], Decision]] = {
    "who-leads": _decide_who_leads, "whose-turn": _decide_whose_turn, "irregularity": _decide_irregularity,
}

__all__ = ["DECIDERS", "IRREGULARITY_NAMES", "decide_deal_sequence", "decide_seat_score"]
