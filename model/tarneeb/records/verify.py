"""Game records: a versioned JSON Lines format for whole matches, its writer, reader and verifier.

The format is documented in ``spec/records/README.md`` with a JSON Schema in
``spec/records/schema-v1.json``. A file holds one or more matches; each match
is a header line (``"type": "match"``) followed by one line per deal
(``"type": "hand"``), cancelled deals included.

As PBN does for bridge, the writer is strict and the reader lenient:

* :func:`match_lines` / :func:`write_match` write the canonical form from a
  :class:`~tarneeb.core.match.Match` (every field, canonical spellings).
* :func:`parse_line` / :func:`read_records` accept variants (a deal given as
  four hands, PBN-style suit groups, team scores as two numbers, a flat play
  list, ...), treat every field but the deal, the bids and the cards as
  optional, and turn anything unreadable into a located :class:`RecordError`
  instead of an exception.
* :class:`Verifier` replays each hand through the engine
  (:class:`~tarneeb.core.match.Match`) and reports every :class:`Divergence` between
  what the record claims and what the rules give, with the deciding clause id
  and its source (``Ruleset.cite``). :func:`verify_paths` runs it over files,
  streaming, optionally across processes.

In short::

    write_match(out, match, "id")                 # or match_lines / match_dicts / header_dict + hand_dict
    summary, reports = verify_lines(lines)        # records in memory
    summary = verify_paths(["a.jsonl"], jobs=2, on_report=print)
    summary.exit_code(), summary.by_clause        # 0 / 1 / 2; Counter of clause ids

Each report is a :class:`Divergence` (``clause``, ``field``, ``claimed``,
``expected``, ``line`` ...) or a :class:`RecordError` (unreadable input).
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import IO, Any

import orjson

from tarneeb.core import rules as R
from tarneeb.core.actions import BIDS, EGYPTIAN, PASS, Bid, Deal, NameTrump
from tarneeb.core.cards import FULL_DECK, NO_TRUMP, RANKS, STRAINS, SUITS, card_str, parse_card, strain_text
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.errors import CardError, ConfigError, IllegalAction, TarneebError

FORMAT = "tarneeb-record"
VERSION = 1
MAX_LINE = 1 << 20  # bytes; a canonical hand line is about 1.3 KB
EXTENSION_PREFIX = "x-"  # fields starting with this are the writer's own and are ignored

# ------------------------------------------------------------------ text forms

_CARD_CODE: dict[str, int] = {card_str(c): c for c in range(52)}
_CARD_TEXT: tuple[str, ...] = tuple(card_str(c) for c in range(52))


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


class _Bad(Exception):
    """A field that cannot be read; turned into a :class:`RecordError` by the reader."""

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
            return parse_card(v)
        except CardError as e:
            raise _Bad(fld, str(e)) from None
    raise _Bad(fld, f"a card is a string such as 'AS' or '10H', not {_short(v)}")


def _cards(v: object, fld: str) -> list[int]:
    """A list of card strings, or the cards written together ('AS2C10H' or 'AS2CTH')."""
    if isinstance(v, list):
        return [_card(x, f"{fld}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, str):
        t = v.replace(" ", "").replace(",", "").replace("10", "T")
        if len(t) % 2:
            raise _Bad(fld, f"cards written together take two characters each; got {len(t)} characters")
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
    if isinstance(v, str):
        b = _BID_CODE.get(v) or _BID_CODE.get(v.strip().upper())
        if b is not None:
            return b
    if type(v) is int and 0 <= v <= 13:
        return BIDS[v]
    if v is None:
        return PASS
    raise _Bad(fld, f"a bid is 'pass', a number such as '7', or a number and strain such as '8H'; not {_short(v)}")


def _strain(v: object, fld: str) -> int:
    """-1 for null (no trump known), 0..3 a suit, 4 no trump."""
    if v is None:
        return -1
    if isinstance(v, str):
        t = v.strip().upper()
        if t in ("N", "NT", "NO TRUMP", "NOTRUMP"):
            return NO_TRUMP
        if len(t) == 1 and t in SUITS:
            return SUITS.index(t)
        try:
            from tarneeb.core.cards import parse_suit

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
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (field, message)


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


@dataclass(slots=True)
class RecordError:
    """A record that could not be read (or a part of it that was ignored), located."""

    file: str
    line: int
    field: str
    message: str
    match: str | None = None
    hand: int | None = None
    severity: str = "error"  # "error": not checked; "warning": checked, something ignored

    def text(self) -> str:
        where = f"{self.file}:{self.line}"
        if self.match is not None:
            where += f": match {self.match}"
        if self.hand is not None:
            where += f" hand {self.hand}"
        return f"{where}: {self.severity}: {self.field}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = "error"
        return d


@dataclass(slots=True)
class Divergence:
    """A point where a record disagrees with the rules."""

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

    def text(self) -> str:
        where = f"{self.file}:{self.line}: match {self.match} hand {self.hand}"
        if self.trick is not None:
            where += f" trick {self.trick}"
        why = f" ({self.reason})" if self.reason else ""
        return (f"{where}: {self.field}: record claims {self.claimed}, the rules give {self.expected}{why} "
                f"[clause {self.source}]")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = "divergence"
        return d


Item = MatchHeader | HandLine | RecordError

# ------------------------------------------------------------------ writer

def header_dict(rules: Rules, first_dealer: int, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None, start_scores: Sequence[int] | None = None) -> dict[str, Any]:
    """The canonical header line of a match, as a dict.

    ``start_scores`` (four, by seat) records a match from part-way: the
    scores before its first hand line. Omitted when ``None`` or all zero.
    """
    d: dict[str, Any] = {
        "type": "match", "format": FORMAT, "version": VERSION, "match": match_id, "ruleset": rules.id,
        "options": dict(rules.options), "first_dealer": first_dealer,
    }
    if start_scores is not None and any(start_scores):
        if len(start_scores) != 4:
            raise TarneebError(f"match {match_id}: start_scores: four seat scores are needed")
        d["start_scores"] = [int(x) for x in start_scores]
    if seats is not None:
        if len(seats) != 4:
            raise TarneebError(f"match {match_id}: seats: four names are needed, got {len(seats)}")
        d["seats"] = list(seats)
    if meta:
        d["meta"] = meta
    return d


def hand_dict(rules: Rules, rec: HandRecord, match_id: str, match_over: bool = False) -> dict[str, Any]:
    """The canonical line of one deal (played or cancelled), as a dict."""
    d: dict[str, Any] = {
        "type": "hand", "match": match_id, "hand": rec.deal_no, "dealer": rec.dealer,
        "deck": "".join([_CARD_TEXT[c] for c in rec.deck]),
    }
    if rec.revealed is not None:
        d["revealed"] = _CARD_TEXT[rec.revealed]
    d["trump"] = strain_text(rec.trump)
    d["bids"] = [[s, bid_text(b)] for s, b in rec.bids]
    d["redeal"] = rec.redeal
    if not rules.individual:
        c = rec.contract
        d["contract"] = None if c is None else {"seat": c[0], "bid": bid_text(Bid(c[1], c[2]))}
    if rec.redeal is None:
        d["tricks"] = [{"leader": t.leader, "cards": [_CARD_TEXT[c] for c in t.cards], "winner": t.winner}
                       for t in rec.tricks]
        d["tricks_won"] = list(rec.tricks_won)
        d["deltas"] = list(rec.deltas)
    d["scores"] = list(rec.scores_after)
    if rec.redeal is None:
        d["outcome"] = {"winner": rec.outcome, "clause": rec.outcome_rule, "match_over": match_over}
    return d


def match_dicts(m: Match, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Header then one dict per deal of ``m`` (only whole deals: a deal in progress is left out)."""
    start = getattr(m, "start_scores", None)
    yield header_dict(m.rules, m.first_dealer, match_id, seats=seats, meta=meta,
                      start_scores=None if start is None else list(start))
    n = len(m.records)
    for i, rec in enumerate(m.records):
        yield hand_dict(m.rules, rec, match_id, match_over=(i == n - 1 and m.phase is Phase.OVER))


