"""Benchmark of ``tarneeb verify``: hands verified per second per core, and scaling over processes.

Generates a record file by seeded self-play (or takes ``--file``), then times
:func:`tarneeb.records.verify_paths` with ``--jobs 1`` and ``--jobs N``. It
reports wall-clock hands per second and hands per CPU second, counting the
worker processes' CPU time too: the per-core figure, less disturbed by other
load on the machine, and, with several jobs, the cost of running in parallel. The
target from issue 4 is 20,000 hands per second per core.

    .venv/bin/python bench/verify.py                       # mixed file, about 10,000 hands
    .venv/bin/python bench/verify.py --matches 2000 --jobs 1 2
    .venv/bin/python bench/verify.py --file big.jsonl --no-engine

Not a test: it prints figures, it does not pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from typing import Any

from tarneeb import load_rules
from tarneeb.records import verify_paths, write_match
from tarneeb.simulate import simulate

MIX = [("classic", {}), ("bsfyi-41", {}), ("card-kings-41", {}), ("eram-41", {}), ("tarneeb-400", {}),
       ("classic", {"egyptian": True})]


def generate(path: str, matches: int, seed: str, rulesets: list[tuple[str, dict[str, Any]]]) -> int:
    hands = 0
    with open(path, "wb") as f:
        for k, (rid, opts) in enumerate(rulesets):
            rules = load_rules(rid, opts)
            n = matches // len(rulesets) + (1 if k < matches % len(rulesets) else 0)
            for res in simulate(rules, n, f"{seed}:{k}", "heuristic", 200):
                write_match(f, res.match, f"{rid}:{res.seed}")
                hands += len(res.match.records)
    return hands


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(path: str, jobs: int, fast: bool) -> dict[str, Any]:
    t0, c0 = time.perf_counter(), _cpu()
    s = verify_paths([path], jobs=jobs, fast=fast)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return {"jobs": jobs, "fast_path": fast, "hands": s.hands, "clean": s.clean_hands, "wall_s": round(wall, 3),
            "hands_per_s": round(s.hands / wall), "cpu_s": round(cpu, 3), "hands_per_cpu_s": round(s.hands / cpu)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--file", help="verify this record file instead of generating one")
    p.add_argument("--matches", type=int, default=600, help="matches to generate (mixed rulesets)")
    p.add_argument("--ruleset", help="generate only this ruleset")
    p.add_argument("--seed", default="bench")
    p.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    p.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    p.add_argument("--no-engine", action="store_true", help="skip the run without the fast path")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    tmp = None
    path = args.file
    if path is None:
        tmp = tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False)
        tmp.close()
        path = tmp.name
        mix = [(args.ruleset, {})] if args.ruleset else MIX
        t = time.perf_counter()
        hands = generate(path, args.matches, args.seed, mix)
        print(f"generated {hands} hand records ({os.path.getsize(path) / 1e6:.1f} MB) in "
              f"{time.perf_counter() - t:.1f} s: {path}", file=sys.stderr)
    try:
        rows = []
        configs = [(j, True) for j in args.jobs] + ([] if args.no_engine else [(1, False)])
        for jobs, fast in configs:
            best = max((run(path, jobs, fast) for _ in range(args.repeat)), key=lambda r: r["hands_per_s"])
            rows.append(best)
        base = next((r for r in rows if r["jobs"] == 1 and r["fast_path"]), None)
        for r in rows:
            if base is not None and r["fast_path"] and r["jobs"] > 1:
                r["speedup_vs_1_job"] = round(r["hands_per_s"] / base["hands_per_s"], 2)
        info = {"cpus": os.cpu_count(), "load_avg": os.getloadavg(), "python": sys.version.split()[0],
                "target_hands_per_s_per_core": 20000}
        if args.json:
            print(json.dumps({"machine": info, "runs": rows}))
        else:
            print(f"machine: {info}")
            for r in rows:
                print("  " + ", ".join(f"{k}={v}" for k, v in r.items()))
    finally:
        if tmp is not None:
            os.unlink(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
