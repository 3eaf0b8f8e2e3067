"""The steered matches of the match machine (:mod:`tests.steered`): the steering itself, fast.

The variants run every value of every option and every product of a group, the kinds of transition that cannot occur
say why, a transition never reached fails with a counterexample, the steered matches end at a deal boundary and replay
from their start. The true engine on every configuration, the reductions the encoding is read through, and the
mutants caught: ``tests/test_match_steered_engine.py``, ``tests/test_match_steered_mutants.py`` (slow).
"""

from __future__ import annotations

import itertools

import pytest
from tests.steered import kinds as K
from tests.steered.expected import Expected
from tests.steered.runs import SteerVariant, steered_matches
from tests.steered.scenarios import Scenario, individual_scenarios
from tests.steered.terms import TermCache
from tests.steered.variants import GROUPS, MATCH_READINGS, match_configs, option_values, variants

from tarneeb.core.ambiguity import selectable_readings
from tarneeb.core.spec import Rules, get_ruleset, load_rules, rulesets


def test_kinds_have_ids_texts_and_clauses() -> None:
    assert len(set(K.KIND_IDS)) == len(K.KINDS) == 38
    assert K.INDIVIDUAL_ONLY <= set(K.KIND_IDS) and K.AUCTION_ONLY <= set(K.KIND_IDS)
    assert not K.INDIVIDUAL_ONLY & K.AUCTION_ONLY
    assert all(k.text and k.clauses for k in K.KINDS)


def test_not_applicable_gives_reasons() -> None:
    classic = load_rules("classic", {})
    assert K.not_applicable("weak", classic) == "weak_redeal = false (off)"
    assert K.not_applicable("all-pass", load_rules("classic", {"all_pass": "dealer-forced"})) is not None
    assert K.not_applicable("forced", load_rules("classic", {"all_pass": "dealer-forced"})) is None
    assert K.not_applicable("play-on", classic) is not None
    assert K.not_applicable("play-on", load_rules("classic", {"play_on": 10})) is None
    assert K.not_applicable("total<", classic) == "the auction family has no bid.total clause"
    assert K.not_applicable("madebid", load_rules("bsfyi-41", {})) == "made_bid_wins = 0 (off)"
    assert K.not_applicable("madebid", load_rules("bsfyi-41", {"made_bid_wins": 10})) is None
    assert K.not_applicable("3xmix", load_rules("classic", {"weak_redeal": True})) is None
    assert K.not_applicable("kaboot-bid", load_rules("card-kings-41", {})) == \
        "the individual family has no score.kaboot clause"


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_variants_run_every_value_and_every_group_product(rid: str) -> None:
    rs = get_ruleset(rid)
    vs = variants(rs)
    opts = {o.name: o for o in rs.options}
    for name, o in opts.items():
        assert {v[name] for v in vs} == set(option_values(o)), name
    for g in GROUPS:
        names = [n for n in g if n in opts]
        if not names:
            continue
        want = set(itertools.product(*[option_values(opts[n]) for n in names]))
        assert {tuple(v[n] for n in names) for v in vs} == want, g
    for v in vs:
        load_rules(rid, v)


def test_the_configurations_are_the_ruleset_and_its_match_readings() -> None:
    """Per ruleset: the ruleset as it is, then each selectable reading of an ambiguity that changes the match
    machine, each at options where the rules differ (17 configurations over the built-ins, as prove ran them)."""
    configs = {rid: match_configs(rid) for rid in rulesets()}
    assert sum(len(c) for c in configs.values()) == 17
    for rid, cs in configs.items():
        assert cs[0] == ((), ())
        assert all(len(rd) == 1 and rd[0][0] in MATCH_READINGS for _, rd in cs[1:])
        selectable = {a.id for a in selectable_readings(get_ruleset(rid))}
        assert {rd[0][0] for _, rd in cs[1:]} <= selectable
    readings = {rd[0] for cs in configs.values() for _, rd in cs[1:]}
    assert ("weakest-card", "lowest-rank") in readings and ("weak-hand", "claimed") in readings


def test_a_transition_never_reached_fails() -> None:
    def fewer(rules: Rules, ex: Expected) -> list[Scenario]:
        return [s for s in individual_scenarios(rules, ex) if "13 made" not in s.name]

    rules = load_rules("eram-41", {})
    run = SteerVariant(rules, "default", scenarios=fewer)
    bad = run.run()
    assert run.coverage["13made"] == 0 and run.coverage["1xT"] == 0  # what that scenario alone reached
    assert bad is not None and bad.transition.startswith("transition 1xT (1 cancelled deal(s) in a row")
    assert bad.transition.endswith("never reached under eram-41/default") and bad.engine == "0 times"
    assert bad.clause == "bid.total" and "scenarios:" in bad.inputs
    w = dict(bad.witness(rules).rows)
    assert w["engine function"] == "tarneeb.core.match.Match" and w["clause"].startswith("bid.total")


def test_the_coverage_says_why_a_kind_cannot_occur() -> None:
    run = SteerVariant(load_rules("card-kings-41", {}), "default")
    assert run.run() is None
    text = run.coverage_text()
    assert text.startswith("card-kings-41 [default], ") and "deal=" in text
    assert "kaboot-bid=n/a (the individual family has no score.kaboot clause)" in text
    assert all(run.coverage[k] > 0 for k in K.KIND_IDS if K.not_applicable(k, run.rules) is None)


def test_steered_matches_are_finished_and_replay_from_their_start() -> None:
    rules = load_rules("classic", {"weak_redeal": True, "play_on": 10})
    got = steered_matches(rules, cache=TermCache())
    assert {s.scenario for s in got} and all(s.match.phase.value in ("deal", "over") for s in got)
    causes = {rec.redeal for s in got for rec in s.match.records}
    assert {"auction.all-pass", "deal.weak-redeal", None} <= causes