def match_lines(m: Match, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None) -> Iterator[bytes]:
    """The match as JSON Lines (UTF-8 bytes, each ending in a newline)."""
    for d in match_dicts(m, match_id, seats=seats, meta=meta):
        yield orjson.dumps(d, option=orjson.OPT_APPEND_NEWLINE)


def write_match(out: IO[bytes], m: Match, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None) -> int:
    """Write one match to a binary stream; returns the number of lines written."""
    n = 0
    for line in match_lines(m, match_id, seats=seats, meta=meta):
        out.write(line)
        n += 1
    return n


# ------------------------------------------------------------------ reader

_HEADER_FIELDS = frozenset({"type", "format", "version", "match", "ruleset", "options", "first_dealer", "seats",
                            "meta", "start_scores"})
_HAND_FIELDS = frozenset({"type", "match", "hand", "dealer", "deck", "hands", "revealed", "trump", "bids", "redeal",
                          "contract", "tricks", "play", "tricks_won", "deltas", "scores", "outcome", "meta"})


_TRICK_FIELDS = frozenset({"leader", "cards", "winner"})
_CONTRACT_FIELDS = frozenset({"seat", "bid"})


def _unknown(obj: dict[str, Any], known: frozenset[str]) -> list[tuple[str, str]]:
    return [(_name(k), "unknown field, ignored") for k in obj
            if k not in known and not (isinstance(k, str) and k.startswith(EXTENSION_PREFIX))]


def _name(k: str) -> str:
    return k if k and k.replace("_", "").replace("-", "").isalnum() and len(k) <= 40 else orjson.dumps(k[:40]).decode()


def parse_line(data: bytes | str, file: str = "<input>", line: int = 0) -> Item:
    """Read one line; never raises: unreadable input becomes a :class:`RecordError`."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        msg = str(e)
        if isinstance(data, bytes):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as u:
                msg = f"not UTF-8 text (byte {u.start}: {u.reason})"
        if not (data.strip() if isinstance(data, bytes | str) else data):
            msg = "empty line"
        return RecordError(file, line, "(json)", f"malformed JSON: {msg}")
    except RecursionError:
        return RecordError(file, line, "(json)", "malformed JSON: nested too deeply")
    if not isinstance(obj, dict):
        return RecordError(file, line, "(line)", f"a record line is a JSON object, not {_short(obj)}")
    kind = obj.get("type")
    if kind is None:
        kind = "hand" if ("deck" in obj or "hands" in obj) else ("match" if "ruleset" in obj else None)
    try:
        if kind == "match":
            return _parse_header(obj, file, line)
        if kind == "hand":
            return _parse_hand(obj, file, line)
    except _Bad as b:
        return RecordError(file, line, b.field, b.message, _match_of(obj), _hand_of(obj))
    except (RecursionError, MemoryError):  # pragma: no cover - absurd nesting the JSON parser let through
        return RecordError(file, line, "(line)", "record too large or nested too deeply")
    return RecordError(file, line, "type", f"{_short(kind)}: a record line has type 'match' or 'hand'")


def _match_of(obj: dict[str, Any]) -> str | None:
    m = obj.get("match")
    return m if isinstance(m, str) else (str(m) if type(m) is int else None)


def _hand_of(obj: dict[str, Any]) -> int | None:
    h = obj.get("hand")
    return h if type(h) is int else None


def _parse_header(obj: dict[str, Any], file: str, line: int) -> MatchHeader:
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise _Bad("format", f"{_short(fmt)}: this reader understands format {FORMAT!r}")
    version = obj.get("version", VERSION)
    if type(version) is not int or version != VERSION:
        raise _Bad("version", f"{_short(version)}: this reader understands version {VERSION}")
    mid = _match_of(obj)
    if "match" in obj and mid is None:
        raise _Bad("match", f"a match id is a string, not {_short(obj['match'])}")
    rs = obj.get("ruleset")
    if rs is not None and not isinstance(rs, str):
        raise _Bad("ruleset", f"a ruleset id is a string, not {_short(rs)}")
    options = obj.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _Bad("options", f"options are an object of name: value, not {_short(options)}")
    for k, v in options.items():
        if not isinstance(v, bool | int | str):
            raise _Bad(f"options.{k}", f"an option value is a boolean, integer or string, not {_short(v)}")
    fd = obj.get("first_dealer")
    first_dealer = None if fd is None else _seat(fd, "first_dealer")
    seats = obj.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) != 4
                              or not all(isinstance(s, str) for s in seats)):
        raise _Bad("seats", "seats are a list of four names (seat 0 to 3)")
    meta = obj.get("meta", {})
    if not isinstance(meta, dict):
        raise _Bad("meta", f"meta is an object, not {_short(meta)}")
    ss = obj.get("start_scores")
    start = None if ss is None else list(_ints(ss, "start_scores", (4, 2)))
    return MatchHeader(file, line, mid if mid is not None else f"line-{line}", rs, options, first_dealer, seats, meta,
                       named=mid is not None, start_scores=start, warnings=_unknown(obj, _HEADER_FIELDS))


def _parse_hand(obj: dict[str, Any], file: str, line: int) -> HandLine:
    h = HandLine(file, line)
    g = obj.get
    v = g("match")
    if v is not None:
        h.match = _match_of(obj)
        if h.match is None:
            raise _Bad("match", f"a match id is a string, not {_short(v)}")
    v = g("hand")
    if v is not None:
        h.hand = _int(v, "hand")
    v = g("dealer")
    if v is not None:
        h.dealer = _seat(v, "dealer")
    v = g("deck")
    if v is not None:
        deck = _cards(v, "deck")
        if len(deck) != 52:
            raise _Bad("deck", f"a deck lists 52 cards in deal order; got {len(deck)}")
        h.deck = deck
    elif "hands" in obj:
        hs = obj["hands"]
        if not isinstance(hs, list) or len(hs) != 4:
            raise _Bad("hands", "hands are a list of four hands, seat 0 to 3")
        h.hands = [_pbn_hand(x, f"hands[{i}]") if isinstance(x, str) and "." in x else _cards(x, f"hands[{i}]")
                   for i, x in enumerate(hs)]
    else:
        raise _Bad("deck", "missing: a hand record needs the deal, as 'deck' (52 cards in deal order) or 'hands'")
    if "revealed" in obj:
        v = obj["revealed"]
        h.revealed = -1 if v is None else _card(v, "revealed")
    if "trump" in obj:
        h.trump = _strain(obj["trump"], "trump")
    v = g("bids")
    if v is not None:
        if not isinstance(v, list):
            raise _Bad("bids", f"bids are a list of [seat, bid] in order, not {_short(v)}")
        bids: list[tuple[int | None, Bid]] = []
        for i, x in enumerate(v):
            if isinstance(x, list) and len(x) == 2:
                bids.append((_seat(x[0], f"bids[{i}][0]"), _bid(x[1], f"bids[{i}][1]")))
            elif isinstance(x, dict):
                s = x.get("seat")
                bids.append((None if s is None else _seat(s, f"bids[{i}].seat"), _bid(x.get("bid"), f"bids[{i}].bid")))
            else:
                bids.append((None, _bid(x, f"bids[{i}]")))
        h.bids = bids
    if "redeal" in obj:
        v = obj["redeal"]
        if v is None or v is False:
            h.redeal = ""
        elif v is True:
            h.redeal = "*"
        elif isinstance(v, str) and v:
            h.redeal = v
        else:
            raise _Bad("redeal", f"redeal is null or the id of the clause that cancelled the deal, not {_short(v)}")
    if "contract" in obj:
        v = obj["contract"]
        if v is None:
            h.no_contract = True
        elif isinstance(v, dict):
            h.contract = (_seat(v.get("seat"), "contract.seat"), _bid(v.get("bid"), "contract.bid"))
            if h.contract[1].n is None:
                raise _Bad("contract.bid", "a contract is a bid, not a pass")
            h.warnings.extend((f"contract.{k}", m) for k, m in _unknown(v, _CONTRACT_FIELDS))
        else:
            raise _Bad("contract", f"a contract is {{'seat': s, 'bid': '8H'}} or null, not {_short(v)}")
    v = g("tricks")
    if v is not None:
        if not isinstance(v, list) or len(v) > 13:
            raise _Bad("tricks", "tricks are a list of at most 13 {leader, cards, winner}")
        tricks = []
        for i, t in enumerate(v):
            f = f"tricks[{i}]"
            if isinstance(t, dict):
                cards = _cards(t.get("cards"), f + ".cards")
                ld, wn = t.get("leader"), t.get("winner")
                tl = TrickLine(cards, None if ld is None else _seat(ld, f + ".leader"),
                               None if wn is None else _seat(wn, f + ".winner"))
                if not _TRICK_FIELDS.issuperset(t):
                    h.warnings.extend((f"{f}.{k}", m) for k, m in _unknown(t, _TRICK_FIELDS))
            else:
                tl = TrickLine(_cards(t, f))
            if len(tl.cards) != 4:
                raise _Bad(f + ".cards", f"a trick has 4 cards; got {len(tl.cards)}")
            tricks.append(tl)
        h.tricks = tricks
    elif g("play") is not None:
        cards = _cards(obj["play"], "play")
        if len(cards) > 52 or len(cards) % 4:
            raise _Bad("play", f"the play lists whole tricks, at most 52 cards; got {len(cards)}")
        h.tricks = [TrickLine(cards[i:i + 4]) for i in range(0, len(cards), 4)]
    v = g("tricks_won")
    if v is not None:
        h.tricks_won = _ints(v, "tricks_won", (4, 2))
    v = g("deltas")
    if v is not None:
        h.deltas = _ints(v, "deltas", (4, 2))
    v = g("scores")
    if v is not None:
        h.scores = _ints(v, "scores", (4, 2))
    v = g("outcome")
    if v is not None:
        if not isinstance(v, dict):
            raise _Bad("outcome", f"outcome is {{'winner': team or null, 'clause': id, 'match_over': bool}}, "
                                  f"not {_short(v)}")
        if "winner" in v:
            w = v["winner"]
            if w is not None and not (type(w) is int and w in (0, 1)):
                raise _Bad("outcome.winner", f"the winner is team 0, team 1 or null, not {_short(w)}")
            h.outcome_winner = -1 if w is None else w
        c = v.get("clause")
        if c is not None:
            if not isinstance(c, str):
                raise _Bad("outcome.clause", f"a clause id is a string, not {_short(c)}")
            h.outcome_clause = c
        mo = v.get("match_over")
        if mo is not None:
            if not isinstance(mo, bool):
                raise _Bad("outcome.match_over", f"match_over is true or false, not {_short(mo)}")
            h.match_over = mo
        for k in v:
            if k not in ("winner", "clause", "match_over") and not str(k).startswith(EXTENSION_PREFIX):
                h.warnings.append((f"outcome.{_name(k)}", "unknown field, ignored"))
    h.warnings.extend(_unknown(obj, _HAND_FIELDS))
    return h


def _read_lines(f: IO[bytes], start: int = 0, end: int | None = None,
                max_line: int = MAX_LINE) -> Iterator[tuple[int, bytes | None, int]]:
    """(byte offset, line or None when too long, length) for lines starting in [start, end).

    ``start`` must be 0 or just after a newline. Memory stays bounded by ``max_line``.
    """
    pos = start
    if start:
        f.seek(start)
    while end is None or pos < end:
        data = f.readline(max_line + 1)
        if not data:
            return
        n = len(data)
        if n > max_line and not data.endswith(b"\n"):
            total = n
            while True:  # skip the rest of an absurdly long line
                more = f.readline(1 << 20)
                total += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield pos, None, total
            pos += total
            continue
        yield pos, data, n
        pos += n


def read_records(source: str | os.PathLike[str] | IO[bytes], *, name: str | None = None,
                 max_line: int = MAX_LINE) -> Iterator[Item]:
    """Every line of a file as a :class:`MatchHeader`, :class:`HandLine` or :class:`RecordError`.

    Blank lines are skipped; the file is read line by line (memory stays flat).
    Raises ``OSError`` only when the file itself cannot be opened.
    """
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as f:
            yield from read_records(f, name=name or os.fspath(source), max_line=max_line)
        return
    fname = name or getattr(source, "name", "<input>")
    for lineno, (_, data, n) in enumerate(_read_lines(source, 0, None, max_line), start=1):
        it = _item(data, n, str(fname), lineno, max_line)
        if it is not None:
            yield it


def _item(data: bytes | None, n: int, fname: str, lineno: int, max_line: int) -> Item | None:
    if data is None:
        return RecordError(fname, lineno, "(line)", f"line of {n} bytes is longer than the limit of {max_line}")
    if not data.strip():
        return None
    if not data.endswith(b"\n"):
        it = parse_line(data, fname, lineno)
        if isinstance(it, RecordError) and it.field == "(json)":
            it.message += " (the last line is not terminated: truncated file?)"
        return it
    return parse_line(data, fname, lineno)


# ------------------------------------------------------------------ verifier

Report = Divergence | RecordError


@dataclass(slots=True)
class Summary:
    """Counts of a verification run; ``merge`` adds another run's counts."""

    files: int = 0
    unreadable_files: int = 0
    lines: int = 0
    matches: int = 0
    hands: int = 0  # hand records replayed
    clean_hands: int = 0
    divergences: int = 0
    errors: int = 0
    warnings: int = 0
    by_clause: Counter[str] = field(default_factory=Counter)

    def merge(self, other: Summary) -> None:
        for k in ("files", "unreadable_files", "lines", "matches", "hands", "clean_hands", "divergences", "errors",
                  "warnings"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.by_clause.update(other.by_clause)

    def exit_code(self) -> int:
        """2 when some input could not be read, else 1 when divergences were found, else 0."""
        if self.unreadable_files or self.errors:
            return 2
        return 1 if self.divergences else 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": "summary", "files": self.files, "unreadable_files": self.unreadable_files,
                "lines": self.lines, "matches": self.matches, "hands": self.hands, "clean_hands": self.clean_hands,
                "divergences": self.divergences, "errors": self.errors, "warnings": self.warnings,
                "by_clause": dict(self.by_clause.most_common()), "exit": self.exit_code()}


