"""Dispute resolution: settle "what happens now?" from a situation file.

A *situation* (TOML or JSON, schema ``spec/disputes/schema.json``) states the
facts the players agree on (dealer, scores, hands or the relevant cards, bids,
tricks taken, the trick in progress) and one question. :func:`resolve` answers
the question under each ruleset asked, with

* the ruling, computed by the engine (:mod:`tarneeb.core.rules`, and
  :class:`tarneeb.Match` for auctions); nothing here restates a rule,
* the chain of clauses that decide it (id, our wording, source document and
  heading, from :attr:`tarneeb.core.spec.Ruleset.clauses`),
* a flag for each point of the ambiguity register that bears on the ruling,
  with the ruling under each reading (computed by the engine on the ruleset's
  parameters adjusted to that reading, or marked as not modelled),
* with several rulesets, a line saying where they disagree.

Question kinds (``question.kind``): ``card-legal``, ``trick-winner``,
``bid-legal``, ``redeal``, ``score``, ``winner``, ``next-dealer``, ``trump``.

Contradictory facts (a card in two hands, too many cards, a trick holding a
card already played, a score change the ruleset's values cannot produce, ...)
raise :class:`SituationError` naming the file and the fields in conflict.
Missing facts raise it too when the ruleset was asked for by name; under
``ruleset = "all"`` a ruleset whose facts are missing is reported as
undecided, and one whose family the facts do not fit (individual bids against
an auction ruleset) as not applicable.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.core import rules as R
from tarneeb.core.actions import BIDS, Bid, Deal, parse_action
from tarneeb.core.ambiguity import Ambiguity, ambiguities
from tarneeb.core.cards import NO_TRUMP, STRAINS, SUIT_NAMES, SUITS, card_str, mask_of, parse_card, parse_suit, strain_name
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import OptionValue, Rules, load_rules, rulesets
from tarneeb.errors import CardError, IllegalAction, TarneebError

KINDS: tuple[str, ...] = (
    "card-legal", "trick-winner", "bid-legal", "redeal", "score", "winner", "next-dealer", "trump",
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
}
# The answer fields compared when deciding whether rulesets agree.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "card-legal": ("legal",), "trick-winner": ("winner",), "bid-legal": ("legal",),
    "redeal": ("redeal", "dealer"), "score": ("deltas",), "winner": ("winner",),
    "next-dealer": ("dealer",), "trump": ("trump",),
}
_TOP_KEYS = {
    "schema", "title", "description", "ruleset", "options", "dealer", "scores", "scores_after", "hands",
    "voids", "revealed", "bids", "contract", "auction", "tricks", "played", "trick", "hand", "question",
    "expected", "sources",
}


# ------------------------------------------------------------------ errors


class SituationError(TarneebError):
    """A situation that is malformed, contradictory or incomplete; names the file and the fields."""

    def __init__(self, file: str, fields: Sequence[str], message: str) -> None:
        self.file = file
        self.fields = tuple(fields)
        super().__init__(f"{file}: {' / '.join(fields)}: {message}")


class _Missing(Exception):
    """A fact a ruleset needs is not in the situation."""

    def __init__(self, fld: str, why: str) -> None:
        self.field = fld
        self.why = why
        super().__init__(f"{fld}: {why}")


class _NotApplicable(Exception):
    pass


# --------------------------------------------------------------- situation


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    seat: int | None = None
    card: int | None = None
    bid: Bid | None = None


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    bid: int
    trump: int | None  # 0..3, 4 = no trump, None = not stated


@dataclass(frozen=True, slots=True)
class TrickInProgress:
    leader: int
    cards: tuple[int, ...]


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

    def err(self, fields: Sequence[str], message: str) -> SituationError:
        return SituationError(self.file, fields, message)


def _seat(s: Situation | str, fld: str, v: object) -> int:
    file = s.file if isinstance(s, Situation) else s
    if isinstance(v, str) and v.strip().isdigit():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 4:
        raise SituationError(file, [fld], f"{v!r} is not a seat (0..3)")
    return v


def _int(file: str, fld: str, v: object) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise SituationError(file, [fld], f"{v!r} is not a whole number")
    return v


def _card(file: str, fld: str, v: object) -> int:
    if not isinstance(v, str):
        raise SituationError(file, [fld], f"{v!r} is not a card (write it like AS, 10H, 2C)")
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


def _parse_bid(file: str, fld: str, v: object) -> Bid:
    if isinstance(v, int) and not isinstance(v, bool):
        return BIDS[v] if 0 <= v < 14 else Bid(v)
    if isinstance(v, str):
        try:
            a = parse_action("bid:" + v)
        except TarneebError as e:
            raise SituationError(file, [fld], str(e)) from None
        assert isinstance(a, Bid)
        return a
    raise SituationError(file, [fld], f"{v!r} is not a bid (a number, 'pass', or e.g. '8H')")


def _targets(file: str, raw: dict[str, Any]) -> tuple[list[tuple[str, dict[str, OptionValue]]], bool]:
    spec = raw.get("ruleset")
    if spec is None:
        raise SituationError(file, ["ruleset"], "missing: name a ruleset, a list of rulesets, or \"all\"")
    opts = raw.get("options", {})
    if not isinstance(opts, dict) or any(not isinstance(v, dict) for v in opts.values()):
        raise SituationError(file, ["options"], "should be a table: ruleset id -> table of option values")
    known = rulesets()
    for rid in opts:
        if rid not in known:
            raise SituationError(file, [f"options.{rid}"], f"unknown ruleset; valid: {', '.join(known)}")
    everything = spec == "all"
    entries: list[object] = list(known) if everything else (spec if isinstance(spec, list) else [spec])
    out: list[tuple[str, dict[str, OptionValue]]] = []
    for i, e in enumerate(entries):
        where = "ruleset" if not isinstance(spec, list) else f"ruleset[{i}]"
        if isinstance(e, str):
            rid, o = e, dict(opts.get(e, {}))
        elif isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("options", {}), dict):
            rid, o = e["id"], {**opts.get(e["id"], {}), **e.get("options", {})}
        else:
            raise SituationError(file, [where], f"{e!r}: give a ruleset id or a table {{ id, options }}")
        if rid not in known:
            raise SituationError(file, [where], f"unknown ruleset {rid!r}; valid: all, {', '.join(known)}")
        try:
            load_rules(rid, o)
        except TarneebError as err:
            raise SituationError(file, [where if rid not in opts else f"options.{rid}"], str(err)) from None
        out.append((rid, o))
    if not out:
        raise SituationError(file, ["ruleset"], "no ruleset given")
    return out, everything


def load_situation(path: str | Path) -> Situation:
    """Read and check a situation file (``.toml`` or ``.json``)."""
    p = Path(path)
    file = str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SituationError(file, ["(file)"], str(e)) from None
    try:
        raw: Any = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise SituationError(file, ["(syntax)"], str(e)) from None
    if not isinstance(raw, dict):
        raise SituationError(file, ["(top)"], "a situation is a table of facts")
    return parse_situation(raw, file)


def parse_situation(raw: dict[str, Any], file: str = "(situation)") -> Situation:
    """Build and check a :class:`Situation` from a decoded TOML/JSON table."""
    for k in raw:
        if k not in _TOP_KEYS:
            raise SituationError(file, [k], f"unknown field; valid: {', '.join(sorted(_TOP_KEYS))}")
    if raw.get("schema", 1) != 1:
        raise SituationError(file, ["schema"], f"{raw.get('schema')!r}: only schema 1 is understood")
    targets, everything = _targets(file, raw)
    q = raw.get("question")
    if not isinstance(q, dict) or "kind" not in q:
        raise SituationError(file, ["question.kind"], f"missing: one of {', '.join(KINDS)}")
    if q["kind"] not in KINDS:
        raise SituationError(file, ["question.kind"], f"{q['kind']!r}; valid: {', '.join(KINDS)}")
    for k in q:
        if k not in ("kind", "seat", "card", "bid"):
            raise SituationError(file, [f"question.{k}"], "unknown field; valid: kind, seat, card, bid")
    question = Question(
        kind=q["kind"],
        seat=_seat(file, "question.seat", q["seat"]) if "seat" in q else None,
        card=_card(file, "question.card", q["card"]) if "card" in q else None,
        bid=_parse_bid(file, "question.bid", q["bid"]) if "bid" in q else None,
    )
    s = Situation(file=file, title=str(raw.get("title", Path(file).stem)), targets=targets,
                  all_rulesets=everything, question=question)
    if "dealer" in raw:
        s.dealer = _seat(file, "dealer", raw["dealer"])
    for key in ("scores", "scores_after"):
        if key in raw:
            v = raw[key]
            if not isinstance(v, list) or len(v) not in (2, 4):
                raise SituationError(file, [key], "give 4 personal scores by seat (or 2 team scores)")
            vals = [_int(file, f"{key}[{i}]", x) for i, x in enumerate(v)]
            setattr(s, key, vals)
    if s.scores is not None and s.scores_after is not None and len(s.scores) != len(s.scores_after):
        raise s.err(["scores", "scores_after"], "give both with the same number of entries")
    for seat, v in _per_seat(file, "hands", raw.get("hands", {})).items():
        s.hands[seat] = _cards(file, f"hands.{seat}", v)
    for seat, v in _per_seat(file, "voids", raw.get("voids", {})).items():
        if not isinstance(v, list):
            raise SituationError(file, [f"voids.{seat}"], "should be a list of suits, e.g. [\"H\"]")
        try:
            s.voids[seat] = {parse_suit(str(x)) for x in v}
        except CardError as e:
            raise SituationError(file, [f"voids.{seat}"], str(e)) from None
    if "revealed" in raw:
        s.revealed = _card(file, "revealed", raw["revealed"])
    if "bids" in raw:
        per = _per_seat(file, "bids", raw["bids"])
        s.bids = [None] * 4
        for seat, v in per.items():
            s.bids[seat] = _int(file, f"bids.{seat}", v)
    if "contract" in raw:
        c = raw["contract"]
        if not isinstance(c, dict) or "seat" not in c or "bid" not in c:
            raise SituationError(file, ["contract"], "give a table { seat, bid, trump }")
        trump: int | None = None
        if "trump" in c:
            t = str(c["trump"]).strip().upper()
            try:
                trump = NO_TRUMP if t in ("N", "NT", "NO TRUMP") else parse_suit(t)
            except CardError as e:
                raise SituationError(file, ["contract.trump"], str(e)) from None
        s.contract = Contract(_seat(file, "contract.seat", c["seat"]), _int(file, "contract.bid", c["bid"]), trump)
    if "auction" in raw:
        a = raw["auction"]
        if not isinstance(a, list):
            raise SituationError(file, ["auction"], "should be the list of calls in order, e.g. [\"pass\", \"8\"]")
        s.auction = [_parse_bid(file, f"auction[{i}]", x) for i, x in enumerate(a)]
    if "tricks" in raw:
        per = _per_seat(file, "tricks", raw["tricks"])
        if len(per) != 4:
            raise SituationError(file, ["tricks"], "give the tricks taken by each of the 4 seats")
        s.tricks = [_int(file, f"tricks.{k}", per[k]) for k in range(4)]
    s.played = _cards(file, "played", raw.get("played", []))
    if "trick" in raw:
        t = raw["trick"]
        if not isinstance(t, dict) or "leader" not in t:
            raise SituationError(file, ["trick"], "give a table { leader, cards }")
        s.trick = TrickInProgress(_seat(file, "trick.leader", t["leader"]),
                                  tuple(_cards(file, "trick.cards", t.get("cards", []))))
    if "hand" in raw:
        if raw["hand"] not in ("played", "cancelled"):
            raise SituationError(file, ["hand"], f"{raw['hand']!r}; valid: played, cancelled")
        s.hand_result = raw["hand"]
    exp = raw.get("expected", {})
    if not isinstance(exp, dict) or any(not isinstance(v, dict) for v in exp.values()):
        raise SituationError(file, ["expected"], "should be a table: ruleset label -> expected answer")
    s.expected = exp
    _check_cards(s)
    return s


def _completed_tricks(s: Situation) -> int | None:
    if s.tricks is not None:
        return sum(s.tricks)
    if s.played:
        return len(s.played) // 4
    return None


def _check_cards(s: Situation) -> None:
    """Ruleset-independent contradictions among the stated cards and counts."""
    where: dict[int, str] = {}

    def place(card: int, fld: str) -> None:
        if card in where:
            raise s.err([where[card], fld], f"{card_str(card)} is in both places")
        where[card] = fld

    for i, c in enumerate(s.played):
        place(c, f"played[{i}]")
    if s.trick is not None:
        if len(s.trick.cards) > 4:
            raise s.err(["trick.cards"], f"a trick has at most 4 cards, got {len(s.trick.cards)}")
        for i, c in enumerate(s.trick.cards):
            place(c, f"trick.cards[{i}]")
    for seat, cards in sorted(s.hands.items()):
        for i, c in enumerate(cards):
            place(c, f"hands.{seat}[{i}]")
    if s.tricks is not None:
        for seat, t in enumerate(s.tricks):
            if not 0 <= t <= 13:
                raise s.err([f"tricks.{seat}"], f"{t} tricks: a seat takes 0 to 13")
        if sum(s.tricks) > 13:
            raise s.err(["tricks"], f"the seats took {sum(s.tricks)} tricks in all; a hand has 13")
        if s.played and len(s.played) != 4 * sum(s.tricks):
            raise s.err(["played", "tricks"],
                        f"{len(s.played)} cards played in finished tricks, but {sum(s.tricks)} tricks were taken "
                        f"({4 * sum(s.tricks)} cards)")
    if s.played and len(s.played) % 4:
        raise s.err(["played"], f"{len(s.played)} cards: finished tricks hold a multiple of 4")
    done = _completed_tricks(s)
    if s.trick is not None and done is not None and done >= 13 and s.trick.cards:
        raise s.err(["trick", "tricks"], "all 13 tricks are finished, so no trick can be in progress")
    in_trick = _trick_seats_unknown_step(s)
    for seat, cards in sorted(s.hands.items()):
        cap = 13 - (done or 0) - (1 if seat in in_trick else 0)
        if len(cards) > cap:
            why = f"seat {seat} can hold at most {cap} cards"
            if done:
                why += f" after {done} finished tricks"
            if seat in in_trick:
                why += " and its card in the trick in progress"
            raise s.err([f"hands.{seat}"] + (["tricks"] if done else []), f"{len(cards)} cards listed; {why}")
        for c in cards:
            if c // 13 in s.voids.get(seat, set()):
                raise s.err([f"hands.{seat}", f"voids.{seat}"],
                            f"seat {seat} is said to be void in {SUIT_NAMES[c // 13]} but holds {card_str(c)}")
    if s.revealed is not None and s.dealer is not None:
        for seat, cards in s.hands.items():
            if seat != s.dealer and s.revealed in cards:
                raise s.err(["revealed", f"hands.{seat}"],
                            f"the turned card {card_str(s.revealed)} is the dealer's (seat {s.dealer}), "
                            f"but it is listed in seat {seat}'s hand")
        if s.dealer in s.voids and s.revealed // 13 in s.voids[s.dealer] and s.revealed not in s.played and not (
                s.trick and s.revealed in s.trick.cards):
            raise s.err(["revealed", f"voids.{s.dealer}"],
                        f"the dealer still holds the turned card {card_str(s.revealed)}, so is not void in its suit")
    q = s.question
    if q.card is not None:
        if q.card in where:
            loc = where[q.card]
            if not loc.startswith("hands."):
                raise s.err(["question.card", loc], f"{card_str(q.card)} was already played")
            if q.seat is not None and not loc.startswith(f"hands.{q.seat}["):
                raise s.err(["question.card", loc], f"{card_str(q.card)} is in another seat's hand, not seat {q.seat}'s")
        if q.seat is not None and q.card // 13 in s.voids.get(q.seat, set()):
            raise s.err(["question.card", f"voids.{q.seat}"],
                        f"seat {q.seat} is said to be void in {SUIT_NAMES[q.card // 13]}")
    if s.bids is not None:
        for seat, b in enumerate(s.bids):
            if b is not None and not 0 <= b <= 13:
                raise s.err([f"bids.{seat}"], f"{b} tricks cannot be bid: a hand has 13")
    if s.contract is not None and not 1 <= s.contract.bid <= 13:
        raise s.err(["contract.bid"], f"{s.contract.bid} tricks cannot be bid: a hand has 13")


def _trick_seats_unknown_step(s: Situation) -> set[int]:
    """Seats that certainly played to the trick in progress (both directions agree only on the leader)."""
    if s.trick is None or not s.trick.cards:
        return set()
    n = len(s.trick.cards)
    if n in (1, 4):
        return {s.trick.leader} if n == 1 else {0, 1, 2, 3}
    if n == 2:
        return {s.trick.leader}
    return {s.trick.leader, (s.trick.leader + 2) % 4}


# ----------------------------------------------------------------- rulings


@dataclass(frozen=True, slots=True)
class Decision:
    answer: dict[str, Any]
    text: str
    chain: tuple[str, ...]  # deciding clause first


@dataclass(frozen=True, slots=True)
class ClauseRef:
    id: str
    text: str
    doc: str
    heading: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "text": self.text, "doc": self.doc, "heading": self.heading}


@dataclass(frozen=True, slots=True)
class Reading:
    id: str
    text: str
    taken: bool
    answer: dict[str, Any] | None  # None when the engine cannot express the reading
    ruling: str


@dataclass(frozen=True, slots=True)
class AmbiguityFlag:
    id: str
    question: str
    sources: tuple[str, ...]
    readings: tuple[Reading, ...]

    @property
    def changes_ruling(self) -> bool:
        answers = {json.dumps(r.answer, sort_keys=True) for r in self.readings if r.answer is not None}
        return len(answers) > 1


@dataclass(frozen=True, slots=True)
class Ruling:
    ruleset: str
    label: str
    name: str
    status: str  # "ruled", "not-applicable", "undecided"
    answer: dict[str, Any]
    text: str
    clauses: tuple[ClauseRef, ...] = ()
    ambiguities: tuple[AmbiguityFlag, ...] = ()

    def key(self, kind: str) -> str:
        return json.dumps({k: self.answer.get(k) for k in KEY_FIELDS[kind]}, sort_keys=True)


@dataclass(frozen=True, slots=True)
class Report:
    file: str
    title: str
    kind: str
    question: str
    rulings: tuple[Ruling, ...]
    agreement: str


def _seat_name(seat: int) -> str:
    return f"seat {seat}"


def _team_name(team: int) -> str:
    return f"team {team} (seats {team} and {team + 2})"


def _strain(t: int) -> str:
    return strain_name(t)


def _need_dealer(s: Situation) -> int:
    if s.dealer is None:
        raise _Missing("dealer", "the dealer's seat is needed")
    return s.dealer


def _family_check(r: Rules, s: Situation, uses_bids: bool) -> None:
    """Raise _NotApplicable when the facts are of the other bidding family."""
    if r.individual:
        if uses_bids and s.bids is None and (s.contract is not None or s.auction is not None):
            raise _NotApplicable("the situation describes an auction and a contract; this ruleset has "
                                 "individual bids")
        if s.scores is not None and len(s.scores) == 2:
            raise _NotApplicable("the situation gives team scores; this ruleset scores each player")
    else:
        if uses_bids and s.bids is not None and s.contract is None and s.auction is None:
            raise _NotApplicable("the situation gives each player's own bid; this ruleset has a team auction")
        if s.scores is not None and len(s.scores) == 4 and (
                s.scores[0] != s.scores[2] or s.scores[1] != s.scores[3]):
            raise _NotApplicable("the situation gives partners different personal scores; this ruleset keeps "
                                 "one score per team")


def _team_scores(scores: Sequence[int]) -> tuple[int, int]:
    return (scores[0], scores[1])


def _trump(r: Rules, s: Situation) -> tuple[int, tuple[str, ...]]:
    """(trump 0..3 / 4 no trump, clauses) under ``r`` for the situation."""
    if r.trump_source == "fixed":
        return r.fixed_suit, ("trump.source",)
    if r.trump_source.startswith("revealed"):
        if s.revealed is None:
            raise _Missing("revealed", "the dealer's turned card decides trump under this ruleset")
        return R.trump_from_reveal(r, s.revealed), ("trump.source",)
    if s.contract is None or s.contract.trump is None:
        raise _Missing("contract.trump", "the contract holder names trump under this ruleset")
    return s.contract.trump, ("trump.source",) + (("auction.egyptian",) if r.egyptian else ())


def _decide_trump(r: Rules, s: Situation) -> Decision:
    if r.trump_source == "contract" and (s.contract is None or s.contract.trump is None):
        who = "the winning bid's strain fixes it" if r.egyptian else "the winner of the bidding names it"
        return Decision({"trump": None}, f"No card decides trump: {who}; the turned card means nothing here.",
                        ("trump.source",) + (("auction.egyptian",) if r.egyptian else ()))
    t, chain = _trump(r, s)
    why = ""
    if r.trump_source.startswith("revealed") and s.revealed is not None:
        why = f" (the dealer's turned card is {card_str(s.revealed)})"
    elif r.trump_source == "fixed":
        why = " whatever card is turned"
    return Decision({"trump": "N" if t == NO_TRUMP else SUITS[t]}, f"Trump is {_strain(t)}{why}.", chain)


def _holds(s: Situation, seat: int, suit: int) -> bool | None:
    cards = s.hands.get(seat, [])
    if any(c // 13 == suit for c in cards):
        return True
    if suit in s.voids.get(seat, set()):
        return False
    done = _completed_tricks(s)
    in_trick = s.trick is not None and seat in _trick_seats_unknown_step(s)
    if done is not None and len(cards) == 13 - done - int(in_trick) and seat in s.hands:
        return False
    if done is None and len(cards) == 13:
        return False
    return None


def _to_move(r: Rules, s: Situation) -> int:
    assert s.trick is not None
    return (s.trick.leader + r.step * len(s.trick.cards)) % 4


def _decide_card(r: Rules, s: Situation) -> Decision:
    q = s.question
    if q.card is None:
        raise s.err(["question.card"], "a card-legal question names the card")
    trick = s.trick or TrickInProgress(q.seat if q.seat is not None else -1, ())
    if trick.leader < 0:
        raise _Missing("trick.leader", "say who leads the trick (or the seat asking)")
    if len(trick.cards) >= 4:
        raise s.err(["trick.cards", "question"], "the trick in progress already has four cards")
    s2 = dataclasses.replace(s, trick=trick)
    seat = _to_move(r, s2)
    if q.seat is not None and q.seat != seat:
        raise s.err(["question.seat", "trick"],
                    f"after {len(trick.cards)} card(s) led by seat {trick.leader} it is seat {seat}'s turn under "
                    f"{r.id} ({'counter-clockwise' if r.step == 1 else 'clockwise'}), not seat {q.seat}'s")
    for other in range(4):
        if other != seat and q.card in s.hands.get(other, []):
            raise s.err(["question.card", f"hands.{other}"],
                        f"{card_str(q.card)} is in seat {other}'s hand, but it is seat {seat}'s turn")
    led = trick.cards[0] // 13 if trick.cards else -1
    trump = -1
    chain: tuple[str, ...] = ("play.follow",)
    name = card_str(q.card)
    if led >= 0 and q.card // 13 != led:
        h = _holds(s2, seat, led)
        if h is None:
            raise _Missing(f"hands.{seat}",
                           f"whether seat {seat} holds a {SUIT_NAMES[led][:-1]} decides it; list the seat's whole "
                           f"hand or add voids.{seat}")
        if not h and r.must_trump:
            trump, _ = _trump(r, s2)
            chain = ("play.must-trump", "play.follow", "trump.source")
            if trump < 4 and q.card // 13 != trump and _holds(s2, seat, trump) is None:
                raise _Missing(f"hands.{seat}", f"whether seat {seat} holds a trump ({SUIT_NAMES[trump]}) decides "
                                                f"it under must-trump; list the hand or add voids.{seat}")
    hand = mask_of(s.hands.get(seat, [])) | (1 << q.card)
    legal = bool(R.legal_play_mask(r, hand, led, trump) >> q.card & 1)
    if legal:
        if led < 0:
            text = f"Seat {seat} leads, and a leader may play any card: {name} is legal."
            chain = ("play.follow", "play.lead", "play.next-lead")
        elif q.card // 13 == led:
            text = f"{name} follows the led suit ({SUIT_NAMES[led]}): legal."
        else:
            text = (f"Seat {seat} holds no {SUIT_NAMES[led]}, so may play any card"
                    f"{', trump or not' if not r.must_trump else ''}: {name} is legal.")
        return Decision({"legal": True, "seat": seat}, text, chain)
    bad = R.play_violation(r, hand, led, trump, q.card)
    assert bad is not None
    return Decision({"legal": False, "seat": seat, "clause": bad[0]},
                    f"{name} is not legal: {bad[1]}.", (bad[0],) + tuple(c for c in chain if c != bad[0]))


def _decide_trick(r: Rules, s: Situation) -> Decision:
    if s.trick is None or len(s.trick.cards) != 4:
        raise s.err(["trick.cards"], "a trick-winner question needs the four cards of the trick, in play order")
    trump, chain = _trump(r, s)
    idx = R.trick_winner(list(s.trick.cards), trump)
    seat = (s.trick.leader + r.step * idx) % 4
    c = s.trick.cards[idx]
    by = "the highest trump" if c // 13 == trump else f"the highest {SUIT_NAMES[s.trick.cards[0] // 13][:-1]}"
    return Decision({"winner": seat, "card": card_str(c), "trump": "N" if trump == NO_TRUMP else SUITS[trump]},
                    f"Seat {seat} wins with {card_str(c)}, {by} (trump {_strain(trump)}).",
                    ("play.winner",) + chain + ("play.direction",))


def _bid_facts_individual(r: Rules, s: Situation) -> None:
    """Check stated bids against the ruleset (a stated bid must have been legal)."""
    if s.bids is None:
        return
    for seat, b in enumerate(s.bids):
        if b is None:
            continue
        score = s.scores[seat] if s.scores is not None else 0
        bad = R.bid_violation(r, score, b)
        if bad is not None:
            raise s.err([f"bids.{seat}"] + (["scores"] if bad[0] == "bid.rising-min" else []),
                        f"a bid of {b} cannot have been made under {r.label()}: {bad[1]} [{bad[0]}]")


def _auction_match(r: Rules, s: Situation) -> Match:
    """A match at the stated dealer with the stated calls applied (engine checks every call)."""
    dealer = _need_dealer(s)
    m = Match(r, dealer)
    if s.scores is not None:
        m.scores = [s.scores[0], s.scores[1], s.scores[0], s.scores[1]]
    # Any deck will do for the auction; this one gives every seat all 13 ranks (no weak hand).
    m.apply(Deal(tuple(range(52))))
    for i, call in enumerate(s.auction or []):
        if m.phase is not Phase.BIDDING:
            raise s.err([f"auction[{i}]"], "the auction was already over before this call")
        try:
            m.apply(call)
        except IllegalAction as e:
            raise s.err([f"auction[{i}]"], f"{call} by seat {e.seat} cannot have been made under {r.label()}: "
                                           f"{e.reason} [{e.rule}]") from None
    return m


def _decide_bid(r: Rules, s: Situation) -> Decision:
    q = s.question
    if q.bid is None:
        raise s.err(["question.bid"], "a bid-legal question names the bid (a number or 'pass')")
    bid_text = "a pass" if q.bid.n is None else f"a bid of {q.bid.n}{'' if q.bid.strain is None else ' ' + _strain(q.bid.strain)}"
    if r.individual:
        _family_check(r, s, uses_bids=True)
        seat = q.seat
        if seat is None:
            raise _Missing("question.seat", "say which seat bids")
        if s.bids is not None and s.bids[seat] is not None:
            raise s.err(["question.seat", f"bids.{seat}"], f"seat {seat} has already bid ({s.bids[seat]}); "
                                                           "each player bids once")
        _bid_facts_individual(r, s)
        if r.rising_min and s.scores is None:
            raise _Missing("scores", "the bidder's score sets the lowest bid under this ruleset")
        score = s.scores[seat] if s.scores is not None else 0
        if q.bid.strain is not None:
            return Decision({"legal": False, "clause": "bid.meaning"},
                            f"{bid_text} is not legal: a bid here is a number of tricks with no suit.",
                            ("bid.meaning",))
        bad = R.bid_violation(r, score, q.bid.n)
        checked = ("bid.range", "bid.excluded") + (("bid.rising-min",) if r.rising_min else ()) + ("bid.no-pass",)
        if bad is None:
            lo = R.min_bid_for(r, score)
            extra = f" (a player on {score} may bid {lo} or more)" if r.rising_min else ""
            return Decision({"legal": True}, f"{bid_text.capitalize()} by seat {seat} is legal{extra}.", checked)
        return Decision({"legal": False, "clause": bad[0]},
                        f"{bid_text.capitalize()} by seat {seat} is not legal: {bad[1]}.",
                        (bad[0],) + tuple(c for c in checked if c != bad[0]))
    _family_check(r, s, uses_bids=True)
    m = _auction_match(r, s)
    if m.phase is not Phase.BIDDING:
        raise s.err(["auction", "question"], "the auction is over: no further call can be made")
    seat = m.to_move
    if q.seat is not None and q.seat != seat:
        raise s.err(["question.seat", "auction"],
                    f"after {len(s.auction or [])} call(s) it is seat {seat}'s turn under {r.label()}, "
                    f"not seat {q.seat}'s")
    checked = ("auction.range", "auction.raise", "auction.dealer-privilege" if r.auction_style == "dealer-privilege"
               else "auction.continuous", "auction.order")
    try:
        m.apply(q.bid)
    except IllegalAction as e:
        return Decision({"legal": False, "clause": e.rule},
                        f"{bid_text.capitalize()} by seat {seat} is not legal: {e.reason}.",
                        (e.rule,) + tuple(c for c in checked if c != e.rule))
    return Decision({"legal": True}, f"{bid_text.capitalize()} by seat {seat} is legal.", checked)


def _all_bids(s: Situation) -> list[int]:
    if s.bids is None or any(b is None for b in s.bids):
        raise _Missing("bids", "all four bids are needed")
    return [b for b in s.bids if b is not None]


def _decide_redeal(r: Rules, s: Situation) -> Decision:
    _family_check(r, s, uses_bids=True)
    dealer = _need_dealer(s)
    if r.individual:
        bids = _all_bids(s)
        _bid_facts_individual(r, s)
        total = sum(bids)
        if R.hand_is_played(r, bids):
            nxt = R.next_seat(r, dealer)
            return Decision({"redeal": False, "dealer": nxt},
                            f"The bids total {total}, at least {r.total_min}: the hand is played, and seat {nxt} "
                            f"deals the next one.", ("bid.total", "deal.rotation"))
        nd = R.dealer_after_redeal(r, dealer)
        who = "the same dealer" if nd == dealer else "the next dealer"
        return Decision({"redeal": True, "dealer": nd},
                        f"The bids total {total}, below {r.total_min}: the hand is cancelled and {who}, "
                        f"seat {nd}, deals again.", ("bid.total", "redeal.dealer"))
    if s.auction is None:
        raise _Missing("auction", "the calls of the auction decide it")
    m = _auction_match(r, s)
    if m.phase is Phase.BIDDING:
        raise _Missing("auction", f"the auction is not over (seat {m.to_move} still to call)")
    if m.phase is Phase.DEAL:
        return Decision({"redeal": True, "dealer": m.dealer},
                        f"All four passed: the hand is dealt again by seat {m.dealer}.", ("auction.all-pass",))
    nxt = R.next_seat(r, dealer)
    return Decision({"redeal": False, "dealer": nxt},
                    f"A contract was reached: the hand is played, and seat {nxt} deals the next one.",
                    ("auction.all-pass", "deal.rotation"))


def _hand_tricks(s: Situation) -> list[int]:
    if s.tricks is None:
        raise _Missing("tricks", "the tricks each seat took are needed")
    if sum(s.tricks) != 13:
        raise _Missing("tricks", f"only {sum(s.tricks)} of 13 tricks are accounted for; the hand is scored after "
                                 "all 13")
    return s.tricks


def _auction_deltas(r: Rules, s: Situation, tricks: list[int]) -> tuple[int, int]:
    if s.contract is None:
        raise _Missing("contract", "the contract (seat and bid) decides the score")
    if not r.min_bid <= s.contract.bid <= 13:
        raise s.err(["contract.bid"], f"{s.contract.bid} is not a possible contract under {r.label()} "
                                      f"(bids run from {r.min_bid} to 13) [auction.range]")
    tt = (tricks[0] + tricks[2], tricks[1] + tricks[3])
    return R.team_deltas(r, s.contract.bid, s.contract.seat & 1, tt)


def _individual_deltas(r: Rules, s: Situation) -> tuple[list[int], list[int]]:
    bids = _all_bids(s)
    _bid_facts_individual(r, s)
    if not R.hand_is_played(r, bids):
        raise s.err(["bids", "tricks"], f"the bids total {sum(bids)}, below {r.total_min}: under {r.label()} the "
                                        f"hand is not played, so no tricks are taken [bid.total]")
    tricks = _hand_tricks(s)
    return bids, [R.individual_delta(r, bids[k], tricks[k]) for k in range(4)]


def _fmt_delta(d: int) -> str:
    return f"+{d}" if d > 0 else str(d)


def _decide_score(r: Rules, s: Situation) -> Decision:
    _family_check(r, s, uses_bids=True)
    before = s.scores or [0, 0, 0, 0]
    if r.individual:
        bids, deltas = _individual_deltas(r, s)
        after = [before[k] + deltas[k] for k in range(4)] if len(before) == 4 else []
        _check_after(r, s, after)
        parts = [f"seat {k} bid {bids[k]}, took {s.tricks[k] if s.tricks else 0}: {_fmt_delta(deltas[k])}"
                 for k in range(4)]
        return Decision({"deltas": deltas, "scores": after}, "; ".join(parts) + ".",
                        ("score.individual", "score.values", "score.extra", "score.negative"))
    tricks = _hand_tricks(s)
    d0, d1 = _auction_deltas(r, s, tricks)
    teams = _team_scores(before)
    after2 = [teams[0] + d0, teams[1] + d1]
    _check_after(r, s, after2)
    assert s.contract is not None
    chain = ("score.standard" if r.score_style == "standard" else "score.bid-only", "score.kaboot", "score.bid13")
    return Decision({"deltas": [d0, d1, d0, d1], "scores": after2},
                    f"Contract {s.contract.bid} by seat {s.contract.seat}: team 0 {_fmt_delta(d0)}, "
                    f"team 1 {_fmt_delta(d1)}.", chain)


def _check_after(r: Rules, s: Situation, after: list[int]) -> None:
    if s.scores_after is None or not after:
        return
    given = s.scores_after if r.individual or len(s.scores_after) == 2 else s.scores_after[:2]
    for k, (a, b) in enumerate(zip(given, after, strict=True)):
        if a != b:
            raise s.err(["scores_after", "scores", "bids", "tricks"],
                        f"under {r.label()} the hand leaves {'seat' if r.individual else 'team'} {k} on {b}, "
                        f"not {a}")


def _possible_changes(r: Rules, s: Situation) -> list[set[int]] | set[tuple[int, int]]:
    """Every score change the ruleset allows for one hand (per seat, or per team pair for auctions)."""
    if r.individual:
        out = []
        for seat in range(4):
            score = s.scores[seat] if s.scores is not None and len(s.scores) == 4 else 0
            bids = R.legal_bids(r, score)
            stated = s.bids[seat] if s.bids is not None else None
            if stated is not None:
                bids = [stated]
            out.append({R.individual_delta(r, b, t) for b in bids for t in range(14)})
        return out
    pairs: set[tuple[int, int]] = set()
    for n in range(r.min_bid, 14):
        for bt in (0, 1):
            for t in range(14):
                pairs.add(R.team_deltas(r, n, bt, (t, 13 - t) if bt == 0 else (13 - t, t)))
    return pairs


def _check_score_change(r: Rules, s: Situation) -> None:
    """scores -> scores_after must be a change one hand can make under ``r``."""
    if s.scores is None or s.scores_after is None:
        return
    possible = _possible_changes(r, s)
    if isinstance(possible, list):
        if len(s.scores) != 4:
            return
        for seat in range(4):
            d = s.scores_after[seat] - s.scores[seat]
            if d not in possible[seat]:
                vals = sorted({abs(v) for v in possible[seat]})
                raise s.err([f"scores.{seat}", f"scores_after.{seat}"] + (["bids"] if s.bids else []),
                            f"seat {seat} goes from {s.scores[seat]} to {s.scores_after[seat]} "
                            f"({_fmt_delta(d)}), which no hand can do under {r.label()}: a hand adds or "
                            f"takes away the bid's value, one of {vals} [score.values]")
        return
    t0, t1 = (s.scores[0], s.scores[1])
    a0, a1 = (s.scores_after[0], s.scores_after[1])
    if (a0 - t0, a1 - t1) not in possible:
        raise s.err(["scores", "scores_after"],
                    f"team changes ({_fmt_delta(a0 - t0)}, {_fmt_delta(a1 - t1)}) cannot come from one hand under "
                    f"{r.label()} [score.standard]")


def _decide_winner(r: Rules, s: Situation) -> Decision:
    _family_check(r, s, uses_bids=s.bids is not None or s.contract is not None)
    if r.individual:
        bids: list[int] | None = None
        tricks: list[int] | None = None
        if s.bids is not None and s.tricks is not None:
            bids, deltas = _individual_deltas(r, s)
            tricks = s.tricks
            if s.scores is None:
                raise _Missing("scores", "the scores before the hand are needed")
            after = [s.scores[k] + deltas[k] for k in range(4)]
            _check_after(r, s, after)
        else:
            after = s.scores_after or s.scores or []
            if len(after) != 4:
                raise _Missing("scores", "each player's score is needed")
        win, rule = R.individual_outcome(r, after, bids, tricks)
        standing = f"scores {after}"
        chain: tuple[str, ...] = (rule,) + tuple(c for c in ("win.target", "win.qualify", "tie.both-qualify")
                                                 if c != rule)
        if rule == "win.made-bid":
            assert bids is not None
            seat = next(k for k in range(4) if bids[k] == r.made_bid_wins)
            return Decision({"winner": win, "clause": rule},
                            f"Seat {seat} bid {r.made_bid_wins} and made it: {_team_name(win or 0)} wins at once "
                            f"({standing}).", chain)
        q0 = R.team_qualifies(r, after[0], after[2])
        q1 = R.team_qualifies(r, after[1], after[3])
        if win is not None and rule == "tie.both-qualify":
            how = "combined score" if r.tie_rule == "combined" else "top score"
            text = f"Both teams qualify; {_team_name(win)} wins on the higher {how} ({standing})."
        elif win is not None:
            text = f"{_team_name(win)} qualifies and wins ({standing})."
        elif q0 and q1:
            how = "combined scores" if r.tie_rule == "combined" else "top scores"
            text = f"Both teams qualify with equal {how}: no winner yet, another hand is played ({standing})."
        else:
            text = (f"No team has won: none has one partner at {r.target} or more with the other above zero "
                    f"({standing}); another hand is played.")
        return Decision({"winner": win, "clause": rule}, text, chain)
    # auction family
    if s.contract is not None and s.tricks is not None:
        tricks = _hand_tricks(s)
        d0, d1 = _auction_deltas(r, s, tricks)
        if s.scores is None:
            raise _Missing("scores", "the team scores before the hand are needed")
        after2 = (s.scores[0] + d0, s.scores[1] + d1)
        _check_after(r, s, list(after2))
        bt = s.contract.seat & 1
        won13 = R.bid13_wins(r, s.contract.bid, tricks[bt] + tricks[bt + 2])
    else:
        sc = s.scores_after or s.scores
        if sc is None:
            raise _Missing("scores", "the team scores are needed")
        after2 = _team_scores(sc)
        won13 = False
        if s.contract is None and min(after2) >= r.target:
            raise _Missing("contract", "both teams reached the target; the bidding team decides")
        bt = s.contract.seat & 1 if s.contract is not None else 0
    win, rule = R.auction_outcome(r, after2, r.target, bt, won13)
    chain = (rule,) + tuple(c for c in ("win.target", "tie.both-qualify", "score.bid13") if c != rule)
    if win is None:
        text = f"No team has reached {r.target} (team scores {list(after2)}): play goes on."
    elif rule == "score.bid13":
        text = f"{_team_name(win)} bid 13 and took every trick: it wins on the spot."
    elif rule == "tie.both-qualify":
        text = f"Both teams reached {r.target}: the bidding team, {_team_name(win)}, wins."
    else:
        text = f"{_team_name(win)} reached {r.target} and wins (team scores {list(after2)})."
    return Decision({"winner": win, "clause": rule}, text, chain)


def _decide_next_dealer(r: Rules, s: Situation) -> Decision:
    dealer = _need_dealer(s)
    result = s.hand_result
    if result is None and (s.bids is not None or s.auction is not None):
        d = _decide_redeal(r, s)
        return Decision({"dealer": d.answer["dealer"]}, d.text, d.chain)
    if result is None:
        raise _Missing("hand", "say whether the hand was played or cancelled (or give the bids)")
    if result == "played":
        nxt = R.next_seat(r, dealer)
        return Decision({"dealer": nxt}, f"The hand was played: the deal passes to seat {nxt}.",
                        ("deal.rotation", "play.direction"))
    if r.individual:
        nd = R.dealer_after_redeal(r, dealer)
        who = "the same dealer deals again" if nd == dealer else "the next dealer deals"
        return Decision({"dealer": nd}, f"The hand was cancelled: {who}, seat {nd}.",
                        ("redeal.dealer", "bid.total"))
    nd = R.next_seat(r, dealer)
    return Decision({"dealer": nd}, f"The hand was cancelled: the next dealer, seat {nd}, deals.",
                    ("auction.all-pass", "deal.weak-redeal", "deal.rotation"))


_DECIDERS: dict[str, Callable[[Rules, Situation], Decision]] = {
    "card-legal": _decide_card, "trick-winner": _decide_trick, "bid-legal": _decide_bid,
    "redeal": _decide_redeal, "score": _decide_score, "winner": _decide_winner,
    "next-dealer": _decide_next_dealer, "trump": _decide_trump,
}


def decide(kind: str, r: Rules, s: Situation) -> Decision:
    """The engine's ruling on question ``kind`` under ``r`` (raises on missing or contradictory facts)."""
    if kind in ("score", "winner"):
        _family_check(r, s, uses_bids=True)
        _check_score_change(r, s)
    return _DECIDERS[kind](r, s)


