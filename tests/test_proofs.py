"""The proofs against ``proofs/tarneeb_proofs/manifest.json``: every check run once per session, results equal to the manifest."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

z3 = pytest.importorskip("z3")

from tarneeb.conformance.protocol import PERFT_CLAUSE  # noqa: E402
from tarneeb.core.cards import card_str  # noqa: E402
from tarneeb.core.sources import rule_words  # noqa: E402
from tarneeb.core.spec import rulesets  # noqa: E402
from tarneeb_proofs import manifest  # noqa: E402
from tarneeb_proofs.encode import Encoding, holds, suit_mask, suit_of  # noqa: E402
from tarneeb_proofs.obligations import Check, Obligation, Result, formula_key, run_all, run_check  # noqa: E402
from tarneeb_proofs.registry import INVARIANTS, all_checks  # noqa: E402

PROVE_JOBS = 2


@pytest.fixture(scope="module")
def results() -> list[Result]:
    # in PROVE_JOBS processes, as tarneeb prove --jobs runs them: the first file either test worker takes, it
    # proves the engine cold for the files after it
    return list(run_all(all_checks(), jobs=PROVE_JOBS, cost=manifest.expected_seconds()))


def test_every_result_matches_the_manifest(results: list[Result]) -> None:
    entries = manifest.load()
    assert entries, "proofs/tarneeb_proofs/manifest.json is missing or empty"
    checks = [r.check for r in results]
    assert manifest.problems(checks, results, entries, complete=True) == []
    assert {c.id for c in checks} == set(entries)
    assert len({c.id for c in checks}) == len(checks), "two checks share an id"


def test_manifest_expectations_are_the_kind_defaults() -> None:
    """A proof is expected proved and a mutant a counterexample; a flipped expectation needs review here."""
    for cid, e in manifest.load().items():
        assert e["expected"] == ("counterexample" if e["mutant"] else "proved"), cid
        assert e["runtime_s"] >= 0


def test_no_result_is_unknown_or_vacuous(results: list[Result]) -> None:
    bad = [(r.check.id, r.status, r.obligation, r.detail) for r in results if r.status not in ("proved", "counterexample")]
    assert bad == []


def test_every_family_has_a_mutant_caught_per_ruleset(results: list[Result]) -> None:
    caught: dict[tuple[str, str], int] = collections.Counter()
    applies: set[tuple[str, str]] = set()
    for r in results:
        applies.add((r.check.invariant, r.check.ruleset))
        if r.check.mutant and r.status == "counterexample":
            caught[(r.check.invariant, r.check.ruleset)] += 1
    missing = sorted(k for k in applies if not caught[k])
    assert missing == []
    assert {inv for inv, _ in applies} == set(INVARIANTS)
    assert {rid for _, rid in applies} == set(rulesets())


def test_counterexamples_read_as_game_situations(results: list[Result]) -> None:
    cex = [r for r in results if r.status == "counterexample"]
    assert cex
    for r in cex:
        assert r.witness is not None, r.check.id
        text = r.witness.text()
        assert r.witness.rows, r.check.id
        clauses = set(rulesets()[r.check.ruleset].clauses) | {PERFT_CLAUSE}  # perft: the protocol's definition
        assert r.witness.clauses and set(r.witness.clauses) <= clauses, r.check.id
        assert "clauses: " + ", ".join(rule_words(c) for c in r.witness.clauses) in text
    # card situations print cards by rank and suit, as the engine writes them
    follow = next(r for r in cex if r.check.mutant == "winner-ignores-trump" and r.check.invariant == "follow")
    assert follow.witness is not None
    facts = dict(follow.witness.rows)
    played = facts["cards in play order"].split()
    assert len(played) == 4 and all(c in {card_str(x) for x in range(52)} for c in played)
    trick = next(r for r in cex if r.check.mutant == "next-lead-after-winner")
    assert trick.witness is not None
    facts = dict(trick.witness.rows)
    assert len(facts["trick so far"].split()) == 3 and "plays" in facts["to play"]
    assert facts["leader after the play (encoding)"].startswith("player ")
    refused = next(r for r in cex if r.check.mutant == "dealer-match-ignored" and r.check.invariant == "bids")
    assert refused.witness is not None
    assert "(matching)" in dict(refused.witness.rows)["refused (encoding), though the rules allow it"]
    auction = next(r for r in cex if r.check.mutant == "passed-may-reenter" and r.check.invariant == "bids")
    assert auction.witness is not None and "to speak" in dict(auction.witness.rows)


def test_prove_runs_only_proofs() -> None:
    """The bounded checks are tests, not prove's: no tools family (tests/test_verify_tools.py and the files it names),
    no match stage of the engine family (tests/test_match_steered*.py), no check or manifest entry of either, and no
    mutant of a test.* stage among prove's mutant checks."""
    from tarneeb_proofs.engine_family import READING_STAGES, STAGES
    from tarneeb_proofs.mutants import MUTANTS

    assert "tools" not in INVARIANTS and "match" not in STAGES
    assert not any("match" in stages for stages in READING_STAGES.values())
    ids = {c.id for c in all_checks()}
    assert not {i for i in ids if i.startswith(("tools", "engine.match:"))}
    assert not {i for i in manifest.load() if i.startswith(("tools", "engine.match:"))}
    assert not {c.mutant for c in all_checks() if c.mutant in MUTANTS and MUTANTS[c.mutant].stage.startswith("test.")}


