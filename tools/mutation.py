#!/usr/bin/env python3
"""Mutation testing of the engine's rule code with cosmic-ray.

    python tools/mutation.py run [--modules rules,hand,match] [--jobs 1]   # everything, then the report
    python tools/mutation.py run --jobs 2 --sample 0.5 --budget 3600       # the published run, within the hour
    python tools/mutation.py run --gaps                 # re-run the survivors reviewed as gaps (after new tests)
    python tools/mutation.py run --survivors            # re-run only the mutants that survived last time
    python tools/mutation.py run --not-run --modules rules  # the mutants an earlier run's budget left out
    python tools/mutation.py run --modules match --shards 2 --jobs 2   # one module's mutants on 2 cores
    python tools/mutation.py report                     # rewrite proofs/MUTATION.md from the stored results
    python tools/mutation.py kill --module rules        # the kill command cosmic-ray runs per mutant

Needs the ``mutation`` extra (``pip install -e '.[mutation]'``, with ``test``). The developer's tree is never
mutated: ``run`` copies the tracked and untracked-but-not-ignored files of this checkout into one temporary
directory per module (cosmic-ray rewrites the module in place there), and points ``PYTHONPATH`` at the copy, so
``tarneeb`` and ``tarneeb_proofs`` import from it (``kill`` refuses to run otherwise).

Per module one cosmic-ray session: ``init`` (every mutant of every core operator), then the operator subset and
the excluded definitions below mark the rest SKIPPED, then ``exec`` with the kill command. The kill command:

1. the engine proof family (:mod:`tarneeb_proofs.engine_family`): every engine check under the true rules, only
   its obligations that run engine code (the Z3 lemmas about the encoding do not depend on the engine): the
   symbolic proofs of every function of ``rules`` and ``hand``; with the proofs' cache (``TARNEEB_PROVE_CACHE``)
   warm from the unmutated tree, only the builders whose code the mutant changed are proved again;
2. pytest ``-x -p no:cacheprovider`` on the steered matches of the match machine
   (``tests/test_match_steered_engine.py``, once ``prove``'s match stage, which step 1 ran), the gap tests, the
   engine, examples and vectors tests and the differential tests, fastest killers first, with the Hypothesis profile
   ``mutation`` (the ``ci`` settings: derandomized, 60 examples, and no example database, so every mutant sees the
   same examples).

Results (one row per mutant) go to ``proofs/mutation-results.json``; ``proofs/mutation-equivalent.toml`` holds the
reviewed survivors (equivalent, with the reason, or a gap); ``report`` joins the two into ``proofs/MUTATION.md``.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import datetime
import hashlib
import itertools
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "proofs" / "mutation-results.json"
REVIEW = ROOT / "proofs" / "mutation-equivalent.toml"
REPORT = ROOT / "proofs" / "MUTATION.md"
MODULES = {
    "rules": "model/tarneeb/core/rules.py",
    "hand": "model/tarneeb/core/hand.py",
    "match": "model/tarneeb/core/match.py",
}

# ---------------------------------------------------------------- the operator subset
# Binary operators: cosmic-ray replaces each operator by all eleven others. We keep the natural neighbours (the
# mistakes a programmer makes: + for -, | for ^, << for >>); the rest (/, **, a shift for an addition, ...) give a
# float or an absurd value that any test rejects at once, and would triple the run for no information.
BINARY_KEEP = {
    "Add": {"Sub"}, "Sub": {"Add"}, "Mul": {"Add", "FloorDiv"}, "FloorDiv": {"Mul", "Mod"}, "Mod": {"FloorDiv"},
    "BitOr": {"BitAnd", "BitXor"}, "BitAnd": {"BitOr"}, "BitXor": {"BitOr"}, "LShift": {"RShift"},
    "RShift": {"LShift"}, "Pow": {"Mul"},
}
# Comparisons: the sufficient subset of relational-operator replacement (Kaminski, Ammann, Offutt, ICST 2013:
# the other replacements are subsumed, detected whenever these two and a constant-true/false mutant are); the
# neighbour at each boundary (< vs <=) and the negation-like one. Identity: `is` <-> `is not` only (`is` -> `<`
# is a TypeError on None). `==` -> `is` is left out: on these small ints and
# interned strings it is equivalent by CPython's caching, not by the rules.
COMPARE_KEEP = {
    "Lt": {"LtE", "NotEq"}, "Gt": {"GtE", "NotEq"}, "LtE": {"Lt", "Eq"}, "GtE": {"Gt", "Eq"},
    "Eq": {"LtE", "GtE"}, "NotEq": {"Lt", "Gt"}, "Is": {"IsNot"}, "IsNot": {"Is"},
}
# Unary: `-` dropped, `not` dropped; `-x` -> `+x` is the same program as dropping it, `-x` -> `~x` / `not x` noise.
UNARY_KEEP = {"Delete_USub", "Delete_Not"}
OTHER_KEEP = {
    "AddNot", "ReplaceTrueWithFalse", "ReplaceFalseWithTrue", "ReplaceAndWithOr", "ReplaceOrWithAnd",
    "ReplaceBreakWithContinue", "ReplaceContinueWithBreak", "ExceptionReplacer", "NumberReplacer",
    "ZeroIterationForLoop", "RemoveDecorator",
}
# Definitions that are not rule code: presentation. (Everything else of the three modules is in.)
EXCLUDED_DEFS = {
    ("match", "state_text"): "the one-line state summary printed in error messages",
    ("match", "view"): "a seat's view for display: copies of the state, no decision",
}


def operator_kept(name: str) -> bool:
    """Is cosmic-ray operator ``core/<name>`` in the subset we run?"""
    op = name.split("/", 1)[-1]
    for prefix, keep in (("ReplaceBinaryOperator_", BINARY_KEEP), ("ReplaceComparisonOperator_", COMPARE_KEEP)):
        if op.startswith(prefix):
            a, b = op[len(prefix):].split("_")
            return b in keep.get(a, set())
    if op.startswith("ReplaceUnaryOperator_"):
        return op[len("ReplaceUnaryOperator_"):] in UNARY_KEEP
    return op in OTHER_KEEP


def short_op(name: str) -> str:
    """A cosmic-ray operator's name, shortened for the report (``Compare``, ``Binary``, ``Unary``)."""
    return name.split("/", 1)[-1].replace("ReplaceComparisonOperator", "Compare").replace(
        "ReplaceBinaryOperator", "Binary").replace("ReplaceUnaryOperator", "Unary")


