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

from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.actions import ASK, BIDS, KEEP, PASS, PLAYS, Deal, NameTrump
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import TarneebError

SUIT_MASKS = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.int64)
BITS = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))


def supported(r: Rules) -> bool:
    if r.individual:
        return True
    return r.auction_style == "dealer-privilege" and not r.egyptian and r.all_pass == "redeal-next"


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

    def __init__(self, r: Rules) -> None:
        self.next_dealer_played = np.array([H.next_dealer(r, d, None) for d in range(4)])
        self.next_dealer_by = {c: np.array([H.next_dealer(r, d, c) for d in range(4)])
                               for c in ("bid.total", "auction.all-pass", "deal.weak-redeal")}
        deck = list(range(52))
        self.trump_of_revealed = np.array([H.deal_trump(r, deck[:51] + [c])[1] for c in range(52)])
        self.first_leader = np.array([H.hand_leader(r, dl, None) for dl in range(4)])
        self.places = [np.array(p) for p in R.deal_positions(r)]  # the deck's places of each seat's cards (deal.order)
        self.individual = r.individual
        if r.individual:
            # whether a bid total t (0..52) is played, per total in force (bid.total: it may rise with the scores)
            self._played: dict[int, np.ndarray[Any, Any]] = {}
            self.delta = np.array([[R.individual_delta(r, b, t) if b < len(r.values) else 0 for t in range(14)]
                                   for b in range(14)])
            self._bids_by_score: dict[int, list[int]] = {}
            self.r = r
        else:
            # team deltas for (contract, tricks of the bidding team): (bidding team's, defenders')
            self.team = np.zeros((14, 14, 2), dtype=np.int64)
            for c in range(r.min_bid, 14):
                for t in range(14):
                    self.team[c, t] = R.team_deltas(r, c, 0, (t, 13 - t))
            # legal calls for (is dealer, top 0 = none, passes): 0 = pass, else tricks
            self.calls: dict[tuple[int, int, int], list[int]] = {}
            for is_dealer in (0, 1):
                for top in [0, *range(r.min_bid, 14)]:
                    for passes in range(4):
                        dealer, seat = 0, (0 if is_dealer else 1)
                        tb: tuple[int, int | None] | None = None if top == 0 else (top, None)
                        self.calls[(is_dealer, top, passes)] = [
                            n or 0 for n in [None, *range(r.min_bid, 14)]
                            if R.auction_bid_violation(r, dealer, seat, tb, passes, n, None) is None]
            self.call_table = np.zeros((2, 14, 4, 9), np.int64)
            self.call_count = np.zeros((2, 14, 4), np.int64)
            for (isd, top, passes), lst in self.calls.items():
                self.call_table[isd, top, passes, :len(lst)] = lst
                self.call_count[isd, top, passes] = len(lst)
            self.r = r

    def played_if_total(self, scores: Sequence[int]) -> np.ndarray[Any, Any]:
        """For each bid total 0..52, whether a deal played on ``scores`` is played (the core's bid.total)."""
        need = R.total_in_force(self.r, scores)
        got = self._played.get(need)
        if got is None:
            got = self._played[need] = np.array([R.hand_is_played(self.r, [t], scores) for t in range(53)])
        return got

    def legal_bids(self, score: int) -> list[int]:
        got = self._bids_by_score.get(score)
        if got is None:
            got = self._bids_by_score[score] = R.legal_bids(self.r, score)
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


