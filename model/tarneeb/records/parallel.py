"""Running the verifier over files: streaming, progress, and byte ranges checked in worker processes."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from tarneeb.core.match import Match
from tarneeb.core.spec import rulesets
from tarneeb.errors import TarneebError
from tarneeb.records.format import MAX_LINE, Divergence, Item, MatchHeader, RecordProblem
from tarneeb.records.reader import _read_lines, parse_line
from tarneeb.records.verify import Report, Summary, Verifier
from tarneeb.records.writer import match_lines

# ------------------------------------------------------------------ running over files

ReportFn = Callable[[Report], None]


def verify_items(items: Iterable[Item], *, ruleset: str | None = None, options: dict[str, Any] | None = None,
                 on_report: ReportFn | None = None,
                 readings: dict[str, str] | None = None) -> tuple[Summary, list[Report]]:
    """Verify parsed items; returns the summary and the reports (unless ``on_report`` takes them)."""
    v = Verifier(ruleset, options, readings=readings)
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
    v = Verifier(ruleset, options, fast, readings)
    v.summary.files = 1
    kept: list[Report] = []
    for i, ln in enumerate(lines, start=1):
        data = ln.encode("utf-8", "surrogateescape") if isinstance(ln, str) else ln
        kept.extend(v.feed_line(data if len(data) <= MAX_LINE else None, len(data), file, i))
    return v.summary, kept


def verify_match(m: Match, match_id: str = "m") -> tuple[Summary, list[Report]]:
    """Write ``m`` as records and verify them (a round trip)."""
    return verify_lines(list(match_lines(m, match_id)), file=f"<match {match_id}>")


def _open_error(path: str, e: OSError) -> RecordProblem:
    return RecordProblem(path, 0, "(file)", f"cannot read: {e.strerror or e}")


def _verify_range(path: str, start: int, end: int | None, ruleset: str | None, options: dict[str, Any] | None,
                  on_report: ReportFn, max_line: int = MAX_LINE, fast: bool = True,
                  readings: dict[str, str] | None = None) -> tuple[Summary, int]:
    """Verify the matches whose header starts in [start, end) (from byte 0: everything before ``end``).

    Returns the summary and the number of lines covered (from the first
    header found, or from line 1 when ``start`` is 0).
    """
    v = Verifier(ruleset, options, fast, readings)
    lines = 0
    with open_source(path) as f:
        pos = start
        if start > 0:
            f.seek(start - 1)
            if f.read(1) != b"\n":  # start is inside a line: that line belongs to the range before
                while True:
                    more = f.readline(1 << 20)
                    pos += len(more)
                    if not more or more.endswith(b"\n"):
                        break
            for off, data, _n in _read_lines(f, pos, None, max_line):
                if end is not None and off >= end:
                    return v.summary, 0
                if data is not None and _is_header(data):
                    pos = off
                    break
            else:
                return v.summary, 0
        for off, data, n in _read_lines(f, pos, None, max_line):
            if end is not None and off >= end and data is not None and _is_header(data):
                break
            lines += 1
            for rep in v.feed_line(data, n, path, lines):
                on_report(rep)
    return v.summary, lines


def is_url(path: str) -> bool:
    """A path with a protocol (``s3://``, ``gs://``, ``file://``, ``memory://`` ...): opened through fsspec."""
    return "://" in path


def open_source(path: str) -> IO[bytes]:
    """Open a local path, or a URL through fsspec (an optional dependency: the ``dask`` extra brings it)."""
    if not is_url(path):
        return open(path, "rb")
    try:
        import fsspec
    except ImportError:  # pragma: no cover - the dask extra is not installed
        raise OSError(f"{path}: reading URLs needs fsspec (pip install 'tarneeb[dask]')") from None
    try:
        f: IO[bytes] = fsspec.open(path, "rb").open()
    except ImportError:
        raise OSError(f"{path}: {url_package_missing(path)}") from None
    return f


def url_package_missing(url: str) -> str:
    """What to install to read ``url``, when fsspec lacks the filesystem package of its protocol (s3fs, gcsfs, ...)."""
    proto = url.split("://", 1)[0]
    try:
        from fsspec.registry import known_implementations

        pkg = str(known_implementations[proto]["class"]).split(".")[0]
    except (ImportError, KeyError):
        return f"no filesystem package for {proto}:// URLs is installed"
    return f"reading {proto}:// URLs needs the package {pkg}: pip install {pkg}"


def _is_header(data: bytes) -> bool:
    if b"match" not in data and b"ruleset" not in data:
        return False
    return isinstance(parse_line(data), MatchHeader)


@dataclass(slots=True)
class _Chunk:
    path: str
    index: int
    start: int
    end: int | None
    ruleset: str | None
    options: dict[str, Any] | None
    fast: bool = True
    readings: dict[str, str] | None = None


def _run_chunk(c: _Chunk) -> tuple[Summary, list[Report], int, int]:
    reps: list[Report] = []
    try:
        s, n = _verify_range(c.path, c.start, c.end, c.ruleset, c.options, reps.append, fast=c.fast,
                              readings=c.readings)
    except OSError as e:
        s, n = Summary(unreadable_files=1), 0
        reps = [_open_error(c.path, e)]
    return s, reps, n, (c.end if c.end is not None else c.start)


def _verify_stream(f: IO[bytes], name: str, v: Verifier, sink: ReportFn,
                   progress: Callable[[int], None] | None) -> None:
    lineno = 0
    last = 0
    try:
        for off, data, n in _read_lines(f):
            lineno += 1
            for rep in v.feed_line(data, n, name, lineno):
                sink(rep)
            if progress is not None and off - last > (1 << 20):
                progress(off)
                last = off
    except OSError as e:  # a read error in the middle of a file
        err = RecordProblem(name, lineno + 1, "(file)", f"read error: {e.strerror or e}; the rest of the file is "
                          "not checked")
        v.summary.unreadable_files += 1
        sink(err)


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
    for p in paths:
        try:
            st = os.stat(p) if p != "-" else None
            sizes[p] = st.st_size if st is not None else 0
            regular[p] = st is not None and stat.S_ISREG(st.st_mode)
        except OSError:
            sizes[p], regular[p] = 0, False
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
        for p in paths:
            summary.files += 1
            prog = progress_from(done)
            if jobs > 1 and regular[p] and sizes[p] > _step(sizes[p], jobs, chunk_bytes):  # more than one range
                if pool is None:
                    pool = _make_pool(jobs)
                summary.merge(_verify_parallel(pool, p, sizes[p], jobs, chunk_bytes, ruleset, options, fast, sink,
                                               prog, readings))
            else:
                v = Verifier(ruleset, options, fast, readings)
                if p == "-":
                    import sys

                    _verify_stream(sys.stdin.buffer, "<stdin>", v, sink, prog)
                else:
                    try:
                        f = open(p, "rb")
                    except OSError as e:
                        summary.unreadable_files += 1
                        sink(_open_error(p, e))
                        continue
                    with f:
                        _verify_stream(f, p, v, sink, prog)
                summary.merge(v.summary)
            done += sizes[p]
            if on_progress is not None:
                on_progress(done, grand)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return summary


def _make_pool(jobs: int) -> Any:
    import multiprocessing as mp

    try:
        rulesets()  # parse the ruleset files once, before the workers fork
    except TarneebError:
        pass  # each worker reports it against the match headers
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    return ctx.Pool(jobs)


def _step(size: int, jobs: int, chunk_bytes: int) -> int:
    """Bytes per range of a file of ``size`` bytes split for ``jobs`` workers (a file no longer than one range is
    verified in this process: no pool is started for it)."""
    return max(1 << 16, min(chunk_bytes, size // (jobs * 4) + 1))


def _verify_parallel(pool: Any, path: str, size: int, jobs: int, chunk_bytes: int, ruleset: str | None,
                     options: dict[str, Any] | None, fast: bool, sink: ReportFn,
                     progress: Callable[[int], None] | None, readings: dict[str, str] | None = None) -> Summary:
    summary = Summary()
    step = _step(size, jobs, chunk_bytes)
    starts = list(range(0, size, step))
    chunks = [_Chunk(path, i, a, starts[i + 1] if i + 1 < len(starts) else None, ruleset, options, fast,
                     readings) for i, a in enumerate(starts)]
    offset = 0
    for s, reps, n, upto in pool.imap(_run_chunk, chunks):
        for rep in reps:
            if rep.line > 0:
                rep.line += offset
            if isinstance(rep, Divergence) and rep.follows_line is not None:
                rep.follows_line += offset
            sink(rep)
        s.files = 0
        summary.merge(s, offset)
        offset += n
        if progress is not None:
            progress(min(upto, size))
    return summary

