"""House rulesets: a club's own ruleset file that ``extends`` a published one.

A house file names its base (a built-in id or another file), may override
parameters (``[params]``) and option defaults (``[defaults]``), add or replace
clauses (``[[clause]]``), drop clauses the engine does not cite
(``remove_clauses``), and cite its own rule sheet (``[[source]]``: publisher,
title, where published). It is validated as the built-ins are: every error
names the file, the key, the reason and the valid choices; a configuration
that could get stuck is refused with a witness (:func:`tarneeb.core.spec.config_problems`).
An inherited clause whose wording depends on a parameter the file changes must
be a template naming it (:mod:`tarneeb.core.prose`), else the file is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tarneeb.core.ambiguity import ambiguities, ambiguity, with_readings
from tarneeb.core.context import Catalog
from tarneeb.core.model import Clause, Option, Ruleset
from tarneeb.core.prose import check_template, render, stale_clauses, stale_message
from tarneeb.core.schema import (
    _AUCTION,
    _AUCTION_READINGS,
    _COMMON,
    _COMMON_READINGS,
    _INDIVIDUAL,
    _INDIVIDUAL_READINGS,
    CLAUSES_AUCTION,
    CLAUSES_COMMON,
    CLAUSES_INDIVIDUAL,
    READING_DEFAULTS,
    _check_param,
    _flatten,
    _req,
    build_rules,
    check_keys,
    check_top,
    config_problems,
    load_ruleset_file,
    read_toml,
    rulesets,
    with_rendered_clauses,
)
from tarneeb.core.sources import Source, builtin_sources
from tarneeb.errors import ConfigError, SpecError, echo

# resolves the ruleset a house file extends (a built-in id, or a file's path relative to the folder given), in
# the catalog the file is loaded into (tarneeb.core.spec.resolve_ruleset)
Resolve = Callable[[str, Path], Ruleset]

HOUSE_KEYS = ("schema", "id", "extends", "name", "summary", "name_ar", "summary_ar", "publisher", "document",
              "source", "params", "defaults", "clause", "remove_clauses", "readings")
SOURCE_KEYS = ("id", "publisher", "title", "described_as", "published")
CLAUSE_KEYS = ("id", "text", "text_ar", "heading", "doc", "source")  # doc or source: the source it cites
CLAUSE_NEEDS = ("id", "heading", "text")
SOURCE_NEEDS = ("id", "publisher", "published")
_ID = re.compile(r"[a-z0-9][a-z0-9-]*$")
# a parameter that switches a rule on, and the clause that must state it (the engine cites it)
FEATURE_CLAUSES = {"win.made_bid_wins": "win.made-bid", "bid.rising_min": "bid.rising-min",
                   "bid.excluded": "bid.excluded", "timer.auto_bid": "timer.auto-bid",
                   "timer.auto_play": "timer.auto-play", "win.play_on_raise": "win.play-on"}
# a parameter whose non-default value is a variant no rule document names (unless a reading of the ambiguity
# register gives that value), and the clause that must state it citing the file's own [[source]]
NO_DOCUMENT_PARAMS = {"score.failed13_defenders": "score.standard", "bid.total_table": "bid.total",
                      "deal.packets": "deal.order"}


def _register_values(param: str) -> list[Any]:
    """The values the readings of the ambiguity register give ``param`` (each cites a rule document)."""
    return [rd[param] for a in ambiguities() for rd in a.params.values() if param in rd]


def load_file(path: Path, ref: str, catalog: Catalog, resolve: Resolve) -> Ruleset:
    """Load a ruleset file into ``catalog``: a house ruleset (``extends``, its base found by ``resolve``) or a whole
    ruleset of the built-in form. The sources it declares go into ``catalog``; the caller keeps the ruleset there."""
    file = str(path)
    raw = read_toml(path)
    if "extends" not in raw:
        rs = load_ruleset_file(path)
        builtin = rulesets().get(rs.id)
        if builtin is not None:
            if Path(builtin.path).resolve() == path.resolve():
                return builtin
            raise SpecError(file, "id", f"{echo(rs.id)} is a built-in ruleset; a file of your own needs its own id")
        _check_sound(file, rs)
        return replace(rs, ref=ref)
    key = str(path.resolve())
    if key in catalog.loading:
        raise SpecError(file, "extends", "extends itself (through " + " -> ".join(catalog.loading) + ")")
    catalog.loading.append(key)
    try:
        return _load_house(file, path, ref, raw, catalog, resolve)
    except SpecError as e:  # this file's own error: on the line it is about (a base file's names its own)
        if e.file != file or e.line is not None:
            raise
        raise SpecError(file, e.key, e.reason, _locate(path, e.key)) from None
    finally:
        catalog.loading.pop()


# ------------------------------------------------------------------ the line an error is on

_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*=\s*(.*)$")


def _dotted(key: str) -> str:
    """A TOML key as the loader names it: its parts, unquoted, joined by dots."""
    return ".".join(part.strip().strip("\"'") for part in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", key))


def key_lines(text: str) -> dict[str, int]:
    """Each table and key of a TOML file's ``text`` by the name its errors give it (``params``,
    ``params.score.failed13_defenders``, ``clause[0]``, ``clause[0].doc``, and a clause by its id: ``clause
    score.standard``, ``clause score.standard.text``) -> its line, counted from 1 (the first line of each)."""
    out: dict[str, int] = {}
    table = ""
    cid: str | None = None  # the id of the [[clause]] being read, once its id is read
    counts: dict[str, int] = {}
    in_string = False
    depth = 0  # the brackets a list spread over several lines leaves open
    for n, line in enumerate(text.splitlines(), 1):
        if in_string:  # inside a multi-line string: its lines are no keys
            in_string = (line.count('"""') + line.count("\'\'\'")) % 2 == 0
            continue
        if depth > 0:  # inside a list: its lines are no tables
            depth += _brackets(line)
            continue
        head = _HEADER.match(line)
        if head and not _KEY.match(line):
            name = _dotted(head.group(2))
            if head.group(1) == "[[":
                i = counts.get(name, 0)
                counts[name] = i + 1
                name = f"{name}[{i}]"
            table, cid = name, None
            out.setdefault(table, n)
            continue
        m = _KEY.match(line)
        if m is None:
            continue
        key, value = _dotted(m.group(1)), m.group(2)
        out.setdefault(f"{table}.{key}" if table else key, n)
        if table.startswith("clause["):
            if key == "id":
                cid = value.split("#", 1)[0].strip().strip("\"'")
                out.setdefault(f"clause {cid}", out[table])
                for k, ln in list(out.items()):  # the keys of this clause given before its id
                    if k.startswith(table + "."):
                        out.setdefault(f"clause {cid}." + k[len(table) + 1:], ln)
            elif cid is not None:
                out.setdefault(f"clause {cid}.{key}", n)
        in_string = (value.count('"""') + value.count("\'\'\'")) % 2 == 1
        depth = 0 if in_string else max(_brackets(value), 0)
    return out


