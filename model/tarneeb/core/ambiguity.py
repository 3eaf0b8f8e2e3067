"""The ambiguity register (``spec/ambiguities.toml``), and the selection of a reading (:func:`with_readings`).

A reading is selectable when the register gives, for each reading of its ambiguity, the parameter values under
which the engine follows it (``params``), or, for an ambiguity about what a ruleset option means (``option``),
the option value that stands for it (``option_value``); the reading a built-in ruleset takes must be the one its
parameters select, or its option allow (checked on loading). ``--reading ID=READING`` and a house-rule file's
``[readings]`` select another. A reading may also give a ruleset the option another ruleset of the same document
declares (``option_from``): "the host's option applies here too".
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from tarneeb.core.model import Clause, OptionValue, Rules, Ruleset
from tarneeb.core.paths import spec_dir
from tarneeb.core.schema import PARAMS, READING_DEFAULTS, _check_param, build_rules, rulesets
from tarneeb.errors import ConfigError, SpecError, did_you_mean, echo, os_error_words


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
    # reading id -> the value of ``option`` that stands for it (an ambiguity about what an option's value means)
    option_values: dict[str, OptionValue] = field(default_factory=dict)
    # reading id -> the ruleset whose ``option`` the reading adds (a reading under which the option applies)
    option_from: dict[str, str] = field(default_factory=dict)
    fixed_because: str = ""  # why the engine follows one reading only (the register says; shown on refusal)

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
    except tomllib.TOMLDecodeError as e:
        raise SpecError(path, "(toml)", str(e)) from None
    except OSError as e:
        raise SpecError(path, "(file)", f"cannot read: {os_error_words(e)}") from None
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
                raise SpecError(path, f"{where}.taken.{rs}", f"unknown reading {echo(reading)}; valid: {', '.join(sorted(ids))}")
        params: dict[str, dict[str, Any]] = {}
        option_values: dict[str, OptionValue] = {}
        option_from: dict[str, str] = {}
        for j, r in enumerate(a["readings"]):
            if not {"params", "option_value", "option_from"} & set(r):
                continue
            for k, v in r.get("params", {}).items():
                if k not in PARAMS:
                    raise SpecError(path, f"{where}.readings[{j}].params.{k}", "unknown parameter")
                _check_param(path, k, v)
            params[r["id"]] = dict(r.get("params", {}))
            if ("option_value" in r or "option_from" in r) and not a.get("option"):
                raise SpecError(path, f"{where}.option", "a reading gives an option value: name the option")
            if "option_value" in r:
                option_values[r["id"]] = r["option_value"]
            if "option_from" in r:
                if r["option_from"] not in known_rs:
                    raise SpecError(path, f"{where}.readings[{j}].option_from", "unknown ruleset")
                option_from[r["id"]] = r["option_from"]
        if params and len(params) != len(readings):
            raise SpecError(path, f"{where}.readings", "either every reading says how it is selected or none does")
        if a["taken"] and not params and not a.get("option") and not a.get("fixed_because"):
            raise SpecError(path, f"{where}.fixed_because", "a reading a ruleset takes and no other selectable: "
                                                            "say why (fixed_because), or give each reading's params")
        amb = Ambiguity(a["id"], a["question"], tuple(a["sources"]), readings, dict(a["taken"]),
                        a.get("option", ""), params, tuple(a.get("clauses", ())), option_values, option_from,
                        a.get("fixed_because", ""))
        for rs_id, reading in amb.taken.items():  # the reading a ruleset takes is the one its parameters select
            if not params:
                break
            _check_taken(path, f"{where}.taken.{rs_id}", amb, rulesets()[rs_id], reading)
        out.append(amb)
    return tuple(out)


def _check_taken(path: str, key: str, a: Ambiguity, rs: Ruleset, reading: str) -> None:
    """The reading ``rs`` takes is the one its parameters select and, where the reading is an option's value, one
    its option allows (and no option another reading would add is there already); else a SpecError at ``key``."""
    p = {**READING_DEFAULTS, **rs.params}
    off = {k: p.get(k) for k, v in a.params[reading].items() if p.get(k) != v}
    if off:
        raise SpecError(path, key, f"takes reading {echo(reading)}, but the ruleset's "
                        + ", ".join(f"{k} is {echo(v)}" for k, v in off.items()))
    has = {o.name: o for o in rs.options}
    if reading in a.option_values and (a.option not in has or a.option_values[reading] not in has[a.option].allowed):
        raise SpecError(path, key, f"takes reading {echo(reading)}, but option {a.option} does not allow "
                                   f"{echo(a.option_values[reading])}")
    if a.option_from and reading not in a.option_from and a.option in has:
        raise SpecError(path, key, f"takes reading {echo(reading)}, but the ruleset has option {a.option} already")


def _select_option(rs: Ruleset, a: Ambiguity, base: str | None, rid: str) -> Ruleset:
    """``rs`` with option ``a.option`` as reading ``rid`` has it: the value standing for the reading ``base`` took
    replaced by ``rid``'s in the allowed values (only in the default when the option allows both), or the option
    added from another ruleset."""
    if rid in a.option_from and a.option not in {o.name for o in rs.options}:
        return replace(rs, options=(*rs.options, rulesets()[a.option_from[rid]].option(a.option)))
    if a.option_from and rid not in a.option_from and base in a.option_from:  # back to a reading without it
        return replace(rs, options=tuple(o for o in rs.options if o.name != a.option))
    if rid not in a.option_values or base not in a.option_values:
        return rs
    old, new = a.option_values[base], a.option_values[rid]
    options = []
    for o in rs.options:
        if o.name == a.option:
            # an option that allows both values already (the host picks): the reading is its default
            allowed = o.allowed if new in o.allowed else tuple(new if v == old else v for v in o.allowed)
            o = replace(o, allowed=allowed, default=new if o.default == old else o.default)
        options.append(o)
    return replace(rs, options=tuple(options))


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
        raise ConfigError(source, key, f"no such ambiguity{did_you_mean(aid, [x.id for x in ambiguities()])} "
                                       f"(selectable: {valid or 'none'})") from None
    if selectable is not None and aid not in selectable and a.selectable:
        raise ConfigError(source, key, f"this ambiguity does not concern {source}; selectable for it: "
                                       f"{valid or 'none'}")
    if not a.selectable and not a.taken:
        raise ConfigError(source, key, "no ruleset takes a reading of this ambiguity: the documents are silent and "
                                       f"the engine rules nothing here (a club's choice); selectable: {valid or 'none'}")
    if not a.selectable:
        how = f" ({a.fixed_because})" if a.fixed_because else f" (its option {a.option} chooses)" if a.option else ""
        raise ConfigError(source, key, f"the engine follows one reading of this ambiguity only{how}; selectable: "
                                       f"{valid or 'none'}")
    if rid not in a.params:
        raise ConfigError(source, f"{key}={rid}", f"no such reading{did_you_mean(rid, a.params)} (valid: "
                                                 + ", ".join(a.params) + ")")
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
        now = taken_for(a, rs)  # the reading ``rs`` follows (an earlier selection, a house file's base's, may differ)
        if a.option:
            rs = _select_option(rs, a, now, rid)
        if rid == base:
            readings.pop(aid, None)
        else:
            readings[aid] = rid
        old = _note(a, now) if now is not None and now != base else ""
        note = _note(a, rid) if rid != base else ""
        for cid in a.clauses:
            if cid in clauses:
                c = clauses[cid]
                clauses[cid] = replace(c, text=_renote(c.text, old, note), template=_renote(c.template, old, note))
    return replace(rs, params=params, clauses=clauses, readings=readings)


def _note(a: Ambiguity, rid: str) -> str:
    """What a clause whose meaning ambiguity ``a`` changes says when it is read with reading ``rid``."""
    return f" Read here with reading {rid} of ambiguity {a.id}: {a.reading_text(rid)}"


def _renote(text: str, old: str, note: str) -> str:
    """``text`` with the note of the reading it was read with (``old``, if any) replaced by ``note``."""
    return (text.replace(old, "", 1) if old else text) + note


def rules_under(rules: Rules, chosen: Mapping[str, str]) -> Rules:
    """``rules`` (a ruleset at some option values) following the readings ``chosen`` instead: :func:`with_readings`
    of its ruleset at the same option values, where an option whose value stands for a reading takes the value
    that stands for the chosen one (bs.fyi's trump_source = revealed-suit becomes revealed-same-colour under
    reading same-colour of turned-card-trump), and an option the chosen reading does not have is dropped."""
    options = dict(rules.options)
    for aid, rid in chosen.items():
        a = ambiguity(aid)
        if not a.option or a.option not in options:
            continue
        now = taken_for(a, rules.ruleset)
        if now in a.option_values and rid in a.option_values and options[a.option] == a.option_values[now]:
            options[a.option] = a.option_values[rid]
        if a.option_from and rid not in a.option_from:
            del options[a.option]
    return build_rules(with_readings(rules.ruleset, chosen), options)
