"""Each mutant of the mini engine carries one rule bug; verify, vectors and fuzz must catch it with its clause.

Sizes are kept small. Two bugs need rare positions (both teams qualifying with team 1 ahead;
a partner at exactly 0); see MISSED and the seeds below for what the small sizes do and do not show.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb import vectors as V
from tarneeb.fuzz import fuzz
from tarneeb.protocol import Engine
from tarneeb.records import verify_paths
from tarneeb.spec import load_rules

ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"

# mutant -> (ruleset, options, clause, fuzz deals, fuzz seed, self-play matches)
MUTANTS: dict[str, tuple[str, dict[str, Any], str, int, str, int]] = {
    "team-tricks": ("eram-41", {}, "score.individual", 20, "0", 3),
    "team-sum-wins": ("card-kings-41", {}, "win.qualify", 200, "0", 10),
    "partner-nonneg": ("card-kings-41", {}, "win.qualify", 300, "3", 60),
    "tie-team0": ("card-kings-41", {}, "tie.both-qualify", 0, "s", 0),
    "sorted-reveal": ("eram-41", {}, "trump.source", 20, "0", 2),
    "redeal-dealer": ("card-kings-41", {}, "redeal.dealer", 60, "0", 3),
    "pass-41": ("tarneeb-400", {}, "bid.no-pass", 20, "0", 2),
    "failed-pays": ("bsfyi-41", {}, "score.individual", 20, "0", 3),
    "no-follow-void-trump": ("classic", {"must_trump": True}, "play.follow", 20, "0", 3),
}
# Known misses at test sizes: (mutant, method). tie-team0 needs both teams to qualify on one deal
# with team 1 ahead; the fuzzer finds it at seed "s" after 396 deals (about 10 s), too slow here,
# and 100 self-play matches of the mini engine never produced such a deal.
MISSED = {("tie-team0", "verify"), ("tie-team0", "fuzz")}


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


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if (m, "fuzz") not in MISSED])
def test_fuzz_catches_the_mutant(mutant: str) -> None:
    rid, opts, clause, deals, seed, _ = MUTANTS[mutant]
    with Engine(_cmd(mutant)) as eng:
        res = fuzz(eng, load_rules(rid, opts), deals, seed)
    assert res.divergence is not None and res.divergence.clause == clause, res.to_json()
    assert res.shrunk is not None and res.shrunk.clause == clause
    from tarneeb.records import verify_lines

    summary, _ = verify_lines(res.reproducer)  # the reproducer is a game record that verify also flags
    assert summary.errors == 0 and summary.by_clause[clause] > 0, summary.to_json()


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if (m, "verify") not in MISSED])
def test_verify_catches_the_mutant_records(mutant: str, tmp_path: Path) -> None:
    rid, opts, clause, _, _, matches = MUTANTS[mutant]
    out = tmp_path / "games.jsonl"
    args = [sys.executable, str(ENGINE), "--mutant", mutant, "selfplay", "--ruleset", rid,
            "--matches", str(matches), "--seed", "1", "--out", str(out)]
    args += [f"--option={k}={str(v).lower()}" for k, v in opts.items()]
    subprocess.run(args, check=True, timeout=120)
    summary = verify_paths([str(out)], jobs=1, on_report=lambda rep: None)
    assert summary.errors == 0 and summary.by_clause[clause] > 0, summary.to_json()


def test_the_correct_mini_engine_records_verify_clean(tmp_path: Path) -> None:
    for rid, opts in (("card-kings-41", {}), ("classic", {"must_trump": True}), ("bsfyi-41", {})):
        out = tmp_path / f"{rid}.jsonl"
        args = [sys.executable, str(ENGINE), "selfplay", "--ruleset", rid, "--matches", "3", "--seed", "2",
                "--out", str(out)] + [f"--option={k}={str(v).lower()}" for k, v in opts.items()]
        subprocess.run(args, check=True, timeout=120)
        summary = verify_paths([str(out)], jobs=1, on_report=lambda rep: None)
        assert summary.divergences == 0 and summary.errors == 0 and summary.hands > 0, summary.to_json()
