#!/usr/bin/env python3
"""Run the real ``tarneeb prove`` (or the tests that catch the mutant) on a patched copy of the tree, once per mutant of
the catalogue.

    python tools/prove_mutants.py                          # every mutant of tarneeb_proofs.mutants, 2 at a time
    python tools/prove_mutants.py --ids engine-round-of-five,engine-bid13-twelve
    python tools/prove_mutants.py --stage engine.play --jobs 1
    python tools/prove_mutants.py --stage test.match       # through the test files that catch the stage
    python tools/prove_mutants.py --held-out --jobs 1      # the held-out set, each through the whole prove and tests
    python tools/prove_mutants.py --report                 # rewrite proofs/MUTANTS.md from the stored results

For each mutant: its edit is written into a copy of ``model/``, ``proofs/`` and ``spec/`` in a temporary folder
(``mutants.patched_tree``), and ``python -m tarneeb.cli prove --invariant <family of its stage> --ruleset <its
ruleset> --json`` runs there in a fresh process, ``PYTHONPATH`` on the copy's ``model`` and ``proofs`` (every
option variant of that ruleset, so also the one carrying the mutant's options); for a mutant of the held-out set
(``held_out.toml``, stage ``held-out``) the whole ``prove --jobs 2 --json``, as a user runs it. Recorded: the exit code, the
failing checks, the first failing proof (a check expected to be proved that ended in a counterexample) and what its
counterexample names (the function or transition, the input, the clause), the wall and CPU time.

A mutant of a stage the tests catch, not prove (:data:`BY_TESTS`: ``test.match``, the steered matches of the match
machine; ``test.tools``, the tools on recorded matches: bounded checks, which prove does not run) gets the test files
of its stage instead: ``tests/`` and ``pyproject.toml`` are copied beside the patched tree and ``python -m pytest
<files>`` runs there, the tests of the true engine and tools, which must fail on the patched copy. A held-out mutant
gets the whole prove and, as well, every one of those test files (no family is named in advance). Recorded: the
failing tests (``caught_by_tests``, node ids) and what the first one's counterexample names, and which caught it
(``caught_by``: ``prove``, ``tests`` or both).

A mutant is **caught** when prove exits 1 and a proof check ends in a counterexample, or when a test of those files
fails; **not caught** when prove passes, or fails only on something else (the manifest's own mutant checks whose edit
the patch overlaps: they report themselves as stale, and are listed per row), and the tests pass; **stale** when its
``old`` text does not occur exactly once in its module any more (it is reported, never skipped); **error** when prove
or pytest crashed or timed out (the last line of its stderr is kept).

Results: ``proofs/mutants-results.json`` (one row per mutant, the rows of the mutants run replacing those of the
same id) and ``proofs/MUTANTS.md`` (generated from it). Progress goes to stderr; Ctrl-C stops the run, ends the
prove processes it started and writes nothing (exit 130).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "model"), str(ROOT / "proofs")]

from tarneeb_proofs.mutants import MUTANTS, Mutant, MutantError, edit, patched_tree  # noqa: E402

RESULTS = ROOT / "proofs" / "mutants-results.json"
REPORT = ROOT / "proofs" / "MUTANTS.md"
TIMEOUT_S = 900

_running: dict[int, subprocess.Popen[bytes]] = {}  # pid -> the prove processes this run started
_lock = threading.Lock()
_stop = threading.Event()


def module_path(m: Mutant, root: Path = ROOT) -> Path:
    return root / Path("model", *m.module.split(".")).with_suffix(".py")


def stale_reason(m: Mutant, root: Path = ROOT) -> str:
    """Why ``m`` no longer applies to the tree at ``root`` ("" when its function is there and its old text occurs
    exactly once in that function)."""
    path = module_path(m, root)
    if not path.is_file():
        return f"{path.relative_to(root)} does not exist"
    try:
        edit(m, path.read_text(encoding="utf-8"))
    except MutantError as e:
        return str(e)
    return ""


def family(stage: str) -> str:
    return stage.split(".", 1)[0]


# stages whose mutants the tests catch, not prove (bounded checks): the test files that catch them, on a patched copy
# of the tree: the true engine's steered matches under every configuration (and each test.match mutant's), the tools
# on the recorded matches under every configuration (each test.tools mutant's among them), and the fuzzer against
# the correct example engine
BY_TESTS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "test.match": ("tests/test_match_steered_engine.py",),
    "test.tools": ("tests/test_verify_tools.py", "tests/test_vectors_reference.py", "tests/test_referee_engine.py",
                   "tests/test_tool_records.py", "tests/test_fuzz.py"),
})


def by_prove(m: Mutant) -> bool:
    """Whether ``tarneeb prove`` runs on the mutant's patched copy (every stage but those of :data:`BY_TESTS`)."""
    return m.stage not in BY_TESTS


