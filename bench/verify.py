"""Benchmark of ``tarneeb verify``: hands verified per second per core, and scaling over processes.

Generates a record file by seeded self-play (or takes ``--file``), then times
:func:`tarneeb.records.verify_paths` with ``--jobs 1`` and ``--jobs N``. It
reports wall-clock hands per second and hands per CPU second, counting the
worker processes' CPU time too: the per-core figure, less disturbed by other
load on the machine, and, with several jobs, the cost of running in parallel. The
first target was 20,000 hands per second per core; the current one is 100,000 hands per CPU second.

    .venv/bin/python bench/verify.py                       # mixed file, about 10,000 hands
    .venv/bin/python bench/verify.py --matches 2000 --jobs 1 2
    .venv/bin/python bench/verify.py --file big.jsonl --no-engine
    .venv/bin/python bench/verify.py --per-ruleset --matches 300 --jobs 1 2   # one file per ruleset
    .venv/bin/python bench/verify.py --baseline e700a1b --jobs 1 --no-engine   # ratio against an older commit
    .venv/bin/python bench/verify.py --jobs 1 --dask-workers 1 2 --no-engine  # hands/s against Dask workers
    .venv/bin/python bench/verify.py --diverge --jobs 1                       # every hand diverges

``--baseline REF`` checks out the commit REF of this repository (``git worktree``, under the system's temporary
folder) and verifies the same file with that commit's ``tarneeb`` package in a child process, alternating with
ours, one process each, jobs 1 and the fast path on both sides, best CPU time of ``--repeat`` runs each. It
prints the ratio of hands per CPU second, ours over the baseline's: both sides read the same bytes, replay the
same hands and report the same divergences (the counts are printed and must agree).

The machine may be shared: every run also reports how busy the whole machine was
while it ran (from ``/proc/stat``): ``machine_busy`` is the share of all CPUs in use,
``others_busy_cpus`` the CPUs' worth of work of other processes. The hands per CPU
second are the figure to compare with the target when others are busy. Each row also gives the rate at which
orjson decodes the same file's lines, measured after each run in the same process (``decode_lines_per_cpu_s``),
our rate's fraction of it (``of_decode``; the target is 0.28: 100,000 hands per CPU second), and the load
average when the row was measured.

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

import orjson

from tarneeb import load_rules
from tarneeb.play.simulate import simulate
from tarneeb.records import match_dicts, verify_paths, write_match

MIX = [("classic", {}), ("bsfyi-41", {}), ("card-kings-41", {}), ("eram-41", {}), ("tarneeb-400", {}),
       ("classic", {"egyptian": True})]


def generate(path: str, matches: int, seed: str, rulesets: list[tuple[str, dict[str, Any]]],
             diverge: bool = False) -> int:
    """Write seeded self-play records; ``diverge``: every hand line gets a wrong score (a played deal: its first
    seat's delta and running score; a cancelled one: its first running score), so that every hand diverges."""
    hands = 0
    with open(path, "wb") as f:
        for k, (rid, opts) in enumerate(rulesets):
            rules = load_rules(rid, opts)
            n = matches // len(rulesets) + (1 if k < matches % len(rulesets) else 0)
            for res in simulate(rules, n, f"{seed}:{k}", "heuristic", 200):
                if not diverge:
                    write_match(f, res.match, f"{rid}:{res.seed}")
                else:
                    for d in match_dicts(res.match, f"{rid}:{res.seed}"):
                        if d.get("type") == "hand":
                            d["scores"][0] += 1
                            if "deltas" in d:
                                d["deltas"][0] += 1
                        f.write(json.dumps(d).encode() + b"\n")
                hands += len(res.match.records)
    return hands


def run_dask(path: str, workers: int, unit_bytes: int) -> dict[str, Any]:
    """Wall-clock hands per second on a local Dask cluster of ``workers`` single-threaded worker processes
    (``tarneeb verify --scheduler``); the cluster's start is not timed."""
    from distributed import Client, LocalCluster

    from tarneeb.records.units import dask_mapper, plan_units, verify_units

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                      dashboard_address=None) as cluster:
        with Client(cluster) as client:  # type: ignore[no-untyped-call]
            units = plan_units([path], unit_bytes=unit_bytes)
            verify_units(units[:1], mapper=dask_mapper(client=client))  # warm the workers (rulesets parsed)
            t0 = time.perf_counter()
            s = verify_units(units, mapper=dask_mapper(client=client))
            wall = time.perf_counter() - t0
    return {"dask_workers": workers, "units": len(units), "hands": s.hands, "wall_s": round(wall, 3),
            "hands_per_s": round(s.hands / wall)}


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _proc_stat() -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs since boot, or None where /proc/stat is missing."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])
    return total - idle, total