# -------------------------------------------------------------- ambiguities

# Each entry: ambiguity id -> (question kinds it bears on, when it is live under
# (rules, situation), reading id -> rules adjusted to that reading, or None when
# the engine has no parameter for the reading).
Variant = Callable[[Rules, Situation], Rules | None]


def _same(r: Rules, s: Situation) -> Rules:
    return r


def _replace(**kw: Any) -> Variant:
    def f(r: Rules, s: Situation) -> Rules:
        return dataclasses.replace(r, **kw)
    return f


def _not_modelled(r: Rules, s: Situation) -> None:
    return None


def _rising_above(r: Rules, s: Situation) -> Rules:
    return dataclasses.replace(r, rising_table=tuple((t + 1, m) for t, m in r.rising_table))


def _bid10_partner_positive(r: Rules, s: Situation) -> Rules:
    """Partner must be above zero: the house rule only fires when the 10-bidder's partner ends above zero."""
    if s.bids is None or s.tricks is None or s.scores is None or None in s.bids:
        return r
    bids = [b or 0 for b in s.bids]
    after = [s.scores[k] + R.individual_delta(r, bids[k], s.tricks[k]) for k in range(4)]
    for seat in range(4):
        if bids[seat] == r.made_bid_wins and s.tricks[seat] >= bids[seat] and after[(seat + 2) % 4] <= 0:
            return dataclasses.replace(r, made_bid_wins=0)
    return r


