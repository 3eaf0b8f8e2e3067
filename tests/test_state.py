"""The states and events of core (:mod:`tarneeb.core.state`, and the auction of :mod:`tarneeb.core.hand`) are
written out by hand so that mypyc compiles them: an ``__init__`` per class and a ``__reduce__`` for pickle and
copy. Each must rebuild exactly the object it came from, field by field, whatever the build: checked here on every
state and event (and the tables, deals, tricks and auctions inside them) of seeded matches of every ruleset."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import random
from typing import Any

import pytest
from tests.walks import random_walk

from tarneeb.core import hand as core_hand
from tarneeb.core import state as core_state
from tarneeb.core import transition as T
from tarneeb.core.actions import Deal
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.match import random_deck
from tarneeb.core.spec import get_ruleset, load_rules

RULESETS: list[tuple[str, dict[str, object]]] = [
    ("eram-41", {}), ("card-kings-41", {}), ("bsfyi-41", {"trump_source": "revealed-suit"}),
    ("tarneeb-400", {}), ("classic", {"play_on": 10}),
    ("classic", {"egyptian": True, "weak_redeal": True, "auction": "continuous"})]
WRITTEN = [c for _, c in inspect.getmembers(core_state, inspect.isclass)
           if dataclasses.is_dataclass(c) and c.__module__ == core_state.__name__] + [core_hand.Auction]


def _parts(obj: Any, seen: dict[type, list[Any]]) -> None:
    """``obj`` and every written object inside its fields (tuples and lists followed), by class."""
    if type(obj) in WRITTEN:
        seen.setdefault(type(obj), []).append(obj)
        for f in dataclasses.fields(obj):
            _parts(getattr(obj, f.name), seen)
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            _parts(x, seen)


@pytest.fixture(scope="module")
def written() -> dict[type, list[Any]]:
    seen: dict[type, list[Any]] = {}
    for k, (rid, opts) in enumerate(RULESETS):
        rules = load_rules(rid, opts)
        near = T.start(rules, 1, scores=(rules.target - 3,) * 4)  # and a match ending soon
        for seed, start in ((0, None), (1, near)):
            for state, _, after, events in random_walk(rules, random.Random(f"{k}-{seed}"), dealer=seed, steps=1000,
                                                       start=start):
                _parts(state, seen)
                _parts(after, seen)
                _parts(events, seen)
        if not rules.individual:  # auctions part way (a bid, then passes: a continuous auction's seats drop out)
            calls = (8, None, None, None)
            for upto in range(1, len(calls) + 1):  # a fresh auction each (a copy would be made by what is checked)
                a = core_hand.auction_start(rules, k % 4)
                for n in calls[:upto]:
                    core_hand.auction_call(rules, a, n, None)
                _parts(a, seen)
    # what random matches seldom reach: a game won before play-on's new target, a weak hand claimed
    rules = load_rules(with_readings(get_ruleset("classic"), {"weak-hand": "claimed"}), {"play_on": 10, "weak_redeal": True})
    rng = random.Random("rare")
    for state, _, after, events in random_walk(rules, rng, steps=3000, start=T.start(rules, 0, scores=(28, 28, 28, 28))):
        _parts((state, after, events), seen)
    for _ in range(5000):
        dealt, events = T.step(rules, T.start(rules, 0), Deal(random_deck(rng)))
        if type(dealt) is core_state.Claiming:
            for action in T.legal_actions(rules, dealt):
                _parts((dealt, events, T.step(rules, dealt, action)), seen)
            break
    return seen


def test_every_written_class_is_met(written: dict[type, list[Any]]) -> None:
    # a class no walk reaches would be checked by nothing below
    assert set(WRITTEN) - set(written) <= {core_state.Violation}, sorted(c.__name__ for c in set(WRITTEN) - set(written))


def test_each_object_rebuilds_itself_field_by_field(written: dict[type, list[Any]]) -> None:
    for cls, objs in written.items():
        names = [f.name for f in dataclasses.fields(cls)]
        for obj in objs[:300]:
            values = tuple(getattr(obj, n) for n in names)
            made, args = obj.__reduce__()
            assert made is cls and tuple(args) == values, f"{cls.__name__}.__reduce__ gives {args}, fields {values}"
            assert cls(*args) == obj, f"{cls.__name__}(*fields) differs from {obj}"
            assert cls(**dict(zip(names, values, strict=True))) == obj, f"{cls.__name__}(**fields) differs"
            for again in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
                assert type(again) is cls and again == obj, cls.__name__
                assert cls.__hash__ is None or hash(again) == hash(obj), cls.__name__


def test_states_keep_their_phase_and_turn(written: dict[type, list[Any]]) -> None:
    # what is the same for every instance of a class is a property, and survives a pickle
    for cls, objs in written.items():
        if hasattr(cls, "phase"):
            for obj in objs[:50]:
                again = pickle.loads(pickle.dumps(obj))
                assert again.phase == obj.phase and again.to_move == obj.to_move, cls.__name__
