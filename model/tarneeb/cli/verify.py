"""``tarneeb verify``: replay game records through the engine and report every divergence.

``verify`` exits 0 when every record agrees with the rules, 1 when some
diverge, 2 when some input could not be read (a file, or a line).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import orjson

from tarneeb.cli.common import add_reading_arg, count_arg, jobs_arg, option_args, reading_args
from tarneeb.core.ambiguity import check_reading, with_readings
from tarneeb.core.cards import n_of
from tarneeb.core.sources import rule_words
from tarneeb.core.spec import get_ruleset, load_rules, rulesets
from tarneeb.errors import BadInput, file_error, os_error_words
from tarneeb.records import Report, Summary, verify_paths
from tarneeb.records.format import Divergence
from tarneeb.records.suggest import HouseCheck, Key, ReadingCheck, check_house, check_readings, report_key
from tarneeb.records.units import (
    DEFAULT_UNIT_BYTES,
    DEFAULT_WORKER_WAIT,
    dask_mapper,
    expand_path,
    is_url,
    plan_units,
    verify_units,
    worker_pool,
)
from tarneeb.records.verify import MIN_CAUSE_HANDS


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("verify", help="replay game records through the engine and report every divergence")
    s.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON Lines, spec/records/)")
    s.add_argument("--ruleset", help="check every match under this ruleset, an id or a ruleset file "
                                     "(default: the one its header names, an id or a file)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="override a ruleset option (repeatable)")
    add_reading_arg(s)
    s.add_argument("--jobs", "-j", type=jobs_arg, default=None, help="worker processes, at least 1 (default: all cores)")
    s.add_argument("--json", action="store_true", help="one JSON object per report, then a summary object")
    s.add_argument("--max-reports", type=count_arg(0), default=0, help="print at most this many reports (0: all)")
    s.add_argument("--write-house", metavar="FILE",
                   help="when the diagnosis names a rule a club's house file can set, and a house file setting it "
                        "clears those divergences (verified again before it is offered), write that file here "
                        "(then verify with --ruleset FILE)")
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on a Dask cluster (scheduler address, e.g. tcp://host:8786; needs the 'dask' extra); "
                        "FILE may be a glob or an fsspec URL such as s3://bucket/logs/*.jsonl")
    s.add_argument("--unit-bytes", type=count_arg(0), default=0, metavar="N",
                   help="with --scheduler or URLs: bytes per unit of work (default 4 MiB)")
    s.add_argument("--worker-wait", type=float, default=None, metavar="SECONDS",
                   help="with --scheduler: how long the cluster may have no worker before verify stops with an "
                        "error (default 60)")
    s.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    options = option_args(args.option) or None
    readings = reading_args(args.reading) or None
    for aid, rid in (readings or {}).items():
        check_reading(aid, rid)
    if args.ruleset:  # a bad --ruleset, --option or --reading is a usage error (exit 2)
        load_rules(with_readings(get_ruleset(args.ruleset), readings or {}), options)
    jobs = args.jobs or (os.cpu_count() or 1)
    if not args.scheduler:  # a quoted glob names its files here too, as it does with --scheduler
        args.files = _local_globs(args.files)
    printed = 0
    limit = args.max_reports
    write = sys.stdout.write
    diverged: set[Key] = set()  # every divergence and error, to re-check a reading against (records.suggest)
    checked_under: dict[str, set[str]] = {}  # file -> the rulesets its divergences were checked under

    def on_report(rep: Report) -> None:
        nonlocal printed
        printed += 1
        k = report_key(rep)
        if k is not None:
            diverged.add(k)
        if isinstance(rep, Divergence):
            checked_under.setdefault(rep.file, set()).add(rep.ruleset)
        if limit and printed > limit:
            return
        if args.json:
            sys.stdout.buffer.write(orjson.dumps(rep.to_json(), option=orjson.OPT_APPEND_NEWLINE))
        else:
            write(rep.text() + "\n")

    progress: Any = None
    task: Any = None
    if not args.json and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

        # no refresh thread: verify_paths forks worker processes, and forking a threaded process is unsafe
        progress = Progress("verifying", BarColumn(), DownloadColumn(), TimeRemainingColumn(), transient=True,
                            console=Console(stderr=True), auto_refresh=False)
        task = progress.add_task("verify", total=None)

    def on_progress(done: int, total: int) -> None:
        if progress is not None:
            progress.update(task, completed=done, total=total, refresh=True)

    if args.scheduler or any(is_url(f) for f in args.files):
        s = _run_units(args, options, jobs, on_report)
    elif progress is not None:
        with progress:
            s = verify_paths(args.files, ruleset=args.ruleset, options=options, jobs=jobs, on_report=on_report,
                             on_progress=on_progress, readings=readings)
    else:
        s = verify_paths(args.files, ruleset=args.ruleset, options=options, jobs=jobs, on_report=on_report,
                         readings=readings)
    if s.hands == 0 and s.exit_code() == 0:
        # an empty file, or one with headers only, has checked nothing: it is not "clean"
        raise BadInput(f"{', '.join(args.files)}: no hand records (nothing was checked)")
    code = s.exit_code()
    checks: list[ReadingCheck] = []
    houses: list[HouseCheck] = []
    local = not args.scheduler and not any(is_url(f) for f in args.files)
    if local:  # a reading or a house file suggested only once tried
        rows = s.diagnosis()
        checks = check_readings(rows, diverged, ruleset=args.ruleset, options=options, readings=readings, jobs=jobs)
        bases = {f: next(iter(rs)) for f, rs in checked_under.items() if len(rs) == 1 and next(iter(rs)) in rulesets()}
        houses = check_house(rows, diverged, bases, ruleset=args.ruleset, options=options, readings=readings,
                             jobs=jobs)
    unwritten = _write_house(args.write_house, houses, local) if args.write_house else ""
    if args.json:
        obj = s.to_json()
        if checks:
            obj["readings_checked"] = [c.to_json() for c in checks]
        if houses:
            obj["house_files_checked"] = [h.to_json() for h in houses]
            offered = [h for h in houses if h.suggested]
            obj["house_file"] = offered[0].text if len(offered) == 1 else None
        if args.write_house:
            obj["house_file_written"] = None if unwritten else args.write_house
        sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE))
    else:
        if limit and printed > limit:
            write(f"... {printed - limit} more reports not shown (--max-reports {limit})\n")
        write(summary_text(s, checks, houses) + "\n")
        if unwritten:
            write(unwritten + "\n")
    sys.stdout.flush()
    return code


def _write_house(path: str, houses: list[HouseCheck], tried: bool) -> str:
    """Write the one house file offered to ``path``; "" when written, else the sentence saying why not (``tried``:
    whether house files were tried at all; not with --scheduler or URLs)."""
    offered = [h for h in houses if h.suggested]
    if len(offered) != 1:
        why = ("house files are tried on local files only, not with --scheduler or URLs" if not tried else
               "no house file is offered" if not offered else
               f"{len(offered)} house files are offered, one for each ruleset; verify the files of each apart")
        return f"Nothing was written to {path}: {why}."
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(offered[0].text)
    except OSError as e:
        raise BadInput(file_error(path, f"cannot write the house file: {os_error_words(e)}")) from None
    offered[0].written = path
    return ""


def _local_globs(files: list[str]) -> list[str]:
    """Each local glob (quoted, so the shell left it) replaced by the files it matches, sorted; one that
    matches none is a usage error. URLs and plain paths as given."""
    out: list[str] = []
    for f in files:
        if is_url(f):
            out.append(f)
            continue
        found = expand_path(f)
        if isinstance(found, str):
            raise BadInput(f"{f}: {found}")
        out.extend(found)
    return out


def _run_units(args: argparse.Namespace, options: dict[str, Any] | None, jobs: int, on_report: Any) -> Summary:
    """Verify through the units API (tarneeb.records.units): on a Dask cluster, or in local processes."""
    units = plan_units(args.files, unit_bytes=args.unit_bytes or DEFAULT_UNIT_BYTES, ruleset=args.ruleset,
                       options=options, readings=reading_args(args.reading) or None)
    if args.scheduler:
        # connecting can take a while (distributed gives up after its connect timeout, 30 s by default): not silently
        print(f"connecting to the Dask scheduler at {args.scheduler} ...", file=sys.stderr, flush=True)
        try:
            wait = DEFAULT_WORKER_WAIT if args.worker_wait is None else args.worker_wait
            mapper = dask_mapper(args.scheduler, worker_wait=wait)
            return verify_units(units, on_report=on_report, mapper=mapper)
        except OSError as e:
            raise BadInput(f"--scheduler {args.scheduler}: {e}") from None
    if jobs <= 1:
        return verify_units(units, on_report=on_report)
    pool = worker_pool(jobs)
    try:
        return verify_units(units, on_report=on_report, mapper=pool.imap)
    finally:
        pool.terminate()
        pool.join()


def summary_text(s: Summary, checks: list[ReadingCheck] | None = None, houses: list[HouseCheck] | None = None) -> str:
    verdict = {0: "clean", 1: "DIVERGENCES FOUND", 2: "INPUT NOT READABLE"}[s.exit_code()]
    lines = [f"{verdict}: {n_of(s.files, 'file')}, {n_of(s.matches, 'match', 'matches')}, "
             f"{n_of(s.hands, 'hand record')} checked, {s.clean_hands} clean; {n_of(s.divergences, 'divergence')}, "
             f"{n_of(s.errors, 'unreadable record')}, {n_of(s.warnings, 'warning')}"
             + (f", {n_of(s.unreadable_files, 'unreadable file')}" if s.unreadable_files else "")]
    if s.extending:
        lines.append(f"{n_of(s.extending, 'match', 'matches')} checked under the house ruleset asked for, which "
                     "extends the ruleset {} header names.".format("its" if s.extending == 1 else "their"))
    rows = s.diagnosis()
    if s.by_clause:
        lines.append("divergences by clause:")
        for clause, n in s.clause_counts(rows).most_common():
            lines.append(f"  {rule_words(clause)}: {n}")
    if s.by_cause or s.evidence:
        follow = s.divergences - s.independent
        lines.append(f"divergences by cause ({s.independent} independent" +
                     (f", {follow} following from an earlier one" if follow else "") + "):")
        for c in s.causes(rows):
            cause = "follow-on" if c["cause"] == f"follow-on ({c['clause']})" else c["cause"]  # the JSON's label
            what = rule_words(c["clause"]) if cause == c["clause"] else f"{cause}, under {rule_words(c['clause'])}"
            lines.append(f"  {what}: {c['count']}, first at {c['first']}")
    if rows:
        lines.append("diagnosis (each recognised bug tried on every diverging hand of a field):")
        lines += [f"  {row['file']}: {diagnosis_text(row)}" for row in rows]
        by_file = {(row["file"], row["field"]): (row["status"], row["cause"]) for row in rows}
        odd = [row for row in s.diagnosis(per_match=True)  # a match's hint of the file's cause agrees with it
               if (row["status"], row["cause"]) != by_file[(row["file"], row["field"])]
               and not (row["status"] == "hint" and by_file[(row["file"], row["field"])] == ("cause", row["hint"]))]
        if odd:
            lines.append("matches whose own hands say otherwise:")
            lines += [f"  {row['file']} match {row['match']}: {diagnosis_text(row)}" for row in odd[:MAX_ODD]]
            if len(odd) > MAX_ODD:
                lines.append(f"  ... {len(odd) - MAX_ODD} more (--json lists every match: diagnosis_by_match)")
    if checks:
        lines.append("readings the diagnosis names (each tried before it is suggested):")
        lines += [f"  {c.text()}" for c in checks]
    if houses:
        lines.append("house files for what the diagnosis names (each tried before it is offered):")
        lines += [f"  {ln}" if ln else "" for h in houses for ln in h.lines()]
    return "\n".join(lines)


MAX_ODD = 10  # matches listed whose own evidence differs from their file's


def diagnosis_text(row: dict[str, Any]) -> str:
    """One line of the diagnosis: the cause with its evidence, or the evidence alone."""
    n, fld = row["hands"], row["field"]
    where = f"{'hand' if n == 1 else 'hands'} where {fld} diverges"

    against = {c["cause"]: c["clean_hands"] for c in row.get("contradicted", [])}

    def fits_text(fits: list[dict[str, Any]]) -> str:
        return ", ".join(f"{f['cause']} on {f['hands']} of {n}" + (
            f" (but {n_of(against[f['cause']], 'clean hand')} contradict{'s' if against[f['cause']] == 1 else ''} "
            "it)" if f["cause"] in against else "") for f in fits)

    if row["status"] == "cause":
        others = [f for f in row["fits"] if f["cause"] != row["cause"]]
        return (f"{fld}: cause {row['cause']}, under {rule_words(row['clause'])}: fits {n} of {n} {where}: "
                f"{row['explanation']}" + (f"; also fits: {fits_text(others)}" if others else ""))
    if row["status"] == "hint":
        others = [f for f in row["fits"] if f["cause"] != row["hint"]]
        return (f"{fld}: no cause named, a hint: {row['hint']}, under {rule_words(row['clause'])}, fits "
                f"{n_of(n, 'hand')} where {fld} diverges, and a cause is named from {MIN_CAUSE_HANDS} hands on: {row['explanation']}"
                + (f"; also fits: {fits_text(others)}" if others else ""))
    if row["status"] == "ambiguous":
        both = [f["cause"] for f in row["fits"] if f["hands"] == n and f["cause"] not in against]
        rest = [f for f in row["fits"] if f["cause"] not in both]
        every = "the one hand" if n == 1 else f"all {n} hands"
        return (f"{fld}: no cause named: {' and '.join(both)} each fit {every} where {fld} diverges"
                + (f"; also fits: {fits_text(rest)}" if rest else ""))
    if row["status"] == "partial":
        return (f"{fld}: no cause named: no recognised bug fits all {n} {where}; fits: {fits_text(row['fits'])}; "
                f"unexplained: {row['unexplained']} of {n}")
    return f"{fld}: unexplained on {n} of {n} {where}: no recognised bug reproduces the claims"
