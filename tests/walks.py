"""A seeded random walk through core's one transition, shared by the tests that need the states a match reaches."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tarneeb.core import transition as T
from tarneeb.core.actions import Action, Deal
from tarneeb.core.match import random_deck
from tarneeb.core.spec import Rules
from tarneeb.core.state import Dealing, Event, State


def random_walk(rules: Rules, rng: random.Random, dealer: int = 0, steps: int = 600, start: State | None = None
                ) -> Iterator[tuple[State, Action, State, tuple[Event, ...]]]:
    """Each step of one random match from ``dealer``'s deal (or from the state ``start``): (state, action, state
    after it, its events). The action is a deck shuffled by ``rng`` when dealing, else one of the legal actions
    drawn by ``rng``; the walk ends where no action is legal (the match is over) or after ``steps`` steps."""
    state: State = T.start(rules, dealer) if start is None else start
    for _ in range(steps):
        if type(state) is Dealing:
            action: Action = Deal(random_deck(rng))
        else:
            legal = T.legal_actions(rules, state)
            if not legal:
                return
            action = legal[rng.randrange(len(legal))]
        after, events = T.step(rules, state, action)
        yield state, action, after, events
        state = after