def run(r: Rules, n: int, seed: int = 0, max_hands: int = 200, log_games: int = 0,
        winner_fn: Any = None, start_scores: Any = None) -> BatchResult:
    """Play ``n`` matches in lock-step (random policy); log the first ``log_games`` for :func:`replay_check`.
    ``start_scores`` (four seat scores, the same for every match) starts them part-way, as ``Match(r, dealer,
    scores)`` does: near the target, the games end, which random play from zero rarely brings about in the
    individual family."""
    if not supported(r):
        raise ValueError(f"{r.label()}: the batch path does not cover this configuration; use the engine")
    win_fn = winner_fn or trick_winner
    T = _Tables(r)
    rng = np.random.default_rng(seed)
    seats = np.asarray(R.first_dealers(r))
    dealer = seats[rng.integers(0, len(seats), n)]
    res = BatchResult(n, np.zeros(n, np.int64), np.zeros(n, np.int64), np.full(n, -1), np.zeros((n, 4), np.int64),
                      dealer.copy())
    start = tuple(int(x) for x in (start_scores if start_scores is not None else (0, 0, 0, 0)))
    if len(start) != 4 or (not r.individual and (start[0] != start[2] or start[1] != start[3])):
        raise ValueError(f"start scores {list(start)}: four seat scores, partners equal in a team ruleset")
    res.logs = {g: GameLog(int(dealer[g]), start_scores=start) for g in range(min(log_games, n))}
    scores = res.scores
    scores[:] = np.array(start, np.int64)
    target = np.full(n, r.target)
    games_won: list[tuple[int, ...]] = [() for _ in range(n)]
    active = np.ones(n, bool)
    step = r.step
    while active.any():
        idx = np.flatnonzero(active)
        m = len(idx)
        d = dealer[idx]
        deck = np.argsort(rng.random((m, 52)), axis=1)
        res.deals[idx] += 1
        hands = np.zeros((m, 4), np.int64)
        for k in range(4):
            hands[np.arange(m), (d + step * (k + 1)) % 4] = BITS[deck[:, T.places[k]]].sum(1)
        logs = [(j, res.logs[int(g)]) for j, g in enumerate(idx) if int(g) in res.logs]
        entries: dict[int, dict[str, Any]] = {}
        for j, lg in logs:
            entries[j] = {"deck": [int(c) for c in deck[j]], "actions": []}
            lg.deals.append(entries[j])
        cancel = np.zeros(m, bool)
        cancel_rule = np.full(m, "", dtype=object)
        if not r.individual and r.weak_redeal:
            weak = np.array([bool(H.weak_seats(r, [int(x) for x in hands[j]])) for j in range(m)])
            for w in np.flatnonzero(weak).tolist():  # reading claimed of weak-hand: each weak seat asks or keeps
                for _seat in H.weak_claimers(r, int(d[w]), [int(x) for x in hands[w]]):  # at random, in turn
                    ask = bool(rng.random() < 0.5)
                    if w in entries:
                        entries[w]["actions"].append(("claim", int(ask)))
                    weak[w] = ask
                    if ask:
                        break
            cancel |= weak
            cancel_rule[weak] = "deal.weak-redeal"
        trump = T.trump_of_revealed[deck[:, 51]].copy()
        bids = np.zeros((m, 4), np.int64)
        holder = np.full(m, -1)
        top = np.zeros(m, np.int64)
        if r.individual:
            for i in range(4):
                seat = (d + step * (i + 1)) % 4
                uniq, inv = np.unique(scores[idx, seat], return_inverse=True)
                lists = [T.legal_bids(int(u)) for u in uniq]  # the core's legal bids, per distinct score
                table = np.zeros((len(uniq), 14), np.int64)
                for u, lst in enumerate(lists):
                    table[u, :len(lst)] = lst
                counts = np.array([len(lst) for lst in lists])[inv]
                chosen = table[inv, (rng.random(m) * counts).astype(np.int64)]
                bids[np.arange(m), seat] = chosen
                for j, _ in logs:
                    entries[j]["actions"].append(("bid", int(chosen[j])))
                res.bids += np.bincount(chosen[~cancel], minlength=14)
            rows, row_of = np.unique(scores[idx], axis=0, return_inverse=True)  # the distinct scores played on
            played = np.array([T.played_if_total([int(x) for x in row]) for row in rows])
            low = ~played[row_of.reshape(-1), bids.sum(1)] & ~cancel
            cancel_rule[low] = "bid.total"
            cancel |= low
            leader = T.first_leader[d]
        else:
            passes = np.zeros(m, np.int64)
            for i in range(4):
                seat = (d + step * (i + 1)) % 4
                isd = (seat == d).astype(np.int64)
                counts = T.call_count[isd, top, passes]
                call = T.call_table[isd, top, passes, (rng.random(m) * counts).astype(np.int64)]
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
            leader = np.where(holder >= 0, holder, 0)
        # play all games (cancelled ones too, their results are dropped) in lock-step
        won = np.zeros((m, 4), np.int64)
        for _ in range(13):
            led = np.full(m, -1)
            cards = np.zeros((m, 4), np.int64)
            for k in range(4):
                seat = (leader + step * k) % 4
                h = hands[np.arange(m), seat]
                card = _pick(rng, legal_mask(h, led, trump, r.must_trump))
                hands[np.arange(m), seat] = h ^ BITS[card]
                cards[:, k] = card
                if k == 0:
                    led = card // 13
            leader = (leader + step * win_fn(cards, trump)) % 4
            won[np.arange(m), leader] += 1
            for j, _ in logs:
                if not cancel[j]:
                    entries[j]["actions"].extend(("play", int(c)) for c in cards[j])
        played = ~cancel
        # scores
        if r.individual:
            delta = T.delta[bids, won]
        else:
            bt = holder & 1
            tb = np.where(bt == 0, won[:, 0] + won[:, 2], won[:, 1] + won[:, 3])
            pair = T.team[top, tb]  # (m, 2): bidding team, defenders
            t0 = np.where(bt == 0, pair[:, 0], pair[:, 1])
            t1 = np.where(bt == 0, pair[:, 1], pair[:, 0])
            delta = np.stack([t0, t1, t0, t1], axis=1)
            res.contracts += np.bincount(top[played], minlength=53)
            made = tb >= top
            res.made += int(made[played].sum())
            res.tried += int(played.sum())
        delta = np.where(played[:, None], delta, 0)
        scores[idx] += delta
        if r.individual:
            res.contracts += np.bincount(bids.sum(1)[played], minlength=53)
            res.made += int((won >= bids)[played].sum())
            res.tried += 4 * int(played.sum())
        team_gain = (delta[:, 0] + delta[:, 2], delta[:, 1] + delta[:, 3]) if r.individual else (delta[:, 0],
                                                                                                  delta[:, 1])
        dt = d & 1
        dg = np.where(dt == 0, team_gain[0], team_gain[1])
        og = np.where(dt == 0, team_gain[1], team_gain[0])
        res.dealer_team_hands += int(((dg > og) & played).sum())
        res.hands_played[idx] += played
        for j, _ in logs:
            entries[j].update(redeal=cancel_rule[j] or None, won=[int(x) for x in won[j]] if played[j] else None,
                              scores=[int(x) for x in scores[idx[j]]])
        for rule in ("bid.total", "auction.all-pass", "deal.weak-redeal"):
            c = int((cancel_rule == rule).sum())
            if c:
                res.cancelled[rule] = res.cancelled.get(rule, 0) + c
        # outcomes: only games that may have been decided are asked of the core
        # (a pre-filter only: a seat or team at a target, a made-bid win possible, or all 13 tricks on a bid of 13)
        if r.individual:
            cand = played & ((scores[idx].max(1) >= target[idx]) | bool(r.made_bid_wins))
        else:
            cand = played & ((scores[idx].max(1) >= target[idx]) | ((top == 13) & (tb == 13)))
        for jj in np.flatnonzero(cand):
            j = int(jj)
            g = int(idx[j])
            contract = None if r.individual else (int(holder[j]), int(top[j]), None)
            win, _ = H.hand_outcome(r, [int(x) for x in scores[g]], int(target[g]), [int(x) for x in bids[j]],
                                    contract, [int(x) for x in won[j]])
            st = H.settle(r, win, int(target[g]), games_won[g])
            games_won[g] = tuple(st.games)
            target[g] = st.target
            if st.winner is not None:
                res.winner[g] = st.winner
                active[g] = False
        nd = T.next_dealer_played[d]
        for rule, table in T.next_dealer_by.items():
            nd = np.where(cancel_rule == rule, table[d], nd)
        dealer[idx] = nd
        cut = (res.hands_played >= max_hands) | (res.deals >= 10 * max_hands)
        active &= ~cut
    return res


def replay_check(r: Rules, res: BatchResult, max_hands: int = 200) -> int:
    """Replay every logged game through :class:`~tarneeb.core.match.Match` and compare deal by deal (cancelled or
    not, tricks won, scores after) and the winner; returns the number of deals compared, raises AssertionError."""
    compared = 0
    for g, lg in res.logs.items():
        m = Match(r, lg.first_dealer, list(lg.start_scores))
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
                    elif kind == "trump":
                        m.apply(NameTrump(v))
                    elif kind == "claim":
                        m.apply(ASK if v else KEEP)
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