# the obligations of the play (permissions, play.lead, play.winner / play.next-lead) and the mutants that refute them
REFUTED_BY = {
    "permissions: any lead": {"discard-forbidden", "lead-trump-forbidden", "must-trump-highest"},
    "permissions: every bid in range": {"top-bid-refused", "rising-min-early", "bids-capped-at-2"},
    "permissions: a pass (but the forced dealer's)": {"dealer-match-ignored", "opener-must-bid",
                                                      "same-level-strain-refused"},
    "the first trick is led by": {"lead-by-dealer", "turn-step-2"},
    "the fourth card's trick goes to": {"next-lead-after-winner", "winner-ignores-trump", "turn-step-2"},
}


def test_each_new_obligation_fails_on_its_mutants(results: list[Result]) -> None:
    """Every permission / lead / next-lead obligation is the one a mutant that breaks it fails on."""
    for prefix, mutants in REFUTED_BY.items():
        hits = [r for r in results if r.status == "counterexample" and r.obligation.startswith(prefix)]
        assert {r.check.mutant for r in hits} == mutants, prefix
        # and it is proved in every check that has it
        assert all(r.status == "proved" for r in results if r.check.mutant is None)


def test_shared_obligations_are_proved_once_and_reported(results: list[Result]) -> None:
    # each process proves the obligations its tricks checks share once, in the first of them it runs
    tricks = [r for r in results if r.check.invariant == "tricks" and r.check.mutant is None]
    assert sum(r.shared > 0 for r in tricks) >= len(tricks) - PROVE_JOBS