@dataclass(slots=True)
class _MatchState:
    header: MatchHeader
    rules: Rules
    dealer: int | None  # expected dealer of the next deal; None = unknown (not checked)
    dealer_clause: str
    scores: list[int]
    target: int
    games: list[int]
    next_hand: int = 0
    over_rule: str | None = None  # set once the match is over
    over_reported: bool = False
    scores_known: bool = True  # False after an unreadable line: the next hand's own claims give its scores
    lost: list[tuple[str, int, int | None]] = field(default_factory=list)  # unreadable (file, line, deal number)


def _fmt_list(v: Sequence[int]) -> str:
    return "[" + ", ".join(str(x) for x in v) + "]"


def _fmt_cards(cards: Iterable[int]) -> str:
    return " ".join(_CARD_TEXT[c] for c in cards)


def _team_list(r: Rules, v: list[int]) -> list[int] | None:
    """A claimed per-seat list; team form [a, b] is accepted in the auction family."""
    if len(v) == 4:
        return v
    if not r.individual:
        return [v[0], v[1], v[0], v[1]]
    return None


class Verifier:
    """Replays records through the engine and reports divergences.

    Feed it the items of :func:`read_records` in file order (:meth:`feed`);
    each call returns the reports for that item. ``ruleset`` (and
    ``options``), when given, override what match headers say.
    """

    def __init__(self, ruleset: str | None = None, options: dict[str, Any] | None = None, fast: bool = True) -> None:
        self.fast = fast
        self.ruleset = ruleset
        self.options = options
        self.summary = Summary()
        self.state: _MatchState | None = None
        self._skipping: tuple[str, int] | None = None  # (reason, first line) of lines skipped
        self._cites: dict[tuple[str, str], str] = {}
        self._rules_cache: dict[tuple[str, str], Rules] = {}

    # -------------------------------------------------------------- helpers
    def cite(self, r: Rules, clause: str) -> str:
        key = (r.id, clause)
        c = self._cites.get(key)
        if c is None:
            c = r.ruleset.cite(clause) if clause in r.ruleset.clauses else f"{clause} (not a clause of {r.id})"
            self._cites[key] = c
        return c

    def _count(self, reports: list[Report]) -> list[Report]:
        s = self.summary
        for rep in reports:
            if isinstance(rep, Divergence):
                s.divergences += 1
                s.by_clause[rep.clause] += 1
            elif rep.severity == "error":
                s.errors += 1
            else:
                s.warnings += 1
        return reports

    def _rules(self, h: MatchHeader) -> Rules | RecordError:
        rid = self.ruleset or h.ruleset
        if rid is None:
            return RecordError(h.file, h.line, "ruleset", "missing: name the ruleset in the header or with --ruleset",
                               h.match)
        opts = dict(h.options)
        if self.options:
            opts.update(self.options)
        key = (rid, repr(sorted(opts.items())))
        r = self._rules_cache.get(key)
        if r is None:
            try:
                r = load_rules(rid, opts)
            except ConfigError as e:
                fld = "ruleset" if e.key == "ruleset" else f"options.{e.key}"
                return RecordError(h.file, h.line, fld, str(e), h.match)
            except TarneebError as e:
                return RecordError(h.file, h.line, "ruleset", str(e), h.match)
            self._rules_cache[key] = r
        return r

    # ----------------------------------------------------------------- feed
    def feed_line(self, data: bytes | None, n: int, file: str, line: int) -> list[Report]:
        """Read and check one raw line (``None``: a line over the size limit of ``n`` bytes)."""
        st = self.state
        if (self.fast and data is not None and st is not None and st.over_rule is None and st.dealer is not None
                and st.scores_known):
            try:
                obj = orjson.loads(data)
            except orjson.JSONDecodeError:
                obj = None
            if type(obj) is dict and obj.get("type") == "hand" and self._fast_hand(st, obj):
                sm = self.summary
                sm.lines += 1
                sm.hands += 1
                sm.clean_hands += 1
                return []
        it = _item(data, n, file, line, MAX_LINE)
        return [] if it is None else self.feed(it)

    def feed(self, item: Item) -> list[Report]:
        self.summary.lines += 1
        if isinstance(item, RecordError):
            if item.severity == "error" and self.state is not None:
                self._lost(self.state, item)
            return self._count([item])
        if isinstance(item, MatchHeader):
            return self._count(self._header(item))
        return self._count(self._hand(item))

    def _header(self, h: MatchHeader) -> list[Report]:
        out: list[Report] = [RecordError(h.file, h.line, f, msg, h.match, None, "warning") for f, msg in h.warnings]
        self.summary.matches += 1
        self._skipping = None
        r = self._rules(h)
        if isinstance(r, RecordError):
            self.state = None
            self._skipping = (f"its match header (line {h.line}) could not be used", h.line)
            return out + [r]
        if self.ruleset and h.ruleset and h.ruleset != self.ruleset:
            out.append(RecordError(h.file, h.line, "ruleset", f"the header names {h.ruleset}; checked under "
                                   f"{self.ruleset} as asked", h.match, severity="warning"))
        start = [0, 0, 0, 0]
        if h.start_scores is not None:
            sc = _team_list(r, h.start_scores)
            why = None
            if sc is None:
                why = "an individual ruleset needs four scores"
            else:
                try:
                    start = list(Match(r, 0, sc).scores)  # the engine's own check of a part-way start
                except IllegalAction as e:
                    why = f"{_fmt_list(sc)}: {e.reason}"
            if why is not None:
                self.state = None
                self._skipping = (f"its match header (line {h.line}) could not be used", h.line)
                return out + [RecordError(h.file, h.line, "start_scores", why, h.match)]
        self.state = _MatchState(h, r, h.first_dealer, "deal.first-dealer", start, r.target, [])
        return out

    def _hand(self, h: HandLine) -> list[Report]:
        out: list[Report] = [RecordError(h.file, h.line, f, msg, h.match, h.hand, "warning") for f, msg in h.warnings]
        st = self.state
        if st is None:
            if self._skipping is None:
                self._skipping = ("no match header precedes it", 0)
            if self._skipping[1] >= 0:
                out.append(RecordError(h.file, h.line, "(line)", f"hand records not checked from here until the next "
                                       f"match header: {self._skipping[0]}", h.match, h.hand))
                self._skipping = (self._skipping[0], -1)
            return out
        if h.match is not None and st.header.named and h.match != st.header.match:
            out.append(RecordError(h.file, h.line, "match", f"{h.match!r} does not match the header's "
                                   f"{st.header.match!r} (line {st.header.line}); hand not checked", h.match, h.hand))
            self._resync(st, h)  # the next hand starts from what this line claims
            st.next_hand = (h.hand if h.hand is not None else st.next_hand) + 1
            st.lost.clear()
            return out
        self.summary.hands += 1
        lost = bool(st.lost)
        out.extend(self.check_hand(st, h))
        if lost:  # a warning about a deal missing at an unreadable line before: reports stay in line order
            out.sort(key=lambda x: x.line)
        if not any(isinstance(x, Divergence) or x.severity == "error" for x in out):
            self.summary.clean_hands += 1
        return out

    # ------------------------------------------------------ fast path
    def _fast_hand(self, st: _MatchState, obj: dict[str, Any]) -> bool:
        """Check a canonical hand line quickly; True only when it is clean (and ``st`` is then advanced).

        Returns False, leaving ``st`` untouched, on anything unusual or any
        disagreement: the caller then runs the full engine replay, which
        reports. Every rule decision is a :mod:`tarneeb.core.rules` function, the
        same ones the engine calls (the auction: ``auction_bid_violation`` and
        ``auction_next``); the tests compare this path with the full replay.
        """
        if not _CANONICAL_KEYS.issuperset(obj):
            return False
        r = st.rules
        dealer = st.dealer
        if (not _is(obj.get("hand"), st.next_hand) or obj.get("match") != st.header.match or dealer is None
                or not _is(obj.get("dealer"), dealer)):
            return False
        text = obj.get("deck")
        code = _CARD_CODE
        if type(text) is not str or len(text) != 104:
            return False
        deck: list[int] = []
        try:
            for i in range(0, 104, 4):
                deck += _CARD_PAIRS[text[i:i + 4]]
        except KeyError:
            return False
        step = r.step
        scores = st.scores
        bids_obj = obj.get("bids")
        if type(bids_obj) is not list:
            return False
        redeal = obj.get("redeal")
        hands = R.deal_hands(r, dealer, deck)
        if hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:  # 52 cards covering the pack: 13 each, no repeat
            return False
        if r.individual:
            if r.trump_source == "fixed":
                trump = r.fixed_suit
                if "revealed" in obj:
                    return False
            else:
                card = R.revealed_card(deck)
                trump = R.trump_from_reveal(r, card)
                if obj.get("revealed") != _CARD_TEXT[card]:
                    return False
            if obj.get("trump") != STRAINS[trump] or len(bids_obj) != 4:
                return False
            bids = [0, 0, 0, 0]
            seat = dealer
            for x in bids_obj:
                seat = (seat + step) % 4
                if type(x) is not list or len(x) != 2 or not _is(x[0], seat):
                    return False
                b = _BID_CODE.get(x[1]) if type(x[1]) is str else None
                if b is None or b.n is None or b.strain is not None or R.bid_violation(r, scores[seat], b.n):
                    return False
                bids[seat] = b.n
            if not R.hand_is_played(r, bids):
                if redeal != "bid.total" or "tricks" in obj or not _ints_are(obj.get("scores"), scores):
                    return False
                st.dealer = R.dealer_after_redeal(r, dealer)
                st.dealer_clause = "redeal.dealer"
                st.next_hand += 1
                return True
            leader = R.next_seat(r, dealer)
            contract = None
        else:
            # the auction on the engine's own pure functions (rules.auction_bid_violation, auction_next)
            if "revealed" in obj or r.trump_source != "contract":
                return False
            if r.weak_redeal and (R.is_weak_hand(hands[0]) or R.is_weak_hand(hands[1]) or R.is_weak_hand(hands[2])
                                  or R.is_weak_hand(hands[3])):
                return self._fast_cancelled(st, obj, "deal.weak-redeal", R.next_seat(r, dealer), bids_obj)
            top: tuple[int, int | None] | None = None
            holder = -1
            passes = spoken = 0
            active = [True, True, True, True]
            violation = R.auction_bid_violation
            next_to_speak = R.auction_next
            to_speak: int | None = (dealer + step) % 4
            for x in bids_obj:
                bidder = to_speak
                if bidder is None or type(x) is not list or len(x) != 2 or not _is(x[0], bidder):
                    return False
                b = _BID_CODE.get(x[1]) if type(x[1]) is str else None
                if b is None or violation(r, dealer, bidder, top, passes, b.n, b.strain) is not None:
                    return False
                spoken += 1
                if b.n is None:
                    passes += 1
                    active[bidder] = False
                else:
                    top = (b.n, b.strain)
                    holder = bidder
                to_speak = next_to_speak(r, bidder, spoken, active, top is not None, holder)
            if to_speak is not None:  # the auction is not over
                return False
            if top is None:  # all passed
                return self._fast_cancelled(st, obj, "auction.all-pass", R.next_seat(r, dealer), bids_obj)
            if r.egyptian:
                tr = top[1]
                if tr is None:
                    return False
                trump = tr
            else:
                t = obj.get("trump")
                if type(t) is not str or t not in ("C", "D", "H", "S"):
                    return False
                trump = SUITS.index(t)
            cc = (holder, top[0], top[1])
            cobj = obj.get("contract")
            if (type(cobj) is not dict or not _is(cobj.get("seat"), holder) or len(cobj) != 2
                    or cobj.get("bid") != bid_text(Bid(cc[1], cc[2])) or obj.get("trump") != STRAINS[trump]):
                return False
            leader = holder
            contract = cc
            bids = []
        if redeal is not None:
            return False
        # ---- play: the engine's legality and trick-winner functions
        tricks = obj.get("tricks")
        if type(tricks) is not list or len(tricks) != 13:
            return False
        won = [0, 0, 0, 0]
        legal = R.legal_play_mask
        winner_of = R.trick_winner
        hands = list(hands)
        orders = _ORDERS[step]
        try:
            for t in tricks:  # unrolled over the four cards; each card checked by the engine's legality function
                if type(t) is not dict or len(t) != 3:  # leader, cards, winner: nothing unknown to warn about
                    return False
                cs = t["cards"]
                ld = t["leader"]
                if type(cs) is not list or type(ld) is not int or ld != leader:
                    return False
                a, b, c, d = cs
                c0, c1, c2, c3 = cards = [code[a], code[b], code[c], code[d]]
                s0, s1, s2, s3 = order = orders[leader]
                h = hands[s0]
                if not (legal(r, h, -1, trump) >> c0) & 1:
                    return False
                hands[s0] = h ^ (1 << c0)
                led = c0 // 13
                h = hands[s1]
                if not (legal(r, h, led, trump) >> c1) & 1:
                    return False
                hands[s1] = h ^ (1 << c1)
                h = hands[s2]
                if not (legal(r, h, led, trump) >> c2) & 1:
                    return False
                hands[s2] = h ^ (1 << c2)
                h = hands[s3]
                if not (legal(r, h, led, trump) >> c3) & 1:
                    return False
                hands[s3] = h ^ (1 << c3)
                leader = order[winner_of(cards, trump)]
                wn = t["winner"]
                if type(wn) is not int or wn != leader:
                    return False
                won[leader] += 1
        except (KeyError, TypeError, ValueError):  # a missing field, not four cards, or a card not written canonically
            return False
        # ---- scoring and outcome: the engine's scoring functions
        if r.individual:
            deltas = [R.individual_delta(r, bids[s], won[s]) for s in range(4)]
        else:
            assert contract is not None
            bt = contract[0] & 1
            d0, d1 = R.team_deltas(r, contract[1], bt, (won[0] + won[2], won[1] + won[3]))
            deltas = [d0, d1, d0, d1]
        after = [scores[0] + deltas[0], scores[1] + deltas[1], scores[2] + deltas[2], scores[3] + deltas[3]]
        if not (_ints_are(obj.get("tricks_won"), won) and _ints_are(obj.get("deltas"), deltas)
                and _ints_are(obj.get("scores"), after)):
            return False
        if r.individual:
            win, rule = R.individual_outcome(r, after, bids, won)
        else:
            assert contract is not None
            bt = contract[0] & 1
            win, rule = R.auction_outcome(r, (after[0], after[1]), st.target, bt,
                                          R.bid13_wins(r, contract[1], won[bt] + won[bt + 2]))
        over = False
        target = st.target
        if win is not None:
            nxt = R.target_in_force(r, len(st.games) + 1)
            if nxt != target:
                target = nxt
            else:
                over = True
        out = obj.get("outcome")
        if type(out) is not dict or not _OUTCOME_KEYS.issuperset(out):
            return False
        w = out.get("winner")
        c = out.get("clause")
        if (not (w is None if win is None else _is(w, win)) or out.get("match_over") is not over
                or (c is not None and (type(c) is not str or (win is not None and c != rule)))):
            return False
        if win is not None:
            st.games = st.games + [win]
        st.target = target
        st.scores = after
        st.dealer = R.next_seat(r, dealer)
        st.dealer_clause = "deal.rotation"
        st.next_hand += 1
        if over:
            st.over_rule = rule
        return True

    def _fast_cancelled(self, st: _MatchState, obj: dict[str, Any], clause: str, next_dealer: int,
                        bids_obj: list[Any]) -> bool:
        """An auction-family deal cancelled by ``clause`` (the deal is known to be legal and the bids to match)."""
        if (obj.get("redeal") != clause or "tricks" in obj or not _ints_are(obj.get("scores"), st.scores)
                or obj.get("trump") is not None or obj.get("contract", None) is not None
                or (clause == "deal.weak-redeal" and bids_obj)):
            return False
        st.dealer = next_dealer
        st.dealer_clause = clause
        st.next_hand += 1
        return True

    # ----------------------------------------------------------- one hand
    def check_hand(self, st: _MatchState, h: HandLine) -> list[Report]:
        """Replay one hand from the match state ``st``; update ``st`` for the next one."""
        r = st.rules
        out: list[Report] = []
        hand_no = h.hand if h.hand is not None else st.next_hand
        mid = st.header.match

        def div(fld: str, claimed: object, expected: object, clause: str, trick: int | None = None,
                reason: str = "") -> None:
            out.append(Divergence(h.file, h.line, mid, hand_no, trick, fld, str(claimed), str(expected), clause,
                                  self.cite(r, clause), reason))

        def err(fld: str, msg: str, severity: str = "error") -> None:
            out.append(RecordError(h.file, h.line, fld, msg, mid, hand_no, severity))

        if st.lost:
            out.extend(self._after_lost(st, h, mid))
        elif h.hand is not None and h.hand != st.next_hand:
            err("hand", f"deal number {h.hand} out of sequence: {st.next_hand} expected", "warning")
        st.next_hand = hand_no + 1
        if st.over_rule is not None:
            if not st.over_reported:
                st.over_reported = True
                div("hand", "a further deal", "none: the match was already over", st.over_rule)
            return out
        dealer = st.dealer
        if h.dealer is not None:
            if dealer is not None and h.dealer != dealer:
                div("dealer", h.dealer, dealer, st.dealer_clause)
            dealer = h.dealer
        elif dealer is None:
            err("dealer", "missing, and the previous deal did not settle who deals next: hand not checked")
            self._resync(st, h)
            return out
        if not st.scores_known:  # after an unreadable line: the scores before this deal, from its own claims
            before = _claimed_before(r, h)
            if before is not None:
                st.scores = before
                st.scores_known = True
        deck = h.deck
        if deck is None:
            assert h.hands is not None
            deck = self._deck_from_hands(r, dealer, h, div, err)
            if deck is None:
                self._resync(st, h)
                return out
        m = _match_at(r, dealer, st.scores)
        m.target = st.target
        m.games = list(st.games)
        try:
            m.apply(Deal(tuple(deck)))
        except IllegalAction as e:
            div("deck", f"a deal of {len(set(deck))} distinct cards", "52 distinct cards", e.rule, reason=e.reason)
            self._resync(st, h)
            return out
        rec = m.record if m.record is not None else m.records[-1]
        if h.revealed is not None:
            exp = -1 if rec.revealed is None else rec.revealed
            if h.revealed != exp:
                div("revealed", "none" if h.revealed < 0 else _CARD_TEXT[h.revealed],
                    "none" if exp < 0 else f"{_CARD_TEXT[exp]} (the dealer's last card)", "trump.source")
        ok = True
        if m.phase is Phase.BIDDING:
            ok = self._bids(st, h, m, div, err)
        if ok and m.phase is Phase.TRUMP_CHOICE:
            if h.trump is None:
                err("trump", "missing: the contract holder names trump, so the record must say which")
                ok = False
            else:
                try:
                    m.apply(NameTrump(h.trump if h.trump >= 0 else NO_TRUMP))
                except IllegalAction as e:
                    div("trump", strain_text(h.trump) or "null", "one of the four suits", e.rule, reason=e.reason)
                    ok = False
        if not ok:
            self._resync(st, h)
            return out
        if h.trump is not None:
            exp_t = -1 if rec.trump is None else rec.trump
            if h.trump != exp_t:
                clause = "auction.egyptian" if r.egyptian else "trump.source"
                div("trump", strain_text(h.trump) or "null", strain_text(exp_t) or "null (not yet known)", clause)
        if not r.individual and (h.contract is not None or h.no_contract):
            exp_c = rec.contract
            claim = "null" if h.contract is None else f"seat {h.contract[0]} bids {bid_text(h.contract[1])}"
            want = "null" if exp_c is None else f"seat {exp_c[0]} bids {bid_text(Bid(exp_c[1], exp_c[2]))}"
            if claim != want:
                clause = ("auction.all-pass" if exp_c is None or h.contract is None else
                          "auction.dealer-privilege" if r.auction_style == "dealer-privilege" else "auction.continuous")
                div("contract", claim, want, clause)
        # ---- redeal
        if m.phase is Phase.DEAL:  # the engine cancelled the deal
            rule = rec.redeal or ""
            if h.redeal is not None and h.redeal not in ("*", rule):
                div("redeal", h.redeal or "null (the deal is played)", rule, rule)
                if not h.redeal:
                    self._resync(st, h)
                    return out
            if h.scores is not None:
                sc = _team_list(r, h.scores)
                if sc is None:
                    err("scores", "an individual ruleset needs four scores")
                else:
                    if st.scores_known and sc != st.scores:
                        div("scores", _fmt_list(sc), f"{_fmt_list(st.scores)} (unchanged by a cancelled deal)",
                            rule)
                    st.scores = list(sc)  # the next deal starts from what the record claims
                    st.scores_known = True
            st.dealer = m.dealer
            st.dealer_clause = "redeal.dealer" if rule == "bid.total" else rule
            return out
        if h.redeal:
            clause = h.redeal if h.redeal in r.ruleset.clauses else ("bid.total" if r.individual
                                                                     else "auction.all-pass")
            div("redeal", h.redeal, "null: the deal is played", clause)
            self._resync(st, h)
            return out
        # ---- play
        if h.tricks is None:
            err("tricks", "missing: a played deal needs its cards in play order")
            self._resync(st, h)
            return out
        if not self._play(h, m, div):
            self._resync(st, h)
            return out
        if m.phase is Phase.PLAY:
            err("tricks", f"only {len(h.tricks)} of 13 tricks: the deal is incomplete")
            self._resync(st, h)
            return out
        self._scoring(st, h, m, rec, div, err)
        return out

    def _bids(self, st: _MatchState, h: HandLine, m: Match, div: Callable[..., None],
              err: Callable[..., None]) -> bool:
        r = st.rules
        turn = "bid.turn" if r.individual else ("auction.continuous" if r.auction_style == "continuous"
                                                 else "auction.order")
        if h.bids is None:
            err("bids", "missing: the bids decide the hand, so they must be given")
            return False
        for i, (seat, bid) in enumerate(h.bids):
            if m.phase is not Phase.BIDDING:
                div(f"bids[{i}]", f"seat {seat} bids {bid_text(bid)}", "no further bid: the bidding is over", turn)
                return False
            if seat is not None and seat != m.to_move:
                div(f"bids[{i}].seat", seat, m.to_move, turn)
            try:
                m.apply(bid)
            except IllegalAction as e:
                div(f"bids[{i}]", f"seat {m.to_move} bids {bid_text(bid)}", f"a legal bid ({e.reason})", e.rule)
                return False
        if m.phase is Phase.BIDDING:
            if h.redeal:
                return True  # reported as a redeal divergence by the caller
            div("bids", f"{len(h.bids)} bids, then the bidding ends", f"seat {m.to_move} still to bid", turn)
            return False
        return True

    def _play(self, h: HandLine, m: Match, div: Callable[..., None]) -> bool:
        assert h.tricks is not None
        records = m.records
        for k, t in enumerate(h.tricks):
            if m.phase is not Phase.PLAY:
                div("tricks", f"{len(h.tricks)} tricks", "13 tricks", "hand.tricks", k)
                return False
            if t.leader is not None and t.leader != m.to_move:
                div(f"tricks[{k}].leader", t.leader, m.to_move, "play.lead" if k == 0 else "play.next-lead", k)
                return False
            for j, c in enumerate(t.cards):
                seat = m.to_move
                try:
                    m.play_card(c)
                except IllegalAction as e:
                    div(f"tricks[{k}].cards[{j}]", f"seat {seat} plays {_CARD_TEXT[c]}", f"a legal card ({e.reason})",
                        e.rule, k)
                    return False
            rec = m.record if m.record is not None else records[-1]
            won = rec.tricks[k].winner
            if t.winner is not None and t.winner != won:
                div(f"tricks[{k}].winner", t.winner, won, "play.winner", k,
                    f"cards {_fmt_cards(t.cards)} led by seat {rec.tricks[k].leader}")
                return False
        return True

    def _scoring(self, st: _MatchState, h: HandLine, m: Match, rec: HandRecord, div: Callable[..., None],
                 err: Callable[..., None]) -> None:
        r = st.rules
        if h.tricks_won is not None:
            tw = _team_list(r, h.tricks_won) if len(h.tricks_won) == 4 else None
            if tw is None and not r.individual:
                team = [rec.tricks_won[0] + rec.tricks_won[2], rec.tricks_won[1] + rec.tricks_won[3]]
                if h.tricks_won != team:
                    div("tricks_won", _fmt_list(h.tricks_won), f"{_fmt_list(team)} (by team)", "play.winner")
            elif tw is None:
                err("tricks_won", "an individual ruleset needs the tricks of all four seats")
            elif tw != rec.tricks_won:
                div("tricks_won", _fmt_list(tw), _fmt_list(rec.tricks_won), "play.winner")
        sclause = _score_clause(r, rec)
        if h.deltas is not None:
            dl = _team_list(r, h.deltas)
            if dl is None:
                err("deltas", "an individual ruleset needs the change of all four scores")
            elif dl != rec.deltas:
                clause = sclause
                if r.individual:
                    bad = next(s for s in range(4) if dl[s] != rec.deltas[s])
                    clause = "score.individual" if abs(dl[bad]) == abs(rec.deltas[bad]) or dl[bad] * rec.deltas[
                        bad] <= 0 else "score.values"
                div("deltas", _fmt_list(dl), _fmt_list(rec.deltas), clause)
        claimed_scores: list[int] | None = None
        if h.scores is not None:
            claimed_scores = _team_list(r, h.scores)
            if claimed_scores is None:
                err("scores", "an individual ruleset needs four scores")
            elif st.scores_known and claimed_scores != rec.scores_after:
                div("scores", _fmt_list(claimed_scores), _fmt_list(rec.scores_after), sclause,
                    reason=f"scores before the deal {_fmt_list(st.scores)}")
        # outcome, judged on the record's own scores when they differ from ours (no cascade)
        win, rule = rec.outcome, rec.outcome_rule
        basis = rec.scores_after
        judged = st.scores_known or claimed_scores is not None  # else the scores are not known: outcome unchecked
        if claimed_scores is not None and claimed_scores != rec.scores_after:
            basis = claimed_scores
            if r.individual:
                win, rule = R.individual_outcome(r, basis, m.bids, rec.tricks_won)
            else:
                assert rec.contract is not None
                holder, n, _ = rec.contract
                bt = holder & 1
                win, rule = R.auction_outcome(r, (basis[0], basis[1]), st.target, bt,
                                              R.bid13_wins(r, n, rec.tricks_won[bt] + rec.tricks_won[bt + 2]))
        games = list(st.games)
        target = st.target
        over = False
        if win is not None:
            nxt = R.target_in_force(r, len(games) + 1)
            games.append(win)
            if nxt != target:
                target = nxt
            else:
                over = True
        if judged and h.outcome_winner is not None:
            claim_w = None if h.outcome_winner < 0 else h.outcome_winner
            if claim_w != win:
                div("outcome.winner", "none" if claim_w is None else f"team {claim_w}",
                    "none" if win is None else f"team {win}", rule, reason=f"scores {_fmt_list(basis)}")
            elif win is not None and h.outcome_clause is not None and h.outcome_clause != rule:
                div("outcome.clause", h.outcome_clause, rule, rule)
        if judged and h.match_over is not None and h.match_over != over:
            clause = "win.play-on" if r.play_on_raise > 0 else rule
            div("outcome.match_over", str(h.match_over).lower(), str(over).lower(), clause)
        st.scores = claimed_scores if claimed_scores is not None else list(rec.scores_after)
        st.scores_known = st.scores_known or claimed_scores is not None
        st.games = games
        st.target = target
        st.dealer = R.next_seat(r, rec.dealer)
        st.dealer_clause = "deal.rotation"
        if over:
            st.over_rule = rule

    def _resync(self, st: _MatchState, h: HandLine) -> None:
        """After a hand that could not be replayed: trust the record's own claims for what follows."""
        st.dealer = None
        if h.scores is not None:
            sc = _team_list(st.rules, h.scores)
            if sc is not None:
                st.scores = sc
                st.scores_known = True

    def _lost(self, st: _MatchState, e: RecordError) -> None:
        """An unreadable line inside a match: what it said is unknown, so the next hand is judged on its claims."""
        st.dealer = None
        st.scores_known = False
        hand = e.hand if e.match is None or not st.header.named or e.match == st.header.match else None
        st.lost.append((e.file, e.line, hand))

    def _after_lost(self, st: _MatchState, h: HandLine, mid: str) -> list[Report]:
        """The deal number of the first hand after unreadable lines: at most one warning.

        Deals the numbering shows missing are reported at the (first) unreadable line, which
        is where they were: the line number then stays right when reports are renumbered.
        """
        lost, st.lost = st.lost, []
        if h.hand is None:
            return []
        first = st.next_hand
        if first <= h.hand <= first + len(lost):
            known = {n for _, _, n in lost if n is not None}
            missing = [n for n in range(first, h.hand) if n not in known]
            if not missing:
                return []
            file, line, _ = next((x for x in lost if x[2] is None), lost[0])
            deals = f"deal {missing[0]}" if len(missing) == 1 else f"deals {missing[0]}..{missing[-1]}"
            more = len(lost) - 1
            these = "this line" + (f" and {more} more after it" if more else "")
            return [RecordError(file, line, "hand", f"{deals} not checked: {these} could not be read; deal {h.hand}, on "
                                f"the next readable line, is judged on its own claims (dealer, scores)", mid,
                                missing[0], "warning")]
        return [RecordError(h.file, h.line, "hand", f"deal number {h.hand} out of sequence: {first} expected, or up "
                            f"to {first + len(lost)} after {len(lost)} unreadable line(s) before it", mid, h.hand,
                            "warning")]

    def _deck_from_hands(self, r: Rules, dealer: int, h: HandLine, div: Callable[..., None],
                         err: Callable[..., None]) -> list[int] | None:
        assert h.hands is not None
        masks = []
        for s, cards in enumerate(h.hands):
            mk = 0
            for c in cards:
                mk |= 1 << c
            if len(cards) != 13 or mk.bit_count() != 13:
                div(f"hands[{s}]", f"{len(cards)} cards ({mk.bit_count()} distinct)", "13 distinct cards",
                    "deal.deck")
                return None
            masks.append(mk)
        if masks[0] | masks[1] | masks[2] | masks[3] != FULL_DECK:
            div("hands", "hands sharing a card", "the 52 cards of the pack, each once", "deal.deck")
            return None
        order = [(dealer + r.step * (k + 1)) % 4 for k in range(4)]
        dcards = list(h.hands[dealer])
        if r.trump_source.startswith("revealed"):
            rv = h.revealed
            if rv is None or rv < 0:
                pick = [c for c in dcards if h.trump is not None and h.trump >= 0
                        and R.trump_from_reveal(r, c) == h.trump]
                if not pick:
                    err("revealed", "missing: with the deal given as hands, name the revealed card (or the trump)")
                    return None
                rv = pick[0]
            if rv not in dcards:
                div("revealed", _CARD_TEXT[rv], "a card of the dealer's hand (the last card dealt)", "trump.source")
                return None
            dcards.remove(rv)
            dcards.append(rv)
        deck = [0] * 52
        for k, seat in enumerate(order):
            cards = dcards if seat == dealer else h.hands[seat]
            for i, c in enumerate(cards):
                deck[4 * i + k] = c
        return deck


