"""A house file reaches the rules with every option value and every reading the spec lets it choose.

For each built-in ruleset and each option it declares, the values are taken from the ruleset's own data: both
booleans, every enumerated value, a range's two ends, the value above its lower end, and 0 where the schema allows
it; and next to them values the spec refuses (a wrong type, a value just outside, 0 where it is not allowed). A
house file setting one value under ``[defaults]`` is loaded as the CLI loads ``--ruleset FILE``
(:func:`tarneeb.cli.common.rules_from_args`) and must give the :class:`Rules` that the built-in ruleset with that
option given directly gives (``--option NAME=VALUE``); a value the spec refuses is refused by the file too, naming
the file, ``defaults.NAME`` and the same reason.

Each value is set twice: over the built-in, and over a house file that first sets the option to another value.
Over the built-in a value dropped on the way (``false``, ``0``, the base's own default) would fall back to the
very same value, as every falsy option value the built-ins allow is their default; over the other value it shows.

The readings of the ambiguity register a ruleset's file may select (``[readings]``) are checked the same way,
against ``--reading AMBIGUITY=READING``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tarneeb.cli import main
from tarneeb.cli.common import rules_from_args
from tarneeb.core.ambiguity import selectable_readings
from tarneeb.core.house import FEATURE_CLAUSES
from tarneeb.core.model import Option, OptionValue, Rules, Ruleset
from tarneeb.core.prose import stale_clauses
from tarneeb.core.spec import load_rules, rulesets
from tarneeb.errors import ConfigError, SpecError

OPTIONS = [(rid, o.name) for rid, rs in rulesets().items() for o in rs.options]
READINGS = [(rid, a.id) for rid, rs in rulesets().items() for a in selectable_readings(rs)]


# ------------------------------------------------------------------ the values, from the spec data

def values_taken(o: Option) -> list[OptionValue]:
    """Every value ``o`` may take: both booleans, each allowed value, or a range's ends, 0 and the value above
    its lower end."""
    if o.type == "bool":
        return [False, True]
    if o.range is not None:
        lo, hi = o.range
        return sorted({lo, min(lo + 1, hi), hi} | ({0} if lo <= 0 <= hi else set()))
    return list(o.allowed)


def values_refused(o: Option) -> list[object]:
    """Values the spec refuses for ``o``: another type (a number for a boolean, a boolean for a number, a number
    for a choice), a number just outside what it allows and 0 when it is not allowed, an unknown or empty choice."""
    if o.type == "bool":
        candidates: list[object] = [0, 1]
    elif o.type == "int":
        ints = [int(v) for v in o.allowed] if o.range is None else list(o.range)
        candidates = [False, True, min(ints) - 1, max(ints) + 1, 0]
    else:
        candidates = ["", f"no-such-{o.name}", 0]
    taken = values_taken(o)
    return [v for v in candidates if not any(v == t and type(v) is type(t) for t in taken)]


def toml_value(v: object) -> str:
    """``v`` written in TOML (a boolean, integer or string: JSON writes these alike)."""
    return json.dumps(v)


# ------------------------------------------------------------------ loading as the CLI does

def cli_rules(ruleset: str, options: dict[str, str] | None = None, readings: dict[str, str] | None = None) -> Rules:
    """The rules ``tarneeb simulate --ruleset RULESET [--option K=V ...] [--reading A=R ...]`` plays."""
    args = argparse.Namespace(ruleset=ruleset, option=[f"{k}={v}" for k, v in (options or {}).items()],
                              reading=[f"{k}={v}" for k, v in (readings or {}).items()])
    return rules_from_args(args)


def engine_view(rules: Rules) -> dict[str, tuple[str, object]]:
    """What the engine reads of ``rules``, each field with the type of its value (``0`` is not ``False``); the
    ruleset itself (its id, clauses) aside, which a house file changes by being one."""
    view = {f: (type(getattr(rules, f)).__name__, getattr(rules, f)) for f in rules.value_fields() if f != "ruleset"}
    view["option types"] = ("", [(k, type(v).__name__) for k, v in rules.options])
    return view


class HouseFiles:
    """Writes house files into a folder, each with its own id."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def write(self, base: str, body: str) -> Path:
        self.count += 1
        hid = f"house-{self.count}"
        path = self.folder / f"{hid}.toml"
        path.write_text(f'schema = 1\nid = "{hid}"\nextends = "{base}"\nname = "n"\nsummary = "s"\n{body}',
                        encoding="utf-8")
        return path


@pytest.fixture
def houses(tmp_path: Path) -> HouseFiles:
    return HouseFiles(tmp_path)


def restated(rs: Ruleset, param: str) -> str:
    """``[[clause]]`` tables a file changing ``param`` over ``rs`` needs, each a template naming it: one for every
    clause of ``rs`` that states ``param`` in fixed words, and the clause of a rule ``param`` switches on
    (tests/test_house.py). The engine's rules do not depend on the wording."""
    cids = {cid for cid, c in rs.clauses.items() if stale_clauses(c.template, cid, {param: (None, None)})}
    cids |= {FEATURE_CLAUSES[param]} if param in FEATURE_CLAUSES else set()
    return "".join(f'\n[[clause]]\nid = "{cid}"\nheading = "House"\ntext = "Here {param} is {{{param}}}."\n'
                   for cid in sorted(cids))


