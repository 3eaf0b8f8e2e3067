"""The steered driver's base: the expected state of the match, the comparisons of a step (same, accept, refuse) and
the steps every deal shares (waiting for a deal, a cancelled deal)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.core.actions import Play
from tarneeb.core.cards import card_str, hand_str
from tarneeb.core.match import Match
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction

from .expected import Expected
from .kinds import CAUSES, Bad, Counterexample, cite
from .plan import Design, Plan
from .terms import Call


@dataclass
class Tracked:
    """The expected state of the match, from the encoding alone."""

    dealer: int
    scores: list[int]
    target: int
    games: int
    decided: bool = False
    winner: int | None = None
    decided_by: str = ""  # the clause that decided the match (the outcome's)
    after: str = "start"  # what led to the deal awaited: start, played, or a cancellation's clause
    played: int = 0  # deals played in this match so far
    cancelled: int = 0  # deals cancelled so far


def text_cards(cards: Iterable[int]) -> str:
    """The cards as the engine writes them, separated by spaces."""
    return " ".join(card_str(c) for c in cards)


def trick_text(k: int, leader: int, cards: Sequence[int]) -> str:
    """Trick ``k`` (0-based) as a counterexample names it."""
    return f"{k + 1} led by seat {leader}: {text_cards(cards) or 'nothing played yet'}"


def hand_text(seat: int, hand: int) -> str:
    """A seat's hand as a counterexample names it."""
    return f"seat {seat} holds [{hand_str(hand)}]"


