"""The referee form's fields, turned into a situation table (the schema of ``spec/disputes/schema.json``).

This only moves the words of the form into the situation's fields; it checks nothing about the rules. A field
that is not a number where a number goes is passed on as written, so the referee's own parser reports it
(``(form): scores[1]: 'x' is not a whole number``). Blank fields are facts not given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tarneeb.errors import SituationError, echo

FORM = "(form)"
SEATS = (0, 1, 2, 3)
SUIT_LETTERS = ("S", "H", "D", "C")
HISTORY_ROWS = 4  # finished tricks the form has rows for (a revoke found two tricks later needs three)
# The form's groups of fields and the situation keys each fills (``question.seat``: the question's own field).
GROUP_KEYS: dict[str, tuple[str, ...]] = {
    "q_seat": ("question.seat",), "q_card": ("question.card",), "q_bid": ("question.bid",),
    "dealer": ("dealer",), "trump": ("trump",), "scores": ("scores",), "bids": ("bids",), "contract": ("contract",),
    "auction": ("auction",), "held": ("hands",), "voids": ("voids",), "trick": ("trick",), "revealed": ("revealed",),
    "played": ("played",), "history": ("history",), "tricks": ("tricks",), "hand_result": ("deals",),
}
_TRUMP = ("dealer", "revealed", "contract", "trump")  # what decides trump: the turned card, or the contract
# The groups the form shows for each question (an irregularity by its kind): the facts that question reads. With
# the page's script, the others are folded away until asked for (or while they hold a value); without it, or
# after "every field", all are shown. tests/test_serve.py checks every dispute's facts are in its question's groups.
KIND_GROUPS: dict[str, tuple[str, ...]] = {
    "card-legal": ("q_seat", "q_card", "trick", "held", "voids", "history", "played", *_TRUMP),
    "trick-winner": ("trick", *_TRUMP),
    "bid-legal": ("q_seat", "q_bid", "dealer", "bids", "auction", "scores"),
    "redeal": ("dealer", "bids", "auction"),
    "score": ("q_seat", "dealer", "bids", "contract", "tricks", "scores"),
    "winner": ("dealer", "scores", "bids", "contract", "tricks"),
    "next-dealer": ("dealer", "hand_result", "bids", "auction"),
    "trump": _TRUMP,
    "who-leads": ("history", "trick", *_TRUMP, "bids", "auction"),  # a trick's winner needs trump
    "whose-turn": ("bids", "auction", "trick", *_TRUMP),
    "irregularity:revoke": ("q_seat", "history", *_TRUMP),
    "irregularity:bid-out-of-turn": ("dealer", "q_seat", "q_bid", "bids", "auction"),
    "irregularity:lead-out-of-turn": ("dealer", "q_seat", "q_card", "contract", "history", "bids"),
    "irregularity:exposed-card": ("q_seat", "q_card"),
    "irregularity:misdeal": ("dealer",),
    "irregularity:wrong-card-count": ("dealer", "q_seat", "held"),
}
FIRST_SEAT = {"en": 1, "ar": 1}  # how a page numbers players in typed tags: 1..4 (a situation's seats are 0..3)


def _text(form: Mapping[str, str], key: str) -> str:
    return str(form.get(key, "") or "").strip()


def _number(text: str) -> int | str:
    t = text.strip()
    return int(t) if re.fullmatch(r"[+-]?\d+", t) else t


def _cards(text: str) -> list[str]:
    return [c for c in re.split(r"[\s,;]+", text.strip().upper()) if c]


def _per_seat(form: Mapping[str, str], prefix: str) -> dict[str, int | str]:
    return {str(seat): _number(v) for seat in SEATS if (v := _text(form, f"{prefix}{seat}"))}


def _trick_cards(text: str, fld: str, first: int) -> list[str | dict[str, Any]]:
    """A trick's cards in play order; a card may carry its seat, ``7D@2`` (numbered as the page numbers
    seats: from ``first``), which becomes the situation's ``{ seat, card }``."""
    out: list[str | dict[str, Any]] = []
    for i, c in enumerate(_cards(text)):
        card, at, seat = c.partition("@")
        if not at:
            out.append(card)
            continue
        n = _number(seat)
        if not card or not isinstance(n, int) or not first <= n < first + 4:
            raise SituationError(FORM, [f"{fld}[{i}]"], f"{echo(c)}: write a card with its player as CARD@PLAYER, e.g. "
                                                       f"7D@{first + 2} (players {first}..{first + 3})")
        out.append({"seat": n - first, "card": card})
    return out


def _history(form: Mapping[str, str], first: int) -> list[dict[str, Any]]:
    """The finished tricks of the rows filled in (leader and cards), in row order."""
    out: list[dict[str, Any]] = []
    for i in range(HISTORY_ROWS):
        leader, text = _text(form, f"history_leader{i}"), _text(form, f"history_cards{i}")
        if not leader and not text:
            continue
        if not leader:
            raise SituationError(FORM, [f"history[{len(out)}].leader"], "say which player led this finished trick")
        out.append({"leader": _number(leader), "cards": _trick_cards(text, f"history[{len(out)}].cards", first)})
    return out


