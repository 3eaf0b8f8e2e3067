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

from tarneeb.cli.common import count_arg, jobs_arg, option_args
from tarneeb.core.spec import load_rules
from tarneeb.errors import BadInput
from tarneeb.records import Report, Summary, verify_paths


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("verify", help="replay game records through the engine and report every divergence")
    s.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON Lines, spec/records/)")
    s.add_argument("--ruleset", help="check every match under this ruleset (default: the one its header names)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="override a ruleset option (repeatable)")
    s.add_argument("--jobs", "-j", type=jobs_arg, default=None, help="worker processes, at least 1 (default: all cores)")
    s.add_argument("--json", action="store_true", help="one JSON object per report, then a summary object")
    s.add_argument("--max-reports", type=count_arg(0), default=0, help="print at most this many reports (0: all)")
    s.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    options = option_args(args.option) or None
    if args.ruleset:
        load_rules(args.ruleset, options)  # a bad --ruleset or --option is a usage error (exit 2)
    jobs = args.jobs or (os.cpu_count() or 1)
    printed = 0
    limit = args.max_reports
    write = sys.stdout.write

    def on_report(rep: Report) -> None:
        nonlocal printed
        printed += 1
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

    if progress is not None:
        with progress:
            s = verify_paths(args.files, ruleset=args.ruleset, options=options, jobs=jobs, on_report=on_report,
                             on_progress=on_progress)
    else:
        s = verify_paths(args.files, ruleset=args.ruleset, options=options, jobs=jobs, on_report=on_report)
    if s.hands == 0 and s.exit_code() == 0:
        # an empty file, or one with headers only, has checked nothing: it is not "clean"
        raise BadInput(f"{', '.join(args.files)}: no hand records (nothing was checked)")
    if args.json:
        sys.stdout.buffer.write(orjson.dumps(s.to_json(), option=orjson.OPT_APPEND_NEWLINE))
    else:
        if limit and printed > limit:
            write(f"... {printed - limit} more reports not shown (--max-reports {limit})\n")
        write(summary_text(s) + "\n")
    sys.stdout.flush()
    return s.exit_code()


def summary_text(s: Summary) -> str:
    verdict = {0: "clean", 1: "DIVERGENCES FOUND", 2: "INPUT NOT READABLE"}[s.exit_code()]
    lines = [f"{verdict}: {s.files} file(s), {s.matches} match(es), {s.hands} hand record(s) checked, "
             f"{s.clean_hands} clean; {s.divergences} divergence(s), {s.errors} unreadable record(s), "
             f"{s.warnings} warning(s)"
             + (f", {s.unreadable_files} unreadable file(s)" if s.unreadable_files else "")]
    if s.by_clause:
        lines.append("divergences by clause:")
        for clause, n in s.by_clause.most_common():
            lines.append(f"  {clause}: {n}")
    return "\n".join(lines)
