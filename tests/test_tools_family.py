"""Family ``tools`` of ``tarneeb prove`` (tarneeb_proofs.tools_family): clean runs pass, every tools mutant of the
catalogue (tarneeb_proofs.mutants, stage "tools") is caught with a counterexample naming the tool's function, an
input and the clause, and the matches reach the transitions the checks need."""

from __future__ import annotations

import collections
import dataclasses

import pytest

from tarneeb.conformance.protocol import PERFT_CLAUSE
from tarneeb.core.spec import OptionValue, get_ruleset, load_rules, rulesets
from tarneeb_proofs import tools_family as T
from tarneeb_proofs.mutants import MUTANTS, applied
from tarneeb_proofs.obligations import run_check
from tarneeb_proofs.registry import INVARIANTS, all_checks

TOOL_MUTANTS = [m for m in MUTANTS.values() if m.stage == T.FAMILY]
CONFIGS = [(rid, v) for rid, vs in T.VARIANTS.items() for v in vs]


def test_the_family_is_registered_for_every_ruleset() -> None:
    assert T.FAMILY in INVARIANTS
    checks = [c for c in all_checks() if c.invariant == T.FAMILY]
    assert {c.ruleset for c in checks} == set(rulesets())
    assert {c.stage for c in checks if c.mutant is None} == set(T.STAGES)
    assert {c.ruleset for c in checks if c.mutant} == set(rulesets())  # a mutant caught in every ruleset


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_the_clean_tools_pass(rid: str, opts: dict[str, OptionValue]) -> None:
    assert T.tools_failure(rid, opts) is None


@pytest.mark.parametrize("mid", [m.id for m in TOOL_MUTANTS])
def test_every_tools_mutant_is_caught(mid: str) -> None:
    """Under the mutant the tools checks end in a counterexample naming the tool's function (in the mutant's
    module), the input (ruleset, match, line or deal) and the clause with its source; without it they pass."""
    m = MUTANTS[mid]
    assert T.tools_failure(m.ruleset, m.options) is None
    with applied(mid):
        w = T.tools_failure(m.ruleset, m.options)
    assert w is not None, f"{mid} ({m.text}) is not caught"
    facts = dict(w.rows)
    assert m.module in facts["tool function"], (mid, facts["tool function"])
    assert m.ruleset in facts["input"] and ("line" in facts["input"] or "deal" in facts["input"])
    assert facts["tool says"] and facts["expected"]
    clauses = get_ruleset(m.ruleset).clauses
    assert len(w.clauses) == 1 and (w.clauses[0] in clauses or w.clauses[0] == PERFT_CLAUSE)
    assert facts["clause"] == T.clause_text(load_rules(m.ruleset, m.options), w.clauses[0])
    assert "not a clause" not in facts["clause"]


def test_the_mutant_checks_of_the_manifest_are_counterexamples() -> None:
    checks = [c for c in all_checks() if c.invariant == T.FAMILY and c.mutant is not None]
    assert checks
    for c in checks[:3]:
        res = run_check(c)
        assert res.status == "counterexample" and res.witness is not None, c.id


def test_the_matches_reach_the_transitions_the_tools_must_follow() -> None:
    """Cancelled deals one, two and three in a row in every ruleset where they can occur (every ruleset but the
    dealer-forced auction), weak hands and play-on where the options allow them, bids of 13, games won."""
    for rid, vs in T.VARIANTS.items():
        for v in vs:
            rules = load_rules(rid, v)
            c: collections.Counter[str] = collections.Counter()
            for rec in T._recorded(rid, rules.options):
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
            assert all(c[k] > 0 for k in want), (rid, v, dict(c))


def test_a_corruption_is_reported_on_both_paths_and_the_table_decides_the_clause() -> None:
    """The table's clause is not the verifier's: a corruption whose report the verifier cites under another
    clause is a counterexample (the trick leader's clause swapped in the table)."""
    rules = load_rules("eram-41")
    old = T.CORRUPTIONS
    swapped = tuple(dataclasses.replace(c, clauses=lambda x: ("play.winner",)) if c.name == "trick leader" else c
                    for c in old)
    try:
        T.CORRUPTIONS = swapped
        w = T.tools_failure("eram-41", {}, ("corruption",))
    finally:
        T.CORRUPTIONS = old
    assert w is not None and "leader" in dict(w.rows)["input"] and w.clauses == ["play.winner"]
    assert T.tools_failure(rules.id, {}, ("corruption",)) is None


def test_a_stale_tools_mutant_fails_its_check_without_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tools mutant whose text was edited away (vref-perft-no-card-zero after the perft clause changed) crashed
    # the whole `tarneeb prove` with a traceback; now its check fails as vacuous, naming the mutant
    import dataclasses

    from tarneeb_proofs import mutants as MU
    from tarneeb_proofs import tools_family as TF
    from tarneeb_proofs.encode import Encoding
    from tarneeb_proofs.obligations import _run_check

    name = "vref-perft-no-card-zero"
    monkeypatch.setitem(MU.MUTANTS, name, dataclasses.replace(MU.MUTANTS[name], old="no such text in the module"))
    check = next(c for c in TF.tools_checks() if c.mutant == name)
    obs = check.build(Encoding(check.rules()))
    assert len(obs) == 1 and obs[0].name.startswith("stale mutant, it no longer applies")
    res = _run_check(check)
    assert res.status == "vacuous" and not res.ok


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_the_tools_run_on_the_match_stage_s_steered_matches(rid: str) -> None:
    """Every steered match of the match stage that starts at a match's first game (a record's header cannot give
    games already won or a raised target) is among the records the tools are checked on, with its deals."""
    from tarneeb_proofs.match_stage import steered_matches

    for v in T.VARIANTS.get(rid, [{}]):
        rules = load_rules(rid, v)
        want = [s for s in steered_matches(rules, T.SEED) if s.start.target is None and not s.start.games]
        assert len(want) >= 5, (rid, v)
        recs = {rec.name: rec for rec in T._recorded(rid, rules.options)}
        for s in want:
            rec = recs[f"steered match '{s.scenario}'"]
            assert len(rec.m.records) == len(s.match.records) > 0 and len(rec.lines) == 1 + len(s.match.records)


def test_an_engine_bug_in_the_steered_matches_is_the_match_stage_s_counterexample_not_a_crash() -> None:
    """The tools run on the match stage's steered matches: where the engine itself disagrees with the encoding
    there (an engine mutant), the tools checks end in the match stage's counterexample instead of raising."""
    T._recorded.cache_clear()
    try:
        with applied("match-second-redeal-next-seat"):
            w = T.tools_failure("card-kings-41", {})
    finally:
        T._recorded.cache_clear()
    assert w is not None and "match machine disagrees with the encoding" in w.title
    assert dict(w.rows)["engine function"] == "tarneeb.core.match.Match"