# ---------------------------------------------------------------- the kill command
TEST_FILES = [
    "tests/test_match_steered_engine.py",  # the match machine steered through every transition (prove's match stage)
    "tests/test_mutation_gaps.py", "tests/test_engine.py", "tests/test_examples.py", "tests/test_vectors.py",
    "tests/test_differential.py", "tests/test_differential_auction.py", "tests/test_differential_stateful.py",
]
# tests that call only tarneeb.core.rules (and the encodings): they cannot see a mutant of hand or match (rules
# imports neither), so they run for `rules` mutants only
RULES_ONLY_TESTS = {"tests/test_differential.py", "tests/test_differential_auction.py"}
# engine-independent: the mini engine's own run of the vectors, the encodings against their compiled terms
DESELECT = [
    "tests/test_vectors.py::test_the_independent_mini_engine_passes_every_vector",
    "tests/test_differential.py::test_compiled_terms_agree",
]


# the engine family's stages by the time they take when match.py changes (measured: turn 2 s, bids 5 s,
# outcome 12 s, scoring 25 s, play 51 s on one core)
STAGE_ORDER = ["turn", "bids", "auction", "outcome", "scoring", "play"]


def _engine_family() -> str | None:
    """The engine proof family's engine-running obligations under the true rules; the failing check id, or None."""
    from tarneeb_proofs.encode import Encoding
    from tarneeb_proofs.engine_family import engine_checks
    from tarneeb_proofs.obligations import ENGINE_CPU_S, EngineHang, engine_cpu_limit
    from tarneeb_proofs.session import Session as ProofSession

    by_ruleset: dict[str, list[Any]] = {}
    for check in engine_checks():
        if not check.mutant:  # the family's own engine mutants test the family, not this engine
            by_ruleset.setdefault(check.ruleset, []).append(check)
    # round robin over the rulesets, so the auction ruleset's checks do not all wait for the individual ones', and
    # the cheap stages first (the order only changes how soon a mutant is killed, not whether)
    ordered = [c for row in itertools.zip_longest(*by_ruleset.values()) for c in row if c is not None]
    ordered.sort(key=lambda c: STAGE_ORDER.index(c.stage) if c.stage in STAGE_ORDER else len(STAGE_ORDER))
    session = ProofSession()  # one run: a builder proved for one check is reused by the next (as prove does)
    for check in ordered:
        enc = Encoding(check.rules())
        for ob in check.build(enc):
            if ob.run is None:
                continue
            try:
                with engine_cpu_limit(ENGINE_CPU_S):  # as prove: a hang is a counterexample, not a timeout
                    found = ob.run(session)
            except EngineHang:
                return f"{check.id}: {ob.name}: the engine did not finish within {ENGINE_CPU_S:.0f} s of CPU"
            if found is not None:
                return f"{check.id}: {ob.name}"
    return None


