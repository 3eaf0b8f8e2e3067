"""The score sheet file, version 1 (``spec/sheets/README.md``): read and checked for shape, never for a rule.

A shape the format does not allow (not JSON, another format or version, a field of the wrong type, an unknown
field, a ruleset that cannot be loaded) is a :class:`~tarneeb.errors.SheetError` naming the file and the field:
the file cannot be used. Whether an entry is possible (a bid, the tricks, a hand after the match ended) is for core
to say when the sheet is replayed (:mod:`tarneeb.sheet.replay`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.core.actions import PASS, Bid, parse_action
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.cards import STRAINS
from tarneeb.core.spec import Rules, load_rules, resolve_ruleset
from tarneeb.errors import ActionError, BadInput, SheetError

FORMAT = "tarneeb-score-sheet"
VERSION = 1
_TOP = ("format", "version", "ruleset", "options", "readings", "players", "first_dealer", "hands", "meta")
_HAND = ("bids", "calls", "contract", "trump", "tricks_won", "bidding_team_tricks", "redeal", "note")
_REDEALS = ("deal.weak-redeal",)  # the cancelled deal a sheet states; the others follow from the bids or calls


@dataclass(frozen=True)
class SheetHand:
    """One hand as written: the bids (individual family, in bidding order) or the auction's calls, or its contract
    (seat, bid, and trump where it was written); the tricks by seat or the contract's team's tricks; a deal thrown
    in for a weak hand."""

    bids: tuple[Bid, ...] | None = None
    calls: tuple[Bid, ...] | None = None
    contract: tuple[int, Bid] | None = None
    trump: int | None = None
    tricks_won: tuple[int, ...] | None = None
    bidding_team_tricks: int | None = None
    redeal: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Sheet:
    """A score sheet: the rules, the players by seat (seat 0 first), the first dealer's seat, the hands in order."""

    file: str
    ruleset: str
    options: Mapping[str, Any]
    readings: Mapping[str, str]
    players: tuple[str, str, str, str]
    first_dealer: int
    hands: tuple[SheetHand, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    base: Path | None = None  # the folder a ruleset file's path is relative to

    def rules(self) -> Rules:
        """The rules the sheet names: a built-in ruleset or a ruleset file (relative to the sheet), its options
        and readings; what cannot be loaded is a SheetError at the field that names it."""
        try:
            rs = resolve_ruleset(self.ruleset, self.base)
        except BadInput as e:
            raise SheetError(self.file, "ruleset", _reason(e)) from None
        try:
            rs = with_readings(rs, dict(self.readings), "readings")
        except BadInput as e:
            raise SheetError(self.file, "readings", _reason(e)) from None
        try:
            return load_rules(rs, dict(self.options))
        except BadInput as e:
            raise SheetError(self.file, "options", _reason(e)) from None


def _reason(e: BadInput) -> str:
    return str(getattr(e, "reason", None) or e)


def read_sheet(path: str | Path, text: str | None = None) -> Sheet:
    """The sheet in the file ``path`` (or in ``text``, named ``path``): JSON, UTF-8 (a byte order mark is taken)."""
    name = str(path)
    if text is None:
        try:
            text = Path(path).read_bytes().decode("utf-8-sig")
        except OSError as e:
            raise SheetError(name, "(file)", e.strerror or str(e)) from None
        except UnicodeDecodeError:
            raise SheetError(name, "(file)", "the file is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SheetError(name, f"line {e.lineno}", f"not JSON: {e.msg}") from None
    return sheet_from_data(data, name, Path(path).parent if text is None or Path(path).exists() else None)


def sheet_from_data(data: Any, name: str = "(sheet)", base: Path | None = None) -> Sheet:
    """A sheet from its JSON value (as a page holds it), checked for shape."""
    if not isinstance(data, dict):
        raise SheetError(name, "(file)", "a score sheet is a JSON object")
    if data.get("format") != FORMAT:
        raise SheetError(name, "format", f"{FORMAT!r} is needed, not {data.get('format')!r}")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise SheetError(name, "version", f"this tarneeb reads version {VERSION} of the score sheet, not "
                                          f"{data.get('version')!r}")
    _unknown(name, "", data, _TOP)
    for key in ("ruleset", "players", "first_dealer", "hands"):
        if key not in data:
            raise SheetError(name, key, "missing")
    ruleset = data["ruleset"]
    if not isinstance(ruleset, str) or not ruleset:
        raise SheetError(name, "ruleset", "a ruleset id or the path of a ruleset file is needed")
    options, readings = data.get("options", {}), data.get("readings", {})
    if not isinstance(options, dict):
        raise SheetError(name, "options", "an object of option values by name is needed")
    if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
        raise SheetError(name, "readings", "an object of reading ids by ambiguity id is needed")
    players = data["players"]
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) and p.strip() for p in players):
        raise SheetError(name, "players", "the four players' names are needed, in seat order")
    first = data["first_dealer"]
    if type(first) is not int or not 0 <= first < 4:
        raise SheetError(name, "first_dealer", "the first dealer's seat is needed, 0 to 3 (seat 0 is the first player)")
    hands = data["hands"]
    if not isinstance(hands, list):
        raise SheetError(name, "hands", "a list of hands is needed")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise SheetError(name, "meta", "an object is needed")
    return Sheet(name, ruleset, options, readings, (players[0], players[1], players[2], players[3]), first,
                 tuple(_hand(name, k, h) for k, h in enumerate(hands, start=1)), meta, base)


