"""Commands ``tarneeb vectors generate|run|check`` and ``tarneeb fuzz``.

Exit codes: 0 all passed / no divergence; 1 some vector failed / a divergence
was found (or committed vectors are stale); 2 bad input or an engine that
timed out, crashed, went silent or wrote garbage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tarneeb.conformance.protocol import Engine
from tarneeb.core.spec import load_rules, parse_option_args
from tarneeb.errors import TarneebError


def register(sub: Any) -> None:
    v = sub.add_parser("vectors", help="conformance vectors: generate them, or run them against an engine")
    vs = v.add_subparsers(dest="vectors_command", required=True)
    s = vs.add_parser("generate", help="write spec/vectors/ from the engine")
    s.add_argument("--out", default=None, help="folder (default: spec/vectors)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_generate)
    s = vs.add_parser("check", help="exit 1 when the committed vectors differ from a fresh generate")
    s.add_argument("--dir", default=None)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_check)
    s = vs.add_parser("run", help="run the vectors against an external engine (spec/protocol)")
    s.add_argument("--engine", required=True, metavar="CMD", help="command line that starts the engine")
    s.add_argument("--ruleset", default=None)
    s.add_argument("--category", action="append", default=None)
    s.add_argument("--dir", default=None)
    s.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each answer")
    s.add_argument("--max-failures", type=int, default=20, help="failures to print")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_run)

    f = sub.add_parser("fuzz", help="differential fuzzing of an external engine against ours, in lockstep")
    f.add_argument("--engine", required=True, metavar="CMD")
    f.add_argument("--ruleset", required=True)
    f.add_argument("--option", action="append", metavar="NAME=VALUE")
    f.add_argument("--hands", type=int, default=200, help="deals to play (cancelled deals count)")
    f.add_argument("--seed", default="0")
    f.add_argument("--part-way", type=float, default=0.5, metavar="SHARE",
                   help="share of the deals played in matches started part-way, from near-target score states "
                        "(default 0.5; 0: every match from zero)")
    f.add_argument("--timeout", type=float, default=5.0)
    f.add_argument("--out", default=None, help="also write the reproducer (game record) to this file")
    f.add_argument("--json", action="store_true")
    f.set_defaults(func=cmd_fuzz)


def _dir(arg: str | None) -> Path:
    from tarneeb.conformance.vectors import default_dir

    return Path(arg) if arg else default_dir()


def cmd_generate(args: argparse.Namespace) -> int:
    from tarneeb.conformance.vectors import write_all

    counts = write_all(_dir(args.out))
    if args.json:
        print(json.dumps({"counts": counts, "total": sum(counts.values())}))
    else:
        for rid, n in counts.items():
            print(f"{rid}: {n} vectors")
        print(f"total: {sum(counts.values())} vectors in {_dir(args.out)}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from tarneeb.conformance.vectors import generated_files

    root = _dir(args.dir)
    stale = []
    for rel, text in generated_files():
        p = root / rel
        try:
            same = p.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        if not same:
            stale.append(rel)
    if args.json:
        print(json.dumps({"stale": stale}))
    else:
        print("vectors are up to date" if not stale else "stale or missing: " + ", ".join(stale))
    return 1 if stale else 0


def cmd_run(args: argparse.Namespace) -> int:
    from tarneeb.conformance.vectors import run_vectors, vector_paths

    paths = vector_paths(_dir(args.dir), args.ruleset, args.category)
    with Engine(args.engine, timeout=args.timeout) as eng:
        rep = run_vectors(eng, paths)
    if args.json:
        print(json.dumps(rep.to_json(args.max_failures)))
    else:
        print(f"{rep.passed} passed, {rep.failed} failed")
        for clause, n in sorted(rep.by_clause.items(), key=lambda kv: -kv[1]):
            print(f"  {n:5d} failures on clause {clause}")
        for f in rep.failures[:args.max_failures]:
            print(f"{f.ruleset}/{f.category}.json {json.dumps(f.options)} test {f.index} ({f.description}): "
                  f"{f.field}: expected {json.dumps(f.expected)}, engine gave {json.dumps(f.got)} "
                  f"[clause {f.source}]")
    return 1 if rep.failed else 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    from tarneeb.conformance.fuzz import fuzz

    if args.hands < 1:
        raise TarneebError(f"--hands: {args.hands} must be at least 1")
    rules = load_rules(args.ruleset, parse_option_args(args.option or []))
    with Engine(args.engine, timeout=args.timeout) as eng:
        res = fuzz(eng, rules, args.hands, str(args.seed), part_way=args.part_way)
    if args.out and res.reproducer:
        try:
            with open(args.out, "wb") as f:
                f.writelines(res.reproducer)
        except OSError as e:
            raise TarneebError(f"--out {args.out}: cannot write: {e.strerror or e}") from None
    if args.json:
        print(json.dumps(res.to_json()))
    elif res.divergence is None:
        print(f"no divergence in {res.deals} deals ({res.matches} matches) under {rules.label()}")
    else:
        print(f"divergence after {res.deals} deals: {res.divergence.text()}")
        if res.shrunk is not None:
            print(f"shrunk to {res.reproducer_deals} deal(s): {res.shrunk.text()}")
        print("reproducer (game record; check it with `tarneeb verify`):")
        for line in res.reproducer:
            sys.stdout.write(line.decode())
    return 1 if res.divergence is not None else 0