def _brackets(text: str) -> int:
    """The square brackets ``text`` opens less those it closes, outside quoted texts and comments."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', "", text).split("#", 1)[0]
    return bare.count("[") - bare.count("]")


def _locate(path: Path, key: str) -> int | None:
    """The line of ``path`` that the error about ``key`` is on: the key's own line, else (a key that is missing)
    the line of the table that should hold it; None for the file as a whole."""
    try:
        lines = key_lines(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError):
        return None
    key = key.removeprefix("(top).")
    while key:
        if key in lines:
            return lines[key]
        key = key.rpartition(".")[0] if "." in key else ""
    return None


def _str(file: str, table: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    if key not in table and default is not None:
        return default
    v = _req(file, table, key, where)
    if not isinstance(v, str):
        raise SpecError(file, f"{where}.{key}", f"{echo(v)} should be a text")  # _req checks it: for the type checker
    return v


def _load_house(file: str, path: Path, ref: str, raw: dict[str, Any], catalog: Catalog, resolve: Resolve) -> Ruleset:
    """A house ruleset from its file's table ``raw``: its base, its own sources, parameters and option defaults,
    clauses and readings, each checked where it is read, then the whole of it (what it changes, stated)."""
    check_top(file, raw, HOUSE_KEYS)
    rid, base = _id_and_base(file, path, raw, resolve)
    own, doc_ok = _own_sources(file, raw, catalog)
    document = _str(file, raw, "document", "(top)", own[0].id if own else base.document)
    doc_ok(document, "document")
    family_params = _family_params(base)
    params, options = _params_and_defaults(file, raw, rid, base, family_params)
    clauses, own_ids = _clauses(file, raw, rid, base, document, doc_ok)
    rs = Ruleset(
        id=rid, name=_str(file, raw, "name", "(top)"), document=document,
        publisher=_str(file, raw, "publisher", "(top)", own[0].publisher if own else base.publisher),
        summary=_str(file, raw, "summary", "(top)"), path=file, params=params, options=tuple(options),
        clauses=clauses, ref=ref, extends=base.id, lineage=(rid, *base.lineage), readings=dict(base.readings),
        name_ar=_str(file, raw, "name_ar", "(top)", ""), summary_ar=_str(file, raw, "summary_ar", "(top)", ""),
    )
    chosen = raw.get("readings", {})
    if not isinstance(chosen, dict) or not all(isinstance(v, str) for v in chosen.values()):
        raise SpecError(file, "readings", "a [readings] table: ambiguity id = reading id (spec/ambiguities.toml)")
    try:
        rs = with_readings(rs, chosen, "readings.")
    except ConfigError as e:
        raise SpecError(file, e.key, e.reason) from None
    # a reading's parameter a ruleset leaves out has its default (the reading the ruleset takes)
    before = {k: v for k, v in READING_DEFAULTS.items() if k in family_params} | base.effective_params()
    after = {k: v for k, v in READING_DEFAULTS.items() if k in family_params} | rs.effective_params()
    rs = replace(rs, changed={p: (before[p], after[p]) for p in after if after[p] != before.get(p)})
    _check_changes_stated(file, rs, base, after, own_ids, _reading_params(rs, chosen), own)
    rs = with_rendered_clauses(rs)
    rs = replace(rs, name=render(rs.name, after, file, "name"), summary=render(rs.summary, after, file, "summary"),
                 name_ar=render(rs.name_ar, after, file, "name_ar", "ar"),
                 summary_ar=render(rs.summary_ar, after, file, "summary_ar", "ar"))
    _check_sound(file, rs)
    return rs


def _reading_params(rs: Ruleset, chosen: dict[str, str]) -> set[str]:
    """The parameters the readings ``chosen`` set in ``rs``: those each names, and the parameter of the option whose
    value stands for a reading (weakest-card: option timer_weakest, parameter timer.auto_play)."""
    out: set[str] = set()
    for aid, rid in chosen.items():
        a = ambiguity(aid)
        out |= set(a.params[rid]) | {o.param for o in rs.options if a.option and o.name == a.option}
    return out


def _id_and_base(file: str, path: Path, raw: dict[str, Any], resolve: Resolve) -> tuple[str, Ruleset]:
    """The file's own id (not a built-in's, nor one of its bases') and the ruleset it extends."""
    rid = _str(file, raw, "id", "(top)")
    if not _ID.match(rid):
        raise SpecError(file, "id", f"{echo(rid)}: an id is lower-case letters, digits and hyphens")
    if rid in rulesets():
        raise SpecError(file, "id", f"{echo(rid)} is a built-in ruleset; a house ruleset needs its own id")
    ext = raw.get("extends")
    if not isinstance(ext, str):
        raise SpecError(file, "extends", f"{echo(ext)}: give a built-in id ({', '.join(rulesets())}) or a file path")
    try:
        base = resolve(ext, path.parent)
    except ConfigError as e:
        raise SpecError(file, "extends", e.reason) from None
    if rid in base.lineage:
        raise SpecError(file, "id", f"{echo(rid)} is already the id of a ruleset it extends")
    return rid, base