def _team13(s: Situation) -> bool:
    return s.tricks is not None and any(s.tricks[t] + s.tricks[t + 2] == 13 for t in (0, 1))


def _defenders13(s: Situation) -> bool:
    if s.contract is None or s.tricks is None:
        return False
    dt = 1 - (s.contract.seat & 1)
    return s.tricks[dt] + s.tricks[dt + 2] == 13


_Live = Callable[[Rules, Situation], bool]
AMBIGUITY_READINGS: dict[str, tuple[tuple[str, ...], _Live, dict[str, Variant]]] = {
    "turned-card-trump": (
        ("trump", "trick-winner"), lambda r, s: r.trump_source.startswith("revealed"),
        {"own-suit": _replace(trump_source="revealed-suit"),
         "same-colour": _replace(trump_source="revealed-same-colour")}),
    "revealed-card": (
        ("trump", "trick-winner"), lambda r, s: r.trump_source.startswith("revealed"), {"dealer-13th": _same}),
    "raised-total": (
        ("redeal", "next-dealer"), lambda r, s: r.total_min != 11, {"fixed": _same, "rising": _not_modelled}),
    "rising-min-threshold": (
        ("bid-legal",), lambda r, s: r.rising_min, {"at-least": _same, "above": _rising_above}),
    "bid10-partner": (
        ("winner",), lambda r, s: r.made_bid_wins == 10,
        {"outright": _same, "partner-positive": _bid10_partner_positive}),
    "400-numbers": (
        ("score", "winner"), lambda r, s: True,
        {"from-001": _same,
         "face-value": lambda r, s: dataclasses.replace(r, values=tuple(range(len(r.values))))}),
    "defender-kaboot": (
        ("score", "winner"), lambda r, s: _defenders13(s),
        {"either-team": _same, "bidders-only": _replace(kaboot="none")}),
    "kaboot-double-defenders": (
        ("score", "winner"), lambda r, s: r.kaboot == "double" and _defenders13(s),
        {"double-own": _same, "usual": _replace(kaboot="none")}),
    "kaboot-bid-only": (
        ("score", "winner"), lambda r, s: r.score_style == "bid-only" and _team13(s),
        {"bidders-replace": _same, "no-kaboot": _replace(kaboot="none")}),
    "bid13-vs-kaboot": (
        ("score", "winner"), lambda r, s: s.contract is not None and s.contract.bid == 13 and _team13(s),
        {"bid13-first": _same, "kaboot-first": _replace(bid13="normal")}),
    "egyptian-dealer-match": (
        ("bid-legal",), lambda r, s: r.egyptian and r.auction_style == "dealer-privilege",
        {"exact-bid": _same, "same-number-any-strain": _not_modelled}),
    "classic-target-reach": (("winner",), lambda r, s: True, {"at-least": _same}),
}


