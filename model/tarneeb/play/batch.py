"""Batch self-play: many matches in lock-step with numpy, under the random policy.

Every game of the batch plays one deal per step: the deck is shuffled, the weak seats' claims, the bids or calls
and the holder's trump drawn uniformly from the legal ones, the cards drawn uniformly from the legal cards, tricks
and scores counted, until each match is won or cut off.

This module is the one place outside :mod:`tarneeb.core` that strings the steps of a hand together, and only as a
twin of :mod:`tarneeb.core.transition`, for speed. What the rules decide it takes from the core, in tables built
once per rules object (``rules.derived``) by calling the core's functions (:class:`_Tables`): the seat each card
of the deck goes to, the order of the bids, trump from the dealer's card, the weak hands and who may claim, the
legal bids at each score and whether a bid total is played, the whole team auction (who speaks, the legal calls,
the top bid and its holder after each call, when it ends and with what: an automaton built by
:func:`tarneeb.core.hand.auction_call`), the first leader, the seats of a trick in playing order, the change of
every seat's score for each bid (contract) and tricks, the team of a seat and its tricks, the next dealer after a
played or a cancelled deal and its clause, the first dealers, the start of a match; for the played hands that may
have decided a match, the outcome and the play-on target by :func:`tarneeb.core.hand.hand_outcome` and
:func:`~tarneeb.core.hand.settle` per game. Two steps are written again here, vectorised, as the twin's own: the
legal-card mask (:func:`legal_mask`: follow suit, must-trump) and the trick winner (:func:`trick_winner`). Two
shortcuts assume what the core does, for speed: a bid total is the sum of the four bids (the core's
``hand_is_played`` is asked once per total), and only the hands that may have decided a match (a seat or team at
the target, a made-bid win possible, 13 tricks on a bid of 13) are given to the core's outcome.

:func:`replay_check` is the twin's check (OpenSpiel's consistency test): it replays each logged game through
:func:`tarneeb.core.transition.step` and compares, state by state, everything the batch decided with what the
transition makes of the same actions. ``tests/test_batch_twin.py`` runs it over every built-in ruleset, option
value and selectable reading.

Supported (:func:`unsupported` says why not): every configuration but Egyptian bids. Other configurations use
the engine (:func:`tarneeb.stats.collect_batch` falls back to it).
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import ASK, BIDS, KEEP, PASS, Deal, NameTrump
from tarneeb.core.spec import Rules
from tarneeb.core.state import (
    BiddingOpened,
    Called,
    Cancelled,
    Claimed,
    ContractMade,
    Dealing,
    Dealt,
    Decided,
    Event,
    GameWon,
    MatchWon,
    NextDealer,
    Over,
    Played,
    PlayStarted,
    Scored,
    State,
    TrickTaken,
    TrumpNamed,
)
from tarneeb.errors import TarneebError


def _frozen(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    a.flags.writeable = False
    return a


SUIT_MASKS = _frozen(np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.int64))
BITS = _frozen(np.left_shift(np.int64(1), np.arange(52, dtype=np.int64)))
_CANCELS = ("bid.total", "auction.all-pass", "deal.weak-redeal")  # the clauses the batch cancels a deal by


def unsupported(rules: Rules) -> str | None:
    """Why the batch path does not play ``rules`` (None: it does): Egyptian bids, whose calls name a strain."""
    if not rules.individual and rules.egyptian:
        return "Egyptian bids, whose calls name a strain"
    return None


def supported(rules: Rules) -> bool:
    """Whether :func:`run` plays ``rules`` (see :func:`unsupported`)."""
    return unsupported(rules) is None


@dataclass
class DealLog:
    """What the batch did in one deal of a logged game, as the batch saw it: what :func:`replay_check` compares."""

    dealer: int
    deck: tuple[int, ...]
    hands: tuple[int, ...]  # as dealt, by seat
    opened_trump: int = -1  # trump when the bidding opens (-1: the contract names it)
    claims: list[tuple[int, bool]] = field(default_factory=list)  # (seat, asks) of the weak seats that chose
    calls: list[tuple[int, int]] = field(default_factory=list)  # (seat, tricks; 0 for a pass in the auction)
    contract: tuple[int, int] | None = None  # (holder, tricks) of an auction
    trump: int = -1  # trump in play (auction: the suit the holder named)
    leader: int = -1  # the first leader
    tricks: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = field(default_factory=list)  # leader, seats, cards, winner
    redeal: str | None = None  # the clause that cancelled the deal
    won: tuple[int, ...] | None = None  # tricks won by seat
    deltas: tuple[int, ...] | None = None  # score changes by seat
    scores: tuple[int, ...] = ()  # the scores after the deal
    outcome: tuple[int | None, str] | None = None  # (winner, clause) when the core was asked; None: not asked (nobody)
    target: int = 0  # the target in force after the deal
    games: tuple[int, ...] = ()  # the games won before play-on
    winner: int | None = None  # the match winner, when the deal ended the match
    next_dealer: tuple[int, str] | None = None  # (seat, clause); None once the match is over


@dataclass
class GameLog:
    """One logged game for :func:`replay_check`: its first dealer, its start (None: from zero) and its deals."""

    first_dealer: int
    start_scores: tuple[int, ...] | None = None
    deals: list[DealLog] = field(default_factory=list)


@dataclass
class BatchResult:
    """What :func:`run` played: per match (arrays of ``n``), and counts over every played hand."""

    n: int
    hands_played: np.ndarray[Any, Any]
    deals: np.ndarray[Any, Any]
    winner: np.ndarray[Any, Any]  # -1: unfinished
    scores: np.ndarray[Any, Any]
    first_dealer: np.ndarray[Any, Any]
    # per played hand, flat
    # counts by number of tricks: individual, every bid; auction, every call (0 = pass)
    bids: np.ndarray[Any, Any] = field(default_factory=lambda: np.zeros(14, np.int64))
    # individual: the total of the four bids (0..52); auction: the contract
    contracts: np.ndarray[Any, Any] = field(default_factory=lambda: np.zeros(53, np.int64))
    made: int = 0
    tried: int = 0
    dealer_team_hands: int = 0
    cancelled: dict[str, int] = field(default_factory=dict)
    logs: dict[int, GameLog] = field(default_factory=dict)


def _deciders() -> tuple[object, ...]:
    """Every function of the core's rules and hand steps: the tables hold their answers, and are built again when
    one is replaced (the proofs' mutants patch them by name)."""
    return tuple(f for mod in (core_rules, core_hand) for f in vars(mod).values() if inspect.isfunction(f))


def _tables(rules: Rules) -> _Tables:
    """The batch's tables of ``rules``, built once per rules object (``rules.derived``)."""
    return rules.derived.get("play.batch tables", _deciders(), lambda: _Tables(rules))


class _Tables:
    """Rule tables built once from the core's functions (see the module's docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        seats = range(4)
        # the seats in the order they receive the deck's packets (deal.order), the order of the bids (bid.turn,
        # auction.order) and of a trick led by each seat (play.direction)
        self.deal_order = np.array([core_rules.deal_order(rules, d) for d in seats])
        self.places = [np.array(p) for p in core_rules.deal_positions(rules)]
        self.bid_order = np.array([core_hand.bidding_order(rules, d) for d in seats])
        self.seat_order = np.array([core_rules.seat_order(rules, s) for s in seats])
        # trump when the bidding opens (trump.source): by the card at the deck's place the core reveals, or fixed
        identity = list(range(52))
        place, trump = core_hand.deal_trump(rules, identity)
        self.reveal_place = place
        self.trump_of_card = np.full(52, trump)
        if place is not None:
            for c in range(52):
                deck = identity.copy()
                deck[place], deck[c] = c, place
                self.trump_of_card[c] = core_hand.deal_trump(rules, deck)[1]
        self.weak_possible = bool(core_hand.weak_seats(rules, [0, 0, 0, 0]))  # hands without a card above 10
        self.next_dealer = {c: np.array([core_hand.next_dealer(rules, d, c) for d in seats]) for c in (None, *_CANCELS)}
        self.next_dealer_clause = {c: core_hand.next_dealer_clause(c) for c in (None, *_CANCELS)}
        # a seat's team, and the tricks of each team from the tricks by seat (team_tricks is linear: its matrix)
        self.team_of = np.array([core_rules.team_of(s) for s in seats])
        self.team_matrix = np.array([core_rules.team_tricks([int(s == k) for k in seats]) for s in seats])
        self.made = np.array([[core_rules.bid_made(b, t) for t in range(14)] for b in range(14)])
        self.individual = rules.individual
        self._bids_by_score: dict[int, list[int]] = {}
        self._played: dict[int, np.ndarray[Any, Any]] = {}
        if rules.individual:
            self.first_leader = np.array([core_hand.hand_leader(rules, d, None) for d in seats])
            legal = set(range(rules.bid_min, rules.bid_max + 1))
            # a seat's score change for its bid and tricks (score.individual, score.values)
            self.delta = np.array([[core_hand.hand_deltas(rules, (b,) * 4, None, (t,) * 4)[0] if b in legal else 0
                                    for t in range(14)] for b in range(14)])
        else:
            self._auction(rules)

    def _auction(self, rules: Rules) -> None:
        """The team auction as an automaton of the core's auction states (:class:`tarneeb.core.hand.Auction`),
        reached from each dealer's start by the legal calls (:func:`tarneeb.core.hand.auction_call`); and the first
        leader and the score changes of each contract."""
        def key(a: core_hand.Auction) -> tuple[object, ...]:
            return a.dealer, a.to_speak, a.top, a.holder, a.passes, a.spoken, tuple(a.active)

        calls = [None, *range(rules.min_bid, 14)]
        states: list[core_hand.Auction] = []
        ids: dict[tuple[object, ...], int] = {}
        moves: list[list[tuple[int, int]]] = []  # per state: (call, next state) of each legal call, in order

        def state_id(a: core_hand.Auction) -> int:
            k = key(a)
            if k not in ids:
                ids[k] = len(states)
                states.append(a)
                moves.append([])
            return ids[k]

        self.auction_start = np.array([state_id(core_hand.auction_start(rules, d)) for d in range(4)])
        i = 0
        while i < len(states):
            a = states[i]
            if a.to_speak is not None:
                for n in calls:
                    b = core_hand.Auction(a.dealer, a.to_speak, a.top, a.holder, a.passes, a.spoken, list(a.active))
                    if core_hand.auction_call(rules, b, n, None) is None:
                        moves[i].append((n or 0, state_id(b)))
            i += 1
        k = len(states)
        self.speaker = np.array([-1 if a.to_speak is None else a.to_speak for a in states])
        self.call_count = np.array([len(m) for m in moves])
        self.call_table = np.zeros((k, max(1, int(self.call_count.max()))), np.int64)
        self.call_next = np.tile(np.arange(k)[:, None], (1, 14))  # an ended auction stays where it is
        for s, m in enumerate(moves):
            for j, (n, nxt) in enumerate(m):
                self.call_table[s, j] = n
                self.call_next[s, n] = nxt
        self.holder = np.array([a.holder for a in states])
        self.top = np.array([0 if a.top is None else a.top[0] for a in states])
        self.all_passed = np.array([a.to_speak is None and a.top is None for a in states])
        self.lead = np.array([[[core_hand.hand_leader(rules, d, (h, n, None)) for n in range(14)] for h in range(4)]
                              for d in range(4)])
        # every seat's score change (score.*) for (holder, contract, tricks of team 0): the core's hand_deltas of
        # tricks by seat giving team 0 those tricks and team 1 the rest
        one = [next(s for s in range(4) if self.team_matrix[s, t]) for t in (0, 1)]  # a seat of each team
        self.team_delta = np.zeros((4, 14, 14, 4), np.int64)
        for h in range(4):
            for n in range(rules.min_bid, 14):
                for t in range(14):
                    won = [0, 0, 0, 0]
                    won[one[0]], won[one[1]] = t, 13 - t
                    self.team_delta[h, n, t] = core_hand.hand_deltas(rules, (0, 0, 0, 0), (h, n, None), won)

    def played_if_total(self, scores: Sequence[int]) -> np.ndarray[Any, Any]:
        """For each bid total 0..52, whether a deal played on ``scores`` is played (the core's bid.total)."""
        need = core_rules.total_in_force(self.rules, scores)
        got = self._played.get(need)
        if got is None:
            got = self._played[need] = np.array([core_rules.hand_is_played(self.rules, [t], scores) for t in range(53)])
        return got

    def legal_bids(self, score: int) -> list[int]:
        """The core's legal individual bids at ``score``."""
        got = self._bids_by_score.get(score)
        if got is None:
            got = self._bids_by_score[score] = core_rules.legal_bids(self.rules, score)
        return got


def legal_mask(hand: np.ndarray[Any, Any], led: np.ndarray[Any, Any], trump: np.ndarray[Any, Any],
               must_trump: bool) -> np.ndarray[Any, Any]:
    """Vectorised play.follow / play.must-trump (:func:`tarneeb.core.rules.legal_play_mask`); ``led`` -1: leading."""
    leading = led < 0
    follow = hand & SUIT_MASKS[np.where(leading, 0, led)]
    out = np.where(follow != 0, follow, hand)
    if must_trump:
        has_trump_suit = (trump >= 0) & (trump < 4)
        trumps = hand & SUIT_MASKS[np.where(has_trump_suit, trump, 0)]
        use = (follow == 0) & has_trump_suit & (trumps != 0)
        out = np.where(use, trumps, out)
    return np.where(leading, hand, out)


def trick_winner(cards: np.ndarray[Any, Any], trump: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Vectorised play.winner (:func:`tarneeb.core.rules.trick_winner`): index 0..3 in play order. ``cards`` (N, 4)."""
    best = np.zeros(len(cards), dtype=np.int64)
    best_card = cards[:, 0].copy()
    best_suit = best_card // 13
    for i in (1, 2, 3):
        c = cards[:, i]
        s = c // 13
        beats = ((s == best_suit) & (c > best_card)) | ((s != best_suit) & (s == trump))
        best = np.where(beats, i, best)
        best_card = np.where(beats, c, best_card)
        best_suit = np.where(beats, s, best_suit)
    return best


def _pick(rng: np.random.Generator, mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A uniformly random card of each mask."""
    k = (rng.random(len(mask)) * np.bitwise_count(mask)).astype(np.int64)  # the k-th legal card, ascending
    while True:  # drop the lowest card while k > 0 (at most 12 rounds: a hand has 13 cards)
        more = k > 0
        if not more.any():
            break
        mask = np.where(more, mask & (mask - 1), mask)
        k -= more
    out: np.ndarray[Any, Any] = np.bitwise_count((mask & -mask) - 1).astype(np.int64)
    return out


def _draw(rng: np.random.Generator, counts: np.ndarray[Any, Any], low: float) -> np.ndarray[Any, Any]:
    """A random index below each count: uniform, or the low ones likelier for ``low`` above 1 (see :func:`run`)."""
    u = rng.random(len(counts))
    if low != 1.0:
        u **= low
    out: np.ndarray[Any, Any] = (u * counts).astype(np.int64)
    return out


def run(rules: Rules, n: int, seed: int = 0, max_hands: int = 200, log_games: int = 0,
        winner_fn: Any = None, start_scores: Any = None, low_bids: float = 1.0,
        decks: Callable[[np.random.Generator, int], np.ndarray[Any, Any]] | None = None,
        on_round: Callable[[int, int], None] | None = None) -> BatchResult:
    """Play ``n`` matches in lock-step (random policy); log the first ``log_games`` for :func:`replay_check`.
    ``start_scores`` (four seat scores, the same for every match) starts them part-way, as ``Match(rules, dealer,
    scores)`` does: near the target, the games end, which random play from zero rarely brings about in the
    individual family. A configuration the batch does not cover (:func:`unsupported`) is a ValueError.

    For a test that must reach rare states: ``low_bids`` above 1 makes the low bids and passes likelier (the
    k-th legal bid or call is drawn as ``floor(u ** low_bids * count)``; 1, the random policy: uniform), so that
    bid totals fall to the threshold and auctions are passed out; ``decks(rng, m)`` gives the decks of ``m``
    deals (each row an order of 0..51; default uniform shuffles). ``winner_fn`` replaces :func:`trick_winner`.
    ``on_round(rounds, still_on)`` is called after each deal played in lock-step: the deals so far, the matches
    still on."""
    why = unsupported(rules)
    if why is not None:
        raise ValueError(f"{rules.label()}: the batch path does not cover {why}; use the engine")
    win_fn = winner_fn or trick_winner
    tables = _tables(rules)
    rng = np.random.default_rng(seed)
    seats = np.asarray(core_rules.first_dealers(rules))
    dealer = seats[rng.integers(0, len(seats), n)]
    start = None if start_scores is None else tuple(int(x) for x in start_scores)
    table = transition.start(rules, int(seats[0]) if start is None else 0, start).table  # the core's checks
    res = BatchResult(n, np.zeros(n, np.int64), np.zeros(n, np.int64), np.full(n, -1), np.zeros((n, 4), np.int64),
                      dealer.copy())
    res.logs = {g: GameLog(int(dealer[g]), start) for g in range(min(log_games, n))}
    res.scores[:] = np.array(table.scores, np.int64)
    target = np.full(n, table.target)
    games_won: list[tuple[int, ...]] = [table.games for _ in range(n)]
    active = np.ones(n, bool)
    rounds = 0
    while active.any():
        _round(rules, tables, rng, res, np.flatnonzero(active), dealer, target, games_won, active, win_fn, low_bids,
               decks)
        cut = (res.hands_played >= max_hands) | (res.deals >= 10 * max_hands)
        active &= ~cut
        rounds += 1
        if on_round is not None:
            on_round(rounds, int(active.sum()))
    return res


_Entries = dict[int, DealLog]  # index in the round -> the logged deal


def _round(rules: Rules, tables: _Tables, rng: np.random.Generator, res: BatchResult, idx: np.ndarray[Any, Any],
           dealer: np.ndarray[Any, Any], target: np.ndarray[Any, Any], games_won: list[tuple[int, ...]],
           active: np.ndarray[Any, Any], win_fn: Any, low_bids: float,
           decks: Callable[[np.random.Generator, int], np.ndarray[Any, Any]] | None) -> None:
    """One deal of every match still on (``idx``), in lock-step: deal, bid, play, score, settle, next dealer."""
    m = len(idx)
    rows = np.arange(m)
    d = dealer[idx]
    deck = np.argsort(rng.random((m, 52)), axis=1) if decks is None else np.asarray(decks(rng, m), np.int64)
    res.deals[idx] += 1
    hands = np.zeros((m, 4), np.int64)
    for k in range(4):
        hands[rows, tables.deal_order[d, k]] = BITS[deck[:, tables.places[k]]].sum(1)
    entries: _Entries = {}
    for j in np.flatnonzero(idx < len(res.logs)).tolist():
        entries[j] = DealLog(int(d[j]), tuple(int(c) for c in deck[j]), tuple(int(x) for x in hands[j]))
        res.logs[int(idx[j])].deals.append(entries[j])
    cancel = np.zeros(m, bool)
    cancel_rule = np.full(m, "", dtype=object)
    if tables.weak_possible:
        _claims(rules, rng, d, hands, cancel, cancel_rule, entries)
    trump = (tables.trump_of_card[deck[:, tables.reveal_place]] if tables.reveal_place is not None
             else tables.trump_of_card[np.zeros(m, np.int64)])
    for j, e in entries.items():
        e.opened_trump = int(trump[j])
    bids = np.zeros((m, 4), np.int64)
    holder = np.full(m, -1)
    top = np.zeros(m, np.int64)
    if rules.individual:
        leader = _individual_bids(tables, rng, res, res.scores[idx], d, bids, cancel, cancel_rule, entries, low_bids)
    else:
        holder, top, trump, leader = _auction(tables, rng, res, d, cancel, cancel_rule, entries, low_bids)
    won = _tricks(rules, tables, rng, hands, leader, trump, win_fn, cancel, entries)
    played = ~cancel
    tb = _score(rules, tables, res, idx, d, bids, holder, top, won, played, entries)
    for rule in _CANCELS:
        c = int((cancel_rule == rule).sum())
        if c:
            res.cancelled[rule] = res.cancelled.get(rule, 0) + c
    _settle(rules, res, idx, played, bids, holder, top, won, tb, target, games_won, active, entries)
    nd = tables.next_dealer[None][d]
    for rule in _CANCELS:
        nd = np.where(cancel_rule == rule, tables.next_dealer[rule][d], nd)
    dealer[idx] = nd
    for j, e in entries.items():
        e.redeal = cancel_rule[j] or None
        if e.winner is None:
            e.next_dealer = (int(nd[j]), tables.next_dealer_clause[e.redeal])


def _claims(rules: Rules, rng: np.random.Generator, d: np.ndarray[Any, Any], hands: np.ndarray[Any, Any],
            cancel: np.ndarray[Any, Any], cancel_rule: np.ndarray[Any, Any], entries: _Entries) -> None:
    """The deals with a weak hand (deal.weak-redeal, by the core): cancelled at once, or, under reading claimed of
    ambiguity weak-hand, each weak seat the core names in turn asks for a redeal or keeps its hand at random."""
    for j in range(len(d)):
        hand = [int(x) for x in hands[j]]
        if not core_hand.weak_seats(rules, hand):
            continue
        ask = True
        for seat in core_hand.weak_claimers(rules, int(d[j]), hand):
            ask = bool(rng.random() < 0.5)
            if j in entries:
                entries[j].claims.append((seat, ask))
            if ask:
                break
        if ask:
            cancel[j] = True
            cancel_rule[j] = "deal.weak-redeal"


def _individual_bids(tables: _Tables, rng: np.random.Generator, res: BatchResult, scores: np.ndarray[Any, Any],
                     d: np.ndarray[Any, Any], bids: np.ndarray[Any, Any], cancel: np.ndarray[Any, Any],
                     cancel_rule: np.ndarray[Any, Any], entries: _Entries, low_bids: float) -> np.ndarray[Any, Any]:
    """Each seat's bid in the core's bidding order, uniformly among the core's legal bids at its score, into
    ``bids``; the deals whose total the core does not play cancelled (bid.total). Returns the first leaders."""
    m = len(d)
    rows = np.arange(m)
    for i in range(4):
        seat = tables.bid_order[d, i]
        uniq, inv = np.unique(scores[rows, seat], return_inverse=True)
        lists = [tables.legal_bids(int(u)) for u in uniq]  # the core's legal bids, per distinct score
        table = np.zeros((len(uniq), 14), np.int64)
        for u, lst in enumerate(lists):
            table[u, :len(lst)] = lst
        counts = np.array([len(lst) for lst in lists])[inv]
        chosen = table[inv, _draw(rng, counts, low_bids)]
        bids[rows, seat] = chosen
        for j, e in entries.items():
            if not cancel[j]:
                e.calls.append((int(seat[j]), int(chosen[j])))
        res.bids += np.bincount(chosen[~cancel], minlength=14)
    distinct, row_of = np.unique(scores, axis=0, return_inverse=True)  # the distinct scores the deals are played on
    played = np.array([tables.played_if_total([int(x) for x in row]) for row in distinct])
    low = ~played[row_of.reshape(-1), bids.sum(1)] & ~cancel
    cancel_rule[low] = "bid.total"
    cancel |= low
    leader: np.ndarray[Any, Any] = tables.first_leader[d]
    return leader


def _auction(tables: _Tables, rng: np.random.Generator, res: BatchResult, d: np.ndarray[Any, Any],
             cancel: np.ndarray[Any, Any], cancel_rule: np.ndarray[Any, Any], entries: _Entries, low_bids: float
             ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The auction through the core's automaton, each call uniformly among the legal ones, until every auction
    has ended; the deals all passed cancelled (auction.all-pass), the contract holder names a random trump.
    Returns the holders (-1: all passed), the contracts, trump and the first leaders."""
    m = len(d)
    sid = tables.auction_start[d]
    while True:
        speaker = tables.speaker[sid]
        speaking = speaker >= 0
        if not speaking.any():
            break
        call = tables.call_table[sid, _draw(rng, tables.call_count[sid], low_bids)]
        for j, e in entries.items():
            if speaking[j] and not cancel[j]:
                e.calls.append((int(speaker[j]), int(call[j])))
        res.bids += np.bincount(call[speaking & ~cancel], minlength=14)
        sid = tables.call_next[sid, call]
    holder = tables.holder[sid]
    top = tables.top[sid]
    none = tables.all_passed[sid] & ~cancel
    cancel_rule[none] = "auction.all-pass"
    cancel |= none
    trump = rng.integers(0, 4, m)
    for j, e in entries.items():
        if not cancel[j]:
            e.contract = (int(holder[j]), int(top[j]))
    leader: np.ndarray[Any, Any] = tables.lead[d, np.maximum(holder, 0), top]
    return holder, top, trump, leader


def _tricks(rules: Rules, tables: _Tables, rng: np.random.Generator, hands: np.ndarray[Any, Any],
            leader: np.ndarray[Any, Any], trump: np.ndarray[Any, Any], win_fn: Any, cancel: np.ndarray[Any, Any],
            entries: _Entries) -> np.ndarray[Any, Any]:
    """The 13 tricks of every deal (cancelled ones too, their results are dropped) in lock-step, each card
    uniformly among the legal ones, the seats in the core's order of play; returns the tricks won by seat."""
    m = len(leader)
    rows = np.arange(m)
    won = np.zeros((m, 4), np.int64)
    logged = [(j, e) for j, e in entries.items() if not cancel[j]]
    for j, e in logged:
        e.trump, e.leader = int(trump[j]), int(leader[j])
    for _ in range(13):
        led = np.full(m, -1)
        cards = np.zeros((m, 4), np.int64)
        order = tables.seat_order[leader]
        for k in range(4):
            seat = order[:, k]
            h = hands[rows, seat]
            card = _pick(rng, legal_mask(h, led, trump, rules.must_trump))
            hands[rows, seat] = h ^ BITS[card]
            cards[:, k] = card
            if k == 0:
                led = card // 13
        winner = order[rows, win_fn(cards, trump)]
        won[rows, winner] += 1
        for j, e in logged:
            e.tricks.append((int(leader[j]), tuple(int(x) for x in order[j]), tuple(int(x) for x in cards[j]),
                             int(winner[j])))
        leader = winner
    return won


def _score(rules: Rules, tables: _Tables, res: BatchResult, idx: np.ndarray[Any, Any], d: np.ndarray[Any, Any],
           bids: np.ndarray[Any, Any], holder: np.ndarray[Any, Any], top: np.ndarray[Any, Any],
           won: np.ndarray[Any, Any], played: np.ndarray[Any, Any], entries: _Entries) -> np.ndarray[Any, Any] | None:
    """Score the played deals into the matches' scores and the counts (contracts, made bids, the dealer's team's
    gains); returns the bidding team's tricks (auction family; None for individual bids)."""
    m = len(d)
    rows = np.arange(m)
    tb = None
    if rules.individual:
        delta = tables.delta[bids, won]
        made = tables.made[bids, won]
        res.contracts += np.bincount(bids.sum(1)[played], minlength=53)
        res.made += int(made[played].sum())
        res.tried += 4 * int(played.sum())
    else:
        team = won @ tables.team_matrix  # (m, 2): the tricks of team 0 and team 1
        h = np.maximum(holder, 0)
        tb = team[rows, tables.team_of[h]]
        delta = tables.team_delta[h, top, team[:, 0]]
        res.contracts += np.bincount(top[played], minlength=53)
        res.made += int(tables.made[top, tb][played].sum())
        res.tried += int(played.sum())
    delta = np.where(played[:, None], delta, 0)
    res.scores[idx] += delta
    gain = delta @ tables.team_matrix  # each team's gain (the auction family: twice the team's score change)
    dt = tables.team_of[d]
    res.dealer_team_hands += int(((gain[rows, dt] > gain[rows, 1 - dt]) & played).sum())
    res.hands_played[idx] += played
    for j, e in entries.items():
        if played[j]:
            e.won, e.deltas = tuple(int(x) for x in won[j]), tuple(int(x) for x in delta[j])
        e.scores = tuple(int(x) for x in res.scores[idx[j]])
    return tb


def _settle(rules: Rules, res: BatchResult, idx: np.ndarray[Any, Any], played: np.ndarray[Any, Any],
            bids: np.ndarray[Any, Any], holder: np.ndarray[Any, Any], top: np.ndarray[Any, Any],
            won: np.ndarray[Any, Any], tb: np.ndarray[Any, Any] | None, target: np.ndarray[Any, Any],
            games_won: list[tuple[int, ...]], active: np.ndarray[Any, Any], entries: _Entries) -> None:
    """The outcome of each played deal by the core (:func:`tarneeb.core.hand.hand_outcome`, ``settle``): a match
    won leaves ``active``. Only games that may have been decided are asked (a pre-filter only: a seat or team at a
    target, a made-bid win possible, or all 13 tricks on a bid of 13; :func:`replay_check` holds that every deal
    it passes over is decided by nobody)."""
    scores = res.scores
    if rules.individual:
        cand = played & ((scores[idx].max(1) >= target[idx]) | bool(rules.made_bid_wins))
    else:
        cand = played & ((scores[idx].max(1) >= target[idx]) | ((top == 13) & (tb == 13)))
    for jj in np.flatnonzero(cand):
        j = int(jj)
        g = int(idx[j])
        contract = None if rules.individual else (int(holder[j]), int(top[j]), None)
        win, clause = core_hand.hand_outcome(rules, [int(x) for x in scores[g]], int(target[g]),
                                             [int(x) for x in bids[j]], contract, [int(x) for x in won[j]])
        st = core_hand.settle(rules, win, int(target[g]), games_won[g])
        games_won[g] = tuple(st.games)
        target[g] = st.target
        if st.winner is not None:
            res.winner[g] = st.winner
            active[g] = False
        if j in entries:
            entries[j].outcome = (win, clause)
            entries[j].winner = st.winner
    for j, e in entries.items():
        g = int(idx[j])
        e.target, e.games = int(target[g]), games_won[g]


# ---------------------------------------------------------------------- the twin's check
def replay_check(rules: Rules, res: BatchResult, *, seen: Counter[str] | None = None) -> int:
    """Replay every logged game through :func:`tarneeb.core.transition.step` (a trick at once by
    :func:`~tarneeb.core.transition.play_trick`) and compare state by state what the batch decided with what the
    transition makes of the same actions: after each deal the hands dealt, the trump when the bidding opens, each
    weak seat's claim and each bid or call (and who made it), the cancellation and its clause, the contract and its
    holder, trump, the first leader, each trick's leader, seats, cards and winner, the tricks won, the score
    changes and the scores after, the outcome and its clause (where the batch asked the core; where it did not,
    that nobody won), the target and the games won, the match's end and winner, the next dealer and its clause;
    after each game its deals, played hands, scores and winner. Returns the number of deals compared; raises
    AssertionError naming the game, the deal, what differs, the batch's value and the transition's. ``seen``
    counts what was compared (cancellations, bid totals against the threshold, outcomes and match ends by clause,
    claims, games won)."""
    compared = 0
    for g, lg in res.logs.items():
        state: State = transition.start(rules, lg.first_dealer, lg.start_scores)
        for k, e in enumerate(lg.deals):
            state = _replay_deal(rules, state, e, f"game {g} deal {k}", seen)
            compared += 1
        where = f"game {g} (after {len(lg.deals)} deals)"
        table = state.table
        _same(where, "deals", int(res.deals[g]), table.deals)
        _same(where, "hands played", int(res.hands_played[g]), table.played)
        _same(where, "scores", [int(x) for x in res.scores[g]], list(table.scores))
        _same(where, "match winner", int(res.winner[g]), state.winner if type(state) is Over else -1)
    return compared


def _same(where: str, what: str, batch_value: object, core_value: object) -> None:
    if batch_value != core_value:
        raise AssertionError(f"{where}: {what}: batch {batch_value!r} != transition {core_value!r}")


class _Replay:
    """One logged deal stepped through the transition: the state, the events so far, where in the batch it is."""

    def __init__(self, rules: Rules, state: State, where: str) -> None:
        self.rules = rules
        self.now = state
        self.where = where
        self.events: list[Event] = []

    def do(self, action: Any, what: str) -> None:
        """Step the batch's ``action``; the transition refusing it is a difference."""
        try:
            self.now, happened = transition.step(self.rules, self.now, action)
        except TarneebError as err:
            done = self.last(Cancelled)
            raise AssertionError(f"{self.where}: the transition refuses the batch's {what}"
                                 + (f" (it cancelled the deal by {done.clause})" if done else "") + f": {err}") from None
        self.events.extend(happened)

    def trick(self, i: int, cards: tuple[int, ...]) -> tuple[Event, ...]:
        """The batch's four cards of trick ``i`` at once (:func:`~tarneeb.core.transition.play_trick`)."""
        try:
            self.now, happened = transition.play_trick(self.rules, self.now, cards)
        except TarneebError as err:
            raise AssertionError(f"{self.where}: trick {i}: the transition refuses the batch's cards {cards}: {err}"
                                 ) from None
        self.events.extend(happened)
        return happened

    def last(self, kind: type[Any]) -> Any:
        """The last event of type ``kind`` in the deal so far, or None."""
        for x in reversed(self.events):
            if type(x) is kind:
                return x
        return None

    def same(self, what: str, batch_value: object, core_value: object) -> None:
        _same(self.where, what, batch_value, core_value)


def _replay_deal(rules: Rules, state: State, e: DealLog, where: str, seen: Counter[str] | None) -> State:
    """One logged deal through the transition, compared step by step (see :func:`replay_check`)."""
    if type(state) is not Dealing:
        raise AssertionError(f"{where}: the batch deals again, the transition is in phase {state.phase.value}")
    r = _Replay(rules, state, where)
    r.same("dealer", e.dealer, state.table.dealer)
    r.do(Deal(e.deck), "deal")
    r.same("hands dealt", e.hands, r.last(Dealt).hands)
    for i, (seat, ask) in enumerate(e.claims):
        r.same(f"claim {i}: seat", seat, r.now.to_move)
        r.do(ASK if ask else KEEP, f"claim {'ask' if ask else 'keep'} by seat {seat}")
        claimed = r.last(Claimed)
        r.same(f"claim {i}", (seat, ask), (claimed.seat, claimed.ask))
    if e.calls:
        opened = r.last(BiddingOpened)
        r.same("trump when the bidding opens", e.opened_trump, None if opened is None else opened.trump)
    for i, (seat, n) in enumerate(e.calls):
        r.same(f"bid {i}: seat", seat, r.now.to_move)
        r.do(BIDS[n] if rules.individual or n else PASS, f"bid {n or 'pass'} by seat {seat}")
        called = r.last(Called)
        r.same(f"bid {i}", (seat, n), (called.seat, called.bid.n or 0))
    cancelled = r.last(Cancelled)
    r.same("cancellation", e.redeal, None if cancelled is None else cancelled.clause)
    if seen is not None and rules.individual and len(e.calls) == 4:
        total, need = core_rules.bid_total(rules, [n for _, n in e.calls], state.table.scores)
        seen["bid total " + ("at" if total == need else "below" if total < need else "above") + " the threshold"] += 1
    if e.redeal is None:
        _replay_play(r, e)
    r.same("scores after", e.scores, r.now.table.scores)
    r.same("target", e.target, r.now.table.target)
    r.same("games won", e.games, r.now.table.games)
    match_won = r.last(MatchWon)
    r.same("match won", e.winner, None if match_won is None else match_won.team)
    nd = r.last(NextDealer)
    r.same("next dealer", e.next_dealer, None if nd is None else (nd.dealer, nd.clause))
    if seen is not None:
        seen.update(f"claim {'ask' if ask else 'keep'}" for _, ask in e.claims)
        seen.update([f"cancelled {e.redeal}"] if e.redeal else ["played"])
        seen.update(f"outcome {'won' if x.winner is not None else 'none'} {x.clause}" for x in r.events
                    if type(x) is Decided)
        seen.update(f"game won, target {x.target}" for x in r.events if type(x) is GameWon)
        seen.update(f"match won {x.clause}" for x in r.events if type(x) is MatchWon)
    return r.now


def _replay_play(r: _Replay, e: DealLog) -> None:
    """The contract, trump, the tricks and the scoring of a played deal (see :func:`replay_check`)."""
    if not r.rules.individual:
        made = r.last(ContractMade)
        r.same("contract", e.contract, None if made is None else made.contract[:2])
        r.do(NameTrump(e.trump), f"trump {e.trump}")
    named = r.last(TrumpNamed)
    r.same("trump", e.trump, named.trump if named is not None else r.last(BiddingOpened).trump)
    started = r.last(PlayStarted)
    r.same("first leader", e.leader, None if started is None else started.leader)
    for i, (leader, seats, cards, winner) in enumerate(e.tricks):
        r.same(f"trick {i}: leader", leader, r.now.to_move)
        happened = r.trick(i, cards)
        r.same(f"trick {i}: seats", seats, tuple(x.seat for x in happened if type(x) is Played))
        taken = r.last(TrickTaken).trick
        r.same(f"trick {i}: winner", winner, taken.winner)
        r.same(f"trick {i}: cards", cards, taken.cards)
    scored = r.last(Scored)
    if scored is None:
        raise AssertionError(f"{r.where}: the batch played {len(e.tricks)} tricks, the transition has not scored")
    r.same("tricks won", e.won, scored.tricks_won)
    r.same("score changes", e.deltas, scored.deltas)
    decided = r.last(Decided)
    if e.outcome is None:
        r.same("outcome winner (the batch did not ask the core: nobody)", None, decided.winner)
    else:
        r.same("outcome", e.outcome, (decided.winner, decided.clause))


__all__ = ["BatchResult", "DealLog", "GameLog", "legal_mask", "replay_check", "run", "supported", "trick_winner",
           "unsupported"]