def run(path: str, jobs: int, fast: bool) -> dict[str, Any]:
    p0 = _proc_stat()
    t0, c0 = time.perf_counter(), _cpu()
    s = verify_paths([path], jobs=jobs, fast=fast)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    p1 = _proc_stat()
    row: dict[str, Any] = {"jobs": jobs, "fast_path": fast, "hands": s.hands, "clean": s.clean_hands,
                           "wall_s": round(wall, 3), "hands_per_s": round(s.hands / wall), "cpu_s": round(cpu, 3),
                           "hands_per_cpu_s": round(s.hands / cpu)}
    if p0 is not None and p1 is not None and p1[1] > p0[1]:
        busy = (p1[0] - p0[0]) / (p1[1] - p0[1])
        ncpu = os.cpu_count() or 1
        row["machine_busy"] = round(busy, 2)
        row["others_busy_cpus"] = round(max(0.0, busy * ncpu - cpu / wall), 2)
    return row


def decode(path: str) -> dict[str, Any]:
    """Read the file's lines and decode each with orjson, nothing else: the CPU cost of reading the records, the
    yardstick verify's rate is given against (the target: verify within a factor of four of it)."""
    c0 = time.process_time()
    lines = 0
    with open(path, "rb") as f:
        for line in f:
            orjson.loads(line)
            lines += 1
    cpu = time.process_time() - c0
    return {"lines": lines, "cpu_s": cpu, "lines_per_cpu_s": round(lines / cpu)}


def measure(path: str, jobs_list: list[int], repeat: int, engine: bool) -> list[dict[str, Any]]:
    """Best of ``repeat`` runs per configuration: the wall-clock figures of the fastest run, the CPU figure of the
    cheapest, and the machine's business over all of them. Each run is followed by a decode of the same file
    (:func:`decode`, best of the runs), so the ratio ``of_decode`` (hands verified per CPU second over lines
    decoded per CPU second) comes from measurements side by side in one run."""
    rows = []
    configs = [(j, True) for j in jobs_list] + ([(1, False)] if engine else [])
    for jobs, fast in configs:
        runs, decodes = [], []
        for _ in range(repeat):
            runs.append(run(path, jobs, fast))
            decodes.append(decode(path))
        best = dict(max(runs, key=lambda r: r["hands_per_s"]))
        cheap = min(runs, key=lambda r: r["cpu_s"])
        best["cpu_s"], best["hands_per_cpu_s"] = cheap["cpu_s"], cheap["hands_per_cpu_s"]
        dec = min(decodes, key=lambda r: r["cpu_s"])
        best["decode_lines_per_cpu_s"] = dec["lines_per_cpu_s"]
        best["of_decode"] = round(cheap["hands"] / cheap["cpu_s"] / (dec["lines"] / dec["cpu_s"]), 3)
        best["load_avg"] = [round(x, 2) for x in os.getloadavg()]
        if all("machine_busy" in r for r in runs):
            best["machine_busy"] = round(sum(r["machine_busy"] for r in runs) / len(runs), 2)
            best["others_busy_cpus"] = round(sum(r["others_busy_cpus"] for r in runs) / len(runs), 2)
        rows.append(best)
    base = next((r for r in rows if r["jobs"] == 1 and r["fast_path"]), None)
    for r in rows:
        if base is not None and r["fast_path"] and r["jobs"] > 1:
            r["speedup_vs_1_job"] = round(r["hands_per_s"] / base["hands_per_s"], 2)
            r["cpu_efficiency_vs_1_job"] = round(r["hands_per_cpu_s"] / base["hands_per_cpu_s"], 2)
    return rows