def situation_from_form(form: Mapping[str, str], chosen: Sequence[str], all_ids: Sequence[str],
                        lang: str = "en") -> dict[str, Any]:
    """The situation table the form describes. ``chosen``: the ruleset ids ticked (all of them: ``"all"``);
    ``lang``: the page's language, which says how typed seat tags are numbered (:data:`FIRST_SEAT`)."""
    first = FIRST_SEAT.get(lang, 0)
    if not chosen:
        raise SituationError(FORM, ["ruleset"], "tick at least one ruleset")
    raw: dict[str, Any] = {"schema": 1, "title": "Situation from the form"}
    raw["ruleset"] = "all" if set(chosen) >= set(all_ids) else list(chosen)
    q: dict[str, Any] = {"kind": _text(form, "kind")}
    if seat := _text(form, "q_seat"):
        q["seat"] = _number(seat)
    if card := _cards(_text(form, "q_card")):
        if len(card) > 1:
            raise SituationError(FORM, ["question.card"], f"ask about one card, got {len(card)}: {' '.join(card)}")
        q["card"] = card[0]
    if bid := _text(form, "q_bid"):
        q["bid"] = _number(bid)
    if q["kind"] == "irregularity":
        q["irregularity"] = _text(form, "irregularity")
    raw["question"] = q
    one_seat = q["kind"] == "score" and "seat" in q  # one seat's score: that seat's facts alone
    if dealer := _text(form, "dealer"):
        raw["dealer"] = _number(dealer)
    scores = _per_seat(form, "score")
    if scores:
        if set(scores) == {"0", "1"}:
            raw["scores"] = [scores["0"], scores["1"]]  # two team scores
        elif len(scores) == 4:
            raw["scores"] = [scores[str(s)] for s in SEATS]
        elif one_seat:
            raw["scores"] = scores
        else:
            missing = [f"scores[{s}]" for s in SEATS if str(s) not in scores]
            raise SituationError(FORM, missing, "give all 4 scores, players 1 to 4, or the 2 team scores as players 1 and 2")
    if bids := _per_seat(form, "bid"):
        raw["bids"] = bids
    tricks = _per_seat(form, "tricks")
    if tricks:
        if len(tricks) != 4 and not one_seat:
            raise SituationError(FORM, [f"tricks.{s}" for s in SEATS if str(s) not in tricks],
                                 "give the tricks taken by each of the 4 players (0 where none)")
        raw["tricks"] = tricks
    c_seat, c_bid, c_trump = _text(form, "contract_seat"), _text(form, "contract_bid"), _text(form, "contract_trump")
    if c_seat or c_bid or c_trump:
        contract: dict[str, Any] = {"seat": _number(c_seat) if c_seat else None, "bid": _number(c_bid) if c_bid else None}
        if None in contract.values():
            raise SituationError(FORM, ["contract"], "give the contract's player and bid (and its trump if named)")
        if c_trump:
            contract["trump"] = c_trump
        raw["contract"] = contract
    if trump := _text(form, "trump"):
        raw["trump"] = trump
    if auction := [a for a in re.split(r"[\s,;]+", _text(form, "auction")) if a]:
        raw["auction"] = [_number(a) for a in auction]
    if revealed := _cards(_text(form, "revealed")):
        if len(revealed) > 1:
            raise SituationError(FORM, ["revealed"], f"the dealer turns one card, got {len(revealed)}")
        raw["revealed"] = revealed[0]
    if played := _cards(_text(form, "played")):
        raw["played"] = played
    leader, trick_cards = _text(form, "trick_leader"), _cards(_text(form, "trick_cards"))
    if leader or trick_cards:
        if not leader:
            raise SituationError(FORM, ["trick.leader"], "say which player led the trick in progress")
        raw["trick"] = {"leader": _number(leader), "cards": _trick_cards(_text(form, "trick_cards"), "trick.cards",
                                                                         first)}
    if history := _history(form, first):
        raw["history"] = history
    held = _cards(_text(form, "held"))
    voids = [s for s in SUIT_LETTERS if form.get(f"void_{s}")]
    if held or voids:
        if "seat" not in q:
            raise SituationError(FORM, ["question.seat"], "say which player holds these cards (the player asked about)")
        if held:
            raw["hands"] = {str(q["seat"]): held}
        if voids:
            raw["voids"] = {str(q["seat"]): voids}
    if result := _text(form, "hand_result"):
        raw["hand"] = result
    if options := _options(_text(form, "options")):
        raw["options"] = options
    return raw


def _options(text: str) -> dict[str, dict[str, str]]:
    """``classic: must_trump=true, target=61`` (one ruleset a line, or ``;`` between rulesets) as the situation's
    ``options`` table; the values stay text, typed by the ruleset's loader."""
    out: dict[str, dict[str, str]] = {}
    for part in (p.strip() for p in re.split(r"[\n;]+", text)):
        if not part:
            continue
        rid, sep, rest = part.partition(":")
        if not sep:
            rid, _, rest = part.partition(" ")
        pairs = [p for p in re.split(r"[\s,]+", rest.strip()) if p]
        if not rid.strip() or not pairs or any("=" not in p for p in pairs):
            raise SituationError(FORM, ["options"], f"{echo(part)}: write RULESET: NAME=VALUE, e.g. classic: must_trump=true")
        opts = out.setdefault(rid.strip(), {})
        for p in pairs:
            name, _, value = p.partition("=")
            opts[name] = value
    return out
