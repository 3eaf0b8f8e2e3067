"""Family ``engine``, stage ``match``: the state machine :mod:`tarneeb.core.match` refines the encoded steps.

Seeded self-play matches (random legal actions, random deals, scores started
near the target so that matches end) are replayed hand by hand through the
encodings' step relations: who deals (deal.rotation, redeal.dealer after a
cancelled deal), who leads the first trick (play.lead), each trick's winner seat
(play.winner in play.direction) and the next leader (play.next-lead), tricks won,
each score change (the scoring tables) and the scores carried, the target in
force (win.play-on), each hand's outcome, and that the match ends exactly when
an outcome decides it. This is a bounded check (the matches played), not a
proof: the engine family's other stages prove the rule functions themselves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tarneeb.core.actions import Deal
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import Rules

from .bridge import Mismatch, cite
from .encode import Encoding
from .evaluate import Ev
from .witness import card_text

MOD = "tarneeb.core.match"


@dataclass
class Replay:
    """``n`` seeded matches of one configuration, each step compared with the encoding."""

    enc: Encoding
    n: int
    seed: int = 0
    fn: str = "Match"
    points: int = 0  # transitions compared (for the report)

    def run(self) -> Mismatch | None:
        for i in range(self.n):
            bad = self.one(random.Random(self.seed * 1000 + i), i)
            if bad is not None:
                return bad
        return None

    def one(self, rng: random.Random, i: int) -> Mismatch | None:
        r = self.enc.r
        dealer = rng.randrange(4)
        if r.individual:
            scores = [rng.randint(r.target - 8, r.target - 1) for _ in range(4)]
        else:
            a, b = rng.randint(r.target - 12, r.target - 1), rng.randint(r.target - 12, r.target - 1)
            scores = [a, b, a, b]
        m = Match(r, dealer, scores)
        steps = 0
        while not m.is_over() and steps < 3000:
            steps += 1
            if m.phase is Phase.DEAL:
                deck = list(range(52))
                rng.shuffle(deck)
                m.apply(Deal(tuple(deck)))
            else:
                m.apply(rng.choice(list(m.legal_actions())))
        return self.check(m, dealer, scores, f"match {i} (seed {self.seed * 1000 + i})")

    def check(self, m: Match, first_dealer: int, start: Sequence[int], name: str) -> Mismatch | None:
        enc, r = self.enc, self.enc.r
        E = _evals(enc)
        prev = list(start)
        dealer = first_dealer
        games = 0
        target = r.target
        decided = False
        for k, rec in enumerate(m.records):
            where = f"{name}, deal {k}"

            def bad(what: str, got: Any, want: Any, clause: str, where: str = where) -> Mismatch:
                return Mismatch(self.fn, f"{where}: {what}", repr(got), repr(want), clause, MOD)

            self.points += 1
            if decided:
                return bad("a deal after the match was decided", "dealt", "match over", "win.target")
            if rec.dealer != dealer:
                return bad("dealer", rec.dealer, dealer, cite(r, "deal.rotation", "redeal.dealer"))
            if rec.redeal is not None:
                if rec.scores_after != prev:
                    return bad("scores after a cancelled deal", rec.scores_after, prev, "deal.rotation")
                dealer = E.redeal(dealer) if rec.redeal == "bid.total" else E.next(dealer)
                continue
            bad_t = self.tricks(rec, where)
            if bad_t is not None:
                return bad_t
            deltas = self.deltas(rec)
            if rec.deltas != deltas:
                return bad("score changes", rec.deltas, deltas, cite(r, "score.individual", "score.standard"))
            prev = [p + d for p, d in zip(prev, deltas, strict=True)]
            if rec.scores_after != prev:
                return bad("scores carried", rec.scores_after, prev, cite(r, "score.individual", "score.standard"))
            out = self.outcome(rec, target)
            if (rec.outcome, rec.outcome_rule) != out:
                return bad(f"outcome at target {target}", (rec.outcome, rec.outcome_rule), out,
                           out[1] if out[1] in r.ruleset.clauses else "win.target")
            if out[0] is not None:
                new_target = E.target(games + 1)
                if new_target != target:  # play on: the next game has the raised target
                    games += 1
                    target = E.target(games)
                else:
                    decided = True
            dealer = E.next(dealer) if not decided else dealer
        if m.is_over() != decided:
            return Mismatch(self.fn, f"{name}: match over after {len(m.records)} deals", repr(m.is_over()),
                            repr(decided), "win.target", MOD)
        return None

    def tricks(self, rec: HandRecord, where: str) -> Mismatch | None:
        enc, r = self.enc, self.enc.r
        E = _evals(enc)
        holder = rec.contract[0] if rec.contract is not None else -1
        leader = E.lead(rec.dealer, max(holder, 0))
        trump = 4 if rec.trump is None or rec.trump < 0 else rec.trump
        won = [0, 0, 0, 0]
        if len(rec.tricks) != 13:
            return Mismatch(self.fn, f"{where}: tricks played", str(len(rec.tricks)), "13", "hand.tricks", MOD)
        for j, t in enumerate(rec.tricks):
            self.points += 1
            if t.leader != leader:
                return Mismatch(self.fn, f"{where}, trick {j}: leader", str(t.leader), str(leader),
                                "play.lead" if j == 0 else "play.next-lead", MOD)
            idx = E.winner(t.cards, trump)
            seat = (t.leader + r.step * idx) % 4
            if t.winner != seat:
                return Mismatch(self.fn, f"{where}, trick {j} ({' '.join(card_text(c) for c in t.cards)}, trump "
                                f"{trump}, led by seat {t.leader}): winner seat", str(t.winner), str(seat),
                                "play.winner", MOD)
            won[seat] += 1
            leader = seat
        if rec.tricks_won != won:
            return Mismatch(self.fn, f"{where}: tricks won", str(rec.tricks_won), str(won), "play.winner", MOD)
        return None

    def deltas(self, rec: HandRecord) -> list[int]:
        E = _evals(self.enc)
        if self.enc.r.individual:
            bids = _bids(rec)
            return [E.ind_delta(bids[s], rec.tricks_won[s]) for s in range(4)]
        assert rec.contract is not None
        holder, n, _ = rec.contract
        bt = holder & 1
        d0, d1 = E.team_deltas(n, bt, rec.tricks_won[bt] + rec.tricks_won[bt + 2])
        return [d0, d1, d0, d1]

    def outcome(self, rec: HandRecord, target: int) -> tuple[int | None, str]:
        E = _evals(self.enc)
        s = rec.scores_after
        if self.enc.r.individual:
            w, c = E.ind_outcome(*s, *_bids(rec), *rec.tricks_won)
        else:
            assert rec.contract is not None
            holder, n, _ = rec.contract
            bt = holder & 1
            b13 = E.bid13(n, rec.tricks_won[bt] + rec.tricks_won[bt + 2])
            w, c = E.auc_outcome(s[0], s[1], target, bt, b13)
        return (None if w < 0 else w), c


def _bids(rec: HandRecord) -> list[int]:
    bids = [0, 0, 0, 0]
    for seat, b in rec.bids:
        bids[seat] = b.n if b.n is not None else 0
    return bids


class _Evals:
    """The encoding terms the replay reads, each as a memoised evaluator."""

    def __init__(self, enc: Encoding) -> None:
        i = [z3.Int(f"m{k}") for k in range(12)]
        b = [z3.BitVec(f"mc{k}", 6) for k in range(5)]
        d2, h2 = z3.BitVec("md", 2), z3.BitVec("mh", 2)
        self._next = Ev(i[:1], [enc.next_seat(i[0])])
        self._redeal = Ev(i[:1], [enc.dealer_after_redeal(i[0])])
        self._lead = Ev([d2, h2], [enc.first_leader(d2, h2)])
        self._winner = Ev(b, [enc.trick_winner(b[:4], b[4])])
        if enc.r.individual:
            self._ind = Ev(i[:2], [enc.individual_delta(i[0], i[1])])
            o = enc.individual_outcome(i[:4], i[4:8], i[8:12])
            self._io = Ev(i, [o.winner(), o.clause])
        else:
            self._team = Ev(i[:3], list(enc.team_deltas(i[0], i[1], i[2])))
            self._b13 = Ev(i[:2], [enc.bid13_wins(i[0], i[1])])
            bt, b13 = z3.Int("mbt"), z3.Bool("mb13")
            a = enc.auction_outcome(i[:2], i[2], bt, b13)
            self._ao = Ev([*i[:3], bt, b13], [a.winner(), a.clause])
        g = z3.Int("mg")
        self._target = Ev([g], [enc.target_in_force(g)])

    def next(self, s: int) -> int:
        return int(self._next(s)[0])

    def redeal(self, s: int) -> int:
        return int(self._redeal(s)[0])

    def lead(self, dealer: int, holder: int) -> int:
        return int(self._lead(dealer, holder)[0])

    def winner(self, cards: Sequence[int], trump: int) -> int:
        return int(self._winner(*cards, trump)[0])

    def ind_delta(self, bid: int, tricks: int) -> int:
        return int(self._ind(bid, tricks)[0])

    def team_deltas(self, n: int, bt: int, tt: int) -> tuple[int, int]:
        d0, d1 = self._team(n, bt, tt)
        return int(d0), int(d1)

    def bid13(self, n: int, tt: int) -> bool:
        return bool(self._b13(n, tt)[0])

    def ind_outcome(self, *v: int) -> tuple[int, str]:
        w, c = self._io(*v)
        return int(w), str(c)

    def auc_outcome(self, s0: int, s1: int, target: int, bt: int, b13: bool) -> tuple[int, str]:
        w, c = self._ao(s0, s1, target, bt, b13)
        return int(w), str(c)

    def target(self, games: int) -> int:
        return int(self._target(games)[0])


_EVALS: dict[int, tuple[Encoding, _Evals]] = {}


def _evals(enc: Encoding) -> _Evals:
    hit = _EVALS.get(id(enc))
    if hit is None or hit[0] is not enc:
        hit = (enc, _Evals(enc))
        _EVALS.clear()
        _EVALS[id(enc)] = hit
    return hit[1]


def match_parts(enc: Encoding, n: int = 3) -> tuple[list[Any], list[Any]]:
    return [], [Replay(enc, n)]


def replay_rules(r: Rules, n: int, seed: int = 0) -> Mismatch | None:
    """``n`` seeded matches under ``r`` (for the larger run in the tests)."""
    return Replay(Encoding(r), n, seed).run()
