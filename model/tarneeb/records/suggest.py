"""Readings and house files suggested only when they help.

A divergence the diagnosis explains by another reading of the ambiguity register (a cause or a hint named
``reading-R-of-A``) would suggest checking the records under ``--reading A=R``. Before it is suggested the files
whose hands name it are verified again under that reading: it is suggested only when it removes divergences and
creates none (no other divergence, no record it makes unreadable), with how many it removes; otherwise the check
says what it would do instead.

A divergence the diagnosis explains by a rule a club's house file can set (:func:`tarneeb.records.diagnose.house_change`:
another bid-total threshold, a failed 13 paying the defenders double, another value of a scoring option) gives a
complete house file extending the ruleset the records were checked under (:func:`tarneeb.core.house.house_text`),
tried the same way before it is offered: the files verified again with it as their ruleset.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarneeb.core.ambiguity import ambiguities
from tarneeb.core.context import Catalog, using
from tarneeb.core.house import house_text, toml_value
from tarneeb.core.spec import get_ruleset, rulesets
from tarneeb.errors import TarneebError
from tarneeb.records.diagnose import house_change
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
        said = _outcome(self.files, self.before, self.removes, self.creates)
        return f"{head}: {'suggested' if self.suggested else 'not suggested'}: verified again under it, {said}"

    def to_json(self) -> dict[str, Any]:
        return {"ambiguity": self.ambiguity, "reading": self.reading, "files": self.files, "before": self.before,
                "removes": self.removes, "creates": self.creates, "suggested": self.suggested}


def _outcome(files: list[str], before: int, removes: int, creates: int) -> str:
    """What verifying ``files`` again under a change did, as a sentence's end: ``a.jsonl loses 5 of its 9
    divergences and gains none`` (one file), ``a.jsonl, b.jsonl lose ... of their ... and gain 2`` (several)."""
    one = len(files) == 1
    lose, its, gain = ("loses", "its", "gains") if one else ("lose", "their", "gain")
    gone = (f"{lose} {removes} of {its} {before} divergence{'' if before == 1 else 's'}" if removes
            else f"{lose} no divergence")
    return f"{', '.join(files)} {gone} and {gain} {creates or 'none'}"


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


@dataclass(slots=True)
class HouseCheck:
    """A house file extending ``base`` that sets ``changes`` (parameter -> value), for the causes or hints
    ``causes`` the diagnosis of ``files`` names, verified again under it: the divergences they had (``before``),
    how many it removes and creates. ``text``: the file ("" when none could be written, ``problem`` saying why);
    ``note``: why it may not help (a record header's option value overrides a house file's default)."""

    base: str
    changes: dict[str, Any]
    causes: list[str]
    files: list[str]
    text: str = ""
    problem: str = ""
    note: str = ""
    before: int = 0
    removes: int = 0
    creates: int = 0
    written: str = ""  # the path it was written to (--write-house)

    @property
    def suggested(self) -> bool:
        return bool(self.text) and not self.problem and self.removes > 0 and self.creates == 0

    def what(self) -> str:
        sets = " and ".join(f"{p} to {toml_value(v)}" for p, v in self.changes.items())
        named = " and ".join(self.causes)
        return f"A house file extending {self.base} that sets {sets} (for {named})"

    def lines(self) -> list[str]:
        """What verify says of it, in sentences; the file itself, indented, when it is offered and not written."""
        if self.problem:
            return [f"{self.what()} is not offered: {self.problem}" + (f"; {self.note}" if self.note else "") + "."]
        said = _outcome(self.files, self.before, self.removes, self.creates)
        if not self.suggested:
            return [f"{self.what()} is not offered: verified again under it, {said}"
                    + (f"; {self.note}" if self.note else "") + "."]
        head = f"{self.what()} is offered: verified again under it, {said}."
        if self.written:
            return [head, f"It is written to {self.written}: verify under it with --ruleset {self.written}."]
        return [head, "Write it with --write-house FILE, then verify under it with --ruleset FILE. The file:"] + [
            f"    {ln}" if ln else "" for ln in self.text.splitlines()]

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "changes": self.changes, "causes": self.causes, "files": self.files,
                "before": self.before, "removes": self.removes, "creates": self.creates, "suggested": self.suggested,
                "text": self.text, "problem": self.problem, "written": self.written or None}


def check_house(rows: Sequence[dict[str, Any]], diverged: set[Key], bases: dict[str, str], *,
                ruleset: str | None = None, options: dict[str, Any] | None = None,
                readings: dict[str, str] | None = None, jobs: int = 1) -> list[HouseCheck]:
    """For the diagnosis rows (``Summary.diagnosis``) whose cause or hint is a rule a house file can set, by the
    ruleset their files were checked under (``ruleset``, else ``bases``: file -> the ruleset its divergences were
    checked under), a house file that sets them all, written to a temporary folder and the files verified again
    with it as their ruleset (the same options and readings), compared with ``diverged`` (:func:`report_key`).
    Standard input is not read twice: a file named "-" is left out."""
    wanted: dict[str, list[tuple[str, Any, str, str, str]]] = {}
    for row in rows:
        name = row.get("cause") or row.get("hint")
        change = house_change(name) if name else None
        base = ruleset or bases.get(row["file"])
        if change is not None and base is not None and row["file"] != "-":
            named = f"the {'cause' if row.get('cause') else 'hint'} {name}"
            wanted.setdefault(base, []).append((change[0], change[1], named, row["file"], row["explanation"]))
    out = []
    for base, found in sorted(wanted.items()):
        files = sorted({f for _, _, _, f, _ in found})
        changes: dict[str, Any] = {}
        for p, v, _, _, _ in found:
            changes.setdefault(p, v)
        check = HouseCheck(base, changes, list(dict.fromkeys(n for _, _, n, _, _ in found)), files,
                           before=len({k for k in diverged if k[0] in files}))
        clash = sorted({p for p, v, _, _, _ in found if changes[p] != v})
        if clash:
            check.problem = f"the diagnosis names two values of {', '.join(clash)}: verify those files apart"
        else:
            why = list(dict.fromkeys(f"{named}: {text}" for _, _, named, _, text in found))
            _try_house(check, why, diverged, options, readings, jobs)
        out.append(check)
    return out


def _try_house(check: HouseCheck, why: list[str], diverged: set[Key], options: dict[str, Any] | None,
               readings: dict[str, str] | None, jobs: int) -> None:
    """Write ``check``'s house file, load it and verify its files again under it (in a catalog of its own)."""
    with using(Catalog()), tempfile.TemporaryDirectory(prefix="tarneeb-house-") as tmp:
        try:
            base = get_ruleset(check.base)
            by_param = {o.param: o.name for o in base.options}
            opts = [(by_param[p], v) for p, v in check.changes.items()
                    if p in by_param and by_param[p] not in (options or {})]
            if opts:
                check.note = ("a record header that names an option's value overrides a house file's default; "
                              + ", ".join(f"--option {n}={v}" for n, v in opts) + " would override it")
            extends = check.base if check.base in rulesets() else str(Path(base.path).resolve())
            head = ["House rules written by tarneeb verify for what the diagnosis of " + ", ".join(check.files)
                    + " names:"] + why
            text = house_text(base, extends, check.changes, head)
            path = Path(tmp) / "house.toml"
            path.write_text(text, encoding="utf-8")
            get_ruleset(str(path))
        except TarneebError as e:
            reason = getattr(e, "reason", str(e))
            check.problem = f"the house file written for it would be refused ({getattr(e, 'key', '')}: {reason})"
            return
        check.text = text
        after = _keys_under(check.files, str(path), options, readings or {}, jobs)
    before = {k for k in diverged if k[0] in check.files}
    check.removes, check.creates = len(before - after), len(after - before)


__all__ = ["HouseCheck", "ReadingCheck", "check_house", "check_readings", "reading_of", "report_key"]
