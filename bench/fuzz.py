"""Benchmark of ``tarneeb fuzz --batch``: deals per second against an outside engine, with CPU time and load.

Times :func:`tarneeb.conformance.fuzz.fuzz` as ``tarneeb fuzz --engine CMD --ruleset R --hands N --seed S
--batch`` runs it (the engine is started and greeted first, not timed). Each run reports

* ``deals_per_s``: deals over the wall-clock time of the fuzz run (the target: at least 500 for
  ``examples/mini_engine``, eram-41, 1,000 deals);
* ``ours_cpu_s`` (this process, its reader threads included) and ``engine_cpu_s`` (the engine process, read from
  ``/proc/PID/stat``), and ``deals_per_cpu_s`` over both: the figure least moved by other load;
* ``machine_busy`` (share of all CPUs in use while it ran, from ``/proc/stat``) and ``others_busy_cpus`` (the
  CPUs' worth of work of other processes).

Best of ``--repeat`` runs (wall figures of the fastest, CPU figures of the cheapest, the load averaged).
``--baseline REF`` runs the same fuzz with commit REF's package and REF's engine (a ``git worktree`` under the
system's temporary folder, as ``bench/verify.py --baseline`` does) in a child process, alternating with ours, and
prints the ratios ours / baseline. Both sides play the same deals (their counts are printed and must agree).

    .venv/bin/python bench/fuzz.py                                  # mini engine, eram-41, 1000 deals, batched
    .venv/bin/python bench/fuzz.py --baseline main --repeat 5
    .venv/bin/python bench/fuzz.py --baseline main --cli          # also the whole command, start-up included
    .venv/bin/python bench/fuzz.py --lockstep --hands 200          # one exchange per action, for comparison
    .venv/bin/python bench/fuzz.py --engine "node examples/js_engine/engine.js" --ruleset card-kings-41

Not a test: it prints figures, it does not pass or fail.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_verify_bench: Any = importlib.import_module("verify")  # bench/verify.py: its /proc/stat and baseline helpers
_proc_stat = _verify_bench._proc_stat
_baseline_tree = _verify_bench._baseline_tree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _self_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def _pid_cpu(pid: int) -> float | None:
    """CPU seconds of process ``pid`` so far (user + system), or None where /proc is missing."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_once(engine: str, ruleset: str, hands: int, seed: str, batch: bool) -> dict[str, Any]:
    """One fuzz run in this process (the ``tarneeb`` package on the path); its figures."""
    import tarneeb
    from tarneeb import load_rules
    from tarneeb.conformance.fuzz import fuzz
    from tarneeb.conformance.protocol import Engine

    rules = load_rules(ruleset)
    with Engine(engine, timeout=30.0) as eng:
        pid = eng.proc.pid
        e0, p0 = _pid_cpu(pid), _proc_stat()
        t0, c0 = time.perf_counter(), _self_cpu()
        res = fuzz(eng, rules, hands, seed, batch=batch)
        wall, ours = time.perf_counter() - t0, _self_cpu() - c0
        e1, p1 = _pid_cpu(pid), _proc_stat()
    row: dict[str, Any] = {"deals": res.deals, "matches": res.matches, "divergence": res.divergence is not None,
                           "wall_s": round(wall, 3), "deals_per_s": round(res.deals / wall, 1),
                           "ours_cpu_s": round(ours, 3), "package": os.path.dirname(tarneeb.__file__)}
    if e0 is not None and e1 is not None:
        row["engine_cpu_s"] = round(e1 - e0, 3)
        row["deals_per_cpu_s"] = round(res.deals / max(1e-9, ours + e1 - e0), 1)
    if p0 is not None and p1 is not None and p1[1] > p0[1]:
        busy = (p1[0] - p0[0]) / (p1[1] - p0[1])
        mine = ours + (e1 - e0 if e0 is not None and e1 is not None else 0.0)
        row["machine_busy"] = round(busy, 2)
        row["others_busy_cpus"] = round(max(0.0, busy * (os.cpu_count() or 1) - mine / wall), 2)
    return row


def run_cli(engine: str, ruleset: str, hands: int, seed: str, batch: bool, model: str | None) -> dict[str, Any]:
    """The whole command ``tarneeb fuzz ... [--batch]`` as a user runs it: wall clock from start to exit (the
    interpreter's and the engine's start included), CPU of both processes."""
    env = dict(os.environ)
    if model is not None:
        env["PYTHONPATH"] = model + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("TARNEEB_SPEC_DIR", None)
    cmd = [sys.executable, "-m", "tarneeb.cli", "fuzz", "--engine", engine, "--ruleset", ruleset, "--hands", str(hands),
           "--seed", seed, "--json"] + (["--batch"] if batch else [])
    k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p0, t0 = _proc_stat(), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    wall, p1 = time.perf_counter() - t0, _proc_stat()
    k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (k1.ru_utime + k1.ru_stime) - (k0.ru_utime + k0.ru_stime)  # the CLI and the engine it started
    res = json.loads(out)
    row: dict[str, Any] = {"deals": res["deals"], "matches": res["matches"],
                           "divergence": res["divergence"] is not None, "wall_s": round(wall, 3),
                           "deals_per_s": round(res["deals"] / wall, 1), "cpu_s": round(cpu, 3),
                           "deals_per_cpu_s": round(res["deals"] / max(1e-9, cpu), 1)}
    if p0 is not None and p1 is not None and p1[1] > p0[1]:
        busy = (p1[0] - p0[0]) / (p1[1] - p0[1])
        row["machine_busy"] = round(busy, 2)
        row["others_busy_cpus"] = round(max(0.0, busy * (os.cpu_count() or 1) - cpu / wall), 2)
    return row