def _claimed_before(r: Rules, h: HandLine) -> list[int] | None:
    """The scores before a deal by the record's own claims: its scores minus its deltas (a cancelled deal: its
    scores); None when the line does not say."""
    if h.scores is None:
        return None
    sc = _team_list(r, h.scores)
    if sc is None:
        return None
    if h.deltas is None:
        return list(sc) if h.redeal else None
    dl = _team_list(r, h.deltas)
    return None if dl is None else [sc[s] - dl[s] for s in range(4)]


def _match_at(r: Rules, dealer: int, scores: list[int]) -> Match:
    """A match about to deal, part-way at ``scores`` (the start_scores of a header, or the running scores).

    ``Match(scores=...)`` when they are consistent (partners equal in the auction family); otherwise
    (a record whose claimed team scores differ between partners, already reported) the scores are set
    as claimed so the replay goes on from what the record says.
    """
    if r.individual or (scores[0] == scores[2] and scores[1] == scores[3]):
        return Match(r, dealer, scores)
    m = Match(r, dealer)
    m.scores = list(scores)
    return m


# two cards written together -> their codes (2,704 entries): the deck is read four characters at a time
_CARD_PAIRS: dict[str, tuple[int, int]] = {a + b: (ca, cb) for a, ca in _CARD_CODE.items() for b, cb in _CARD_CODE.items()}
# seats in play order from each leader, for each step (+1 ccw, +3 cw)
_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {
    step: tuple(tuple((ld + step * k) % 4 for k in range(4)) for ld in range(4)) for step in (1, 3)}