_BASELINE_SNIPPET = """
import json, resource, sys
from tarneeb.records import verify_paths
s = verify_paths([sys.argv[1]], jobs=1, fast=True)  # warm: the rulesets are parsed, the caches filled
u = resource.getrusage(resource.RUSAGE_SELF)
c0 = u.ru_utime + u.ru_stime
s = verify_paths([sys.argv[1]], jobs=1, fast=True)
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"hands": s.hands, "divergences": s.divergences, "cpu_s": u.ru_utime + u.ru_stime - c0}))
"""


def _baseline_tree(ref: str) -> str:
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sha = subprocess.run(["git", "-C", root, "rev-parse", ref], capture_output=True, text=True, check=True).stdout.strip()
    tree = os.path.join(tempfile.gettempdir(), f"tarneeb-baseline-{sha[:12]}")
    if not os.path.isdir(tree):
        subprocess.run(["git", "-C", root, "worktree", "add", "--detach", "-f", tree, sha], check=True,
                       capture_output=True)
    return tree


def _one(path: str, model: str | None, pure: bool = False) -> dict[str, Any]:
    import subprocess

    env = dict(os.environ)
    if model is not None:
        env["PYTHONPATH"] = model + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("TARNEEB_SPEC_DIR", None)
    if pure:
        env["TARNEEB_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", _BASELINE_SNIPPET, path], capture_output=True, text=True, env=env,
                         check=True).stdout
    row: dict[str, Any] = json.loads(out)
    return row


def compiled_here() -> bool:
    """This process runs the core compiled by mypyc (tarneeb.compiled): the pure source is then a side of its own."""
    from tarneeb.compiled import build

    return "compiled by mypyc" in build()


def compare_pure(path: str, repeat: int) -> dict[str, Any]:
    """The compiled build against its own pure source (``TARNEEB_PURE=1``) on the same file, each in a child
    process, alternating; best CPU time of ``repeat`` runs each, with orjson's decode of the same lines between them
    (``of_decode`` for each side)."""
    compiled, pure, decodes = [], [], []
    for _ in range(repeat):
        compiled.append(_one(path, None))
        pure.append(_one(path, None, pure=True))
        decodes.append(decode(path))
    a, b = min(compiled, key=lambda r: r["cpu_s"]), min(pure, key=lambda r: r["cpu_s"])
    if (a["hands"], a["divergences"]) != (b["hands"], b["divergences"]):
        raise SystemExit(f"the pure source disagrees with the compiled build: compiled {a}, pure {b}")
    dec = min(decodes, key=lambda r: r["cpu_s"])
    rate = dec["lines"] / dec["cpu_s"]
    return {"side_by_side": "compiled build, pure source", "hands": a["hands"],
            "compiled_hands_per_cpu_s": round(a["hands"] / a["cpu_s"]),
            "pure_hands_per_cpu_s": round(b["hands"] / b["cpu_s"]), "compiled_vs_pure": round(b["cpu_s"] / a["cpu_s"], 3),
            "compiled_of_decode": round(a["hands"] / a["cpu_s"] / rate, 3),
            "pure_of_decode": round(b["hands"] / b["cpu_s"] / rate, 3)}


