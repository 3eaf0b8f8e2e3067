"""Whole matches through :class:`tarneeb.Match` (random legal actions, chance deals), invariants after every action.

The trick winner, the score changes and the outcome are compared with the Z3
encodings' ``eval_*`` answers; the auction calls with the encoded auction
(``call_ok``); cards are counted after every action.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

pytest.importorskip("z3")

from tarneeb import Match  # noqa: E402
from tarneeb.core import rules as R  # noqa: E402
from tarneeb.core.actions import Deal  # noqa: E402
from tarneeb.core.match import Phase  # noqa: E402
from tarneeb.core.spec import Rules, load_rules, rulesets  # noqa: E402
from tarneeb_proofs.encode import Encoding  # noqa: E402

FULL = (1 << 52) - 1
CONFIGS: list[tuple[str, tuple[tuple[str, object], ...]]] = [(rid, ()) for rid in rulesets()] + [
    ("classic", (("auction", "continuous"), ("egyptian", True), ("must_trump", True), ("direction", "cw"))),
    ("classic", (("all_pass", "dealer-forced"), ("kaboot", "double"), ("bid13", "26"), ("scoring", "bid-only"))),
    ("bsfyi-41", (("rising_min_bid", True), ("made_bid_wins", 10), ("trump_source", "revealed-suit"))),
    ("tarneeb-400", (("target", 61),)),
]


@cache
def config(i: int) -> tuple[Rules, Encoding]:
    rid, opts = CONFIGS[i]
    r = load_rules(rid, dict(opts))
    return r, Encoding(r)


class MatchMachine(RuleBasedStateMachine):
    """One match per run; ``act`` applies a random legal action (or a random deal at a chance node)."""

    def __init__(self) -> None:
        super().__init__()
        self.m: Match | None = None
        self.trick_checks = 0

    @initialize(i=st.integers(0, len(CONFIGS) - 1), dealer=st.integers(0, 3),
                near=st.booleans(), seed=st.integers(0, 2**32 - 1))
    def start(self, i: int, dealer: int, near: bool, seed: int) -> None:
        r, self.enc = config(i)
        self.r = r
        self.rng = random.Random(seed)
        scores = None
        if near:  # part-way, close to the target, so that outcomes happen within a few hands
            if r.individual:
                scores = [self.rng.randint(r.target - 8, r.target - 1) for _ in range(4)]
            else:
                a, b = self.rng.randint(r.target - 12, r.target - 1), self.rng.randint(r.target - 12, r.target - 1)
                scores = [a, b, a, b]
        self.m = Match(r, dealer, scores)
        self.prev_scores = list(self.m.scores)
        self.prev_records = 0

    @precondition(lambda self: self.m is not None and not self.m.is_over())
    @rule(k=st.integers(1, 60))
    def act(self, k: int) -> None:
        """Apply ``k`` actions (one Hypothesis step covers part of a hand), checking after each one."""
        m = self.m
        assert m is not None
        for _ in range(k):
            if m.is_over():
                return
            if m.phase is Phase.DEAL:
                deck = list(range(52))
                self.rng.shuffle(deck)
                m.apply(Deal(tuple(deck)))
            else:
                legal = list(m.legal_actions())
                assert legal, f"stuck: no legal action in {m.state_text()}"
                if m.phase is Phase.BIDDING and not self.r.individual:
                    self.check_auction(legal)
                a = self.rng.choice(legal)
                if m.phase is Phase.PLAY:
                    self.check_play(a)
                m.apply(a)
            self.check_after()

    # ------------------------------------------------------------ checks
    def check_auction(self, legal: list[Any]) -> None:
        """The engine's legal calls are the encoding's (``call_ok`` on the concrete auction state)."""
        import z3

        from tarneeb_proofs.encode import AuctionState, evaluate

        m = self.m
        assert m is not None
        top = m.auction_top
        key = -1 if top is None or top.n is None else self.enc.key(z3.IntVal(top.n), z3.IntVal(top.strain or 0))
        st_ = AuctionState(z3.BoolVal(False), z3.IntVal(-1) if key == -1 else key, z3.IntVal(m.auction_holder),
                           [z3.BoolVal(a) for a in m.active], z3.IntVal(m.passes), z3.IntVal(m.spoken),
                           z3.IntVal(m.to_move))
        strains = range(5) if self.r.egyptian else (None,)
        calls = [(0, None)] + [(n, s) for n in range(self.r.min_bid, 14) for s in strains]
        oks = evaluate([], [self.enc.call_ok(st_, z3.IntVal(m.dealer), z3.IntVal(n), z3.IntVal(s or 0))
                            for n, s in calls])
        enc_legal = {c for c, v in zip(calls, oks, strict=True) if z3.is_true(v)}
        eng_legal = {(0 if b.n is None else b.n, b.strain) for b in legal}
        assert eng_legal == enc_legal

    def check_play(self, a: object) -> None:
        m = self.m
        assert m is not None
        hand = m.hands[m.to_move]
        mask = m.legal_play_mask()
        assert mask != 0 and mask & ~hand == 0
        if self.rng.random() < 0.05:  # a sample: the encoding's legal set (about 60 ms per call)
            assert self.enc.eval_legal_mask(hand, m.led, m.trump) == mask

    def check_after(self) -> None:
        m = self.m
        assert m is not None
        rec = m.record
        # cards conserved: hands disjoint, and with the cards played this hand they are the deck
        if m.phase is Phase.PLAY and rec is not None:
            played = 0
            for t in rec.tricks:
                assert len(t.cards) == 4
                seats = [(t.leader + self.r.step * i) % 4 for i in range(4)]
                assert len(set(seats)) == 4  # one card per seat
                for c in t.cards:
                    played |= 1 << c
            for c in m.trick:
                played |= 1 << c
            held = 0
            for h in m.hands:
                assert held & h == 0
                held |= h
            assert held & played == 0 and held | played == FULL
            assert sum(h.bit_count() for h in m.hands) == 52 - 4 * len(rec.tricks) - len(m.trick)
            assert sum(m.tricks_won) == len(rec.tricks)
            if rec.tricks and len(rec.tricks) != getattr(self, "_seen_tricks", -1):
                self._seen_tricks = len(rec.tricks)
                t = rec.tricks[-1]
                if self.trick_checks < 3 or self.rng.random() < 0.1:  # a sample of tricks
                    self.trick_checks += 1
                    idx = self.enc.eval_trick_winner(t.cards, m.trump)
                    assert t.winner == (t.leader + self.r.step * idx) % 4
        # scores change only when a hand is scored, and by the table (the encoding's)
        if len(m.records) > self.prev_records:
            for hr in m.records[self.prev_records:]:
                if hr.redeal is not None:
                    assert hr.deltas == [0, 0, 0, 0] and not hr.tricks
                    continue
                assert len(hr.tricks) == 13 and sum(hr.tricks_won) == 13
                self.check_scored(hr)
            self.prev_records = len(m.records)
        else:
            assert m.scores == self.prev_scores
        self.prev_scores = list(m.scores)
        # the outcome: over with exactly one winning team, or play on
        if m.is_over():
            assert m.winner in (0, 1)
        else:
            assert m.winner is None

    def check_scored(self, hr: object) -> None:
        from tarneeb.core.match import HandRecord

        assert isinstance(hr, HandRecord)
        m, r, e = self.m, self.r, self.enc
        assert m is not None
        before = [a - d for a, d in zip(hr.scores_after, hr.deltas, strict=True)]
        if r.individual:
            bids = [0, 0, 0, 0]
            for seat, b in hr.bids:
                assert b.n is not None
                bids[seat] = b.n
            assert hr.deltas == [e.eval_individual_delta(bids[s], hr.tricks_won[s]) for s in range(4)]
            assert e.eval_individual_outcome(hr.scores_after, bids, hr.tricks_won) == (hr.outcome, hr.outcome_rule)
        else:
            assert hr.contract is not None
            holder, n, _ = hr.contract
            bt = holder & 1
            tt = (hr.tricks_won[0] + hr.tricks_won[2], hr.tricks_won[1] + hr.tricks_won[3])
            d0, d1 = e.eval_team_deltas(n, bt, tt)
            assert hr.deltas == [d0, d1, d0, d1]
            b13 = e.eval_bid13_wins(n, tt[bt])
            target = R.target_in_force(r, len(m.games) - (1 if hr.outcome is not None and not m.is_over() else 0)
                                       - (1 if m.is_over() else 0))
            assert e.eval_auction_outcome((hr.scores_after[0], hr.scores_after[1]), target, bt, b13) == \
                (hr.outcome, hr.outcome_rule)
        assert before == list(self.prev_scores)

    @precondition(lambda self: self.m is not None and self.m.is_over())
    @rule()
    def finished(self) -> None:
        """A decided match accepts nothing more (keeps the machine runnable once the match is over)."""
        assert self.m is not None and self.m.legal_actions() == [] and self.m.winner in (0, 1)

    @invariant()
    def outcome_is_one_of_three(self) -> None:
        if self.m is not None:
            assert (self.m.winner is not None) == self.m.is_over()


MatchMachine.TestCase.settings = settings(max_examples=12, stateful_step_count=30, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow],
                                          phases=[HPhase.explicit, HPhase.reuse, HPhase.generate])
TestMatchMachine = MatchMachine.TestCase
