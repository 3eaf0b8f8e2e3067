"""A fair benchmark: random self-play of our engine against OpenSpiel's ``oh_hell``, per trick and per decision.

Both sides run the same loop in the same process, in alternating bursts (so machine load falls on both alike),
from the same seeds, with the same policy: at a decision, ask the engine for its legal actions and apply
``legal[rng.randrange(len(legal))]``. Both loops are written alike, as a skeptical peer would write the cheapest
idiomatic driver of each: the random generator's ``randrange`` and ``shuffle`` and the engine's ``apply`` and
``legal_actions`` are bound to local names once per episode (a match on our side, a hand on oh_hell's), so no
action pays an attribute look-up; each action is one call for the legal list and one call to apply it. Time is
the process's CPU time over each burst (``time.process_time``; the burst itself ends at a wall-clock deadline),
so other processes on the machine do not count.

What each side does and checks, exactly:

* **ours** (``tarneeb.Match``), per match: ``Match(rules, first_dealer=randrange(4))``; bind ``m.apply`` and
  ``m.legal_actions``. Then per action: read ``m.hands_played`` (whole matches, capped at 50 played hands) and
  ``m.phase`` (the match may be over); in the deal phase ``shuffle(deck)`` of a 52-card list and
  ``apply(Deal(tuple(deck)))`` (the engine checks it is 52 distinct cards covering the pack, deals the four hands,
  applies the weak-hand redeal and trump reveal of the ruleset); otherwise ``legal = legal_actions()`` and
  ``apply(legal[randrange(len(legal))])``. ``apply`` checks every action as it would any caller's: every bid by
  :mod:`tarneeb.core.rules` (range, excluded bids, rising minimum; in the auction family raise, dealer's privilege,
  all-pass, Egyptian strains), every card by ``legal_play_mask`` (in hand, follow suit, must-trump); it computes
  tricks, scores, the match outcome and play-on, and keeps the hand's record (deck, bids, plays, leaders, winners,
  scores) and the action history. Cancelled deals and the bidding are counted as work charged to the played
  hands' tricks.
* **oh_hell** (``players=4, num_tricks_fixed=12``; 13 tricks leave no card to turn for its trump), per hand:
  ``s = game.new_initial_state()``; bind ``s.apply_action_with_legality_check``, ``s.legal_actions`` and
  ``s.is_terminal``; ``shuffle(deck)`` of a 52-card list; its first two chance nodes (the number of tricks,
  fixed, and the dealer) each take an outcome drawn from ``s.chance_outcomes()``; then a plain loop applies
  ``deck[0]`` to ``deck[48]`` to its 49 deal chance nodes (48 cards and the trump card; no ``is_chance_node``
  call); then ``while not is_terminal(): legal = legal_actions(); apply(legal[randrange(len(legal))])``. Every
  action, chance or not, goes through ``apply_action_with_legality_check`` (which checks it is among
  ``legal_actions()``; plain ``apply_action`` in oh_hell does not check follow-suit or the bid range), as ours
  checks every action. One hand is an episode; oh_hell keeps its own history.

Every loop function is warmed up before it is timed: it is called :data:`WARMUP_CALLS` times for
:data:`WARMUP_SECONDS` each, untimed (``--no-warmup`` skips this). CPython 3.11 rewrites a function's bytecode into
its specialising form only on the function's 8th call; a loop inside a function called once per burst otherwise
runs unspecialised in the first seven bursts of the process (measured: our loop 10.4k -> 12.2k hands/s,
oh_hell's 12.1k -> 12.1k, so whichever ruleset came first was under-measured on our side). The baseline's child
process warms up its own loop the same way.

Each line also gives the spread of the ratio over the rounds (ours / oh_hell in adjacent bursts): on a shared or
virtual machine it shows how far one run's figure can move.

Each ruleset's second line splits each side's CPU time per trick into the random policy's draws and the rest (the
engine and the driver's loop): the side is played again briefly, untimed, with a generator that logs every draw
(:class:`PolicyLog`: a shuffle per deal, ``randrange(n)`` per decision and per chance outcome), and the logged
draws are then made again alone with a plain generator and timed (:func:`replay_policy`; best of three, warmed
up). The rest is the per-trick time less the policy's. It prints the ratio on the rest alone and the most our rest
may take a trick for the whole ratio to reach 1.25, beside the minimal engine's rest. The policy is the same
work on both sides (the same calls of the same generator), so it narrows whatever ratio the rest has.

Work is normalised: per trick (our hands have 13, theirs 12; our cancelled deals and bidding are charged to our
tricks) and per decision (bids, trump choices and cards chosen by the policy). The ratio printed per ruleset is
ours / oh_hell in tricks per CPU second, both measured side by side in the same run; the last line is
``min ratio: X.XX`` over the rulesets run. The first and last lines give the machine's load average (1, 5 and
15 minutes) and its number of CPUs: on a busy host the ratio moves more between rounds.

    python bench/fair.py [--seconds 4] [--rulesets classic bsfyi-41 ...] [--baseline REF] [--json]

Where the installed core is compiled by mypyc (``tarneeb --version`` says so), our side runs it and its pure source
runs beside it as the side ``pure`` (``TARNEEB_PURE=1``, in a child process per burst, timing only its own loop):
each line gives the pure source's ratio to oh_hell too, and the compiled build's speed-up over it.

``--baseline REF`` also runs our side with the ``tarneeb`` package of commit REF (a ``git worktree`` under the
system's temporary folder, in a child process per burst, timing only its own loop), so before/after figures come
from the same run. ``bench/minimal.py`` is also run (a bitmask engine doing the same checks, the practical limit)
and our fraction of it printed. OpenSpiel is optional (the ``bench`` or ``openspiel`` extra).
Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, MutableSequence
from typing import Any

RULESETS = ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"]
MAX_HANDS = 50
WARMUP_CALLS = 8  # CPython 3.11 specialises a function's bytecode on its 8th call
WARMUP_SECONDS = 0.01
DEAL_NODES = 49  # oh_hell's deal chance nodes with 4 players and 12 tricks: 48 cards and the trump card


def warm_up(run: Any, *args: Any) -> None:
    """Call a loop function ``WARMUP_CALLS`` times, briefly and untimed: ``run(*args, WARMUP_SECONDS, seed)``."""
    for _ in range(WARMUP_CALLS):
        run(*args, WARMUP_SECONDS, 10_000)


def run_ours(ruleset: str, seconds: float, seed: int, rng_factory: Callable[[int], random.Random] = random.Random
             ) -> dict[str, float]:
    """Random self-play of whole matches for ``seconds``; counts deals, played hands, tricks, decisions.

    The burst ends at a wall-clock deadline; its ``seconds`` are the process's CPU time over the burst.
    ``rng_factory``: what makes the generator from the seed (:func:`policy_share` makes a :class:`PolicyLog`, never
    in a timed burst)."""
    from tarneeb import Deal, Match, Phase, load_rules

    rules = load_rules(ruleset)
    rng = rng_factory(seed)
    randrange, shuffle = rng.randrange, rng.shuffle
    deck = list(range(52))
    deals = hands = decisions = 0
    deal_phase, over = Phase.DEAL, Phase.OVER
    clock = time.perf_counter
    deadline = clock() + seconds
    c0 = time.process_time()
    while clock() < deadline:
        m = Match(rules, first_dealer=randrange(4))
        apply, legal_actions = m.apply, m.legal_actions  # bound once per episode, as on oh_hell's side
        while m.hands_played < MAX_HANDS:
            ph = m.phase
            if ph is deal_phase:
                shuffle(deck)
                apply(Deal(tuple(deck)))
                deals += 1
            elif ph is over:
                break
            else:
                legal = legal_actions()
                apply(legal[randrange(len(legal))])
                decisions += 1
        hands += m.hands_played
    elapsed = time.process_time() - c0
    return {"seconds": elapsed, "deals": deals, "hands": hands, "tricks": 13 * hands, "decisions": decisions}


def run_oh_hell(seconds: float, seed: int, rng_factory: Callable[[int], random.Random] = random.Random
                ) -> dict[str, float] | None:
    """Random self-play of ``oh_hell`` hands for ``seconds`` (CPU time, as :func:`run_ours`); None without
    OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    new_state = game.new_initial_state
    rng = rng_factory(seed)
    randrange, shuffle = rng.randrange, rng.shuffle
    deck = list(range(52))
    hands = decisions = 0
    clock = time.perf_counter
    deadline = clock() + seconds
    c0 = time.process_time()
    while clock() < deadline:
        s = new_state()
        # bound once per episode: no attribute look-up on the state at each action
        apply, legal_actions, is_terminal = s.apply_action_with_legality_check, s.legal_actions, s.is_terminal
        shuffle(deck)
        # number of tricks (fixed: one outcome) and dealer: drawn from the chance outcomes
        outcomes = s.chance_outcomes()
        apply(outcomes[randrange(len(outcomes))][0])
        outcomes = s.chance_outcomes()
        apply(outcomes[randrange(len(outcomes))][0])
        for card in deck[:DEAL_NODES]:  # 48 cards then the trump card, from the shuffled deck; no is_chance_node
            apply(card)
        while not is_terminal():
            legal = legal_actions()
            apply(legal[randrange(len(legal))])
            decisions += 1
        hands += 1
    elapsed = time.process_time() - c0
    return {"seconds": elapsed, "deals": hands, "hands": hands, "tricks": 12 * hands, "decisions": decisions}


