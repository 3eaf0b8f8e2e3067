"""bench/minimal.py (the speed limit the fair benchmark prints) agrees with the engine deal by deal, and the
engine's cached legal-play mask and auction tables never let an illegal action through."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb import Deal, IllegalPlay, Match, Phase, load_rules
from tarneeb.core import rules as R

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
minimal: Any = importlib.import_module("minimal")


@pytest.mark.parametrize("rid", ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"])
def test_minimal_engine_agrees_with_match(rid: str) -> None:
    assert minimal.check(rid, 8) == 8


def test_a_wrong_trick_winner_in_the_minimal_engine_is_caught() -> None:
    def no_trump(cards: list[int], trump: int) -> int:
        return int(minimal._winner(cards, -1))  # trump ignored

    with pytest.raises(AssertionError, match="deal"):
        minimal.check("bsfyi-41", 8, winner_fn=no_trump)


def test_illegal_card_after_legal_actions_is_still_refused() -> None:
    """legal_actions caches the mask for the state; a revoke at that state or the next one must still raise."""
    rules = load_rules("classic")
    for seed in range(30):
        rng = random.Random(seed)
        m = Match(rules, first_dealer=rng.randrange(4))
        deck = list(range(52))
        rng.shuffle(deck)
        m.apply(Deal(tuple(deck)))
        while m.phase is not Phase.PLAY and m.phase is not Phase.DEAL:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        while m.phase is Phase.PLAY:
            hand = m.hands[m.to_move]
            ok = R.legal_play_mask(rules, hand, m.led, m.trump)
            illegal = [c for c in range(52) if hand >> c & 1 and not ok >> c & 1]
            for c in illegal[:1]:  # before legal_actions (a stale mask from the last seat must not be used) ...
                with pytest.raises(IllegalPlay):
                    m.play_card(c)
            if rng.random() < 0.5:  # a legal card played without asking legal_actions first must be taken
                m.play_card(min(c for c in range(52) if ok >> c & 1))
                continue
            legal = m.legal_actions()
            for c in illegal[-1:]:  # ... and after it
                with pytest.raises(IllegalPlay):
                    m.play_card(c)
            m.apply(legal[rng.randrange(len(legal))])


def test_auction_table_follows_a_patched_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The legal-call table is rebuilt when auction_bid_violation is replaced (as the mutation tools do)."""
    rules = load_rules("classic")
    m = Match(rules, first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    before = m.legal_actions()
    monkeypatch.setattr(R, "auction_bid_violation", lambda *a: ("x", "all refused") if a[5] is not None else None)
    after = m.legal_actions()
    assert len(before) > 1 and [str(a) for a in after] == ["bid:pass"]


def test_bid_table_follows_a_patched_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The individual legal-bid table is rebuilt when legal_bids is replaced, and is kept per score."""
    rules = load_rules("tarneeb-400")
    m = Match(rules, first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    assert [str(a) for a in m.legal_actions()][:2] == ["bid:2", "bid:3"]
    m = Match.at(rules, 0, [0, 45, 0, 0])  # rising minimum: 4 from 40 points for seat 1, the first to bid
    m.apply(Deal(tuple(range(52))))
    assert str(m.legal_actions()[0]) == "bid:4"
    monkeypatch.setattr(R, "legal_bids", lambda r, score: [13])
    assert [str(a) for a in m.legal_actions()] == ["bid:13"]
