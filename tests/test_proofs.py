"""The proofs against ``proofs/manifest.json``: every check run once per session, results equal to the manifest."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

pytest.importorskip("z3")

from tarneeb.core.cards import card_str  # noqa: E402
from tarneeb.core.spec import rulesets  # noqa: E402
from tarneeb_proofs import manifest  # noqa: E402
from tarneeb_proofs.checks import INVARIANTS, Check, Result, all_checks, run_check  # noqa: E402


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return [run_check(c) for c in all_checks()]


def test_every_result_matches_the_manifest(results: list[Result]) -> None:
    entries = manifest.load()
    assert entries, "proofs/manifest.json is missing or empty"
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
        clauses = set(rulesets()[r.check.ruleset].clauses)
        assert r.witness.clauses and set(r.witness.clauses) <= clauses, r.check.id
        assert "clauses: " + ", ".join(r.witness.clauses) in text
    # card situations print cards by rank and suit, as the engine writes them
    follow = next(r for r in cex if r.check.mutant == "winner-ignores-trump")
    assert follow.witness is not None
    facts = dict(follow.witness.rows)
    played = facts["cards in play order"].split()
    assert len(played) == 4 and all(c in {card_str(x) for x in range(52)} for c in played)
    auction = next(r for r in cex if r.check.mutant == "passed-may-reenter" and r.check.invariant == "bids")
    assert auction.witness is not None and "to speak" in dict(auction.witness.rows)


def test_shared_obligations_are_proved_once_and_reported(results: list[Result]) -> None:
    tricks = [r for r in results if r.check.invariant == "tricks" and r.check.mutant is None]
    assert sum(r.shared > 0 for r in tricks) >= len(tricks) - 1


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
