"""``tarneeb prove``: run the Z3 proofs and mutants and compare with ``proofs/tarneeb_proofs/manifest.json``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from tarneeb.cli.common import jobs_arg
from tarneeb.cli.interrupts import interrupts_never_lost
from tarneeb.compiled import build, compiled_installed
from tarneeb.core.spec import get_ruleset
from tarneeb.core.spec import rulesets as builtin_rulesets
from tarneeb.errors import ConfigError

from . import manifest
from .chain import chain, conclusion
from .obligations import run_all
from .registry import INVARIANTS, all_checks, refused_variants, ruleset_checks, select

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


def register(sub: Any) -> None:
    """Add the ``prove`` command to the subcommands of ``tarneeb`` (the entry point ``tarneeb.commands``)."""
    p = sub.add_parser("prove", help="run the Z3 proofs of the invariants (and their mutants) against the manifest")
    p.add_argument("--ruleset", help="only this ruleset: a built-in id, or the path of a ruleset file (house rules: "
                                     "its proofs and mutants, not compared with the manifest)")
    p.add_argument("--invariant", choices=INVARIANTS, help="only this invariant family")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--jobs", type=jobs_arg, default=1, help="run the checks in this many processes (default 1)")
    p.add_argument("--witnesses", action="store_true", help="print every mutant's counterexample, not one per family")
    p.add_argument("--no-cache", action="store_true",
                   help="prove the engine's functions again even where the cache holds a proof of the same code "
                        "(tarneeb_proofs.cache; the cold figure)")
    p.add_argument("--write-manifest", action="store_true",
                   help="record this run's runtimes in proofs/tarneeb_proofs/manifest.json (whole runs only)")
    p.add_argument("--accept", action="store_true",
                   help="with --write-manifest: also record results that differ from the manifest's expectation")
    p.set_defaults(func=cmd_prove)


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes (--jobs)."""
    import resource

    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime


def function_rows(results: list[Any]) -> list[dict[str, Any]]:
    """One row per engine function the engine family proved (unmutated checks): its domain, the method, in how many
    configurations (option variants x rulesets), how many of those were taken from the cache or an earlier check
    of this run with the same code and rule values, the largest number of paths, the callees whose proved
    summaries the proof used."""
    rows: dict[str, dict[str, Any]] = {}
    for res in results:
        if res.check.mutant is not None:
            continue
        for f in res.data.get("engine-functions", []):
            row = rows.setdefault(f["function"], {"function": f["function"], "domain": f["domain"],
                                                  "method": f["method"], "configurations": 0, "reused": 0,
                                                  "paths": 0, "uses": set()})
            row["configurations"] += 1
            row["reused"] += bool(f.get("reused"))
            row["paths"] = max(row["paths"], int(f.get("paths", 0)))
            row["uses"] |= set(f.get("uses", []))
    return [{**r, "uses": sorted(r["uses"])} for _, r in sorted(rows.items())]


def _chosen(args: argparse.Namespace) -> tuple[list[Any], bool, bool]:
    """The checks to run, whether they are the whole manifest, whether ``--ruleset`` names a ruleset file."""
    house = bool(args.ruleset) and args.ruleset not in builtin_rulesets()
    if house:  # a ruleset file: resolved (and refused with a witness if it could get stuck) like any command
        checks = ruleset_checks(args.ruleset)
        refused = refused_variants(checks)
        if refused:
            raise ConfigError(args.ruleset, "options", "; ".join(refused))
    else:
        checks = all_checks()
    if args.ruleset and not house and args.ruleset not in {c.ruleset for c in checks}:
        raise ConfigError(args.ruleset, "ruleset", "unknown ruleset; valid: " + ", ".join(sorted({c.ruleset for c in checks})))
    chosen = select(checks, None if house else args.ruleset, args.invariant)
    return chosen, len(chosen) == len(checks) and not house, house


