"""The driver: runs a scenario on the engine, every step compared with the encoding."""

from __future__ import annotations

import random

from tarneeb.core.actions import Deal
from tarneeb.core.match import Match

from .deals import Deals
from .driver_base import Tracked, state_of
from .kinds import cite
from .plan import Plan
from .plays import Plays
from .scenarios import Scenario
from .starts import Starts


class Driver(Starts, Deals, Plays):
    """Runs scenarios on the engine, comparing every step with the encoding (:class:`tests.steered.expected.Expected`):
    the part-way starts (:class:`Starts`), each deal (:class:`Deals`), its play and score (:class:`Plays`)."""

    def run(self, sc: Scenario) -> Match:
        """The scenario from its start, every step compared with the encoding; the match it ends with."""
        rules, ex = self.rules, self.ex
        st = sc.start
        self.rng = random.Random(f"{self.seed}:{rules.ruleset.id}:{self.label}:{sc.name}")
        self.plan = Plan(ex, self.rng)
        self.ctx = {"": f"{rules.ruleset.id} [{self.label}]", "scenario": f"'{sc.name}' (seed {self.seed})",
                    "start": f"Match.at(dealer {st.dealer}, scores {list(st.scores)}, target {st.target}, "
                             f"games {None if st.games is None else list(st.games)})"}
        games = len(st.games) if st.games is not None else 0
        try:
            m = Match.at(rules, st.dealer, list(st.scores), st.target, None if st.games is None else list(st.games))
        except Exception as e:  # noqa: BLE001
            raise self.bad("Match.at: a part-way start", f"{type(e).__name__}: {e}", "a match waiting for a deal",
                           "win.play-on") from None
        self.x = Tracked(st.dealer, list(st.scores), ex.target(games), games)
        self.same("Match.at: the target in force", m.target, self.x.target, "win.play-on")
        self.same("Match.at: the scores", list(m.scores), self.x.scores, "seats.partners")
        self.run_causes = []
        for k, (what, design) in enumerate(sc.deals):
            if self.x.decided:
                break
            self.ctx = {key: v for key, v in self.ctx.items() if key in ("", "scenario", "start")}
            self.ctx["deal"] = f"{k} ({what})"
            self.deal(m, design)
        self.flush_run()
        # a copy (the referee's and the verifier's way to try an action) and a replay of the same actions reach
        # the same state
        self.same("Match.copy: the state of a copy of the match", state_of(m.copy()), state_of(m), "hand.tricks")
        if st.games is None and st.target is None:
            self.same("Match.replay: the state after replaying the match's actions",
                      state_of(Match.replay(rules, st.dealer, list(m.history), list(st.scores))), state_of(m), "hand.tricks")
        if self.x.decided:
            self.same("Match.legal_actions: a decided match", list(m.legal_actions()), [], "win.target")
            self.refuse(m, Deal(tuple(range(52))), "Match.apply: a deal after the match was decided",
                        cite(rules, self.x.decided_by, "win.target"))
        return m