def _is(v: object, n: int) -> bool:
    """``v`` is the integer ``n`` (not a bool or float that compares equal)."""
    return type(v) is int and v == n


def _ints_are(v: object, want: list[int]) -> bool:
    """``v`` is the list ``want`` of four integers (no bool or float that compares equal)."""
    return (type(v) is list and v == want and len(v) == 4
            and type(v[0]) is type(v[1]) is type(v[2]) is type(v[3]) is int)


_CANONICAL_KEYS = frozenset({"type", "match", "hand", "dealer", "deck", "revealed", "trump", "bids", "redeal",
                             "contract", "tricks", "tricks_won", "deltas", "scores", "outcome"})
_OUTCOME_KEYS = frozenset({"winner", "clause", "match_over"})


def _score_clause(r: Rules, rec: HandRecord) -> str:
    if r.individual:
        return "score.individual"
    assert rec.contract is not None
    n = rec.contract[1]
    if n == 13 and r.bid13 != "normal":
        return "score.bid13"
    tw = rec.tricks_won
    if 13 in (tw[0] + tw[2], tw[1] + tw[3]) and r.kaboot != "none":
        return "score.kaboot"
    return "score.standard" if r.score_style == "standard" else "score.bid-only"


# ------------------------------------------------------------------ running over files

