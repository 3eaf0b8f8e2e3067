"""The trace of seeded matches that tests/test_compiled.py compares between the compiled and the pure build.

    python -m tests.compiled_trace [--only SUBSTRING] [--steps N]   # from the repository root; a JSON line a step

Run once as the installed package is (compiled) and once with ``TARNEEB_PURE=1`` (its pure source): the two outputs
must be equal line by line. Two matches per variant of :mod:`tests.spec_variants` (every ruleset, option value and
reading), one from the start and one from scores near the target, their deals and choices drawn from a seed named
after the variant. Each line is one step: the variant, the step's number, the state in words, the player to move,
the legal actions, the action taken and the events it caused, the scores, the winner and the clause that decided
it, and the error texts of two illegal actions tried first (a card and a bid nobody may make there). The match's
deal records close it, then what ``verify`` reports on the match's records as written (clean: the verifier's fast
path, compiled too) and with a third of its hand lines altered (a score, a trick's winner, two cards swapped in the
deck or between tricks, a bid: the replay's reports), then the match's last state, the events of its last step and
its last auction through pickle and copy, and the match and its last actions too.
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import random
import sys
from typing import Any

from tests.spec_variants import IDS, VARIANTS, variant_rules

from tarneeb.compiled import build
from tarneeb.core import transition
from tarneeb.core.actions import Action, Bid, Deal, Play
from tarneeb.core.match import Match, random_deck
from tarneeb.errors import TarneebError
from tarneeb.records import match_lines, verify_lines

STEPS = 400  # a match is cut after this many steps (a deal takes 50 to 70)


def refusal(m: Match, action: Action) -> str:
    """The error text of ``action`` where it is illegal (the match is left as it was), or a line saying it was legal."""
    try:
        transition.step(m.rules, m.state, action)
    except TarneebError as e:
        return f"{type(e).__name__}: {e}"
    return f"legal: {action}"


def play(m: Match, name: str, rng: random.Random, out: list[dict[str, Any]], steps: int = STEPS) -> None:
    """Play ``m`` at random to its end (or ``steps`` steps), a line per step into ``out``."""
    rules = m.rules
    events: tuple[object, ...] = ()
    for n in range(steps):
        legal = list(m.legal_actions())
        said = {str(a) for a in legal}
        probes = [Play(c) for c in range(52) if str(Play(c)) not in said]
        bids = [Bid(k, s) for k in range(15) for s in (None, 0, 1, 2, 3, 4) if str(Bid(k, s)) not in said]
        line: dict[str, Any] = {
            "variant": name, "step": n, "state": m.state_text(), "to_move": m.to_move,
            "legal": sorted(said), "scores": m.scores, "winner": m.winner, "winner_rule": m.winner_rule,
            "refused": [refusal(m, rng.choice(probes)), refusal(m, rng.choice(bids))],
        }
        if m.is_over():
            out.append(line)
            break
        action: Action = Deal(random_deck(rng)) if m.is_chance() else legal[rng.randrange(len(legal))]
        _, events = transition.step(rules, m.state, action)
        m.apply(action)
        line.update(action=str(action), events=[repr(e) for e in events])
        out.append(line)
    out.append({"variant": name, "records": [
        {"deal": r.deal_no, "dealer": r.dealer, "trump": r.trump, "bids": [(s, str(b)) for s, b in r.bids],
         "contract": r.contract, "redeal": r.redeal, "claims": r.claims, "plays": r.plays, "winners": r.winners,
         "tricks_won": r.tricks_won, "deltas": r.deltas, "scores_after": r.scores_after, "outcome": r.outcome,
         "outcome_rule": r.outcome_rule, "events": r.events} for r in m.records],
        "hands_played": m.hands_played, "redeals": m.redeals, "team_scores": m.team_scores(), "games": m.games})
    out += verified(m, name, rng)
    out.append({"variant": name, "state and events through pickle and copy": [
        [repr(pickle.loads(pickle.dumps(x))), repr(copy.copy(x)), repr(copy.deepcopy(x))]
        for x in (m.state, *events, *([] if m.rules.individual else [m.auction]))]})
    again = pickle.loads(pickle.dumps(m))  # a match and its actions through pickle and copy, as a caller may send them
    out.append({"variant": name, "pickled": again.state_text(), "same_history": again.history == m.history,
                "copied": [str(a) for a in copy.deepcopy(m.history[-8:])], "copy": copy.copy(m).state_text()})


def altered(line: bytes, rng: random.Random) -> bytes:
    """A hand line with one claim changed at random (a header line as it is)."""
    d = json.loads(line)
    if d.get("type") != "hand":
        return line
    kind = rng.randrange(5)
    tricks = d.get("tricks") or []
    if kind == 0 and d.get("scores"):
        d["scores"][0] += 1
    elif kind == 1 and tricks:
        t = tricks[rng.randrange(len(tricks))]
        t["winner"] = (t["winner"] + 1) % 4
    elif kind == 2:
        deck = d["deck"]
        i, j = sorted(rng.sample(range(52), 2))
        d["deck"] = deck[:2 * i] + deck[2 * j:2 * j + 2] + deck[2 * i + 2:2 * j] + deck[2 * i:2 * i + 2] + deck[2 * j + 2:]
    elif kind == 3 and len(tricks) > 1:
        a, b = rng.sample(range(len(tricks)), 2)
        i, j = rng.randrange(4), rng.randrange(4)
        tricks[a]["cards"][i], tricks[b]["cards"][j] = tricks[b]["cards"][j], tricks[a]["cards"][i]
    elif d.get("bids"):
        d["bids"][rng.randrange(len(d["bids"]))][1] = rng.choice(["pass", "7", "13", "8H"])
    return json.dumps(d).encode()


def verified(m: Match, name: str, rng: random.Random) -> list[dict[str, Any]]:
    """What ``verify`` says of the match's records: as written, and with a third of its hand lines altered."""
    lines = list(match_lines(m, name))
    out = []
    for kind, given in (("as written", lines), ("altered", [altered(ln, rng) if rng.randrange(3) == 0 else ln
                                                            for ln in lines])):
        summary, reports = verify_lines(given, file=name)
        out.append({"variant": name, "verify": kind, "hands": summary.hands, "clean": summary.clean_hands,
                    "divergences": summary.divergences, "errors": summary.errors, "warnings": summary.warnings,
                    "by_clause": sorted(summary.by_clause.items()), "refuted": sorted(map(list, summary.refuted.items())),
                    "reports": [r.to_json() for r in reports]})
    return out


