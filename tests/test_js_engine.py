"""The JavaScript reference client (examples/js_engine, written from spec/protocol/ only) passes every
card-kings-41 vector through `tarneeb vectors run`, and `vectors run` and `fuzz` catch each bug planted in it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tarneeb.cli import main
from tarneeb.conformance import vectors as V
from tarneeb.conformance.protocol import Engine

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (.ci/run installs Node.js)")

JS = f"node {Path(__file__).resolve().parents[1] / 'examples/js_engine/engine.js'}"
# mutant -> the clause a failure must cite
MUTANTS = {"live-failed-pays": "score.individual", "partner-zero": "win.qualify", "redeal-next": "redeal.dealer"}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["vectors", "run", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_js_engine_passes_every_card_kings_vector(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vectors", "run", "--engine", JS, "--ruleset", "card-kings-41"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1264 passed, 0 failed"), out


def test_rulesets_the_engine_does_not_list_are_skipped_not_failed(capsys: pytest.CaptureFixture[str]) -> None:
    code, rep = _run(capsys, "--engine", JS, "--category", "outcome")
    assert code == 0 and rep["failed"] == 0 and rep["passed"] == 150
    others = {p.parent.name: sum(len(g["tests"]) for g in json.loads(p.read_text()))
              for p in V.vector_paths(V.default_dir(), categories=["outcome"]) if p.parent.name != "card-kings-41"}
    assert rep["skipped"] == others and len(others) == 4
    assert main(["vectors", "run", "--engine", JS, "--ruleset", "classic"]) == 2  # nothing it can run
    assert "supports none" in capsys.readouterr().out


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_vectors_run_catches_the_planted_bug(mutant: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, rep = _run(capsys, "--engine", f"{JS} --mutant {mutant}", "--ruleset", "card-kings-41",
                     "--max-failures", "1")
    assert code == 1
    by_clause = rep["failures_by_clause"]
    assert isinstance(by_clause, dict) and next(iter(by_clause)) == MUTANTS[mutant], by_clause
    f = rep["failures"][0]  # type: ignore[index]
    # enough to locate the bug without opening the file: the request, and for deals the bids, tricks and scores
    assert f["request"] and f["selector"].startswith("card-kings-41/")
    if f["category"] in ("hand", "match"):
        assert "bids: player " in f["story"] and "trick 1 led by player " in f["story"]
        assert "scores before: player 1 " in f["story"]
    # pasting its request lines into the engine reproduces what the engine gave
    with Engine(f"{JS} --mutant {mutant}") as eng:
        answers = [eng.request(json.loads(x)) for x in f["requests"]]
    key = f["field"].split(".")[-1]
    if key in answers[-1]:
        assert answers[-1][key] == f["got"], (answers[-1], f)
    # the selector reruns that test alone
    code, one = _run(capsys, "--engine", f"{JS} --mutant {mutant}", "--only", f["selector"])
    assert code == 1 and one["passed"] == 0 and one["failed"] == 1


def test_only_the_live_path_catches_a_live_scoring_bug(capsys: pytest.CaptureFixture[str]) -> None:
    """The score query is right and live play pays failed bids to the opponents: the hand-scoring vectors
    pass, the hand and match vectors (deals through start/apply from running scores) fail by the hundred."""
    eng = f"{JS} --mutant live-failed-pays"
    code, rep = _run(capsys, "--engine", eng, "--ruleset", "card-kings-41", "--category", "hand-scoring")
    assert code == 0 and rep["passed"] == 150
    code, rep = _run(capsys, "--engine", eng, "--ruleset", "card-kings-41", "--category", "hand",
                     "--category", "match")
    assert code == 1 and isinstance(rep["failed"], int) and rep["failed"] >= 150, rep["failed"]


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_fuzz_catches_the_planted_bug(mutant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--engine", f"{JS} --mutant {mutant}", "--ruleset", "card-kings-41", "--hands", "300",
                 "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    # a wrong individual score change cites score.values where the first seat that differs kept its sign
    allowed = {MUTANTS[mutant]} | ({"score.values"} if MUTANTS[mutant] == "score.individual" else set())
    assert res["divergence"]["clause"] in allowed and res["reproducer_deals"] == 1
    if res["divergence"]["field"] in ("deltas", "winner", "scores"):
        assert "bids: player " in res["divergence"]["detail"] and "the engine answered" in res["divergence"]["detail"]


def test_the_correct_js_engine_never_diverges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--engine", JS, "--ruleset", "card-kings-41", "--hands", "60", "--seed", "js"]) == 0
    assert "no divergence in 60 deals" in capsys.readouterr().out


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_fuzz_and_verify_name_the_same_clause_for_the_js_engine(mutant: str) -> None:
    """On several seeds the clause fuzz names is the clause verify's independent report of the same field cites
    on fuzz's reproducer."""
    from tarneeb.conformance.fuzz import fuzz
    from tarneeb.core.spec import load_rules
    from tarneeb.records import Divergence, verify_lines

    field = {"winner": "outcome.winner", "next_dealer": "dealer"}
    for seed in ("1", "2", "3"):
        with Engine(f"{JS} --mutant {mutant}") as eng:
            res = fuzz(eng, load_rules("card-kings-41"), 300, seed)
        assert res.shrunk is not None, seed
        _, reps = verify_lines(res.reproducer)
        ind = {(d.field, d.clause) for d in reps if isinstance(d, Divergence) and d.independent}
        assert (field.get(res.shrunk.field, res.shrunk.field), res.shrunk.clause) in ind, (seed, res.shrunk, ind)