def _own_sources(file: str, raw: dict[str, Any], catalog: Catalog) -> tuple[list[Source], Callable[[str, str], str]]:
    """The sources the file declares (the club's rule sheet), added to ``catalog``; and the check that a clause's
    document is a known source (returning it), keyed by the entry that names it."""
    def known_sources() -> dict[str, Source]:
        return {**builtin_sources(), **catalog.sources}

    own: list[Source] = []
    for i, s in enumerate(raw.get("source", [])):
        where = f"source[{i}]"
        if not isinstance(s, dict):
            raise SpecError(file, where, "a [[source]] table with " + ", ".join(SOURCE_KEYS))
        check_keys(file, s, SOURCE_KEYS, where)
        _needs(file, s, SOURCE_NEEDS, where, "[[source]]", "published: where the rules are written down")
        sid = _str(file, s, "id", where)
        known = known_sources().get(sid)
        if known is not None and not known.origin:  # a document of spec/sources.toml (a file's may be reloaded)
            raise SpecError(file, f"{where}.id", f"{echo(sid)} is already a source ({known.name}); choose another id")
        own.append(Source(sid, _str(file, s, "publisher", where), _str(file, s, "title", where, ""),
                          _str(file, s, "described_as", where, "house rules"), _str(file, s, "published", where),
                          origin=file))
    catalog.sources.update({s.id: s for s in own})
    valid_docs = sorted(known_sources())

    def doc_ok(doc: str, key: str) -> str:
        if doc not in known_sources():
            raise SpecError(file, key, f"{echo(doc)} is not a known source; valid: {', '.join(valid_docs)} "
                                       "(or declare it in a [[source]] table with id, publisher and published)")
        return doc

    return own, doc_ok


