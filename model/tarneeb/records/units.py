"""Verification as independent units of work, for any scheduler: local worker processes (``verify --jobs``), Dask,
Spark or Ray by the same three calls.

A **unit** is a byte range ``[start, end)`` of one record file (a local path or an fsspec URL). It stands for
the matches whose header line starts inside the range: a worker reads from the first match header at or
after ``start`` to the first header at or after ``end``, so a match is never split and every line is read
by exactly one unit. Units are independent: each starts with a fresh :class:`~tarneeb.records.Verifier`.

A unit's result numbers its lines from 1 within the unit. :class:`Merger` takes the results of a file's units
in unit order and renumbers them (adding the lines of the units before), so the reports, line numbers,
order, summary and exit code are those of one process reading the files one after the other::

    units = plan_units(["logs/*.jsonl", "s3://bucket/day=1/*.jsonl"])   # globs and URLs expanded, sorted
    merger = Merger(on_report=print)
    for result in map(run_unit, units):    # or: client.map(run_unit, units) (Dask), rdd.map(...) (Spark) ...
        merger.add(result)                 # results must be added in the order of ``units``
    summary = merger.summary               # exit code: summary.exit_code()

``run_unit`` and the objects it takes and returns are picklable and have no state outside them. A scheduler
may run units anywhere, in any order, as long as ``Merger.add`` sees them in plan order.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from tarneeb.core.spec import rulesets
from tarneeb.errors import TarneebError, os_error_words
from tarneeb.records.format import MAX_LINE, Divergence, MatchHeader, RecordProblem, Report
from tarneeb.records.reader import _read_lines, parse_line
from tarneeb.records.verify import Summary, Verifier

DEFAULT_UNIT_BYTES = 4 << 20

# ------------------------------------------------------------------ opening a source


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


def cannot_read(path: str, e: OSError) -> RecordProblem:
    """The report of a file that cannot be opened (line 0: the file, not a line of it)."""
    return RecordProblem(path, 0, "(file)", f"cannot read: {os_error_words(e)}")


# ------------------------------------------------------------------ one byte range


def _is_header(data: bytes) -> bool:
    if b"match" not in data and b"ruleset" not in data:
        return False
    return isinstance(parse_line(data), MatchHeader)


def _verify_range(path: str, start: int, end: int | None, ruleset: str | None, options: dict[str, Any] | None,
                  on_report: Callable[[Report], None], max_line: int = MAX_LINE, fast: bool = True,
                  readings: dict[str, str] | None = None) -> tuple[Summary, int]:
    """Verify the matches whose header starts in [start, end) (from byte 0: everything before ``end``).

    Returns the summary and the number of lines covered (from the first
    header found, or from line 1 when ``start`` is 0).
    """
    verifier = Verifier(ruleset, options, fast, readings, whole_files=start == 0 and end is None)
    lines = 0
    with open_source(path) as source:
        pos = start
        if start > 0:
            source.seek(start - 1)
            if source.read(1) != b"\n":  # start is inside a line: that line belongs to the range before
                while True:
                    more = source.readline(1 << 20)
                    pos += len(more)
                    if not more or more.endswith(b"\n"):
                        break
            for offset, data, _length in _read_lines(source, pos, None, max_line):
                if end is not None and offset >= end:
                    return verifier.summary, 0
                if data is not None and _is_header(data):
                    pos = offset
                    break
            else:
                return verifier.summary, 0
        for offset, data, size in _read_lines(source, pos, None, max_line):
            if end is not None and offset >= end and data is not None and _is_header(data):
                break
            lines += 1
            for report in verifier.feed_line(data, size, path, lines):
                on_report(report)
    return verifier.summary, lines


# ------------------------------------------------------------------ units


@dataclass(frozen=True, slots=True)
class Unit:
    """A byte range of one record file: the matches whose header starts in ``[start, end)`` (``end`` None: to
    the end of the file). ``file_index`` and ``index`` place it in the plan (file, then range)."""

    path: str
    file_index: int
    index: int
    start: int
    end: int | None
    ruleset: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    fast: bool = True
    missing: str = ""  # the reason the path could not be planned (a unit that reports it)
    readings: tuple[tuple[str, str], ...] = ()  # ambiguity id -> reading, over the headers' readings


@dataclass(slots=True)
class UnitResult:
    """What a unit found: its summary, its reports (lines numbered within the unit) and how many lines it read."""

    unit: Unit
    summary: Summary
    reports: list[Report] = field(default_factory=list)
    lines: int = 0


def expand_path(path: str) -> list[str] | str:
    """A path, glob or URL to the files it names (sorted), or the reason it names none."""
    if is_url(path):
        try:
            import fsspec
        except ImportError:
            return "reading URLs needs fsspec (pip install 'tarneeb[dask]')"
        try:
            fs, _, paths = fsspec.get_fs_token_paths(path)
        except ImportError:  # the protocol's filesystem package (s3fs for s3://, ...) is not installed
            return url_package_missing(path)
        except (OSError, ValueError) as e:
            return f"cannot list: {os_error_words(e)}"
        if not paths:
            return "no file matches"
        return sorted(p if "://" in p else fs.unstrip_protocol(p) for p in paths)
    if glob.has_magic(path) and not os.path.exists(path):
        found = sorted(glob.glob(path))
        return found if found else "no file matches"
    return [path]


def _size(path: str) -> int:
    if is_url(path):
        import fsspec

        fs, _, (p,) = fsspec.get_fs_token_paths(path)
        return int(fs.size(p))
    return os.stat(path).st_size


def plan_units(paths: Sequence[str], *, unit_bytes: int = DEFAULT_UNIT_BYTES, ruleset: str | None = None,
               options: dict[str, Any] | None = None, fast: bool = True,
               readings: dict[str, str] | None = None) -> list[Unit]:
    """The units of work for ``paths`` (local paths, globs, fsspec URLs and URL globs), in file and byte order.

    Each file is cut every ``unit_bytes`` bytes (at least 4 KiB); a file that cannot be listed or sized becomes
    one unit that reports it. Planning reads no record: only names and sizes.
    """
    option_items = tuple(sorted((options or {}).items()))
    reading_items = tuple(sorted((readings or {}).items()))

    def missing(path: str, file_index: int, reason: str) -> Unit:
        return Unit(path, file_index, 0, 0, None, ruleset, option_items, fast, reason, reading_items)

    out: list[Unit] = []
    step = max(1 << 12, unit_bytes)
    file_index = 0
    for given in paths:
        files = expand_path(given)
        if isinstance(files, str):
            out.append(missing(given, file_index, files))
            file_index += 1
            continue
        for path in files:
            try:
                size = _size(path)
            except ImportError:
                out.append(missing(path, file_index, url_package_missing(path)))
            except (OSError, ValueError) as e:
                out.append(missing(path, file_index, f"cannot read: {os_error_words(e)}"))
            else:
                out += file_units(path, file_index, size, step, ruleset, options, fast, readings)
            file_index += 1
    return out


def file_units(path: str, file_index: int, size: int, step: int, ruleset: str | None = None,
               options: dict[str, Any] | None = None, fast: bool = True,
               readings: dict[str, str] | None = None) -> list[Unit]:
    """The units of one file of ``size`` bytes cut every ``step`` bytes (one unit for an empty file)."""
    option_items = tuple(sorted((options or {}).items()))
    reading_items = tuple(sorted((readings or {}).items()))
    starts = list(range(0, size or 1, step))
    return [Unit(path, file_index, index, start, starts[index + 1] if index + 1 < len(starts) else None, ruleset,
                 option_items, fast, readings=reading_items) for index, start in enumerate(starts)]


def run_unit(unit: Unit) -> UnitResult:
    """Verify one unit (in any process or machine that has ``tarneeb`` installed); never raises on bad input."""
    if unit.missing:
        return UnitResult(unit, Summary(unreadable_files=1), [RecordProblem(unit.path, 0, "(file)", unit.missing)])
    reports: list[Report] = []
    try:
        summary, lines = _verify_range(unit.path, unit.start, unit.end, unit.ruleset, dict(unit.options) or None,
                                       reports.append, fast=unit.fast, readings=dict(unit.readings) or None)
    except OSError as e:
        return UnitResult(unit, Summary(unreadable_files=1), [cannot_read(unit.path, e)])
    return UnitResult(unit, summary, reports, lines)


def worker_pool(jobs: int) -> Any:
    """A pool of ``jobs`` local worker processes (forked where the platform can) whose ``imap`` is a mapper for
    :func:`verify_units`; the caller terminates it."""
    import multiprocessing as mp

    try:
        rulesets()  # parse the ruleset files once, before the workers fork
    except TarneebError:
        pass  # each worker reports it against the match headers
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    return ctx.Pool(jobs)


class Merger:
    """Merges unit results, given in plan order, into one run's reports and summary."""

    def __init__(self, on_report: Callable[[Report], None] | None = None) -> None:
        self.summary = Summary()
        self._sink = on_report or (lambda _r: None)
        self._file: int | None = None
        self._offset = 0
        self._failed = False

    def add(self, res: UnitResult) -> None:
        """Add the next unit's result (in plan order): its reports renumbered from the lines before, its counts."""
        u = res.unit
        if u.file_index != self._file:
            self._file, self._offset, self._failed = u.file_index, 0, False
            self.summary.files += 1
        if res.summary.unreadable_files:
            if self._failed:
                return  # a file that cannot be read is reported once, by its first unit
            self._failed = True
        for rep in res.reports:
            if rep.line > 0:
                rep.line += self._offset
            if isinstance(rep, Divergence) and rep.follows_line is not None:
                rep.follows_line += self._offset
            self._sink(rep)
        res.summary.files = 0
        self.summary.merge(res.summary, self._offset)
        self._offset += res.lines


