"""The engine family's match stage (tarneeb_proofs.match_stage): steered matches through every kind of transition.

Bounded: a test over the steered matches, not a proof. Every bug of ``_MATCH`` in tarneeb_proofs/mutants.py (the
state machine in core/match.py and the hand steps in core/hand.py), patched into the running engine, must end in a
counterexample naming the transition, an input and a clause; the true engine passes every variant with no zero in
its coverage where a transition can occur; ``tarneeb prove`` prints the coverage and carries it in --json.
"""

from __future__ import annotations

import itertools
import json

import pytest

pytest.importorskip("z3")

from tarneeb.cli import main  # noqa: E402
from tarneeb.core.ambiguity import with_readings  # noqa: E402
from tarneeb.core.spec import get_ruleset, load_rules, rulesets  # noqa: E402
from tarneeb_proofs import match_stage as MS  # noqa: E402
from tarneeb_proofs.mutants import MUTANTS, applied  # noqa: E402
from tarneeb_proofs.obligations import run_check  # noqa: E402
from tarneeb_proofs.registry import all_checks  # noqa: E402

MATCH_MUTANTS = sorted(k for k, m in MUTANTS.items() if m.stage == "engine.match")


def test_the_catalogue_has_the_match_machine_bugs() -> None:
    assert len(MATCH_MUTANTS) >= 14
    modules = {MUTANTS[k].module for k in MATCH_MUTANTS}
    assert modules >= {"tarneeb.core.match", "tarneeb.core.hand"}
    assert {MUTANTS[k].kind for k in MATCH_MUTANTS} <= {"transition", "special-case", "boundary"}


@pytest.mark.parametrize("mid", MATCH_MUTANTS)
def test_match_mutant_is_caught(mid: str) -> None:
    m = MUTANTS[mid]
    rules = load_rules(with_readings(get_ruleset(m.ruleset), m.readings), m.options)  # under the readings it shows in
    with applied(mid):
        bad, _ = MS.run_rules(rules)
    assert bad is not None, f"{mid} ({m.text}) not caught under {m.ruleset} {m.options} {m.readings}"
    w = bad.witness(rules)
    facts = dict(w.rows)
    assert facts["engine function"] == "tarneeb.core.match.Match"
    assert facts["transition"].startswith("Match"), facts  # a transition of the machine, not a coverage gap
    assert facts["input"].startswith(f"{m.ruleset} [") and "scenario" in facts["input"] and "deal" in facts["input"]
    assert facts["engine returns"] != facts["encoding gives"]
    assert len(w.clauses) == 1 and w.clauses[0] in rules.ruleset.clauses
    assert facts["clause"] == rules.ruleset.cite(w.clauses[0])
    assert "bounded" in w.title


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_the_true_engine_passes_every_variant_and_reaches_every_transition(rid: str) -> None:
    bad, runs = MS.run_rules(load_rules(rid, {}))
    assert bad is None, bad
    assert runs
    for v in runs:
        for k in MS.KIND_IDS:
            why = MS.not_applicable(k, v.rules)
            assert why is not None or v.coverage[k] > 0, f"{rid} [{v.label}]: {k} never reached"
        assert v.points > 1000


def test_the_registered_check_reports_its_coverage() -> None:
    [c] = [c for c in all_checks() if c.id == "engine.match:card-kings-41:default"]
    res = run_check(c)
    assert res.status == "proved"
    rows = res.data["coverage"]
    assert len(rows) == len(MS.variant_runs(c.rules()))
    assert all(row["ruleset"] == "card-kings-41" and row["counts"]["deal"] > 0 for row in rows)
    assert rows[0]["na"]["kaboot-bid"] == "the individual family has no score.kaboot clause"


