"""How much the engine's play could gain from inlining alone: an upper bound on micro-optimising its hot path.

Not part of the package and never a source of rules: it exists to measure. It patches, in this process only,
:meth:`tarneeb.Match.legal_actions` and :meth:`tarneeb.Match.apply` for the play phase (52 of the 56 to 58
decisions of a hand) with versions that call no other function of ours: the follow-suit and must-trump rule written
into ``legal_actions`` instead of a call of :func:`tarneeb.core.rules.legal_play_mask`, and the body of
``Match._phase_play`` written into ``apply`` (the winner still by :func:`tarneeb.core.rules.trick_winner`, once
a trick). That is the most any rewriting of the play path could save without a different interpreter: every
rule call and every method call on the way is gone, the rest is the same state kept the same way. The other
phases are untouched.

Both variants run ``bench/fair.py``'s loop (:func:`fair.run_ours`, warmed up) in alternating bursts in the same
process, CPU time; the ratio printed is inlined / as shipped in hands per CPU second. ``--check N`` first
compares N seeded matches per ruleset under both, deal by deal (the tricks won and scores of every deal, and the
action history), and stops at the first difference.

    python bench/inline_limit.py [--seconds 4] [--rounds 8] [--rulesets classic ...] [--check 50]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from tarneeb import Match, Phase, load_rules
from tarneeb.core import match as core_match
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Action, Play
from tarneeb.core.cards import CARD_BITS, SUIT_MASKS

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
fair: Any = importlib.import_module("fair")
minimal: Any = importlib.import_module("minimal")


@contextlib.contextmanager
def inlined() -> Iterator[None]:
    """Match's play-phase ``legal_actions`` and ``apply`` with nothing called on the way (see the docstring)."""
    play_phase = Phase.PLAY
    shipped_apply, shipped_legal = Match.apply, Match.legal_actions
    by_suit, shift, other = core_match._PLAYS_OF_SUIT, core_match._SHIFT, core_match._OTHER_SUITS
    p0, p1, p2, p3 = core_match._P0, core_match._P1, core_match._P2, core_match._P3
    winner_of = core_rules.trick_winner

    def legal_actions(self: Match) -> Sequence[Action]:
        if self.phase is not play_phase:
            return shipped_legal(self)
        led = self.led
        hand = self.hands[self.to_move]
        mask = hand
        if led >= 0:
            follow = hand & SUIT_MASKS[led]
            if follow:
                mask = follow
            elif self.rules.must_trump and 0 <= self.trump < 4 and hand & SUIT_MASKS[self.trump]:
                mask = hand & SUIT_MASKS[self.trump]
        self._mhand = hand
        self._mmask = mask
        if led >= 0 and not mask & other[led]:
            return by_suit[led][mask >> shift[led]]
        return p0[mask & 0x1FFF] + p1[(mask >> 13) & 0x1FFF] + p2[(mask >> 26) & 0x1FFF] + p3[mask >> 39]

    def apply(self: Match, action: Action) -> None:
        if self.phase is not play_phase or type(action) is not Play:
            shipped_apply(self, action)
            return
        card = action.card
        seat = self.to_move
        hands = self.hands
        hand = hands[seat]
        if hand != self._mhand:  # not asked for the legal actions first: the shipped path, with its checks
            shipped_apply(self, action)
            return
        self._mhand = -1
        if not (self._mmask >> card) & 1:
            shipped_apply(self, action)  # raises the shipped error
            return
        hands[seat] = hand ^ CARD_BITS[card]
        trick = self.trick
        trick.append(card)
        self.history.append(action)
        n = len(trick)
        if n < 4:
            if n == 1:
                self.led = card // 13
            self.to_move = self._next[seat]
            return
        leader = self.trick_leader
        winner = self._order[leader][winner_of(trick, self.trump)]
        self.tricks_won[winner] += 1
        rec = self.record
        if rec is None:
            raise RuntimeError("a trick with no deal in progress")
        rec.plays += trick
        rec.leaders.append(leader)
        winners = rec.winners
        winners.append(winner)
        trick.clear()
        self.led = -1
        self.trick_leader = winner
        self.to_move = winner
        if len(winners) == 13:
            self._phase_hand_scoring()

    Match.apply, Match.legal_actions = apply, legal_actions  # type: ignore[method-assign]
    try:
        yield
    finally:
        Match.apply, Match.legal_actions = shipped_apply, shipped_legal  # type: ignore[method-assign]


def _played(ruleset: str, seed: int) -> tuple[list[tuple[Any, ...]], list[Action]]:
    """The seeded match of bench/minimal.py's engine_match (fair.py's policy): its deals and its actions."""
    m = minimal.engine_match(load_rules(ruleset), random.Random(seed), fair.MAX_HANDS)
    return [(h.dealer, h.redeal, tuple(h.tricks_won), tuple(h.scores_after)) for h in m.records], list(m.history)


def check(ruleset: str, matches: int) -> None:
    """Raise AssertionError at the first seeded match that the inlined play path plays otherwise."""
    for seed in range(matches):
        shipped = _played(ruleset, seed)
        with inlined():
            if not Match.apply.__qualname__.startswith("inlined."):
                raise RuntimeError("the inlined play path is not in use")
            mine = _played(ruleset, seed)
        assert mine == shipped, f"{ruleset} seed {seed}: the inlined play path plays otherwise"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=4.0, help="per variant and ruleset, in --rounds bursts")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--rulesets", nargs="+", default=fair.RULESETS)
    ap.add_argument("--check", type=int, default=50, metavar="N", help="seeded matches compared first (0: none)")
    a = ap.parse_args(argv)
    print("load average {:.2f} {:.2f} {:.2f} before".format(*os.getloadavg()))
    for rid in a.rulesets:
        if a.check:
            check(rid, a.check)
        fair.warm_up(fair.run_ours, rid)
        with inlined():
            fair.warm_up(fair.run_ours, rid)
        acc: dict[str, dict[str, float]] = {"shipped": {}, "inlined": {}}
        per = a.seconds / a.rounds
        for i in range(a.rounds):
            fair._add(acc["shipped"], fair.run_ours(rid, per, i))
            with inlined():
                fair._add(acc["inlined"], fair.run_ours(rid, per, i))
        rate = {k: v["hands"] / v["seconds"] for k, v in acc.items()}
        print(f"{rid:14s} as shipped {rate['shipped']:8,.0f} hands/s | inlined {rate['inlined']:8,.0f} hands/s | "
              f"ratio {rate['inlined'] / rate['shipped']:.3f}" + (f" (same play on {a.check} matches)" if a.check else ""))
    print("load average {:.2f} {:.2f} {:.2f} after".format(*os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
