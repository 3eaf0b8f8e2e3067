"""The record format v1: constants, the text forms of cards and bids, and records as data.

See ``spec/records/README.md`` and ``spec/records/schema-v1.json``.
"""

from __future__ import annotations

import re
import threading
from dataclasses import asdict, dataclass, field
from typing import Any

from tarneeb.core.actions import BIDS, EGYPTIAN, PASS, Bid
from tarneeb.core.cards import (
    CARD_TEXT,
    NO_TRUMP,
    RANKS,
    STRAINS,
    SUITS,
    card_str,
    parse_card,
    parse_suit,
    per_player,
    per_team,
    player_name,
)
from tarneeb.core.sources import rule_name, rule_words
from tarneeb.errors import CardError, file_error

FORMAT = "tarneeb-record"
VERSION = 1
MAX_LINE = 1 << 20  # bytes; a canonical hand line is about 1.3 KB
EXTENSION_PREFIX = "x-"  # fields starting with this are the writer's own and are ignored

# ------------------------------------------------------------------ text forms

_CARD_CODE: dict[str, int] = {card_str(c): c for c in range(52)}
_CARD_TEXT = CARD_TEXT


def _text_tables() -> tuple[bytes, bytes]:
    """Byte translation tables of the canonical card text (``AS``): rank character -> code % 13, suit character
    -> the suit's first code; 255 for any other byte."""
    rank, suit = bytearray(b"\xff" * 256), bytearray(b"\xff" * 256)
    for t, c in _CARD_CODE.items():
        rank[ord(t[0])], suit[ord(t[1])] = c % 13, c - c % 13
    # every pair of a rank and a suit character is a canonical card, and reads as its code
    ranks = [chr(i) for i in range(256) if rank[i] != 255]
    suits = [chr(i) for i in range(256) if suit[i] != 255]
    if not len(ranks) * len(suits) == len(_CARD_CODE) == 52 or not all(
            rank[ord(a)] + suit[ord(b)] == _CARD_CODE[a + b] for a in ranks for b in suits):
        raise RuntimeError("the card tables do not give each of the 52 canonical cards its code")
    return bytes(rank), bytes(suit)


_RANK_BYTE, _SUIT_BYTE = _text_tables()


def text_codes(text: str) -> bytes | None:
    """The codes of cards written together canonically (``AS2CTH``: two characters each, as ``_CARD_CODE``
    spells them), read by two byte translations; None when any character is not so written."""
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        return None
    ranks = raw[0::2].translate(_RANK_BYTE)
    suits = raw[1::2].translate(_SUIT_BYTE)
    n = len(ranks)
    if n != len(suits) or 255 in ranks or 255 in suits:  # an odd length, or no rank (suit) where one is
        return None
    # rank + suit byte by byte, as one addition of two big numbers: each sum is at most 51, so nothing carries
    return (int.from_bytes(ranks) + int.from_bytes(suits)).to_bytes(n)


def bid_text(b: Bid) -> str:
    """Canonical text of a bid: ``pass``, ``7``, ``8H``, ``9N``."""
    if b.n is None:
        return "pass"
    return str(b.n) + ("" if b.strain is None else STRAINS[b.strain])


_BID_CODE: dict[str, Bid] = {"pass": PASS, "PASS": PASS, "p": PASS, "P": PASS}
for _b in BIDS:
    _BID_CODE[str(_b.n)] = _b
for _e in EGYPTIAN.values():
    _BID_CODE[bid_text(_e)] = _e
    _BID_CODE[bid_text(_e).lower()] = _e


_CANONICAL_BID: dict[str, Bid] = {bid_text(b): b for b in _BID_CODE.values()}  # 'pass', '7', '8H' (not 'P', '8h')
_BID_TEXT: dict[tuple[int | None, int | None], str] = {(b.n, b.strain): t for t, b in _CANONICAL_BID.items()}

def contract_text(contract: tuple[int, int, int | None]) -> str:
    """The canonical text of a contract's (seat, tricks, strain) bid: :func:`bid_text`, from a table."""
    return _BID_TEXT.get(contract[1:]) or bid_text(Bid(contract[1], contract[2]))


