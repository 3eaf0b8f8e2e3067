"""python_tarneeb in OpenSpiel: OpenSpiel's own random_sim_test, observers that never show another seat's hidden
cards, clone and serialise round-trips, action ids, and the MCTS example. Skipped when open-spiel is not installed
(the openspiel or test extra installs it)."""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb.core.state import Playing

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'tarneeb[openspiel]')")
og: Any = pytest.importorskip("tarneeb.openspiel_game")

CONFIGS = [("classic", "", "hand"), ("card-kings-41", "", "hand"), ("classic", "egyptian:true;must_trump:true", "hand"),
           ("classic", "auction:continuous;all_pass:dealer-forced", "hand"), ("eram-41", "", "match")]


@pytest.mark.parametrize("rid,opts,episode", CONFIGS)
def test_openspiel_random_sim_test(rid: str, opts: str, episode: str) -> None:
    game = pyspiel.load_game("python_tarneeb", {"ruleset": rid, "options": opts, "episode": episode,
                                                "max_hands": 3})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_load_game_by_ruleset_only() -> None:
    game = pyspiel.load_game("python_tarneeb", {"ruleset": "classic"})
    assert game.num_players() == 4 and game.num_distinct_actions() == og.NUM_ACTIONS
    assert game.rules.id == "classic"


def _play_to_mid_hand(game: Any, seed: int, plays: int) -> Any:
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rng.randrange(len(outs))][0])
            continue
        m = s.match
        if m.phase.value == "play" and len(m.record.tricks) * 4 + len(m.trick) >= plays:
            return s
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def _views(s: Any, seat: int) -> tuple[str, str, list[float], list[float]]:
    return (s.information_state_string(seat), s.observation_string(seat),
            list(s.information_state_tensor(seat)), list(s.observation_tensor(seat)))


@pytest.mark.parametrize("rid", ["classic", "card-kings-41"])
def test_views_do_not_depend_on_other_seats_hidden_cards(rid: str) -> None:
    """Swap two unplayed cards between two other seats' hands (same history otherwise): seat 0's information
    state and observation, string and tensor, must not change; its own hand must be in them."""
    game = pyspiel.load_game("python_tarneeb", {"ruleset": rid})
    checked = 0
    for seed in range(12):
        s = _play_to_mid_hand(game, seed, 9)
        if s.is_terminal():
            continue
        m = s.match
        for seat in range(4):
            others = [o for o in range(4) if o != seat]
            a, b = others[0], others[1]
            ca, cb = min(og.cards_of(m.hands[a])), min(og.cards_of(m.hands[b]))
            t = s.clone()
            _swap_cards(t.match, a, b, ca, cb)
            assert _views(s, seat) == _views(t, seat), (seed, seat)
            own = og.card_str(min(og.cards_of(m.hands[seat])))
            assert own in s.information_state_string(seat) and own in s.observation_string(seat)
            assert og.card_str(ca) not in s.observation_string(seat).split("hand ")[1].split(";")[0]
            checked += 1
    assert checked >= 20


def test_a_leaking_observer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails when the observer shows the next seat's hand (a realistic bug)."""
    real = og.cards_of
    monkeypatch.setattr(og, "_dealt", lambda m, seat: real(m.hands[(seat + 1) % 4]))
    game = pyspiel.load_game("python_tarneeb", {"ruleset": "classic"})
    s = _play_to_mid_hand(game, 1, 5)
    m = s.match
    t = s.clone()
    a, b = 1, 2
    ca, cb = min(og.cards_of(m.hands[a])), min(og.cards_of(m.hands[b]))
    _swap_cards(t.match, a, b, ca, cb)
    assert _views(s, 0) != _views(t, 0)


def _swap_cards(m: Any, a: int, b: int, ca: int, cb: int) -> None:
    """Seats ``a`` and ``b`` exchange cards ``ca`` and ``cb`` in the match's state (another deal, the same so far for
    everyone else)."""
    st = m.state
    assert isinstance(st, Playing), st
    both = (1 << ca) | (1 << cb)
    hands = list(st.hands)
    hands[a] ^= both
    hands[b] ^= both
    m.state = dataclasses.replace(st, hands=(hands[0], hands[1], hands[2], hands[3]))
    assert m.hands[a] >> cb & 1 and m.hands[b] >> ca & 1


def test_clone_and_serialise_round_trip() -> None:
    game = pyspiel.load_game("python_tarneeb", {"ruleset": "bsfyi-41", "episode": "match", "max_hands": 2})
    s = _play_to_mid_hand(game, 3, 17)
    c = s.clone()
    assert c.history() == s.history() and str(c) == str(s)
    c.apply_action(c.legal_actions()[0])
    assert c.history() != s.history()  # the clone is independent
    text = pyspiel.serialize_game_and_state(game, s)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert s2.history() == s.history() and [_views(s2, p) for p in range(4)] == [_views(s, p) for p in range(4)]


def test_action_ids_round_trip() -> None:
    from tarneeb.core.actions import BIDS, EGYPTIAN, PASS, PLAYS, NameTrump

    every = [*PLAYS, *BIDS, PASS, *EGYPTIAN.values(), *(NameTrump(s) for s in range(4))]
    ids = [og.action_id(a) for a in every]
    assert sorted(ids) == list(range(og.NUM_ACTIONS))
    assert all(og.engine_action(i) == a for i, a in zip(ids, every, strict=True))


def test_mcts_example_plays_a_hand() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "openspiel"))
    import importlib

    mcts_hand: Any = importlib.import_module("mcts_hand")
    returns = mcts_hand.play("classic", "", 4, 2, out=False)
    assert sorted(returns) in ([-1.0, -1.0, 1.0, 1.0], [0.0] * 4)


def test_match_information_state_recalls_earlier_deals_but_not_hidden_cards() -> None:
    game = pyspiel.load_game("python_tarneeb", {"ruleset": "classic", "episode": "match", "max_hands": 4})
    rng = random.Random(4)
    s = game.new_initial_state()
    while not s.is_terminal() and not (s.match is not None and len(s.match.records) >= 1 and
                                       s.match.phase.value == "bidding"):
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    m = s.match
    first = m.records[0]
    from tarneeb.core import rules as R

    dealt = R.deal_hands(m.rules, first.dealer, first.deck)
    text = s.information_state_string(1)
    earlier = text.split("earlier ", 1)[1]
    assert " ".join(og.card_str(c) for c in og.cards_of(dealt[1])) in earlier
    assert earlier.count("dealt ") == len(m.records)  # one hand per earlier deal: this seat's own
