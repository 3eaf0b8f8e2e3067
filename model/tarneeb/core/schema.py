"""Rulesets as data: the parameters the engine understands, the built-in rulesets of ``spec/rulesets/*.toml``,
and :class:`~tarneeb.core.model.Rules` resolved from a ruleset at its option values, validated.

The engine reads only the :class:`Rules` produced here; nothing rule-specific
is written in code that a ruleset file could say. Loading validates the whole
configuration (OpenSpiel's ``oh_hell`` accepts option combinations that later
get stuck; we refuse them up front with the reason). Ruleset files of a user's own (house rules) are loaded by
:mod:`tarneeb.core.house` into a catalog (:mod:`tarneeb.core.spec`), above this module.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from tarneeb.core.cards import SUITS
from tarneeb.core.model import Clause, Option, OptionValue, Rules, Ruleset
from tarneeb.core.paths import spec_dir
from tarneeb.core.prose import render
from tarneeb.core.rules import legal_bids
from tarneeb.errors import ConfigError, SpecError, echo, os_error_words

# ---------------------------------------------------------------- schema
# Every parameter the engine understands: name -> (kind, allowed values or None).
# kinds: choice, int, bool, ints (list of int), pairs (list of [int, int]).
_COMMON: dict[str, tuple[str, tuple[Any, ...] | None]] = {
    "family": ("choice", ("individual", "auction")),
    "direction": ("choice", ("ccw", "cw")),
    "first_dealer": ("choice", ("random", "seat0")),
    "trump.source": ("choice", ("fixed", "revealed-same-colour", "revealed-suit", "contract")),
    "trump.fixed_suit": ("choice", ("", "C", "D", "H", "S")),
    "redeal.dealer": ("choice", ("same", "next")),
    "tie.rule": ("choice", ("combined", "top", "bidding-team")),
    "timer.auto_bid": ("int", None),
    "timer.auto_play": ("choice", ("", "lowest-non-trump", "lowest-rank")),
    "win.target": ("int", None),
}
_INDIVIDUAL: dict[str, tuple[str, tuple[Any, ...] | None]] = {
    "bid.min": ("int", None),
    "bid.max": ("int", None),
    "bid.excluded": ("ints", None),
    "bid.rising_min": ("bool", None),
    "bid.rising_table": ("pairs", None),
    "bid.total_min": ("int", None),
    "score.values": ("ints", None),
    "win.made_bid_wins": ("int", None),
}
_AUCTION: dict[str, tuple[str, tuple[Any, ...] | None]] = {
    "auction.min_bid": ("int", None),
    "auction.style": ("choice", ("dealer-privilege", "continuous")),
    "auction.all_pass": ("choice", ("redeal-next", "dealer-forced")),
    "auction.egyptian": ("bool", None),
    "play.must_trump": ("bool", None),
    "deal.weak_redeal": ("bool", None),
    "score.style": ("choice", ("standard", "bid-only")),
    "score.kaboot": ("choice", ("16", "26", "double", "none")),
    "score.bid13": ("choice", ("win", "26", "normal")),
    "win.play_on_raise": ("int", None),
}
# Parameters that select a reading of the ambiguity register (spec/ambiguities.toml: each selectable reading
# names its values) or a variant no document names (a house-rule file may state it); a ruleset may leave them
# out, and takes the first value, the default.
_AUCTION_READINGS: dict[str, tuple[str, tuple[Any, ...] | None]] = {
    "score.defender_kaboot": ("choice", ("either-team", "bidders-only")),
    "score.kaboot_double_defenders": ("choice", ("double-own", "usual")),
    "score.bid_only_kaboot": ("choice", ("bidders-replace", "no-kaboot")),
    "score.bid13_kaboot": ("choice", ("bid13-first", "kaboot-first")),
    "score.failed13_defenders": ("choice", ("usual", "double")),
    "auction.forced_bid": ("choice", ("at-least", "exactly")),
    "auction.dealer_match": ("choice", ("exact-bid", "same-number-any-strain")),
    "win.play_on_count": ("choice", ("once", "repeated")),
    "deal.weak_claim": ("choice", ("automatic-next", "claimed")),
}
# Likewise for the individual family (bid10-partner is about its made bid that wins, win.made_bid_wins), and a table
# or list a reading names (an empty one is the default, the reading a ruleset takes when it leaves the parameter
# out); a house-rule file may state another (of the individual family; the deal's, of either).
_INDIVIDUAL_READINGS: dict[str, tuple[str, tuple[Any, ...] | None]] = {
    "win.made_bid_partner": ("choice", ("outright", "partner-positive")),
    "bid.total_table": ("pairs", None),  # raised-total: (score threshold, total) pairs; [] for a fixed total
}
_COMMON_READINGS: dict[str, tuple[str, tuple[Any, ...] | None]] = {
    "deal.packets": ("ints", None),  # classic-deal-order: the packet sizes each seat receives in turn; [] singly
}
READING_DEFAULTS: dict[str, Any] = {
    **{k: allowed[0] for k, (_, allowed) in {**_AUCTION_READINGS, **_INDIVIDUAL_READINGS}.items() if allowed},
    "bid.total_table": [], "deal.packets": []}
PARAMS = {**_COMMON, **_INDIVIDUAL, **_AUCTION, **_AUCTION_READINGS, **_INDIVIDUAL_READINGS, **_COMMON_READINGS}

# Clause ids the engine cites, by family; a ruleset must define each.
CLAUSES_COMMON = (
    "seats.partners", "deal.deck", "deal.order", "deal.first-dealer", "deal.rotation",
    "play.direction", "trump.source", "play.lead", "play.follow", "play.winner",
    "play.next-lead", "hand.tricks", "score.negative", "win.target", "tie.both-qualify",
)
CLAUSES_INDIVIDUAL = (
    "bid.turn", "bid.meaning", "bid.range", "bid.no-pass", "bid.total", "redeal.dealer",
    "score.individual", "score.values", "score.extra", "win.qualify",
)
CLAUSES_AUCTION = (
    "auction.order", "auction.range", "auction.raise", "auction.dealer-privilege",
    "auction.continuous", "auction.all-pass", "auction.egyptian", "play.must-trump",
    "deal.weak-redeal", "score.standard", "score.bid-only", "score.kaboot", "score.bid13",
    "win.play-on",
)


# ---------------------------------------------------------------- loading

def _check_param(file: str, key: str, value: Any) -> None:
    if key not in PARAMS:
        raise SpecError(file, f"params.{key}", f"unknown parameter; valid: {', '.join(sorted(PARAMS))}")
    kind, allowed = PARAMS[key]
    ok: bool
    if kind == "choice":
        ok = isinstance(value, str) and (allowed is None or value in allowed)
    elif kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "ints":
        ok = isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    else:  # pairs
        ok = isinstance(value, list) and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p) for p in value
        )
    if not ok:
        want = f"one of {', '.join(repr(a) for a in allowed)}" if allowed else f"a value of kind {kind}"
        raise SpecError(file, f"params.{key}", f"{echo(value)} is not {want}")


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, name + "."))
        else:
            out[name] = v
    return out


def _req(file: str, table: dict[str, Any], key: str, where: str, kind: type = str) -> Any:
    if key not in table:
        raise SpecError(file, f"{where}.{key}", "missing")
    v = table[key]
    if not isinstance(v, kind):
        raise SpecError(file, f"{where}.{key}", f"{echo(v)} should be of type {kind.__name__}")
    return v


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file (a UTF-8 byte-order mark is accepted); an unreadable or malformed one is a located SpecError."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as e:
        raise SpecError(str(path), "(toml)", str(e)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(str(path), "(file)", f"cannot read: {os_error_words(e)}") from None


def check_keys(file: str, table: dict[str, Any], known: Sequence[str], where: str = "") -> None:
    """Only ``known`` keys in ``table`` (a ruleset file's top level, or the table at ``where``)."""
    for k in table:
        if k not in known:
            raise SpecError(file, f"{where}.{k}" if where else k, f"unknown key; valid: {', '.join(sorted(known))}")


def check_top(file: str, raw: dict[str, Any], known: Sequence[str]) -> None:
    """The top level of a ruleset file: only ``known`` keys, and schema 1."""
    check_keys(file, raw, known)
    if raw.get("schema") != 1:
        raise SpecError(file, "schema", f"{echo(raw.get('schema'))}: only schema 1 is understood")


def load_ruleset_file(path: Path) -> Ruleset:
    file = str(path)
    raw = read_toml(path)
    check_top(file, raw, ("schema", "id", "name", "document", "publisher", "summary", "params", "option", "clause"))
    rid = _req(file, raw, "id", "(top)")
    document = _req(file, raw, "document", "(top)")
    params = _flatten(_req(file, raw, "params", "(top)", dict))
    for k, v in params.items():
        _check_param(file, k, v)
    options: list[Option] = []
    for i, o in enumerate(raw.get("option", [])):
        where = f"option[{i}]"
        check_keys(file, o, ("name", "param", "type", "default", "allowed", "range", "meaning", "heading", "doc"), where)
        name = _req(file, o, "name", where)
        param = _req(file, o, "param", where)
        if param not in PARAMS:
            raise SpecError(file, f"{where}.param", f"unknown parameter {echo(param)}")
        if param in params:
            raise SpecError(file, f"{where}.param", f"{param} is set in [params] and by option {name}; set it once")
        otype = _req(file, o, "type", where)
        if otype not in ("bool", "int", "choice"):
            raise SpecError(file, f"{where}.type", f"{echo(otype)}; valid: bool, int, choice")
        rng = o.get("range")
        opt = Option(
            name=name, param=param, type=otype, default=o.get("default"),
            allowed=tuple(o.get("allowed", ())), range=(int(rng[0]), int(rng[1])) if rng else None,
            meaning=_req(file, o, "meaning", where), doc=o.get("doc", document),
            heading=_req(file, o, "heading", where),
        )
        if not opt.allowed and opt.range is None:
            raise SpecError(file, f"{where}.allowed", "give allowed values or a range")
        try:
            opt.coerce(rid, opt.default)
            for a in opt.allowed:
                _check_param(file, param, a)
        except ConfigError as e:
            raise SpecError(file, f"{where}.default", str(e)) from None
        options.append(opt)
    names = [o.name for o in options]
    if len(set(names)) != len(names):
        raise SpecError(file, "option", "duplicate option names")
    clauses: dict[str, Clause] = {}
    for i, c in enumerate(raw.get("clause", [])):
        where = f"clause[{i}]"
        check_keys(file, c, ("id", "text", "text_ar", "heading", "doc"), where)
        cid = _req(file, c, "id", where)
        if cid in clauses:
            raise SpecError(file, f"{where}.id", f"duplicate clause id {cid}")
        template = _req(file, c, "text", where)
        clauses[cid] = Clause(
            id=cid, text=template, doc=c.get("doc", document),
            heading=_req(file, c, "heading", where), text_ar=c.get("text_ar", ""), template=template, origin=rid,
        )
    family = params.get("family")
    required_params = set(_COMMON) | (set(_INDIVIDUAL) if family == "individual" else set(_AUCTION))
    given = set(params) | {o.param for o in options}
    for k in sorted(required_params - given):
        raise SpecError(file, f"params.{k}", f"missing (family {family} needs it)")
    for k in sorted(given - required_params - (set(_AUCTION_READINGS) if family == "auction" else set())):
        raise SpecError(file, f"params.{k}", f"not a parameter of family {family}")
    needed = CLAUSES_COMMON + (CLAUSES_INDIVIDUAL if family == "individual" else CLAUSES_AUCTION)
    for cid in needed:
        if cid not in clauses:
            raise SpecError(file, f"clause {cid}", "missing: the engine cites this clause")
    rs = Ruleset(
        id=rid, name=_req(file, raw, "name", "(top)"), document=document,
        publisher=_req(file, raw, "publisher", "(top)"), summary=_req(file, raw, "summary", "(top)"),
        path=file, params=params, options=tuple(options), clauses=clauses, lineage=(rid,),
    )
    return with_rendered_clauses(rs)


def with_rendered_clauses(rs: Ruleset) -> Ruleset:
    """``rs`` with every clause text rendered from its template at the option defaults."""
    p = rs.effective_params()
    for cid, c in rs.clauses.items():
        text = render(c.template or c.text, p, rs.path, f"clause {cid}.text")
        if text != c.text:
            rs.clauses[cid] = replace(c, text=text)
    return rs


@cache
def _all_rulesets(root: str) -> dict[str, Ruleset]:
    out: dict[str, Ruleset] = {}
    folder = Path(root) / "rulesets"
    if not folder.is_dir():
        raise SpecError(str(folder), "(folder)", "no rulesets folder; set TARNEEB_SPEC_DIR to the spec/ folder")
    for p in sorted(folder.glob("*.toml")):
        rs = load_ruleset_file(p)
        if rs.id != p.stem:
            raise SpecError(str(p), "id", f"{echo(rs.id)} does not match the file name {echo(p.stem)}")
        out[rs.id] = rs
    return out


def rulesets() -> dict[str, Ruleset]:
    """All rulesets by id, in file order."""
    return _all_rulesets(str(spec_dir()))


def parse_option_args(items: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` from the command line into a dict (values still text)."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise ConfigError("(command line)", item, "an option is written name=value")
        k, v = item.split("=", 1)
        k = k.strip()
        if k in out:
            raise ConfigError("(command line)", k, f"--option {k} is given twice ({echo(out[k])} and {echo(v.strip())}); give it once")
        out[k] = v.strip()
    return out


def build_rules(rs: Ruleset, options: Mapping[str, object] | None = None) -> Rules:
    """``rs`` with option values resolved into :class:`Rules`, validating the whole configuration (the options'
    values, then :func:`config_problems`)."""
    values: dict[str, OptionValue] = rs.defaults()
    for k, v in (options or {}).items():
        values[k] = rs.option(k).coerce(rs.id, v)
    p = dict(rs.params)
    for o in rs.options:
        p[o.param] = values[o.name]
    rules = _build(rs, p, values)
    problems = config_problems(rules)
    if problems:
        key, why = problems[0]
        raise ConfigError(rs.id, key, why + " (configuration refused)")
    return rules


def _build(rs: Ruleset, p: dict[str, Any], values: dict[str, OptionValue]) -> Rules:
    fixed = p["trump.fixed_suit"]
    common: dict[str, Any] = dict(
        ruleset=rs, options=tuple(sorted(values.items())), option_map=dict(values),
        family=p["family"], step=1 if p["direction"] == "ccw" else 3,
        trump_source=p["trump.source"],
        fixed_suit=SUITS.index(fixed) if fixed and p["trump.source"] == "fixed" else -1,
        redeal_same_dealer=p["redeal.dealer"] == "same", tie_rule=p["tie.rule"],
        auto_bid=p["timer.auto_bid"], auto_play=p["timer.auto_play"], target=p["win.target"],
        first_dealer=p["first_dealer"], deal_packets=tuple({**READING_DEFAULTS, **p}["deal.packets"]),
    )
    if p["family"] == "individual":
        vals = list(p["score.values"])
        if len(vals) != p["bid.max"] - p["bid.min"] + 1:
            raise SpecError(rs.path, "params.score.values",
                            f"{len(vals)} values for bids {p['bid.min']}..{p['bid.max']}")
        return Rules(
            **common, bid_min=p["bid.min"], bid_max=p["bid.max"],
            bid_excluded=frozenset(p["bid.excluded"]), rising_min=p["bid.rising_min"],
            rising_table=tuple((a, b) for a, b in p["bid.rising_table"]),
            total_min=p["bid.total_min"], values=tuple([0] * p["bid.min"] + vals),
            made_bid_wins=p["win.made_bid_wins"], made_bid_partner={**READING_DEFAULTS, **p}["win.made_bid_partner"],
            total_table=tuple((a, b) for a, b in {**READING_DEFAULTS, **p}["bid.total_table"]),
        )
    return Rules(
        **common, min_bid=p["auction.min_bid"], auction_style=p["auction.style"],
        all_pass=p["auction.all_pass"], egyptian=p["auction.egyptian"],
        must_trump=p["play.must_trump"], weak_redeal=p["deal.weak_redeal"],
        score_style=p["score.style"], kaboot=p["score.kaboot"], bid13=p["score.bid13"],
        play_on_raise=p["win.play_on_raise"],
        **{k.split(".", 1)[1]: v for k, v in {**READING_DEFAULTS, **p}.items() if k in _AUCTION_READINGS},
    )


def min_levels(rules: Rules) -> list[tuple[int, int]]:
    """(score threshold, minimum bid) pairs in force; the first is (-inf-ish, bid_min)."""
    levels = [(-(10**9), rules.bid_min)]
    if rules.rising_min:
        levels += list(rules.rising_table)
    return levels


def _fmt_list(xs: list[int]) -> str:
    return ", ".join(str(x) for x in xs) or "none"


def _legal_bids_at_zero(rules: Rules) -> list[int]:
    return legal_bids(rules, 0)


def config_problems(rules: Rules) -> list[tuple[str, str]]:
    """Reasons a configuration could get stuck or contradict itself; empty when sound."""
    out: list[tuple[str, str]] = []
    if rules.target <= 0:
        out.append(("win.target", f"target {rules.target} is reached before any hand is played"))
    if rules.trump_source == "fixed" and rules.fixed_suit < 0:
        out.append(("trump.fixed_suit", "fixed trump needs a suit"))
    if rules.deal_packets and (sum(rules.deal_packets) != 13 or min(rules.deal_packets) < 1):
        out.append(("deal.packets", f"packets of {', '.join(map(str, rules.deal_packets))} cards do not deal each seat "
                                    f"13 cards (they sum to {sum(rules.deal_packets)}; each packet holds at least one card)"))
    if rules.individual:
        if rules.trump_source == "contract":
            out.append(("trump.source", "individual bidding has no contract to name trump"))
        if rules.tie_rule == "bidding-team":
            out.append(("tie.rule", "individual bidding has no bidding team"))
        if not 1 <= rules.bid_min <= rules.bid_max <= 13:
            out.append(("bid.range", f"bid range {rules.bid_min}..{rules.bid_max} is not inside 1..13"))
        for threshold, lo in min_levels(rules):
            legal = [b for b in range(lo, rules.bid_max + 1) if b not in rules.bid_excluded]
            at = max(threshold, 0)
            if not legal:
                why = (f"the minimum {lo} is above the highest bid {rules.bid_max}" if lo > rules.bid_max else
                       f"every bid from {lo} to {rules.bid_max} is excluded ({_fmt_list(sorted(rules.bid_excluded))})")
                out.append(("bid.rising_min", f"a player with score >= {threshold} would have no legal bid "
                                              f"(witness: scores {at}, 0, 0, 0 by player, player 1 to bid: {why}; "
                                              "the auction is stuck)"))
            elif 4 * legal[-1] < rules.total_min:
                h = legal[-1]
                out.append(("bid.total_min", f"total {rules.total_min} can never be reached (four bids of at most {h}; "
                                             f"witness: scores {at}, {at}, {at}, {at} by player, the highest legal bids "
                                             f"{h}, {h}, {h}, {h} sum to {4 * h} < {rules.total_min}: every hand is "
                                             "void and redealt forever)"))
        if rules.total_min > 52:
            out.append(("bid.total_min", f"total {rules.total_min} exceeds 4 x 13 (witness: scores 0, 0, 0, 0 by player, "
                                         f"bids 13, 13, 13, 13 sum to 52 < {rules.total_min}: every hand is void)"))
        top = max((b for b in range(rules.bid_min, rules.bid_max + 1) if b not in rules.bid_excluded), default=0)
        for threshold, total in rules.total_table:  # raised-total: a total in force once a score reaches threshold
            if 4 * top < total:
                out.append(("bid.total_table", f"total {total} can never be reached (witness: scores {threshold}, 0, "
                                               f"0, 0 by player, the highest bids {top}, {top}, {top}, {top} sum to {4 * top} "
                                               f"< {total}: every hand is void and redealt forever)"))
        for b in range(rules.bid_min, rules.bid_max + 1):
            if b not in rules.bid_excluded and rules.values[b] <= 0:
                out.append(("score.values", f"a made bid of {b} scores {rules.values[b]}: scores could never rise to the target "
                                            f"(witness: scores 0, 0, 0, 0 by player, bids {b}, {b}, {b}, {b}, every bid made: "
                                            f"scores stay at or below 0)"))
        made_bid_wins = rules.made_bid_wins
        if made_bid_wins and (made_bid_wins not in range(rules.bid_min, rules.bid_max + 1) or made_bid_wins in rules.bid_excluded):
            out.append(("win.made_bid_wins", f"bid {rules.made_bid_wins} can never be made: it is not a legal bid "
                                             f"(legal bids: {_fmt_list(_legal_bids_at_zero(rules))})"))
        if rules.auto_bid:
            for threshold, lo in min_levels(rules):
                if rules.auto_bid < lo or rules.auto_bid in rules.bid_excluded:
                    out.append(("timer.auto_bid", f"the timer's bid {rules.auto_bid} is illegal for a player with score "
                                                  f">= {threshold} (witness: scores {max(threshold, 0)}, 0, 0, 0 by player, the first "
                                                  "bidder's timer runs out: the automatic bid is refused)"))
    else:
        if rules.trump_source != "contract":
            out.append(("trump.source", "an auction ruleset takes trump from the contract"))
        if rules.tie_rule != "bidding-team":
            out.append(("tie.rule", "an auction ruleset breaks ties by the bidding team"))
        if not 1 <= rules.min_bid <= 13:
            out.append(("auction.min_bid", f"minimum bid {rules.min_bid} is not inside 1..13"))
        if rules.play_on_raise < 0:
            out.append(("win.play_on_raise", "the target cannot go down"))
    return out