def test_files(m: Mutant) -> list[str]:
    """The test files run on the mutant's patched copy: its stage's; for a held-out mutant, every stage's."""
    if m.held_out:
        return [f for files in BY_TESTS.values() for f in files]
    return list(BY_TESTS.get(m.stage, ()))


def command(m: Mutant) -> list[str]:
    """The prove command run on the mutant's patched copy (empty for a mutant the tests catch, not prove)."""
    if not by_prove(m):
        return []
    if m.held_out:  # no family named in advance: the whole prove, as a user runs it
        return ["python", "-m", "tarneeb.cli", "prove", "--jobs", "2", "--json"]
    return ["python", "-m", "tarneeb.cli", "prove", "--invariant", family(m.stage), "--ruleset", m.ruleset, "--json"]


def test_command(m: Mutant, junit: Path | None = None) -> list[str]:
    """The pytest command run on the mutant's patched copy (empty when no test file catches its stage)."""
    files = test_files(m)
    if not files:
        return []
    out = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts="]
    if junit is not None:
        out += [f"--junit-xml={junit}"]
    return out + files


def base_row(m: Mutant) -> dict[str, Any]:
    try:
        fn = m.fn
    except ValueError:  # the old text is gone: no place to name
        fn = ""
    return {"id": m.id, "module": m.module, "fn": fn, "kind": m.kind, "stage": m.stage, "ruleset": m.ruleset,
            "options": dict(m.options), "in_manifest": m.in_manifest, "text": m.text,
            "command": " && ".join(" ".join(c) for c in (command(m), test_command(m)) if c)}


def _facts(res: dict[str, Any]) -> dict[str, Any]:
    w = res.get("witness") or {}
    facts = dict(w.get("facts") or {})
    named = next((facts[k] for k in ("engine function", "function", "transition") if k in facts), "")
    return {"named": named, "input": facts.get("input", ""), "clause": ", ".join(w.get("clauses") or []),
            "clause_text": facts.get("clause", ""), "engine_returns": facts.get("engine returns", ""),
            "encoding_gives": facts.get("encoding gives", ""), "obligation": res.get("obligation", "")}


def judge(m: Mutant, rc: int, out: str, err: str) -> dict[str, Any]:
    """The row's verdict from prove's exit code and JSON output."""
    row: dict[str, Any] = {"exit_code": rc}
    try:
        data = json.loads(out.strip().splitlines()[-1]) if out.strip() else None
    except (json.JSONDecodeError, IndexError):
        data = None
    if rc not in (0, 1) or data is None:
        tail = [ln for ln in err.strip().splitlines() if ln.strip()]
        row.update(status="error", error=tail[-1] if tail else f"exit code {rc} and no JSON on stdout")
        return row
    results = data["results"]
    failing = [r for r in results if r["result"] != r["expected"]]
    row["failing_checks"] = [r["id"] for r in failing]
    row["stale_manifest_mutants"] = [r["id"] for r in failing if r["mutant"] and "stale mutant" in r["obligation"]]
    row["checks_run"] = len(results)
    row["cpu_s"] = data["summary"]["cpu_s"]
    proofs = [r for r in failing if r["mutant"] is None and r["result"] == "counterexample"]
    if rc == 1 and proofs:
        first = proofs[0]
        row.update(status="caught", first_failing_check=first["id"],
                   in_stage=m.held_out or first["id"].split(":", 1)[0] == m.stage,
                   stage_too=any(r["id"].split(":", 1)[0] == m.stage for r in proofs), **_facts(first))
    else:
        row.update(status="not caught", first_failing_check=failing[0]["id"] if failing else "")
    return row


