"""``tarneeb vectors generate|check|run``: the conformance vectors (spec/vectors/), and running them against an engine.

Exit codes: 0 all passed (vectors up to date); 1 some vector failed (or the
committed vectors are stale); 2 bad input, nothing to run (the engine lists
none of the selected rulesets in its hello answer), or an engine that timed
out, crashed, went silent or wrote garbage.
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path
from typing import Any

from tarneeb.cli.common import progress_bar
from tarneeb.conformance.protocol import Engine
from tarneeb.core.sources import rule_words
from tarneeb.errors import BadInput, os_error_words


def register(subparsers: Any) -> None:
    v = subparsers.add_parser("vectors", help="conformance vectors: generate them, or run them against an engine")
    vs = v.add_subparsers(dest="vectors_command", required=True)
    s = vs.add_parser("generate", help="write spec/vectors/ (and spec/protocol/quickstart.md) from the engine")
    s.add_argument("--out", default=None, help="folder (default: spec/vectors)")
    s.add_argument("--ruleset", default=None,
                   help="only this ruleset: a built-in id or the path of a ruleset file (house rules)")
    s.add_argument("--json", action="store_true", help="one JSON object instead of text")
    s.set_defaults(func=cmd_generate)
    s = vs.add_parser("check", help="exit 1 when the committed vectors differ from a fresh generate")
    s.add_argument("--dir", default=None, help="vector folder (default: spec/vectors)")
    s.add_argument("--json", action="store_true", help="one JSON object instead of text")
    s.set_defaults(func=cmd_check)
    s = vs.add_parser("run", help="run the vectors against an external engine (spec/protocol)")
    s.add_argument("--engine", required=True, metavar="CMD", help="command line that starts the engine")
    s.add_argument("--ruleset", default=None, help="only this ruleset's vectors (default: every ruleset the "
                   "engine lists in its hello answer's rulesets; the others are skipped and reported)")
    s.add_argument("--category", action="append", default=None,
                   help="only this category (play-legality, ..., hand, match, perft); repeatable")
    s.add_argument("--only", action="append", default=None, metavar="FILE:LINE",
                   help="only the test on this line of this vector file, as a failure prints it "
                        "(e.g. card-kings-41/hand.json:12); repeatable")
    s.add_argument("--dir", default=None, help="vector folder (default: spec/vectors)")
    s.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each answer")
    s.add_argument("--max-failures", type=int, default=20, help="failures to print")
    s.add_argument("--protocol", type=int, default=None, metavar="N",
                   help="run as for an engine of protocol version N (default: the version its hello answer names; "
                        "the tests of a newer version are skipped and reported, see spec/protocol/CHANGELOG.md)")
    s.add_argument("--junit", default=None, metavar="FILE",
                   help="also write a JUnit XML report (a test case per vector, a suite per ruleset and category)")
    s.add_argument("--json", action="store_true", help="one JSON object instead of text")
    s.set_defaults(func=cmd_run)


def _dir(arg: str | None) -> Path:
    from tarneeb.conformance.vectors import default_dir

    return Path(arg) if arg else default_dir()


def cmd_generate(args: argparse.Namespace) -> int:
    from tarneeb.conformance.vectors import write_all
    from tarneeb.core.spec import spec_is_packaged

    if args.out is None and spec_is_packaged():  # an installed wheel: its vectors are what it runs, read-only
        raise BadInput(f"the vectors ship with the installed package ({_dir(None)}); give --out DIR to write "
                       "a fresh copy there (or run from a source tree to regenerate spec/vectors)")

    counts = write_all(_dir(args.out), args.ruleset)
    if args.out is None and args.ruleset is None:  # the quickstart transcript of spec/protocol/ comes from the same engine
        from tarneeb.conformance.vectors import quickstart_file

        path, text = quickstart_file()
        path.write_text(text, encoding="utf-8")
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
    if args.dir is None:
        from tarneeb.conformance.vectors import quickstart_file

        path, text = quickstart_file()
        try:
            same = path.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        if not same:
            stale.append(str(path))
    if args.json:
        print(json.dumps({"stale": stale}))
    else:
        print("vectors are up to date" if not stale else "stale or missing: " + ", ".join(stale))
    return 1 if stale else 0


def cmd_run(args: argparse.Namespace) -> int:
    from tarneeb.conformance.protocol import PROTOCOL_CHANGES, engine_protocol
    from tarneeb.conformance.vectors import junit_xml, parse_selector, run_vectors, vector_paths

    if args.protocol is not None and args.protocol < 1:
        raise BadInput(f"--protocol {args.protocol}: a protocol version is 1 or more")

    only = list(args.only or [])
    cats = args.category
    rid = args.ruleset
    if only:  # the files named by the selectors (each FILE is RULESET/CATEGORY.json)
        files = {parse_selector(x)[0] for x in only}
        paths = [p for p in vector_paths(_dir(args.dir), rid, cats) if "/".join(p.parts[-2:]) in files]
        if not paths:
            raise BadInput(f"--only {', '.join(only)}: no such vector file under {_dir(args.dir)} "
                           "(FILE is RULESET/CATEGORY.json, as a failure prints it)")
    else:
        paths = vector_paths(_dir(args.dir), rid, cats)
    with Engine(args.engine, timeout=args.timeout) as eng, progress_bar() as bar:
        task = bar.add_task("vectors", total=len(paths))

        def on_progress(done: int, name: str) -> None:
            bar.update(task, completed=done, description=f"vectors {name}")

        rep = run_vectors(eng, paths, on_progress=on_progress, only=only, protocol=args.protocol)
        listed = eng.hello.get("rulesets")
        said = engine_protocol(eng.hello)
    if args.junit:
        try:
            Path(args.junit).write_text(junit_xml(rep, args.engine), encoding="utf-8")
        except OSError as e:
            raise BadInput(f"--junit {args.junit}: cannot write: {os_error_words(e)}") from None
    if args.json:
        print(json.dumps(rep.to_json(args.max_failures)))
    else:
        print(f"{rep.passed} passed, {rep.failed} failed")
        for r, n in rep.skipped.items():
            print(f"  {n:5d} skipped: ruleset {r} is not among the rulesets the engine's hello lists "
                  f"({', '.join(str(x) for x in listed or []) or 'none'})")
        who = f"the engine's hello names protocol {said}" if args.protocol is None else f"--protocol {rep.protocol}"
        for v, n in sorted(rep.newer.items()):
            print(f"  {n:5d} skipped: they test protocol {v} ({PROTOCOL_CHANGES.get(v, 'see the changelog')}); "
                  f"{who} (spec/protocol/CHANGELOG.md; --protocol {v} runs them)")
        for clause, n in sorted(rep.by_clause.items(), key=lambda kv: -kv[1]):
            print(f"  {n:5d} {'failure' if n == 1 else 'failures'} on {rule_words(clause)}")
        for f in rep.failures[:args.max_failures]:
            print(f.text())
            if f.since > said:
                print(f"  this test checks protocol {f.since} ({PROTOCOL_CHANGES.get(f.since, 'see the changelog')}); "
                      f"the engine's hello names protocol {said}")
            print(f"  rerun: tarneeb vectors run --engine {shlex.quote(args.engine)} --only {f.selector}")
        if len(rep.failures) > args.max_failures:
            print(f"({len(rep.failures) - args.max_failures} more failures; --max-failures N shows more)")
    if not rep.passed + rep.failed and rep.skipped:
        if not args.json:
            print("nothing was run: the engine supports none of the selected rulesets")
        return 2
    return 1 if rep.failed else 0