def run_minimal(ruleset: str, seconds: float, seed: int, rng_factory: Callable[[int], random.Random] = random.Random
                ) -> dict[str, float]:
    import importlib

    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    minimal = importlib.import_module("minimal")
    row: dict[str, float] = minimal.bench(ruleset, seconds, seed, MAX_HANDS, rng_factory)
    return row


# ------------------------------------------------------------------ the policy's share of each side's time

class PolicyLog(random.Random):
    """A generator that logs what the random policy asks of it, in order: ``None`` for a shuffle of the deck,
    ``n`` for ``randrange(n)``. It gives the same draws as :class:`random.Random` with the same seed."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.log: list[int | None] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is not None or step != 1:
            raise ValueError("the policy draws randrange(n) only")
        self.log.append(start)
        return super().randrange(start)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        self.log.append(None)
        super().shuffle(x)


def replay_policy(log: list[int | None], seed: int) -> float:
    """CPU seconds to make the logged draws again with a plain :class:`random.Random` (a shuffle of a 52-card list
    for each ``None``, ``randrange(n)`` for each ``n``), bound to local names as the drivers bind them: the part of
    a side's time that is the policy's and not the engine's (the loop over the log stands for the driver's own)."""
    rng = random.Random(seed)
    randrange, shuffle = rng.randrange, rng.shuffle
    deck = list(range(52))
    c0 = time.process_time()
    for n in log:
        if n is None:
            shuffle(deck)
        else:
            randrange(n)
    return time.process_time() - c0


def policy_share(run: Any, *args: Any, seconds: float = 0.3) -> tuple[float, float]:
    """(CPU seconds of the policy's draws per hand, hands logged): the side ``run`` is played for ``seconds`` with a
    :class:`PolicyLog` (untimed), then its draws are made again alone (:func:`replay_policy`, warmed up first)."""
    made: list[PolicyLog] = []

    def logged(seed: int) -> random.Random:
        made.append(PolicyLog(seed))
        return made[-1]

    row = run(*args, seconds, 77, logged)
    if len(made) != 1 or not row or not row["hands"]:
        raise RuntimeError("no draws were logged")
    log = made[0].log
    for _ in range(WARMUP_CALLS):
        replay_policy(log[:2000], 1)
    return min(replay_policy(log, 77) for _ in range(3)) / row["hands"], row["hands"]


# ------------------------------------------------------------------ baseline commit in a child process

def baseline_tree(ref: str) -> str:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sha = subprocess.run(["git", "-C", root, "rev-parse", ref], capture_output=True, text=True,
                         check=True).stdout.strip()
    tree = os.path.join(tempfile.gettempdir(), f"tarneeb-baseline-{sha[:12]}")
    if not os.path.isdir(tree):
        subprocess.run(["git", "-C", root, "worktree", "add", "--detach", "-f", tree, sha], check=True,
                       capture_output=True)
    return tree


def run_baseline(tree: str, ruleset: str, seconds: float, seed: int, warm: bool = True) -> dict[str, float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(tree, "model") + os.pathsep + env.get("PYTHONPATH", "")
    env["TARNEEB_SPEC_DIR"] = os.path.join(tree, "spec")
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); import fair, tarneeb; "
            "assert tarneeb.__file__.startswith(sys.argv[2]), tarneeb.__file__; "
            "warm = sys.argv[6] == '1'; warm and fair.warm_up(fair.run_ours, sys.argv[3]); "
            "print(json.dumps(fair.run_ours(sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))))")
    out = subprocess.run([sys.executable, "-c", code, os.path.dirname(os.path.abspath(__file__)), tree, ruleset,
                          str(seconds), str(seed), "1" if warm else "0"], capture_output=True, text=True, env=env,
                         check=True).stdout
    row: dict[str, float] = json.loads(out)
    return row


# ------------------------------------------------------------------ the pure source beside a compiled build

def compiled_here() -> bool:
    """This process runs the core compiled by mypyc (tarneeb.compiled): the pure source is then a side of its own."""
    from tarneeb.compiled import build

    return "compiled by mypyc" in build()


def run_pure(ruleset: str, seconds: float, seed: int, warm: bool = True) -> dict[str, float]:
    """:func:`run_ours` on the pure source of the same installed package (``TARNEEB_PURE=1``), in a child process
    per burst (timing only its own loop, as the baseline's)."""
    env = dict(os.environ)
    env["TARNEEB_PURE"] = "1"
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); import fair; from tarneeb.compiled import build; "
            "assert 'pure Python' in build(), build(); "
            "warm = sys.argv[5] == '1'; warm and fair.warm_up(fair.run_ours, sys.argv[2]); "
            "print(json.dumps(fair.run_ours(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))))")
    out = subprocess.run([sys.executable, "-c", code, os.path.dirname(os.path.abspath(__file__)), ruleset,
                          str(seconds), str(seed), "1" if warm else "0"], capture_output=True, text=True, env=env,
                         check=True).stdout
    row: dict[str, float] = json.loads(out)
    return row