def kill(module: str) -> int:
    """Exit 0 when the (mutated) copy passes everything, 1 when something fails."""
    import tarneeb

    here = Path(tarneeb.__file__).resolve()
    if ROOT not in here.parents:
        print(f"mutation-kill: refusing: tarneeb imports from {here}, not from this copy {ROOT}", flush=True)
        return 3
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))  # as `python -m pytest` does: the tests import `tests.*`
    if True:  # every module: rules and hand are proved symbolically (match: the steered-match tests below)
        t0 = time.perf_counter()
        try:
            bad = _engine_family()
        except Exception as e:  # noqa: BLE001 - a crash under a mutant kills it
            bad = f"engine family raised {type(e).__name__}: {e}"
        if bad is not None:
            print(f"mutation-kill: engine family: {bad}", flush=True)
            return 1
        print(f"mutation-kill: engine family passed in {time.perf_counter() - t0:.1f}s", flush=True)

    import pytest
    from hypothesis import HealthCheck, settings

    settings.register_profile("mutation", max_examples=60, deadline=None, derandomize=True, database=None,
                              suppress_health_check=[HealthCheck.too_slow])
    os.environ["HYPOTHESIS_PROFILE"] = "mutation"

    class FirstFailure:
        nodeid = ""

        def pytest_runtest_logreport(self, report: Any) -> None:
            if report.failed and not self.nodeid:
                self.nodeid = report.nodeid

    rec = FirstFailure()
    files = [f for f in TEST_FILES if (ROOT / f).exists() and (module == "rules" or f not in RULES_ONLY_TESTS)]
    args = ["-x", "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=", *files]
    for d in DESELECT:
        args += ["--deselect", d]
    rc = pytest.main(args, plugins=[rec])
    if rc == 0:
        print("mutation-kill: survived", flush=True)
        return 0
    print(f"mutation-kill: pytest: {rec.nodeid or f'exit {int(rc)}'}", flush=True)
    return 1


# ---------------------------------------------------------------- running sessions
def _copy_tree(dst: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for f in files:
        src = ROOT / f
        if not f or not src.is_file():
            continue
        (dst / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst / f)


def _env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(copy / "model"), str(copy / "proofs")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("CI", None)
    return env


def _cr(copy: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "cosmic_ray.cli", *args], cwd=copy, env=_env(copy), check=True,
                   stdout=subprocess.DEVNULL)


@dataclass
class Session:
    """One cosmic-ray session: a module's mutants (or a shard of them) run in a temporary copy of the tree."""

    module: str
    copy: Path
    db: Path
    timeout: float = 0.0
    baseline: float = 0.0
    shard: tuple[int, int] = (0, 1)  # (k, n): this session runs the mutants whose key hashes to k modulo n

    @property
    def name(self) -> str:
        """The module, and the shard when the module's mutants are split."""
        return self.module if self.shard[1] == 1 else f"{self.module} (shard {self.shard[0] + 1} of {self.shard[1]})"


def shard_of(key: str, n: int) -> int:
    """The shard a mutant belongs to when a module's mutants are split over ``n`` sessions (deterministic)."""
    return 0 if n <= 1 else int(hashlib.sha256(("shard:" + key).encode()).hexdigest()[:8], 16) % n


def _prepare(module: str, workdir: Path, only: set[str] | None, timeout: float | None, limit: int | None,
             rate: float, shard: tuple[int, int] = (0, 1)) -> Session:
    copy = workdir / (module if shard[1] == 1 else f"{module}-{shard[0]}")
    copy.mkdir(parents=True)
    _copy_tree(copy)
    # bytecode for everything but the mutated module, written once; under PYTHONDONTWRITEBYTECODE the mutated module
    # is compiled from source every time (a stale .pyc of a same-size mutant written in the same second can't be used)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "model", "proofs", "tests", "tools"], cwd=copy, check=True)
    target = copy / MODULES[module]
    for pyc in (target.parent / "__pycache__").glob(target.stem + ".*.pyc"):
        pyc.unlink()
    kill_cmd = f"{sys.executable} tools/mutation.py kill --module {module}"
    t0 = time.perf_counter()
    base = subprocess.run(kill_cmd.split(), cwd=copy, env=_env(copy), capture_output=True, text=True)
    baseline = time.perf_counter() - t0
    if base.returncode != 0:
        raise SystemExit(f"mutation: the unmutated copy fails the kill command ({module}):\n{base.stdout[-3000:]}")
    tmo = timeout if timeout is not None else max(120.0, 3 * baseline)
    cfg = copy / "cosmic-ray.toml"
    cfg.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{MODULES[module]}"\n'
        f"timeout = {tmo:.0f}.0\n"
        "excluded-modules = []\n"
        f'test-command = "{kill_cmd}"\n\n'
        '[cosmic-ray.distributor]\nname = "local"\n'
    )
    db = copy / "session.sqlite"
    _cr(copy, "init", str(cfg), str(db))
    _skip(module, db, only, limit, rate, shard)
    return Session(module, copy, db, tmo, baseline, shard)


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions of every annotation: under ``from __future__ import annotations`` none is evaluated,
    so a mutant inside one (``int | None`` -> ``int & None``) is equivalent by construction."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        anns: list[ast.expr | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            anns = [x.annotation for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None]
            anns.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            anns = [node.annotation]
        for x in anns:
            if x is not None and x.end_lineno is not None and x.end_col_offset is not None:
                spans.append(((x.lineno, x.col_offset), (x.end_lineno, x.end_col_offset)))
    return spans