def _flags(kind: str, r: Rules, s: Situation) -> tuple[AmbiguityFlag, ...]:
    out: list[AmbiguityFlag] = []
    for a in ambiguities():
        if r.id not in a.taken or a.id not in AMBIGUITY_READINGS:
            continue
        kinds, live, variants = AMBIGUITY_READINGS[a.id]
        if kind not in kinds or not live(r, s):
            continue
        out.append(_flag(a, kind, r, s, variants))
    return tuple(out)


def _flag(a: Ambiguity, kind: str, r: Rules, s: Situation, variants: dict[str, Variant]) -> AmbiguityFlag:
    readings = []
    for rid, text in a.readings:
        variant = variants.get(rid, _not_modelled)(r, s)
        if variant is None:
            readings.append(Reading(rid, text, a.taken[r.id] == rid, None,
                                    "not computed: the engine has no parameter for this reading"))
            continue
        try:
            d = decide(kind, variant, s)
            readings.append(Reading(rid, text, a.taken[r.id] == rid, d.answer, d.text))
        except (_Missing, SituationError, _NotApplicable) as e:
            readings.append(Reading(rid, text, a.taken[r.id] == rid, None, f"no ruling: {e}"))
    return AmbiguityFlag(a.id, a.question, a.sources, tuple(readings))