def option_bases(houses: HouseFiles, rid: str, o: Option, value: object) -> Iterator[tuple[str, str]]:
    """The bases a file setting ``o`` to ``value`` is checked over, each with what it is: the built-in ``rid``,
    then a house file of ``rid`` setting ``o`` to another value it may take (when there is one)."""
    yield rid, "built-in"
    other = next((v for v in values_taken(o) if v != value or type(v) is not type(value)), None)
    if other is not None:
        mid = houses.write(rid, f"[defaults]\n{o.name} = {toml_value(other)}\n" + restated(rulesets()[rid], o.param))
        yield str(mid), f"over {o.name} = {toml_value(other)}"


# ------------------------------------------------------------------ options

def test_the_values_come_from_the_spec_and_cover_every_kind() -> None:
    """The options checked are every built-in ruleset's, and among them a boolean, an enumerated integer, an
    integer range with 0 in it and a choice; the values taken include false and 0."""
    opts = [rulesets()[rid].option(name) for rid, name in OPTIONS]
    assert len(OPTIONS) == sum(len(rs.options) for rs in rulesets().values()) > 0
    assert {o.type for o in opts} == {"bool", "int", "choice"}
    assert any(o.range is not None and 0 in values_taken(o) for o in opts)
    assert any(o.type == "int" and o.range is None for o in opts)
    taken = [v for o in opts for v in values_taken(o)]
    assert any(v is False for v in taken) and any(v == 0 and not isinstance(v, bool) for v in taken)


@pytest.mark.parametrize(("rid", "name"), OPTIONS, ids=[f"{r}-{n}" for r, n in OPTIONS])
def test_a_house_file_sets_every_value_an_option_may_take(rid: str, name: str, houses: HouseFiles) -> None:
    o = rulesets()[rid].option(name)
    for value in values_taken(o):
        direct = engine_view(load_rules(rid, {name: value}))
        for base, over in option_bases(houses, rid, o, value):
            path = houses.write(base, f"[defaults]\n{name} = {toml_value(value)}\n" + restated(rulesets()[rid], o.param))
            rules = cli_rules(str(path))
            assert engine_view(rules) == direct, (name, value, over)
            assert rules.ruleset.option(name).default == value, (name, value, over)


@pytest.mark.parametrize(("rid", "name"), OPTIONS, ids=[f"{r}-{n}" for r, n in OPTIONS])
def test_a_house_file_refuses_what_the_spec_refuses(rid: str, name: str, houses: HouseFiles,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    o = rulesets()[rid].option(name)
    for value in values_refused(o):
        with pytest.raises(ConfigError) as spec:
            load_rules(rid, {name: value})
        for base, over in option_bases(houses, rid, o, value):
            path = houses.write(base, f"[defaults]\n{name} = {toml_value(value)}\n")
            with pytest.raises(SpecError) as house:
                cli_rules(str(path))
            assert (house.value.file, house.value.key) == (str(path), f"defaults.{name}"), (value, over)
            assert house.value.reason == spec.value.reason, (value, over)
            rc = main(["simulate", "--ruleset", str(path)])
            err = capsys.readouterr().err
            assert rc == 2 and "Traceback" not in err and err.count("\n") == 1, (value, over, err)
            line = path.read_text(encoding="utf-8").splitlines().index(f"{name} = {toml_value(value)}") + 1
            assert house.value.line == line, (value, over, house.value.line)
            assert f"{path}:{line}: defaults.{name}: {spec.value.reason}" in err, (value, over, err)


# ------------------------------------------------------------------ readings

@pytest.mark.parametrize(("rid", "aid"), READINGS, ids=[f"{r}-{a}" for r, a in READINGS])
def test_a_house_file_selects_every_reading(rid: str, aid: str, houses: HouseFiles) -> None:
    """Each reading of a selectable ambiguity, set in ``[readings]`` over the built-in and over a house file that
    selects another reading, gives the rules ``--reading`` gives, and the file records the choice and states it in
    the clauses it concerns as ``--reading`` does."""
    a = next(x for x in selectable_readings(rulesets()[rid]) if x.id == aid)
    for reading in a.params:
        direct = cli_rules(rid, readings={aid: reading})
        other = next(r for r in a.params if r != reading)
        mid = houses.write(rid, f'[readings]\n{aid} = "{other}"\n')
        for base, over in ((rid, "built-in"), (str(mid), f"over {aid} = {other}")):
            path = houses.write(base, f'[readings]\n{aid} = "{reading}"\n')
            rules = cli_rules(str(path))
            assert engine_view(rules) == engine_view(direct), (reading, over)
            assert rules.ruleset.readings == direct.ruleset.readings, (reading, over)
            for cid in a.clauses:  # a clause the reading changes says which reading it is read with, once
                if cid in direct.ruleset.clauses:
                    assert rules.ruleset.clauses[cid].text == direct.ruleset.clauses[cid].text, (reading, over, cid)


@pytest.mark.parametrize(("rid", "aid"), READINGS, ids=[f"{r}-{a}" for r, a in READINGS])
def test_a_house_file_refuses_a_reading_the_register_has_not(rid: str, aid: str, houses: HouseFiles) -> None:
    with pytest.raises(ConfigError) as spec:
        cli_rules(rid, readings={aid: "no-such-reading"})
    path = houses.write(rid, f'[readings]\n{aid} = "no-such-reading"\n')
    with pytest.raises(SpecError) as house:
        cli_rules(str(path))
    assert (house.value.file, house.value.key) == (str(path), f"readings.{aid}=no-such-reading")
    assert house.value.reason == spec.value.reason