def judge_tests(m: Mutant, rc: int, junit: Path, err: str) -> dict[str, Any]:
    """The verdict of the test files run on the patched copy, from pytest's exit code and its JUnit XML: the failing
    tests (node ids) caught the mutant; what the first one's counterexample names (its witness, in the assertion
    message)."""
    row: dict[str, Any] = {"tests_exit_code": rc}
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError):
        root = None
    if rc not in (0, 1) or root is None:
        tail = [ln for ln in err.strip().splitlines() if ln.strip()]
        row.update(test_status="error", test_error=tail[-1] if tail else f"pytest exit code {rc} and no JUnit XML")
        return row
    failed: list[tuple[str, str]] = []
    run = 0
    for case in root.iter("testcase"):
        run += 1
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:
            path = case.get("classname", "").replace(".", "/") + ".py"
            # the report's lines of the error ("E   ..."): the message attribute is cut after a few lines
            err_lines = [ln[1:] for ln in (bad.text or "").splitlines() if ln.startswith("E ")]
            failed.append((f"{path}::{case.get('name', '')}", "\n".join(err_lines) or bad.get("message") or ""))
    row.update(tests_run=run, caught_by_tests=[t for t, _ in failed])
    if rc == 1 and failed:
        row.update(test_status="caught", first_failing_test=failed[0][0], **_test_facts(failed[0][1]))
    else:
        row.update(test_status="not caught")
    return row


_WITNESS_ROW = ("engine function", "tool function", "function", "transition", "input", "clause", "clauses")


def _test_facts(message: str) -> dict[str, Any]:
    """What a failing test's counterexample names, read from the witness text its assertion message carries."""
    facts: dict[str, str] = {}
    for ln in message.splitlines():
        key, sep, value = ln.strip().partition(": ")
        if sep and key in _WITNESS_ROW and key not in facts:
            facts[key] = value
    named = next((facts[k] for k in ("engine function", "tool function", "function", "transition") if k in facts), "")
    first = next((ln.strip() for ln in message.splitlines() if ln.strip()), "")
    return {"named": named, "input": facts.get("input", ""), "clause": facts.get("clauses", ""),
            "clause_text": facts.get("clause", ""), "obligation": first[:300]}


def _run(argv: list[str], tree: Path, env: dict[str, str], out_path: Path, err_path: Path) -> int:
    """Run ``argv`` (``python -m ...``) in the patched copy, as a process of its own (stopped on Ctrl-C); its exit
    code, or -1 when it timed out."""
    with out_path.open("wb") as out, err_path.open("wb") as err:
        if _stop.is_set():
            raise KeyboardInterrupt
        proc = subprocess.Popen([sys.executable, *argv[1:]], cwd=tree, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        with _lock:
            _running[proc.pid] = proc
        try:
            rc = proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            rc = -1
        finally:
            with _lock:
                _running.pop(proc.pid, None)
    if _stop.is_set():
        raise KeyboardInterrupt
    return rc


def _prove_on(m: Mutant, tree: Path, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    out_path, err_path = tmp / "stdout.json", tmp / "stderr.txt"
    rc = _run(command(m), tree, env, out_path, err_path)
    row = judge(m, rc, out_path.read_text(encoding="utf-8", errors="replace"),
                err_path.read_text(encoding="utf-8", errors="replace"))
    if rc == -1:
        row.update(status="error", error=f"timed out after {TIMEOUT_S} s")
    return row


def _tests_on(m: Mutant, tree: Path, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    for part in ("tests",):  # the tests beside the patched tree, as in the repository (they import tests.*)
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    junit, err_path = tmp / "junit.xml", tmp / "pytest-stderr.txt"
    rc = _run(test_command(m, junit), tree, env, tmp / "pytest-stdout.txt", err_path)
    row = judge_tests(m, rc, junit, err_path.read_text(encoding="utf-8", errors="replace"))
    if rc == -1:
        row.update(test_status="error", test_error=f"timed out after {TIMEOUT_S} s")
    return row


def merge(m: Mutant, proved: dict[str, Any] | None, tested: dict[str, Any] | None) -> dict[str, Any]:
    """One row from prove's verdict and the tests' (either None when not run): caught when either caught it, with
    ``caught_by`` saying which; the first failing proof named, else the first failing test."""
    row: dict[str, Any] = dict(proved or {})
    if tested is None:
        return row
    row.update(tested)
    by = [who for who, r, key in (("prove", proved, "status"), ("tests", tested, "test_status"))
          if r is not None and r.get(key) == "caught"]
    row["caught_by"] = by
    if proved is not None and proved.get("status") == "caught":
        return row
    if "tests" in by:
        row.update(status="caught", first_failing_check=tested["first_failing_test"], in_stage=True, stage_too=True,
                   **{k: tested[k] for k in ("named", "input", "clause", "clause_text", "obligation")})
    elif tested.get("test_status") == "error" and (proved is None or proved.get("status") != "not caught"):
        row.update(status="error", error=tested.get("test_error", ""))
    elif proved is None or proved.get("status") == "not caught":
        row.update(status="not caught", first_failing_check=row.get("first_failing_check", ""))
    return row


def run_one(m: Mutant, keep: Path | None) -> dict[str, Any]:
    """The mutant through prove on a patched copy of the tree, and through its stage's test files where the tests
    catch that stage (a held-out mutant: every such file, as well as the whole prove)."""
    row = base_row(m)
    reason = stale_reason(m)
    if reason:
        row.update(status="stale", error=reason, wall_s=0.0)
        return row
    tmp = Path(tempfile.mkdtemp(prefix=f"prove-mutant-{m.id}-"))
    t0 = time.perf_counter()
    try:
        tree = tmp / "tree"
        try:
            patched_tree(m, ROOT, tree)
        except MutantError as e:
            row.update(status="stale", error=str(e), wall_s=0.0)
            return row
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "COLUMNS")}
        env["PYTHONPATH"] = f"{tree / 'model'}{os.pathsep}{tree / 'proofs'}"
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        proved = _prove_on(m, tree, env, tmp) if command(m) else None
        tested = _tests_on(m, tree, env, tmp) if test_files(m) else None
        row.update(merge(m, proved, tested))
        if keep is not None:
            dest = keep / m.id
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tmp, dest)
    finally:
        row["wall_s"] = round(time.perf_counter() - t0, 2)
        shutil.rmtree(tmp, ignore_errors=True)
    return row


