"""The ambiguity register (``spec/ambiguities.toml``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from tarneeb.core.spec import Ruleset, rulesets, spec_dir
from tarneeb.errors import SpecError


@dataclass(frozen=True, slots=True)
class Ambiguity:
    id: str
    question: str
    sources: tuple[str, ...]
    readings: tuple[tuple[str, str], ...]
    taken: dict[str, str]
    option: str = ""

    def reading_text(self, rid: str) -> str:
        return dict(self.readings)[rid]


@cache
def _load(path: str) -> tuple[Ambiguity, ...]:
    try:
        raw = tomllib.loads(open(path, encoding="utf-8").read())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SpecError(path, "(file)", str(e)) from None
    out = []
    known_rs = set(rulesets())
    for i, a in enumerate(raw.get("ambiguity", [])):
        where = f"ambiguity[{i}]"
        for key in ("id", "question", "sources", "readings", "taken"):
            if key not in a:
                raise SpecError(path, f"{where}.{key}", "missing")
        readings = tuple((r["id"], r["text"]) for r in a["readings"])
        ids = {r for r, _ in readings}
        for rs, reading in a["taken"].items():
            if rs not in known_rs:
                raise SpecError(path, f"{where}.taken.{rs}", f"unknown ruleset; valid: {', '.join(sorted(known_rs))}")
            if reading not in ids:
                raise SpecError(path, f"{where}.taken.{rs}", f"unknown reading {reading!r}; valid: {', '.join(sorted(ids))}")
        out.append(Ambiguity(a["id"], a["question"], tuple(a["sources"]), readings, dict(a["taken"]),
                             a.get("option", "")))
    return tuple(out)


def ambiguities() -> tuple[Ambiguity, ...]:
    return _load(str(spec_dir() / "ambiguities.toml"))


def taken_for(a: Ambiguity, rs: Ruleset) -> str | None:
    """The reading ``rs`` takes (a house ruleset takes its base's), or ``None`` when it is not concerned."""
    for rid in rs.lineage or (rs.id,):
        if rid in a.taken:
            return a.taken[rid]
    return None
