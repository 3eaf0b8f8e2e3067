"""The one transition of a match (tarneeb.core.transition): its shortcut for whole tricks, and what it promises of
states (never changed in place) and errors (nothing changes on a refused action)."""

from __future__ import annotations

import random

import pytest

from tarneeb.core import transition as T
from tarneeb.core.actions import PLAYS, Deal, Play
from tarneeb.core.cards import cards_of
from tarneeb.core.match import random_deck
from tarneeb.core.rules import seat_order
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.core.state import Dealing, Playing, State
from tarneeb.errors import IllegalAction


def _states(rid: str, seed: int, n: int) -> list[tuple[Playing, Rules]]:
    """(state, rules) at the lead of every trick of ``n`` seeded random matches."""
    rules = load_rules(rid)
    rng = random.Random(seed)
    out: list[tuple[Playing, Rules]] = []
    for _ in range(n):
        state: State = T.start(rules, 0)
        for _ in range(400):
            if type(state) is Playing and not state.trick:
                out.append((state, rules))
            if type(state) is Dealing:
                state, _ = T.step(rules, state, Deal(random_deck(rng)))
                continue
            legal = T.legal_actions(rules, state)
            if not legal:
                break
            state, _ = T.step(rules, state, legal[rng.randrange(len(legal))])
    return out


def _four(rules: Rules, state: State, cards: list[int]) -> object:
    """Four steps, or the error the first illegal one raises (type, clause, text)."""
    events: tuple[object, ...] = ()
    try:
        for c in cards:
            state, ev = T.step(rules, state, PLAYS[c])
            events += ev
    except IllegalAction as e:
        return type(e), e.rule, str(e)
    return state, events


def _trick(rules: Rules, state: State, cards: list[int]) -> object:
    try:
        return T.play_trick(rules, state, cards)
    except IllegalAction as e:
        return type(e), e.rule, str(e)


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_a_whole_trick_at_once_is_four_plays(rid: str) -> None:
    """play_trick gives the state and events of four steps: on the tricks random play makes, the last of a hand
    (scoring, outcome, next dealer) included, and on tricks with an illegal card (the same error)."""
    rng = random.Random(rid)
    checked = illegal = last = 0
    for state, rules in _states(rid, 1, 6):
        # the trick random play would make from here, then a few with a card swapped for another held one
        s: State = state
        cards: list[int] = []
        for _ in range(4):
            legal = T.legal_actions(rules, s)
            act = legal[rng.randrange(len(legal))]
            assert isinstance(act, Play)
            cards.append(act.card)
            s, _ = T.step(rules, s, act)
        seats = seat_order(rules, state.leader)
        tries = [cards] + [[*cards[:k], rng.choice(cards_of(state.hands[seats[k]])), *cards[k + 1:]] for k in (1, 2, 3)]
        for t in tries:
            want, got = _four(rules, state, t), _trick(rules, state, t)
            assert got == want, (rid, t)
            checked += 1
            illegal += type(want) is tuple and len(want) == 3 and isinstance(want[0], type)
            last += sum(state.won) == 12
    assert checked > 100 and illegal > 10 and last > 10, (checked, illegal, last)


def test_a_step_changes_no_state_it_is_given() -> None:
    """States are values: stepping one leaves it as it was, a refused action included."""
    rules = load_rules("classic")
    rng = random.Random(3)
    state: State = T.start(rules, 0)
    for _ in range(300):
        before = repr(state)
        if type(state) is Dealing:
            nxt, _ = T.step(rules, state, Deal(random_deck(rng)))
        else:
            legal = T.legal_actions(rules, state)
            if not legal:
                break
            with pytest.raises(IllegalAction):
                T.step(rules, state, Deal(tuple(range(52))))
            nxt, _ = T.step(rules, state, legal[rng.randrange(len(legal))])
        assert repr(state) == before
        state = nxt
