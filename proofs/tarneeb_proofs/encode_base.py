"""The bottom layer of :class:`tarneeb_proofs.encode.Encoding`: what every rule's encoding reads.

:class:`EncodingBase` holds one configuration: the resolved :class:`tarneeb.core.spec.Rules`, the one deliberately
wrong rule a check may switch on (:data:`MUTANTS`), the turn order, the parameters a check may make symbolic
(``target``, ``play_on_raise``), and the cache of the compiled evaluators behind the ``eval_*`` mirrors.

The layers above it, lowest first: :class:`tarneeb_proofs.encode_auction.AuctionEncoding` (the team auction) and
:class:`tarneeb_proofs.encode.Encoding` (every other rule). Build an ``Encoding``, not these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from tarneeb.core.spec import Rules

from .evaluate import Ev

Term = Any  # a z3 expression (z3 ships without type information)

# Deliberately wrong rules. Each proof family lists the mutants it must catch.
MUTANTS: dict[str, str] = {
    "turn-step-2": "the turn passes two seats on instead of one (a seat plays twice in a trick)",
    "card-from-anywhere": "a played card need not come from the player's own hand",
    "follow-not-enforced": "follow-suit is not enforced: any card of the hand may be played",
    "must-trump-ignored": "a void player may discard even when holding a trump, under must_trump",
    "winner-ignores-trump": "the trick goes to the highest card of the led suit even when trump was played",
    "winner-highest-rank": "the highest rank wins the trick, whatever its suit",
    "excluded-bid-allowed": "a bid the ruleset excludes (6 in card-kings-41) is allowed",
    "rising-min-ignored": "the rising minimum bid is not applied",
    "bid-below-min": "a bid one below the minimum is allowed",
    "redeal-threshold-plus-1": "the hand is thrown in unless the bids reach one more than the ruleset's total",
    "redeal-dealer-swapped": "after a thrown-in hand the other redeal rule picks the dealer (same <-> next)",
    "bids-capped-at-2": "no bid above 2 is allowed",
    "extra-tricks-count": "each trick above the bid earns one more point",
    "failed-bid-scores": "a failed bid earns its value instead of losing it",
    "defenders-score-on-made": "the defenders score their tricks even when the contract is made",
    "bid13-26-swapped": "under bid13=26 a made 13 costs 16 and a failed one earns 26",
    "partner-geq-0": "a team qualifies with the partner at zero (>= 0 instead of > 0)",
    "tie-to-team-0": "when both teams qualify, team 0 wins",
    "tie-to-defenders": "when both teams reach the target, the defending team wins",
    "play-on-not-raised": "after the first game the target stays where it was",
    "passed-may-reenter": "in the continuous auction a player who passed may bid again",
    "anyone-may-match": "any player may match the top bid, not only the dealer",
    "dealer-may-pass-forced": "under dealer-forced the dealer may still pass after three passes",
    "strain-before-tricks": "Egyptian bids compare the strain before the number of tricks",
    "dealer-match-ignored": "the dealer may not match the top bid (no dealer's privilege)",
    "discard-forbidden": "a player void in the led suit who holds a trump must play one (must-trump though it is off)",
    "must-trump-highest": "under must_trump a void player must play their highest trump",
    "lead-trump-forbidden": "a trump may not be led while the leader holds a card of another suit",
    "top-bid-refused": "the highest bid of the range (13) is refused",
    "rising-min-early": "the rising minimum bid applies from one point below its threshold",
    "opener-must-bid": "the first seat to speak may not pass",
    "same-level-strain-refused": "an Egyptian bid must raise the number of tricks (a higher strain at the same level is refused)",
    "lead-by-dealer": "the dealer leads the first trick",
    "next-lead-after-winner": "after a trick the seat after its winner leads the next one",
}


class EncodingBase:
    """One configuration of the rules, as every layer of :class:`tarneeb_proofs.encode.Encoding` reads it."""

    def __init__(self, rules: Rules, mutant: str | None = None) -> None:
        if mutant is not None and mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {mutant!r}")
        self.r = rules
        self.mutant = mutant
        self.step = 2 if mutant == "turn-step-2" else rules.step
        # Symbolic-capable parameters (a check may replace them by a z3 variable): read from the rules when first
        # asked (a proof that never asks has not read them: the engine family's memo keys a proof by what it read)
        self._target: Term | None = None
        self._play_on_raise: Term | None = None
        self._suits: dict[int, tuple[Term, Term]] = {}  # AST id -> (card, suit_of(card)): built once per card
        self._evs: dict[str, tuple[Ev, Term, Term]] = {}  # eval_*'s evaluators, with the parameters they were built at

    @property
    def target(self) -> Term:
        """win.target: the target (a term; a check may set another)."""
        if self._target is None:
            self._target = z3.IntVal(self.r.target)
        return self._target

    @target.setter
    def target(self, t: Term) -> None:
        self._target = t

    @property
    def play_on_raise(self) -> Term:
        """win.play-on: how much the target rises (a term; a check may set another)."""
        if self._play_on_raise is None:
            self._play_on_raise = z3.IntVal(self.r.play_on_raise)
        return self._play_on_raise

    @play_on_raise.setter
    def play_on_raise(self, t: Term) -> None:
        self._play_on_raise = t

    def m(self, name: str) -> bool:
        """Whether the deliberately wrong rule ``name`` (of :data:`MUTANTS`) is switched on."""
        return self.mutant == name

    def next_seat(self, seat: Term) -> Term:
        """play.direction, on integer seats (on 2-bit seats: :meth:`tarneeb_proofs.encode.Encoding.next_seat2`)."""
        return (seat + self.step) % 4

    def _ev(self, name: str, build: Callable[[], tuple[list[Term], list[Term]]]) -> Ev:
        """The evaluator of one term set (inputs, outputs), built once per encoding (and per value of the
        parameters a check may make symbolic) and compiled once per term (:class:`tarneeb_proofs.evaluate.Ev`)."""
        hit = self._evs.get(name)
        if hit is None or hit[1] is not self.target or hit[2] is not self.play_on_raise:
            xs, outs = build()
            hit = self._evs[name] = (Ev(xs, outs), self.target, self.play_on_raise)
        return hit[0]