def _stop_children() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave prove processes behind
    _stop.set()
    with _lock:
        procs = list(_running.values())
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal while stopping them: stop anyway, no traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for p in procs:  # only the prove processes this run started, each by its own process group
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM: stopped like Ctrl-C (the prove processes ended, nothing written)


def progress(i: int, n: int, row: dict[str, Any]) -> None:
    what = {"caught": lambda: f"caught by {row['first_failing_check']} ({row['named']}; {row['clause']})",
            "not caught": lambda: "NOT caught" + (f" (fails only {row['first_failing_check']})"
                                                  if row.get("first_failing_check") else ""),
            "stale": lambda: f"STALE: {row['error']}",
            "error": lambda: f"ERROR: {row['error']}"}[row["status"]]()
    print(f"[{i}/{n}] {row['id']}: {what} ({row['wall_s']:.1f} s)", file=sys.stderr, flush=True)


def git_head() -> str:
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "model", "proofs", "spec",
                                f":!{RESULTS.relative_to(ROOT)}", f":!{REPORT.relative_to(ROOT)}"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# stages whose mutants prove is not meant to catch, with what checks them instead
NOT_BY_PROVE = {"ruling": "the referee restating a rule core decides: its words are the same until the rule changes "
                          "in core, which tests/test_no_rule_outside_core.py does for each of them (seen failing)"}


def select(ids: str | None, stage: str | None, held_out: bool = False) -> list[Mutant]:
    if stage in NOT_BY_PROVE:
        raise SystemExit(f"prove_mutants: the mutants of stage {stage!r} are not for prove: {NOT_BY_PROVE[stage]}")
    chosen = [m for m in MUTANTS.values() if m.stage not in NOT_BY_PROVE and (m.held_out or not held_out)]
    if ids:
        want = [x.strip() for x in ids.split(",") if x.strip()]
        unknown = [x for x in want if x not in MUTANTS]
        if unknown:
            raise SystemExit(f"prove_mutants: unknown mutant id(s): {', '.join(unknown)}")
        chosen = [MUTANTS[x] for x in want]
    if stage:
        chosen = [m for m in chosen if m.stage == stage]
        if not chosen:
            stages = sorted({m.stage for m in MUTANTS.values()})
            raise SystemExit(f"prove_mutants: no mutant of stage {stage!r}; stages: {', '.join(stages)}")
    return chosen


