"""The lenient reader: record lines to :class:`MatchHeader`, :class:`HandLine` or a located :class:`RecordProblem`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO, Any

try:
    import orjson
except ModuleNotFoundError:  # Pyodide (the offline site): the standard library's json, same values
    from tarneeb import purejson as orjson  # type: ignore[no-redef]

from tarneeb.core.actions import Bid
from tarneeb.records.format import (
    _CARD_CODE,
    _LENIENT,
    EXTENSION_PREFIX,
    FORMAT,
    MAX_LINE,
    VERSION,
    HandLine,
    Item,
    MatchHeader,
    RecordProblem,
    TrickLine,
    _Bad,
    _bid,
    _card,
    _cards,
    _int,
    _ints,
    _pbn_hand,
    _seat,
    _short,
    _strain,
    lenient,
)

# ------------------------------------------------------------------ reader

_HEADER_FIELDS = frozenset({"type", "format", "version", "match", "ruleset", "options", "readings", "first_dealer", "seats",
                            "meta", "start_scores", "bids_by_seat", "tricks_won_by_team", "deal_order"})
_NULLABLE = frozenset({"revealed", "trump", "redeal", "contract"})  # hand fields the schema lets be null
_HAND_FIELDS = frozenset({"type", "match", "hand", "dealer", "deck", "hands", "revealed", "trump", "claims", "bids", "redeal",
                          "contract", "tricks", "play", "tricks_won", "deltas", "scores", "outcome", "meta"})


_TRICK_FIELDS = frozenset({"leader", "cards", "winner"})
_CONTRACT_FIELDS = frozenset({"seat", "bid"})


def _unknown(obj: dict[str, Any], known: frozenset[str]) -> list[tuple[str, str]]:
    return [(_name(k), "unknown field, ignored") for k in obj
            if k not in known and not (isinstance(k, str) and k.startswith(EXTENSION_PREFIX))]


def _name(k: str) -> str:
    return k if k and k.replace("_", "").replace("-", "").isalnum() and len(k) <= 40 else orjson.dumps(k[:40]).decode()


def parse_line(data: bytes | str, file: str = "<input>", line: int = 0, obj: dict[str, Any] | None = None) -> Item:
    """Read one line; never raises: unreadable input becomes a :class:`RecordProblem`.

    A UTF-8 byte-order mark opening the file (line 1, as some Windows editors write it) is skipped.
    ``obj``: the line already decoded from JSON (by a caller that tried it first), not decoded again.
    """
    if line <= 1:
        if isinstance(data, bytes) and data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        elif isinstance(data, str) and data.startswith("\ufeff"):
            data = data[1:]
    try:
        if obj is None:
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
        return RecordProblem(file, line, "(json)", f"malformed JSON: {msg}")
    except RecursionError:
        return RecordProblem(file, line, "(json)", "malformed JSON: nested too deeply")
    if not isinstance(obj, dict):
        return RecordProblem(file, line, "(line)", f"a record line is a JSON object, not {_short(obj)}")
    kind = obj.get("type")
    seen: list[tuple[str, str, str]] = []
    _LENIENT.seen = seen
    try:
        if kind is None:
            kind = "hand" if ("deck" in obj or "hands" in obj) else ("match" if "ruleset" in obj else None)
            if kind is not None:
                lenient("type-missing", "type", f"no type; taken as {kind!r} (the schema needs \"type\")")
        if kind == "match":
            hd = _parse_header(obj, file, line)
            hd.lenient = seen
            return hd
        if kind == "hand":
            hl = _parse_hand(obj, file, line)
            hl.lenient = seen
            return hl
    except _Bad as b:
        return RecordProblem(file, line, b.field, b.message, _match_of(obj), _hand_of(obj))
    except (RecursionError, MemoryError):  # pragma: no cover - absurd nesting the JSON parser let through
        return RecordProblem(file, line, "(line)", "record too large or nested too deeply")
    finally:
        _LENIENT.seen = None
    return RecordProblem(file, line, "type", f"{_short(kind)}: a record line has type 'match' or 'hand'")


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
    if type(obj.get("match")) is int:
        lenient("match-number", "match", "a match id written as a number; the schema takes a string")
    rs = obj.get("ruleset")
    if rs is not None and not isinstance(rs, str):
        raise _Bad("ruleset", f"a ruleset id is a string, not {_short(rs)}")
    options = obj.get("options", {})
    if options is None:
        lenient("null-field", "options", "options given as null, taken as absent")
        options = {}
    if not isinstance(options, dict):
        raise _Bad("options", f"options are an object of name: value, not {_short(options)}")
    for k, v in options.items():
        if not isinstance(v, bool | int | str):
            raise _Bad(f"options.{k}", f"an option value is a boolean, integer or string, not {_short(v)}")
    readings = obj.get("readings", {})
    if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
        raise _Bad("readings", f"readings are an object of ambiguity id: reading id, not {_short(readings)}")
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
    forms = {}
    for k in ("bids_by_seat", "tricks_won_by_team"):
        v = obj.get(k, False)
        if not isinstance(v, bool):
            raise _Bad(k, f"{k} is true or false, not {_short(v)}")
        forms[k] = v
    do = obj.get("deal_order", "rotation")
    if do not in ("rotation", "blocks"):
        raise _Bad("deal_order", f"{_short(do)}: the deal order is 'rotation' (one card at a time, the default) or "
                                 "'blocks' (13 cards to each seat in turn)")
    return MatchHeader(file, line, mid if mid is not None else f"line-{line}", rs, options, first_dealer, seats, meta,
                       named=mid is not None, start_scores=start, warnings=_unknown(obj, _HEADER_FIELDS),
                       bids_by_seat=forms["bids_by_seat"], team_tricks=forms["tricks_won_by_team"],
                       deal_blocks=do == "blocks", readings=dict(readings))


def _parse_hand(obj: dict[str, Any], file: str, line: int) -> HandLine:
    """A hand record's fields, read leniently (each leniency counted, unknown fields warned of); :class:`_Bad` on
    a field that cannot be read."""
    h = HandLine(file, line)
    g = obj.get
    for k, v in obj.items():
        if v is None and k not in _NULLABLE and k in _HAND_FIELDS:
            lenient("null-field", k, f"{k} given as null, taken as absent (the schema leaves it out)")
    if type(obj.get("match")) is int:
        lenient("match-number", "match", "a match id written as a number; the schema takes a string")
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
    _read_deal(obj, h)
    if "revealed" in obj:
        v = obj["revealed"]
        h.revealed = -1 if v is None else _card(v, "revealed")
    if "trump" in obj:
        h.trump = _strain(obj["trump"], "trump")
    h.claims = _read_claims(g("claims"))
    v = g("bids")
    if v is not None:
        h.bids = _read_bids(v)
    if "redeal" in obj:
        h.redeal = _read_redeal(obj["redeal"])
    if "contract" in obj:
        _read_contract(obj["contract"], h)
    v = g("tricks")
    if v is not None:
        h.tricks = _read_tricks(v, h)
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
        _read_outcome(v, h)
    if not _HAND_FIELDS.issuperset(obj):
        h.warnings.extend(_unknown(obj, _HAND_FIELDS))
    return h


def _read_deal(obj: dict[str, Any], h: HandLine) -> None:
    """The deal into ``h``: ``deck`` (52 cards in deal order) or ``hands`` (four hands, seat 0 to 3); both: the
    hands the deck is claimed to deal (checked: deal.order)."""
    v = obj.get("deck")
    if v is not None:
        deck = _cards(v, "deck")
        if len(deck) != 52:
            raise _Bad("deck", f"a deck lists 52 cards in deal order; got {len(deck)}")
        h.deck = deck
    if "hands" in obj:
        hs = obj["hands"]
        if not isinstance(hs, list) or len(hs) != 4:
            raise _Bad("hands", "hands are a list of four hands, seat 0 to 3")
        h.hands = [_pbn_hand(x, f"hands[{i}]") if isinstance(x, str) and "." in x else _cards(x, f"hands[{i}]")
                   for i, x in enumerate(hs)]
    if h.deck is None and h.hands is None:
        raise _Bad("deck", "missing: a hand record needs the deal, as 'deck' (52 cards in deal order) or 'hands'")


def _read_claims(v: object) -> list[tuple[int, bool]] | None:
    """The weak seats' choices, ``[[seat, "ask" | "keep"], ...]`` in turn (ambiguity weak-hand, reading claimed)."""
    if v is None:
        return None
    if not isinstance(v, list):
        raise _Bad("claims", f"claims are a list of [seat, \"ask\" or \"keep\"] in turn, not {_short(v)}")
    out: list[tuple[int, bool]] = []
    for i, x in enumerate(v):
        if not (isinstance(x, list) and len(x) == 2 and x[1] in ("ask", "keep")):
            raise _Bad(f"claims[{i}]", f"a claim is [seat, \"ask\" or \"keep\"], not {_short(x)}")
        out.append((_seat(x[0], f"claims[{i}][0]"), x[1] == "ask"))
    return out