def trace(variant: int, steps: int = STEPS) -> list[dict[str, Any]]:
    """Two matches of variant number ``variant``: one from its start, one from scores near the target (so that
    it ends, and its outcome is compared)."""
    rid, options, readings = VARIANTS[variant]
    rules = variant_rules(rid, options, readings)
    name = IDS[variant]
    rng = random.Random(f"compiled-trace:{name}")
    out: list[dict[str, Any]] = []
    first = rng.randrange(4)
    try:
        m = Match(rules, first)
    except TarneebError as e:  # a reading that names the first dealer
        out.append({"variant": name, "first_dealer": first, "refused": f"{type(e).__name__}: {e}"})
        m = Match(rules, 0)
    play(m, name, rng, out, steps)
    near = [rules.target - 1 - rng.randrange(6) for _ in range(4)]
    scores = near if rules.individual else [near[0], near[1], near[0], near[1]]
    try:
        m = Match.at(rules, 0, scores)
    except TarneebError as e:
        out.append({"variant": name, "part_way": scores, "refused": f"{type(e).__name__}: {e}"})
        return out
    play(m, f"{name} part-way", rng, out, steps)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="", help="the variants whose name contains this text (default: every one)")
    p.add_argument("--steps", type=int, default=STEPS, help=f"steps of each match at most (default {STEPS})")
    args = p.parse_args(argv)
    print(json.dumps({"build": build()}))
    for i, name in enumerate(IDS):
        if args.only in name:
            for line in trace(i, args.steps):
                print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
