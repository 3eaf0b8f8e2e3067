"""A match: a state of :mod:`tarneeb.core.state` stepped by :func:`tarneeb.core.transition.step`.

:class:`Match` owns the state and the actions applied so far; :meth:`Match.apply` calls the transition and keeps
the record of each deal (:class:`HandRecord`) from the events it reports. Every decision is the transition's (and
through it one of :mod:`tarneeb.core.rules` or :mod:`tarneeb.core.hand`); this module sequences nothing itself.

Phases (:class:`Phase`): a match waits in DEAL for the chance event (the deck order), may wait in WEAK_CLAIM (a
weak seat asks for a redeal or keeps its hand, under reading claimed of ambiguity weak-hand), passes through
TRUMP_REVEAL, waits in BIDDING, may pass through REDEAL back to DEAL, may wait in TRUMP_CHOICE (auction family),
waits in PLAY, passes through HAND_SCORING and MATCH_OUTCOME, and ends in OVER. :meth:`Match.at` builds a checked
mid-match state from data.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tarneeb.core import hand as core_hand
from tarneeb.core import transition
from tarneeb.core.actions import PLAYS, Action, Bid, Play
from tarneeb.core.cards import card_str, cards_of, player_name, team_label
from tarneeb.core.spec import Rules
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Called,
    Calling,
    Cancelled,
    Claimed,
    ContractMade,
    Dealing,
    Dealt,
    Decided,
    Event,
    GameWon,
    Over,
    Phase,
    Played,
    Playing,
    Scored,
    State,
    TrickTaken,
    TrumpNamed,
)

_PLAY_ON_TEAM = re.compile(r"^(win\.play-on: )team (\d)")  # the note of a game won before play-on names its team 0/1
_NO_AUCTION = core_hand.Auction(-1, None)  # the auction of an individual deal, or before any deal


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


def _replayed(rules: Rules, first_dealer: int, scores: Sequence[int], games: Sequence[int],
              actions: Sequence[Action]) -> Match:
    """The match from ``first_dealer``'s deal at ``scores`` (and ``games`` won) after ``actions``: what a pickle of
    a match holds (:meth:`Match.__reduce__`), rebuilt as :meth:`Match.copy` rebuilds one."""
    m = Match.at(rules, first_dealer, scores, None, games, partners_agree=False)
    m.history = list(actions)
    return m.copy()


class Match:
    """A whole match under one :class:`~tarneeb.core.spec.Rules`: a state and the actions that led to it.

    ``first_dealer`` is a chance outcome (clause deal.first-dealer) and is given by the caller, so a match is fully
    described by ``(rules, first_dealer, actions)``. Use :meth:`replay` to rebuild one. The fields a caller reads
    (``phase``, ``dealer``, ``scores``, ``hands``, ``to_move``, ``trump``, ``trick`` ...) are the state's; between
    deals, those of a deal (``hands``, ``trump``, ``tricks_won``, ``bids`` ...) show the deal that just ended.
    """

    __slots__ = ("rules", "first_dealer", "state", "record", "records", "history", "start_scores", "start_games",
                 "_ended")

    def __init__(self, rules: Rules, first_dealer: int = 0, scores: Sequence[int] | None = None) -> None:
        """``scores`` starts a match part-way (seats 0..3; in the auction family partners carry the team score)."""
        self._setup(rules, first_dealer, transition.start(rules, first_dealer, scores))

    def _setup(self, rules: Rules, first_dealer: int, state: Dealing) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.state: State = state
        self.start_scores: tuple[int, ...] = state.table.scores
        self.start_games: tuple[int, ...] = state.table.games  # games won before a part-way start (Match.at)
        self.history: list[Action] = []
        self.records: list[HandRecord] = []
        self.record: HandRecord | None = None  # the deal in progress
        # the deal that ended last: the state before its last action, and that action's events (what the deal's
        # fields show between deals)
        self._ended: tuple[State, tuple[Event, ...]] | None = None

    @classmethod
    def at(cls, rules: Rules, dealer: int, scores: Sequence[int] | None = None, target: int | None = None,
           games: Sequence[int] | None = None, *, partners_agree: bool = True) -> Match:
        """A match part-way, waiting for the deal of a hand by ``dealer`` (:func:`tarneeb.core.transition.part_way`
        checks everything)."""
        state = transition.part_way(rules, dealer, scores, target, games, partners_agree=partners_agree)
        # (mypyc compiles no cls.__new__: a match dealt first by seat 0, which every ruleset accepts, then replaced)
        m = cls(rules, 0)
        m._setup(rules, dealer, state)
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

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle or a copy holds the match's start and its actions (compiled by mypyc, a match has no other way)."""
        return _replayed, (self.rules, self.first_dealer, self.start_scores, self.start_games, tuple(self.history))

    # ------------------------------------------------------------------ stepping
    def apply(self, action: Action) -> None:
        """Apply one action, or raise an :class:`~tarneeb.errors.IllegalAction` subclass (nothing changes)."""
        before = self.state
        after, events = transition.step(self.rules, before, action)
        self.state = after
        self.history.append(action)
        if len(events) > 1 or type(events[0]) is not Played:
            self._keep(before, events)

    def play_card(self, card: int) -> None:
        """:meth:`apply` with ``Play(card)`` (the same checks)."""
        self.apply(PLAYS[card] if type(card) is int and 0 <= card < 52 else Play(card))

    def _keep(self, before: State, events: tuple[Event, ...]) -> None:
        """The record of the deal in progress, from the events of a step."""
        rec = self.record
        for e in events:
            t = type(e)
            if t is Dealt:
                rec = self.record = HandRecord(e.number, e.dealer, e.deck)  # type: ignore[union-attr]
            elif rec is None:
                continue
            elif t is TrickTaken:
                tr = e.trick  # type: ignore[union-attr]
                rec.plays += tr.cards
                rec.leaders.append(tr.leader)
                rec.winners.append(tr.winner)
            elif t is Called:
                rec.bids.append((e.seat, e.bid))  # type: ignore[union-attr]
            elif t is BiddingOpened:
                if e.revealed is not None:  # type: ignore[union-attr]
                    rec.revealed = e.revealed  # type: ignore[union-attr]
                if e.trump >= 0:  # type: ignore[union-attr]
                    rec.trump = e.trump  # type: ignore[union-attr]
            elif t is Claimed:
                rec.claims.append((e.seat, e.ask))  # type: ignore[union-attr]
            elif t is ContractMade:
                rec.contract = e.contract  # type: ignore[union-attr]
            elif t is TrumpNamed:
                rec.trump = e.trump  # type: ignore[union-attr]
            elif t is Cancelled:
                rec.redeal = e.clause
                rec.notes.append(f"{e.clause}: {e.why}; hand cancelled")  # type: ignore[union-attr]
                rec.scores_after = list(self.state.table.scores)
                self._end_deal(rec, before, events)
                rec = None
            elif t is Scored:
                rec.tricks_won = list(e.tricks_won)  # type: ignore[union-attr]
                rec.deltas = list(e.deltas)  # type: ignore[union-attr]
                rec.scores_after = list(e.scores)  # type: ignore[union-attr]
            elif t is Decided:
                rec.outcome = e.winner  # type: ignore[union-attr]
                rec.outcome_rule = e.clause
                self._end_deal(rec, before, events)
            elif t is GameWon:
                rec.notes.append(f"win.play-on: team {e.team} wins the game; target rises to {e.target}")  # type: ignore[union-attr]

    def _end_deal(self, rec: HandRecord, before: State, events: tuple[Event, ...]) -> None:
        self.records.append(rec)
        self.record = None
        self._ended = (before, events)

    # ------------------------------------------------------------------ the state's fields
    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def dealer(self) -> int:
        return self.state.table.dealer

    @property
    def scores(self) -> list[int]:
        return list(self.state.table.scores)

    @property
    def target(self) -> int:
        return self.state.table.target

    @property
    def games(self) -> list[int]:
        return list(self.state.table.games)

    @property
    def hands_played(self) -> int:
        return self.state.table.played

    @property
    def redeals(self) -> int:
        return self.state.table.redeals

    @property
    def winner(self) -> int | None:
        return self.state.winner if type(self.state) is Over else None

    @property
    def winner_rule(self) -> str:
        return self.state.rule if type(self.state) is Over else ""

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def hands(self) -> list[int]:
        st = self.state
        if type(st) is Playing:
            return list(st.hands)
        deal = getattr(st, "deal", None)
        if deal is not None:
            return list(deal.hands)
        if self._ended is None:
            return [0, 0, 0, 0]
        before, events = self._ended
        if any(type(e) is Scored for e in events):  # played to the end: every card is out
            return [0, 0, 0, 0]
        dealt = next((e.hands for e in events if type(e) is Dealt), None)
        return list(dealt if dealt is not None else before.deal.hands)  # type: ignore[union-attr]

    @property
    def trump(self) -> int:
        st = self.state
        if type(st) in (Dealing, Over) and self._ended is not None:
            before, events = self._ended
            named = [e.trump for e in events if type(e) in (BiddingOpened, TrumpNamed)]  # type: ignore[union-attr]
            return named[-1] if named else transition.trump_of(before)
        return transition.trump_of(st)

    @property
    def led(self) -> int:
        return self.state.led if type(self.state) is Playing else -1

    @property
    def trick(self) -> list[int]:
        return list(self.state.trick) if type(self.state) is Playing else []

    @property
    def trick_leader(self) -> int:
        st = self.state
        if type(st) is Playing:
            return st.leader
        if type(st) in (Dealing, Over) and self._ended is not None:
            taken = [e.trick.winner for e in self._ended[1] if type(e) is TrickTaken]
            if taken and any(type(e) is Scored for e in self._ended[1]):
                return taken[-1]
        return -1

    @property
    def tricks_won(self) -> list[int]:
        st = self.state
        if type(st) is Playing:
            return list(st.won)
        if type(st) in (Dealing, Over) and self._ended is not None:
            for e in self._ended[1]:
                if type(e) is Scored:
                    return list(e.tricks_won)
        return [0, 0, 0, 0]

    def _calls(self) -> list[tuple[int, Bid]]:
        """The calls of the deal in progress, or of the deal that ended last (as its record keeps them)."""
        rec = self.record if self.record is not None else (self.records[-1] if self.records else None)
        return [] if rec is None else rec.bids

    @property
    def bids(self) -> list[int]:
        """The individual bids by seat (0 for a seat yet to bid; 0s in the auction family)."""
        out = [0, 0, 0, 0]
        if self.rules.individual:
            for seat, b in self._calls():
                out[seat] = b.n or 0
        return out

    @property
    def spoken(self) -> int:
        return len(self._calls())

    @property
    def auction_top(self) -> Bid | None:
        if self.rules.individual:
            return None
        return next((b for _, b in reversed(self._calls()) if b.n is not None), None)

    @property
    def auction(self) -> core_hand.Auction:
        """The auction of the deal in progress (or of the deal that ended last), as :mod:`tarneeb.core.hand` keeps
        it."""
        st = self.state
        if type(st) is Calling:
            top = None if st.top is None else (st.top.n or 0, st.top.strain)
            return core_hand.Auction(st.table.dealer, st.to_move, top, st.holder, st.passes, st.spoken, list(st.active))
        if self.rules.individual or type(st) in (Bidding,) or not self._calls():
            return _NO_AUCTION
        dealer = st.table.dealer if type(st) not in (Dealing, Over) or self._ended is None else \
            self._ended[0].table.dealer
        a = core_hand.auction_start(self.rules, dealer)
        for _, b in self._calls():
            core_hand.auction_call(self.rules, a, b.n, b.strain, force=True)
        return a

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
        return type(self.state) is Dealing

    def is_over(self) -> bool:
        return type(self.state) is Over

    def team_scores(self) -> tuple[int, int]:
        sc = self.state.table.scores
        if self.rules.individual:
            return sc[0] + sc[2], sc[1] + sc[3]
        return sc[0], sc[1]

    def state_text(self) -> str:
        """A one-line summary used in error messages."""
        return transition.describe(self.state)

    # ------------------------------------------------------------------ what the player to move may do
    def legal_actions(self) -> Sequence[Action]:
        """Legal actions of the player to move (empty in DEAL, a chance node, and OVER).

        In play the cards come in ascending order (clubs first, low to high).
        """
        return transition.legal_actions(self.rules, self.state)

    def legal_play_mask(self) -> int:
        st = self.state
        if type(st) is not Playing:
            return 0
        return transition.legal_play_mask(self.rules, st)

    def timeout_action(self) -> Action:
        """What a turn timer plays for the player to move (clauses timer.auto-bid, timer.auto-play)."""
        return transition.timeout_action(self.rules, self.state)

    # ---------------------------------------------------------------- views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: never another seat's cards (bar the revealed one)."""
        rec = self.record if self.record is not None else (self.records[-1] if self.records else None)
        trump = self.trump
        return SeatView(
            seat=seat, phase=self.phase, dealer=self.dealer, to_move=self.to_move,
            hand=cards_of(self.hands[seat]) if self.record is not None else [],
            revealed=None if rec is None else rec.revealed,
            trump=None if trump < 0 else trump,
            bids=[] if rec is None else [(s, str(b)) for s, b in rec.bids],
            trick=self.trick, played=[] if rec is None else [(t.leader, list(t.cards), t.winner) for t in rec.tricks],
            tricks_won=self.tricks_won, scores=self.scores, target=self.target,
        )



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
