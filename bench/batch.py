"""Batch self-play (numpy, lock-step) against the engine: played hands per second, random policy, per ruleset.

Both sides play whole matches under the random policy, capped at 50 played hands, in alternating bursts in one
process: the engine through ``Match`` (``bench/fair.py``'s loop: shuffle, ``Deal``, ``legal_actions`` and a
uniform pick, every action legality-checked), the batch through :func:`tarneeb.play.batch.run` (``--games``
matches per call). Before timing, a sample of the batch's games is replayed through the core's transition and
compared state by state (:func:`tarneeb.play.batch.replay_check`). Both loops are warmed up first, untimed (``fair.warm_up``: CPython
3.11 specialises a function's bytecode only on its 8th call). Prints each ratio batch / engine and, last,
``min ratio: X.XX``.

    python bench/batch.py [--seconds 4] [--games 2000] [--rulesets classic ...]
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from typing import Any

from tarneeb import load_rules
from tarneeb.play import batch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
fair: Any = importlib.import_module("fair")
MAX_HANDS: int = fair.MAX_HANDS
RULESETS: list[str] = fair.RULESETS
run_ours = fair.run_ours


def run_batch(ruleset: str, seconds: float, seed: int, games: int) -> tuple[float, int]:
    rules = load_rules(ruleset)
    hands = 0
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        res = batch.run(rules, games, seed * 1000 + k, MAX_HANDS)
        hands += int(res.hands_played.sum())
        k += 1
    return time.perf_counter() - t0, hands


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=4.0, help="per side and ruleset, in --rounds bursts")
    ap.add_argument("--rounds", type=int, default=4, help="alternating bursts")
    ap.add_argument("--games", type=int, default=2000, help="matches per batch call")
    ap.add_argument("--rulesets", nargs="+", default=RULESETS, help="ruleset ids")
    a = ap.parse_args(argv)
    ratios = []
    for rid in a.rulesets:
        rules = load_rules(rid)
        n = batch.replay_check(rules, batch.run(rules, 50, 99, MAX_HANDS, log_games=10))
        fair.warm_up(run_ours, rid)
        fair.warm_up(lambda sec, seed, rid=rid: run_batch(rid, sec, seed, 50))
        eng_t = eng_h = bat_t = bat_h = 0.0
        for i in range(a.rounds):
            row = run_ours(rid, a.seconds / a.rounds, i)
            eng_t += row["seconds"]
            eng_h += row["hands"]
            t, h = run_batch(rid, a.seconds / a.rounds, i, a.games)
            bat_t += t
            bat_h += h
        ratio = (bat_h / bat_t) / (eng_h / eng_t)
        ratios.append(ratio)
        print(f"{rid:14s} engine {eng_h / eng_t:9,.0f} hands/s | batch {bat_h / bat_t:9,.0f} hands/s | "
              f"ratio {ratio:.1f} | {n} deals replay-checked")
    print(f"min ratio: {min(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
