"""Benchmark of ``tarneeb prove``: what a proof run costs cold, warm, from a fresh copy, and on a club's house file.

Each figure is one ``tarneeb prove`` command run in a child process, its CPU seconds (its own and its worker
processes', as ``prove --json`` reports them) and wall seconds:

* cold: an empty cache folder (``TARNEEB_PROVE_CACHE``), ``--jobs 2``: a fresh clone's first run;
* warm: the same command again with the cache it filled;
* warm from a fresh copy: the source tree exported (``git archive HEAD``) into a temporary folder and run from
  there with the same cache: the cache is keyed by content, never by a path, so this is warm too;
* house file: ``--ruleset spec/house-rules/bsfyi-raised.toml --jobs 2``, cold (its own empty cache) and after the
  whole run (the cache of the built-ins).

The machine may be shared: each row gives the load average before it ran. The figures are written to
``bench/RESULTS.md`` (the section between its ``prove`` markers) and printed.

    .venv/bin/python bench/prove.py              # every row (about 15 minutes on 2 cores)
    .venv/bin/python bench/prove.py --only house

Not a test: it prints figures, it does not pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from results import write_section

ROOT = Path(__file__).resolve().parents[1]
HOUSE = "spec/house-rules/bsfyi-raised.toml"


def prove(args: list[str], cache: Path, tree: Path = ROOT) -> dict[str, Any]:
    """Run ``tarneeb prove --json ARGS`` from ``tree`` with the cache folder ``cache``; its summary and the load."""
    env = dict(os.environ, TARNEEB_PROVE_CACHE=str(cache),
               PYTHONPATH=os.pathsep.join(str(tree / p) for p in ("model", "proofs")))
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", "from tarneeb.cli import main; main()", "prove", "--json", *args],
                         cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    try:
        summary = json.loads(out.stdout)["summary"]
    except (json.JSONDecodeError, KeyError):
        sys.exit(f"bench/prove.py: prove {' '.join(args)} gave no JSON (exit {out.returncode}):\n{out.stderr[-2000:]}")
    return {"args": " ".join(args), "cpu_s": summary["cpu_s"], "wall_s": round(wall, 1), "load": round(load, 2),
            "checks": summary["checks"], "proved": f"{summary['proved']}/{summary['proofs']}",
            "caught": f"{summary['mutants_caught']}/{summary['mutants']}",
            "as_manifest": summary["matches_manifest"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=["whole", "house"], help="only these rows")
    args = ap.parse_args()
    rows: list[tuple[str, dict[str, Any]]] = []
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        cache, house_cache = Path(tmp) / "cache", Path(tmp) / "house-cache"
        if args.only != "house":
            rows.append(("cold, --jobs 2", prove(["--jobs", "2"], cache)))
            rows.append(("warm, the same tree", prove(["--jobs", "2"], cache)))
            copy = Path(tmp) / "copy"
            copy.mkdir()
            archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(copy)], input=archive, check=True)
            rows.append(("warm, a fresh copy of the tree (git archive)", prove(["--jobs", "2"], cache, copy)))
        if args.only != "whole":
            rows.append(("house file, cold", prove(["--ruleset", HOUSE, "--jobs", "2"], house_cache)))
            if args.only != "house":
                rows.append(("house file, after the whole run", prove(["--ruleset", HOUSE, "--jobs", "2"], cache)))
    lines = ["## tarneeb prove", "",
             f"`bench/prove.py` at {commit}, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs. CPU counts the "
             "worker processes; load is the 1-minute load average before the row ran.", "",
             "| run | command | CPU s | wall s | load | checks | proofs proved | mutants caught | as the manifest |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows:
        lines.append(f"| {name} | `tarneeb prove {r['args']}` | {r['cpu_s']:.0f} | {r['wall_s']:.0f} | {r['load']} | "
                     f"{r['checks']} | {r['proved']} | {r['caught']} | {'yes' if r['as_manifest'] else 'no'} |")
    print(write_section("prove", lines))

if __name__ == "__main__":
    main()
