"""Part-way starts: ``Match()`` and ``Match.at`` accept every start the spec allows and refuse the others."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from tarneeb.core import match as match_module
from tarneeb.core.match import Match
from tarneeb.errors import IllegalAction

from .driver_base import DriverBase, state_of


class Starts(DriverBase):
    """The part-way starts a variant probes before its scenarios."""

    def starts(self) -> None:
        """``Match(rules, dealer, scores)`` and ``Match.at`` accept every start the spec allows and refuse the
        others citing the clause they break: a first dealer outside the four seats (deal.first-dealer); scores
        that are not four integers, or partners' scores that differ in the auction family (seats.partners); a
        target no number of games won can leave in force, or a game won by no team 0 or 1 (win.play-on). An
        accepted start waits for a deal by that dealer, at the scores given, with the target the encoding gives
        for the games won."""
        rules, ex = self.rules, self.ex
        self.ctx = {"": f"{rules.ruleset.id} [{self.label}]", "scenario": "part-way starts",
                    "deal": "none yet (the match is being built)"}
        ok = [5, 9, 5, 9] if not rules.individual else [5, 9, -3, 0]
        base = ex.target(0)
        raised = ex.target(1)
        # who may deal a match's first hand (ambiguity first-dealer): the others are refused at the start; a
        # part-way start (scores given, or Match.at) may wait for any dealer
        firsts = ex.enc.first_dealers()
        never = (-1, 4, *[d for d in range(4) if d not in firsts])
        refused: list[tuple[str, Callable[[], Match], str]] = [
            (f"Match(dealer {d})", functools.partial(Match, rules, d), "deal.first-dealer") for d in never]
        refused += [(f"Match.at(dealer {d})", functools.partial(Match.at, rules, d, ok), "deal.first-dealer")
                    for d in (-1, 4)]
        bad_scores: list[list[Any]] = [[1, 2, 3], [1, 2, 1, 2, 0], [1.5, 2, 1.5, 2]]
        for sc in bad_scores:
            refused.append((f"Match.at(scores {sc})", functools.partial(Match.at, rules, 0, sc), "seats.partners"))
        if not rules.individual:
            for sc in ([1, 2, 3, 2], [3, 2, 1, 2], [1, 2, 1, 3], [1, 3, 1, 2]):  # team 0's partners differ; team 1's
                refused.append((f"Match.at(partners' scores differ {sc})", functools.partial(Match.at, rules, 0, sc),
                                "seats.partners"))
                refused.append((f"Match(partners' scores differ {sc})", functools.partial(Match, rules, 0, sc),
                                "seats.partners"))
        for sc in bad_scores[:2]:  # a verifier going on from a record's claim: still four scores
            refused.append((f"Match.at(scores {sc}, partners_agree=False)",
                            functools.partial(Match.at, rules, 0, sc, partners_agree=False), "seats.partners"))
        for t in sorted({base - 1, base + 1, raised + 1} - {base, raised}):
            refused.append((f"Match.at(target {t})", functools.partial(Match.at, rules, 0, ok, t), "win.play-on"))
        refused.append(("Match.at(games [2])", lambda: Match.at(rules, 0, ok, None, [2]), "win.play-on"))
        if raised != base:
            refused.append((f"Match.at(target {base}, games [1])", lambda: Match.at(rules, 0, ok, base, [1]),
                            "win.play-on"))
            refused.append((f"Match.at(target {raised}, games [])", lambda: Match.at(rules, 0, ok, raised, []),
                            "win.play-on"))
        for what, build, clause in refused:
            self.points += 1
            try:
                build()
            except IllegalAction as e:
                if e.rule != clause:
                    raise self.bad(f"{what}: an impossible start", f"refused citing {e.rule}",
                                   f"refused citing {clause}", clause) from None
                continue
            except Exception as e:  # noqa: BLE001
                raise self.bad(f"{what}: an impossible start", f"{type(e).__name__}: {e}", "refused as illegal",
                               clause) from None
            raise self.bad(f"{what}: an impossible start", "accepted", "refused as illegal", clause)
        accepted: list[tuple[str, Callable[[], Match], int, list[int], int, int]] = [
            ("Match(rules): the defaults", lambda: Match(rules), 0, [0, 0, 0, 0], base, 0),
            ("Match.at(dealer 1): no scores given", lambda: Match.at(rules, 1), 1, [0, 0, 0, 0], base, 0),
            ("Match(dealer 3, scores)", lambda: Match(rules, 3, ok), 3, ok, base, 0),
            ("Match.at(dealer 2, scores)", lambda: Match.at(rules, 2, ok), 2, ok, base, 0),
            ("Match.at(target in force)", lambda: Match.at(rules, 1, ok, base), 1, ok, base, 0)]
        if not rules.individual:  # a record's inconsistent claim, taken as it is by a verifier
            accepted.append(("Match.at(partners' scores differ, partners_agree=False)",
                             lambda: Match.at(rules, 2, [1, 2, 3, 2], partners_agree=False), 2, [1, 2, 3, 2], base, 0))
        if raised != base:
            accepted += [("Match.at(the raised target)", lambda: Match.at(rules, 0, ok, raised), 0, ok, raised, 1),
                         ("Match.at(games [1])", lambda: Match.at(rules, 0, ok, None, [1]), 0, ok, raised, 1)]
        for what, build, dealer, scores, target, games in accepted:
            try:
                m = build()
            except Exception as e:  # noqa: BLE001
                raise self.bad(f"{what}: a possible start", f"refuses it: {type(e).__name__}: {e}", "accepted",
                               "win.play-on" if games else "deal.first-dealer") from None
            self.same(f"{what}: the state it waits in", (m.phase.value, m.dealer, list(m.scores), m.to_move),
                      ("deal", dealer, scores, -1), "deal.first-dealer")
            self.same(f"{what}: the target and the games", (m.target, len(m.games)), (target, games), "win.play-on")
            try:  # a copy (the referee's and the verifier's way to try an action) of every possible start
                copied = state_of(m.copy())
            except Exception as e:  # noqa: BLE001
                raise self.bad(f"{what}: Match.copy of a possible start", f"refuses it: {type(e).__name__}: {e}",
                               "a copy in the same state", "seats.partners") from None
            self.same(f"{what}: Match.copy of a possible start", copied, state_of(m), "seats.partners")
        # the chance move a simulation or fuzz run deals: one pack, every card once, whatever the seed
        for seed in range(8):
            deck = match_module.random_deck(random.Random(seed))  # looked up now: a patched engine's
            self.same(f"Match: the chance move random_deck deals (seed {seed}): a shuffled pack", sorted(deck),
                      list(range(52)), "deal.deck")
        self.cov["starts"] += 1