def _read_bids(v: object) -> list[tuple[int | None, Bid]]:
    """The calls in order, each ``[seat, bid]`` (or ``{seat, bid}``, or a bare bid without its seat)."""
    if not isinstance(v, list):
        raise _Bad("bids", f"bids are a list of [seat, bid] in order, not {_short(v)}")
    bids: list[tuple[int | None, Bid]] = []
    for i, x in enumerate(v):
        if isinstance(x, list) and len(x) == 2:
            bids.append((_seat(x[0], f"bids[{i}][0]"), _bid(x[1], f"bids[{i}][1]")))
        elif isinstance(x, dict):
            seat = x.get("seat")
            bids.append((None if seat is None else _seat(seat, f"bids[{i}].seat"), _bid(x.get("bid"), f"bids[{i}].bid")))
        else:
            lenient("bid-bare", f"bids[{i}]", "a bid without its seat; the schema takes [seat, bid]")
            bids.append((None, _bid(x, f"bids[{i}]")))
    return bids


def _read_redeal(v: object) -> str:
    """``redeal`` as the line keeps it: "" for none (null), "*" for a redeal without its clause, else the clause."""
    if v is None or v is False:
        if v is False:
            lenient("redeal-bool", "redeal", "redeal false read as null (the schema takes null or a clause id)")
        return ""
    if v is True:
        lenient("redeal-bool", "redeal", "redeal true: a redeal without its clause (the schema takes null or a "
                "clause id such as bid.total)")
        return "*"
    if isinstance(v, str) and v:
        return v
    raise _Bad("redeal", f"redeal is null or the id of the clause that cancelled the deal, not {_short(v)}")