def sampled(key: str, rate: float) -> bool:
    """Deterministic sample: the mutant is in when the hash of its key falls below ``rate``."""
    return rate >= 1 or int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) < rate * 0x100000000


def _skip(module: str, db: Path, only: set[str] | None, limit: int | None, rate: float = 1.0,
          shard: tuple[int, int] = (0, 1)) -> None:
    """Mark SKIPPED the mutants outside the operator subset, in an excluded definition, not in ``only``, in
    another shard's session, or past the first ``limit`` (a smoke test of the tool)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    source = (db.parent / MODULES[module]).read_text()
    lazy = annotation_spans(source) if "from __future__ import annotations" in source else []
    with use_db(str(db), WorkDB.Mode.open) as wdb:
        for item in list(wdb.pending_work_items):
            m = item.mutations[0]
            why = None
            if not operator_kept(m.operator_name):
                why = "operator outside the subset"
            elif any(a <= tuple(m.start_pos) <= b for a, b in lazy):
                why = "in a type annotation (never evaluated)"
            elif (module, m.definition_name) in EXCLUDED_DEFS:
                why = "definition excluded"
            elif not sampled(_key(module, m.start_pos[0], m.start_pos[1], m.operator_name, m.occurrence), rate):
                why = "outside the sample"
            elif only is not None and _key(module, m.start_pos[0], m.start_pos[1], m.operator_name, m.occurrence) not in only:
                why = "not selected for this run"
            elif shard_of(_key(module, m.start_pos[0], m.start_pos[1], m.operator_name, m.occurrence),
                          shard[1]) != shard[0]:
                why = "not selected for this run"  # another shard's session runs it
            elif limit is not None:
                limit -= 1
                if limit < 0:
                    why = "not selected for this run"
            if why:
                wdb.set_result(item.job_id, WorkResult(output=why, worker_outcome=WorkerOutcome.SKIPPED))


def _key(module: str, line: int, col: int, op: str, occurrence: int) -> str:
    return f"{module}:{line}:{col}:{short_op(op)}#{occurrence}"


def _descendants(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
    kids = [int(x) for x in out]
    return kids + [g for k in kids for g in _descendants(k)]


def _exec(s: Session, deadline: float | None) -> Session:
    """``cosmic-ray exec``; at ``deadline`` (the --budget) it and the tests it started are stopped, and the mutants
    not run yet stay without a result ("not run"). cosmic-ray runs the pending mutants in random order, so the ones
    run before the deadline are a uniform sample of the selection."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cosmic_ray.cli", "exec", str(s.copy / "cosmic-ray.toml"), str(s.db)],
                            cwd=s.copy, env=_env(s.copy), stdout=subprocess.DEVNULL)
    try:
        proc.wait(None if deadline is None else max(1.0, deadline - time.perf_counter()))
    except subprocess.TimeoutExpired:
        kids = _descendants(proc.pid)
        proc.terminate()
        for k in kids:
            try:
                os.kill(k, 15)
            except ProcessLookupError:
                pass
        proc.wait()
        print(f"mutation: {s.name} stopped at the budget after {time.perf_counter() - t0:.0f}s", flush=True)
        return s
    if proc.returncode != 0:
        raise SystemExit(f"mutation: cosmic-ray exec failed for {s.name} (exit {proc.returncode})")
    print(f"mutation: {s.name} done in {time.perf_counter() - t0:.0f}s", flush=True)
    return s


def _collect(s: Session) -> list[dict[str, Any]]:
    src = (s.copy / MODULES[s.module]).read_text().splitlines()
    con = sqlite3.connect(s.db)
    rows = con.execute(
        "select m.job_id, m.operator_name, m.occurrence, m.start_pos_row, m.start_pos_col, m.definition_name,"
        " r.worker_outcome, r.test_outcome, r.output, r.diff from mutation_specs m"
        " left join work_results r on r.job_id = m.job_id").fetchall()
    out = []
    for _job, op, occ, line, col, defn, worker, test, output, diff in rows:
        if worker is None:
            status = "not run"  # cosmic-ray exec was stopped before this one
        elif worker.lower() == "skipped" and output != "not selected for this run":
            status = "skipped"
        elif worker.lower() == "skipped":
            continue
        elif worker.lower() != "normal":
            status = f"error:{worker}"
        elif (test or "").lower() == "killed":
            status = "timeout" if (output or "").strip() == "timeout" else "killed"
        elif (test or "").lower() == "survived":
            status = "survived"
        else:
            status = str(test)
        killer = ""
        for ln in (output or "").splitlines():
            if ln.startswith("mutation-kill: ") and ln != "mutation-kill: survived" and " passed in " not in ln:
                killer = ln[len("mutation-kill: "):]
        out.append({
            "key": _key(s.module, line, col, op, occ), "module": s.module, "file": MODULES[s.module], "line": line,
            "col": col, "def": defn or "", "operator": short_op(op), "status": status, "killed_by": killer,
            "source": src[line - 1].strip() if 0 < line <= len(src) else "",
            "diff": "\n".join(x for x in (diff or "").splitlines() if x[:1] in "+-" and x[:3] not in ("+++", "---")),
            "skip": (output or "") if status == "skipped" else "",
        })
    return sorted(out, key=lambda d: (list(MODULES).index(d["module"]), d["line"], d["col"], d["operator"]))


