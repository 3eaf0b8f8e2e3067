"""The compiled build of the engine's core (mypyc, tarneeb.compiled) plays as its pure source, state by state.

tests/compiled_trace.py plays seeded matches of every ruleset, option value and reading, once on the installed
compiled modules and once on their ``.py`` sources (``TARNEEB_PURE=1``), each in a process of its own (this test
process runs the pure source: tests/conftest.py). The two traces -- legal actions, actions, events, scores, winners,
error texts, deal records -- must be equal line by line.

Skipped where no compiled build is installed: the test command's editable install (tools/dev.py) and a source tree
on ``PYTHONPATH`` are pure. ``pip install .`` (or the wheel of ``python -m build``) with a C compiler installs one;
the test command's tools/wheel_check.py makes the same comparison on the platform wheel it builds. The other tests
here run everywhere: ``--version`` names the build, and the proofs refuse a process that loaded a compiled module.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tarneeb.compiled import MODULES, compiled_installed

ROOT = Path(__file__).resolve().parents[1]

needs_compiled = pytest.mark.skipif(
    not compiled_installed(), reason="no compiled build of the engine's core is installed here (pip install . with a "
                                     "C compiler builds one; an editable install or a source tree is pure Python)")


def _trace(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "TARNEEB_PURE"}
    if pure:
        env["TARNEEB_PURE"] = "1"
    p = subprocess.run([sys.executable, "-m", "tests.compiled_trace"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout.splitlines()


def test_version_names_the_build_that_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from tarneeb.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    out = capsys.readouterr().out
    assert out.startswith("tarneeb ") and len(out.splitlines()) == 1
    assert "engine core pure Python" in out  # the tests run the pure source (tests/conftest.py)


@pytest.mark.parametrize("start", ["session", "mutant"])
def test_a_proof_refuses_to_start_with_a_compiled_module_loaded(start: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that loaded a compiled core module (one stands in here: a module whose file is an extension) can
    neither open a proof session nor patch a mutant in: the proofs would not see the code that runs."""
    from tarneeb.compiled import CompiledEngine
    from tarneeb_proofs.mutants import applied
    from tarneeb_proofs.session import Session

    fake = types.ModuleType("tarneeb.core.hand")
    fake.__file__ = f"/site-packages/tarneeb/core/hand{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    monkeypatch.setitem(sys.modules, "tarneeb.core.hand", fake)
    with pytest.raises(CompiledEngine, match=r"compiled build of tarneeb\.core\.hand .*TARNEEB_PURE=1"):
        if start == "session":
            Session()
        else:
            with applied("engine-partner-at-zero"):
                pass


@pytest.fixture(scope="module")
def traces() -> tuple[list[str], list[str]]:
    return _trace(pure=False), _trace(pure=True)


@pytest.mark.slow
@needs_compiled
def test_each_side_runs_the_build_it_names(traces: tuple[list[str], list[str]]) -> None:
    compiled, pure = traces
    assert json.loads(compiled[0])["build"] == f"engine core compiled by mypyc ({len(MODULES)} modules)"
    assert json.loads(pure[0])["build"].startswith("engine core pure Python")


@pytest.mark.slow
@needs_compiled
def test_compiled_plays_as_the_pure_source(traces: tuple[list[str], list[str]]) -> None:
    compiled, pure = (t[1:] for t in traces)
    assert len(compiled) > 10_000  # every variant played, not an empty run
    ends = [json.loads(x) for x in pure if '"records"' in x]
    assert sum(any(r["outcome"] is not None for r in e["records"]) for e in ends) >= 40  # outcomes compared too
    for n, (c, p) in enumerate(zip(compiled, pure, strict=False)):
        if c != p:
            cd, pd = json.loads(c), json.loads(p)
            diff = {k: (cd.get(k), pd.get(k)) for k in cd.keys() | pd.keys() if cd.get(k) != pd.get(k)}
            pytest.fail(f"line {n + 1} of the traces ({pd.get('variant')}, step {pd.get('step')}): compiled and pure "
                        f"differ in {json.dumps(diff)[:2000]}")
    assert len(compiled) == len(pure), f"the compiled trace has {len(compiled)} lines, the pure one {len(pure)}"