class Ticker:
    """prove's progress on a terminal: one line kept up to date, ``prove: 12 of 80 checks, 31 s (the last check
    done)``, drawn again after each check and every ``every`` seconds by a thread, so that the seconds go on
    counting while a long check runs. The thread writes with ``write`` (by default straight to the file descriptor:
    ``os.write`` takes no lock of Python's, so the worker processes forked meanwhile inherit none held)."""

    def __init__(self, total: int, t0: float, write: Callable[[str], None], clock: Callable[[], float] = time.perf_counter,
                 every: float = 1.0) -> None:
        self.total, self.t0, self.write, self.clock, self.every = total, t0, write, clock, every
        self.done, self.last = 0, ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def line(self) -> str:
        last = f" ({self.last})" if self.last else ""
        return f"prove: {self.done} of {self.total} checks, {self.clock() - self.t0:.0f} s{last}"

    def draw(self) -> None:
        with self._lock:
            if not self._stop.is_set():
                self.write("\r\x1b[K" + self.line()[:150])

    def check_done(self, done: int, check_id: str) -> None:
        self.done, self.last = done, check_id
        self.draw()

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            self.draw()

    def __enter__(self) -> Ticker:
        self.draw()
        self._thread = threading.Thread(target=self._tick, name="prove-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._stop.set()
            self.write("\r\x1b[K")
        if self._thread is not None:
            self._thread.join()


def _to_stderr(text: str) -> None:
    try:
        os.write(sys.stderr.fileno(), text.encode())
    except OSError:  # a terminal gone: the progress is not worth an error
        pass


def _run(args: argparse.Namespace, chosen: list[Any], results: list[Any], t0: float, interrupt: dict[str, bool]) -> None:
    """Run the chosen checks into ``results``, with progress on stderr: on a terminal, a line kept up to date
    (:class:`Ticker`); else a line every 20 s, when a check is done."""
    if args.no_cache:
        os.environ["TARNEEB_PROVE_CACHE"] = "off"  # read by tarneeb_proofs.cache, in the workers too
    if sys.stderr.isatty():
        sys.stderr.flush()  # what was printed before, ahead of the ticker's own writes
        with Ticker(len(chosen), t0, _to_stderr) as ticker:
            for res in run_all(chosen, args.jobs, cost=manifest.expected_seconds()):
                if interrupt["pending"]:  # a Ctrl-C whose KeyboardInterrupt something swallowed anyway
                    raise KeyboardInterrupt
                results.append(res)
                ticker.check_done(len(results), res.check.id)
    else:
        last = time.perf_counter()
        for res in run_all(chosen, args.jobs, cost=manifest.expected_seconds()):
            if interrupt["pending"]:
                raise KeyboardInterrupt
            results.append(res)
            now = time.perf_counter()
            if now - last >= 20:
                print(f"prove: {len(results)} of {len(chosen)} checks, {now - t0:.0f} s ({res.check.id})",
                      file=sys.stderr, flush=True)
                last = now
    order = {c.id: i for i, c in enumerate(chosen)}  # workers' results come as they are done: the checks' order
    results.sort(key=lambda r: order[r.check.id])


def cmd_prove(args: argparse.Namespace) -> int:
    """``tarneeb prove``: run the chosen checks, compare the results with the manifest, and report them (one JSON
    object, or tables and counterexamples); 0 when every result is the one expected, 130 when interrupted."""
    chosen: list[Any] = []
    results: list[Any] = []
    try:
        # from the start: building the checks makes Z3 terms too, whose finalisers may meet the Ctrl-C
        with interrupts_never_lost() as interrupt:
            try:
                chosen, complete, house = _chosen(args)
                t0, c0 = time.perf_counter(), _cpu()
                _run(args, chosen, results, t0, interrupt)
            except BrokenProcessPool as e:
                if interrupt["pending"]:
                    raise KeyboardInterrupt from None
                # a worker died (killed, out of memory, or a result that could not cross back): a failed run, said so
                print(f"prove: a worker process ended abruptly after {len(results)} of {len(chosen)} checks ({e}); "
                      "nothing is compared with the manifest. `--jobs 1` runs every check in this process.",
                      file=sys.stderr)
                return 1
            except Exception:
                if not interrupt["pending"]:
                    raise
                # what the same Ctrl-C became on its way: a worker pool it broke (BrokenProcessPool), ctypes'
                # ArgumentError when it came while Z3 converted an argument
                raise KeyboardInterrupt from None
    except KeyboardInterrupt:  # a partial run is never compared with (or written to) the manifest
        _quiet_half_made_contexts()
        if sys.stderr.isatty():
            print("\r\x1b[K", end="", file=sys.stderr)
        print(f"interrupted after {len(results)} of {len(chosen)} checks (manifest not compared)", file=sys.stderr)
        return 130
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    probs = _compared(args, chosen, results, complete, house)
    proofs = [r for r in results if r.check.mutant is None]
    mutants = [r for r in results if r.check.mutant is not None]
    summary = {"checks": len(results), "proofs": len(proofs), "proved": sum(r.status == "proved" for r in proofs),
               "mutants": len(mutants), "mutants_caught": sum(r.status == "counterexample" for r in mutants),
               "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "matches_manifest": not probs, "problems": probs,
               "engine_build": build()}
    chains = _chains(results)
    summary["chain"] = {rid: {"links": [lk.to_json() for lk in links], "conclusion": conclusion(links)}
                        for rid, links in chains.items()}
    if args.json:
        rows = [{"id": r.check.id, "invariant": r.check.invariant, "ruleset": r.check.ruleset,
                 "variant": r.check.variant, "mutant": r.check.mutant, "expected": r.check.expected,
                 "result": r.status, "runtime_s": round(r.runtime, 3), "obligation": r.obligation,
                 "witness": r.witness.to_json() if r.witness else None, "shared_obligations": r.shared}
                for r in results]
        sys.stdout.write(json.dumps({"summary": summary, "results": rows,
                                     "engine_functions": function_rows(results)}) + "\n")
        return 0 if not probs else 1
    _print_report(args, results, chains, summary, house, wall, cpu)
    return 0 if not probs else 1


def _compared(args: argparse.Namespace, chosen: list[Any], results: list[Any], complete: bool, house: bool) -> list[str]:
    """The results that are not the ones expected, each said in a line: against the manifest, or for a ruleset file
    against each check's own expectation; with ``--write-manifest``, against the manifest this run wrote."""
    entries = manifest.load()
    # the manifest lists the built-ins; a ruleset file's checks must each give their own expectation
    probs = ([f"{r.check.id}: expected {r.check.expected}, got {r.status}" for r in results if not r.ok] if house
             else manifest.problems(chosen, results, entries, complete))
    if args.write_manifest:
        if not complete:
            raise ConfigError("(prove)", "--write-manifest", "only a whole run (no --ruleset/--invariant) may write it")
        refused = manifest.save(results, accept=args.accept)
        for x in refused:
            print("not writing the manifest: " + x, file=sys.stderr)
        entries = manifest.load()
        probs = manifest.problems(chosen, results, entries, complete)
    return probs


def _print_report(args: argparse.Namespace, results: list[Any], chains: dict[str, list[Any]], summary: dict[str, Any],
                  house: bool, wall: float, cpu: float) -> None:
    """The run for a reader: the tables of the families and of the engine's functions, the failures and the
    counterexamples, the chain per ruleset, the totals and the comparison with the manifest."""
    from rich.markup import escape

    from tarneeb.cli.common import console

    con = console()  # not wrapped at 80 columns when piped
    beside = ", not the compiled build installed beside it" if compiled_installed() else ""
    con.print(f"the proofs ran the engine's pure Python source{beside}", highlight=False)
    con.print(_family_table(results))
    # the engine's functions: each proved for every input of its domain (symbolic execution or every point)
    frows = function_rows(results)
    if frows:
        con.print(_function_table(frows))
    _print_counterexamples(con, results, args.witnesses)
    con.print("\n[bold]the chain, per ruleset[/] (each link a family of proofs above; the conclusion needs them all)")
    for rid, links in chains.items():
        con.print(f"[bold]{escape(rid)}[/]")
        for lk in links:
            mark = "[green]proved[/]" if lk.holds else "[red]not proved[/]" if lk.total else "[yellow]not run[/]"
            fam = lk.family + (f".{lk.stage}" if lk.stage else "")
            con.print(f"  {mark} {escape(lk.says)} ({escape(fam)}: {lk.proved}/{lk.total})", highlight=False)
        con.print(f"  => {escape(conclusion(links))}", highlight=False)
    con.print(f"[bold]proved:[/] {summary['proved']}/{summary['proofs']} proofs proved: each property holds for every "
              "input (Z3 found no counterexample)")
    con.print(f"[bold]mutants:[/] {summary['mutants_caught']}/{summary['mutants']} mutants caught, as expected: each "
              "is a rule broken on purpose, and the proofs must find a counterexample to it")
    probs = summary["problems"]
    for p in probs:
        con.print(("[red]refused (a check failed; its witness is above):[/] " if house else
                   "[red]manifest mismatch:[/] ") + escape(p))
    if not probs:
        where = "its own expectation (a ruleset file has no manifest)" if house else \
            "the one tarneeb_proofs/manifest.json expects"
        con.print(f"[bold]manifest:[/] every result is {where} (wall {wall:.1f} s, CPU {cpu:.1f} s)")


def _family_table(results: list[Any]) -> Table:
    """One row per invariant family, one column per ruleset: proofs proved / mutants caught, and the time spent."""
    from rich.table import Table

    rulesets = sorted({r.check.ruleset for r in results})
    t = Table(title="tarneeb prove: invariant x ruleset (proofs proved, mutants caught, seconds)")
    t.add_column("invariant")
    for rid in rulesets:
        t.add_column(rid, justify="center")
    for inv in INVARIANTS:
        cells = []
        for rid in rulesets:
            rs = [r for r in results if r.check.invariant == inv and r.check.ruleset == rid]
            if not rs:
                cells.append("-")
                continue
            np_ = sum(1 for r in rs if r.check.mutant is None)
            nm = len(rs) - np_
            ok_p = sum(1 for r in rs if r.check.mutant is None and r.status == "proved")
            ok_m = sum(1 for r in rs if r.check.mutant is not None and r.status == "counterexample")
            colour = "green" if all(r.ok for r in rs) else "red"
            cells.append(f"[{colour}]{ok_p}/{np_} proved\n{ok_m}/{nm} caught\n{sum(r.runtime for r in rs):.1f} s[/]")
        if any(c != "-" for c in cells):
            t.add_row(inv, *cells)
    return t


def _function_table(frows: list[dict[str, Any]]) -> Table:
    """The engine's functions the engine family proved (:func:`function_rows`), one row each."""
    from rich.markup import escape
    from rich.table import Table

    ft = Table(title="engine functions proved equal to their encodings for every input of the domain "
                     "(symbolic: every feasible path of the engine's own code; enumerated: every point)")
    for col in ("function", "domain", "method", "configurations", "paths", "uses the proof of"):
        ft.add_column(col, justify="right" if col in ("configurations", "paths") else "left")
    for fr in frows:
        conf = f"{fr['configurations']}" + (f" ({fr['reused']} reused)" if fr["reused"] else "")
        ft.add_row(escape(fr["function"].removeprefix("tarneeb.core.")), escape(fr["domain"]), fr["method"],
                   conf, str(fr["paths"]), escape(", ".join(fr["uses"])))
    return ft


def _print_counterexamples(con: Console, results: list[Any], every: bool) -> None:
    """The failures in full, then one readable counterexample per invariant family (``every``: all of them)."""
    from rich.markup import escape

    for r in results:
        if not r.ok:
            c = r.check
            con.print(f"[red]{escape(r.status)}[/] {escape(c.id)} (expected {c.expected}): {escape(r.obligation)} "
                      f"{escape(r.detail or '')}")
            if r.witness is not None:
                con.print(escape(r.witness.text()), highlight=False)
    shown: set[str] = set()
    witnessed = [r for r in results if r.ok and r.witness is not None]
    for r in witnessed:
        if not every and r.check.invariant in shown:
            continue
        shown.add(r.check.invariant)
        c = r.check
        con.print(f"\n[bold]{escape(c.invariant)}[/] / {escape(c.ruleset)} / {escape(c.variant)}: the mutant "
                  f"[bold]{escape(c.mutant or '')}[/] (a rule broken on purpose) was caught, as expected, by this "
                  f"counterexample to {escape(r.obligation)}", highlight=False)
        con.print(escape(r.witness.text() if r.witness else ""), highlight=False)
    if not every and len(witnessed) > len(shown):
        con.print(f"\n({len(witnessed) - len(shown)} more counterexamples: tarneeb prove --witnesses)")


def _chains(results: list[Any]) -> dict[str, list[Any]]:
    """Each ruleset's chain (:mod:`tarneeb_proofs.chain`) from this run's results."""
    out = {}
    for rid in sorted({r.check.ruleset for r in results}):
        out[rid] = chain(results, rid, get_ruleset(rid).params.get("family") == "individual")
    return out


def _quiet_half_made_contexts() -> None:
    """After a Ctrl-C: a z3 Context whose constructor the interrupt cut short has no ``owner``, and its finaliser
    would print "Exception ignored ... AttributeError" when it is collected; such a context owns nothing to free."""
    import z3

    cls: Any = z3.Context
    if getattr(cls, "_tarneeb_quiet_del", False):
        return
    original = cls.__del__

    def __del__(self: Any) -> None:
        if hasattr(self, "owner"):
            original(self)

    cls.__del__, cls._tarneeb_quiet_del = __del__, True
