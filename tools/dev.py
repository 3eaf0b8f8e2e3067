#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 tools/dev.py demo    # create .venv, install, run the main job
    python3 tools/dev.py test    # create .venv, install with test extras, lint, type-check, test (docs build
                                 # included), then build the wheel and run the README's commands from it
    python3 tools/dev.py check   # the inner loop: lint, type-check and the tests not marked slow

Both create ``.venv`` beside this repository on first use and reuse it after.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import venv
from collections.abc import Iterator
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


RUFF = (BIN / "ruff", "check", "model", "proofs", "tests", "bench", "tools", "examples", "docs")
MYPY = (BIN / "mypy",)


def _pytest(*pytest_args: str) -> None:
    """pytest on two worker processes (the CI machine's 2 cores) with ``pytest_args``; the proofs' cache is one
    fresh folder for both workers (tests/conftest.py)."""
    env = dict(os.environ)
    env.setdefault("HYPOTHESIS_PROFILE", "ci")
    run(PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", *pytest_args, env=env)


@contextlib.contextmanager
def beside(*cmd: str | Path) -> Iterator[None]:
    """``cmd`` runs while the block does, its output kept and printed after the block's; the step then fails as
    :func:`run` does if ``cmd`` did. A block that fails (or Ctrl-C) ends ``cmd`` too."""
    shown = " ".join(str(c) for c in cmd)
    with tempfile.TemporaryFile("w+") as out:
        print("+", shown, "(beside the steps below; its output follows theirs)", flush=True)
        proc = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield
        except BaseException:
            proc.terminate()
            proc.wait()
            raise
        rc = proc.wait()
        out.seek(0)
        print(f"\n+ {shown}\n{out.read()}", end="", flush=True)
    if rc != 0:
        print(f"dev.py: command failed with exit code {rc}: {shown}", file=sys.stderr)
        sys.exit(rc)


def test() -> None:
    # beside the lint and the tests (its single process fills the cores' idle moments), the release as a user gets
    # it: the wheel alone in a fresh venv outside the tree runs the README's commands (with the build tools of the
    # test extras, so the venv first)
    # ruff and mypy (one core for a few seconds each) beside the tests too: their output, and a failure, come after
    ensure_venv("test")
    with beside(PY, "tools/wheel_check.py"), beside(*RUFF), beside(*MYPY):
        # a test file's tests in one worker (their module fixtures), the files in the order tests/conftest.py gives
        _pytest("--dist", "loadfile", "--no-loadscope-reorder", "--durations=25")


def check() -> None:
    """The fast inner loop: ruff, mypy, then the tests not marked ``slow`` (tests/conftest.py)."""
    ensure_venv("test")
    run(*RUFF)
    run(*MYPY)
    _pytest("-m", "not slow")


def main() -> None:
    cmds = {"demo": demo, "test": test, "check": check}
    if len(sys.argv) != 2 or sys.argv[1] not in cmds:
        print(f"usage: python3 tools/dev.py {{{'|'.join(cmds)}}}", file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]]()


if __name__ == "__main__":
    main()