# ------------------------------------------------------------------ driver

def _add(acc: dict[str, float], row: dict[str, float]) -> None:
    for k, v in row.items():
        acc[k] = acc.get(k, 0) + v


def _rates(acc: dict[str, float]) -> dict[str, float]:
    t = acc.get("seconds", 0) or 1e-9
    return {"hands_per_s": acc.get("hands", 0) / t, "tricks_per_s": acc.get("tricks", 0) / t,
            "decisions_per_s": acc.get("decisions", 0) / t, "hands": acc.get("hands", 0), "deals": acc.get("deals", 0)}


def bench_ruleset(ruleset: str, seconds: float, rounds: int, tree: str | None,
                  warm: bool = True) -> dict[str, Any]:
    per = seconds / rounds
    sides: dict[str, dict[str, float]] = {"ours": {}, "oh_hell": {}, "minimal": {}}
    if tree:
        sides["baseline"] = {}
    pure = compiled_here()
    if pure:
        sides["pure"] = {}
    have_peer = run_oh_hell(0.0, 0) is not None
    if warm:
        warm_up(run_ours, ruleset)
        if have_peer:
            warm_up(run_oh_hell)
        warm_up(run_minimal, ruleset)
    paired: list[float] = []  # ours / oh_hell per round (adjacent bursts): how much the machine moved the figure
    for i in range(rounds):
        o = run_ours(ruleset, per, i)
        _add(sides["ours"], o)
        if have_peer:
            p = run_oh_hell(per, i)
            assert p is not None
            _add(sides["oh_hell"], p)
            paired.append((o["tricks"] / o["seconds"]) / (p["tricks"] / p["seconds"]))
        _add(sides["minimal"], run_minimal(ruleset, per, i))
        if tree:
            _add(sides["baseline"], run_baseline(tree, ruleset, per, i, warm))
        if pure:
            _add(sides["pure"], run_pure(ruleset, per, i, warm))
    out: dict[str, Any] = {"ruleset": ruleset, **{k: _rates(v) for k, v in sides.items() if v}}
    ours = out["ours"]
    if have_peer:
        out["ratio"] = ours["tricks_per_s"] / out["oh_hell"]["tricks_per_s"]
        out["ratio_decisions"] = ours["decisions_per_s"] / out["oh_hell"]["decisions_per_s"]
        out["round_ratios"] = [round(x, 3) for x in paired]
    out["fraction_of_minimal"] = ours["tricks_per_s"] / out["minimal"]["tricks_per_s"]
    if tree:
        out["speedup_vs_baseline"] = ours["tricks_per_s"] / out["baseline"]["tricks_per_s"]
    if pure:
        out["speedup_vs_pure"] = ours["tricks_per_s"] / out["pure"]["tricks_per_s"]
        if have_peer:
            out["ratio_pure"] = out["pure"]["tricks_per_s"] / out["oh_hell"]["tricks_per_s"]
    out["policy"] = policy_split(ruleset, out, have_peer)
    return out


