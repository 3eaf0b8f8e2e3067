"""The steps of a hand as pure functions of :class:`~tarneeb.core.spec.Rules` and plain data.

:mod:`tarneeb.core.rules` holds the single rule decisions (is this bid legal, who wins this trick); this module
strings them into the steps of a hand, once, for every caller: the state machine
(:class:`~tarneeb.core.match.Match`), the record verifier's fast path, the conformance vectors, the fuzzer and
the referee. No other module scores a hand, settles a match or picks the next dealer.

* :func:`deal_trump` -- the revealed card and trump after the deal (trump.source).
* :func:`weak_seats` -- seats whose hand forces a redeal (deal.weak-redeal); :func:`weak_claimers` -- those who
  may ask for one instead, in turn (ambiguity weak-hand, reading claimed).
* :class:`Auction`, :func:`auction_call` -- one call of the team auction and who speaks next.
* :func:`bidding_order`, :func:`bid_turn` -- the order of the individual bids and whose bid it is (bid.turn).
* :func:`hand_leader` -- who leads the first trick (play.lead); :func:`trick_turn` -- who plays the n-th card;
  :func:`legal_trick_winner` -- the seat that wins a trick, or -1 when a card of it is not legal;
  :func:`trick_winner_seat` -- the seat that wins a trick.
* :func:`hand_deltas` -- the change of every seat's score for a played hand.
* :func:`hand_outcome` -- the winning team (or none) after a played hand, with the deciding clause.
* :func:`settle` -- the play-on target change and whether the match is over.
* :func:`next_dealer` -- who deals next, after a played or a cancelled deal; :func:`next_dealer_clause` -- the
  clause that says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from tarneeb.core import rules as core_rules
from tarneeb.core.spec import Rules

# ------------------------------------------------------------------ deal


def deal_trump(rules: Rules, deck: Sequence[int]) -> tuple[int | None, int]:
    """(revealed card or None, trump 0..3 or -1 when the contract will name it) for a deal (trump.source)."""
    if rules.trump_source == "fixed":
        return None, rules.fixed_suit
    if rules.trump_source.startswith("revealed"):
        card = core_rules.revealed_card(deck)
        return card, core_rules.trump_from_reveal(rules, card)
    return None, -1


def weak_seats(rules: Rules, hands: Sequence[int]) -> list[int]:
    """Seats holding no card above 10, when the ruleset redeals for them (deal.weak-redeal); else []."""
    if not rules.weak_redeal:
        return []
    return [s for s in range(4) if core_rules.is_weak_hand(hands[s])]


def weak_claimers(rules: Rules, dealer: int, hands: Sequence[int]) -> tuple[int, ...]:
    """Under reading claimed of ambiguity weak-hand, the weak seats (:func:`weak_seats`) in bidding order, each of
    whom may in turn ask for a redeal or keep the hand (deal.weak-redeal); () under reading automatic-next, where a
    weak hand cancels the deal at once, and when no seat is weak."""
    if rules.weak_claim != "claimed":
        return ()
    weak = weak_seats(rules, hands)
    return tuple(s for s in bidding_order(rules, dealer) if s in weak)


# ------------------------------------------------------------------ auction


@dataclass(slots=True, init=False)
class Auction:
    """The state of a team auction: the top bid and its holder, the calls so far, the seats still in. (Its
    ``__init__`` is written out so that mypyc compiles it: a generated one runs interpreted, and the transition
    builds an auction per call.)"""

    dealer: int
    to_speak: int | None  # None once the auction is over
    top: tuple[int, int | None] | None  # (tricks, strain or None)
    holder: int
    passes: int
    spoken: int
    active: list[bool]

    def __init__(self, dealer: int, to_speak: int | None, top: tuple[int, int | None] | None = None, holder: int = -1,
                 passes: int = 0, spoken: int = 0, active: list[bool] | None = None) -> None:
        self.dealer = dealer
        self.to_speak = to_speak
        self.top = top
        self.holder = holder
        self.passes = passes
        self.spoken = spoken
        self.active = [True, True, True, True] if active is None else active

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy (compiled by mypyc, there is no other way)
        return Auction, (self.dealer, self.to_speak, self.top, self.holder, self.passes, self.spoken, self.active)


def auction_start(rules: Rules, dealer: int) -> Auction:
    """The auction of a deal by ``dealer``: the seat after the dealer speaks first (auction.order)."""
    return Auction(dealer, core_rules.next_seat(rules, dealer))


def auction_call(rules: Rules, a: Auction, n: int | None, strain: int | None, *,
                 force: bool = False) -> tuple[str, str] | None:
    """Apply a call (``n`` None: a pass) by the seat to speak; None when legal (``a`` is then advanced),
    else (clause id, reason) and ``a`` is unchanged -- unless ``force``: then an illegal call is applied all
    the same (the verifier goes on from what a record claims) and its (clause id, reason) still returned."""
    seat = a.to_speak
    if seat is None:
        return "auction.order", "the auction is over"
    bad = core_rules.auction_bid_violation(rules, a.dealer, seat, a.top, a.passes, n, strain)
    if bad is not None and not force:
        return bad
    a.spoken += 1
    if n is None:
        a.passes += 1
        a.active[seat] = False
    else:
        a.top = (n, strain)
        a.holder = seat
    a.to_speak = core_rules.auction_next(rules, seat, a.spoken, a.active, a.top is not None, a.holder)
    return bad


# ------------------------------------------------------------------ bidding turn


def bidding_order(rules: Rules, dealer: int) -> tuple[int, int, int, int]:
    """The seats in the order they bid: the seat after the dealer first, the dealer last (bid.turn,
    auction.order)."""
    return core_rules.deal_order(rules, dealer)


def bid_turn(rules: Rules, dealer: int, have_bid: Sequence[int]) -> tuple[int | None, int | None]:
    """Individual bids: (the seat whose bid it is, None when all four have bid; the first seat in ``have_bid``
    that bid out of turn, i.e. before a seat ahead of it in :func:`bidding_order`, or None) (bid.turn)."""
    done = set(have_bid)
    order = bidding_order(rules, dealer)
    nxt = next((s for s in order if s not in done), None)
    early = None
    if nxt is not None:
        early = next((s for s in order[order.index(nxt):] if s in done), None)
    return nxt, early


# ------------------------------------------------------------------ play


def hand_leader(rules: Rules, dealer: int, contract: tuple[int, int, int | None] | None) -> int:
    """The first leader: the seat after the dealer (individual bids), the contract holder (auction) (play.lead)."""
    return core_rules.next_seat(rules, dealer) if contract is None else contract[0]


def legal_trick_winner(rules: Rules, hands: Sequence[int], leader: int, cards: Sequence[int], trump: int) -> int:
    """The seat that wins a trick of four ``cards`` led by ``leader`` (as :func:`trick_winner_seat`), or -1 when a
    card is not legal for its seat holding ``hands[seat]`` before the trick (play.follow,
    play.must-trump, play.winner, play.direction)."""
    c0, c1, c2, c3 = cards
    order = core_rules.seat_order(rules, leader)
    s0, s1, s2, s3 = order
    legal = core_rules.legal_play_mask
    led = c0 // 13
    if not (legal(rules, hands[s0], -1, trump) >> c0 & 1 and legal(rules, hands[s1], led, trump) >> c1 & 1
            and legal(rules, hands[s2], led, trump) >> c2 & 1 and legal(rules, hands[s3], led, trump) >> c3 & 1):
        return -1
    return order[core_rules.trick_winner(cards, trump)]


def trick_turn(rules: Rules, leader: int, n_played: int) -> int:
    """The seat that plays the ``n_played``-th card (0-based) of a trick led by ``leader`` (play.direction)."""
    return core_rules.seat_order(rules, leader)[n_played]


def trick_winner_seat(rules: Rules, leader: int, cards: Sequence[int], trump: int) -> int:
    """The seat that wins a trick of four cards led by ``leader`` (play.winner, play.direction)."""
    return core_rules.seat_order(rules, leader)[core_rules.trick_winner(cards, trump)]


# ------------------------------------------------------------------ scoring and outcome


def hand_deltas(rules: Rules, bids: Sequence[int], contract: tuple[int, int, int | None] | None,
                tricks_won: Sequence[int]) -> list[int]:
    """The change of each seat's score (score.individual / score.values; auction: score.standard,
    score.bid-only, score.kaboot, score.bid13). ``contract`` is (seat, tricks, strain), None for individual bids."""
    if contract is None:
        d = core_rules.individual_delta
        return [d(rules, bids[0], tricks_won[0]), d(rules, bids[1], tricks_won[1]), d(rules, bids[2], tricks_won[2]),
                d(rules, bids[3], tricks_won[3])]
    d0, d1 = core_rules.team_deltas(rules, contract[1], core_rules.team_of(contract[0]), core_rules.team_tricks(tricks_won))
    return [d0, d1, d0, d1]


def hand_outcome(rules: Rules, scores: Sequence[int], target: int, bids: Sequence[int],
                 contract: tuple[int, int, int | None] | None, tricks_won: Sequence[int]) -> tuple[int | None, str]:
    """(winning team or None, deciding clause) after a played hand, on the scores after it, at ``target``."""
    if contract is None:
        if target != rules.target:
            rules = replace(rules, target=target)
        return core_rules.individual_outcome(rules, scores, bids, tricks_won)
    bt = core_rules.team_of(contract[0])
    return core_rules.auction_outcome(rules, (scores[0], scores[1]), target, bt,
                             core_rules.bid13_wins(rules, contract[1], core_rules.team_tricks(tricks_won)[bt]))


class Settled(NamedTuple):
    """What a hand's outcome does to the match (win.play-on)."""

    winner: int | None  # the match winner, None when the match goes on
    target: int  # the target in force for the next hand
    games: Sequence[int]  # winners of the games so far (the ``games`` given, unchanged, when no game was won)
    game_won: int | None  # the team that won a game this hand (the match, or a game before play-on)