def run(args: argparse.Namespace) -> int:
    """``tools/mutation.py run``: run the mutants (in temporary copies), store the results, write the report."""
    modules = args.modules.split(",")
    only: dict[str, set[str]] = {}
    old = _load_results()[1] if RESULTS.exists() else []
    if args.survivors or args.gaps or args.not_run:
        gaps = {k for k, e in _review().items() if e.get("verdict") == "gap"}
        for d in old:
            if (d["status"] == "survived" and (args.survivors or d["key"] in gaps)) or \
                    (args.not_run and d["status"] == "not run"):
                only.setdefault(d["module"], set()).add(d["key"])
        modules = [m for m in modules if m in only]
        args.survivors = True
    workdir = Path(tempfile.mkdtemp(prefix="tarneeb-mutation-"))
    commit = _commit()  # the tree the copies are made of (the checkout may move on while the run goes)
    t0 = time.perf_counter()
    deadline = None if args.budget is None else t0 + args.budget
    plan = [(m, (k, args.shards)) for m in modules for k in range(args.shards)]
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    keep = args.keep
    try:
        sessions = list(pool.map(lambda ms: _prepare(ms[0], workdir, only.get(ms[0]) if args.survivors else None,
                                                     args.timeout, args.limit, args.sample, ms[1]), plan))
        for s in sessions:
            print(f"mutation: {s.name}: baseline kill command {s.baseline:.0f}s, timeout {s.timeout:.0f}s",
                  flush=True)
        sessions = list(pool.map(lambda s: _exec(s, deadline), sessions))
        pool.shutdown()
        _store(sessions, modules, old, args.survivors, time.perf_counter() - t0, args.jobs, [], commit)
    except KeyboardInterrupt:
        # Ctrl-C: end cosmic-ray and the kill commands it started, store nothing; the sessions stay for `collect`
        for k in _descendants(os.getpid()):
            try:
                os.kill(k, 15)
            except ProcessLookupError:
                pass
        pool.shutdown(wait=False, cancel_futures=True)
        keep = True
        print(f"\nmutation: stopped (Ctrl-C) after {time.perf_counter() - t0:.0f}s; nothing stored. The sessions "
              f"are kept in {workdir}: `python tools/mutation.py collect {workdir}` stores what they finished.",
              file=sys.stderr, flush=True)
        return 130
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
        elif args.keep:
            print(f"mutation: sessions kept in {workdir}")
    return 0


def collect(args: argparse.Namespace) -> int:
    """Store the results of sessions kept by ``run --keep`` (a run stopped by hand: its unfinished mutants are
    "not run")."""
    d = Path(args.dir)
    sessions = []
    for m in MODULES:
        for copy in sorted([d / m, *d.glob(f"{m}-[0-9]*")]):  # the module's session, or its shards' sessions
            if (copy / "session.sqlite").exists():
                cfg = tomllib.loads((copy / "cosmic-ray.toml").read_text())["cosmic-ray"]
                sessions.append(Session(m, copy, copy / "session.sqlite", float(cfg["timeout"])))
    modules = sorted({s.module for s in sessions}, key=list(MODULES).index)
    old = _load_results()[1] if RESULTS.exists() else []
    _store(sessions, modules, old, False, args.seconds, args.jobs, args.note or [])
    return 0


def _commit() -> str:
    return _git("rev-parse", "--short", "HEAD") + ("+dirty" if _git("status", "--porcelain") else "")