ReportFn = Callable[[Report], None]


def verify_items(items: Iterable[Item], *, ruleset: str | None = None, options: dict[str, Any] | None = None,
                 on_report: ReportFn | None = None) -> tuple[Summary, list[Report]]:
    """Verify parsed items; returns the summary and the reports (unless ``on_report`` takes them)."""
    v = Verifier(ruleset, options)
    kept: list[Report] = []
    sink = on_report or kept.append
    for it in items:
        for rep in v.feed(it):
            sink(rep)
    return v.summary, kept


def verify_lines(lines: Iterable[bytes | str], *, file: str = "<input>", ruleset: str | None = None,
                 options: dict[str, Any] | None = None, fast: bool = True) -> tuple[Summary, list[Report]]:
    """Verify records given as lines (bytes or str); for tests and callers holding records in memory.

    ``fast=False`` replays every hand through the engine (no fast path); the
    reports are the same either way.
    """
    v = Verifier(ruleset, options, fast)
    v.summary.files = 1
    kept: list[Report] = []
    for i, ln in enumerate(lines, start=1):
        data = ln.encode("utf-8", "surrogateescape") if isinstance(ln, str) else ln
        kept.extend(v.feed_line(data if len(data) <= MAX_LINE else None, len(data), file, i))
    return v.summary, kept