def test_a_transition_never_reached_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = MS._ind_scenarios

    def fewer(r: object, ex: object) -> list[MS.Scenario]:
        return [s for s in real(rules, ex) if "13 made" not in s.name]  # type: ignore[arg-type]

    monkeypatch.setattr(MS, "_ind_scenarios", fewer)
    rules = load_rules("eram-41", {})
    run = MS.SteerVariant(rules, "default")
    bad = run.run()
    assert run.coverage["13made"] == 0 and run.coverage["1xT"] == 0  # what that scenario alone reached
    assert bad is not None and bad.transition.startswith("transition 1xT (1 cancelled deal(s) in a row")
    assert bad.transition.endswith("never reached under eram-41/default") and bad.engine == "0 times"
    assert bad.clause == "bid.total" and "scenarios:" in bad.inputs


def test_not_applicable_gives_reasons() -> None:
    classic = load_rules("classic", {})
    assert MS.not_applicable("weak", classic) == "weak_redeal = false (off)"
    assert MS.not_applicable("all-pass", load_rules("classic", {"all_pass": "dealer-forced"})) is not None
    assert MS.not_applicable("forced", load_rules("classic", {"all_pass": "dealer-forced"})) is None
    assert MS.not_applicable("play-on", classic) is not None
    assert MS.not_applicable("play-on", load_rules("classic", {"play_on": 10})) is None
    assert MS.not_applicable("total<", classic) == "the auction family has no bid.total clause"
    assert MS.not_applicable("madebid", load_rules("bsfyi-41", {})) == "made_bid_wins = 0 (off)"
    assert MS.not_applicable("madebid", load_rules("bsfyi-41", {"made_bid_wins": 10})) is None
    assert MS.not_applicable("3xmix", load_rules("classic", {"weak_redeal": True})) is None


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_variants_run_every_value_and_every_group_product(rid: str) -> None:
    rs = get_ruleset(rid)
    vs = MS.variants(rs)
    opts = {o.name: o for o in rs.options}
    for name, o in opts.items():
        assert {v[name] for v in vs} == set(MS.option_values(o)), name
    for g in MS.GROUPS:
        names = [n for n in g if n in opts]
        if not names:
            continue
        want = set(itertools.product(*[MS.option_values(opts[n]) for n in names]))
        assert {tuple(v[n] for n in names) for v in vs} == want, g
    for v in vs:
        load_rules(rid, v)


def test_prove_prints_the_coverage_and_carries_it_in_json(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["prove", "--invariant", "engine", "--ruleset", "tarneeb-400"]) == 0
    out = capsys.readouterr().out
    assert "engine.match coverage, individual family (bounded" in out
    assert "tarneeb-400 [target=61]" in out and "n/a:" in out and "kaboot-bid" not in out.split("coverage")[1][:2000]
    assert main(["prove", "--invariant", "engine", "--ruleset", "tarneeb-400", "--json"]) == 0
    seq = json.loads(capsys.readouterr().out)
    assert main(["prove", "--invariant", "engine", "--ruleset", "tarneeb-400", "--json", "--jobs", "2"]) == 0
    par = json.loads(capsys.readouterr().out)
    assert seq["coverage"] and par["coverage"] == seq["coverage"]  # back from the worker processes too
    # the ruleset's own variants, then the checks under a reading of the register (issue 23), labelled as such
    assert {row["variant"] for row in seq["coverage"] if ";reading" not in row["variant"]} == {"default", "target=61"}
    assert {row["variant"].split(";reading ")[1] for row in seq["coverage"] if ";reading" in row["variant"]} == {
        "first-dealer=seat0", "400-direction=option"}


def test_steered_matches_are_finished_and_replay_from_their_start() -> None:
    rules = load_rules("classic", {"weak_redeal": True, "play_on": 10})
    got = MS.steered_matches(rules)
    assert {s.scenario for s in got} and all(s.match.phase.value in ("deal", "over") for s in got)
    causes = {rec.redeal for s in got for rec in s.match.records}
    assert {"auction.all-pass", "deal.weak-redeal", None} <= causes
