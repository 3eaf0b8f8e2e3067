"""The ambiguity register (``spec/ambiguities.toml``), and the selection of a reading (:func:`with_readings`).

A reading is selectable when the register gives, for each reading of its ambiguity, the parameter values under
which the engine follows it (``params``); the reading a built-in ruleset takes must be the one its parameters
select (checked on loading). ``--reading ID=READING`` and a house-rule file's ``[readings]`` select another.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from tarneeb.core.spec import PARAMS, READING_DEFAULTS, Clause, Ruleset, _check_param, rulesets, spec_dir
from tarneeb.errors import ConfigError, SpecError


@dataclass(frozen=True, slots=True)
class Ambiguity:
    id: str
    question: str
    sources: tuple[str, ...]
    readings: tuple[tuple[str, str], ...]
    taken: dict[str, str]
    option: str = ""
    params: dict[str, dict[str, Any]] = field(default_factory=dict)  # reading id -> the parameter values it sets
    clauses: tuple[str, ...] = ()  # the clauses whose meaning the choice of reading changes

    def reading_text(self, rid: str) -> str:
        return dict(self.readings)[rid]

    @property
    def selectable(self) -> bool:
        """Whether each reading names the parameter values under which the engine follows it."""
        return bool(self.params) and len(self.params) == len(self.readings)


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
        params: dict[str, dict[str, Any]] = {}
        for j, r in enumerate(a["readings"]):
            if "params" not in r:
                continue
            for k, v in r["params"].items():
                if k not in PARAMS:
                    raise SpecError(path, f"{where}.readings[{j}].params.{k}", "unknown parameter")
                _check_param(path, k, v)
            params[r["id"]] = dict(r["params"])
        if params and len(params) != len(readings):
            raise SpecError(path, f"{where}.readings", "either every reading gives its params or none does")
        amb = Ambiguity(a["id"], a["question"], tuple(a["sources"]), readings, dict(a["taken"]),
                        a.get("option", ""), params, tuple(a.get("clauses", ())))
        for rs_id, reading in amb.taken.items():  # the reading a ruleset takes is the one its parameters select
            if not params:
                break
            p = {**READING_DEFAULTS, **rulesets()[rs_id].params}
            off = {k: p.get(k) for k, v in params[reading].items() if p.get(k) != v}
            if off:
                raise SpecError(path, f"{where}.taken.{rs_id}", f"takes reading {reading!r}, but the ruleset's "
                                + ", ".join(f"{k} is {v!r}" for k, v in off.items()))
        out.append(amb)
    return tuple(out)


def ambiguities() -> tuple[Ambiguity, ...]:
    return _load(str(spec_dir() / "ambiguities.toml"))


def taken_for(a: Ambiguity, rs: Ruleset) -> str | None:
    """The reading ``rs`` takes (one it selects, else its base's), or ``None`` when it is not concerned."""
    if a.id in rs.readings:
        return rs.readings[a.id]
    for rid in rs.lineage or (rs.id,):
        if rid in a.taken:
            return a.taken[rid]
    return None


def ambiguity(aid: str) -> Ambiguity:
    for a in ambiguities():
        if a.id == aid:
            return a
    raise KeyError(aid)


def selectable_readings(rs: Ruleset) -> list[Ambiguity]:
    """The ambiguities concerning ``rs`` (it takes one of their readings) whose readings can be selected."""
    return [a for a in ambiguities() if a.selectable and taken_for(a, rs) is not None]


def check_reading(aid: str, rid: str, where: str = "--reading", source: str = "(command line)",
                  selectable: Sequence[str] | None = None) -> Ambiguity:
    """The ambiguity ``aid`` when ``rid`` is a selectable reading of it; else a ConfigError of ``source`` keyed by
    ``where`` (``--reading`` or ``readings.``) that names the ``selectable`` ambiguities (default: every one)."""
    valid = ", ".join(selectable if selectable is not None else [a.id for a in ambiguities() if a.selectable])
    key = f"{where}{'' if where.endswith('.') else ' '}{aid}"
    try:
        a = ambiguity(aid)
    except KeyError:
        raise ConfigError(source, key, f"no such ambiguity; selectable: {valid or 'none'}") from None
    if selectable is not None and aid not in selectable and a.selectable:
        raise ConfigError(source, key, f"this ambiguity does not concern {source}; selectable for it: "
                                       f"{valid or 'none'}")
    if not a.selectable:
        how = f" (its option {a.option} chooses)" if a.option else ""
        raise ConfigError(source, key, f"the engine follows one reading of this ambiguity only{how}; selectable: "
                                       f"{valid or 'none'}")
    if rid not in a.params:
        raise ConfigError(source, f"{key}={rid}", "no such reading; valid: " + ", ".join(a.params))
    return a


def with_readings(rs: Ruleset, chosen: Mapping[str, str], where: str = "--reading") -> Ruleset:
    """``rs`` following the readings ``chosen`` (ambiguity id -> reading id): the parameters each names set, the
    clauses whose meaning the choice changes say which reading they are read with, and ``readings`` records the
    choice (a record header carries it; labels show it). ``rs`` itself when nothing changes.

    An ambiguity that does not concern ``rs``, a reading not in the register, or an ambiguity whose readings
    cannot be selected is a ConfigError naming the valid choices (:func:`check_reading`; ``where`` says what
    named them)."""
    if not chosen:
        return rs
    params = dict(rs.params)
    clauses: dict[str, Clause] = dict(rs.clauses)
    readings = dict(rs.readings)
    known = [a.id for a in selectable_readings(rs)]
    for aid, rid in chosen.items():
        a = check_reading(aid, rid, where, rs.id, known)
        params.update(a.params[rid])
        base = taken_for(a, replace(rs, readings={}))
        if rid == base:
            readings.pop(aid, None)
        else:
            readings[aid] = rid
        for cid in a.clauses:
            if cid in clauses and rid != base:
                c = clauses[cid]
                note = f" Read here with reading {rid} of ambiguity {aid}: {a.reading_text(rid)}"
                clauses[cid] = replace(c, text=c.text + note, template=c.template + note)
    return replace(rs, params=params, clauses=clauses, readings=readings)