def verify_match(m: Match, match_id: str = "m") -> tuple[Summary, list[Report]]:
    """Write ``m`` as records and verify them (a round trip)."""
    return verify_lines(list(match_lines(m, match_id)), file=f"<match {match_id}>")


def _open_error(path: str, e: OSError) -> RecordError:
    return RecordError(path, 0, "(file)", f"cannot read: {e.strerror or e}")


def _verify_range(path: str, start: int, end: int | None, ruleset: str | None, options: dict[str, Any] | None,
                  on_report: ReportFn, max_line: int = MAX_LINE, fast: bool = True) -> tuple[Summary, int]:
    """Verify the matches whose header starts in [start, end) (from byte 0: everything before ``end``).

    Returns the summary and the number of lines covered (from the first
    header found, or from line 1 when ``start`` is 0).
    """
    v = Verifier(ruleset, options, fast)
    lines = 0
    with open(path, "rb") as f:
        pos = start
        if start > 0:
            f.seek(start - 1)
            if f.read(1) != b"\n":  # start is inside a line: that line belongs to the range before
                while True:
                    more = f.readline(1 << 20)
                    pos += len(more)
                    if not more or more.endswith(b"\n"):
                        break
            for off, data, _n in _read_lines(f, pos, None, max_line):
                if end is not None and off >= end:
                    return v.summary, 0
                if data is not None and _is_header(data):
                    pos = off
                    break
            else:
                return v.summary, 0
        for off, data, n in _read_lines(f, pos, None, max_line):
            if end is not None and off >= end and data is not None and _is_header(data):
                break
            lines += 1
            for rep in v.feed_line(data, n, path, lines):
                on_report(rep)
    return v.summary, lines


