"""The situation file of the referee: reading it, checking it, and the facts it states.

A *situation* (TOML or JSON, schema ``spec/disputes/schema.json``) states the facts the players agree on
(dealer, scores, hands or the relevant cards, bids, tricks taken, the trick in progress) and one question.
:func:`load_situation` / :func:`parse_situation` build a :class:`Situation` and raise :class:`SituationError`,
naming the file and the fields in conflict, on malformed or contradictory facts (a card in two places, too
many cards, a void contradicted by a held card, ...). Nothing here depends on a ruleset's rules beyond
loading it by name; the rulings are :mod:`tarneeb.ruling.decision`'s.

The referee's own error classes live here for now: :class:`SituationError` (reported to the user),
:class:`Missing` (a fact a ruleset needs is not given) and :class:`NotApplicable` (the facts are of the other
bidding family).
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core.actions import BIDS, Bid, parse_action
from tarneeb.core.ambiguity import check_reading, selectable_readings, with_readings
from tarneeb.core.cards import NO_TRUMP, SUIT_NAMES, card_str, parse_card, parse_suit, player_name
from tarneeb.core.clauses import IRREGULARITIES
from tarneeb.core.spec import OptionValue, Rules, Ruleset, load_rules, resolve_ruleset, ruleset_files_allowed, rulesets
from tarneeb.errors import CardError, SituationError, TarneebError, did_you_mean, echo, os_error_words, shorten

KINDS: tuple[str, ...] = (
    "card-legal", "trick-winner", "bid-legal", "redeal", "score", "winner", "next-dealer", "trump",
    "who-leads", "whose-turn", "irregularity",
)
KIND_QUESTIONS: dict[str, str] = {
    "card-legal": "is this card legal?",
    "trick-winner": "who wins this trick?",
    "bid-legal": "is this bid legal?",
    "redeal": "is the hand redealt, and who deals?",
    "score": "what does each player score?",
    "winner": "has a team won?",
    "next-dealer": "who deals next?",
    "trump": "what is trump?",
    "who-leads": "who leads this trick?",
    "whose-turn": "whose turn is it?",
    "irregularity": "what happens after this irregularity?",
}
# what people type for a question kind -> the kind they mean (offered as "did you mean", never taken silently)
KIND_ALIASES: dict[str, str] = {
    "who-wins": "winner", "who-won": "winner", "wins": "winner", "won": "winner", "game-over": "winner",
    "legal": "card-legal", "can-play": "card-legal", "play-legal": "card-legal", "revoke": "irregularity",
    "dealer": "next-dealer", "who-deals": "next-dealer", "who-deals-next": "next-dealer", "lead": "who-leads",
    "leader": "who-leads", "turn": "whose-turn", "who-plays": "whose-turn", "trick": "trick-winner",
    "who-takes": "trick-winner", "points": "score", "scores": "score", "misdeal": "redeal", "throw-in": "redeal",
    "bid": "bid-legal", "can-bid": "bid-legal", "trumps": "trump",
}


def unknown_kind(kind: object, file_too: bool = False) -> str:
    """The message for a question kind that is none of KINDS (``file_too``: nor a file): the kinds, and the one
    meant when it is close."""
    what = "neither a question kind nor a file" if file_too else "not a question kind"
    return (f"{shorten(kind)} is {what}{did_you_mean(str(kind), KINDS, KIND_ALIASES)} "
            f"(the kinds: {', '.join(KINDS)})")
_TOP_KEYS = {
    "schema", "title", "description", "ruleset", "options", "dealer", "scores", "scores_after", "hands",
    "voids", "revealed", "bids", "contract", "auction", "tricks", "played", "trick", "hand", "question",
    "expected", "sources", "trump", "history", "deals", "readings",
}
_QUESTION_KEYS = ("kind", "seat", "card", "bid", "irregularity")


# ------------------------------------------------------------------ errors


class Missing(Exception):
    """A fact a ruleset needs is not in the situation."""

    def __init__(self, fld: str, why: str) -> None:
        self.field = fld
        self.why = why
        super().__init__(f"{fld}: {why}")


class NotApplicable(Exception):
    """The facts are of the other bidding family than the ruleset's."""


# --------------------------------------------------------------- situation


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    seat: int | None = None
    card: int | None = None
    bid: Bid | None = None
    irregularity: str | None = None


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    bid: int
    trump: int | None  # 0..3, 4 = no trump, None = not stated