def run(chosen: list[Mutant], jobs: int, keep: Path | None) -> list[dict[str, Any]] | None:
    rows: dict[str, dict[str, Any]] = {}
    n = len(chosen)
    print(f"prove_mutants: {n} mutants, {jobs} at a time", file=sys.stderr, flush=True)
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    futs = {ex.submit(run_one, m, keep): m for m in chosen}
    try:
        for i, f in enumerate(concurrent.futures.as_completed(futs), start=1):
            row = f.result()
            rows[row["id"]] = row
            progress(i, n, row)
    except KeyboardInterrupt:
        _stop_children()
        ex.shutdown(wait=True, cancel_futures=True)
        print(f"interrupted after {len(rows)} of {n} mutants (nothing written)", file=sys.stderr)
        return None
    ex.shutdown(wait=True)
    return [rows[m.id] for m in chosen]


def save(new: list[dict[str, Any]], meta: dict[str, Any]) -> list[dict[str, Any]]:
    """Merge the rows run now into the stored ones (catalogue order; rows of ids no longer in it dropped)."""
    old: dict[str, dict[str, Any]] = {}
    if RESULTS.is_file():
        old = {r["id"]: r for r in json.loads(RESULTS.read_text(encoding="utf-8"))["mutants"]}
    for r in new:
        r["run"] = meta["commit"]
        old[r["id"]] = r
    rows = [old[k] for k, m in MUTANTS.items() if k in old and m.stage not in NOT_BY_PROVE]
    counts = {s: sum(r["status"] == s for r in rows) for s in ("caught", "not caught", "stale", "error")}
    meta = {**meta, "mutants": len(rows), **counts}
    RESULTS.write_text(json.dumps({"meta": meta, "mutants": rows}, indent=1) + "\n", encoding="utf-8")
    return rows


def _cell(x: Any) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def _missing_line(have: set[str]) -> str:
    missing = Counter(m.stage for k, m in MUTANTS.items() if k not in have and m.stage not in NOT_BY_PROVE)
    apart = Counter(m.stage for m in MUTANTS.values() if m.stage in NOT_BY_PROVE)
    line = "Every mutant of the catalogue meant for prove has a row." if not missing else (
        "Mutants of the catalogue with no row yet (never run on the prover as it is now; `--stage S` runs them): "
        + ", ".join(f"{st} {n}" for st, n in sorted(missing.items())) + ".")
    return line + "".join(f" Not run here: the {n} mutants of stage {st}, {NOT_BY_PROVE[st]}." for st, n in
                          sorted(apart.items()))


