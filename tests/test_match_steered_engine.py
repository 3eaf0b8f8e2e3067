"""The true engine's match machine on every steered configuration (**slow**; bounded: a test, not a proof).

Every option variant of every ruleset, as the ruleset is and under each selectable reading of an ambiguity that
changes the match machine (the 17 configurations ``tarneeb prove``'s match stage ran), and under the configuration of
every mutant of stage ``test.match``: every step of the steered matches agrees with the encoding, and every kind of
transition that can occur under a variant is reached (no zero in its coverage). The three reductions the encoding is
read through are proved in Z3 for the encoding of every variant. The steered matches also replay
from their start under a few configurations beyond the variants' defaults.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.steered.kinds import KIND_IDS, Counterexample, not_applicable
from tests.steered.runs import SteerVariant, steered_matches, variant_lemmas, variant_runs
from tests.steered.terms import lemma_failure
from tests.steered.variants import Options, Readings, config_label, configured_rules, match_configs

from tarneeb import Match
from tarneeb.core.spec import OptionValue, Rules, load_rules, rulesets
from tarneeb_proofs.mutants import MUTANTS

pytestmark = pytest.mark.slow

Config = tuple[str, Options, Readings]


def _configs() -> list[Config]:
    """The configurations prove's match stage ran, then those of the catalogue's test.match mutants not among them."""
    out: list[Config] = [(rid, opts, rd) for rid in sorted(rulesets()) for opts, rd in match_configs(rid)]
    for m in sorted(MUTANTS.values(), key=lambda m: m.id):
        if m.stage == "test.match":
            c = (m.ruleset, tuple(sorted(m.options.items())), tuple(sorted(m.readings.items())))
            if c not in out:
                out.append(c)
    return out


CONFIGS = tuple(_configs())


# the variants already run by an earlier configuration of this module, by their rules: a third of the 410 variant
# runs of CONFIGS are of rules another configuration's variants already ran (a row of the covering that sets every
# option the configuration's base sets), and a run is a function of its rules and seed alone (the driver seeds its
# generator from them), so each distinct variant is run once and its result read again
_RUN: dict[tuple[Any, ...], tuple[Rules, Counterexample | None, SteerVariant]] = {}


def _run_rules(rules: Rules, cache: Any) -> tuple[Counterexample | None, list[SteerVariant]]:
    """:func:`tests.steered.runs.run_rules` (seed 0), a variant already run in this module read from its run."""
    runs = []
    for v in variant_runs(rules, 0, cache):
        key = (v.rules.ruleset.id, tuple(sorted((k, repr(x)) for k, x in v.rules.option_map.items())),
               tuple(sorted(v.rules.ruleset.readings.items())), v.label)
        done = _RUN.get(key)
        if done is None or done[0] != v.rules:
            done = _RUN[key] = (v.rules, v.run(), v)
        runs.append(done[2])
        if done[1] is not None:
            return done[1], runs
    return None, runs


@pytest.mark.parametrize(("rid", "opts", "readings"), CONFIGS, ids=[config_label(*c) for c in CONFIGS])
def test_the_true_engine_passes_every_variant_and_reaches_every_transition(
        rid: str, opts: Options, readings: Readings, steer_terms: Any) -> None:
    rules = configured_rules(rid, dict(opts), dict(readings))
    bad, runs = _run_rules(rules, steer_terms)
    assert bad is None, bad.witness(rules).text()
    assert runs
    for v in runs:
        missing = [k for k in KIND_IDS if not_applicable(k, v.rules) is None and v.coverage[k] == 0]
        assert not missing, f"never reached: {missing}; {v.coverage_text()}"
        assert v.points > 1000, v.coverage_text()


# the steered matches under a few configurations beyond the variants' defaults
STEER_CONFIGS: tuple[tuple[str, dict[str, OptionValue]], ...] = (*((rid, {}) for rid in sorted(rulesets())),
    ("classic", {"auction": "continuous", "egyptian": True, "must_trump": True, "direction": "cw"}),
    ("classic", {"all_pass": "dealer-forced", "kaboot": "double", "bid13": "26", "scoring": "bid-only",
                 "play_on": 10}),
    ("bsfyi-41", {"rising_min_bid": True, "made_bid_wins": 10, "trump_source": "revealed-suit"}),
)


@pytest.mark.parametrize(("rid", "opts"), STEER_CONFIGS)
def test_steered_matches_refine_the_encoded_steps(rid: str, opts: dict[str, OptionValue], steer_terms: Any) -> None:
    rules = load_rules(rid, opts)
    got = steered_matches(rules, seed=7, cache=steer_terms)  # raises MatchMismatch on a disagreement
    assert len(got) >= 7
    for s in got:  # every match ends at a deal boundary and replays from its start and history
        assert s.match.phase.value in ("deal", "over")
        again = Match.at(rules, *s.start)
        for a in s.match.history:
            again.apply(a)
        assert [x.scores_after for x in again.records] == [x.scores_after for x in s.match.records]
    run = SteerVariant(rules, "this configuration", seed=7, cache=steer_terms)  # every step, every transition
    assert run.run() is None and run.points > 1000


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_the_reductions_the_encoding_is_read_through_hold(rid: str) -> None:
    """The legal set by the hand with its suits filled up, the trick winner by its canonical form, a weak hand card by
    card: each proved in Z3 (hypotheses satisfiable, no counterexample) for the encoding of every variant."""
    got = variant_lemmas(load_rules(rid, {}))
    assert len(got) >= 3
    assert [bad for lemma in got if (bad := lemma_failure(lemma)) is not None] == []
