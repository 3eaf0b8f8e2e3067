"""The play part-way built from facts (tarneeb.core.transition.playing_from): from what a state the transition
reached holds, it is that state again, and steps on as it does; facts no play can have are refused with the clause."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tests.walks import random_walk

from tarneeb.core import transition as T
from tarneeb.core.actions import PLAYS, Deal
from tarneeb.core.cards import CARD_BITS
from tarneeb.core.match import random_deck
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.core.state import Contracted, Dealing, Played, Playing, State, TrickTaken
from tarneeb.errors import IllegalAction, IllegalDeal


def _plays(rules: Rules, seed: int, n: int) -> Iterator[tuple[Playing, list[object]]]:
    """Every state of the play of ``n`` seeded random matches, with the actions taken from it to its hand's end."""
    rng = random.Random(seed)
    for _ in range(n):
        seen: list[tuple[Playing, list[object]]] = []
        for state, action, after, _ in random_walk(rules, rng, 0, 600):
            for _, rest in seen:
                rest.append(action)
            if type(state) is Playing:
                seen.append((state, [action]))
            if type(after) is not Playing and seen:
                yield from seen
                seen = []


def _rest(rules: Rules, state: State, actions: list[object]) -> tuple[State, list[object]]:
    events: list[object] = []
    for a in actions:
        state, ev = T.step(rules, state, a)  # type: ignore[arg-type]
        events += [e for e in ev if type(e) is not TrickTaken]  # completed tricks the facts do not give differ
        events += [e.trick.winner for e in ev if type(e) is TrickTaken]
    return state, events


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_a_state_from_its_own_facts_steps_on_as_it(rid: str) -> None:
    """Rebuilt from the facts of every state of the play random matches reach (its start, the hands now, the trick
    in progress, the tricks won), the state has the same seat to move and play, and the rest of its hand steps to
    the same events (scores, outcome, next dealer) and the same state after."""
    rules = load_rules(rid)
    checked = 0
    for state, rest in _plays(rules, 3, 3):
        got = T.playing_from(rules, state.start, state.hands, state.leader, state.trick, state.won)
        assert (got.hands, got.to_move, got.leader, got.trick, got.won) == \
            (state.hands, state.to_move, state.leader, state.trick, state.won)
        assert (got.start.table, got.start.trump, got.start.bids, got.start.contract) == \
            (state.start.table, state.start.trump, state.start.bids, state.start.contract)
        assert T.legal_actions(rules, got) == T.legal_actions(rules, state)
        after, events = _rest(rules, got, rest)
        want, want_events = _rest(rules, state, rest)
        assert events == want_events and after == want
        checked += 1
    assert checked > 100


def _start(rules: Rules) -> Contracted:
    rng = random.Random(1)
    state: State = T.start(rules, 0)
    while type(state) is not Playing:
        state, _ = T.step(rules, state, Deal(random_deck(rng)) if type(state) is Dealing
                          else T.legal_actions(rules, state)[-1])
    return state.start


def _hands(n: int, skip: int = 0) -> list[int]:
    """Four hands of ``n`` cards each, from the cards above the first ``skip``."""
    return [sum(CARD_BITS[skip + 4 * i + s] for i in range(n)) for s in range(4)]


BAD = [
    ("a trump the ruleset cannot have", dict(trump=4), "trump.source"),
    ("a start of the other bidding family", dict(contract=(0, 7, 1)), "trump.source"),
    ("a leader who is no seat", dict(leader=4), "play.direction"),
    ("a card in two hands", dict(hands=[CARD_BITS[0] | CARD_BITS[1], CARD_BITS[1] | CARD_BITS[5],
                                        CARD_BITS[2] | CARD_BITS[6], CARD_BITS[3] | CARD_BITS[7]]), "deal.deck"),
    ("a card held and played", dict(trick=(0,)), "deal.deck"),
    ("a card outside the pack", dict(trick=(52,)), "hand.tricks"),
    ("four cards in the trick", dict(trick=(40, 41, 42, 43)), "hand.tricks"),
    ("thirteen tricks won", dict(won=(13, 0, 0, 0)), "hand.tricks"),
    ("a trick won a negative number of times", dict(won=(-1, 0, 0, 12)), "hand.tricks"),
    ("every seat holding one card too many", dict(won=(3, 3, 3, 3)), "hand.tricks"),
    ("the seat that played to the trick holding as many as the others", dict(trick=(40,)), "hand.tricks"),
]