@dataclass(frozen=True, slots=True)
class TrickInProgress:
    leader: int
    cards: tuple[int, ...]
    seats: tuple[int | None, ...] = ()  # the seat stated for each card (None: not stated); () when none is
    led: int | None = None  # the led suit, stated without its card

    def led_suit(self) -> int:
        """The suit led (-1 while nobody has played)."""
        if self.cards:
            return self.cards[0] // 13
        return -1 if self.led is None else self.led


@dataclass(frozen=True, slots=True)
class PastDeal:
    """One deal of a sequence (``deals``): what became of it, or the bids that decide it."""

    index: int
    hand: str | None = None  # "played" / "cancelled"
    bids: tuple[int, ...] | None = None
    auction: tuple[Bid, ...] | None = None


@dataclass(slots=True)
class Situation:
    file: str
    title: str
    targets: list[tuple[str, dict[str, OptionValue]]]
    all_rulesets: bool
    question: Question
    dealer: int | None = None
    scores: list[int] | None = None
    scores_after: list[int] | None = None
    hands: dict[int, list[int]] = field(default_factory=dict)
    voids: dict[int, set[int]] = field(default_factory=dict)
    revealed: int | None = None
    bids: list[int | None] | None = None
    contract: Contract | None = None
    auction: list[Bid] | None = None
    tricks: list[int] | None = None
    played: list[int] = field(default_factory=list)
    trick: TrickInProgress | None = None
    hand_result: str | None = None
    expected: dict[str, dict[str, Any]] = field(default_factory=dict)
    trump: int | None = None  # stated directly (0..3, 4 = no trump)
    history: list[TrickInProgress] = field(default_factory=list)  # finished tricks of this hand, in order
    deals: list[PastDeal] = field(default_factory=list)  # earlier deals, in order, the first by ``dealer``
    seat_scores: dict[int, int] = field(default_factory=dict)  # personal scores stated for some seats only
    seat_tricks: dict[int, int] = field(default_factory=dict)  # tricks stated for some seats only
    readings: dict[str, str] = field(default_factory=dict)  # ambiguity -> the reading chosen (spec/ambiguities.toml)
    # what the referee stepped from these facts under one rules object (tarneeb.ruling.facts.kept); never copied
    kept: dict[object, tuple[object, object]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def err(self, fields: Sequence[str], message: str) -> SituationError:
        """A :class:`SituationError` of this situation's file about ``fields``."""
        return SituationError(self.file, fields, message)


def _seat(s: Situation | str, fld: str, v: object) -> int:
    file = s.file if isinstance(s, Situation) else s
    if isinstance(v, str) and v.strip().isdigit():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 4:
        raise SituationError(file, [fld], f"{echo(v)} is not a seat (0..3)")
    return v


def _int(file: str, fld: str, v: object) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise SituationError(file, [fld], f"{echo(v)} is not a whole number")
    return v


def _card(file: str, fld: str, v: object) -> int:
    if not isinstance(v, str):
        raise SituationError(file, [fld], f"{echo(v)} is not a card (write it like AS, 10H, 2C)")
    try:
        return parse_card(v)
    except CardError as e:
        raise SituationError(file, [fld], str(e)) from None


def _cards(file: str, fld: str, v: object) -> list[int]:
    if not isinstance(v, list):
        raise SituationError(file, [fld], "should be a list of cards")
    return [_card(file, f"{fld}[{i}]", x) for i, x in enumerate(v)]


def _per_seat(file: str, fld: str, v: object) -> dict[int, object]:
    """A table seat -> value, or a list of four values (null/absent = unknown)."""
    if isinstance(v, list):
        if len(v) != 4:
            raise SituationError(file, [fld], f"a list by seat needs 4 entries, got {len(v)}")
        return {i: x for i, x in enumerate(v) if x is not None}
    if isinstance(v, dict):
        return {_seat(file, f"{fld}.{k}", k): x for k, x in v.items() if x is not None}
    raise SituationError(file, [fld], "should be a list of 4 values by seat or a table seat -> value")


def _strain(file: str, fld: str, v: object) -> int:
    t = str(v).strip().upper()
    try:
        return NO_TRUMP if t in ("N", "NT", "NO TRUMP") else parse_suit(t)
    except CardError as e:
        raise SituationError(file, [fld], str(e)) from None


def _trick(file: str, fld: str, t: object, finished: bool = False) -> TrickInProgress:
    """``{ leader, cards, led }``; a card is written "KD" or, tagged with its seat, ``{ seat, card }``."""
    if not isinstance(t, dict) or "leader" not in t:
        raise SituationError(file, [fld], "give a table { leader, cards }")
    for k in t:
        if k not in ("leader", "cards", "led"):
            raise SituationError(file, [f"{fld}.{k}"], "unknown field; valid: leader, cards, led")
    raw = t.get("cards", [])
    if not isinstance(raw, list):
        raise SituationError(file, [f"{fld}.cards"], "should be a list of cards")
    cards: list[int] = []
    seats: list[int | None] = []
    for i, x in enumerate(raw):
        if isinstance(x, dict):
            if set(x) != {"seat", "card"}:
                raise SituationError(file, [f"{fld}.cards[{i}]"], "a seat-tagged card is { seat, card }")
            seats.append(_seat(file, f"{fld}.cards[{i}].seat", x["seat"]))
            cards.append(_card(file, f"{fld}.cards[{i}].card", x["card"]))
        else:
            seats.append(None)
            cards.append(_card(file, f"{fld}.cards[{i}]", x))
    if finished and len(cards) != 4:
        raise SituationError(file, [f"{fld}.cards"], f"a finished trick has 4 cards, got {len(cards)}")
    led = None
    if "led" in t:
        try:
            led = parse_suit(str(t["led"]))
        except CardError as e:
            raise SituationError(file, [f"{fld}.led"], str(e)) from None
        if cards and cards[0] // 13 != led:
            raise SituationError(file, [f"{fld}.led", f"{fld}.cards[0]"],
                                 f"the first card {card_str(cards[0])} is not a {SUIT_NAMES[led][:-1]}")
    return TrickInProgress(_seat(file, f"{fld}.leader", t["leader"]), tuple(cards),
                           tuple(seats) if any(x is not None for x in seats) else (), led)


def _deals(file: str, v: object) -> list[PastDeal]:
    if not isinstance(v, list):
        raise SituationError(file, ["deals"], "should be a list of deals in order, e.g. [{ hand = \"cancelled\" }]")
    out = []
    for i, d in enumerate(v):
        fld = f"deals[{i}]"
        if not isinstance(d, dict):
            raise SituationError(file, [fld], "a deal is a table { hand, bids, auction }")
        for k in d:
            if k not in ("hand", "bids", "auction"):
                raise SituationError(file, [f"{fld}.{k}"], "unknown field; valid: hand, bids, auction")
        hand = d.get("hand")
        if hand is not None and hand not in ("played", "cancelled"):
            raise SituationError(file, [f"{fld}.hand"], f"{echo(hand)}; valid: played, cancelled")
        bids = None
        if "bids" in d:
            per = _per_seat(file, f"{fld}.bids", d["bids"])
            if len(per) != 4:
                raise SituationError(file, [f"{fld}.bids"], "give all four bids")
            bids = tuple(_int(file, f"{fld}.bids.{k}", per[k]) for k in range(4))
        auction = None
        if "auction" in d:
            if not isinstance(d["auction"], list):
                raise SituationError(file, [f"{fld}.auction"], "should be the list of calls in order")
            auction = tuple(_parse_bid(file, f"{fld}.auction[{j}]", x) for j, x in enumerate(d["auction"]))
        if hand is None and bids is None and auction is None:
            raise SituationError(file, [fld], "say what became of the deal (hand = played / cancelled) or give "
                                              "its bids or auction")
        out.append(PastDeal(i, hand, bids, auction))
    return out


def _parse_bid(file: str, fld: str, v: object) -> Bid:
    if isinstance(v, int) and not isinstance(v, bool):
        return BIDS[v] if 0 <= v < 14 else Bid(v)
    if isinstance(v, str):
        try:
            a = parse_action("bid:" + v)
        except TarneebError as e:
            raise SituationError(file, [fld], str(e)) from None
        if not isinstance(a, Bid):
            raise RuntimeError(f"bid:{v} read as {a}, not a bid")
        return a
    raise SituationError(file, [fld], f"{echo(v)} is not a bid (a number, 'pass', or e.g. '8H')")


def _targets(file: str, raw: dict[str, Any]) -> tuple[list[tuple[str, dict[str, OptionValue]]], bool]:
    spec = raw.get("ruleset")
    if spec is None:
        raise SituationError(file, ["ruleset"], "missing: name a ruleset, a list of rulesets, or \"all\"")
    opts = raw.get("options", {})
    if not isinstance(opts, dict) or any(not isinstance(v, dict) for v in opts.values()):
        raise SituationError(file, ["options"], "should be a table: ruleset id -> table of option values")
    known = rulesets()

    def unknown(rid: str) -> bool:  # a built-in id, or a ruleset file (a path relative to the situation file)
        try:
            resolve_ruleset(rid, Path(file).parent)
        except TarneebError:
            return True
        return False

    for rid in opts:
        if unknown(rid):
            raise SituationError(file, [f"options.{rid}"], f"unknown ruleset; valid: {', '.join(known)}")
    everything = spec == "all"
    entries: list[object] = list(known) if everything else (spec if isinstance(spec, list) else [spec])
    if len(entries) > MAX_RULESETS:
        raise SituationError(file, ["ruleset"], f"{len(entries)} rulesets listed; at most {MAX_RULESETS}")
    out: list[tuple[str, dict[str, OptionValue]]] = []
    for i, e in enumerate(entries):
        where = "ruleset" if not isinstance(spec, list) else f"ruleset[{i}]"
        if isinstance(e, str):
            rid, o = e, dict(opts.get(e, {}))
        elif isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("options", {}), dict):
            rid, o = e["id"], {**opts.get(e["id"], {}), **e.get("options", {})}
        else:
            raise SituationError(file, [where], f"{echo(e)}: give a ruleset id or a table {{ id, options }}")
        if unknown(rid):
            raise SituationError(file, [where], f"unknown ruleset {echo(rid)}; valid: all, {', '.join(known)}"
                                 + (", or the path of a ruleset file" if ruleset_files_allowed() else ""))
        try:
            load_rules(rid, o)
        except TarneebError as err:
            raise SituationError(file, [where if rid not in opts else f"options.{rid}"], str(err)) from None
        if (rid, o) not in out:  # the same ruleset with the same options listed twice is asked once
            out.append((rid, o))
    if not out:
        raise SituationError(file, ["ruleset"], "no ruleset given")
    return out, everything