def _store(sessions: list[Session], modules: list[str], old: list[dict[str, Any]], survivors: bool, elapsed: float,
           jobs: int, notes: list[str], commit: str | None = None) -> None:
    new = [d for s in sessions for d in _collect(s)]
    fresh = {d["key"] for d in new}
    if survivors:  # a re-run of some mutants: their rows replaced (marked as re-run), the others kept
        before = {d["key"]: d["status"] for d in old}
        mutants = [d for d in old if d["key"] not in fresh] + new
        for d in mutants:  # (a mutant that had not run before runs for the first time: no re-run, no closed gap)
            if d["key"] in fresh and d["status"] != "skipped" and before.get(d["key"]) not in (None, "not run"):
                d["rerun"] = True
    elif set(modules) != set(MODULES):  # a whole run of some modules: their rows replaced, the other modules' kept
        mutants = [d for d in old if d["module"] not in modules] + new
    else:
        mutants = new
    mutants.sort(key=lambda d: (list(MODULES).index(d["module"]), d["line"], d["col"], d["operator"]))
    keep_meta = RESULTS.exists() and (survivors or set(modules) != set(MODULES))
    meta = _load_results()[0] if keep_meta else {}
    runs = list(meta.get("runs", []))
    runs.append({
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit or _commit(),
        "command": "python tools/mutation.py " + " ".join(a for i, a in enumerate(sys.argv[1:])
                                                         if a != "--note" and sys.argv[i] != "--note"),
        "modules": modules, "mutants_run": sum(d["status"] not in ("skipped", "not run") for d in new),
        "seconds": round(elapsed), "jobs": jobs, "timeouts_s": {s.module: round(s.timeout) for s in sessions},
        "baseline_s": {s.module: round(max(x.baseline for x in sessions if x.module == s.module)) for s in sessions},
        "notes": notes,
    })
    meta = {"tool": f"cosmic-ray {_cr_version()}", "python": platform.python_version(), "runs": runs}
    write_results(meta, mutants)
    report()
    print(f"mutation: {len(new)} mutants in {elapsed:.0f}s; results in {RESULTS.relative_to(ROOT)}, "
          f"report in {REPORT.relative_to(ROOT)}")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def _cr_version() -> str:
    from importlib.metadata import version

    return version("cosmic-ray")


def write_results(meta: dict[str, Any], mutants: list[dict[str, Any]]) -> None:
    """One mutant a line; a skipped mutant keeps only its place, operator and reason."""
    rows = []
    for d in mutants:
        if d["status"] == "skipped":  # the rest follows from the key (module:line:col:operator#n)
            d = {k: d[k] for k in ("key", "def", "status", "skip")}
        rows.append(json.dumps({k: v for k, v in d.items() if v != ""}, ensure_ascii=False))
    RESULTS.write_text('{"meta": ' + json.dumps(meta, indent=1) + ',\n"mutants": [\n' + ",\n".join(rows) + "\n]}\n")


def _load_results() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = json.loads(RESULTS.read_text())
    fields = ("source", "diff", "killed_by", "def", "skip")
    out = []
    for d in data["mutants"]:
        module, line, col, op = d["key"].split(":")
        out.append({**dict.fromkeys(fields, ""), "module": module, "file": MODULES[module], "line": int(line),
                    "col": int(col), "operator": op.split("#")[0], **d})
    return data["meta"], out


# ---------------------------------------------------------------- the report
def _review() -> dict[str, dict[str, str]]:
    if not REVIEW.exists():
        return {}
    data = tomllib.loads(REVIEW.read_text())
    return {e["key"]: e for e in data.get("mutant", [])}


def report() -> None:
    """``tools/mutation.py report``: write proofs/MUTATION.md from the results and the review of the survivors."""
    meta, mutants = _load_results()
    review = _review()
    lines = _report_method(meta) + _report_figures(mutants, review) + _report_survivors(mutants, review)
    REPORT.write_text("\n".join(lines))