@pytest.mark.parametrize("name,change,clause", BAD, ids=[b[0] for b in BAD])
def test_facts_no_play_has_are_refused_with_the_clause(name: str, change: dict[str, object], clause: str) -> None:
    """Two cards each after eleven tricks: the facts as given are a state; each change of them is refused,
    naming the clause, and the facts that are a state are taken."""
    rules = load_rules("bsfyi-41")
    start = _start(rules)
    facts: dict[str, object] = {"hands": _hands(2), "leader": 0, "trick": (), "won": (3, 3, 3, 2)}
    assert T.playing_from(rules, start, **facts).to_move == 0  # type: ignore[arg-type]
    if "trump" in change:
        start = Contracted(start.table, change.pop("trump"), start.bids, start.contract)  # type: ignore[arg-type]
    if "contract" in change:
        start = Contracted(start.table, start.trump, start.bids, change.pop("contract"))  # type: ignore[arg-type]
    with pytest.raises(IllegalDeal) as e:
        T.playing_from(rules, start, **{**facts, **change})  # type: ignore[arg-type]
    assert e.value.rule == clause, str(e.value)


@pytest.mark.parametrize("seat", range(4))
def test_each_seat_s_count_is_checked(seat: int) -> None:
    """After eleven tricks, with the trick in progress led by the seat after ``seat`` (so that the seats before it
    have played and it has not), a card more or a card less in its hand alone is refused."""
    rules = load_rules("classic")
    start = _start(rules)
    leader = (seat + 1) % 4
    trick = (48, 49, 50)  # three cards played: by every seat but the one before the leader, ``seat``
    hands = [CARD_BITS[8 + s] for s in range(4)]  # one card left to those that played
    hands[seat] = CARD_BITS[0] | CARD_BITS[1]  # two to the seat to move
    assert T.playing_from(rules, start, hands, leader, trick, (3, 3, 3, 2)).to_move == seat
    for wrong in (CARD_BITS[0] | CARD_BITS[1] | CARD_BITS[2], CARD_BITS[0]):
        with pytest.raises(IllegalDeal, match=rf"player {seat + 1} \(seat {seat}\) holds") as e:
            T.playing_from(rules, start, [wrong if s == seat else h for s, h in enumerate(hands)], leader, trick,
                           (3, 3, 3, 2))
        assert e.value.rule == "hand.tricks"


def test_the_last_trick_from_facts_ends_the_hand() -> None:
    """One card each after twelve tricks: the seats play in the transition's order (play.direction), the seat to
    move after three cards holds the fourth, and the fourth card ends the hand as the transition ends one: the
    trick taken, the hand scored and decided, the deal passed on or the match won."""
    rules = load_rules("eram-41")
    start = _start(rules)
    state = T.playing_from(rules, start, [CARD_BITS[0], CARD_BITS[1], CARD_BITS[2], CARD_BITS[12]], 3, (),
                           (3, 3, 3, 3))
    after, events = T.play_trick(rules, state, [12, 0, 1, 2])
    assert [e.seat for e in events if type(e) is Played] == [3, 0, 1, 2]
    names = [type(e).__name__ for e in events][4:]
    assert names[:3] == ["TrickTaken", "Scored", "Decided"] and names[-1] in ("NextDealer", "MatchWon")
    assert type(after) is not Playing
    mid = T.playing_from(rules, start, [0, 0, CARD_BITS[2], 0], 3, (12, 0, 1), (3, 3, 3, 3))
    assert mid.to_move == 2 and list(T.legal_actions(rules, mid)) == [PLAYS[2]]


def test_a_refusal_changes_nothing() -> None:
    rules = load_rules("card-kings-41")
    start = _start(rules)
    with pytest.raises(IllegalAction):
        T.playing_from(rules, start, _hands(2), 0, (), (12, 0, 0, 0))
    assert start == _start(rules)
