"""The records the tools are checked on (:mod:`tests.toolcheck.records`): the steered matches and seeded self-play
matches reach the transitions the tools must follow, the steered ones among them; an engine bug in them is the steered
match's counterexample, not a crash."""

from __future__ import annotations

import collections
from typing import Any

import pytest
from tests.steered.runs import steered_matches
from tests.toolcheck.records import SEED, VARIANTS, configurations
from tests.toolcheck.stages import tools_failure

from tarneeb.core.spec import load_rules, rulesets
from tarneeb_proofs.mutants import applied

CONFIGS = tuple(configurations())


def test_every_ruleset_is_checked() -> None:
    assert set(VARIANTS) == set(rulesets())
    assert len(CONFIGS) == 9 and all(not VARIANTS[rid][0] for rid in VARIANTS)  # the defaults first


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_the_matches_reach_the_transitions_the_tools_must_follow(rid: str, opts: dict[str, Any],
                                                                  tool_records: Any) -> None:
    """Cancelled deals one, two and three in a row in every ruleset where they can occur (every ruleset but the
    dealer-forced auction), weak hands and play-on where the options allow them, bids of 13, games won."""
    rules = load_rules(rid, opts)
    c: collections.Counter[str] = collections.Counter()
    for rec in tool_records.get(rid, rules.options):
        run = 0
        for h in rec.m.records:
            run = run + 1 if h.redeal else 0
            c[f"cancelled x{run}"] += run > 0
            c[h.redeal or "played"] += 1
            c["won"] += h.outcome is not None
            c["play-on"] += any(n.startswith("win.play-on") for n in h.notes)
            c["bid 13"] += any(b.n == 13 for _, b in h.bids)
    want = {"played", "won", "bid 13"}
    if rules.individual or rules.all_pass == "redeal-next":
        want |= {"cancelled x1", "cancelled x2", "cancelled x3"}
    if rules.weak_redeal:
        want.add("deal.weak-redeal")
    if rules.play_on_raise:
        want.add("play-on")
    assert all(c[k] > 0 for k in want), (rid, opts, dict(c))


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_the_tools_run_on_the_steered_matches(rid: str, tool_records: Any, steer_terms: Any) -> None:
    """Every steered match that starts at a match's first game (a record's header cannot give games already won or a
    raised target) is among the records the tools are checked on, with its deals."""
    for v in VARIANTS[rid]:
        rules = load_rules(rid, dict(v))
        want = [s for s in steered_matches(rules, SEED, steer_terms) if s.start.target is None and not s.start.games]
        assert len(want) >= 5, (rid, v)
        recs = {rec.name: rec for rec in tool_records.get(rid, rules.options)}
        for s in want:
            rec = recs[f"steered match '{s.scenario}'"]
            assert len(rec.m.records) == len(s.match.records) > 0 and len(rec.lines) == 1 + len(s.match.records)


def test_an_engine_bug_in_the_steered_matches_is_the_match_counterexample_not_a_crash() -> None:
    """The tools run on the steered matches: where the engine itself disagrees with the encoding there (an engine
    mutant), the tools checks end in the steered match's counterexample instead of raising (records made afresh)."""
    with applied("match-second-redeal-next-seat"):
        w = tools_failure("card-kings-41", {})
    assert w is not None and "match machine disagrees with the encoding" in w.title
    assert dict(w.rows)["engine function"] == "tarneeb.core.match.Match"