def _report_method(meta: dict[str, Any]) -> list[str]:
    """The report's title, how the mutants were run, and the runs that produced the results."""
    lines = [
        "# Mutation score of the rule code",
        "",
        "Generated by `python tools/mutation.py report` from `proofs/mutation-results.json` (the raw result of each",
        "mutant) and `proofs/mutation-equivalent.toml` (the review of each survivor). Do not edit by hand.",
        "",
        "## How it is run",
        "",
        f"- Tool: {meta['tool']} (Python {meta['python']}), the `mutation` extra; one session per module, the",
        "  developer's tree untouched (a temporary copy per module, `PYTHONPATH` on the copy).",
        "- Modules: " + ", ".join(f"`{p}`" for p in MODULES.values()) + ".",
        "- Kill command (`python tools/mutation.py kill --module M`), stopping at the first failure: the engine",
        "  proof family (`tarneeb_proofs.engine_family`, every check under the true rules, the obligations that run",
        "  the engine: the symbolic proofs of `rules` and `hand` (and, until it left `prove`, the match stage through",
        "  `match`, now the first test file below); the proofs'",
        "  cache warm from the unmutated tree, so only what the mutant changed is proved again; rows of runs before",
        "  2026-12-01 ran it for `rules` only); then `pytest -x -p no:cacheprovider` on "
        + ", ".join(f"`{f[6:]}`" for f in TEST_FILES),
        "  (deselected, engine-independent: " + ", ".join(f"`{d.split('::')[1]}`" for d in DESELECT) + "; for `hand`",
        "  and `match` also " + ", ".join(f"`{f[6:]}`" for f in sorted(RULES_ONLY_TESTS)) + ", which call only",
        "  `tarneeb.core.rules`), under the Hypothesis profile `mutation` (= `ci`:",
        "  60 examples, derandomized; no example database).",
        "- Timeout per mutant: 3 x the unmutated kill command's time (measured first), at least 120 s; a timeout",
        "  counts as killed (its output is kept; the ones here are listed below).",
        "- Operators: cosmic-ray's core operators, restricted (see `tools/mutation.py`): binary operators to",
        "  their natural neighbours (" + ", ".join(f"{a}->{'/'.join(sorted(b))}" for a, b in BINARY_KEEP.items()) + ");",
        "  comparisons to the sufficient relational subset (" + ", ".join(
            f"{a}->{'/'.join(sorted(b))}" for a, b in COMPARE_KEEP.items()) + ");",
        "  unary " + ", ".join(sorted(UNARY_KEEP)) + "; and " + ", ".join(sorted(OTHER_KEEP)) + ".",
        "  Dropped: a binary operator replaced by an unrelated one (/, **, a shift for +), `==` -> `is`, `-x` -> `~x`",
        "  or `not x`, VariableReplacer/VariableInserter: type noise or combinatorial growth, killed trivially.",
        "- Excluded definitions: " + "; ".join(f"`{m}.py` `{d}` ({why})" for (m, d), why in EXCLUDED_DEFS.items()) + ".",
        "",
        "Runs that produced these results:",
        "",
        "| date | commit | command | mutants run | seconds | jobs |",
        "|---|---|---|---|---|---|",
    ]
    for r in meta["runs"]:
        lines.append(f"| {r['date']} | {r['commit']} | `{r['command']}` | {r['mutants_run']} | {r['seconds']} | {r['jobs']} |")
    lines += [f"\nNote ({r['date']}): {n}" for r in meta["runs"] for n in r.get("notes", [])]
    return lines


