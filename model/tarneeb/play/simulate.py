"""Seeded self-play of whole matches."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Deal
from tarneeb.core.match import Match, Phase, random_deck
from tarneeb.core.spec import Rules
from tarneeb.play.bots import POLICIES


@dataclass(slots=True)
class MatchResult:
    ruleset: str
    options: dict[str, Any]
    seed: str
    policy: str
    first_dealer: int
    hands: int
    redeals: int
    final_scores: list[int]
    winner: int | None
    winner_rule: str
    games: list[int]
    match: Match

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "options": self.options, "seed": self.seed, "policy": self.policy,
            "first_dealer": self.first_dealer, "hands": self.hands, "redeals": self.redeals,
            "final_scores": self.final_scores, "winner": self.winner, "winner_rule": self.winner_rule,
            "finished": self.winner is not None, "games": self.games,
        }


def match_seed(seed: int | str, index: int) -> str:
    return f"{seed}:{index}"


def play_match(rules: Rules, seed: int | str, index: int = 0, policy: str = "heuristic",
               max_hands: int = 200) -> MatchResult:
    """Play one match; stop unfinished after ``max_hands`` played hands (or 10x as many deals)."""
    s = match_seed(seed, index)
    rng = random.Random(s)
    pol = POLICIES[policy]
    seats = core_rules.first_dealers(rules)
    m = Match(rules, first_dealer=seats[rng.randrange(len(seats))])
    deals = 0
    while m.phase is not Phase.OVER and m.hands_played < max_hands and deals < 10 * max_hands:
        if m.phase is Phase.DEAL:
            m.apply(Deal(random_deck(rng)))
            deals += 1
        else:
            m.apply(pol(m, rng))
    return MatchResult(
        ruleset=rules.id, options=dict(rules.option_map), seed=s, policy=policy,
        first_dealer=m.first_dealer, hands=m.hands_played, redeals=m.redeals,
        final_scores=list(m.scores), winner=m.winner, winner_rule=m.winner_rule, games=list(m.games), match=m,
    )


def simulate(rules: Rules, matches: int, seed: int | str, policy: str = "heuristic",
             max_hands: int = 200) -> Iterator[MatchResult]:
    for i in range(matches):
        yield play_match(rules, seed, i, policy, max_hands)


@dataclass(slots=True)
class Tally:
    """A running summary of self-play matches: :meth:`add` each finished match, then drop it.

    Memory stays flat however many matches are played (``simulate`` keeps no
    match once it is counted).
    """

    matches: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    unfinished: int = 0
    hands: int = 0
    redeals: int = 0
    decided_by: dict[str, int] = field(default_factory=dict)

    def add(self, r: MatchResult) -> None:
        self.matches += 1
        if r.winner is None:
            self.unfinished += 1
        else:
            self.wins[r.winner] += 1
        self.hands += r.hands
        self.redeals += r.redeals
        if r.winner_rule:
            self.decided_by[r.winner_rule] = self.decided_by.get(r.winner_rule, 0) + 1

    def summary(self, interrupted: bool = False) -> dict[str, Any]:
        n = self.matches
        out: dict[str, Any] = {
            "summary": True, "matches": n, "team0_wins": self.wins[0], "team1_wins": self.wins[1],
            "unfinished": self.unfinished, "hands": self.hands, "redeals": self.redeals,
            "mean_hands": round(self.hands / n, 2) if n else 0.0, "decided_by": dict(self.decided_by),
        }
        if interrupted:
            out["interrupted"] = True
        return out