# ------------------------------------------------------------------ resolve


def _clauses(r: Rules, chain: Sequence[str]) -> tuple[ClauseRef, ...]:
    out: list[ClauseRef] = []
    seen: set[str] = set()
    for cid in chain:
        c = r.ruleset.clauses.get(cid)
        if c is None or cid in seen:
            continue
        seen.add(cid)
        out.append(ClauseRef(c.id, c.text, c.doc, c.heading))
    return tuple(out)


def rule_one(s: Situation, rid: str, options: dict[str, OptionValue]) -> Ruling:
    """The ruling under one ruleset; raises :class:`SituationError` on contradictions."""
    r = load_rules(rid, options)
    kind = s.question.kind
    try:
        d = decide(kind, r, s)
    except _NotApplicable as e:
        return Ruling(rid, r.label(), r.ruleset.name, "not-applicable", {}, f"Not applicable: {e}.")
    except _Missing as e:
        if not s.all_rulesets:
            raise s.err([e.field], f"incomplete for {r.label()}: {e.why}") from None
        return Ruling(rid, r.label(), r.ruleset.name, "undecided", {"missing": e.field},
                      f"Undecided: {e.field} is not given ({e.why}).")
    return Ruling(rid, r.label(), r.ruleset.name, "ruled", d.answer, d.text, _clauses(r, d.chain),
                  _flags(kind, r, s))