def policy_split(ruleset: str, out: dict[str, Any], have_peer: bool) -> dict[str, float]:
    """Each side's time per trick split into the policy's draws (:func:`policy_share`) and the rest (the engine and
    its driver's loop), in microseconds; with oh_hell, the ratio on the rest alone, and the most the rest of ours
    may take a trick for the ratio to be 1.25 (beside the minimal engine's rest)."""
    sides: dict[str, tuple[Any, tuple[Any, ...], int]] = {"ours": (run_ours, (ruleset,), 13),
                                                          "minimal": (run_minimal, (ruleset,), 13)}
    if have_peer:
        sides["oh_hell"] = (run_oh_hell, (), 12)
    split: dict[str, float] = {}
    for name, (run, args, tricks) in sides.items():
        per_hand, _ = policy_share(run, *args)
        per_trick, policy = 1e6 / out[name]["tricks_per_s"], 1e6 * per_hand / tricks
        split[f"{name}_us_per_trick"] = per_trick
        split[f"{name}_policy_us_per_trick"] = policy
        split[f"{name}_rest_us_per_trick"] = per_trick - policy
    if have_peer:
        split["ratio_rest"] = split["oh_hell_rest_us_per_trick"] / split["ours_rest_us_per_trick"]
        split["rest_for_1.25"] = split["oh_hell_us_per_trick"] / 1.25 - split["ours_policy_us_per_trick"]
    return split


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=4.0, help="per engine and ruleset, in --rounds bursts")
    ap.add_argument("--rounds", type=int, default=8, help="alternating bursts per ruleset")
    ap.add_argument("--rulesets", nargs="+", default=RULESETS, help="ruleset ids (default: all five)")
    ap.add_argument("--baseline", metavar="REF", help="also run our side at commit REF; print the speed-up")
    ap.add_argument("--json", action="store_true", help="one JSON object per ruleset, then a summary")
    ap.add_argument("--results", action="store_true",
                    help="also write the human output to bench/RESULTS.md (its 'fair' section)")
    ap.add_argument("--no-warmup", action="store_true",
                    help="time each loop from its first call (see the docstring: CPython 3.11 under-measures it)")
    a = ap.parse_args(argv)
    shown: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        shown.append(line)
    tree = baseline_tree(a.baseline) if a.baseline else None
    ratios: list[float] = []
    load = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    from tarneeb.compiled import build

    side = "; the pure source beside it as 'pure', in a child process per burst" if compiled_here() else ""
    if a.json:
        print(json.dumps({"machine": True, "cpus": os.cpu_count(), "load_avg_before": os.getloadavg(),
                          "build": build()}))
    else:
        say(f"{load} before, {os.cpu_count()} CPUs; CPU time per side, bursts alternating; ours: {build()}{side}")
    for rid in a.rulesets:
        row = bench_ruleset(rid, a.seconds, a.rounds, tree, not a.no_warmup)
        if a.json:
            print(json.dumps(row))
        else:
            o = row["ours"]
            line = (f"{rid:14s} ours {o['tricks_per_s']:9,.0f} tricks/s {o['decisions_per_s']:9,.0f} decisions/s"
                    f" ({o['hands_per_s']:,.0f} hands/s)")
            if "oh_hell" in row:
                p = row["oh_hell"]
                line += (f" | oh_hell {p['tricks_per_s']:9,.0f} tricks/s {p['decisions_per_s']:9,.0f} decisions/s"
                         f" | ratio {row['ratio']:.2f} (per decision {row['ratio_decisions']:.2f};"
                         f" rounds {min(row['round_ratios']):.2f}-{max(row['round_ratios']):.2f})")
            line += f" | {100 * row['fraction_of_minimal']:.0f}% of minimal"
            if tree:
                line += f" | x{row['speedup_vs_baseline']:.2f} vs {a.baseline}"
            if "pure" in row:
                line += f" | pure {row['pure']['tricks_per_s']:9,.0f} tricks/s"
                if "ratio_pure" in row:
                    line += f", ratio {row['ratio_pure']:.2f}"
                line += f" (compiled x{row['speedup_vs_pure']:.2f})"
            say(line)
            sp = row["policy"]
            line = (f"{'':14s} per trick, policy's draws + the rest: ours {sp['ours_policy_us_per_trick']:.2f} + "
                    f"{sp['ours_rest_us_per_trick']:.2f} us, minimal {sp['minimal_policy_us_per_trick']:.2f} + "
                    f"{sp['minimal_rest_us_per_trick']:.2f} us")
            if "ratio_rest" in sp:
                line += (f", oh_hell {sp['oh_hell_policy_us_per_trick']:.2f} + {sp['oh_hell_rest_us_per_trick']:.2f} us"
                         f" | ratio on the rest {sp['ratio_rest']:.2f}; 1.25 needs our rest at most "
                         f"{sp['rest_for_1.25']:.2f} us")
            say(line)
        if "ratio" in row:
            ratios.append(row["ratio"])
    after = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    if a.json:
        print(json.dumps({"summary": True, "min_ratio": round(min(ratios), 3) if ratios else None,
                          "load_avg_after": os.getloadavg()}))
    elif ratios:
        say(f"min ratio: {min(ratios):.2f} ({after} after)")
    else:
        say(f"min ratio: n/a (open-spiel not installed: pip install open-spiel) ({after} after)")
    if a.results and not a.json:
        from results import header, write_section

        write_section("fair", ["## Self-play against OpenSpiel's oh_hell (bench/fair.py)", "", header(), "",
                               "```text", *shown, "```"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