def _child(engine: str, ruleset: str, hands: int, seed: str, batch: bool, model: str | None) -> dict[str, Any]:
    """One run in a child process; ``model``: the folder holding the ``tarneeb`` package to use."""
    env = dict(os.environ)
    if model is not None:
        env["PYTHONPATH"] = model + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("TARNEEB_SPEC_DIR", None)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--engine", engine, "--ruleset", ruleset,
           "--hands", str(hands), "--seed", seed] + ([] if batch else ["--lockstep"])
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    row: dict[str, Any] = json.loads(out)
    want = os.path.join(model, "tarneeb") if model is not None else os.path.join(ROOT, "model", "tarneeb")
    if os.path.realpath(row["package"]) != os.path.realpath(want):
        raise SystemExit(f"the run imported {row['package']}, not {want}")
    return row


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    top = dict(max(runs, key=lambda r: r["deals_per_s"]))
    if all("deals_per_cpu_s" in r for r in runs):
        cheap = max(runs, key=lambda r: r["deals_per_cpu_s"])
        for k in ("ours_cpu_s", "engine_cpu_s", "cpu_s", "deals_per_cpu_s"):
            if k in cheap:
                top[k] = cheap[k]
    if all("machine_busy" in r for r in runs):
        top["machine_busy"] = round(sum(r["machine_busy"] for r in runs) / len(runs), 2)
        top["others_busy_cpus"] = round(sum(r["others_busy_cpus"] for r in runs) / len(runs), 2)
    top["runs"] = len(runs)
    return top


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=None,
                   help="engine command line (default: this interpreter running examples/mini_engine/mini_engine.py)")
    p.add_argument("--ruleset", default="eram-41", help="ruleset id (default eram-41)")
    p.add_argument("--hands", type=int, default=1000, help="deals per run (default 1000)")
    p.add_argument("--seed", default="0", help="fuzz seed (the same seed plays the same deals)")
    p.add_argument("--repeat", type=int, default=3, help="best of this many runs (each side)")
    p.add_argument("--lockstep", action="store_true", help="one exchange per action (fuzz without --batch)")
    p.add_argument("--cli", action="store_true",
                   help="also time the whole command 'python -m tarneeb.cli fuzz ...' (start-up included)")
    p.add_argument("--baseline", metavar="REF", help="also run commit REF's package and engine; print the ratios")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    batch = not args.lockstep

    def engine_in(tree: str) -> str:
        return args.engine or shlex.join([sys.executable, os.path.join(tree, "examples", "mini_engine",
                                                                        "mini_engine.py")])

    if args.child:
        print(json.dumps(run_once(args.engine, args.ruleset, args.hands, args.seed, batch)))
        return 0
    info = {"cpus": os.cpu_count(), "load_avg_before": os.getloadavg(), "python": sys.version.split()[0],
            "ruleset": args.ruleset, "hands": args.hands, "batch": batch, "engine": engine_in(ROOT),
            "target_deals_per_s": 500}
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    tree = _baseline_tree(args.baseline) if args.baseline else None
    for _ in range(args.repeat):  # alternating, one process each, so that both sides see the same load
        ours.append(_child(engine_in(ROOT), args.ruleset, args.hands, args.seed, batch, None))
        if tree is not None:
            theirs.append(_child(engine_in(tree), args.ruleset, args.hands, args.seed, batch,
                                 os.path.join(tree, "model")))
    cli_ours: list[dict[str, Any]] = []
    cli_theirs: list[dict[str, Any]] = []
    for _ in range(args.repeat if args.cli else 0):
        cli_ours.append(run_cli(engine_in(ROOT), args.ruleset, args.hands, args.seed, batch, None))
        if tree is not None:
            cli_theirs.append(run_cli(engine_in(tree), args.ruleset, args.hands, args.seed, batch,
                                      os.path.join(tree, "model")))
    result: dict[str, Any] = {"ours": best(ours)}
    if cli_ours:
        result["ours_cli"] = best(cli_ours)
    if tree is not None:
        b = best(theirs)
        if (b["deals"], b["matches"], b["divergence"]) != (result["ours"]["deals"], result["ours"]["matches"],
                                                          result["ours"]["divergence"]):
            raise SystemExit(f"baseline {args.baseline} played other deals: ours {result['ours']}, theirs {b}")
        result["baseline"] = dict(b, ref=args.baseline)
        result["ratio_deals_per_s"] = round(result["ours"]["deals_per_s"] / b["deals_per_s"], 3)
        if "deals_per_cpu_s" in b and "deals_per_cpu_s" in result["ours"]:
            result["ratio_deals_per_cpu_s"] = round(result["ours"]["deals_per_cpu_s"] / b["deals_per_cpu_s"], 3)
        if cli_theirs:
            result["baseline_cli"] = dict(best(cli_theirs), ref=args.baseline)
            result["ratio_cli_deals_per_s"] = round(result["ours_cli"]["deals_per_s"]
                                                    / result["baseline_cli"]["deals_per_s"], 3)
    info["load_avg_after"] = os.getloadavg()
    if args.json:
        print(json.dumps({"machine": info, **result}))
    else:
        from words import machine_words, value_words

        print(machine_words(info))
        for k, v in result.items():
            print(f"{k.replace('_', ' ')}: {value_words(v)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