def settle(rules: Rules, win: int | None, target: int, games: Sequence[int]) -> Settled:
    """Apply a hand's outcome: a game won before play-on raises the target; otherwise a win ends the match."""
    if win is None:
        return Settled(None, target, games, None)
    nxt = core_rules.target_in_force(rules, len(games) + 1)
    if nxt != target:
        return Settled(None, nxt, (*games, win), win)
    return Settled(win, target, (*games, win), win)


def next_dealer_clause(redeal: str | None) -> str:
    """The clause that names the next dealer: deal.rotation after a played deal; after a cancelled one,
    redeal.dealer for a low bid total, else the clause that cancelled it."""
    if redeal is None:
        return "deal.rotation"
    return "redeal.dealer" if redeal == "bid.total" else redeal


def next_dealer(rules: Rules, dealer: int, redeal: str | None) -> int:
    """Who deals next: the next seat after a played deal (deal.rotation); after a cancelled one, per clause:
    bid.total by redeal.dealer, auction.all-pass and deal.weak-redeal the next seat (ambiguity weak-hand)."""
    if redeal == "bid.total":
        return core_rules.dealer_after_redeal(rules, dealer)
    return core_rules.next_seat(rules, dealer)


__all__ = [
    "Auction", "Settled", "auction_call", "auction_start", "bid_turn", "bidding_order", "deal_trump", "hand_deltas",
    "hand_leader", "hand_outcome", "legal_trick_winner", "next_dealer", "next_dealer_clause", "settle",
    "trick_turn", "trick_winner_seat", "weak_claimers", "weak_seats",
]