def test_write_manifest_refuses_a_flipped_expectation(results: list[Result], tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    assert manifest.save(results, path) == []
    flipped = list(results)
    i = next(i for i, r in enumerate(flipped) if r.check.mutant)
    r0 = flipped[i]
    flipped[i] = Result(r0.check, "proved", r0.runtime)
    refused = manifest.save(flipped, path)
    assert len(refused) == 1 and r0.check.id in refused[0]
    assert json.loads(path.read_text())["checks"][r0.check.id]["expected"] == "counterexample"
    assert manifest.save(flipped, path, accept=True) == []
    assert json.loads(path.read_text())["checks"][r0.check.id]["expected"] == "proved"
    # the run no longer matches the (edited) manifest
    assert manifest.problems([r.check for r in results], results, manifest.load(path), True)


def test_a_missing_check_is_reported() -> None:
    entries = manifest.load()
    checks: list[Check] = all_checks()
    assert any("missing from the manifest" in p for p in manifest.problems(checks, [], {}, True))
    assert any("no longer checked" in p for p in manifest.problems(checks[1:], [], entries, True))


def _one_obligation_check(*obs: Obligation) -> Check:
    return Check("follow", "classic", (), None, ("play.follow",), lambda enc: list(obs))


def test_a_guard_that_never_holds_is_reported_vacuous() -> None:
    """A guarded conjunct whose guard cannot hold with the hypotheses proves nothing: ``vacuous``, naming it."""
    x = z3.Int("x")
    ok = z3.Implies(x > 3, x > 2)
    never = z3.Implies(z3.And(x > 13, x < 5), x == 0)  # would be "proved" by an unsat guard
    r = run_check(_one_obligation_check(Obligation("impossible guard", [x >= 0], z3.And(ok, never))))
    assert r.status == "vacuous" and r.obligation == "impossible guard"
    assert "claim conjunct 2" in r.detail and "(> x 13)" in r.detail
    assert run_check(_one_obligation_check(Obligation("fine", [x >= 0], z3.And(ok, x >= 0)))).status == "proved"
    # a guard ruled out by the hypotheses only
    r = run_check(_one_obligation_check(Obligation("guard vs hyp", [x >= 0], z3.Implies(x < 0, x == 7))))
    assert r.status == "vacuous" and "claim conjunct 1" in r.detail
    # the hypotheses' guards, when asked for
    ob = Obligation("hyp guard", [z3.Implies(x > 5, x < 2), x >= 0], x >= 0, guards="claim+hyp")
    r = run_check(_one_obligation_check(ob))
    assert r.status == "vacuous" and "hypothesis 1 conjunct 1" in r.detail
    ob = Obligation("claim guards only", [z3.Implies(x > 5, x < 2), x >= 0], x >= 0, guards="claim")
    assert run_check(_one_obligation_check(ob)).status == "proved"


def test_a_rule_guard_the_ruleset_rules_out_is_vacuous() -> None:
    """The must-trump permission stated for a ruleset without must-trump: its guard never holds."""
    hand, led, trump, c = z3.BitVec("hand", 52), z3.BitVec("led", 6), z3.BitVec("trump", 6), z3.BitVec("c", 6)

    def build(enc: Encoding) -> list[Obligation]:
        void_with_trump = z3.And(z3.BoolVal(enc.r.must_trump), (hand & suit_mask(led)) == 0,
                                 (hand & suit_mask(trump)) != 0, holds(hand, c), suit_of(c) == trump)
        return [Obligation("must-trump permission", [z3.ULT(led, 4), enc.trump_ok(trump)],
                           z3.Implies(void_with_trump, enc.legal_play(hand, led, trump, c)))]

    opts = (("must_trump", False),)
    r = run_check(Check("follow", "classic", opts, None, ("play.follow",), build))
    assert r.status == "vacuous" and "claim conjunct 1" in r.detail
    assert run_check(Check("follow", "classic", (("must_trump", True),), None, ("play.follow",), build)).status \
        == "proved"


def test_formula_key_is_the_exact_formula() -> None:
    x, y = z3.Int("x"), z3.Int("y")
    k = formula_key([x >= 0], x + 1 > 0)
    assert k == formula_key([z3.Int("x") >= 0], z3.Int("x") + 1 > 0)  # rebuilt: the same fact
    assert len(k) == 64
    assert k != formula_key([x >= 1], x + 1 > 0)  # a different hypothesis
    assert k != formula_key([x >= 0], x + 2 > 0)  # a different claim
    assert k != formula_key([y >= 0], y + 1 > 0)  # another variable
    assert k != formula_key([], z3.Implies(x >= 0, x + 1 > 0))  # a hypothesis is not a guard
    b = z3.Bool("x")
    assert formula_key([b], b) != formula_key([z3.Bool("y")], z3.Bool("y"))


def test_an_exception_from_the_code_under_check_is_a_counterexample_not_an_error() -> None:
    """The engine refusing an action its own legal list offered (a held-out mutant: the auction's call table
    without the dealer) raised out of prove as 'tarneeb: error: ...', exit 2, as if the user's input were bad. An
    exception escaping the code an obligation runs, or the code that builds a check, fails that check naming the
    innermost function of the package, the message and the clause."""
    import z3

    from tarneeb import Match, load_rules
    from tarneeb.core.actions import Bid

    def refuse() -> None:
        m = Match(load_rules("eram-41", {}))
        m.apply(Bid(1))  # not a bid of the range: the engine raises IllegalBid

    def build(enc: object) -> list[Obligation]:
        return [Obligation("runs the engine", [], z3.BoolVal(True), run=lambda session: refuse())]

    def broken(enc: object) -> list[Obligation]:
        refuse()
        return []

    for how in (build, broken):
        res = run_check(Check("engine", "eram-41", (), None, ("bid.range",), how, stage="t"))
        assert res.status == "counterexample" and res.witness is not None, res
        rows = dict(res.witness.rows)
        assert rows["function"].startswith("tarneeb.core.transition.") and "bid" in rows["input"], rows
        assert res.witness.clauses in (["bid.range"], ["hand.tricks"]), res.witness.clauses
