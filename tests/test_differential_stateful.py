"""Whole matches through :class:`tarneeb.Match` against the Z3 encodings, at every action.

A shadow of the match is kept from the encodings alone (``Encoding.eval_*``): the dealer, the
seat to move, the auction state (``auction_start`` / ``auction_step``), the hands after each trick and the
trick winner (``play_trick``), the tricks won, the scores (``team_deltas`` / ``individual_delta`` carried
from hand to hand), the outcome, the target in force (``target_in_force``) and whether the match is over.
At every action the engine's whole set of legal actions is compared with the encoding's (``legal_mask``,
``legal_bids``, ``call_ok``, ``trump_ok``) and every transition with the shadow: who moves next, the
trick winner and the next leader, the first leader (``first_leader``), the dealer after a cancelled deal
(``dealer_after_redeal``; ``next_seat`` after an all-pass or weak-hand redeal) or a played one, the
scores carried, the target in force and the end of the match.

Matches start from boundary scores (``strategies.seat_scores`` / ``team_score_pair``: at the target
+-1, a partner at 0 +-1, equal tie keys) so that outcomes, ties and play-on happen within a few hands;
the 4th individual bid is steered to ``total_min`` -1/0/+1 and auction calls to a pass, the top bid
matched or one above.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

pytest.importorskip("z3")

from tests.strategies import CALL_KINDS, examples, pick_call, seat_scores, team_score_pair  # noqa: E402

from tarneeb import Match  # noqa: E402
from tarneeb.core.actions import Bid, Deal, NameTrump, Play  # noqa: E402
from tarneeb.core.match import Phase  # noqa: E402
from tarneeb.core.spec import Rules, load_rules, rulesets  # noqa: E402
from tarneeb_proofs.encode import Encoding  # noqa: E402

CONFIGS: list[tuple[str, tuple[tuple[str, object], ...]]] = [(rid, ()) for rid in rulesets()] + [
    ("classic", (("auction", "continuous"), ("egyptian", True), ("must_trump", True), ("direction", "cw"))),
    ("classic", (("all_pass", "dealer-forced"), ("kaboot", "double"), ("bid13", "26"), ("scoring", "bid-only"))),
    ("classic", (("weak_redeal", True), ("min_bid", 8), ("play_on", 10), ("target", 31), ("kaboot", "26"))),
    ("classic", (("auction", "continuous"), ("all_pass", "dealer-forced"), ("bid13", "normal"), ("play_on", 1),
                 ("kaboot", "none"), ("egyptian", True))),
    ("bsfyi-41", (("rising_min_bid", True), ("made_bid_wins", 10), ("trump_source", "revealed-suit"),
                  ("bid_total_min", 13))),
    ("bsfyi-41", (("bid_total_min", 12),)),
    ("tarneeb-400", (("target", 61),)),
]
LOW = [c for c in range(52) if c % 13 < 9]  # no jack, queen, king or ace


@cache
def config(i: int) -> tuple[Rules, Encoding]:
    rid, opts = CONFIGS[i]
    rules = load_rules(rid, dict(opts))
    return rules, Encoding(rules)


class MatchMachine(RuleBasedStateMachine):
    """One match per run; ``act`` applies random legal actions (steered to the edges) and checks each one."""

    def __init__(self) -> None:
        super().__init__()
        self.m: Match | None = None

    @initialize(i=st.integers(0, len(CONFIGS) - 1), dealer=st.integers(0, 3), data=st.data(),
                seed=st.integers(0, 2**32 - 1))
    def start(self, i: int, dealer: int, data: st.DataObject, seed: int) -> None:
        r, f = config(i)
        self.r, self.f = r, f
        self.rng = random.Random(seed)
        start = data.draw(st.sampled_from(["zero", "edge", "edge", "edge"]))
        if start == "zero":
            scores = [0, 0, 0, 0]
        elif r.individual:
            scores = data.draw(seat_scores(r))
        else:
            a, b = data.draw(team_score_pair(r, r.target))
            scores = [a, b, a, b]
        self.m = Match(r, dealer, scores)
        # the shadow, from the encodings only
        self.dealer, self.scores = dealer, list(scores)
        self.games, self.target, self.over = 0, f.eval_target_in_force(0), False
        self.winner: int | None = None

    # ------------------------------------------------------------ one action
    @rule(k=st.integers(1, 80))
    def act(self, k: int) -> None:
        """Apply ``k`` actions (one step covers part of a hand); a decided match accepts nothing more."""
        m = self.m
        assert m is not None
        for _ in range(k):
            if m.is_over():
                assert m.legal_actions() == [] and m.winner == self.winner
                return
            {Phase.DEAL: self.deal, Phase.BIDDING: self.bid if self.r.individual else self.call,
             Phase.TRUMP_CHOICE: self.name_trump, Phase.PLAY: self.play}[m.phase]()

    def deal(self) -> None:
        m, f, r = self.m, self.f, self.r
        assert m is not None
        assert (m.dealer, m.scores, m.target, len(m.games)) == (self.dealer, self.scores, self.target, self.games)
        assert m.legal_actions() == []
        deck = list(range(52))
        self.rng.shuffle(deck)
        self.strong = -1
        if r.weak_redeal and self.rng.random() < 0.2:  # a weak hand for the seat dealt the 1st, 5th, ... card
            low = self.rng.sample(LOW, 13)
            rest = [c for c in deck if c not in low]
            deck = [low[i // 4] if i % 4 == 0 else rest[i - i // 4 - 1] for i in range(52)]
        elif self.rng.random() < 0.15:  # one team holds the 26 highest cards and plays high: kaboot is likely
            self.strong = self.rng.randint(0, 1)
            by_rank = sorted(deck, key=lambda c: -(c % 13))
            high, low_ = by_rank[:26], by_rank[26:]
            seat_of = [(self.dealer + r.step * (i % 4 + 1)) % 4 for i in range(52)]
            deck = [high.pop() if seat_of[i] % 2 == self.strong else low_.pop() for i in range(52)]
        m.apply(Deal(tuple(deck)))
        rec = m.records[-1] if m.phase is Phase.DEAL else m.record
        assert rec is not None
        if rec.redeal is not None:  # deal.weak-redeal: the next seat deals (ambiguity weak-hand)
            assert rec.redeal == "deal.weak-redeal" and r.weak_redeal
            self.redealt(f.eval_next_seat(self.dealer))
            return
        assert m.phase is Phase.BIDDING
        if r.trump_source.startswith("revealed"):
            assert m.trump == f.eval_trump_from_reveal(deck[51])
        elif r.trump_source == "fixed":
            assert f.eval_trump_ok(m.trump)
        self.hands = list(m.hands)
        self.bids, self.tricks_won = [0, 0, 0, 0], [0, 0, 0, 0]
        self.cards: list[int] = []
        self.holder, self.contract = 0, 0
        self.steer = self.rng.random() < 0.6
        self.mode = self.rng.choice(["pass", "edge", "edge", "free"])
        if r.individual:
            self.seat = f.eval_next_seat(self.dealer)
        else:
            self.auc = f.eval_auction_start(self.dealer)
            self.seat = self.auc[-1]
        assert m.to_move == self.seat

    def redealt(self, dealer: int) -> None:
        m = self.m
        assert m is not None
        event(f"redeal {m.records[-1].redeal}")
        self.dealer = dealer
        assert m.phase is Phase.DEAL and m.dealer == dealer and m.scores == self.scores and m.records[-1].deltas == [0] * 4

    def bid(self) -> None:
        """bid.range / bid.rising-min (legal bids), bid.total (played or redealt), redeal.dealer, play.lead."""
        m, f, r = self.m, self.f, self.r
        assert m is not None
        seat = self.seat
        legal = [a.n for a in m.legal_actions() if isinstance(a, Bid)]
        assert len(legal) == len(m.legal_actions())
        assert legal == f.eval_legal_bids(self.scores[seat])
        spoken = sum(1 for b in self.bids if b)
        n = self.rng.choice(legal)
        if self.steer:  # towards a total of total_min -1, 0 or +1: low bids first, then the one that lands there
            aim = r.total_min + self.rng.randint(-1, 1) - sum(self.bids)
            fit = [b for b in legal if b is not None and b <= aim - 2 * (3 - spoken)]
            if spoken == 3:
                fit = [b for b in legal if b == aim]
            if fit:
                n = self.rng.choice(fit)
        assert n is not None
        m.apply(Bid(n))
        self.bids[seat] = n
        if spoken < 3:
            self.seat = f.eval_next_seat(seat)
            assert m.phase is Phase.BIDDING and m.to_move == self.seat
            return
        event(f"bid total - total_min = {max(-2, min(2, sum(self.bids) - r.total_min))}")
        if f.eval_hand_played(self.bids, m.scores):
            self.start_play(f.eval_first_leader(self.dealer, 0))
        else:
            assert m.records[-1].redeal == "bid.total"
            self.redealt(f.eval_dealer_after_redeal(self.dealer))

    def call(self) -> None:
        """auction.*: the legal calls (call_ok), the next seat, the end, the contract, the all-pass redeal."""
        m, f, r = self.m, self.f, self.r
        assert m is not None
        ended, top, holder = self.auc[0], self.auc[1], self.auc[2]
        assert not ended and m.to_move == self.auc[-1]
        strains = range(5) if r.egyptian else (None,)
        calls = [(None, None)] + [(n, s) for n in range(r.min_bid, 14) for s in strains]
        legal = [(a.n, a.strain) for a in m.legal_actions() if isinstance(a, Bid)]
        assert len(legal) == len(m.legal_actions())
        assert legal == [c for c in calls if f.eval_call_ok(self.auc, self.dealer, c[0] or 0, c[1] or 0)]
        kinds = {"pass": ("pass",), "edge": ("match", "one-above", "pass", "thirteen")}.get(self.mode, CALL_KINDS)
        n, s = pick_call(self.rng.choice(kinds), self.rng.randrange(10**6), legal, top)
        m.apply(Bid(n, s))
        self.auc = f.eval_auction_step(self.auc, n or 0, s or 0)
        ended, top, holder = self.auc[0], self.auc[1], self.auc[2]
        if not ended:
            assert m.phase is Phase.BIDDING and m.to_move == self.auc[-1]
        elif top < 0:  # auction.all-pass: the next seat deals
            assert m.records[-1].redeal == "auction.all-pass"
            self.redealt(f.eval_next_seat(self.dealer))
        else:
            rec = m.record
            assert rec is not None and rec.contract is not None
            assert rec.contract[0] == holder and f.eval_key(rec.contract[1], rec.contract[2] or 0) == top
            self.holder, self.contract = holder, rec.contract[1]
            if r.egyptian:
                assert m.trump == top % 5
                self.start_play(f.eval_first_leader(self.dealer, holder))
            else:
                assert m.phase is Phase.TRUMP_CHOICE and m.to_move == holder

    def name_trump(self) -> None:
        m, f = self.m, self.f
        assert m is not None
        legal = [a.suit for a in m.legal_actions() if isinstance(a, NameTrump)]
        assert legal == [t for t in range(5) if f.eval_trump_ok(t)]
        t = self.rng.choice(legal)
        m.apply(NameTrump(t))
        assert m.trump == t
        self.start_play(f.eval_first_leader(self.dealer, self.holder))

    def start_play(self, leader: int) -> None:
        m = self.m
        assert m is not None
        assert m.phase is Phase.PLAY and m.to_move == leader
        self.leader = self.seat = leader
        self.cards = []

    def play(self) -> None:
        """play.follow / must-trump (legal cards), play.direction, play.winner, the next leader, the hands."""
        m, f = self.m, self.f
        assert m is not None
        seat = self.seat
        assert m.to_move == seat
        led = self.cards[0] // 13 if self.cards else -1
        mask = 0
        for a in m.legal_actions():
            assert isinstance(a, Play)
            mask |= 1 << a.card
        assert mask == f.eval_legal_mask(self.hands[seat], led, m.trump)
        cards = [c for c in range(52) if mask >> c & 1]
        card = self.rng.choice(cards)
        if self.strong >= 0:  # the strong team plays its highest card, the other its lowest
            card = max(cards, key=lambda c: c % 13) if seat % 2 == self.strong else min(cards, key=lambda c: c % 13)
        m.apply(Play(card))
        self.cards.append(card)
        if len(self.cards) < 4:
            self.seat = f.eval_next_seat(seat)
            assert m.to_move == self.seat
            return
        ok, after, seats, win = f.eval_play_trick(self.hands, self.leader, m.trump, self.cards)
        assert ok
        rec = m.records[-1] if m.record is None else m.record
        t = rec.tricks[-1]
        assert (t.leader, t.cards, t.winner) == (self.leader, self.cards, win)
        assert after == m.hands
        self.hands = after
        self.tricks_won[win] += 1
        if len(rec.tricks) < 13:
            self.start_play(win)  # the winner leads the next trick
            return
        self.scored(rec.bids, rec.tricks_won, rec.deltas, (rec.outcome, rec.outcome_rule))

    def scored(self, calls: object, tricks_won: list[int], deltas: list[int], outcome: tuple[int | None, str]) -> None:
        """score.*, the outcome, win.play-on (target in force), the end of the match, the next dealer."""
        m, f, r = self.m, self.f, self.r
        assert m is not None
        tw = self.tricks_won
        assert tricks_won == tw and sum(tw) == 13
        if r.individual:
            want = [f.eval_individual_delta(self.bids[s], tw[s]) for s in range(4)]
        else:
            bt = self.holder % 2
            tt = (tw[0] + tw[2], tw[1] + tw[3])
            d0, d1 = f.eval_team_deltas(self.contract, bt, tt)
            want = [d0, d1, d0, d1]
        assert deltas == want
        self.scores = [a + d for a, d in zip(self.scores, want, strict=True)]
        assert m.scores == self.scores
        if r.individual:
            got = f.eval_individual_outcome(self.scores, self.bids, tw)
        else:
            b13 = f.eval_bid13_wins(self.contract, tt[bt])
            got = f.eval_auction_outcome((self.scores[0], self.scores[1]), self.target, bt, b13)
        assert outcome == got
        event(f"outcome {got[1]} {'none' if got[0] is None else 'team'}")
        if max(tw[0] + tw[2], tw[1] + tw[3]) == 13:
            event("kaboot")
        win = got[0]
        if win is not None:
            self.games += 1
            nxt = f.eval_target_in_force(self.games)
            if nxt == self.target:
                self.over, self.winner = True, win
            else:
                event("play-on: target raised")
            self.target = nxt
        assert (m.is_over(), m.winner, m.target) == (self.over, self.winner, self.target)
        if not self.over:
            self.dealer = f.eval_next_seat(self.dealer)
            assert m.phase is Phase.DEAL and m.dealer == self.dealer

    @invariant()
    def outcome_is_one_of_three(self) -> None:
        if self.m is not None:
            assert (self.m.winner is not None) == self.m.is_over()


MatchMachine.TestCase.settings = settings(
    max_examples=examples(), stateful_step_count=8, deadline=None,
    suppress_health_check=[HealthCheck.too_slow], phases=[HPhase.explicit, HPhase.reuse, HPhase.generate, HPhase.shrink])
TestMatchMachine = MatchMachine.TestCase
