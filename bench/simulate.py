"""Benchmark (superseded by ``bench/fair.py``): random self-play hands per second, ours against OpenSpiel's oh_hell.

Not a fair comparison, kept for earlier figures: oh_hell deals through 51 chance nodes that each build a list of
outcomes while our deal is one action, and its plain ``apply_action`` does not check follow-suit or the bid range
(ours checks every action); hands are not normalised for 13 tricks against 12. ``bench/fair.py`` fixes all three.
Both engines are driven from Python: at a chance node draw the chance outcome, else ask for the legal actions and
apply a uniformly random one.
oh_hell runs with ``players=4, num_tricks_fixed=12`` (13 tricks leave no card
to turn for its trump). Prints hands/s for each and the ratio ours / oh_hell.

    python bench/simulate.py [--seconds 5] [--ruleset card-kings-41] [--json]

OpenSpiel is optional (``pip install open-spiel``, the ``bench`` extra); without
it only our figure is printed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from tarneeb import Deal, Match, Phase, load_rules


def bench_ours(ruleset: str, seconds: float, seed: int = 1) -> tuple[float, int]:
    rules = load_rules(ruleset)
    rng = random.Random(seed)
    hands = 0
    deck = list(range(52))
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        m = Match(rules, first_dealer=rng.randrange(4))
        while m.hands_played < 50:  # random bids rarely finish a match; cap it
            ph = m.phase
            if ph is Phase.DEAL:
                rng.shuffle(deck)
                m.apply(Deal(tuple(deck)))
            elif ph is Phase.OVER:
                break
            else:
                legal = m.legal_actions()
                m.apply(legal[rng.randrange(len(legal))])
        hands += m.hands_played
    elapsed = time.perf_counter() - t0
    return hands / elapsed, hands


def bench_oh_hell(seconds: float, seed: int = 1) -> tuple[float, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rng = random.Random(seed)
    hands = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
        hands += 1
    elapsed = time.perf_counter() - t0
    return hands / elapsed, hands


def interleaved(ruleset: str, seconds: float, rounds: int = 10) -> tuple[float, int, tuple[float, int] | None]:
    """Alternate short bursts of both engines so machine load affects both alike."""
    per = seconds / rounds
    ours_h = ours_t = peer_h = peer_t = 0.0
    have_peer = True
    for i in range(rounds):
        rate, n = bench_ours(ruleset, per, seed=i)
        ours_h += n
        ours_t += n / rate
        if have_peer:
            p = bench_oh_hell(per, seed=i)
            if p is None:
                have_peer = False
            else:
                peer_h += p[1]
                peer_t += p[1] / p[0]
    peer = (peer_h / peer_t, int(peer_h)) if have_peer and peer_t else None
    return ours_h / ours_t, int(ours_h), peer


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="per engine, in 10 alternating bursts")
    ap.add_argument("--ruleset", default="card-kings-41")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    ours, n_ours, peer = interleaved(a.ruleset, a.seconds)
    out: dict[str, Any] = {"ruleset": a.ruleset, "ours_hands_per_s": round(ours, 1), "ours_hands": n_ours}
    if peer is not None:
        out.update(oh_hell_hands_per_s=round(peer[0], 1), oh_hell_hands=peer[1], ratio=round(ours / peer[0], 3))
    if a.json:
        print(json.dumps(out))
    else:
        print(f"tarneeb ({a.ruleset}): {ours:,.0f} hands/s ({n_ours} hands)")
        if peer is None:
            print("oh_hell: open-spiel not installed (pip install open-spiel); no ratio")
        else:
            print(f"oh_hell (4 players, 12 tricks): {peer[0]:,.0f} hands/s ({peer[1]} hands)")
            print(f"ratio tarneeb / oh_hell: {ours / peer[0]:.2f} (target >= 1.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