def verify_units(units: Sequence[Unit], *, on_report: Callable[[Report], None] | None = None,
                 mapper: Callable[[Callable[[Unit], UnitResult], Sequence[Unit]], Iterable[UnitResult]] | None = None
                 ) -> Summary:
    """Run ``units`` with ``mapper`` (default: the built-in ``map``, in this process) and merge the results."""
    merger = Merger(on_report)
    for res in (mapper or map)(run_unit, units):
        merger.add(res)
    return merger.summary


DEFAULT_WORKER_WAIT = 60.0  # seconds a Dask cluster may have no worker before verify gives up


def dask_mapper(address: str | None = None, client: Any = None, worker_wait: float = DEFAULT_WORKER_WAIT,
                ) -> Callable[[Callable[[Unit], UnitResult], Sequence[Unit]], Iterator[UnitResult]]:
    """A mapper for :func:`verify_units` running units on a Dask cluster (``address``: its scheduler, or an
    existing ``distributed.Client``). Results are yielded in plan order; at most a few hundred units are in
    flight at once so that memory stays bounded on big inputs. When the cluster has had no worker for
    ``worker_wait`` seconds while results are awaited (every worker lost, none came back), it raises
    :class:`OSError` saying so, instead of waiting for ever."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - the dask extra is not installed
        raise OSError("--scheduler needs dask.distributed (pip install 'tarneeb[dask]')") from None

    def mapper(fn: Callable[[Unit], UnitResult], units: Sequence[Unit]) -> Iterator[UnitResult]:
        c = client if client is not None else Client(address)  # type: ignore[no-untyped-call]
        window = 256
        try:
            pending: list[Any] = []
            it = iter(units)
            for u in it:
                pending.append(c.submit(fn, u, pure=False))
                if len(pending) >= window:
                    yield _result(pending.pop(0), c, worker_wait)
            for f in pending:
                yield _result(f, c, worker_wait)
        finally:
            if client is None:
                c.close()

    return mapper


def _result(fut: Any, c: Any, worker_wait: float) -> UnitResult:
    """``fut.result()``, looking every 2 s whether the cluster still has a worker."""
    import time

    none_since: float | None = None
    while True:
        try:
            res: UnitResult = fut.result(timeout=2)
            return res
        except TimeoutError:
            if c.nthreads():
                none_since = None
                continue
            now = time.monotonic()
            none_since = none_since or now
            if now - none_since >= worker_wait:
                raise OSError(f"the cluster has had no worker for {worker_wait:g} s (every worker lost); "
                              "start workers again, or raise --worker-wait to wait longer") from None


__all__ = ["DEFAULT_UNIT_BYTES", "DEFAULT_WORKER_WAIT", "Merger", "Unit", "UnitResult", "cannot_read", "dask_mapper",
           "file_units", "is_url", "open_source", "plan_units", "run_unit", "url_package_missing", "verify_units",
           "worker_pool"]