def _agreement(kind: str, rulings: Sequence[Ruling]) -> str:
    ruled = [x for x in rulings if x.status == "ruled"]
    if len(ruled) < 2:
        return ""
    groups: dict[str, list[Ruling]] = {}
    for x in ruled:
        groups.setdefault(x.key(kind), []).append(x)
    if len(groups) == 1:
        return f"All {len(ruled)} rulesets that rule on this agree."
    parts = []
    for members in groups.values():
        names = ", ".join(m.label for m in members)
        parts.append(f"{short_answer(kind, members[0].answer)} under {names}")
    return "The rulesets disagree: " + "; ".join(parts) + "."


def short_answer(kind: str, answer: dict[str, Any]) -> str:
    """A few words for an answer, used where rulesets are compared."""
    if kind in ("card-legal", "bid-legal"):
        return "legal" if answer.get("legal") else "not legal"
    if kind == "trick-winner":
        return f"seat {answer.get('winner')} wins"
    if kind == "redeal":
        if answer.get("redeal"):
            return f"redealt by seat {answer.get('dealer')}"
        return f"played (seat {answer.get('dealer')} deals next)"
    if kind == "score":
        return "changes " + ", ".join(_fmt_delta(d) for d in answer.get("deltas", []))
    if kind == "winner":
        w = answer.get("winner")
        return "no winner yet" if w is None else f"team {w} wins"
    if kind == "next-dealer":
        return f"seat {answer.get('dealer')} deals"
    t = answer.get("trump")
    return "trump named at the auction" if t is None else f"trump {_strain(STRAINS.index(t))}"


