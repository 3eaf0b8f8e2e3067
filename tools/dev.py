#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 tools/dev.py demo    # create .venv, install, run the main job
    python3 tools/dev.py test    # create .venv, install with test extras, lint, type-check, test (docs build
                                 # included), then build the wheel and run the README's commands from it
    python3 tools/dev.py check   # the inner loop: lint, type-check and the tests not marked slow

Both create ``.venv`` beside this repository on first use and reuse it after.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*cmd: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    rc = subprocess.call([str(c) for c in cmd], cwd=ROOT, env=env)
    if rc != 0:
        print(f"dev.py: command failed with exit code {rc}: {' '.join(str(c) for c in cmd)}", file=sys.stderr)
        sys.exit(rc)


def ensure_venv(extras: str) -> None:
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extras}"
    pyproject = ROOT / "pyproject.toml"
    if stamp.exists() and stamp.stat().st_mtime >= pyproject.stat().st_mtime:
        return
    run(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f".[{extras}]")
    stamp.touch()


def step(n: int, text: str) -> None:
    print(f"\n=== step {n} of 4: {text}", flush=True)


def demo() -> None:
    ensure_venv("proofs")
    step(1, "the five rulesets, each written as data from one rule document (cited by publisher and title)")
    run(BIN / "tarneeb", "rulesets")
    step(2, "one seeded match per ruleset, played by four heuristic bots: each ruleset's cancelled deals (with "
            "the clause that cancelled them) and its first played hand in full")
    run(BIN / "tarneeb", "demo", "--seed", "readme")
    step(3, "20 matches of classic Tarneeb with the Egyptian-bids house option, summarised")
    run(BIN / "tarneeb", "simulate", "--ruleset", "classic", "--option", "egyptian=true", "--matches", "20",
        "--seed", "readme")
    step(4, "the Z3 proofs: 'proved' = a property holds for every input; 'mutant caught' = a rule broken on "
            "purpose was detected, as it must be; every result is compared with the manifest")
    if _can_run("prove"):
        run(BIN / "tarneeb", "prove", "--jobs", "2")


def _can_run(name: str) -> bool:
    # a command that cannot load here (prove without z3) is still listed, but its --help exits 2
    return subprocess.run([str(BIN / "tarneeb"), name, "--help"], cwd=ROOT, capture_output=True).returncode == 0


def _lint_and_pytest(*pytest_args: str, beside: tuple[str | Path, ...] = ()) -> None:
    """ruff, mypy --strict, then pytest on two worker processes (the CI machine's 2 cores) with ``pytest_args``;
    the proofs' cache is one fresh folder for both workers (tests/conftest.py). ``beside``: a command run at the
    same time as pytest (its output kept and printed after pytest's); the step fails if either does."""
    ensure_venv("test")
    run(BIN / "ruff", "check", "model", "proofs", "tests", "bench", "tools", "examples", "docs")
    run(BIN / "mypy")
    env = dict(os.environ)
    env.setdefault("HYPOTHESIS_PROFILE", "ci")
    pytest: tuple[str | Path, ...] = (PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", *pytest_args)
    if not beside:
        run(*pytest, env=env)
        return
    with tempfile.TemporaryFile("w+") as out:
        print("+", " ".join(str(c) for c in beside), "(beside pytest; its output follows pytest's)", flush=True)
        other = subprocess.Popen([str(c) for c in beside], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        try:
            print("+", " ".join(str(c) for c in pytest), flush=True)
            rc = subprocess.call([str(c) for c in pytest], cwd=ROOT, env=env)
            other_rc = other.wait()
        finally:
            if other.poll() is None:  # Ctrl-C or an error: the other command ends with this one
                other.terminate()
                other.wait()
        out.seek(0)
        print(f"\n+ {' '.join(str(c) for c in beside)}\n{out.read()}", end="", flush=True)
    failed = [f"{' '.join(str(c) for c in cmd)} (exit code {code})"
              for cmd, code in ((pytest, rc), (beside, other_rc)) if code != 0]
    if failed:
        print(f"dev.py: command failed: {'; '.join(failed)}", file=sys.stderr)
        sys.exit(rc or other_rc)


def test() -> None:
    # a test file's tests in one worker (their module fixtures), the files in the order tests/conftest.py gives;
    # beside them (its single process fills the cores' idle moments), the release as a user gets it: the wheel
    # alone in a fresh venv outside the tree runs the README's commands
    _lint_and_pytest("--dist", "loadfile", "--no-loadscope-reorder", beside=(PY, "tools/wheel_check.py"))


def check() -> None:
    """The fast inner loop: ruff, mypy and the tests not marked ``slow`` (tests/conftest.py)."""
    _lint_and_pytest("-m", "not slow")


def main() -> None:
    cmds = {"demo": demo, "test": test, "check": check}
    if len(sys.argv) != 2 or sys.argv[1] not in cmds:
        print(f"usage: python3 tools/dev.py {{{'|'.join(cmds)}}}", file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]]()


if __name__ == "__main__":
    main()
