"""The option variants the steered matches run per ruleset, and the configurations (readings of the register) they
run under."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from tarneeb.core.ambiguity import with_readings
from tarneeb.core.spec import Option, OptionValue, Rules, Ruleset, get_ruleset, load_rules
from tarneeb_proofs.obligations import engine_reading_variants

# options that act together: the steering runs the full product of each group's values (every other option at its
# default in that row; rows are shared between groups where they do not conflict, so every value of every option
# is run, and every combination within a group)
GROUPS: tuple[tuple[str, ...], ...] = (
    ("scoring", "kaboot", "bid13"),
    ("auction", "all_pass", "egyptian", "min_bid"),
    ("bid_total_min", "rising_min_bid", "made_bid_wins"),
    ("direction", "must_trump", "egyptian"),
    ("weak_redeal", "all_pass", "auction"),
    ("target", "play_on"),
    ("trump_source", "made_bid_wins"),
)
PLAY_ON_RAISES = (0, 10)  # the values of an integer option given by a range (play_on): off and a raise

# the ambiguities of spec/ambiguities.toml whose readings change what the match machine does (who deals first, play
# on, a made 10's partner, a total rising with the scores, classic's deal in packets, the weak seats' choice, the
# timer's card, the 400 mode's direction): the steered matches run under each selectable reading a ruleset does not
# take (tests/test_readings_selected.py asserts every selectable ambiguity is run by prove or here)
MATCH_READINGS = ("first-dealer", "play-on-count", "bid10-partner", "raised-total", "classic-deal-order", "weak-hand",
                  "weakest-card", "400-direction")

Options = tuple[tuple[str, OptionValue], ...]
Readings = tuple[tuple[str, str], ...]


def option_values(o: Option) -> tuple[OptionValue, ...]:
    """The values of ``o`` the variants run: its allowed values, or off and a raise for a range (play_on)."""
    if o.allowed:
        return tuple(o.allowed)
    if o.range is not None:
        lo, hi = o.range
        return tuple(sorted({max(lo, min(hi, v)) for v in PLAY_ON_RAISES}))
    return (o.default,)


def variants(rs: Ruleset, base: Mapping[str, OptionValue] | None = None) -> list[dict[str, OptionValue]]:
    """The option variants run for ``rs``: a covering of ``GROUPS`` (each group's full product) and of every other
    option's values, the rest of each row from ``base`` (default: the defaults)."""
    opts = {o.name: o for o in rs.options}
    base_v: dict[str, OptionValue] = {**rs.defaults(), **dict(base or {})}
    groups = [tuple(n for n in g if n in opts) for g in GROUPS]
    grouped = {n for g in groups for n in g}
    groups += [(n,) for n in opts if n not in grouped]
    groups = [g for g in groups if g]
    groups.sort(key=lambda g: -len(list(itertools.product(*[option_values(opts[n]) for n in g]))))
    rows: list[dict[str, OptionValue]] = []
    for g in groups:
        for combo in itertools.product(*[option_values(opts[n]) for n in g]):
            want = dict(zip(g, combo, strict=True))
            for row in rows:
                if all(row.get(k, v) == v for k, v in want.items()):
                    row.update(want)
                    break
            else:
                rows.append(dict(want))
    out: list[dict[str, OptionValue]] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for row in rows or [{}]:
        full = {**base_v, **row}
        key = tuple(sorted((k, repr(v)) for k, v in full.items()))
        if key not in seen:
            seen.add(key)
            out.append(full)
    return out


def variant_label(rs: Ruleset, opts: Mapping[str, OptionValue]) -> str:
    """The options that differ from the defaults, ``k=v`` joined by commas, or "default"; then each reading of the
    register the ruleset follows over its own (``;reading ID=READING``, as prove's check ids end)."""
    d = rs.defaults()
    diff = [f"{k}={_fmt(v)}" for k, v in sorted(opts.items()) if d.get(k) != v]
    return (",".join(diff) or "default") + "".join(f";reading {a}={x}" for a, x in sorted(rs.readings.items()))


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def match_configs(rid: str) -> list[tuple[Options, Readings]]:
    """The configurations the steered matches of ``rid`` run under (each with every option variant of
    :func:`variants`): the ruleset as it is, and each selectable reading of :data:`MATCH_READINGS` it does not take,
    at the options where the rules the engine is given differ (:func:`tarneeb_proofs.obligations.engine_reading_variants`,
    as the engine family's stages run them)."""
    out: list[tuple[Options, Readings]] = [((), ())]
    out += [(opts, rd) for opts, rd in engine_reading_variants(rid, [()]) if rd[0][0] in MATCH_READINGS]
    return out


def configured_rules(rid: str, options: Mapping[str, OptionValue], readings: Mapping[str, str]) -> Rules:
    """The rules of ``rid`` with ``options``, under ``readings`` of the register over the ruleset's own."""
    if not readings:
        return load_rules(rid, dict(options))
    return load_rules(with_readings(get_ruleset(rid), dict(readings)), dict(options))


def config_label(rid: str, options: Options, readings: Readings) -> str:
    """A configuration as prove's check ids named it: ``ruleset:options;reading ID=READING``."""
    opts = ",".join(f"{k}={_fmt(v)}" for k, v in options) or "default"
    return f"{rid}:{opts}" + "".join(f";reading {a}={r}" for a, r in readings)
