"""An OpenSpiel MCTS bot (team 0, seats 0 and 2) against uniform random bots (team 1) for one hand of Tarneeb.

    python examples/openspiel/mcts_hand.py [--ruleset classic] [--options "min_bid:8"] [--simulations 40] [--seed 1]

Needs the ``openspiel`` extra. The MCTS bot (``open_spiel.python.algorithms.mcts.MCTSBot`` with a random-rollout
evaluator) searches the true state, other seats' cards included: it shows the API at work, it is not a fair
imperfect-information player. Chance (the dealer and the 52 cards) is sampled from the state's chance outcomes.
Prints each call and the tricks, then the returns (+1 for each seat of the team that gained more in the hand).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

import tarneeb.openspiel_game  # noqa: F401  (registers python_tarneeb)


def play(ruleset: str, options: str, simulations: int, seed: int, out: bool = True) -> list[float]:
    game = pyspiel.load_game("python_tarneeb", {"ruleset": ruleset, "options": options, "episode": "hand"})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng,
                       solve=False)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        if player % 2 == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        if out:
            print(f"seat {player} ({'mcts' if player % 2 == 0 else 'random'}): "
                  f"{state.action_to_string(player, action)}")
        state.apply_action(action)
    returns: list[float] = state.returns()
    if out:
        print("returns", returns)
    return returns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="classic", help="ruleset id")
    ap.add_argument("--options", default="", help="options as name:value;name:value")
    ap.add_argument("--simulations", type=int, default=40, help="MCTS simulations per move")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    a = ap.parse_args(argv)
    play(a.ruleset, a.options, a.simulations, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
