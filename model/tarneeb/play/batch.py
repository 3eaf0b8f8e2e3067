"""Batch self-play: many matches in lock-step with numpy, under the random policy.

Every game of the batch plays one deal per step: the deck is shuffled, the bids or calls drawn uniformly from the
legal ones, the cards drawn uniformly from the legal cards, tricks and scores counted, until each match is won or
cut off. What the rules decide comes from :mod:`tarneeb.core` through tables built once per batch by calling its
functions (legal bids per score, whether a deal is played, the trump of a revealed card, the first leader, the
change of scores for every bid and number of tricks, the legal calls for every auction state, the next dealer) or,
for the rare hands that reach a target, by calling :func:`tarneeb.core.hand.hand_outcome` and
:func:`~tarneeb.core.hand.settle` per game. Two steps are written again here, vectorised: the legal-card mask
(follow suit, must-trump) and the trick winner. :func:`replay_check` replays sampled games action by action through
:class:`~tarneeb.core.match.Match` and compares every deal (cancelled or not, tricks won, scores), so a mistake in
either is caught.

Supported (:func:`supported`): the individual family, and the auction family with dealer's privilege, plain
(not Egyptian) bids and the all-pass redeal. Other configurations use the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import ASK, BIDS, KEEP, PASS, PLAYS, Deal, NameTrump
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import TarneebError

SUIT_MASKS = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.int64)
BITS = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))


def supported(rules: Rules) -> bool:
    if rules.individual:
        return True
    return rules.auction_style == "dealer-privilege" and not rules.egyptian and rules.all_pass == "redeal-next"


@dataclass
class GameLog:
    """What one sampled game did, for :func:`replay_check`: first dealer and, per deal, the deck and the actions."""

    first_dealer: int
    deals: list[dict[str, Any]] = field(default_factory=list)
    start_scores: tuple[int, ...] = (0, 0, 0, 0)


@dataclass
class BatchResult:
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


class _Tables:
    """Rule tables built once from the core's functions."""

    def __init__(self, rules: Rules) -> None:
        self.next_dealer_played = np.array([core_hand.next_dealer(rules, d, None) for d in range(4)])
        self.next_dealer_by = {c: np.array([core_hand.next_dealer(rules, d, c) for d in range(4)])
                               for c in ("bid.total", "auction.all-pass", "deal.weak-redeal")}
        deck = list(range(52))
        self.trump_of_revealed = np.array([core_hand.deal_trump(rules, deck[:51] + [c])[1] for c in range(52)])
        self.first_leader = np.array([core_hand.hand_leader(rules, dl, None) for dl in range(4)])
        # the deck's places of each seat's cards, the seat after the dealer first (deal.order)
        self.places = [np.array(p) for p in core_rules.deal_positions(rules)]
        self.individual = rules.individual
        if rules.individual:
            # whether a bid total t (0..52) is played, per total in force (bid.total: it may rise with the scores)
            self._played: dict[int, np.ndarray[Any, Any]] = {}
            self.delta = np.array([[core_rules.individual_delta(rules, b, t) if b < len(rules.values) else 0 for t in range(14)]
                                   for b in range(14)])
            self._bids_by_score: dict[int, list[int]] = {}
            self.rules = rules
        else:
            # team deltas for (contract, tricks of the bidding team): (bidding team's, defenders')
            self.team = np.zeros((14, 14, 2), dtype=np.int64)
            for c in range(rules.min_bid, 14):
                for t in range(14):
                    self.team[c, t] = core_rules.team_deltas(rules, c, 0, (t, 13 - t))
            # legal calls for (is dealer, top 0 = none, passes): 0 = pass, else tricks
            self.calls: dict[tuple[int, int, int], list[int]] = {}
            for is_dealer in (0, 1):
                for top in [0, *range(rules.min_bid, 14)]:
                    for passes in range(4):
                        dealer, seat = 0, (0 if is_dealer else 1)
                        tb: tuple[int, int | None] | None = None if top == 0 else (top, None)
                        self.calls[(is_dealer, top, passes)] = [
                            n or 0 for n in [None, *range(rules.min_bid, 14)]
                            if core_rules.auction_bid_violation(rules, dealer, seat, tb, passes, n, None) is None]
            self.call_table = np.zeros((2, 14, 4, 9), np.int64)
            self.call_count = np.zeros((2, 14, 4), np.int64)
            for (isd, top, passes), lst in self.calls.items():
                self.call_table[isd, top, passes, :len(lst)] = lst
                self.call_count[isd, top, passes] = len(lst)
            self.rules = rules

    def played_if_total(self, scores: Sequence[int]) -> np.ndarray[Any, Any]:
        """For each bid total 0..52, whether a deal played on ``scores`` is played (the core's bid.total)."""
        need = core_rules.total_in_force(self.rules, scores)
        got = self._played.get(need)
        if got is None:
            got = self._played[need] = np.array([core_rules.hand_is_played(self.rules, [t], scores) for t in range(53)])
        return got

    def legal_bids(self, score: int) -> list[int]:
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


