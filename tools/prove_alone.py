#!/usr/bin/env python3
"""What the steered matches of the match machine (``tests/steered``, once `tarneeb prove`'s match stage) catch on
their own of the mutants of a whole cosmic-ray run that only the other tests killed (how much of the match machine
the steering sees).

    python tools/prove_alone.py                       # match.py, every test-only kill of proofs/mutation-results.json
    python tools/prove_alone.py --only-passed FILE    # only those an earlier run of this tool left passed

Each mutant's stored diff is applied to a copy of the current ``model/``, ``proofs/``, ``spec/`` and ``tests/`` (a
mutant whose line no longer occurs once in the current source is *stale*: counted apart, never guessed), and the
steered matches (``tests.steered.runs.run_rules``: every option variant of every ruleset) run on it in a fresh
process, bounded to 300 s. *caught*: the stage found a counterexample (or the engine hung past the bound); *passed*: it did not.
Results go to ``proofs/mutation-prove-alone.json`` (with the commit of the copied tree); a summary to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "proofs" / "mutation-prove-alone.json"
STAGE = ("import sys\nfrom tests.steered.runs import run_rules\nfrom tarneeb.core.spec import rulesets, load_rules\n"
         "for rid in rulesets():\n    cx, _ = run_rules(load_rules(rid))\n"
         "    if cx is not None:\n        print('CAUGHT', rid, cx.transition)\n        sys.exit(1)\nprint('PASSED')\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", default="match", choices=["match"], help="the cosmic-ray module (match.py)")
    ap.add_argument("--only-passed", type=Path, help="only the mutants this earlier result file left passed")
    args = ap.parse_args()
    stored = json.loads((ROOT / "proofs" / "mutation-results.json").read_text(encoding="utf-8"))["mutants"]
    todo = [m for m in stored if m["key"].startswith(f"{args.module}:") and m["status"] == "killed"
            and (m.get("killed_by") or "").startswith("pytest:")]
    earlier: dict[str, list[str]] = {}
    if args.only_passed is not None:
        earlier = json.loads(args.only_passed.read_text(encoding="utf-8"))["mutants"]
        todo = [m for m in todo if earlier.get(m["key"], [""])[0] == "passed"]
    path = ROOT / "model" / "tarneeb" / "core" / f"{args.module}.py"
    src = path.read_text(encoding="utf-8")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "model", "proofs", "spec"],
                           capture_output=True, text=True).stdout.strip()
    out: dict[str, list[str]] = dict(earlier)
    with tempfile.TemporaryDirectory(prefix="prove-alone-") as tmp:
        t = Path(tmp)
        for part in ("model", "proofs", "spec", "tests"):
            shutil.copytree(ROOT / part, t / part, ignore=shutil.ignore_patterns("__pycache__"))
        target = t / path.relative_to(ROOT)
        env = {**os.environ, "PYTHONPATH": f"{t}:{t}/model:{t}/proofs"}  # the copy's root: tests.steered
        try:
            for i, m in enumerate(todo):
                lines = m["diff"].split("\n")
                old = "\n".join(ln[1:] for ln in lines if ln.startswith("-")) + "\n"
                new = "\n".join(ln[1:] for ln in lines if ln.startswith("+")) + "\n"
                if src.count(old) != 1:
                    out[m["key"]] = ["stale", f"the mutated text occurs {src.count(old)} times in the current source"]
                else:
                    target.write_text(src.replace(old, new), encoding="utf-8")
                    try:
                        p = subprocess.run([sys.executable, "-c", STAGE], capture_output=True, text=True, timeout=300,
                                           env=env)
                        last = (p.stdout.strip().splitlines() or p.stderr.strip().splitlines() or [""])[-1]
                        out[m["key"]] = ["caught" if p.returncode else "passed", last[:200]]
                    except subprocess.TimeoutExpired:
                        out[m["key"]] = ["caught", "the engine did not finish within 300 s"]
                print(f"[{i + 1}/{len(todo)}] {m['key']}: {out[m['key']][0]}", file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
    OUT.write_text(json.dumps({"commit": commit + ("+dirty" if dirty else ""), "module": args.module,
                               "mutants": out}, indent=1) + "\n", encoding="utf-8")
    print(dict(Counter(v[0] for v in out.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