def _family_params(base: Ruleset) -> set[str]:
    """The parameters a house file of ``base``'s family may set (its readings' among them)."""
    family = base.params["family"]
    return set(_COMMON) | set(_COMMON_READINGS) | set({**_INDIVIDUAL, **_INDIVIDUAL_READINGS} if family == "individual"
                                                      else {**_AUCTION, **_AUCTION_READINGS})


def _params_and_defaults(file: str, raw: dict[str, Any], rid: str, base: Ruleset,
                         family_params: set[str]) -> tuple[dict[str, Any], list[Option]]:
    """The base's parameters with the file's ``[params]`` over them, and its options with the file's ``[defaults]``
    (a parameter an option sets is changed through the option's default)."""
    family = base.params["family"]
    by_param = {o.param: o for o in base.options}
    params = dict(base.params)
    overrides = raw.get("params", {})
    if not isinstance(overrides, dict):
        raise SpecError(file, "params", "a [params] table")
    for k, v in _flatten(overrides).items():
        _check_param(file, k, v)
        if k == "family":
            raise SpecError(file, "params.family", f"a house ruleset keeps its base's family ({family})")
        if k not in family_params:
            raise SpecError(file, f"params.{k}", f"not a parameter of family {family}; valid: "
                                                 + ", ".join(sorted(family_params - {"family"})))
        if k in by_param:
            o = by_param[k]
            raise SpecError(file, f"params.{k}", f"set by option {o.name} in {base.id}: change its default under "
                                                 f"[defaults] ({o.name} = ...; valid: {o.valid_text()})")
        params[k] = v
    options = list(base.options)
    defaults = raw.get("defaults", {})
    if not isinstance(defaults, dict):
        raise SpecError(file, "defaults", "a [defaults] table: option name = value")
    for name, v in defaults.items():
        idx = next((i for i, o in enumerate(options) if o.name == name), None)
        if idx is None:
            valid = ", ".join(o.name for o in options) or f"{base.id} has no options"
            raise SpecError(file, f"defaults.{name}", f"unknown option; valid: {valid}")
        try:
            value = options[idx].coerce(rid, v)
        except ConfigError as e:
            raise SpecError(file, f"defaults.{name}", e.reason) from None
        options[idx] = replace(options[idx], default=value)
    return params, options


