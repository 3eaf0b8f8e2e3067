"""Each mutant of the mini engine carries one rule bug; verify, vectors and fuzz must each catch it with its clause.

Sizes are kept small. Two bugs show only in rare score states (both teams qualifying on one deal, a
partner at exactly 0): fuzz reaches them by starting a share of its matches part-way, near the
target, and the mini engine's self-play records for verify do the same (``--part-way``; the
records carry ``start_scores``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb.conformance import vectors as V
from tarneeb.conformance.fuzz import fuzz
from tarneeb.conformance.protocol import Engine
from tarneeb.core.spec import load_rules
from tarneeb.records import Divergence, read_records, verify_lines, verify_paths

ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"

# mutant -> (ruleset, options, clause, self-play matches for verify, share of them started part-way).
# The outcome bugs need a rare deal (both teams qualifying at once, a partner landing on exactly 0):
# 40 matches started part-way show it at every seed 1..10 tried, not only at the seed used here
# (and every other mutant is caught by its self-play records at every seed 1..10 tried as well).
MUTANTS: dict[str, tuple[str, dict[str, Any], str, int, float]] = {
    "team-tricks": ("eram-41", {}, "score.individual", 3, 0.5),
    "team-sum-wins": ("card-kings-41", {}, "win.qualify", 20, 1.0),
    "partner-nonneg": ("card-kings-41", {}, "win.qualify", 40, 1.0),
    "tie-team0": ("card-kings-41", {}, "tie.both-qualify", 40, 1.0),
    "sorted-reveal": ("eram-41", {}, "trump.source", 3, 0.0),
    "redeal-dealer": ("card-kings-41", {}, "redeal.dealer", 3, 0.0),
    "pass-41": ("tarneeb-400", {}, "bid.no-pass", 3, 0.0),
    "failed-pays": ("bsfyi-41", {}, "score.individual", 3, 0.5),
    "failed-split": ("card-kings-41", {}, "score.individual", 20, 1.0),
    "no-follow-void-trump": ("classic", {"must_trump": True}, "play.follow", 3, 0.0),
}
FUZZ_DEALS = 400  # budget per mutant; fuzz stops at the first divergence (at seed "0": 1 to 80 deals)
FUZZ_SEED = "0"


def _selfplay(mutant: str | None, rid: str, opts: dict[str, Any], matches: int, part_way: float, seed: str,
              out: Path) -> None:
    args = [sys.executable, str(ENGINE)] + (["--mutant", mutant] if mutant else []) + [
        "selfplay", "--ruleset", rid, "--matches", str(matches), "--seed", seed, "--out", str(out),
        "--part-way", str(part_way)]
    args += [f"--option={k}={str(v).lower()}" for k, v in opts.items()]
    subprocess.run(args, check=True, timeout=120)


def _cmd(mutant: str) -> str:
    return f"{sys.executable} {ENGINE} --mutant {mutant}"


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_vectors_catch_the_mutant(mutant: str) -> None:
    rid, opts, clause, *_ = MUTANTS[mutant]
    with Engine(_cmd(mutant)) as eng:
        rep = V.run_vectors(eng, V.vector_paths(V.default_dir(), rid))
    assert rep.failed > 0
    top = max(rep.by_clause.items(), key=lambda kv: kv[1])[0]
    assert top == clause, rep.by_clause


def _clauses(clause: str) -> set[str]:
    """The clauses a report of the mutant may cite: a wrong individual score change cites score.values where the
    first seat that differs kept the sign of its change (core.clauses.deltas_clause), else score.individual."""
    return {clause, "score.values"} if clause == "score.individual" else {clause}


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_fuzz_catches_the_mutant(mutant: str) -> None:
    rid, opts, clause, *_ = MUTANTS[mutant]
    with Engine(_cmd(mutant)) as eng:
        res = fuzz(eng, load_rules(rid, opts), FUZZ_DEALS, FUZZ_SEED)
    assert res.divergence is not None and res.divergence.clause in _clauses(clause), res.to_json()
    assert res.shrunk is not None and res.shrunk.clause == res.divergence.clause
    assert res.reproducer_deals == 1  # shrunk to the divergent deal, started part-way from its scores
    summary, _ = verify_lines(res.reproducer)  # the reproducer is a game record that verify also flags
    assert summary.errors == 0 and summary.by_clause[res.shrunk.clause] > 0, summary.to_json()


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_fuzz_and_verify_name_the_same_clause(mutant: str) -> None:
    """On several seeds, the clause fuzz names is the clause of verify's independent report of the same field on
    fuzz's reproducer (spec/protocol/README.md: the same clause for the same divergence)."""
    rid, opts, clause, *_ = MUTANTS[mutant]
    field = {"winner": "outcome.winner", "next_dealer": "dealer"}  # fuzz's field -> the record's
    seen = 0
    for seed in ("1", "2", "3"):
        with Engine(_cmd(mutant)) as eng:
            res = fuzz(eng, load_rules(rid, opts), FUZZ_DEALS, seed)
        if res.shrunk is None:
            continue
        seen += 1
        _, reps = verify_lines(res.reproducer)
        ind = {(d.field, d.clause) for d in reps if isinstance(d, Divergence) and d.independent}
        fld = field.get(res.shrunk.field, res.shrunk.field)
        same = {c for f, c in ind if f == fld or fld in ("legal actions", "to_move")}
        assert res.shrunk.clause in same, (seed, res.shrunk.field, res.shrunk.clause, ind)
    assert seen >= 2, mutant


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_verify_catches_the_mutant_records(mutant: str, tmp_path: Path) -> None:
    rid, opts, clause, matches, part_way = MUTANTS[mutant]
    out = tmp_path / "games.jsonl"
    _selfplay(mutant, rid, opts, matches, part_way, "1", out)
    summary = verify_paths([str(out)], jobs=1, on_report=lambda rep: None)
    assert summary.errors == 0 and summary.by_clause[clause] > 0, summary.to_json()


@pytest.mark.parametrize("rid,opts,part_way", [("card-kings-41", {}, 0.0), ("card-kings-41", {}, 1.0),
                                               ("classic", {"must_trump": True}, 0.5), ("bsfyi-41", {}, 1.0),
                                               ("tarneeb-400", {}, 1.0)])
def test_the_correct_mini_engine_records_verify_clean(rid: str, opts: dict[str, Any], part_way: float,
                                                      tmp_path: Path) -> None:
    out = tmp_path / f"{rid}.jsonl"
    _selfplay(None, rid, opts, 4, part_way, "2", out)
    heads = [it for it in read_records(out) if getattr(it, "start_scores", None) is not None]
    assert (len(heads) > 0) == (part_way > 0)  # matches started part-way say so in their header
    summary = verify_paths([str(out)], jobs=1, on_report=lambda rep: None)
    assert summary.divergences == 0 and summary.errors == 0 and summary.hands > 0, summary.to_json()