def run(rules: Rules, n: int, seed: int = 0, max_hands: int = 200, log_games: int = 0,
        winner_fn: Any = None, start_scores: Any = None) -> BatchResult:
    """Play ``n`` matches in lock-step (random policy); log the first ``log_games`` for :func:`replay_check`.
    ``start_scores`` (four seat scores, the same for every match) starts them part-way, as ``Match(rules, dealer,
    scores)`` does: near the target, the games end, which random play from zero rarely brings about in the
    individual family."""
    if not supported(rules):
        raise ValueError(f"{rules.label()}: the batch path does not cover this configuration; use the engine")
    win_fn = winner_fn or trick_winner
    tables = _Tables(rules)
    rng = np.random.default_rng(seed)
    seats = np.asarray(core_rules.first_dealers(rules))
    dealer = seats[rng.integers(0, len(seats), n)]
    res = BatchResult(n, np.zeros(n, np.int64), np.zeros(n, np.int64), np.full(n, -1), np.zeros((n, 4), np.int64),
                      dealer.copy())
    start = tuple(int(x) for x in (start_scores if start_scores is not None else (0, 0, 0, 0)))
    if len(start) != 4 or (not rules.individual and (start[0] != start[2] or start[1] != start[3])):
        raise ValueError(f"start scores {list(start)}: four seat scores, partners equal in a team ruleset")
    res.logs = {g: GameLog(int(dealer[g]), start_scores=start) for g in range(min(log_games, n))}
    res.scores[:] = np.array(start, np.int64)
    target = np.full(n, rules.target)
    games_won: list[tuple[int, ...]] = [() for _ in range(n)]
    active = np.ones(n, bool)
    while active.any():
        _round(rules, tables, rng, res, np.flatnonzero(active), dealer, target, games_won, active, win_fn)
        cut = (res.hands_played >= max_hands) | (res.deals >= 10 * max_hands)
        active &= ~cut
    return res


_Logs = list[tuple[int, GameLog]]  # (index in the round, the match's log) of the logged matches of a round
_Entries = dict[int, dict[str, Any]]  # index in the round -> the logged deal