def _clauses(file: str, raw: dict[str, Any], rid: str, base: Ruleset, document: str,
             doc_ok: Callable[[str, str], str]) -> tuple[dict[str, Clause], set[str]]:
    """The clauses: the base's, less those ``remove_clauses`` drops (never one the engine cites), with the file's
    own ``[[clause]]`` tables added or replacing; and the ids of the file's own."""
    clauses: dict[str, Clause] = dict(base.clauses)
    cited = set(CLAUSES_COMMON) | set(CLAUSES_INDIVIDUAL if base.params["family"] == "individual" else CLAUSES_AUCTION)
    removed = raw.get("remove_clauses", [])
    if not isinstance(removed, list) or not all(isinstance(x, str) for x in removed):
        raise SpecError(file, "remove_clauses", "a list of clause ids")
    for cid in removed:
        if cid not in clauses:
            raise SpecError(file, "remove_clauses", f"{echo(cid)} is not a clause of {base.id}; valid: "
                                                    + ", ".join(clauses))
        if cid in cited:
            raise SpecError(file, "remove_clauses", f"{echo(cid)} is cited by the engine; replace it instead")
        del clauses[cid]
    own_ids: set[str] = set()
    for i, c in enumerate(raw.get("clause", [])):
        where = f"clause[{i}]"
        if not isinstance(c, dict):
            raise SpecError(file, where, "a [[clause]] table with " + ", ".join(CLAUSE_KEYS))
        check_keys(file, c, CLAUSE_KEYS, where)
        _needs(file, c, CLAUSE_NEEDS, where, "[[clause]]", "and it may cite a source: source = its id")
        cid = _str(file, c, "id", where)
        if cid in own_ids:
            raise SpecError(file, f"{where}.id", f"duplicate clause id {cid}")
        own_ids.add(cid)
        template = _str(file, c, "text", where)
        cites = "source" if "source" in c else "doc"  # the two names of the source a clause cites
        if "source" in c and "doc" in c and c["source"] != c["doc"]:
            raise SpecError(file, f"{where}.source", f"{echo(c['source'])}, but doc says {echo(c['doc'])}: doc and "
                                                     "source both name the source this clause cites; give one")
        clauses[cid] = Clause(id=cid, text=template, doc=doc_ok(_str(file, c, cites, where, document), f"{where}.{cites}"),
                              heading=_str(file, c, "heading", where), text_ar=_str(file, c, "text_ar", where, ""),
                              template=template, origin=rid)
    return clauses, own_ids


def _needs(file: str, table: dict[str, Any], needed: tuple[str, ...], where: str, what: str, also: str) -> None:
    """A table of the file (``what``, the ``where``-th) with a key it needs missing: which one, and all it needs."""
    for k in needed:
        if k not in table:
            given = f" (this one has {', '.join(table)})" if table else ""
            raise SpecError(file, f"{where}.{k}", f"missing: every {what} needs {', '.join(needed[:-1])} and "
                                                  f"{needed[-1]}; {also}{given}")


def _check_changes_stated(file: str, rs: Ruleset, base: Ruleset, after: dict[str, Any], own_ids: set[str],
                          by_reading: set[str], own: list[Source]) -> None:
    """Every change the file makes is stated: a variant no rule document names in a clause of its own citing its
    own source, a rule switched on in its clause, and no inherited clause left stating an old value in fixed words
    (a parameter a selected reading sets aside: the clause says which reading it is read with)."""
    changed = rs.changed
    for p, cid in NO_DOCUMENT_PARAMS.items():
        if p in changed and after[p] not in _register_values(p):
            c = rs.clauses.get(cid)
            if cid not in own_ids or c is None or c.doc in _rule_documents():
                raise SpecError(file, f"params.{p}", f"{p} = {echo(after[p])} is a variant no rule document names, so "
                                "this file states it in its own words: " + _what_to_state(cid, c, own_ids, own))
    for p, cid in FEATURE_CLAUSES.items():
        if p in changed and after[p] and cid not in rs.clauses:
            raise SpecError(file, f"params.{p}", f"{p} = {echo(after[p])} is a rule the sheet must state: add a "
                                                 f"[[clause]] with id = \"{cid}\", heading and text (a template "
                                                 f"may name {{{p}}})")
    for cid, c in rs.clauses.items():
        key = f"clause {cid}"
        check_template(c.template, after, file, key + ".text")
        if c.text_ar:
            check_template(c.text_ar, after, file, key + ".text_ar")
        if cid in own_ids:
            continue
        stale = stale_clauses(c.template, cid, {k: v for k, v in changed.items() if k not in by_reading})
        if stale:
            raise SpecError(file, f"clause {cid}", stale_message(cid, stale, changed, base.id))


def _what_to_state(cid: str, c: Clause | None, own_ids: set[str], own: list[Source]) -> str:
    """What the file lacks to state a variant no rule document names in clause ``cid``, every missing part."""
    sid = f"\"{own[0].id}\"" if own else "the id of that [[source]]"
    need = [] if own else ["declare your club's rule sheet in a [[source]] table with id, publisher and published"]
    if cid not in own_ids or c is None:
        need.append(f"add a [[clause]] with id = \"{cid}\", heading, text (your words for the rule) and "
                    f"source = {sid}")
    else:
        need.append(f"its [[clause]] {cid} cites {c.doc}, a rule document: give it source = {sid}")
    return "; ".join(need)