def _chosen(rs: Ruleset, readings: Mapping[str, str]) -> dict[str, str]:
    """The readings of ``readings`` that concern ``rs`` (its selectable ambiguities)."""
    mine = {a.id for a in selectable_readings(rs)}
    return {aid: rd for aid, rd in readings.items() if aid in mine}


def _readings(file: str, raw: dict[str, Any], targets: list[tuple[str, dict[str, OptionValue]]]) -> dict[str, str]:
    """``readings`` (ambiguity id -> reading id, as ``--reading``): each applies to the rulesets asked that have
    the ambiguity, and must concern one of them; a reading not in the register is refused naming the valid ones."""
    chosen = raw.get("readings", {})
    if not isinstance(chosen, dict) or any(not isinstance(k, str) or not isinstance(v, str) for k, v in chosen.items()):
        raise SituationError(file, ["readings"], "should be a table: ambiguity id -> reading id")
    asked = [load_rules(rid, o).ruleset for rid, o in targets] if chosen else []
    for aid, rd in chosen.items():
        concerned = [rs for rs in asked if _chosen(rs, {aid: rd})]
        try:
            for rs in concerned:
                with_readings(rs, {aid: rd}, "readings")
            if not concerned:  # an ambiguity no ruleset can follow (the documents' silence on a remedy): why
                check_reading(aid, rd, "readings.")
        except TarneebError as e:
            raise SituationError(file, [f"readings.{aid}"], str(e).split(": ", 2)[-1]) from None
        if not concerned:
            raise SituationError(file, [f"readings.{aid}"],
                                 "no ruleset asked has this ambiguity among its selectable readings")
    return dict(chosen)


