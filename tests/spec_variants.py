"""Every built-in ruleset as it is, at each value of each of its options, and under each reading of each ambiguity it
lets a table select -- all taken from the spec, for tests that must hold under every one of them."""

from __future__ import annotations

from collections.abc import Iterator

from tarneeb.core.ambiguity import rules_under, selectable_readings
from tarneeb.core.model import Option, OptionValue
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.errors import ConfigError

Variant = tuple[str, dict[str, OptionValue], dict[str, str]]  # (ruleset, options, readings)


def values(o: Option) -> list[OptionValue]:
    """The values the spec lets ``o`` take: both booleans, each allowed value, a range's two ends."""
    if o.type == "bool":
        return [False, True]
    if o.range is not None:
        return sorted(set(o.range))
    return list(o.allowed)


def variants() -> Iterator[Variant]:
    """(ruleset, options, readings): every built-in ruleset as it is, at each value of each of its options, and under
    each reading of each ambiguity it lets a table select -- all from the spec."""
    for rid, rs in sorted(rulesets().items()):
        yield rid, {}, {}
        for o in rs.options:
            for v in values(o):
                try:
                    load_rules(rid, {o.name: v})
                except ConfigError:
                    continue
                yield rid, {o.name: v}, {}
        for a in selectable_readings(rs):
            for reading, _ in a.readings:
                yield rid, {}, {a.id: reading}


VARIANTS: list[Variant] = list(variants())


IDS = [f"{r}-{'-'.join(f'{k}={v}' for k, v in {**o, **rd}.items()) or 'as-is'}" for r, o, rd in VARIANTS]


def variant_rules(rid: str, options: dict[str, OptionValue], readings: dict[str, str]) -> Rules:
    """The rules of a variant."""
    rules = load_rules(rid, options)
    return rules_under(rules, readings) if readings else rules