def _check_sound(file: str, rs: Ruleset) -> None:
    """Refuse a configuration that could get stuck (at the option defaults), as ``load_rules`` would."""
    try:
        rules = build_rules(rs)
    except ConfigError as e:
        opt = next((o.name for o in rs.options if o.param == e.key or o.name == e.key), None)
        key = f"params.{e.key}" if e.key in rs.params else (f"defaults.{opt}" if opt else e.key)
        note = "" if e.key in rs.changed or not rs.changed else f" [this file changes {', '.join(rs.changed)}]"
        raise SpecError(file, key, e.reason + note) from None
    if config_problems(rules):
        raise RuntimeError(f"{file}: the configuration was refused and accepted at once")


def _rule_documents() -> set[str]:
    """The source ids of the rule documents the built-in rulesets cite (not a house file's own sources)."""
    return {rs.document for rs in rulesets().values()} | {c.doc for rs in rulesets().values() for c in rs.clauses.values()}


# ------------------------------------------------------------------ a house file written for a change

# a variant no rule document names, in the words a house file written for it states it (after its base's clause)
VARIANT_WORDS = {("score.failed13_defenders", "double"): "A failed bid of 13 pays the defenders twice the tricks "
                                                         "they took."}


def toml_value(v: Any) -> str:
    """``v`` as a TOML value: true/false, a number, a text in double quotes (escaped as JSON does, which TOML
    reads alike), a list."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


def house_text(base: Ruleset, extends: str, changes: Mapping[str, Any], why: Sequence[str] = ()) -> str:
    """A complete house file extending ``base`` (``extends``: how the file names it, an id or a path) that sets each
    parameter of ``changes`` to its value (through its option's default where an option of ``base`` sets it) and
    states what the loader asks of such a change: its own [[source]], and a [[clause]] for a variant no rule
    document names (the base's clause with the variant's words after it) or a rule it switches on. ``why``: the
    lines of its opening comment. A change an inherited clause states in fixed words is left to the loader to
    refuse, naming the clause."""
    rid = f"{base.id}-house"
    sid = f"{rid}-sheet"
    by_param = {o.param: o for o in base.options}
    what = "; ".join(VARIANT_WORDS.get((p, v), f"{p} is {v}").rstrip(".") for p, v in changes.items())
    what = what[:1].lower() + what[1:]
    out = [f"# {line}" for line in why] + [
        "# Replace the [[source]] with where your club's rules are written, and word the clause as your sheet does.",
        "schema = 1",
        f"id = {toml_value(rid)}",
        f"extends = {toml_value(extends)}",
        f"name = {toml_value(base.id + ' with house rules')}",
        f"summary = {toml_value(f'The rules of {base.id}, with a house rule: {what}.')}",
        "",
        "[[source]]",
        f"id = {toml_value(sid)}",
        'publisher = "the club whose records these are"',
        'title = "House rules"',
        'published = "not yet: written by tarneeb verify from the records"',
    ]
    params = {p: v for p, v in changes.items() if p not in by_param}
    defaults = {by_param[p].name: v for p, v in changes.items() if p in by_param}
    if params:
        out += ["", "[params]"] + [f"{p} = {toml_value(v)}" for p, v in params.items()]
    if defaults:
        out += ["", "[defaults]"] + [f"{name} = {toml_value(v)}" for name, v in defaults.items()]
    for p, v in changes.items():
        if p in NO_DOCUMENT_PARAMS and v not in _register_values(p):
            cid = NO_DOCUMENT_PARAMS[p]
            c = base.clauses.get(cid)
            words = VARIANT_WORDS.get((p, v), f"This club plays {p} = {v}.")
            out += _clause_lines(cid, c.heading if c else "House rules", f"{c.template} {words}" if c else words, sid)
        elif p in FEATURE_CLAUSES and v and FEATURE_CLAUSES[p] not in base.clauses:
            out += _clause_lines(FEATURE_CLAUSES[p], "House rules", f"This club plays {p} = {{{p}}}.", sid)
    return "\n".join(out) + "\n"


def _clause_lines(cid: str, heading: str, text: str, sid: str) -> list[str]:
    return ["", "[[clause]]", f"id = {toml_value(cid)}", f"heading = {toml_value(heading)}", f"source = {toml_value(sid)}",
            f"text = {toml_value(text)}"]