def rules_for(situation: Situation, rid: str, options: Mapping[str, OptionValue]) -> Rules:
    """The rules of ``rid`` with ``options``, following the situation's readings that concern it."""
    rules = load_rules(rid, options)
    chosen = _chosen(rules.ruleset, situation.readings)
    return load_rules(with_readings(rules.ruleset, chosen), options) if chosen else rules


def load_situation(path: str | Path) -> Situation:
    """Read and check a situation file (``.toml`` or ``.json``)."""
    return parse_situation(read_raw(path), str(path))


def read_raw(path: str | Path) -> dict[str, Any]:
    """The decoded table of a situation file (``.toml`` or ``.json``), unchecked."""
    p = Path(path)
    file = str(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise SituationError(file, [], f"cannot read: {os_error_words(e)}") from None
    return decode_situation(text, file, p.suffix.lower() == ".json")


# what a situation may hold: a real one is a few hundred bytes, 4 levels deep, its longest list a hand's plays
MAX_TEXT = 64 * 1024  # characters
MAX_DEPTH = 8
MAX_ITEMS = 5_000  # values in all
MAX_LIST = 200
MAX_NUMBER = 10**6
MAX_STRING = 1_000
MAX_RULESETS = 32


def decode_situation(text: str, file: str, as_json: bool) -> dict[str, Any]:
    """A situation's text (JSON when ``as_json``, else TOML) decoded, its size and its syntax bounded (nesting,
    long numbers): a :class:`SituationError` located in ``file`` otherwise, in time and memory linear in the text."""
    if len(text) > MAX_TEXT:
        raise SituationError(file, ["(file)"], f"{len(text)} characters; a situation is at most {MAX_TEXT}")
    try:
        raw: Any = json.loads(text) if as_json else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise SituationError(file, ["(syntax)"], str(e)) from None
    except RecursionError:
        raise SituationError(file, ["(syntax)"], f"nested too deeply; a situation needs at most {MAX_DEPTH} "
                                                 "levels") from None
    except ValueError:  # an integer past Python's int_max_str_digits
        raise SituationError(file, ["(syntax)"], f"a number of more than {sys.get_int_max_str_digits()} "
                                                 "digits") from None
    if not isinstance(raw, dict):
        raise SituationError(file, ["(top)"], "a situation is a table of facts")
    return raw  # bounded further by parse_situation (check_bounds), which every path takes next


def check_bounds(raw: dict[str, Any], file: str) -> None:
    """Refuse a decoded situation past the bounds above, naming the first field past one (no recursion)."""
    stack: list[tuple[str, Any, int]] = [(k, v, 1) for k, v in raw.items()]
    seen = 0
    while stack:
        where, v, depth = stack.pop()
        seen += 1
        if seen > MAX_ITEMS:
            raise SituationError(file, ["(top)"], f"more than {MAX_ITEMS} values; a situation needs far fewer")
        if depth > MAX_DEPTH:
            raise SituationError(file, [where], f"nested {depth} levels deep; at most {MAX_DEPTH}")
        if isinstance(v, bool):
            continue
        if isinstance(v, int | float) and abs(v) > MAX_NUMBER:
            shown = str(v) if isinstance(v, int) else f"{v:.6g}"
            raise SituationError(file, [where], f"{shown}: out of range (at most {MAX_NUMBER} either way)")
        if isinstance(v, str) and len(v) > MAX_STRING:
            raise SituationError(file, [where], f"a text of {len(v)} characters; at most {MAX_STRING}")
        if isinstance(v, list):
            if len(v) > MAX_LIST:
                raise SituationError(file, [where], f"a list of {len(v)} items; at most {MAX_LIST}")
            stack.extend((f"{where}[{i}]", x, depth + 1) for i, x in enumerate(v))
        elif isinstance(v, dict):
            stack.extend((f"{where}.{k}", x, depth + 1) for k, x in v.items())


def parse_situation(raw: dict[str, Any], file: str = "(situation)") -> Situation:
    """Build and check a :class:`Situation` from a decoded TOML/JSON table (bounded as :func:`check_bounds`)."""
    check_bounds(raw, file)
    for k in raw:
        if k not in _TOP_KEYS:
            raise SituationError(file, [k], f"unknown field; valid: {', '.join(sorted(_TOP_KEYS))}")
    if raw.get("schema", 1) != 1:
        raise SituationError(file, ["schema"], f"{echo(raw.get('schema'))}: only schema 1 is understood")
    targets, everything = _targets(file, raw)
    question = _parse_question(file, raw)
    situation = Situation(file=file, title=str(raw.get("title", Path(file).stem)), targets=targets,
                  all_rulesets=everything, question=question)
    situation.readings = _readings(file, raw, targets)
    if "dealer" in raw:
        situation.dealer = _seat(file, "dealer", raw["dealer"])
    # the facts, group by group in the order their errors are reported
    _read_scores(file, raw, situation)
    _read_hands(file, raw, situation)
    _read_bidding(file, raw, situation)
    _read_play(file, raw, situation)
    if "deals" in raw:
        situation.deals = _deals(file, raw["deals"])
    if "hand" in raw:
        if raw["hand"] not in ("played", "cancelled"):
            raise SituationError(file, ["hand"], f"{echo(raw['hand'])}; valid: played, cancelled")
        situation.hand_result = raw["hand"]
    exp = raw.get("expected", {})
    if not isinstance(exp, dict) or any(not isinstance(v, dict) for v in exp.values()):
        raise SituationError(file, ["expected"], "should be a table: ruleset label -> expected answer")
    situation.expected = exp
    _check_cards(situation)
    return situation


def _parse_question(file: str, raw: dict[str, Any]) -> Question:
    """The situation's question: its kind and what it asks about (a seat, a card, a bid, an irregularity)."""
    asked = raw.get("question")
    if not isinstance(asked, dict) or "kind" not in asked:
        raise SituationError(file, ["question.kind"], f"missing: one of {', '.join(KINDS)}")
    if asked["kind"] not in KINDS:
        raise SituationError(file, ["question.kind"], unknown_kind(asked["kind"]))
    for k in asked:
        if k not in _QUESTION_KEYS:
            raise SituationError(file, [f"question.{k}"], f"unknown field; valid: {', '.join(_QUESTION_KEYS)}")
    irr = asked.get("irregularity")
    if asked["kind"] == "irregularity" and irr not in IRREGULARITIES:
        raise SituationError(file, ["question.irregularity"], f"{echo(irr)}; valid: {', '.join(IRREGULARITIES)}")
    if irr is not None and asked["kind"] != "irregularity":
        raise SituationError(file, ["question.irregularity"], "only an irregularity question names one")
    question = Question(
        kind=asked["kind"],
        seat=_seat(file, "question.seat", asked["seat"]) if "seat" in asked else None,
        card=_card(file, "question.card", asked["card"]) if "card" in asked else None,
        bid=_parse_bid(file, "question.bid", asked["bid"]) if "bid" in asked else None,
        irregularity=irr,
    )
    return question


def _read_scores(file: str, raw: dict[str, Any], situation: Situation) -> None:
    """The scores before the hand (all four, two team scores, or some seats' own) and after it, into ``situation``."""
    if isinstance(raw.get("scores"), dict):  # some seats' personal scores only
        per = _per_seat(file, "scores", raw["scores"])
        situation.seat_scores = {k: _int(file, f"scores.{k}", x) for k, x in per.items()}
        if len(per) == 4:
            situation.scores = [situation.seat_scores[k] for k in range(4)]
    for key in ("scores", "scores_after"):
        if key in raw and not isinstance(raw[key], dict):
            v = raw[key]
            if not isinstance(v, list) or len(v) not in (2, 4):
                raise SituationError(file, [key], "give 4 personal scores by seat (or 2 team scores)")
            vals = [_int(file, f"{key}[{i}]", x) for i, x in enumerate(v)]
            setattr(situation, key, vals)
    if isinstance(raw.get("scores_after"), dict):  # a table by seat: every seat's score after the hand
        per = _per_seat(file, "scores_after", raw["scores_after"])
        if len(per) != 4:
            absent = [k for k in range(4) if k not in per]
            raise SituationError(file, [f"scores_after.{k}" for k in absent],
                                 f"not given: a table by seat needs every player's score after the hand (missing: "
                                 f"{', '.join(player_name(k) for k in absent)}); or give a list of 4 personal scores "
                                 f"or 2 team scores")
        situation.scores_after = [_int(file, f"scores_after.{k}", per[k]) for k in range(4)]
    if situation.scores is not None and situation.scores_after is not None and len(situation.scores) != len(situation.scores_after):
        raise situation.err(["scores", "scores_after"], "give both with the same number of entries")


def _read_hands(file: str, raw: dict[str, Any], situation: Situation) -> None:
    """The cards held (``hands``), the suits a seat is known to lack (``voids``) and the dealer's turned card."""
    for seat, v in _per_seat(file, "hands", raw.get("hands", {})).items():
        situation.hands[seat] = _cards(file, f"hands.{seat}", v)
    for seat, v in _per_seat(file, "voids", raw.get("voids", {})).items():
        if not isinstance(v, list):
            raise SituationError(file, [f"voids.{seat}"], "should be a list of suits, e.g. [\"H\"]")
        try:
            situation.voids[seat] = {parse_suit(str(x)) for x in v}
        except CardError as e:
            raise SituationError(file, [f"voids.{seat}"], str(e)) from None
    if "revealed" in raw:
        situation.revealed = _card(file, "revealed", raw["revealed"])


def _read_bidding(file: str, raw: dict[str, Any], situation: Situation) -> None:
    """The individual bids, the contract and the auction's calls, into ``situation``."""
    if "bids" in raw:
        per = _per_seat(file, "bids", raw["bids"])
        situation.bids = [None] * 4
        for seat, v in per.items():
            situation.bids[seat] = _int(file, f"bids.{seat}", v)
    if "contract" in raw:
        c = raw["contract"]
        if not isinstance(c, dict) or "seat" not in c or "bid" not in c:
            raise SituationError(file, ["contract"], "give a table { seat, bid, trump }")
        trump = _strain(file, "contract.trump", c["trump"]) if "trump" in c else None
        situation.contract = Contract(_seat(file, "contract.seat", c["seat"]), _int(file, "contract.bid", c["bid"]), trump)
    if "auction" in raw:
        a = raw["auction"]
        if not isinstance(a, list):
            raise SituationError(file, ["auction"], "should be the list of calls in order, e.g. [\"pass\", \"8\"]")
        situation.auction = [_parse_bid(file, f"auction[{i}]", x) for i, x in enumerate(a)]


def _read_play(file: str, raw: dict[str, Any], situation: Situation) -> None:
    """The tricks taken, the cards played, the trick in progress, a stated trump and the finished tricks."""
    question = situation.question
    if "tricks" in raw:
        per = _per_seat(file, "tricks", raw["tricks"])
        situation.seat_tricks = {k: _int(file, f"tricks.{k}", x) for k, x in per.items()}
        if len(per) == 4:
            situation.tricks = [situation.seat_tricks[k] for k in range(4)]
        elif question.kind != "score" or question.seat is None:
            raise SituationError(file, ["tricks"], "give the tricks taken by each of the 4 seats (a score question "
                                                   "about one seat needs only that seat's)")
    situation.played = _cards(file, "played", raw.get("played", []))
    if "trick" in raw:
        situation.trick = _trick(file, "trick", raw["trick"])
    if "trump" in raw:
        situation.trump = _strain(file, "trump", raw["trump"])
        if situation.contract is not None and situation.contract.trump is not None and situation.contract.trump != situation.trump:
            raise SituationError(file, ["trump", "contract.trump"], "the stated trump and the contract's differ")
    if "history" in raw:
        h = raw["history"]
        if not isinstance(h, list):
            raise SituationError(file, ["history"], "should be the finished tricks in order, each { leader, cards }")
        situation.history = [_trick(file, f"history[{i}]", x, finished=True) for i, x in enumerate(h)]


def completed_tricks(situation: Situation) -> int | None:
    """How many tricks the situation says are finished (None when it does not say)."""
    if situation.tricks is not None:
        return sum(situation.tricks)
    if situation.played or situation.history:
        return len(situation.played) // 4 + len(situation.history)
    return None


def _check_cards(situation: Situation) -> None:
    """Ruleset-independent contradictions among the stated cards and counts."""
    where: dict[int, str] = {}

    def place(card: int, fld: str) -> None:
        if card in where:
            raise situation.err([where[card], fld], f"{card_str(card)} is in both places")
        where[card] = fld

    for i, c in enumerate(situation.played):
        place(c, f"played[{i}]")
    for k, h in enumerate(situation.history):
        for i, c in enumerate(h.cards):
            place(c, f"history[{k}].cards[{i}]")
    if situation.trick is not None:
        if len(situation.trick.cards) > 4:
            raise situation.err(["trick.cards"], f"a trick has at most 4 cards, got {len(situation.trick.cards)}")
        for i, c in enumerate(situation.trick.cards):
            place(c, f"trick.cards[{i}]")
    for seat, cards in sorted(situation.hands.items()):
        for i, c in enumerate(cards):
            place(c, f"hands.{seat}[{i}]")
    if situation.tricks is not None:
        for seat, t in enumerate(situation.tricks):
            if not 0 <= t <= 13:
                raise situation.err([f"tricks.{seat}"], f"{t} tricks: a seat takes 0 to 13")
        if sum(situation.tricks) > 13:
            raise situation.err(["tricks"], f"the seats took {sum(situation.tricks)} tricks in all; a hand has 13")
        n_done = len(situation.played) + 4 * len(situation.history)
        if n_done and n_done != 4 * sum(situation.tricks):
            raise situation.err(["played" if situation.played else "history", "tricks"],
                                f"{n_done} cards played in finished tricks, but {sum(situation.tricks)} tricks were taken "
                                f"({4 * sum(situation.tricks)} cards)")
    if len(situation.played) // 4 + len(situation.history) > 13:
        raise situation.err(["history"], "a hand has 13 tricks")
    if situation.played and len(situation.played) % 4:
        raise situation.err(["played"], f"{len(situation.played)} cards: finished tricks hold a multiple of 4")
    done = completed_tricks(situation)
    if situation.trick is not None and done is not None and done >= 13 and situation.trick.cards:
        raise situation.err(["trick", "tricks"], "all 13 tricks are finished, so no trick can be in progress")
    in_trick = trick_seats_unknown_step(situation)
    for seat, cards in sorted(situation.hands.items()):
        cap = 13 - (done or 0) - (1 if seat in in_trick else 0)
        if len(cards) > cap:
            why = f"{player_name(seat)} can hold at most {cap} cards"
            if done:
                why += f" after {done} finished tricks"
            if seat in in_trick:
                why += " and its card in the trick in progress"
            raise situation.err([f"hands.{seat}"] + (["tricks"] if done else []), f"{len(cards)} cards listed; {why}")
        for c in cards:
            if c // 13 in situation.voids.get(seat, set()):
                raise situation.err([f"hands.{seat}", f"voids.{seat}"],
                                    f"{player_name(seat)} is said to be void in {SUIT_NAMES[c // 13]} but holds {card_str(c)}")
    if situation.revealed is not None and situation.dealer is not None:
        for seat, cards in situation.hands.items():
            if seat != situation.dealer and situation.revealed in cards:
                raise situation.err(["revealed", f"hands.{seat}"],
                                    f"the turned card {card_str(situation.revealed)} is the dealer's "
                                    f"({player_name(situation.dealer)}), but it is listed in {player_name(seat)}'s hand")
        if (situation.dealer in situation.voids and situation.revealed // 13 in situation.voids[situation.dealer]
                and situation.revealed not in situation.played
                and not (situation.trick and situation.revealed in situation.trick.cards)):
            raise situation.err(["revealed", f"voids.{situation.dealer}"],
                                f"the dealer still holds the turned card {card_str(situation.revealed)}, so is not void in its suit")
    asked = situation.question
    if asked.card is not None:
        if asked.card in where:
            loc = where[asked.card]
            if not loc.startswith("hands."):
                raise situation.err(["question.card", loc], f"{card_str(asked.card)} was already played")
            if asked.seat is not None and not loc.startswith(f"hands.{asked.seat}["):
                raise situation.err(["question.card", loc],
                                    f"{card_str(asked.card)} is in another player's hand, not {player_name(asked.seat)}'s")
        if asked.seat is not None and asked.card // 13 in situation.voids.get(asked.seat, set()):
            raise situation.err(["question.card", f"voids.{asked.seat}"],
                                f"{player_name(asked.seat)} is said to be void in {SUIT_NAMES[asked.card // 13]}")
    if situation.bids is not None:
        for seat, b in enumerate(situation.bids):
            if b is not None and not 0 <= b <= 13:
                raise situation.err([f"bids.{seat}"], f"{b} tricks cannot be bid: a hand has 13")
    if situation.contract is not None and not 1 <= situation.contract.bid <= 13:
        raise situation.err(["contract.bid"], f"{situation.contract.bid} tricks cannot be bid: a hand has 13")


def trick_seats_unknown_step(situation: Situation) -> set[int]:
    """Seats that certainly played to the trick in progress (both directions agree only on the leader)."""
    if situation.trick is None or not situation.trick.cards:
        return set()
    n = len(situation.trick.cards)
    if n in (1, 4):
        return {situation.trick.leader} if n == 1 else {0, 1, 2, 3}
    if n == 2:
        return {situation.trick.leader}
    return {situation.trick.leader, core_rules.partner(situation.trick.leader)}


def holds(situation: Situation, seat: int, suit: int) -> bool | None:
    """Whether ``seat`` holds a card of ``suit``, as far as the facts tell (None: they do not)."""
    cards = situation.hands.get(seat, [])
    if any(c // 13 == suit for c in cards):
        return True
    if suit in situation.voids.get(seat, set()):
        return False
    done = completed_tricks(situation)
    in_trick = situation.trick is not None and seat in trick_seats_unknown_step(situation)
    if done is not None and len(cards) == 13 - done - int(in_trick) and seat in situation.hands:
        return False
    if done is None and len(cards) == 13:
        return False
    return None


__all__ = [
    "KINDS", "KIND_QUESTIONS", "Contract", "Missing", "NotApplicable", "PastDeal", "Question", "Situation", "SituationError",
    "TrickInProgress", "completed_tricks", "holds", "load_situation", "parse_situation", "read_raw", "trick_seats_unknown_step",
]
