"""bench/fair.py's split of each side's time into the policy's draws and the rest: the logging generator draws what
a plain one draws, logs every draw in order, and the draws made again are those of the run (so the policy's time
is measured on the work the run really did)."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
fair: Any = importlib.import_module("fair")
minimal: Any = importlib.import_module("minimal")


def test_the_logging_generator_draws_as_a_plain_one_and_logs_each_draw() -> None:
    plain, logged = random.Random(5), fair.PolicyLog(5)
    deck_a, deck_b = list(range(52)), list(range(52))
    got_a, got_b = [], []
    for n in [4, 13, 1, 7, 52, 9]:
        plain.shuffle(deck_a)
        logged.shuffle(deck_b)
        got_a.append(plain.randrange(n))
        got_b.append(logged.randrange(n))
    assert deck_a == deck_b and got_a == got_b
    assert logged.log == [None, 4, None, 13, None, 1, None, 7, None, 52, None, 9]
    with pytest.raises(ValueError):
        logged.randrange(2, 9)


@pytest.mark.parametrize("rid", ["classic", "bsfyi-41"])
def test_a_logged_match_plays_as_an_unlogged_one(rid: str) -> None:
    """The minimal engine's matches with a logging generator are those with a plain one, deal by deal, and the log
    holds one shuffle a deal."""
    from tarneeb import load_rules

    rules = load_rules(rid)
    for seed in range(5):
        plain_log: list[Any] = []
        logged_log: list[Any] = []
        rng = fair.PolicyLog(seed)
        assert minimal.play_match(rules, random.Random(seed), 50, plain_log) == \
            minimal.play_match(rules, rng, 50, logged_log)
        assert plain_log == logged_log
        assert rng.log.count(None) == len(logged_log)


def test_the_log_of_our_run_is_its_draws() -> None:
    """Our side's run, logged: one shuffle a deal, one draw a decision and one a match (its first dealer); the
    policy's time per hand is then measured on that log."""
    made: list[Any] = []

    def logged(seed: int) -> Any:
        made.append(fair.PolicyLog(seed))
        return made[-1]

    row = fair.run_ours("eram-41", 0.1, 3, logged)
    assert len(made) == 1
    log = made[0].log
    matches = len(log) - row["deals"] - row["decisions"]
    assert log.count(None) == row["deals"] > 0
    assert 1 <= matches <= row["deals"]
    assert all(n is None or 1 <= n <= 53 for n in log)
    per_hand, hands = fair.policy_share(fair.run_minimal, "eram-41", seconds=0.05)
    assert hands > 0 and 0 < per_hand < 0.01  # seconds of draws per hand
