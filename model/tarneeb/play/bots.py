"""Policies for simulation.

``random``: a uniformly random legal action.

``heuristic`` (the default), documented rule of thumb:

* **Bidding (individual).** Estimate own tricks: each trump counts 1 from the
  queen up, plus one per trump beyond the third; each side-suit ace counts 1 and
  a king with at least one other card of its suit counts 1/2. Bid the nearest
  legal bid at or above the rounded estimate (the lowest legal bid if it is
  below). The dealer, last to bid, raises to the lowest legal bid that reaches
  the redeal threshold when the estimate falls at most one trick short of it.
* **Bidding (auction).** Team estimate = own estimate + 3.5 (the partner's share) in the longest
  suit as trump; bid the lowest bid over the top when the estimate reaches it,
  else pass. Egyptian bids name the longest suit. Trump named: longest suit.
* **Play.** Lead: a winning ace of a side suit while tricks are still needed,
  else the lowest card of the longest side suit. Follow: if the partner is
  already winning the trick, play the lowest legal card; if this player (or its
  team, in the auction family) still needs tricks, or the opponents still need
  tricks, win as cheaply as possible; otherwise play the lowest legal card.
"""

from __future__ import annotations

import random
from typing import Protocol

from tarneeb.core import rules as core_rules
from tarneeb.core.actions import ASK, BIDS, EGYPTIAN, PASS, PLAYS, Action, Bid, NameTrump
from tarneeb.core.cards import SUIT_MASKS, cards_of, ranks_in, suit_count
from tarneeb.core.match import Match, Phase


class Policy(Protocol):
    def __call__(self, m: Match, rng: random.Random) -> Action: ...


def random_policy(m: Match, rng: random.Random) -> Action:
    if m.phase is Phase.PLAY:
        # the k-th legal card in ascending order, as cards_of(mask)[k], without building the list
        mask = m.legal_play_mask()
        k = rng.randrange(mask.bit_count())
        while k:
            mask &= mask - 1
            k -= 1
        return PLAYS[(mask & -mask).bit_length() - 1]
    legal = m.legal_actions()
    return legal[rng.randrange(len(legal))]


def estimate_tricks(hand: int, trump: int) -> float:
    est = 0.0
    for s in range(4):
        ranks = ranks_in(hand, s)
        if s == trump:
            est += sum(1 for r in ranks if r >= 10) + max(0, len(ranks) - 3)
        else:
            if 12 in ranks:
                est += 1
            if 11 in ranks and len(ranks) >= 2:
                est += 0.5
    return est


def _longest_suit(hand: int) -> int:
    return max(range(4), key=lambda s: (suit_count(hand, s), sum(ranks_in(hand, s))))


def heuristic_policy(m: Match, rng: random.Random) -> Action:
    rules = m.rules
    seat = m.to_move
    hand = m.hands[seat]
    if m.phase is Phase.BIDDING:
        if rules.individual:
            legal = core_rules.legal_bids(rules, m.scores[seat])
            est = round(estimate_tricks(hand, m.trump))
            choice = next((b for b in legal if b >= est), legal[-1])
            if seat == m.dealer:
                so_far = sum(m.bids) - m.bids[seat]
                need = core_rules.total_in_force(rules, m.scores) - so_far
                if choice < need <= est + 1:
                    choice = next((b for b in legal if b >= need), choice)
            return BIDS[choice]
        legal_actions = m.legal_actions()
        suit = _longest_suit(hand)
        team_est = estimate_tricks(hand, suit) + 3.5  # the partner adds about a quarter of the tricks
        for a in legal_actions:
            if isinstance(a, Bid) and a.n is not None and (a.strain is None or a.strain == suit):
                if a.n <= team_est:
                    return a
                break
        if PASS in legal_actions:
            return PASS
        low = next(a for a in legal_actions if isinstance(a, Bid))
        if rules.egyptian and low.n is not None:
            cand = EGYPTIAN[(low.n, suit)]
            if cand in legal_actions:
                return cand
        return low
    if m.phase is Phase.TRUMP_CHOICE:
        return NameTrump(_longest_suit(hand))
    if m.phase is Phase.WEAK_CLAIM:  # a hand with no card above 10: ask for a redeal (ambiguity weak-hand)
        return ASK
    if m.phase is not Phase.PLAY:
        return random_policy(m, rng)
    legal = cards_of(m.legal_play_mask())
    trump = m.trump
    if rules.individual:
        need_me = m.tricks_won[seat] < m.bids[seat]
        partner = (seat + 2) % 4
        opp_need = any(m.tricks_won[o] < m.bids[o] for o in ((seat + 1) % 4, (seat + 3) % 4))
    else:
        rec = m.record
        if rec is None or rec.contract is None:
            raise RuntimeError("a bot asked to play with no contract in force")
        holder, n, _ = rec.contract
        team = seat & 1
        partner = (seat + 2) % 4
        won = m.tricks_won[team] + m.tricks_won[team + 2]
        if holder & 1 == team:
            need_me = won < n
            opp_need = False
        else:
            need_me = won < 14 - n
            opp_need = True
    if not m.trick:
        if need_me:
            aces = [c for c in legal if c % 13 == 12 and c // 13 != trump]
            if aces:
                return PLAYS[aces[0]]
        side = [c for c in legal if c // 13 != trump] or legal
        longest = max({c // 13 for c in side}, key=lambda s: suit_count(hand & SUIT_MASKS[s], s))
        return PLAYS[min(c for c in side if c // 13 == longest)]
    idx = core_rules.trick_winner(m.trick, trump)
    winner_seat = core_rules.seat_order(m.rules, m.trick_leader)[idx]  # who wins the trick so far
    lowest = min(legal, key=lambda c: (c // 13 == trump, c % 13))
    if winner_seat == partner:
        return PLAYS[lowest]
    if need_me or opp_need:
        best = m.trick[idx]
        winners = [c for c in legal if core_rules.trick_winner([best, c], trump) == 1]
        if winners:
            return PLAYS[min(winners, key=lambda c: (c // 13 == trump, c % 13))]
    return PLAYS[lowest]


POLICIES: dict[str, Policy] = {"heuristic": heuristic_policy, "random": random_policy}