def _round(rules: Rules, tables: _Tables, rng: np.random.Generator, res: BatchResult, idx: np.ndarray[Any, Any],
           dealer: np.ndarray[Any, Any], target: np.ndarray[Any, Any], games_won: list[tuple[int, ...]],
           active: np.ndarray[Any, Any], win_fn: Any) -> None:
    """One deal of every match still on (``idx``), in lock-step: deal, bid, play, score, settle, next dealer."""
    m = len(idx)
    d = dealer[idx]
    deck = np.argsort(rng.random((m, 52)), axis=1)
    res.deals[idx] += 1
    hands = np.zeros((m, 4), np.int64)
    for k in range(4):
        hands[np.arange(m), (d + rules.step * (k + 1)) % 4] = BITS[deck[:, tables.places[k]]].sum(1)
    logs = [(j, res.logs[int(g)]) for j, g in enumerate(idx) if int(g) in res.logs]
    entries: _Entries = {}
    for j, lg in logs:
        entries[j] = {"deck": [int(c) for c in deck[j]], "actions": []}
        lg.deals.append(entries[j])
    cancel = np.zeros(m, bool)
    cancel_rule = np.full(m, "", dtype=object)
    if not rules.individual and rules.weak_redeal:
        weak = np.array([bool(core_hand.weak_seats(rules, [int(x) for x in hands[j]])) for j in range(m)])
        for w in np.flatnonzero(weak).tolist():  # reading claimed of weak-hand: each weak seat asks or keeps
            for _seat in core_hand.weak_claimers(rules, int(d[w]), [int(x) for x in hands[w]]):  # at random, in turn
                ask = bool(rng.random() < 0.5)
                if w in entries:
                    entries[w]["actions"].append(("claim", int(ask)))
                weak[w] = ask
                if ask:
                    break
        cancel |= weak
        cancel_rule[weak] = "deal.weak-redeal"
    trump = tables.trump_of_revealed[deck[:, 51]].copy()
    bids = np.zeros((m, 4), np.int64)
    holder = np.full(m, -1)
    top = np.zeros(m, np.int64)
    if rules.individual:
        leader = _individual_bids(rules, tables, rng, res, res.scores[idx], d, bids, cancel, cancel_rule, logs, entries)
    else:
        holder, top, trump, leader = _auction(rules, tables, rng, res, d, cancel, cancel_rule, logs, entries)
    won = _tricks(rules, rng, hands, leader, trump, win_fn, cancel, logs, entries)
    played = ~cancel
    tb = _score(rules, tables, res, idx, d, bids, holder, top, won, played)
    for j, _ in logs:
        entries[j].update(redeal=cancel_rule[j] or None, won=[int(x) for x in won[j]] if played[j] else None,
                          scores=[int(x) for x in res.scores[idx[j]]])
    for rule in ("bid.total", "auction.all-pass", "deal.weak-redeal"):
        c = int((cancel_rule == rule).sum())
        if c:
            res.cancelled[rule] = res.cancelled.get(rule, 0) + c
    _settle(rules, res, idx, played, bids, holder, top, won, tb, target, games_won, active)
    nd = tables.next_dealer_played[d]
    for rule, table in tables.next_dealer_by.items():
        nd = np.where(cancel_rule == rule, table[d], nd)
    dealer[idx] = nd


def _individual_bids(rules: Rules, tables: _Tables, rng: np.random.Generator, res: BatchResult, scores: np.ndarray[Any, Any],
                     d: np.ndarray[Any, Any], bids: np.ndarray[Any, Any], cancel: np.ndarray[Any, Any],
                     cancel_rule: np.ndarray[Any, Any], logs: _Logs, entries: _Entries) -> np.ndarray[Any, Any]:
    """Each seat's bid in bidding order, uniformly among the core's legal bids at its score, into ``bids``; the
    deals whose total is too low cancelled (bid.total). Returns the first leaders."""
    m = len(d)
    for i in range(4):
        seat = (d + rules.step * (i + 1)) % 4
        uniq, inv = np.unique(scores[np.arange(m), seat], return_inverse=True)
        lists = [tables.legal_bids(int(u)) for u in uniq]  # the core's legal bids, per distinct score
        table = np.zeros((len(uniq), 14), np.int64)
        for u, lst in enumerate(lists):
            table[u, :len(lst)] = lst
        counts = np.array([len(lst) for lst in lists])[inv]
        chosen = table[inv, (rng.random(m) * counts).astype(np.int64)]
        bids[np.arange(m), seat] = chosen
        for j, _ in logs:
            entries[j]["actions"].append(("bid", int(chosen[j])))
        res.bids += np.bincount(chosen[~cancel], minlength=14)
    rows, row_of = np.unique(scores, axis=0, return_inverse=True)  # the distinct scores the deals are played on
    played = np.array([tables.played_if_total([int(x) for x in row]) for row in rows])
    low = ~played[row_of.reshape(-1), bids.sum(1)] & ~cancel
    cancel_rule[low] = "bid.total"
    cancel |= low
    leader: np.ndarray[Any, Any] = tables.first_leader[d]
    return leader