def _is_header(data: bytes) -> bool:
    if b"match" not in data and b"ruleset" not in data:
        return False
    return isinstance(parse_line(data), MatchHeader)


@dataclass(slots=True)
class _Chunk:
    path: str
    index: int
    start: int
    end: int | None
    ruleset: str | None
    options: dict[str, Any] | None
    fast: bool = True


def _run_chunk(c: _Chunk) -> tuple[Summary, list[Report], int, int]:
    reps: list[Report] = []
    try:
        s, n = _verify_range(c.path, c.start, c.end, c.ruleset, c.options, reps.append, fast=c.fast)
    except OSError as e:
        s, n = Summary(unreadable_files=1), 0
        reps = [_open_error(c.path, e)]
    return s, reps, n, (c.end if c.end is not None else c.start)


def _verify_stream(f: IO[bytes], name: str, v: Verifier, sink: ReportFn,
                   progress: Callable[[int], None] | None) -> None:
    lineno = 0
    last = 0
    try:
        for off, data, n in _read_lines(f):
            lineno += 1
            for rep in v.feed_line(data, n, name, lineno):
                sink(rep)
            if progress is not None and off - last > (1 << 20):
                progress(off)
                last = off
    except OSError as e:  # a read error in the middle of a file
        err = RecordError(name, lineno + 1, "(file)", f"read error: {e.strerror or e}; the rest of the file is "
                          "not checked")
        v.summary.unreadable_files += 1
        sink(err)


def verify_paths(paths: Sequence[str], *, ruleset: str | None = None, options: dict[str, Any] | None = None,
                 jobs: int = 1, on_report: ReportFn | None = None,
                 on_progress: Callable[[int, int], None] | None = None,
                 chunk_bytes: int = 4 << 20, fast: bool = True) -> Summary:
    """Verify files (``-`` is standard input); reports go to ``on_report`` in file and line order.

    ``jobs`` > 1 splits each regular file into byte ranges aligned to match
    headers and verifies them in worker processes (a match is never split: a
    single match longer than a range is checked by one worker); standard input
    and pipes are read in this process. ``on_progress(done, total)`` is called
    with bytes. Never raises on bad input: an unreadable file is a report.
    """
    summary = Summary()
    sink: ReportFn = on_report or (lambda _r: None)
    sizes: dict[str, int] = {}
    regular: dict[str, bool] = {}
    for p in paths:
        try:
            st = os.stat(p) if p != "-" else None
            sizes[p] = st.st_size if st is not None else 0
            regular[p] = st is not None and stat.S_ISREG(st.st_mode)
        except OSError:
            sizes[p], regular[p] = 0, False
    grand = sum(sizes.values())
    done = 0
    pool: Any = None

    def progress_from(base: int) -> Callable[[int], None] | None:
        if on_progress is None:
            return None
        report = on_progress

        def prog(d: int) -> None:
            report(base + d, grand)

        return prog

    try:
        for p in paths:
            summary.files += 1
            prog = progress_from(done)
            if jobs > 1 and regular[p] and sizes[p] > 0:
                if pool is None:
                    pool = _make_pool(jobs)
                summary.merge(_verify_parallel(pool, p, sizes[p], jobs, chunk_bytes, ruleset, options, fast, sink,
                                               prog))
            else:
                v = Verifier(ruleset, options, fast)
                if p == "-":
                    import sys

                    _verify_stream(sys.stdin.buffer, "<stdin>", v, sink, prog)
                else:
                    try:
                        f = open(p, "rb")
                    except OSError as e:
                        summary.unreadable_files += 1
                        sink(_open_error(p, e))
                        continue
                    with f:
                        _verify_stream(f, p, v, sink, prog)
                summary.merge(v.summary)
            done += sizes[p]
            if on_progress is not None:
                on_progress(done, grand)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return summary


def _make_pool(jobs: int) -> Any:
    import multiprocessing as mp

    try:
        rulesets()  # parse the ruleset files once, before the workers fork
    except TarneebError:
        pass  # each worker reports it against the match headers
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    return ctx.Pool(jobs)


def _verify_parallel(pool: Any, path: str, size: int, jobs: int, chunk_bytes: int, ruleset: str | None,
                     options: dict[str, Any] | None, fast: bool, sink: ReportFn,
                     progress: Callable[[int], None] | None) -> Summary:
    summary = Summary()
    step = max(1 << 16, min(chunk_bytes, size // (jobs * 4) + 1))
    starts = list(range(0, size, step))
    chunks = [_Chunk(path, i, a, starts[i + 1] if i + 1 < len(starts) else None, ruleset, options, fast)
              for i, a in enumerate(starts)]
    offset = 0
    for s, reps, n, upto in pool.imap(_run_chunk, chunks):
        for rep in reps:
            if rep.line > 0:
                rep.line += offset
            sink(rep)
        offset += n
        s.files = 0
        summary.merge(s)
        if progress is not None:
            progress(min(upto, size))
    return summary


__all__ = [
    "FORMAT", "VERSION", "Divergence", "HandLine", "Item", "MatchHeader", "RecordError", "Report", "Summary",
    "TrickLine", "Verifier", "bid_text", "hand_dict", "header_dict", "match_dicts", "match_lines", "parse_line",
    "read_records", "verify_items", "verify_lines", "verify_match", "verify_paths", "write_match",
]
