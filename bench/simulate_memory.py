"""Benchmark of ``tarneeb simulate``'s memory: peak resident memory for many matches against few.

Each run is a fresh process, ``python -m tarneeb.cli simulate --ruleset R --matches N --seed mem`` (human output,
or ``--json`` with ``--json``), its standard output thrown away; its peak resident set size is read from the
kernel when it ends (``os.wait4``). Both sides are the same command doing the same work per match; only the
number of matches differs. ``simulate`` keeps a running tally and drops each match once counted, so the peak
should not grow with the number of matches: the printed ratio (peak for the large run over peak for the small
one) is the figure, the target at most 1.2 for 100,000 matches against 1,000. Before the tally, the
command kept every match (about 90 KB each) to the end.

    .venv/bin/python bench/simulate_memory.py                              # 1,000 and 100,000 matches
    .venv/bin/python bench/simulate_memory.py --matches 1000 20000 --json   # a quicker look, JSON lines

Not a test: it prints figures, it does not pass or fail.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def peak_rss(ruleset: str, matches: int, json_out: bool) -> tuple[int, float]:
    """Peak resident memory (KiB) and wall seconds of one ``simulate`` process."""
    cmd = [sys.executable, "-m", "tarneeb.cli", "simulate", "--ruleset", ruleset, "--matches", str(matches),
           "--seed", "mem", "--max-hands", "200"] + (["--json"] if json_out else [])
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    took = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        err = p.stderr.read().decode() if p.stderr else ""
        raise SystemExit(f"simulate failed: {' '.join(cmd)}\n{err}")
    return usage.ru_maxrss, took  # ru_maxrss is in KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="card-kings-41", help="the ruleset to simulate (default card-kings-41)")
    ap.add_argument("--matches", type=int, nargs=2, default=[1000, 100_000], metavar=("FEW", "MANY"),
                    help="the two match counts compared (default 1000 100000)")
    ap.add_argument("--json", action="store_true", help="run simulate with --json (one object per match on stdout)")
    args = ap.parse_args()
    few, many = args.matches
    rows = []
    for n in (few, many):
        kib, took = peak_rss(args.ruleset, n, args.json)
        rows.append((n, kib, took))
        print(f"{n:>8} matches: peak resident {kib / 1024:7.1f} MiB, {took:7.1f} s wall", flush=True)
    ratio = rows[1][1] / rows[0][1]
    print(f"memory ratio {many} / {few} matches: {ratio:.2f} (target at most 1.20)")


if __name__ == "__main__":
    main()