def _read_contract(v: object, h: HandLine) -> None:
    """``contract`` into ``h``: ``{seat, bid}``, or null (no contract was reached)."""
    if v is None:
        h.no_contract = True
    elif isinstance(v, dict):
        h.contract = (_seat(v.get("seat"), "contract.seat"), _bid(v.get("bid"), "contract.bid"))
        if h.contract[1].n is None:
            raise _Bad("contract.bid", "a contract is a bid, not a pass")
        h.warnings.extend((f"contract.{k}", m) for k, m in _unknown(v, _CONTRACT_FIELDS))
    else:
        raise _Bad("contract", f"a contract is {{'seat': s, 'bid': '8H'}} or null, not {_short(v)}")


def _read_tricks(v: object, h: HandLine) -> list[TrickLine]:
    """The tricks, each ``{leader, cards, winner}`` (the usual four canonical cards read at once), warnings into
    ``h``."""
    if not isinstance(v, list) or len(v) > 13:
        raise _Bad("tricks", "tricks are a list of at most 13 {leader, cards, winner}")
    tricks = []
    code = _CARD_CODE
    for i, t in enumerate(v):
        if type(t) is dict and len(t) == 3:  # the usual trick: {leader, cards, winner}, seats and four cards
            cs, ld, wn = t.get("cards"), t.get("leader"), t.get("winner")
            if (type(cs) is list and len(cs) == 4 and type(ld) is int and 0 <= ld <= 3 and type(wn) is int
                    and 0 <= wn <= 3):
                try:
                    a, b, c, d = cs
                    tricks.append(TrickLine([code[a], code[b], code[c], code[d]], ld, wn))
                    continue
                except (KeyError, TypeError):  # a card not written canonically: read below
                    pass
        if isinstance(t, dict):  # the field names (tricks[i].cards, ...) are spelled only when something is said
            cs = t.get("cards")
            cards = None
            if type(cs) is list:
                try:
                    cards = [code[x] for x in cs]
                except (KeyError, TypeError):  # a card not written canonically: _cards reads it or says why not
                    pass
            if cards is None:
                cards = _cards(cs, f"tricks[{i}].cards")
            ld, wn = t.get("leader"), t.get("winner")
            if (ld is None and "leader" in t) or (wn is None and "winner" in t):
                lenient("null-field", f"tricks[{i}]", "a trick's leader or winner given as null, taken as absent")
            tl = TrickLine(cards,
                           None if ld is None else ld if type(ld) is int and 0 <= ld <= 3
                           else _seat(ld, f"tricks[{i}].leader"),
                           None if wn is None else wn if type(wn) is int and 0 <= wn <= 3
                           else _seat(wn, f"tricks[{i}].winner"))
            if not _TRICK_FIELDS.issuperset(t):
                h.warnings.extend((f"tricks[{i}].{k}", m) for k, m in _unknown(t, _TRICK_FIELDS))
        else:
            f = f"tricks[{i}]"
            lenient("trick-list", f, "a trick written as its cards alone; the schema takes "
                    "{\"leader\", \"cards\", \"winner\"}")
            tl = TrickLine(_cards(t, f))
        if len(tl.cards) != 4:
            raise _Bad(f"tricks[{i}].cards", f"a trick has 4 cards; got {len(tl.cards)}")
        tricks.append(tl)
    return tricks


def _read_outcome(v: object, h: HandLine) -> None:
    """``outcome`` into ``h``: the winner (team 0, 1 or null), the deciding clause, whether the match is over."""
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
    """Every line of a file as a :class:`MatchHeader`, :class:`HandLine` or :class:`RecordProblem`.

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


def _item(data: bytes | None, n: int, fname: str, lineno: int, max_line: int,
          obj: dict[str, Any] | None = None) -> Item | None:
    if data is None:
        return RecordProblem(fname, lineno, "(line)", f"line of {n} bytes is longer than the limit of {max_line}")
    if obj is not None:
        return parse_line(data, fname, lineno, obj)
    if not data.strip():
        return None
    if not data.endswith(b"\n"):
        it = parse_line(data, fname, lineno)
        if isinstance(it, RecordProblem) and it.field == "(json)":
            it.message += " (the last line is not terminated: truncated file?)"
        return it
    return parse_line(data, fname, lineno)