def resolve(s: Situation) -> Report:
    """Rule on the situation under every ruleset it names."""
    rulings = tuple(rule_one(s, rid, o) for rid, o in s.targets)
    if s.all_rulesets and not any(x.status == "ruled" for x in rulings):
        reasons = "; ".join(f"{x.label}: {x.text}" for x in rulings)
        raise s.err(["question"], f"no ruleset can rule on these facts ({reasons})")
    return Report(s.file, s.title, s.question.kind, KIND_QUESTIONS[s.question.kind], rulings,
                  _agreement(s.question.kind, rulings))


def resolve_file(path: str | Path) -> Report:
    return resolve(load_situation(path))


def report_json(rep: Report) -> dict[str, Any]:
    return {
        "file": rep.file, "title": rep.title, "kind": rep.kind, "question": rep.question,
        "agreement": rep.agreement,
        "rulings": [{
            "ruleset": x.ruleset, "label": x.label, "name": x.name, "status": x.status, "answer": x.answer,
            "ruling": x.text, "clauses": [c.to_json() for c in x.clauses],
            "ambiguities": [{
                "id": a.id, "question": a.question, "sources": list(a.sources), "changes_ruling": a.changes_ruling,
                "readings": [{"id": rd.id, "text": rd.text, "taken": rd.taken, "answer": rd.answer,
                              "ruling": rd.ruling} for rd in a.readings],
            } for a in x.ambiguities],
        } for x in rep.rulings],
    }