_LENIENT = threading.local()  # (kind, field, message) of what the reader took beyond the schema, per line


def lenient(kind: str, fld: str, message: str) -> None:
    """Note that the reader accepted something the JSON Schema does not (a located warning, once per kind)."""
    seen: list[tuple[str, str, str]] | None = getattr(_LENIENT, "seen", None)
    if seen is not None and all(k != kind for k, _, _ in seen):
        seen.append((kind, fld, "beyond the schema: " + message))


class _Bad(Exception):
    """A field that cannot be read; turned into a :class:`RecordProblem` by the reader."""

    def __init__(self, fld: str, message: str) -> None:
        super().__init__(message)
        self.field = fld
        self.message = message


def _card(v: object, fld: str) -> int:
    if isinstance(v, str):
        c = _CARD_CODE.get(v)
        if c is not None:
            return c
        try:
            c = parse_card(v)
        except CardError as e:
            raise _Bad(fld, str(e)) from None
        if v != "10" + _CARD_TEXT[c][1]:
            lenient("card", fld, f"card {v!r} read as {_CARD_TEXT[c]} (the schema takes AS, TH or 10H)")
        return c
    raise _Bad(fld, f"a card is a string such as 'AS' or '10H', not {_short(v)}")


def _cards(v: object, fld: str) -> list[int]:
    """A list of card strings, or the cards written together ('AS2C10H' or 'AS2CTH')."""
    if type(v) is list:
        try:
            return [_CARD_CODE[x] for x in v]  # every card written canonically ('AS', 'TH'): nothing to say
        except (KeyError, TypeError):
            pass
    if isinstance(v, list):
        return [_card(x, f"{fld}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, str):
        fast = text_codes(v)
        if fast is not None:  # every card written canonically ('AS2CTH'): nothing to say
            return list(fast)
        if " " in v or "," in v:
            lenient("card-run", fld, "cards written together with spaces or commas between them")
        t = v.replace(" ", "").replace(",", "").replace("10", "T")
        if len(t) % 2:
            raise _Bad(fld, f"cards written together take two characters each; got {len(t)} characters")
        try:
            return [_CARD_CODE[t[i:i + 2]] for i in range(0, len(t), 2)]  # every card written canonically
        except KeyError:
            pass
        out = []
        for i in range(0, len(t), 2):
            c = _CARD_CODE.get(t[i:i + 2])
            if c is None:
                c = _card(t[i:i + 2], f"{fld}[{i // 2}]")
            out.append(c)
        return out
    raise _Bad(fld, f"expected a list of cards or a string of cards, not {_short(v)}")


def _pbn_hand(text: str, fld: str) -> list[int]:
    """PBN suit groups ``spades.hearts.diamonds.clubs``, e.g. ``AKQ.JT9.8.765432``."""
    groups = text.split(".")
    if len(groups) != 4:
        raise _Bad(fld, f"a PBN hand has four suit groups (spades.hearts.diamonds.clubs); got {len(groups)}")
    out = []
    for g, suit in zip(groups, (3, 2, 1, 0), strict=True):
        for ch in g.replace("10", "T").upper():
            r = RANKS.find(ch)
            if r < 0:
                raise _Bad(fld, f"unknown rank {ch!r} in PBN hand {text!r}")
            out.append(suit * 13 + r)
    return out


def _short(v: object) -> str:
    t = type(v).__name__ if not isinstance(v, bool | int | float | str) else repr(v)
    return t if len(t) <= 40 else t[:37] + "..."


def _seat(v: object, fld: str) -> int:
    if type(v) is int and 0 <= v <= 3:
        return v
    raise _Bad(fld, f"a seat is an integer 0..3, not {_short(v)}")


def _int(v: object, fld: str) -> int:
    if type(v) is int:
        return v
    raise _Bad(fld, f"expected an integer, not {_short(v)}")


def _ints(v: object, fld: str, lengths: tuple[int, ...]) -> list[int]:
    if not isinstance(v, list) or len(v) not in lengths:
        want = " or ".join(str(n) for n in lengths)
        raise _Bad(fld, f"expected a list of {want} integers, not {_short(v) if not isinstance(v, list) else f'{len(v)} items'}")
    for i, x in enumerate(v):
        if type(x) is not int:
            raise _Bad(f"{fld}[{i}]", f"expected an integer, not {_short(x)}")
    return v


def _bid(v: object, fld: str) -> Bid:
    if type(v) is str:
        c = _CANONICAL_BID.get(v)
        if c is not None:  # written canonically: nothing to say
            return c
    if isinstance(v, str):
        b = _BID_CODE.get(v) or _BID_CODE.get(v.strip().upper())
        if b is not None:
            if v != bid_text(b):
                lenient("bid-spelling", fld, f"bid {v!r} read as {bid_text(b)!r} (the schema takes pass, 7, 8H)")
            return b
    if type(v) is int and 0 <= v <= 13:
        lenient("bid-number", fld, f"a bid written as the number {v}; the schema takes text ({str(v)!r})")
        return BIDS[v]
    if v is None:
        lenient("bid-null", fld, "a bid written as null, read as a pass (the schema takes 'pass')")
        return PASS
    raise _Bad(fld, f"a bid is 'pass', a number such as '7', or a number and strain such as '8H'; not {_short(v)}")


def _strain(v: object, fld: str) -> int:
    """-1 for null (no trump known), 0..3 a suit, 4 no trump."""
    if v is None:
        return -1
    if isinstance(v, str):
        t = v.strip().upper()
        if t != v or t not in STRAINS:
            lenient("trump-spelling", fld, f"trump {v!r} read as a strain (the schema takes C, D, H, S or N)")
        if t in ("N", "NT", "NO TRUMP", "NOTRUMP"):
            return NO_TRUMP
        if len(t) == 1 and t in SUITS:
            return SUITS.index(t)
        try:
            return parse_suit(t)
        except CardError:
            pass
    raise _Bad(fld, f"a trump is one of C, D, H, S, N (no trump) or null; not {_short(v)}")


# ------------------------------------------------------------------ records as data


@dataclass(slots=True)
class MatchHeader:
    """The first line of a match."""

    file: str
    line: int
    match: str
    ruleset: str | None
    options: dict[str, Any]
    first_dealer: int | None
    seats: list[str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    version: int = VERSION
    named: bool = True  # False when the header gave no match id (hand lines' ids are then not compared)
    start_scores: list[int] | None = None  # scores before the first hand line (a match recorded part-way)
    lenient: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, field, message) beyond the schema
    bids_by_seat: bool = False  # declared form: each hand's bids are listed by seat 0..3, not in calling order
    team_tricks: bool = False  # declared form: tricks_won gives two team counts (individual rulesets)
    deal_blocks: bool = False  # declared form: the deck is dealt in blocks of 13, not one card at a time
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (field, message)
    readings: dict[str, str] = field(default_factory=dict)  # ambiguity id -> the reading the record follows


@dataclass(slots=True)
class TrickLine:
    cards: list[int]
    leader: int | None = None
    winner: int | None = None


@dataclass(slots=True)
class HandLine:
    """One deal as a record claims it. ``None`` means the field is absent (not logged)."""

    file: str
    line: int
    match: str | None = None
    hand: int | None = None
    dealer: int | None = None
    deck: list[int] | None = None
    hands: list[list[int]] | None = None  # by seat, when the deal is given as hands
    revealed: int | None = None  # -1: claims no revealed card
    trump: int | None = None  # -1: claims none yet (null), 0..3, 4 = no trump
    claims: list[tuple[int, bool]] | None = None  # (seat, asks) of the weak seats in turn (weak-hand, claimed)
    bids: list[tuple[int | None, Bid]] | None = None
    redeal: str | None = None  # "": claims no redeal; "*": a redeal without a clause; else a clause id
    contract: tuple[int, Bid] | None = None
    no_contract: bool = False  # contract given as null
    tricks: list[TrickLine] | None = None
    tricks_won: list[int] | None = None
    deltas: list[int] | None = None
    scores: list[int] | None = None
    outcome_winner: int | None = None  # -1: claims no winner
    outcome_clause: str | None = None
    match_over: bool | None = None
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (field, message)
    lenient: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, field, message) beyond the schema


@dataclass(slots=True)
class RecordProblem:
    """A record that could not be read (or a part of it that was ignored), located."""

    file: str
    line: int
    field: str
    message: str
    match: str | None = None
    hand: int | None = None
    severity: str = "error"  # "error": not checked; "warning": checked, something ignored

    def text(self) -> str:
        """One line: file, line, match and hand (counted from 1) when known, severity, field and message; a
        problem of the file as a whole (line 0 in the JSON) names no line and no field."""
        if self.line == 0 and self.field == "(file)":
            return file_error(self.file, f"{self.severity}: {self.message}")
        where = f"{self.file}:{self.line}"
        if self.match is not None:
            where += f": match {self.match}"
        if self.hand is not None:  # counted from 1, as the web referee's records page counts (the JSON from 0)
            where += f" hand {self.hand + 1}"
        return f"{where}: {self.severity}: {self.field}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        """The problem as a JSON object (``kind`` ``error``)."""
        d = asdict(self)
        d["kind"] = "error"
        return d


@dataclass(slots=True)
class Divergence:
    """A point where a record disagrees with the rules.

    The first eleven fields are the original report. Added since: ``follows_line`` / ``follows_field`` name the
    earlier divergence this one follows from (None: an independent one); ``cause`` and ``explanation`` name a
    recognised bug pattern (:mod:`tarneeb.records.diagnose`; empty when none fits); ``table`` is the per-seat
    table of a scoring divergence (seat, bid, tricks, claimed, rules); ``ruleset`` the id of the ruleset judged by.
    """

    file: str
    line: int
    match: str
    hand: int
    trick: int | None
    field: str
    claimed: str
    expected: str
    clause: str
    source: str
    reason: str = ""
    follows_line: int | None = None
    follows_field: str | None = None
    cause: str = ""
    explanation: str = ""
    table: list[dict[str, Any]] | None = None
    ruleset: str = ""  # the id of the ruleset the line was judged under (its clauses are cited)
    # every recognised bug whose hypothesis reproduces this hand's claim, (name, explanation, clause); None: the
    # field is not one the verifier diagnoses (``cause`` is the one fit, when there is exactly one)
    fits: list[tuple[str, str, str]] | None = None

    @property
    def independent(self) -> bool:
        """Whether the divergence does not follow from an earlier one of the same hand."""
        return self.follows_line is None

    def text(self) -> str:
        """The divergence in words: where (hand and trick counted from 1), the field, what the record says and what
        the rules give (:func:`claim_words`: numbers by player or team, never a list), and the rule by its name with
        its clause id and source (:meth:`rule_text`); the JSON keeps ``claimed``, ``expected`` and ``source`` as the
        verifier wrote them."""
        # hands and tricks counted from 1, as the web referee's records page counts them (the JSON keeps them from 0)
        where = f"{self.file}:{self.line}: match {self.match} hand {self.hand + 1}"
        if self.trick is not None:
            where += f" trick {self.trick + 1}"
        why = f" ({claim_words(self.reason)})" if self.reason else ""
        out = (f"{where}: {self.field}: the record says {claim_words(self.claimed)}, the rules give "
               f"{claim_words(self.expected)}{why} [{self.rule_text()}]")
        if self.cause:
            out += f"\n  fits this hand: {self.cause}: {self.explanation}"
        elif self.fits:
            out += (f"\n  fits this hand: {', '.join(f[0] for f in self.fits)} (each reproduces the claim; the "
                    "summary weighs every hand)")
        elif self.fits is not None and self.follows_line is None:
            out += "\n  unexplained: no recognised bug reproduces the claim"
        if self.follows_line is not None:
            out += f"\n  follows from the divergence at line {self.follows_line} ({self.follows_field})"
        if self.table:
            out += "\n" + table_text(self.table)
        return out

    def rule_text(self) -> str:
        """The deciding clause in words, as a failure of ``fuzz`` names it: ``the individual-scoring rule
        (score.individual), from ERAM CARDS, ...`` (the JSON's ``source`` is the id and its citation)."""
        head = f"{self.clause} ("
        if self.source.startswith(head) and self.source.endswith(")"):
            cited = self.source[len(head):-1]
            return rule_words(self.clause) + (f", {cited}" if cited.startswith("not a clause of ")
                                              else f", from {cited}")
        return rule_words(self.clause) + (f", from {self.source}" if self.source != self.clause else "")

    def to_json(self) -> dict[str, Any]:
        """The divergence as a JSON object (``kind`` ``divergence``)."""
        d = asdict(self)
        d["kind"] = "divergence"
        d["independent"] = self.follows_line is None
        return d


_INT_LIST = re.compile(r"\[(?:(?:\?|-?\d+)(?:, (?:\?|-?\d+))*)?\]")
_QUOTED_LIST = re.compile(r"( ?)(" + _INT_LIST.pattern + ")")  # a list of numbers, after a word: "scores [...]"
_CLAUSE_ID = re.compile(r"[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+")
_HAND = re.compile(r"S: ([^|]+) \| H: ([^|]+) \| D: ([^|]+) \| C: ([^|;]+)")


def clause_words(text: str) -> str:
    """``text`` as human output says it: a known clause id as its rule's name with the id beside it."""
    if _CLAUSE_ID.fullmatch(text) and rule_name(text) != f"rule {text}":
        return rule_words(text)
    return text


def _list_words(items: str) -> str:
    """The inside of a list of numbers (``5, 3, 6, -3``) as people read it: four by player, two by team (as
    :func:`tarneeb.core.cards.per_player` and ``per_team`` say them), else the items; ``none`` when empty."""
    values = items.split(", ") if items else []
    return per_player(values) if len(values) == 4 else per_team(values) if len(values) == 2 else items or "none"


def _hand_words(m: re.Match[str]) -> str:
    """A hand by suit (``S: A K 7 | H: - | ...``) in the cards' codes, as every human text writes a card
    (:func:`tarneeb.core.cards.hand_codes`): ``AS KS 7S | no hearts | ...``."""
    return " | ".join(" ".join(("T" if r == "10" else r) + s for r in g.split()) if g.strip() != "-" else f"no {n}"
                      for g, s, n in zip(m.groups(), "SHDC", ("spades", "hearts", "diamonds", "clubs"), strict=True))


def claim_words(text: str) -> str:
    """A claim, a value or a reason of the verifier (the JSON's ``claimed``, ``expected``, ``reason``) in words:
    a list of numbers by player or by team (``player 1 5, player 2 3, player 3 6, player 4 -3``), four hands by suit
    as each player's cards, a clause id as its rule's name with the id beside it, JSON's ``null`` as ``none``;
    anything else as written."""
    if text == "null" or text.startswith("null: "):
        return "none" + text[4:]
    if text.endswith(" (by team)") and _INT_LIST.fullmatch(text[:-10]):
        return _list_words(text[1:-11])
    hands = text.split("; ")
    if len(hands) == 4 and all(_HAND.fullmatch(h) for h in hands):
        return "; ".join(f"{player_name(i)}: {_HAND.sub(_hand_words, h)}" for i, h in enumerate(hands))
    return clause_words(_QUOTED_LIST.sub(lambda m: (": " if m[1] else "") + _list_words(m[2][1:-1]), text))


def table_text(rows: list[dict[str, Any]]) -> str:
    """The per-seat table of a scoring divergence, indented under its report."""
    cols = ("seat", "bid", "tricks", "claimed", "rules")
    head = ["player", *cols[1:]]  # players counted 1 to 4, as in every human text (the JSON keeps the seat)

    def cell(row: dict[str, Any], c: str) -> str:
        v = row.get(c)
        if v is None:
            return "-"
        return str(v + 1) if c == "seat" and type(v) is int else str(v)

    cells = [head] + [[cell(row, c) for c in cols] for row in rows]
    width = [max(len(r[i]) for r in cells) for i in range(len(cols))]
    return "\n".join("    " + "  ".join(r[i].rjust(width[i]) for i in range(len(cols))).rstrip() for r in cells)


Item = MatchHeader | HandLine | RecordProblem
Report = Divergence | RecordProblem  # what verifying a line reports
