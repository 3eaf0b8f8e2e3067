#!/usr/bin/env python3
"""Check the release as a new user gets it: build the sdist and the wheel, install the wheel alone into a fresh
venv in a temporary folder outside the tree, and run the README's commands from there.

    .venv/bin/python tools/wheel_check.py [--keep]

Nothing of the source tree is on the path of the commands run: no ``TARNEEB_SPEC_DIR``, no ``PYTHONPATH``, the
working folder is the temporary one. The only files of the tree they use are the example engine of
``examples/`` (a user's own engine stands there). Then every command of the README's ``sh`` blocks that needs no
file of the source tree and no optional extra (``tools/readme_commands.py``) runs as written, in README order.
Fails (exit 1) on the first command that fails or prints something wrong; prints one line per step saying what it
checks.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import venv
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from readme_commands import argv_of, expected_exit, from_the_wheel, silent

ROOT = Path(__file__).resolve().parents[1]
HASHED = "_2bd9936ea71faec4.txt"  # one of the documents' file names: never in human output


class CheckFailed(Exception):
    pass


def sh(cmd: Sequence[str | Path], cwd: Path, env: dict[str, str], expect: int = 0, timeout: float = 600,
       with_stderr: bool = False) -> str:
    shown = " ".join(str(c) for c in cmd)
    t0 = time.perf_counter()
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    took = time.perf_counter() - t0
    if p.returncode != expect:
        raise CheckFailed(f"{shown}: exit {p.returncode}, expected {expect}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    if "Traceback" in p.stderr:
        raise CheckFailed(f"{shown}: printed a traceback\n{p.stderr[-3000:]}")
    print(f"  ok ({took:.1f} s): {shown}", flush=True)
    return p.stdout + (p.stderr if with_stderr else "")


def spec_files() -> set[str]:
    return {p.relative_to(ROOT / "spec").as_posix() for p in (ROOT / "spec").rglob("*") if p.is_file()}


def check_archives(dist: Path) -> Path:
    wheel = next(dist.glob("tarneeb-*.whl"))
    sdist = next(dist.glob("tarneeb-*.tar.gz"))
    names = set(zipfile.ZipFile(wheel).namelist())
    spec_in_wheel = {n.removeprefix("tarneeb/specdata/") for n in names if n.startswith("tarneeb/specdata/")}
    missing = spec_files() - spec_in_wheel
    if missing:
        raise CheckFailed(f"{wheel.name} lacks spec files: {sorted(missing)[:10]}")
    if "tarneeb_proofs/manifest.json" not in names:
        raise CheckFailed(f"{wheel.name} lacks tarneeb_proofs/manifest.json")
    with tarfile.open(sdist) as t:
        snames = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    missing = {f"spec/{f}" for f in spec_files()} - snames
    if missing or "proofs/tarneeb_proofs/manifest.json" not in snames:
        raise CheckFailed(f"{sdist.name} lacks: {sorted(missing)[:10] or ['proofs/tarneeb_proofs/manifest.json']}")
    print(f"  ok: {wheel.name} and {sdist.name} carry all {len(spec_files())} spec files and the proofs manifest")
    return wheel


SITUATION = """\
schema = 1
title = "Is a partner at zero a win?"
ruleset = "card-kings-41"
scores = [43, 12, 0, 30]