class DriverBase:
    """Runs scenarios on the engine, comparing every step with the encoding (:class:`tests.steered.expected.Expected`):
    the comparisons and the steps every deal shares. The steps of a deal are in the mixins of
    :class:`tests.steered.driver.Driver`."""

    rng: random.Random  # set per scenario (Driver.run)
    plan: Plan
    x: Tracked

    def __init__(self, rules: Rules, ex: Expected, label: str, seed: int = 0) -> None:
        self.rules, self.ex, self.label, self.seed = rules, ex, label, seed
        self.cov: Counter[str] = Counter()
        self.points = 0
        self.ctx: dict[str, str | Callable[[], str]] = {}
        self.run_causes: list[str] = []

    # ------------------------------------------------------------ comparisons
    def where(self) -> str:
        """The input of the step under check: the configuration, scenario, start, deal, deck, bids, trick ..."""
        parts = []
        for k, v in self.ctx.items():
            text = v() if callable(v) else v  # the play's context is worded only for a counterexample
            if text:
                parts.append(f"{k} {text}" if k else text)
        return "; ".join(parts)

    def bad(self, transition: str, engine: Any, expected: Any, clause: str) -> Bad:
        """The counterexample of this step (raised by the caller)."""
        return Bad(Counterexample(transition, self.where(), show(engine), show(expected), cite(self.rules, clause)))

    def same(self, transition: str, engine: Any, expected: Any, clause: str) -> None:
        """The engine's value must equal the encoding's (one point compared)."""
        self.points += 1
        if engine != expected:
            raise self.bad(transition, engine, expected, clause)

    def accept(self, m: Match, action: Any, transition: str, clause: str,
               via: Callable[[Any], None] | None = None) -> None:
        """The engine must accept ``action`` (legal by the encoding), through ``via`` if given (as in refuse)."""
        try:
            (via or m.apply)(action)
        except Exception as e:  # noqa: BLE001 - any refusal or crash of the engine is the counterexample
            raise self.bad(transition, f"refuses {action}: {type(e).__name__}: {e}", f"{action} is legal",
                           clause) from None

    def refuse(self, m: Match, action: Any, transition: str, clause: str,
               via: Callable[[Any], None] | None = None) -> None:
        """The engine must refuse ``action`` (illegal by the encoding), citing ``clause`` (the clause the action
        breaks, by the encoding and the spec's clauses), and stay as it was; ``via``: the entry point that takes it
        (``Match.apply`` unless given, e.g. ``lambda a: m.play_card(a.card)``)."""
        self.points += 1
        try:
            (via or m.apply)(action)
        except IllegalAction as e:
            if e.rule != clause:
                raise self.bad(transition, f"refuses {action} citing {e.rule}", f"{action} refused citing {clause}",
                               clause) from None
            return
        except Exception as e:  # noqa: BLE001
            raise self.bad(transition, f"{type(e).__name__}: {e}", f"{action} refused as illegal", clause) from None
        raise self.bad(transition, f"accepts {action}", f"{action} is illegal", clause)


    def other_phases(self, m: Match, phase: str, actions: Sequence[Any]) -> None:
        """Actions of another phase are refused as such (WrongPhase, citing hand.tricks) and change nothing."""
        for act in actions:
            self.refuse(m, act, f"Match.apply: {act} during {phase}", "hand.tricks")
            if isinstance(act, Play):  # the fast entry point of a card checks the phase too
                self.refuse(m, act, f"Match.play_card: {act} during {phase}", "hand.tricks",
                            lambda a: m.play_card(a.card))

    def wait_deal(self, m: Match) -> None:
        """The state the match waits for a deal in: the dealer by the cause of the last deal, no seat to move, the
        scores, the target, the games."""
        x = self.x
        if x.after == "start":
            what, clause = "Match.at: the first dealer", "deal.first-dealer"
        elif x.after == "played":
            what, clause = "Match._phase_match_outcome: the next dealer after a played deal", "deal.rotation"
        else:
            what, clause = f"Match._phase_redeal: the next dealer after {x.after}", \
                {"bid.total": "redeal.dealer"}.get(x.after, x.after)
        self.same(what, m.dealer, x.dealer, clause)
        self.same("Match: the phase before a deal", m.phase.value, "deal", "deal.rotation")
        self.same("Match: no seat is to move before a deal", m.to_move, -1, "deal.rotation")
        self.same("Match.is_chance before a deal (the deal is chance's move)", m.is_chance(), True, "deal.rotation")
        self.same("Match: the deals played and cancelled so far", (m.hands_played, m.redeals),
                  (x.played, x.cancelled), "deal.rotation")
        teams = (x.scores[0] + x.scores[2], x.scores[1] + x.scores[3]) if self.rules.individual else \
            (x.scores[0], x.scores[1])
        self.same("Match.team_scores before a deal", m.team_scores(), teams, "seats.partners")
        if x.after == "start":
            self.same("Match.at: no hand, trump, lead or auction before the first deal",
                      (list(m.hands), m.trump, m.led, m.trick_leader, m.auction_holder),
                      ([0, 0, 0, 0], -1, -1, -1, -1), "deal.rotation")
        self.same("Match: the scores carried to the deal", list(m.scores), x.scores, "score.negative")
        self.same("Match: the target in force", m.target, x.target, "win.play-on")
        self.same("Match: the games won before play-on", len(m.games), x.games, "win.play-on")
        self.same("Match.is_over before a deal", m.is_over(), False, "win.target")

    def cancelled(self, m: Match, cause: str) -> None:
        """A deal cancelled by ``cause``: its record, the scores kept, the next dealer by the cause."""
        x, ex = self.x, self.ex
        rec = m.records[-1] if m.records else None
        self.same("Match._phase_redeal: the cause of the cancelled deal", None if rec is None else rec.redeal, cause,
                  cause)
        self.same("Match._phase_redeal: the phase after a cancelled deal", m.phase.value, "deal", cause)
        self.same("Match._phase_redeal: the scores after a cancelled deal",
                  (None if rec is None else list(rec.scores_after), list(m.scores)), (x.scores, x.scores), cause)
        self.same("HandRecord of a cancelled deal: no trick taken, no score changed",
                  None if rec is None else (list(rec.tricks_won), list(rec.deltas)), ([0] * 4, [0] * 4), cause)
        x.dealer = ex.redeal_dealer(x.dealer) if cause == "bid.total" else ex.next(x.dealer)
        x.after = cause
        x.cancelled += 1
        self.run_causes.append(cause)

    def flush_run(self) -> None:
        """Count the run of cancelled deals in a row that just ended (by cause, or mixed)."""
        c = self.run_causes
        if c:
            if len(c) <= 3:
                short = dict(CAUSES)
                self.cov[f"{len(c)}x{short[c[0]]}" if len(set(c)) == 1 else f"{len(c)}xmix"] += 1
            self.run_causes = []

    def play(self, m: Match, dz: Design, hands: list[int], trump: int, bids: list[int], holder: int,
             contract: Call | None) -> None:
        """Play the deal's 13 tricks (:class:`tests.steered.plays.Plays`)."""
        raise NotImplementedError


def state_of(m: Match) -> tuple[Any, ...]:
    """What the stage compares of a copy or a replay with the match itself."""
    return (m.phase.value, m.dealer, list(m.scores), m.hands_played, m.redeals, m.to_move, len(m.history),
            list(m.games), m.target, list(m.hands), m.trump, [(r.redeal, list(r.winners)) for r in m.records])



def show(v: Any) -> str:
    """A value as a counterexample shows it (a text as it is)."""
    return v if isinstance(v, str) else repr(v)