def report_text(rep: Report) -> str:
    lines = [f"{rep.title} ({rep.file})", f"Question: {rep.question}", ""]
    for x in rep.rulings:
        lines.append(f"{x.label} - {x.name}")
        lines.append(f"  Ruling: {x.text}")
        if x.clauses:
            lines.append("  Decided by:")
            for c in x.clauses:
                lines.append(f"    {c.id}: {c.text} [{c.doc}: {c.heading}]")
        for a in x.ambiguities:
            if not a.changes_ruling:
                lines.append(f"  Ambiguity {a.id} bears on this, but every reading rules the same here.")
                continue
            lines.append(f"  AMBIGUOUS (the readings rule differently): {a.id}: {a.question}")
            for rd in a.readings:
                lines.append(f"    - {rd.id}{' (taken)' if rd.taken else ''}: {rd.ruling}")
        lines.append("")
    if rep.agreement:
        lines.append(rep.agreement)
    return "\n".join(lines).rstrip() + "\n"


def matches_expected(rep: Report, expected: dict[str, dict[str, Any]]) -> list[str]:
    """Differences between a report and hand-written expected answers (label -> answer fields)."""
    by_label = {x.ruleset: x for x in rep.rulings} | {x.label: x for x in rep.rulings}
    problems = []
    for label, want in expected.items():
        x = by_label.get(label)
        if x is None:
            problems.append(f"{label}: no ruling under this ruleset")
            continue
        status = want.get("status", "ruled")
        if x.status != status:
            problems.append(f"{label}: status {x.status}, expected {status} ({x.text})")
            continue
        for k, v in want.items():
            if v == "none":  # TOML has no null: "none" stands for no value (no winner, no trump)
                v = None
            if k != "status" and x.answer.get(k) != v:
                problems.append(f"{label}: {k} = {x.answer.get(k)!r}, expected {v!r} ({x.text})")
    return problems


__all__ = [
    "AMBIGUITY_READINGS", "AmbiguityFlag", "ClauseRef", "Decision", "KINDS", "KIND_QUESTIONS", "Question",
    "Report", "Ruling", "Situation", "SituationError", "decide", "load_situation", "matches_expected",
    "parse_situation", "report_json", "report_text", "resolve", "resolve_file", "rule_one",
]