def _auction(rules: Rules, tables: _Tables, rng: np.random.Generator, res: BatchResult, d: np.ndarray[Any, Any],
             cancel: np.ndarray[Any, Any], cancel_rule: np.ndarray[Any, Any], logs: _Logs, entries: _Entries
             ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """One round of calls, each uniformly among the core's legal calls after the top bid and the passes; the
    deals all passed cancelled (auction.all-pass), the contract holder names a random trump. Returns the holders
    (-1: all passed), the contracts, trump and the first leaders."""
    m = len(d)
    holder = np.full(m, -1)
    top = np.zeros(m, np.int64)
    passes = np.zeros(m, np.int64)
    for i in range(4):
        seat = (d + rules.step * (i + 1)) % 4
        isd = (seat == d).astype(np.int64)
        counts = tables.call_count[isd, top, passes]
        call = tables.call_table[isd, top, passes, (rng.random(m) * counts).astype(np.int64)]
        for j, _ in logs:
            if not cancel[j]:
                entries[j]["actions"].append(("call", int(call[j])))
        res.bids += np.bincount(call[~cancel], minlength=14)
        raised = call > 0
        top = np.where(raised, call, top)
        holder = np.where(raised, seat, holder)
        passes += ~raised
    none = (holder < 0) & ~cancel
    cancel_rule[none] = "auction.all-pass"
    cancel |= none
    trump = rng.integers(0, 4, m)
    for j, _ in logs:
        if not cancel[j]:
            entries[j]["actions"].append(("trump", int(trump[j])))
    return holder, top, trump, np.where(holder >= 0, holder, 0)


def _tricks(rules: Rules, rng: np.random.Generator, hands: np.ndarray[Any, Any], leader: np.ndarray[Any, Any],
            trump: np.ndarray[Any, Any], win_fn: Any, cancel: np.ndarray[Any, Any], logs: _Logs,
            entries: _Entries) -> np.ndarray[Any, Any]:
    """The 13 tricks of every deal (cancelled ones too, their results are dropped) in lock-step, each card
    uniformly among the legal ones; returns the tricks won by seat."""
    m = len(leader)
    won = np.zeros((m, 4), np.int64)
    for _ in range(13):
        led = np.full(m, -1)
        cards = np.zeros((m, 4), np.int64)
        for k in range(4):
            seat = (leader + rules.step * k) % 4
            h = hands[np.arange(m), seat]
            card = _pick(rng, legal_mask(h, led, trump, rules.must_trump))
            hands[np.arange(m), seat] = h ^ BITS[card]
            cards[:, k] = card
            if k == 0:
                led = card // 13
        leader = (leader + rules.step * win_fn(cards, trump)) % 4
        won[np.arange(m), leader] += 1
        for j, _ in logs:
            if not cancel[j]:
                entries[j]["actions"].extend(("play", int(c)) for c in cards[j])
    return won


def _score(rules: Rules, tables: _Tables, res: BatchResult, idx: np.ndarray[Any, Any], d: np.ndarray[Any, Any],
           bids: np.ndarray[Any, Any], holder: np.ndarray[Any, Any], top: np.ndarray[Any, Any],
           won: np.ndarray[Any, Any], played: np.ndarray[Any, Any]) -> np.ndarray[Any, Any] | None:
    """Score the played deals into the matches' scores and the counts (contracts, made bids, the dealer's team's
    gains); returns the bidding team's tricks (auction family; None for individual bids)."""
    tb = None
    if rules.individual:
        delta = tables.delta[bids, won]
    else:
        bt = holder & 1
        tb = np.where(bt == 0, won[:, 0] + won[:, 2], won[:, 1] + won[:, 3])
        pair = tables.team[top, tb]  # (m, 2): bidding team, defenders
        t0 = np.where(bt == 0, pair[:, 0], pair[:, 1])
        t1 = np.where(bt == 0, pair[:, 1], pair[:, 0])
        delta = np.stack([t0, t1, t0, t1], axis=1)
        res.contracts += np.bincount(top[played], minlength=53)
        made = tb >= top
        res.made += int(made[played].sum())
        res.tried += int(played.sum())
    delta = np.where(played[:, None], delta, 0)
    res.scores[idx] += delta
    if rules.individual:
        res.contracts += np.bincount(bids.sum(1)[played], minlength=53)
        res.made += int((won >= bids)[played].sum())
        res.tried += 4 * int(played.sum())
    team_gain = (delta[:, 0] + delta[:, 2], delta[:, 1] + delta[:, 3]) if rules.individual else (delta[:, 0],
                                                                                              delta[:, 1])
    dt = d & 1
    dg = np.where(dt == 0, team_gain[0], team_gain[1])
    og = np.where(dt == 0, team_gain[1], team_gain[0])
    res.dealer_team_hands += int(((dg > og) & played).sum())
    res.hands_played[idx] += played
    return tb


def _settle(rules: Rules, res: BatchResult, idx: np.ndarray[Any, Any], played: np.ndarray[Any, Any],
            bids: np.ndarray[Any, Any], holder: np.ndarray[Any, Any], top: np.ndarray[Any, Any],
            won: np.ndarray[Any, Any], tb: np.ndarray[Any, Any] | None, target: np.ndarray[Any, Any],
            games_won: list[tuple[int, ...]], active: np.ndarray[Any, Any]) -> None:
    """The outcome of each played deal by the core (:func:`tarneeb.core.hand.hand_outcome`, ``settle``): a match
    won leaves ``active``. Only games that may have been decided are asked (a pre-filter only: a seat or team at a
    target, a made-bid win possible, or all 13 tricks on a bid of 13)."""
    scores = res.scores
    if rules.individual:
        cand = played & ((scores[idx].max(1) >= target[idx]) | bool(rules.made_bid_wins))
    else:
        cand = played & ((scores[idx].max(1) >= target[idx]) | ((top == 13) & (tb == 13)))
    for jj in np.flatnonzero(cand):
        j = int(jj)
        g = int(idx[j])
        contract = None if rules.individual else (int(holder[j]), int(top[j]), None)
        win, _ = core_hand.hand_outcome(rules, [int(x) for x in scores[g]], int(target[g]), [int(x) for x in bids[j]],
                                        contract, [int(x) for x in won[j]])
        st = core_hand.settle(rules, win, int(target[g]), games_won[g])
        games_won[g] = tuple(st.games)
        target[g] = st.target
        if st.winner is not None:
            res.winner[g] = st.winner
            active[g] = False


def replay_check(rules: Rules, res: BatchResult, max_hands: int = 200) -> int:
    """Replay every logged game through :class:`~tarneeb.core.match.Match` and compare deal by deal (cancelled or
    not, tricks won, scores after) and the winner; returns the number of deals compared, raises AssertionError."""
    compared = 0
    for g, lg in res.logs.items():
        m = Match(rules, lg.first_dealer, list(lg.start_scores))
        for k, entry in enumerate(lg.deals):
            if m.phase is not Phase.DEAL:
                raise AssertionError(f"game {g} deal {k}: the engine is in {m.phase.value}, not waiting for a deal")
            m.apply(Deal(tuple(entry["deck"])))
            for kind, v in entry["actions"]:
                if m.phase is Phase.DEAL or m.phase is Phase.OVER:
                    raise AssertionError(f"game {g} deal {k}: the engine ended the deal before the batch's {kind} {v}")
                try:
                    if kind == "bid":
                        m.apply(BIDS[v])
                    elif kind == "call":
                        m.apply(BIDS[v] if v else PASS)
                    elif kind == "claim":
                        m.apply(ASK if v else KEEP)
                    elif kind == "trump":
                        m.apply(NameTrump(v))
                    else:
                        m.apply(PLAYS[v])
                except TarneebError as e:
                    raise AssertionError(f"game {g} deal {k}: the engine refuses the batch's {kind} {v}: {e}") from None
            if len(m.records) != k + 1:
                raise AssertionError(f"game {g} deal {k}: the engine has not finished the deal")
            rec = m.records[k]
            got = (entry["redeal"], entry["won"], entry["scores"])
            expect = (rec.redeal, None if rec.redeal else list(rec.tricks_won), list(rec.scores_after))
            if got != expect:
                raise AssertionError(f"game {g} deal {k}: batch (redeal, tricks won, scores) {got} != engine {expect}")
            compared += 1
        if res.scores[g].tolist() != m.scores:
            raise AssertionError(f"game {g}: batch scores {res.scores[g].tolist()} != {m.scores}")
        want = -1 if m.winner is None else m.winner
        if int(res.winner[g]) != want:
            raise AssertionError(f"game {g}: batch winner {res.winner[g]} != engine {want}")
        if int(res.hands_played[g]) != m.hands_played:
            raise AssertionError(f"game {g}: hands {res.hands_played[g]} != {m.hands_played}")
    return compared


__all__ = ["BatchResult", "GameLog", "legal_mask", "replay_check", "run", "supported", "trick_winner"]
