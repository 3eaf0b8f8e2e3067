"""Family ``engine`` through the command line: ``tarneeb prove`` run in-process with a bug applied exits non-zero
naming the function, the input and the clause; on the true engine it passes; Ctrl-C, CPU seconds, --jobs.

(In a file of their own so the test run's two workers share the heavy proofs: pytest-xdist keeps a file's
tests in one worker; :mod:`tests.test_proof_engine` holds the in-process checks of every mutant.)
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tarneeb.cli import main
from tarneeb_proofs.mutants import MUTANTS, applied
from tarneeb_proofs.obligations import Check, Result, run_check

ENGINE_MUTANTS = {k: m for k, m in MUTANTS.items() if m.stage.startswith("engine.")}


# two mutants through the command line, in-process: one whose witness shows cards (play) and one whose witness
# shows scores (outcome). The command line's path from a failing check to its report is the same for every stage;
# tests/test_proof_engine.py catches every engine mutant in-process with the same assertions on its witness, and
# tools/prove_mutants.py through the real prove on a patched tree (proofs/MUTANTS.md). A mutant run proves its
# ruleset's whole engine again (it never reads the cache), so each one here costs seconds.
CLI_MUTANTS = ["engine-trick-winner-highest-rank", "engine-partner-at-zero"]


@pytest.mark.parametrize("name", CLI_MUTANTS)
def test_tarneeb_prove_exits_non_zero_on_an_engine_bug(name: str, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    m = ENGINE_MUTANTS[name]
    monkeypatch.setenv("COLUMNS", "400")  # rich wraps at the terminal width
    with applied(name):  # one patch for both runs: the second reuses what the first proved of the same code
        rc = main(["prove", "--invariant", "engine", "--ruleset", m.ruleset])
        out = capsys.readouterr().out
        # the same through --json: the failing check's witness names the function, the input and the clause
        rc_json = main(["prove", "--invariant", "engine", "--ruleset", m.ruleset, "--json"])
        data = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert f"{m.module}.{m.fn}" in out
    assert "input:" in out and "engine returns:" in out and "encoding gives:" in out
    assert "manifest mismatch" in out and "expects proved, got counterexample" in out
    rc = rc_json
    assert rc == 1 and not data["summary"]["matches_manifest"]
    bad = [x for x in data["results"] if x["result"] != x["expected"]]
    # the stage of the function names it (or a function that called it on the counterexample's input, which the
    # witness lists as the code run)
    target = f"{m.module}.{m.fn}"
    named = [x["witness"]["facts"] for x in bad]
    assert named and all(f["engine function"] == target or target in f.get("engine code run", "").split(", ")
                         for f in named)
    assert all(x["witness"]["clauses"][0] in x["witness"]["facts"]["clause"] for x in bad)


def test_tarneeb_prove_engine_passes_on_the_true_engine(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["prove", "--invariant", "engine", "--ruleset", "eram-41"]) == 0
    out = capsys.readouterr().out
    assert "manifest mismatch" not in out and "CPU" in out


def test_ctrl_c_prints_interrupted_and_no_manifest_mismatch(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import tarneeb_proofs.obligations as checks_mod

    calls = []

    def interrupted(c: Check, *rest: Any) -> Result:
        calls.append(c)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return run_check(c, *rest)

    monkeypatch.setattr(checks_mod, "run_check", interrupted)
    assert main(["prove", "--invariant", "engine", "--ruleset", "eram-41"]) == 130
    out, err = capsys.readouterr()
    assert "interrupted after 2 of" in err
    assert "manifest mismatch" not in out + err


def test_a_worker_that_dies_is_a_failed_run_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A worker process that ends abruptly (killed, out of memory, a result that cannot cross back) fails the run
    with one line, never a traceback and never a comparison with the manifest."""
    from concurrent.futures.process import BrokenProcessPool

    import tarneeb_proofs.cli as prove_cli

    def broken(checks: object, jobs: int, cost: object = None) -> object:
        yield from ()
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(prove_cli, "run_all", broken)
    assert main(["prove", "--invariant", "config", "--ruleset", "eram-41", "--jobs", "2"]) == 1
    out, err = capsys.readouterr()
    assert "a worker process ended abruptly after 0 of" in err and "Traceback" not in err
    assert "manifest" not in out


def test_prove_jobs_gives_the_same_results_and_reports_cpu_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--invariant", "engine", "--ruleset", "tarneeb-400", "--json", "--jobs", "2"]) == 0
    par = json.loads(capsys.readouterr().out)
    assert main(["prove", "--invariant", "engine", "--ruleset", "tarneeb-400", "--json"]) == 0
    seq = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["result"]) for r in par["results"]] == [(r["id"], r["result"]) for r in seq["results"]]
    assert par["summary"]["matches_manifest"] and par["summary"]["cpu_s"] > 0
    assert seq["summary"]["cpu_s"] > 0 and seq["summary"]["wall_s"] > 0  # in one process as in several
