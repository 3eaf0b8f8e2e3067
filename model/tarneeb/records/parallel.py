"""Running the verifier over files: streaming, progress, and byte ranges checked in worker processes (the units
of :mod:`tarneeb.records.units`, which Dask runs too)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

from tarneeb.core.match import Match
from tarneeb.errors import os_error_words
from tarneeb.records.format import MAX_LINE, Item, RecordProblem, Report
from tarneeb.records.reader import _read_lines
from tarneeb.records.units import Merger, Unit, cannot_read, file_units, run_unit, worker_pool
from tarneeb.records.verify import Summary, Verifier
from tarneeb.records.writer import match_lines

# ------------------------------------------------------------------ running over files

ReportFn = Callable[[Report], None]


def verify_items(items: Iterable[Item], *, ruleset: str | None = None, options: dict[str, Any] | None = None,
                 on_report: ReportFn | None = None,
                 readings: dict[str, str] | None = None) -> tuple[Summary, list[Report]]:
    """Verify parsed items; returns the summary and the reports (unless ``on_report`` takes them)."""
    v = Verifier(ruleset, options, readings=readings, whole_files=True)
    kept: list[Report] = []
    sink = on_report or kept.append
    for it in items:
        for rep in v.feed(it):
            sink(rep)
    return v.summary, kept


def verify_lines(lines: Iterable[bytes | str], *, file: str = "<input>", ruleset: str | None = None,
                 options: dict[str, Any] | None = None, fast: bool = True,
                 readings: dict[str, str] | None = None) -> tuple[Summary, list[Report]]:
    """Verify records given as lines (bytes or str); for tests and callers holding records in memory.

    ``fast=False`` replays every hand through the engine (no fast path); the
    reports are the same either way. ``readings`` (ambiguity id -> reading) select readings over the headers'.
    """
    v = Verifier(ruleset, options, fast, readings, whole_files=True)
    v.summary.files = 1
    kept: list[Report] = []
    for i, ln in enumerate(lines, start=1):
        data = ln.encode("utf-8", "surrogateescape") if isinstance(ln, str) else ln
        kept.extend(v.feed_line(data if len(data) <= MAX_LINE else None, len(data), file, i))
    return v.summary, kept


def verify_match(m: Match, match_id: str = "m") -> tuple[Summary, list[Report]]:
    """Write ``m`` as records and verify them (a round trip)."""
    return verify_lines(list(match_lines(m, match_id)), file=f"<match {match_id}>")


def _verify_stream(source: IO[bytes], name: str, verifier: Verifier, sink: ReportFn,
                   progress: Callable[[int], None] | None) -> None:
    lineno = 0
    last = 0
    try:
        for offset, data, size in _read_lines(source):
            lineno += 1
            for report in verifier.feed_line(data, size, name, lineno):
                sink(report)
            if progress is not None and offset - last > (1 << 20):
                progress(offset)
                last = offset
    except OSError as e:  # a read error in the middle of a file
        verifier.summary.unreadable_files += 1
        sink(RecordProblem(name, lineno + 1, "(file)", f"read error: {os_error_words(e)}; the rest of the file is "
                           "not checked"))


def verify_paths(paths: Sequence[str], *, ruleset: str | None = None, options: dict[str, Any] | None = None,
                 jobs: int = 1, on_report: ReportFn | None = None,
                 on_progress: Callable[[int, int], None] | None = None,
                 chunk_bytes: int = 4 << 20, fast: bool = True, readings: dict[str, str] | None = None) -> Summary:
    """Verify files (``-`` is standard input); reports go to ``on_report`` in file and line order.

    ``jobs`` > 1 splits each regular file into byte ranges aligned to match
    headers and verifies them in worker processes (a match is never split: a
    single match longer than a range is checked by one worker); standard input
    and pipes are read in this process. ``on_progress(done, total)`` is called
    with bytes. Never raises on bad input: an unreadable file is a report.
    """
    summary = Summary()
    sink: ReportFn = on_report or (lambda _r: None)
    sizes: dict[str, int] = {}
    regular: dict[str, bool] = {}
    for path in paths:
        try:
            st = os.stat(path) if path != "-" else None
            sizes[path] = st.st_size if st is not None else 0
            regular[path] = st is not None and stat.S_ISREG(st.st_mode)
        except OSError:
            sizes[path], regular[path] = 0, False
    grand = sum(sizes.values())
    done = 0
    pool: Any = None

    def progress_from(base: int) -> Callable[[int], None] | None:
        if on_progress is None:
            return None
        report = on_progress

        def prog(d: int) -> None:
            report(base + d, grand)

        return prog

    try:
        for path in paths:
            summary.files += 1
            prog = progress_from(done)
            step = _step(sizes[path], jobs, chunk_bytes)
            if jobs > 1 and regular[path] and sizes[path] > step:  # more than one range
                if pool is None:
                    pool = worker_pool(jobs)
                units = file_units(path, 0, sizes[path], step, ruleset, options, fast, readings)
                summary.merge(_verify_units_in(pool, units, sizes[path], sink, prog))
            else:
                verifier = Verifier(ruleset, options, fast, readings, whole_files=True)
                if path == "-":
                    import sys

                    _verify_stream(sys.stdin.buffer, "<stdin>", verifier, sink, prog)
                else:
                    try:
                        source = open(path, "rb")
                    except OSError as e:
                        summary.unreadable_files += 1
                        sink(cannot_read(path, e))
                        continue
                    with source:
                        _verify_stream(source, path, verifier, sink, prog)
                summary.merge(verifier.summary)
            done += sizes[path]
            if on_progress is not None:
                on_progress(done, grand)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return summary


def _step(size: int, jobs: int, chunk_bytes: int) -> int:
    """Bytes per range of a file of ``size`` bytes split for ``jobs`` workers (a file no longer than one range is
    verified in this process: no pool is started for it)."""
    return max(1 << 16, min(chunk_bytes, size // (jobs * 4) + 1))


def _verify_units_in(pool: Any, units: list[Unit], size: int, sink: ReportFn,
                     progress: Callable[[int], None] | None) -> Summary:
    """Run one file's units in the worker pool and merge their results (the file counted by the caller)."""
    merger = Merger(sink)
    for res in pool.imap(run_unit, units):
        merger.add(res)
        if progress is not None:
            u = res.unit
            progress(min(u.end if u.end is not None else u.start, size))
    merger.summary.files = 0
    return merger.summary