def compare_baseline(path: str, ref: str, repeat: int) -> dict[str, Any]:
    """Ours against the commit ``ref`` on the same file, alternating; best CPU time of ``repeat`` runs each."""
    tree = _baseline_tree(ref)
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(_one(path, None))
        theirs.append(_one(path, os.path.join(tree, "model")))
    a, b = min(ours, key=lambda r: r["cpu_s"]), min(theirs, key=lambda r: r["cpu_s"])
    if (a["hands"], a["divergences"]) != (b["hands"], b["divergences"]):
        raise SystemExit(f"baseline {ref} disagrees: ours {a}, theirs {b}")
    return {"baseline": ref, "hands": a["hands"], "ours_hands_per_cpu_s": round(a["hands"] / a["cpu_s"]),
            "baseline_hands_per_cpu_s": round(b["hands"] / b["cpu_s"]), "ratio": round(b["cpu_s"] / a["cpu_s"], 3)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--file", help="verify this record file instead of generating one")
    p.add_argument("--matches", type=int, default=600, help="matches to generate (mixed rulesets)")
    p.add_argument("--ruleset", help="generate only this ruleset")
    p.add_argument("--seed", default="bench")
    p.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    p.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    p.add_argument("--no-engine", action="store_true", help="skip the run without the fast path")
    p.add_argument("--per-ruleset", action="store_true", help="one generated file and one table per ruleset")
    p.add_argument("--baseline", metavar="REF", help="also verify the same file with commit REF; print the ratio")
    p.add_argument("--diverge", action="store_true", help="generated records: every hand line diverges (a score)")
    p.add_argument("--dask-workers", type=int, nargs="*", default=[], metavar="N",
                   help="also time a local Dask cluster of N worker processes each (hands/s against workers; "
                        "the ratio is against --jobs 1 of the same run)")
    p.add_argument("--unit-bytes", type=int, default=1 << 20, help="bytes per unit of work with --dask-workers")
    p.add_argument("--json", action="store_true")
    p.add_argument("--results", action="store_true",
                   help="also write the human output to bench/RESULTS.md (its 'verify' section)")
    args = p.parse_args(argv)
    info = {"cpus": os.cpu_count(), "load_avg_before": os.getloadavg(), "python": sys.version.split()[0],
            "target_hands_per_cpu_s": 100000}
    sets: list[tuple[str, str | None, list[tuple[str, dict[str, Any]]] | None]]
    if args.file is not None:
        sets = [("file", args.file, None)]
    elif args.per_ruleset:
        mixes = [(args.ruleset, {})] if args.ruleset else MIX
        sets = [(f"{rid} {json.dumps(opts)}" if opts else rid, None, [(rid, opts)]) for rid, opts in mixes]
    else:
        sets = [("mixed" if not args.ruleset else args.ruleset, None,
                 [(args.ruleset, {})] if args.ruleset else MIX)]
    results: dict[str, Any] = {}
    for name, path, mix in sets:
        tmp = None
        if path is None:
            assert mix is not None
            tmp = tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False)
            tmp.close()
            path = tmp.name
            t = time.perf_counter()
            hands = generate(path, args.matches, args.seed, mix, args.diverge)
            print(f"{name}: generated {hands} hand records ({os.path.getsize(path) / 1e6:.1f} MB) in "
                  f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
        try:
            results[name] = measure(path, args.jobs, args.repeat, not args.no_engine)
            if args.baseline:
                results[name].append(compare_baseline(path, args.baseline, args.repeat))
            if compiled_here():
                results[name].append(compare_pure(path, args.repeat))
            base = next((r for r in results[name] if r.get("jobs") == 1 and r.get("fast_path")), None)
            for n in args.dask_workers:
                row = max((run_dask(path, n, args.unit_bytes) for _ in range(args.repeat)),
                          key=lambda r: r["hands_per_s"])
                if base is not None:
                    row["ratio_vs_jobs_1"] = round(row["hands_per_s"] / base["hands_per_s"], 2)
                results[name].append(row)
        finally:
            if tmp is not None:
                os.unlink(path)
    info["load_avg_after"] = os.getloadavg()
    if args.json:
        print(json.dumps({"machine": info, "runs": results}))
    else:
        from words import machine_words, value_words

        shown = [machine_words(info)]
        for name, rows in results.items():
            shown.append(name)
            shown += ["  " + value_words(r) for r in rows]
        print("\n".join(shown))
        if args.results:
            from results import header, write_section

            write_section("verify", ["## verify against orjson's decode of the same lines (bench/verify.py)", "",
                                     header(), "", "```text", *shown, "```"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
