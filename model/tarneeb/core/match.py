"""The match state machine.

Phases (:class:`Phase`): a match waits in DEAL for the chance event (the deck
order), may wait in WEAK_CLAIM (a weak seat asks for a redeal or keeps its hand, under
reading claimed of ambiguity weak-hand), passes through TRUMP_REVEAL, waits in BIDDING, may pass through REDEAL
back to DEAL, may wait in TRUMP_CHOICE (auction family), waits in PLAY, passes
through HAND_SCORING and MATCH_OUTCOME, and ends in OVER. Each phase has one
method here (``_phase_*``). The waiting phases accept actions; the passing ones
run inside :meth:`Match.apply` and are logged in the hand's record.

Every decision is one of the pure functions of :mod:`tarneeb.core.rules`, and every step of a hand one of
:mod:`tarneeb.core.hand` (the verifier, vectors, fuzzer and referee call the same ones). :meth:`Match.at` builds a
checked mid-match state from data.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import ASK, BIDS, EGYPTIAN, KEEP, PASS, PLAYS, Action, Bid, Deal, NameTrump, Play, Redeal
from tarneeb.core.cards import (
    CARD_BITS,
    CARDS_OF_SUIT,
    FULL_DECK,
    SUIT_MASKS,
    card_str,
    cards_of,
    hand_str,
    player_and_seat,
    player_name,
    strain_name,
    team_label,
)
from tarneeb.core.spec import Rules
from tarneeb.core.tables import bid_deciders, call_deciders, rules_table
from tarneeb.errors import IllegalBid, IllegalDeal, IllegalPlay, IllegalTrump, WrongPhase

_PLAY_ON_TEAM = re.compile(r"^(win\.play-on: )team (\d)")  # the note of a game won before play-on names its team 0/1

_PLAYS_OF_SUIT: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[c] for c in cards) for cards in CARDS_OF_SUIT[s]) for s in range(4)
)
_P0, _P1, _P2, _P3 = _PLAYS_OF_SUIT  # the Play actions of a 13-bit suit mask, per suit
_NO_AUCTION = core_hand.Auction(-1, None)  # the auction before a deal (never called on: auction_start replaces it)
_OTHER_SUITS = tuple(FULL_DECK ^ m for m in SUIT_MASKS)  # the cards not of suit s
_SHIFT = (0, 13, 26, 39)
_NAME_TRUMP = tuple(NameTrump(s) for s in range(4))  # the contract holder's choices (trump.source)
_CLAIMS = (ASK, KEEP)  # a weak seat's choices (deal.weak-redeal, reading claimed of ambiguity weak-hand)


# Legal calls by auction state and legal individual bids by score, per Rules object (tarneeb.core.tables)
_AuctionKey = tuple[int, int, tuple[int, int | None] | None, int]
_AUCTION_TABLES: dict[int, tuple[Rules, tuple[object, ...], dict[_AuctionKey, tuple[Bid, ...]]]] = {}
_BID_TABLES: dict[int, tuple[Rules, tuple[object, ...], dict[int, tuple[Bid, ...]]]] = {}


class Phase(Enum):
    DEAL = "deal"
    WEAK_CLAIM = "weak-claim"
    TRUMP_REVEAL = "trump-reveal"
    BIDDING = "bidding"
    REDEAL = "redeal"
    TRUMP_CHOICE = "trump-choice"
    PLAY = "play"
    HAND_SCORING = "hand-scoring"
    MATCH_OUTCOME = "match-outcome"
    OVER = "over"


_PLAY = Phase.PLAY
_BIDDING = Phase.BIDDING
_DEAL = Phase.DEAL


@dataclass(slots=True)
class Trick:
    leader: int
    cards: list[int]
    winner: int = -1  # seat


@dataclass(slots=True)
class HandRecord:
    """What happened in one deal (played or cancelled)."""

    deal_no: int
    dealer: int
    deck: tuple[int, ...]
    revealed: int | None = None
    trump: int | None = None  # 0..3, 4 = no trump, None = not yet known
    bids: list[tuple[int, Bid]] = field(default_factory=list)  # (seat, bid) in order
    contract: tuple[int, int, int | None] | None = None  # (seat, n, strain)
    redeal: str | None = None  # clause id that cancelled the hand
    claims: list[tuple[int, bool]] = field(default_factory=list)  # (seat, asks) of weak seats, in turn (weak-hand)
    plays: list[int] = field(default_factory=list)  # the cards of the completed tricks, in play order, 4 a trick
    leaders: list[int] = field(default_factory=list)  # the seat leading each completed trick
    winners: list[int] = field(default_factory=list)  # the seat winning each completed trick
    tricks_won: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    scores_after: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    outcome: int | None = None  # winning team after this hand, if any
    outcome_rule: str = ""
    notes: list[str] = field(default_factory=list)  # why a deal was cancelled; a game won before play-on

    @property
    def events(self) -> list[str]:
        """What happened, in words and in order: the card the dealer showed (trump.source), the contract, then the
        notes. Worded on demand from the fields above: the engine formats no text for a deal nobody reads. Players
        are counted 1 to 4 and teams 1 and 2, as in every human text (the record's fields keep 0..3 and 0/1)."""
        out = []
        if self.revealed is not None:
            out.append(f"trump.source: the dealer, {player_name(self.dealer)}, shows {card_str(self.revealed)}")
        if self.contract is not None:
            seat, n, strain = self.contract
            out.append(f"contract {Bid(n, strain)} by {player_name(seat)}")
        return out + [_PLAY_ON_TEAM.sub(lambda m: f"{m[1]}{team_label(int(m[2]))}", note) for note in self.notes]

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks, built afresh from ``plays``, ``leaders`` and ``winners`` at each call.
        ``len(rec.winners)`` counts them."""
        plays = self.plays
        return [Trick(lead, plays[4 * i:4 * i + 4], w)
                for i, (lead, w) in enumerate(zip(self.leaders, self.winners, strict=True))]


def random_deck(rng: random.Random) -> tuple[int, ...]:
    deck = list(range(52))
    rng.shuffle(deck)
    return tuple(deck)


class Match:
    """A whole match under one :class:`~tarneeb.core.spec.Rules`.

    ``first_dealer`` is a chance outcome (clause deal.first-dealer) and is
    given by the caller, so a match is fully described by
    ``(rules, first_dealer, actions)``. Use :meth:`replay` to rebuild one.
    """

    __slots__ = (
        "rules", "first_dealer", "phase", "dealer", "scores", "hands", "to_move", "trump", "led",
        "trick", "trick_leader", "tricks_won", "bids", "auction_top", "auction", "spoken", "record", "records",
        "history", "winner", "winner_rule", "target", "start_games",
        "games", "hands_played", "redeals", "start_scores", "_mhand", "_mmask", "_next", "_order", "_claimers",
    )

    def __init__(self, rules: Rules, first_dealer: int = 0, scores: Sequence[int] | None = None) -> None:
        """``scores`` starts a match part-way (seats 0..3; in the auction family partners carry the team score)."""
        if first_dealer not in (core_rules.first_dealers(rules) if scores is None else range(4)):  # a start, or part-way
            why = "the first dealer must be a seat 0..3" if first_dealer not in range(4) else \
                "under reading seat0 of ambiguity first-dealer seat 0 deals the first hand"
            raise IllegalDeal(f"first dealer {first_dealer}", None, "deal.first-dealer", why, "new match")
        start = [0, 0, 0, 0] if scores is None else [int(x) for x in scores]
        if len(start) != 4 or (not rules.individual and (start[0] != start[2] or start[1] != start[3])):
            raise IllegalDeal(f"start scores {list(scores or [])}", None, "seats.partners",
                              "four seat scores are needed, and partners share a team score in this ruleset",
                              "new match")
        self.rules = rules
        self._next = tuple(core_rules.next_seat(rules, s) for s in range(4))  # play.direction, decided once per match
        self._order = tuple(core_rules.seat_order(rules, s) for s in range(4))  # the seats of a trick, by its leader
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.scores = start
        self.start_scores = tuple(start)
        self.target = rules.target
        self.games: list[int] = []  # winners of games ended before play-on
        self.start_games: tuple[int, ...] = ()  # games already won when the match was built part-way (Match.at)
        self.winner: int | None = None
        self.winner_rule = ""
        self.history: list[Action] = []
        self.records: list[HandRecord] = []
        self.hands_played = 0
        self.redeals = 0
        self._reset_hand()
        self.phase = Phase.DEAL

    # ------------------------------------------------------------ helpers
    def _reset_hand(self) -> None:
        self.hands = [0, 0, 0, 0]
        self.to_move = -1
        self.trump = -1
        self.led = -1
        self.trick: list[int] = []
        self.trick_leader = -1
        self.tricks_won = [0, 0, 0, 0]
        self.bids: list[int] = [0, 0, 0, 0]
        self.auction_top: Bid | None = None
        self.auction = _NO_AUCTION
        self.spoken = 0
        self.record: HandRecord | None = None
        self._claimers: tuple[int, ...] = ()  # the weak seats still to ask or keep (Phase.WEAK_CLAIM)
        # The legal-play mask last computed by legal_actions and the hand it is for (-1: none). Only _phase_play
        # changes a hand or the led suit during play, and it clears _mhand: the mask is then always for this state.
        self._mhand = -1
        self._mmask = 0

    @classmethod
    def at(cls, rules: Rules, dealer: int, scores: Sequence[int] | None = None, target: int | None = None,
           games: Sequence[int] | None = None, *, partners_agree: bool = True) -> Match:
        """A match part-way, waiting for the deal of a hand by ``dealer`` (as OpenSpiel's games rebuild a state).

        ``scores`` by seat (auction family: partners carry the team score); ``target`` the target in force
        (win.play-on), ``games`` the winners of the games already won before play-on (inferred from
        ``target`` when omitted). Everything is checked: a seat 0..3, four integer scores, partners equal
        in the auction family (``partners_agree=False`` lets a verifier go on from a record's inconsistent
        claim), a target the ruleset can have in force, team numbers 0 or 1.
        """
        start = [0, 0, 0, 0] if scores is None else list(scores)
        if not all(type(x) is int for x in start):
            raise IllegalDeal(f"start scores {start}", None, "seats.partners", "seat scores are integers",
                              "match part-way")
        if partners_agree or len(start) != 4:
            m = cls(rules, dealer, start)  # the constructor's checks: four scores, partners equal in a team game
        else:
            m = cls(rules, dealer, [0, 0, 0, 0])  # part-way: any dealer may be waited for
        if games is None:
            want = core_rules.target_in_force(rules, 0) if target is None else target
            k = 0
            # the games it takes to reach that target: 1 at most, or any number under reading repeated
            most = 2 if rules.play_on_count == "once" else max(2, (want - rules.target) // max(1, rules.play_on_raise) + 1)
            while core_rules.target_in_force(rules, k) != want:
                k += 1
                if k > most:
                    raise IllegalDeal(f"target {want}", None, "win.play-on",
                                      f"the targets in force under this ruleset are {rules.target}"
                                      + (f" and {rules.target + rules.play_on_raise}" if rules.play_on_raise else "")
                                      + (" and so on, one raise per game won" if rules.play_on_count == "repeated"
                                         and rules.play_on_raise else ""),
                                      "match part-way")
            games = [0] * k  # the teams that won earlier games are not known; only their number matters
        if any(g not in (0, 1) for g in games):
            raise IllegalDeal(f"games {list(games)}", None, "win.play-on", "a game is won by team 0 or 1",
                              "match part-way")
        in_force = core_rules.target_in_force(rules, len(games))
        if target is not None and target != in_force:
            raise IllegalDeal(f"target {target}", None, "win.play-on",
                              f"after {len(games)} game(s) the target in force is {in_force}", "match part-way")
        m.scores = start
        m.start_scores = tuple(start)
        m.target = in_force
        m.games = list(games)
        m.start_games = tuple(games)
        return m

    @classmethod
    def replay(cls, rules: Rules, first_dealer: int, actions: Sequence[Action],
               scores: Sequence[int] | None = None) -> Match:
        m = cls(rules, first_dealer, scores)
        for a in actions:
            m.apply(a)
        return m

    def copy(self) -> Match:
        m = Match.at(self.rules, self.first_dealer, self.start_scores, None, self.start_games, partners_agree=False)
        for a in self.history:
            m.apply(a)
        return m

    def state_text(self) -> str:
        """A one-line summary used in error messages."""
        parts = [f"deal {len(self.records)}", f"phase {self.phase.value}",
                 f"dealer {player_and_seat(self.dealer)}", f"scores {self.scores}"]
        if self.to_move >= 0:
            parts.append(f"{player_and_seat(self.to_move)} to move holding [{hand_str(self.hands[self.to_move])}]")
        if self.trump >= 0:
            parts.append(f"trump {strain_name(self.trump, letter=True)}")
        if self.trick:
            parts.append("trick so far " + " ".join(card_str(c) for c in self.trick))
        return "; ".join(parts)

    @property
    def auction_holder(self) -> int:
        return self.auction.holder

    @property
    def active(self) -> list[bool]:
        return self.auction.active

    @property
    def passes(self) -> int:
        return self.auction.passes

    def is_chance(self) -> bool:
        return self.phase is Phase.DEAL

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def team_scores(self) -> tuple[int, int]:
        if self.rules.individual:
            return self.scores[0] + self.scores[2], self.scores[1] + self.scores[3]
        return self.scores[0], self.scores[1]

    # ------------------------------------------------------- legal actions
    def legal_actions(self) -> Sequence[Action]:
        """Legal actions of the player to move (empty in DEAL, a chance node, and OVER).

        In play the cards come in ascending order (clubs first, low to high).
        """
        ph = self.phase
        if ph is _PLAY:
            led = self.led
            hand = self.hands[self.to_move]
            mask = core_rules.legal_play_mask(self.rules, hand, led, self.trump)
            self._mhand = hand  # _phase_play need not compute the mask again
            self._mmask = mask
            if led >= 0 and not mask & _OTHER_SUITS[led]:  # following suit: one precomputed tuple
                return _PLAYS_OF_SUIT[led][mask >> _SHIFT[led]]
            return _P0[mask & 0x1FFF] + _P1[(mask >> 13) & 0x1FFF] + _P2[(mask >> 26) & 0x1FFF] + _P3[mask >> 39]
        if ph is Phase.BIDDING:
            if self.rules.individual:
                return self._legal_individual_bids()
            return self._legal_auction_bids()
        if ph is Phase.TRUMP_CHOICE:
            return _NAME_TRUMP
        if ph is Phase.WEAK_CLAIM:
            return _CLAIMS
        return []

    def legal_play_mask(self) -> int:
        hand = self.hands[self.to_move]
        mask = core_rules.legal_play_mask(self.rules, hand, self.led, self.trump)
        self._mhand, self._mmask = hand, mask
        return mask

    def _legal_individual_bids(self) -> Sequence[Action]:
        """core_rules.legal_bids for the bidder's score, kept per rules and score (rebuilt if a deciding rule is patched)."""
        rules = self.rules
        table = rules_table(_BID_TABLES, rules, bid_deciders())
        score = self.scores[self.to_move]
        got = table.get(score)
        if got is None:
            got = table[score] = tuple(BIDS[b] for b in core_rules.legal_bids(rules, score))
        return got

    def _legal_auction_bids(self) -> Sequence[Action]:
        rules = self.rules
        a = self.auction
        # The legal calls depend only on (rules, dealer, seat, top bid, passes): the rules decide them once per
        # such state (auction_bid_violation) and the list is kept for the next time the same state comes up.
        table = rules_table(_AUCTION_TABLES, rules, call_deciders())  # rebuilt if a deciding rule is patched
        key = (self.dealer, self.to_move, a.top, a.passes)
        got = table.get(key)
        if got is None:
            strains = range(5) if rules.egyptian else (None,)
            candidates: list[Bid] = [PASS] + [BIDS[n] if s is None else EGYPTIAN[(n, s)]
                                              for n in range(rules.min_bid, 14) for s in strains]
            got = table[key] = tuple(
                b for b in candidates
                if core_rules.auction_bid_violation(rules, self.dealer, self.to_move, a.top, a.passes, b.n, b.strain) is None)
        return got

    # -------------------------------------------------------------- apply
    def apply(self, action: Action) -> None:
        """Apply one action, or raise an :class:`~tarneeb.errors.IllegalAction` subclass."""
        ph = self.phase
        if ph is _PLAY and type(action) is Play:
            self._phase_play(action.card)
        elif ph is _BIDDING and type(action) is Bid:
            self._phase_bidding(action)
        elif ph is _DEAL and type(action) is Deal:
            self._phase_deal(action)
        elif ph is Phase.TRUMP_CHOICE and type(action) is NameTrump:
            self._phase_trump_choice(action)
        elif ph is Phase.WEAK_CLAIM and type(action) is Redeal:
            self._phase_weak_claim(action)
        else:
            want = {Phase.DEAL: "a deal", Phase.BIDDING: "a bid", Phase.PLAY: "a card",
                    Phase.TRUMP_CHOICE: "a trump suit", Phase.WEAK_CLAIM: "redeal:ask or redeal:keep",
                    Phase.OVER: "nothing: the match is over"}
            # once the match is over the clause that decided it answers every action; before, the phase's own
            rule = ((self.winner_rule or "win.target") if ph is Phase.OVER else
                    "deal.weak-redeal" if ph is Phase.WEAK_CLAIM else "hand.tricks")
            raise WrongPhase(str(action), self.to_move if self.to_move >= 0 else None, rule,
                             f"the {ph.value} phase expects {want.get(ph, ph.value)}", self.state_text())
        self.history.append(action)

    def play_card(self, card: int) -> None:
        """Fast path for :meth:`apply` with ``Play(card)`` (same checks)."""
        if self.phase is not Phase.PLAY:
            self.apply(Play(card))
            return
        self._phase_play(card)
        self.history.append(PLAYS[card])

    # ------------------------------------------------------------- phases
    def _phase_deal(self, action: Deal) -> None:
        deck = action.deck
        rules = self.rules
        try:
            hands = core_rules.deal_hands(rules, self.dealer, deck) if len(deck) == 52 else None
        except (TypeError, ValueError):
            hands = None
        if hands is None or hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:  # 52 cards covering the pack
            raise IllegalDeal(f"deal of {len(deck)} cards", None, "deal.deck",
                              "a deal must order all 52 distinct cards 0..51", self.state_text())
        self._reset_hand()
        self.hands = hands
        self.record = HandRecord(len(self.records), self.dealer, tuple(deck))
        weak = core_hand.weak_seats(rules, hands)
        if weak:
            claimers = core_hand.weak_claimers(rules, self.dealer, hands)
            if not claimers:  # the redeal is automatic
                self._phase_redeal("deal.weak-redeal", f"seat(s) {weak} hold no card above 10")
                return
            self.phase = Phase.WEAK_CLAIM
            self._claimers = claimers
            self.to_move = claimers[0]
            return
        self._start_bidding()

    def _start_bidding(self) -> None:
        rec = self.record
        if rec is None:
            raise RuntimeError("the bidding started with no deal")
        self._phase_trump_reveal(rec.deck)
        self.phase = Phase.BIDDING
        self.to_move = self._next[self.dealer]  # bid.turn, auction.order: the seat after the dealer
        if not self.rules.individual:
            self.auction = core_hand.auction_start(self.rules, self.dealer)

    def _phase_weak_claim(self, action: Redeal) -> None:
        """A weak seat asks for a redeal (the deal is cancelled) or keeps its hand (the next weak seat chooses, or
        the bidding starts): deal.weak-redeal under reading claimed of ambiguity weak-hand."""
        rec = self.record
        if rec is None:
            raise RuntimeError("a weak seat's choice with no deal")
        seat = self.to_move
        rec.claims.append((seat, action.ask))
        if action.ask:
            self._phase_redeal("deal.weak-redeal", f"{player_and_seat(seat)} holds no card above 10 and asks for a "
                                                   "redeal")
            return
        self._claimers = self._claimers[1:]
        if self._claimers:
            self.to_move = self._claimers[0]
            return
        self._start_bidding()

    def _phase_trump_reveal(self, deck: Sequence[int]) -> None:
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        card, trump = core_hand.deal_trump(self.rules, deck)
        if card is not None:
            rec.revealed = card  # worded in rec.events
        if trump < 0:
            return  # named after the auction
        self.trump = trump
        rec.trump = trump

    def _phase_bidding(self, bid: Bid) -> None:
        rules = self.rules
        seat = self.to_move
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        if rules.individual:
            bad = core_rules.bid_violation(rules, self.scores[seat], bid.n, bid.strain)
            if bad is not None:
                raise IllegalBid(str(bid), seat, bad[0], bad[1], self.state_text())
            if bid.n is None:
                raise RuntimeError("an individual bid with no number of tricks")
            self.bids[seat] = bid.n
            rec.bids.append((seat, bid))
            self.spoken += 1
            if self.spoken < 4:
                self.to_move = self._next[seat]  # bid.turn (core_rules.next_seat, tabled in __init__)
                return
            if not core_rules.hand_is_played(rules, self.bids, self.scores):
                total, threshold = core_rules.bid_total(rules, self.bids, self.scores)
                self._phase_redeal("bid.total", f"bids total {total}, below {threshold}")
                return
            self._start_play(core_hand.hand_leader(rules, self.dealer, None))
            return
        self._auction_bid(bid)

    def _auction_bid(self, bid: Bid) -> None:
        rules = self.rules
        seat = self.to_move
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        a = self.auction
        bad = core_hand.auction_call(rules, a, bid.n, bid.strain)
        if bad is not None:
            raise IllegalBid(str(bid), seat, bad[0], bad[1], self.state_text())
        rec.bids.append((seat, bid))
        self.spoken = a.spoken
        if bid.n is not None:
            self.auction_top = bid
        nxt = a.to_speak
        if nxt is None:
            self._end_auction()
        else:
            self.to_move = nxt

    def _end_auction(self) -> None:
        rules = self.rules
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        top = self.auction_top
        if top is None:
            self._phase_redeal("auction.all-pass", "all four players passed")
            return
        if top.n is None:
            raise RuntimeError("a contract with no number of tricks")
        holder = self.auction.holder
        rec.contract = (holder, top.n, top.strain)  # worded in rec.events
        if rules.egyptian:
            if top.strain is None:
                raise RuntimeError("an Egyptian contract with no strain")
            self.trump = top.strain
            rec.trump = self.trump
            self._start_play(core_hand.hand_leader(rules, self.dealer, rec.contract))
            return
        self.phase = Phase.TRUMP_CHOICE
        self.to_move = holder

    def _phase_trump_choice(self, action: NameTrump) -> None:
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        if type(action.suit) is not int or not 0 <= action.suit < 4:
            raise IllegalTrump(str(action), self.to_move, "trump.source",
                               "the contract holder names one of the four suits", self.state_text())
        self.trump = action.suit
        rec.trump = action.suit
        self._start_play(core_hand.hand_leader(self.rules, self.dealer, rec.contract))

    def _phase_redeal(self, rule: str, why: str) -> None:
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        rec.redeal = rule
        rec.notes.append(f"{rule}: {why}; hand cancelled")
        rec.scores_after = list(self.scores)
        self.records.append(rec)
        self.record = None
        self.redeals += 1
        self.dealer = core_hand.next_dealer(self.rules, self.dealer, rule)
        self.phase = Phase.DEAL
        self.to_move = -1

    def _start_play(self, leader: int) -> None:
        self._mhand = -1
        self.phase = Phase.PLAY
        self.to_move = leader
        self.trick_leader = leader
        self.led = -1
        self.trick = []

    def _phase_play(self, card: int) -> None:
        seat = self.to_move
        hands = self.hands
        hand = hands[seat]
        if hand == self._mhand:  # computed by legal_actions for this very state (see _reset_hand)
            mask = self._mmask
        else:
            mask = core_rules.legal_play_mask(self.rules, hand, self.led, self.trump)
        self._mhand = -1
        try:
            legal = (mask >> card) & 1
        except (TypeError, ValueError):  # not a card number: a negative or non-integer card
            legal = 0
        if not legal:
            bad = core_rules.play_violation(self.rules, hand, self.led, self.trump, card)
            if bad is None:
                raise RuntimeError("a card refused by the legal set, yet no clause broken")
            raise IllegalPlay(str(Play(card)), seat, bad[0], bad[1], self.state_text())
        hands[seat] = hand ^ CARD_BITS[card]  # a card of the hand: 0..51 (a look-up, not a shift)
        trick = self.trick
        trick.append(card)
        n = len(trick)
        if n < 4:
            if n == 1:
                self.led = card // 13
            self.to_move = self._next[seat]  # play.direction (core_rules.next_seat, tabled in __init__)
            return
        # hand.trick_winner_seat, with the seat orders tabled in __init__
        winner = self._order[self.trick_leader][core_rules.trick_winner(trick, self.trump)]
        self.tricks_won[winner] += 1
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        rec.plays += trick  # the record keeps the cards flat: no object per trick
        rec.leaders.append(self.trick_leader)
        winners = rec.winners
        winners.append(winner)
        trick.clear()
        self.led = -1
        self.trick_leader = winner
        self.to_move = winner
        if len(winners) == 13:
            self._phase_hand_scoring()

    def _phase_hand_scoring(self) -> None:
        rules = self.rules
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        rec.tricks_won = list(self.tricks_won)
        deltas = core_hand.hand_deltas(rules, self.bids, rec.contract, self.tricks_won)
        for s in range(4):
            self.scores[s] += deltas[s]
        rec.deltas = deltas
        rec.scores_after = list(self.scores)
        self.hands_played += 1
        self._phase_match_outcome()

    def _phase_match_outcome(self) -> None:
        rules = self.rules
        rec = self.record
        if rec is None:
            raise RuntimeError("a step of a deal with no deal in progress")
        win, rule = core_hand.hand_outcome(rules, self.scores, self.target, self.bids, rec.contract, self.tricks_won)
        rec.outcome = win
        rec.outcome_rule = rule
        self.records.append(rec)
        self.record = None
        st = core_hand.settle(rules, win, self.target, self.games)
        self.games = list(st.games)
        if st.target != self.target:
            self.target = st.target
            rec.notes.append(f"win.play-on: team {win} wins the game; target rises to {self.target}")
        if st.winner is not None:
            self.winner = st.winner
            self.winner_rule = rule
            self.phase = Phase.OVER
            self.to_move = -1
            return
        self.dealer = core_hand.next_dealer(rules, self.dealer, None)
        self.phase = Phase.DEAL
        self.to_move = -1

    # ---------------------------------------------------------------- views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: never another seat's cards (bar the revealed one)."""
        rec = self.record if self.record is not None else (self.records[-1] if self.records else None)
        return SeatView(
            seat=seat, phase=self.phase, dealer=self.dealer, to_move=self.to_move,
            hand=cards_of(self.hands[seat]) if self.record is not None else [],
            revealed=None if rec is None else rec.revealed,
            trump=None if self.trump < 0 else self.trump,
            bids=[] if rec is None else [(s, str(b)) for s, b in rec.bids],
            trick=list(self.trick), played=[] if rec is None else [(t.leader, list(t.cards), t.winner) for t in rec.tricks],
            tricks_won=list(self.tricks_won), scores=list(self.scores), target=self.target,
        )

    def timeout_action(self) -> Action:
        """What a turn timer plays for the player to move (clauses timer.auto-bid, timer.auto-play)."""
        rules = self.rules
        if self.phase is Phase.BIDDING:
            legal = self.legal_actions()
            if rules.auto_bid:
                b = BIDS[rules.auto_bid]
                if b in legal:
                    return b
            return legal[0]
        if self.phase is Phase.PLAY:
            cards = cards_of(self.legal_play_mask())
            if rules.auto_play == "lowest-non-trump":
                non_trump = [c for c in cards if c // 13 != self.trump]
                cards = non_trump or cards
            return PLAYS[min(cards, key=lambda c: (c % 13, c // 13))]
        legal = self.legal_actions()
        if not legal:
            raise WrongPhase("timeout", None, "hand.tricks", "no player is to move", self.state_text())
        return legal[0]


@dataclass(slots=True)
class SeatView:
    seat: int
    phase: Phase
    dealer: int
    to_move: int
    hand: list[int]
    revealed: int | None
    trump: int | None
    bids: list[tuple[int, str]]
    trick: list[int]
    played: list[tuple[int, list[int], int]]
    tricks_won: list[int]
    scores: list[int]
    target: int



__all__ = ["HandRecord", "Match", "Phase", "SeatView", "Trick", "random_deck"]