def report() -> None:
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    meta, rows = data["meta"], data["mutants"]
    by_stage: dict[str, dict[str, int]] = {}
    for r in rows:
        d = by_stage.setdefault(r["stage"], {"mutants": 0, "caught": 0, "not caught": 0, "stale": 0, "error": 0})
        d["mutants"] += 1
        d[r["status"]] += 1
    lines = [
        "<!-- generated by tools/prove_mutants.py from proofs/mutants-results.json: do not edit by hand -->",
        "# Mutants through the real `tarneeb prove`",
        "",
        "This file is generated (`python tools/prove_mutants.py`, or `--report` to rewrite it from the stored results).",
        "Each mutant of the one catalogue (`proofs/tarneeb_proofs/mutants.toml`) was written into a copy of the tree",
        "and `python -m tarneeb.cli prove --invariant <family of its stage> --ruleset <its ruleset> --json` was run",
        "there in a fresh process; for the held-out set (stage `held-out`: bugs written as an outside reviewer would,",
        "without reading the rest of the catalogue, `tarneeb_proofs/held_out.toml`) the whole",
        "`python -m tarneeb.cli prove --jobs 2 --json`, every family and ruleset, as a user runs it.",
        "The stages the tests catch, not prove (bounded checks: " + ", ".join(f"`{st}`" for st in BY_TESTS) + ") get",
        "`python -m pytest` on their test files in the patched copy instead (the true engine's and tools' tests, which",
        "must fail there), and the held-out set gets every one of those files as well as the whole prove.",
        "*Caught*: prove exited 1 and a proof check ended in a counterexample, or a test failed (the first",
        "one is shown, with what its counterexample names; `caught by tests`: no proof failed, a test did);",
        "*not caught*: prove passed, or failed only on the manifest's own mutant checks that the patch makes stale,",
        "and the tests passed; *stale*: the mutant's function is gone or its text no longer occurs once in it; *error*: prove or",
        "pytest crashed or timed out.",
        "",
        f"Last run: {meta['date']} on commit {meta['commit']} (Python {meta['python']}, {meta['jobs']} at a time, "
        f"{meta['wall_s']:.0f} s wall for the {meta['ran']} mutants of that run). "
        f"**{meta['caught']} of {meta['mutants']} caught**; not caught: {meta['not caught']}; stale: {meta['stale']}; "
        f"error: {meta['error']}.",
        "",
        "Rows by the commit of the run that made them (a row stands until its mutant is run again): "
        + ", ".join(f"{c} ({n})" for c, n in sorted(Counter(r.get("run", "?") for r in rows).items())) + ".",
        "",
        _missing_line({r["id"] for r in rows}),
        "",
        "| stage | mutants | caught | not caught | stale | error |",
        "|---|---|---|---|---|---|",
    ]
    for st, d in sorted(by_stage.items()):
        lines.append(f"| {st} | {d['mutants']} | {d['caught']} | {d['not caught']} | {d['stale']} | {d['error']} |")
    lines += ["", "| id | module:function | kind | the bug | result | by check | the counterexample names: function "
              "| input | clause | s |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mod = r["module"].removeprefix("tarneeb.")
        where = f"`{mod}:{r['fn']}`" if r["fn"] else f"`{mod}`"
        if r["status"] == "caught":
            res = "caught" + ("" if r.get("in_stage", True) else f" (first by another stage; by its stage {r['stage']} "
                                                                  f"{'too' if r.get('stage_too') else 'not'})")
            res += {("tests",): " by tests", ("prove", "tests"): " (by prove and tests)"}.get(
                tuple(r.get("caught_by", ())), "")
            by, named, inp, clause = f"`{r['first_failing_check']}`", r["named"], r["input"], r["clause"]
        elif r["status"] == "not caught":
            res = f"**not caught** (stage {r['stage']})"
            by = f"only `{r['first_failing_check']}`" if r.get("first_failing_check") else "-"
            named = inp = clause = "-"
        else:
            res, by, named, inp, clause = f"**{r['status']}**: {r.get('error', '')}", "-", "-", "-", "-"
        lines.append("| " + " | ".join(_cell(x) for x in (f"`{r['id']}`", where, r["kind"], r["text"], res, by,
                                                             named, inp, clause, f"{r.get('wall_s', 0):.1f}")) + " |")
    stale = sorted({x for r in rows for x in r.get("stale_manifest_mutants", [])})
    if stale:
        lines += ["", "Manifest mutant checks that reported themselves stale in some patched copy (their edit overlaps "
                  "the mutant's; expected, and not counted as a catch): " + ", ".join(f"`{x}`" for x in stale) + "."]
    REPORT.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ids", help="only these mutants (comma-separated ids)")
    ap.add_argument("--stage", help="only the mutants of this stage (e.g. engine.play; test.match and test.tools: "
                                    "through their test files; held-out: the held-out set)")
    ap.add_argument("--held-out", action="store_true", help="only the held-out set (each through the whole prove)")
    ap.add_argument("--jobs", type=int, default=2, help="prove processes at a time (default 2)")
    ap.add_argument("--keep", type=Path, help="keep each patched copy and its prove output under this folder")
    ap.add_argument("--report", action="store_true", help="only rewrite proofs/MUTANTS.md from the stored results")
    args = ap.parse_args(argv)
    if args.report:
        report()
        return 0
    if args.jobs < 1:
        raise SystemExit("prove_mutants: --jobs must be at least 1")
    chosen = select(args.ids, args.stage, args.held_out)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C, also when started with SIGINT ignored
    signal.signal(signal.SIGTERM, _terminate)
    t0 = time.perf_counter()
    rows = run(chosen, args.jobs, args.keep)
    if rows is None:
        return 130
    meta = {"date": datetime.date.today().isoformat(), "commit": git_head(), "python": platform.python_version(),
            "jobs": args.jobs, "ran": len(rows), "wall_s": round(time.perf_counter() - t0, 1)}
    stored = save(rows, meta)
    report()
    caught = sum(r["status"] == "caught" for r in rows)
    print(f"prove_mutants: {caught} of {len(rows)} caught; results in {RESULTS.relative_to(ROOT)}, "
          f"{REPORT.relative_to(ROOT)} ({len(stored)} rows)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
