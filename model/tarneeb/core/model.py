"""A ruleset as data (:class:`Ruleset`: its parameters, options and cited clauses) and a ruleset at its option
values (:class:`Rules`), what the engine runs; loading and validating them is :mod:`tarneeb.core.schema`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from tarneeb.core.sources import cite
from tarneeb.errors import ConfigError, did_you_mean, echo

OptionValue = bool | int | str
T = TypeVar("T")


class Derived:
    """What is derived from one :class:`Rules` object and kept on it (``Rules.derived``): tables of the rule
    functions' answers (the legal bids by score, the legal calls by auction state), the verifier's hypotheses, ...

    An entry is made once by the function given to :meth:`get` and kept under its key, with ``deciders``: the
    functions whose answers it holds. When one of them is no longer the same object (the proofs' mutants patch the
    engine's functions by name) the entry is made again, so no answer of a replaced function is ever given. A new
    :class:`Rules` (``dataclasses.replace``) starts with an empty store; a copy sent to another process starts
    empty too (nothing derived crosses a pickle).
    """

    __slots__ = ("_made",)

    def __init__(self) -> None:
        self._made: dict[object, tuple[tuple[object, ...], object]] = {}

    def get(self, key: object, deciders: tuple[object, ...], make: Callable[[], T]) -> T:
        """The entry ``key``, made by ``make()`` if it is missing or was made with other ``deciders``."""
        hit = self._made.get(key)
        if hit is not None and hit[0] == deciders:
            return hit[1]  # type: ignore[return-value]
        value = make()
        self._made[key] = (deciders, value)
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return Derived, ()

    def __repr__(self) -> str:
        return f"Derived({len(self._made)} entries)"


@dataclass(frozen=True, slots=True)
class Clause:
    id: str
    text: str
    doc: str
    heading: str
    text_ar: str = ""
    template: str = ""  # the text as written, before its {param} placeholders are filled in (tarneeb.core.prose)
    origin: str = ""  # the ruleset whose translation entries (spec/i18n) hold this clause's other statements


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    param: str
    type: str
    default: OptionValue
    allowed: tuple[OptionValue, ...]
    range: tuple[int, int] | None
    meaning: str
    doc: str
    heading: str

    def valid_text(self) -> str:
        if self.range is not None:
            return f"an integer from {self.range[0]} to {self.range[1]}"
        return ", ".join(_fmt(v) for v in self.allowed)

    def coerce(self, ruleset: str, raw: object) -> OptionValue:
        """Turn a value (already typed, or a CLI string) into this option's type."""
        value: OptionValue
        if isinstance(raw, str) and self.type != "choice":
            text = raw.strip().lower()
            if self.type == "bool":
                if text in ("true", "1", "yes", "on"):
                    value = True
                elif text in ("false", "0", "no", "off"):
                    value = False
                else:
                    raise ConfigError(ruleset, self.name, f"{echo(raw)} is not a boolean; valid: {self.valid_text()}")
            else:
                try:
                    value = int(text)
                except ValueError:
                    raise ConfigError(ruleset, self.name, f"{echo(raw)} is not an integer; valid: {self.valid_text()}") from None
        elif isinstance(raw, bool | int | str):
            value = raw
        else:
            raise ConfigError(ruleset, self.name, f"{echo(raw)} has the wrong type; valid: {self.valid_text()}")
        if self.type == "bool" and not isinstance(value, bool):
            raise ConfigError(ruleset, self.name, f"{echo(value)} is not a boolean; valid: {self.valid_text()}")
        if self.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(ruleset, self.name, f"{echo(value)} is not an integer; valid: {self.valid_text()}")
        if self.type == "choice" and not isinstance(value, str):
            raise ConfigError(ruleset, self.name, f"{echo(value)} is not a choice; valid: {self.valid_text()}")
        if self.range is not None:
            if not isinstance(value, int):
                raise ConfigError(ruleset, self.name, f"{echo(value)} is not an integer; valid: {self.valid_text()}")
            if not self.range[0] <= value <= self.range[1]:
                raise ConfigError(ruleset, self.name, f"{value} is out of range; valid: {self.valid_text()}")
        elif value not in self.allowed:
            raise ConfigError(ruleset, self.name, f"{_fmt(value)} is not allowed; valid: {self.valid_text()}")
        return value


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One ruleset file: identity, base parameters, options and clauses."""

    id: str
    name: str
    document: str
    publisher: str
    summary: str
    path: str
    params: dict[str, Any]
    options: tuple[Option, ...]
    clauses: dict[str, Clause]
    # a house ruleset (a file that ``extends`` another): how it was named, its base, and what it changes
    ref: str = ""  # the name it was loaded by: its id for a built-in, the file path for a ruleset file
    extends: str = ""  # the id of the ruleset it extends ("" for a built-in)
    lineage: tuple[str, ...] = ()  # its own id, then its base's lineage
    changed: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # param -> (base value, own value)
    name_ar: str = ""
    summary_ar: str = ""
    # ambiguity id -> the reading selected for it over the base's (a house file's [readings], or --reading;
    # tarneeb.core.ambiguity.with_readings), which set the parameters that reading names
    readings: dict[str, str] = field(default_factory=dict)

    @property
    def name_ref(self) -> str:
        """The name a record header or a situation file uses for this ruleset (its id, or its file)."""
        return self.ref or self.id

    def effective_params(self) -> dict[str, Any]:
        """Every parameter at the option defaults: what the clause templates are rendered with."""
        return {**self.params, **{o.param: o.default for o in self.options}}

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        valid = ", ".join(o.name for o in self.options) or "(this ruleset has no options)"
        raise ConfigError(self.id, name, f"unknown option{did_you_mean(name, (o.name for o in self.options))} "
                                         f"(valid options: {valid})")

    def defaults(self) -> dict[str, OptionValue]:
        return {o.name: o.default for o in self.options}

    def clause(self, cid: str) -> Clause:
        return self.clauses[cid]

    def cite(self, cid: str) -> str:
        c = self.clauses[cid]
        return f"{c.id} ({cite(c.doc, c.heading)})"


@dataclass(frozen=True, slots=True)
class Rules:
    """A ruleset with its option values resolved: what the engine runs."""

    ruleset: Ruleset
    options: tuple[tuple[str, OptionValue], ...]
    family: str
    step: int  # seat step of play: +1 (ccw, to the right) or +3 (cw)
    trump_source: str
    fixed_suit: int  # -1 when trump is not fixed
    redeal_same_dealer: bool
    tie_rule: str
    auto_bid: int
    auto_play: str
    target: int
    # individual family
    bid_min: int = 2
    bid_max: int = 13
    bid_excluded: frozenset[int] = frozenset()
    rising_min: bool = False
    rising_table: tuple[tuple[int, int], ...] = ()
    total_min: int = 11
    # raised-total: (score threshold, total) pairs; the total the bids must reach rises to a pair's total once the
    # top score at the table reaches its threshold (reading rising); empty for a fixed total (reading fixed)
    total_table: tuple[tuple[int, int], ...] = ()
    values: tuple[int, ...] = ()  # indexed by bid; values[b] for 0 <= b <= 13
    made_bid_wins: int = 0
    # auction family
    min_bid: int = 7
    auction_style: str = "dealer-privilege"
    all_pass: str = "redeal-next"
    egyptian: bool = False
    must_trump: bool = False
    weak_redeal: bool = False
    score_style: str = "standard"
    kaboot: str = "16"
    bid13: str = "win"
    play_on_raise: int = 0
    # the readings of the ambiguity register these select (spec/ambiguities.toml; the first value is the default)
    defender_kaboot: str = "either-team"  # defender-kaboot
    kaboot_double_defenders: str = "double-own"  # kaboot-double-defenders
    bid_only_kaboot: str = "bidders-replace"  # kaboot-bid-only
    bid13_kaboot: str = "bid13-first"  # bid13-vs-kaboot
    failed13_defenders: str = "usual"  # a variant no document names: a failed 13 pays the defenders double
    forced_bid: str = "at-least"  # forced-dealer-minimum: the forced dealer bids at least, or exactly, the minimum
    made_bid_partner: str = "outright"  # bid10-partner: a made winning bid wins outright, or with the partner above 0
    dealer_match: str = "exact-bid"  # egyptian-dealer-match: the privileged dealer matches the top bid, or its number
    play_on_count: str = "once"  # play-on-count: the target rises after the first game only, or after every game
    weak_claim: str = "automatic-next"  # weak-hand: a weak hand cancels the deal at once, or its holder may ask
    first_dealer: str = "random"  # first-dealer: chance picks the first dealer, or seat 0 deals first
    # classic-deal-order: the sizes of the packets each seat receives in turn, from the seat after the dealer (a
    # round of packets of the first size, then of the second, ...); empty: one card at a time
    deal_packets: tuple[int, ...] = ()
    option_map: dict[str, OptionValue] = field(default_factory=dict)
    # what is derived from these rules (tables, hypotheses), kept on them; never compared, never copied by replace()
    derived: Derived = field(default_factory=Derived, init=False, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.ruleset.id

    @property
    def individual(self) -> bool:
        return self.family == "individual"

    @classmethod
    def value_fields(cls) -> tuple[str, ...]:
        """The fields that say what the rules are (every field but the store of what is derived from them)."""
        return _VALUE_FIELDS

    def label(self) -> str:
        changed = [f"{k}={_fmt(v)}" for k, v in self.options if self.ruleset.option(k).default != v]
        changed += [f"reading {a}={rd}" for a, rd in sorted(self.ruleset.readings.items())]
        return self.id + (f" [{', '.join(changed)}]" if changed else "")

    def words(self) -> str:
        """The rules as human output names them: the ruleset's name, then its id (and what differs from its
        defaults, as :meth:`label`): ``Tarneeb 41 (bs.fyi), ruleset bsfyi-41``."""
        return f"{self.ruleset.name}, ruleset {self.label()}"


_VALUE_FIELDS = tuple(f.name for f in fields(Rules) if f.compare)