[question]
kind = "winner"
"""


def run(keep: bool) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="tarneeb-wheel-"))
    try:
        env = {k: v for k, v in os.environ.items() if k not in ("TARNEEB_SPEC_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
        print(f"building the sdist and the wheel into {tmp / 'dist'}", flush=True)
        out = sh([sys.executable, "-m", "build", "--outdir", tmp / "dist", ROOT], cwd=tmp, env=env, with_stderr=True)
        warned = sorted({ln.strip() for ln in out.splitlines() if "WARNING" in ln or "Warning:" in ln})
        if warned:  # setuptools' warnings (a data folder missing from `packages`, a deprecated key): none allowed
            raise CheckFailed("the build printed warnings:\n" + "\n".join(warned[:20]))
        wheel = check_archives(tmp / "dist")
        print("installing the wheel alone into a fresh venv (its dependencies from the package index)", flush=True)
        venv.EnvBuilder(with_pip=True).create(tmp / "venv")
        bindir = tmp / "venv" / ("Scripts" if os.name == "nt" else "bin")
        sh([bindir / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel], cwd=tmp,
           env=env)
        work = tmp / "work"
        work.mkdir()
        env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
        t = bindir / "tarneeb"
        print(f"running the README's commands from {work}", flush=True)
        steps: list[tuple[list[str | Path], int, Callable[[str], bool] | None]] = [
            ([t, "--version"], 0, lambda o: o.startswith("tarneeb ") and "engine core" in o),
            ([t, "rulesets", "--json"], 0, lambda o: len(json.loads(o)) == 5),
            ([t, "rulesets"], 0, lambda o: "Card Kings" in o and HASHED not in o),
            ([t, "show", "classic"], 0, lambda o: "section" in o and HASHED not in o),
            ([t, "simulate", "--ruleset", "bsfyi-41", "--option", "rising_min_bid=true", "--matches", "5", "--seed",
              "7", "--json"], 0, lambda o: json.loads(o.splitlines()[-1])["matches"] == 5),
            ([t, "record", "--ruleset", "classic", "--matches", "3", "--seed", "1", "--out", "games.jsonl"], 0, None),
            ([t, "verify", "games.jsonl", "--jobs", "2"], 0, lambda o: o.startswith("clean")),
            ([t, "prove", "--ruleset", "card-kings-41"], 0, lambda o: "proofs proved" in o),
            ([t, "rules", "eram-41", "--format", "md", "--lang", "ar"], 0, lambda o: HASHED not in o),
            ([t, "ruling", "situation.toml"], 0, lambda o: "card-kings-41" in o.lower() or "Card Kings" in o),
            ([t, "diff", "card-kings-41", "bsfyi-41"], 0, lambda o: "Differences" in o),
            ([t, "vectors", "run", "--engine",
              f"{bindir / 'python'} {ROOT / 'examples' / 'mini_engine' / 'mini_engine.py'}", "--ruleset", "eram-41"],
             0, None),
            ([t, "fuzz", "--engine", f"{bindir / 'python'} {ROOT / 'examples' / 'mini_engine' / 'mini_engine.py'}",
              "--ruleset", "card-kings-41", "--hands", "30", "--seed", "0"], 0, None),
            ([t, "demo"], 0, lambda o: "classic" in o),
            # the vectors are the installed package's: regenerating them there is refused, a copy elsewhere is not
            ([t, "vectors", "generate"], 2, None),
            ([t, "vectors", "generate", "--out", "vec", "--ruleset", "eram-41"], 0, lambda o: "eram-41:" in o),
        ]
        (work / "situation.toml").write_text(SITUATION, encoding="utf-8")
        for cmd, rc, ok in steps:
            out = sh(cmd, cwd=work, env=env, expect=rc)
            if ok is not None and not ok(out):
                raise CheckFailed(f"{' '.join(map(str, cmd))}: unexpected output:\n{out[-2000:]}")
        readme_as_written(work, env)
        print("the installed wheel runs every README command from outside the tree", flush=True)
        compiled_as_pure(wheel, bindir / "python", env)
    finally:
        if keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def compiled_as_pure(wheel: Path, python: Path, env: dict[str, str]) -> None:
    """A platform wheel carries the core compiled by mypyc (setup.py): the seeded matches of tests/compiled_trace.py
    must give the same trace on it as on its pure source (``TARNEEB_PURE=1``), line for line. (The trace's script
    is the tree's, run from the tree's root; the package is the installed wheel's: it is not at the root.)"""
    if wheel.name.endswith("-none-any.whl"):
        print("the wheel is pure Python (no C compiler here): no compiled build to compare", flush=True)
        return
    trace: list[str | Path] = [python, "-m", "tests.compiled_trace", "--steps", "150"]  # tests/test_compiled.py: 400
    compiled = sh(trace, cwd=ROOT, env={k: v for k, v in env.items() if k != "TARNEEB_PURE"})
    pure = sh(trace, cwd=ROOT, env={**env, "TARNEEB_PURE": "1"})
    c, p = compiled.splitlines(), pure.splitlines()
    if "compiled by mypyc" not in c[0] or "pure Python" not in p[0]:
        raise CheckFailed(f"the traces name the builds {c[0]} and {p[0]}: expected compiled, then pure")
    for n, (a, b) in enumerate(zip(c[1:], p[1:], strict=False), 2):
        if a != b:
            raise CheckFailed(f"line {n} of the traces: the compiled build gives\n{a[:1500]}\nthe pure source\n{b[:1500]}")
    if len(c) != len(p):
        raise CheckFailed(f"the compiled trace has {len(c)} lines, the pure one {len(p)}")
    print(f"the compiled core gives the {len(c) - 1} lines of the seeded matches' trace as its pure source", flush=True)


def readme_as_written(work: Path, env: dict[str, str]) -> None:
    """Every README command that needs neither a file of the source tree nor an extra (nor a file only such a command
    writes), as written, in README order (``vectors generate`` without ``--out`` must refuse to write into the
    installed package)."""
    lines = from_the_wheel()
    print(f"running the README's {len(lines)} commands that need only the wheel, as written", flush=True)
    for n, line in lines:
        argv, out_file = argv_of(line)
        out = sh(argv, cwd=work, env=env, expect=expected_exit(line, from_wheel=True), with_stderr=out_file is None)
        if out_file is not None:
            (work / out_file).write_text(out, encoding="utf-8")
        elif not out.strip() and not silent(line):
            raise CheckFailed(f"README.md:{n}: {line}: printed nothing")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder for a look")
    args = ap.parse_args()
    try:
        run(args.keep)
    except CheckFailed as e:
        print(f"wheel_check: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