def _report_figures(mutants: list[dict[str, Any]], review: dict[str, dict[str, str]]) -> list[str]:
    """The figures per module (and the kill rate), and what killed the mutants first."""
    run_ms = [d for d in mutants if d["status"] not in ("skipped", "not run")]
    lines = ["", "## Figures", "",
              "Skipped before running: *subset* (operator left out, above), *annotation* (inside a type annotation:",
              "never evaluated under `from __future__ import annotations`, so equivalent by construction), *excluded*",
              "(definition above), *sample* (outside the deterministic sample of a `--sample` run), *not run* (left",
              "when the run's time budget ran out; cosmic-ray runs mutants in random order, so those run are a",
              "uniform sample of the selection).",
              "Kill rate = (killed + timeout) / (run - equivalent); the interval is the 95% Wilson interval, which",
              "matters when the run is a sample.", "",
              "| module | generated | subset | annotation | excluded | sample | not run | run | killed | timeout "
              "| survived | equivalent | gaps open | kill rate (non-equivalent) | 95% interval |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for mod in [*MODULES, "all"]:
        ms = mutants if mod == "all" else [d for d in mutants if d["module"] == mod]
        c: Counter[str] = Counter(d["status"] for d in ms)
        sk: Counter[str] = Counter(d["skip"] for d in ms if d["status"] == "skipped")
        surv = [d for d in ms if d["status"] == "survived"]
        eq = sum(review.get(d["key"], {}).get("verdict") == "equivalent" for d in surv)
        run_n = len(ms) - c["skipped"] - c["not run"]
        killed = c["killed"] + c["timeout"]
        denom = run_n - eq
        rate = f"{100 * killed / denom:.1f}% ({killed}/{denom})" if denom else "n/a"
        lo, hi = _wilson(killed, denom)
        errs = sum(v for k, v in c.items() if k.startswith("error"))
        lines.append(f"| {mod} | {len(ms)} | {sk['operator outside the subset']} | "
                     f"{sk['in a type annotation (never evaluated)']} | {sk['definition excluded']} | "
                     f"{sk['outside the sample']} | {c['not run']} | {run_n} | {c['killed']} | {c['timeout']} | {len(surv)}"
                     f" | {eq} | {len(surv) - eq} | {rate}{f' ({errs} errors)' if errs else ''} | "
                     f"{100 * lo:.1f}-{100 * hi:.1f}% |")
    closed = [d for d in mutants if d.get("rerun") and d["status"] in ("killed", "timeout")]
    if closed:
        ms = [d for d in mutants if d["status"] not in ("skipped", "not run")]
        eq = sum(review.get(d["key"], {}).get("verdict") == "equivalent" for d in ms if d["status"] == "survived")
        k = sum(d["status"] in ("killed", "timeout") for d in ms)
        lines += ["", f"The figures count the {len(closed)} gaps closed by new tests (re-run with `--gaps`, killed) as "
                  f"killed; before those tests the kill rate was {100 * (k - len(closed)) / (len(ms) - eq):.1f}% "
                  f"({k - len(closed)}/{len(ms) - eq})."]
    killers: Counter[str] = Counter()
    for d in run_ms:
        if d["status"] == "killed":
            kb = d["killed_by"]
            killers["engine proof family" if kb.startswith("engine family") else
                    kb.split("::")[0].replace("pytest: ", "") if kb else "(no output)"] += 1
    lines += ["", "Killed by (first failure):", ""] + [f"- {k}: {v}" for k, v in killers.most_common()]
    return lines


def _report_survivors(mutants: list[dict[str, Any]], review: dict[str, dict[str, str]]) -> list[str]:
    """Each survivor with its review, then the timeouts and the errors."""
    lines = ["", "## Survivors", "",
              "Each with its place, the mutation, and the review: *equivalent* (why no input can tell it from the",
              "original), *gap* (what is not tested), or *closed* (a gap a new test now kills: re-run and killed).", ""]
    surv_all = [d for d in mutants if d["status"] == "survived" or (d.get("rerun") and d["status"] in ("killed", "timeout"))]
    timeouts = [d for d in mutants if d["status"] == "timeout"]
    if not surv_all:
        lines.append("None.")
    for d in surv_all:
        rv = review.get(d["key"])
        if d["status"] != "survived":
            verdict = f"**closed** ({d['status']} on re-run, by {d['killed_by'] or '?'})"
            why = rv["reason"] if rv else ""
        elif rv is None:
            verdict, why = "**not reviewed**", ""
        else:
            verdict, why = f"**{rv['verdict']}**", rv["reason"]
            if rv.get("source") and rv["source"] != d["source"]:
                verdict += " (review is for a different line text: stale)"
        change = " / ".join(f"{x[0]} {x[1:].strip()}" for x in d["diff"].splitlines() if x)
        lines.append(f"- `{d['file']}:{d['line']}` ({d['def']}, {d['operator']}): `{change}` — {verdict}. {why}".rstrip())
    if timeouts:
        lines += ["", "## Timeouts (counted as killed)", ""] + [
            f"- `{d['file']}:{d['line']}` ({d['def']}, {d['operator']}): `"
            + " / ".join(f"{x[0]} {x[1:].strip()}" for x in d["diff"].splitlines() if x) + "`" for d in timeouts]
    errored = [d for d in mutants if d["status"].startswith("error")]
    if errored:
        lines += ["", "## Errors", ""] + [f"- `{d['file']}:{d['line']}` {d['operator']}: {d['status']}" for d in errored]
    lines.append("")
    return lines


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    """The command line of the tool: ``run``, ``report``, ``collect``, ``kill``."""
    p = argparse.ArgumentParser(prog="tools/mutation.py", description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run the mutants (in temporary copies), store the results, write the report")
    r.add_argument("--modules", default=",".join(MODULES), help="comma-separated subset of: " + ", ".join(MODULES))
    r.add_argument("--jobs", type=int, default=1, help="sessions run at once (one process each)")
    r.add_argument("--shards", type=int, default=1,
                   help="split each module's mutants over this many sessions (by a hash of the mutant), so that "
                        "--jobs 2 runs one module on 2 cores"),
    r.add_argument("--timeout", type=float, default=None, help="seconds per mutant (default: 3 x baseline, >= 120)")
    r.add_argument("--survivors", action="store_true", help="only the mutants that survived in the stored results")
    r.add_argument("--not-run", action="store_true",
                   help="only the mutants the stored results list as not run (a run's time budget ran out)")
    r.add_argument("--sample", type=float, default=1.0,
                   help="run a deterministic sample of this fraction of the mutants (hash of the mutant's key)")
    r.add_argument("--gaps", action="store_true",
                   help="only the survivors the review (proofs/mutation-equivalent.toml) calls gaps: after adding tests")
    r.add_argument("--limit", type=int, default=None, help="only the first N mutants per module (a smoke test)")
    r.add_argument("--budget", type=float, default=None,
                   help="seconds for the whole run: then stop, the mutants not run yet are recorded as 'not run'")
    r.add_argument("--keep", action="store_true", help="keep the temporary copies and sessions")
    sub.add_parser("report", help="rewrite proofs/MUTATION.md from the stored results and review")
    c = sub.add_parser("collect", help="store the results of sessions kept by `run --keep` (e.g. a run stopped by hand)")
    c.add_argument("dir")
    c.add_argument("--seconds", type=float, default=0.0, help="the run's wall time, for the record")
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--note", action="append", help="a note for the report (repeatable)")
    k = sub.add_parser("kill", help="the kill command (run inside a copy by cosmic-ray)")
    k.add_argument("--module", choices=list(MODULES), required=True)
    a = p.parse_args(argv)
    if a.cmd == "run" and a.shards < 1:
        p.error("--shards must be at least 1")
    if a.cmd == "kill":
        return kill(a.module)
    if a.cmd == "report":
        report()
        return 0
    if a.cmd == "collect":
        return collect(a)
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
