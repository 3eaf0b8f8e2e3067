"""Readings suggested only when they help.

A divergence the diagnosis explains by another reading of the ambiguity register (a cause or a hint named
``reading-R-of-A``) would suggest checking the records under ``--reading A=R``. Before it is suggested the files
whose hands name it are verified again under that reading: it is suggested only when it removes divergences and
creates none (no other divergence, no record it makes unreadable), with how many it removes; otherwise the check
says what it would do instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.core.ambiguity import ambiguities
from tarneeb.records.format import Divergence, RecordProblem, Report
from tarneeb.records.parallel import verify_paths

Key = tuple[str, int, str]  # (file, line, field) of a divergence or an unreadable record


def report_key(rep: Report) -> Key | None:
    """What a divergence (or an error) is compared by between two runs: its file, line and field; None for a
    warning."""
    if isinstance(rep, Divergence):
        return (rep.file, rep.line, rep.field)
    if isinstance(rep, RecordProblem) and rep.severity == "error":
        return (rep.file, rep.line, rep.field)
    return None


def reading_of(name: str) -> tuple[str, str] | None:
    """(ambiguity, reading) of a hypothesis named ``reading-R-of-A``; None for any other name."""
    if not name.startswith("reading-"):
        return None
    for a in ambiguities():
        for rid in a.params:
            if name == f"reading-{rid}-of-{a.id}":
                return a.id, rid
    return None


@dataclass(slots=True)
class ReadingCheck:
    """The files whose diagnosis names reading ``reading`` of ``ambiguity``, verified again under it: the
    divergences they had (``before``), how many it removes and how many it creates."""

    ambiguity: str
    reading: str
    files: list[str]
    before: int
    removes: int
    creates: int

    @property
    def suggested(self) -> bool:
        return self.removes > 0 and self.creates == 0

    def text(self) -> str:
        head = f"--reading {self.ambiguity}={self.reading}"
        where = ", ".join(self.files)
        if self.suggested:
            return (f"{head}: suggested: verified again under it, {where} lose {self.removes} of their {self.before} "
                    "divergences and gain none")
        gone = f"lose {self.removes} of their {self.before} divergences" if self.removes else "lose no divergence"
        return f"{head}: not suggested: verified again under it, {where} {gone} and gain {self.creates}"

    def to_json(self) -> dict[str, Any]:
        return {"ambiguity": self.ambiguity, "reading": self.reading, "files": self.files, "before": self.before,
                "removes": self.removes, "creates": self.creates, "suggested": self.suggested}


def _keys_under(paths: list[str], ruleset: str | None, options: dict[str, Any] | None, readings: dict[str, str],
                jobs: int) -> set[Key]:
    """The keys of the divergences and errors of ``paths`` verified under ``readings``."""
    out: set[Key] = set()

    def keep(rep: Report) -> None:
        k = report_key(rep)
        if k is not None:
            out.add(k)

    verify_paths(paths, ruleset=ruleset, options=options, jobs=jobs, on_report=keep, readings=readings)
    return out


def check_readings(rows: Sequence[dict[str, Any]], diverged: set[Key], *, ruleset: str | None = None,
                   options: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
                   jobs: int = 1) -> list[ReadingCheck]:
    """For each reading a diagnosis row (``Summary.diagnosis``) names as its cause or hint, the files of those rows
    verified again under it (with the same ruleset, options and readings besides), compared with ``diverged``: the
    keys (:func:`report_key`) of the first run's divergences and errors. Standard input is not read twice: a
    reading named only there is not checked."""
    wanted: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        name = row.get("cause") or row.get("hint")
        got = reading_of(name) if name else None
        if got is not None and row["file"] != "-":
            wanted.setdefault(got, set()).add(row["file"])
    out = []
    for (aid, rid), files in sorted(wanted.items()):
        paths = sorted(files)
        after = _keys_under(paths, ruleset, options, {**(readings or {}), aid: rid}, jobs)
        before = {k for k in diverged if k[0] in files}
        out.append(ReadingCheck(aid, rid, paths, len(before), len(before - after), len(after - before)))
    return out


__all__ = ["ReadingCheck", "check_readings", "reading_of", "report_key"]