def _unknown(name: str, where: str, data: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known and not str(key).startswith("x-"):
            raise SheetError(name, f"{where}{key}", f"unknown field; the fields are {', '.join(known)} (and x-... of "
                                                   "your own)")


def _bid(name: str, where: str, value: Any) -> Bid:
    """A bid or call as written: a number of tricks, ``"pass"``, or text such as ``"8"`` or ``"8H"``."""
    if type(value) is int:
        return Bid(value)
    if isinstance(value, str):
        try:
            action = parse_action("bid:" + value)
        except ActionError:
            action = None
        if isinstance(action, Bid):
            return PASS if action.n is None else action
    raise SheetError(name, where, f"{json.dumps(value)} is no bid: write a number of tricks, \"pass\", or e.g. \"8H\"")


def _count(name: str, where: str, value: Any) -> int:
    if type(value) is not int:
        raise SheetError(name, where, f"{json.dumps(value)} is not a whole number of tricks")
    return value


def _hand(name: str, k: int, h: Any) -> SheetHand:
    at = f"hand {k}: "
    if not isinstance(h, dict):
        raise SheetError(name, f"hand {k}", "a hand is a JSON object")
    _unknown(name, at, h, _HAND)
    bids = calls = tricks = None
    contract = None
    trump = team_tricks = redeal = None
    if "bids" in h:
        if not isinstance(h["bids"], list):
            raise SheetError(name, at + "bids", "a list of the bids in bidding order is needed")
        bids = tuple(_bid(name, f"{at}bids", b) for b in h["bids"])
    if "calls" in h:
        if not isinstance(h["calls"], list):
            raise SheetError(name, at + "calls", "a list of the auction's calls in order is needed")
        calls = tuple(_bid(name, f"{at}calls", b) for b in h["calls"])
    if "contract" in h:
        c = h["contract"]
        if not isinstance(c, dict) or set(c) != {"seat", "bid"} or type(c["seat"]) is not int or not 0 <= c["seat"] < 4:
            raise SheetError(name, at + "contract", "write the contract as {\"seat\": 0..3, \"bid\": \"9\"}")
        b = _bid(name, f"{at}contract.bid", c["bid"])
        if b.n is None:
            raise SheetError(name, at + "contract.bid", "a contract is a bid, not a pass")
        contract = (c["seat"], b)
    if "trump" in h:
        t = h["trump"]
        if not isinstance(t, str) or t.upper() not in STRAINS:
            raise SheetError(name, at + "trump", f"write C, D, H, S or N, not {json.dumps(t)}")
        trump = STRAINS.index(t.upper())
    if "tricks_won" in h:
        t = h["tricks_won"]
        if not isinstance(t, list):
            raise SheetError(name, at + "tricks_won", "a list of the tricks each player took, in seat order, is needed")
        tricks = tuple(_count(name, f"{at}tricks_won", x) for x in t)
    if "bidding_team_tricks" in h:
        team_tricks = _count(name, f"{at}bidding_team_tricks", h["bidding_team_tricks"])
    if "redeal" in h:
        redeal = h["redeal"]
        if redeal not in _REDEALS:
            raise SheetError(name, at + "redeal", f"only {', '.join(_REDEALS)} is written; a deal the bids or calls "
                                                  "cancel is cancelled by them")
    stated = [key for key in ("bids", "calls", "contract", "redeal") if key in h]
    if len(stated) != 1:
        raise SheetError(name, f"hand {k}", "give one of bids (individual bids), calls or contract (an auction), or "
                                            "redeal (a deal thrown in for a weak hand)"
                         + (f", not {' and '.join(stated)}" if stated else ""))
    if tricks is not None and team_tricks is not None:
        raise SheetError(name, f"hand {k}", "give the tricks once: tricks_won or bidding_team_tricks, not both")
    note = h.get("note", "")
    if not isinstance(note, str):
        raise SheetError(name, at + "note", "a note is text")
    return SheetHand(bids, calls, contract, trump, tricks, team_tricks, redeal, note)


__all__ = ["FORMAT", "VERSION", "Sheet", "SheetHand", "read_sheet", "sheet_from_data"]
