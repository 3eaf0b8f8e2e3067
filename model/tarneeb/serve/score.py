"""The score-sheet page's one door into the engine (``/en/score/``, ``/ar/score/``): the page sends its sheet, and the
hand being written, as JSON; :func:`answer` replays them through :mod:`tarneeb.sheet` and answers with what the page
shows, in the page's language.

The same function answers ``tarneeb serve`` (``POST /{lang}/score/api``) and the offline site (under Pyodide,
:func:`tarneeb.offline.pages.respond`); the page's script restates no rule: the seats in bidding order, the numbers a
player may bid, whether the deal is thrown in, each score change, the outcome, its tie rule and the next dealer all
come from core through the sheet's replay (:func:`tarneeb.sheet.score_sheet`, :func:`tarneeb.sheet.entry.write_hand`).

The request (JSON object): ``lang``; ``sheet`` (a score sheet, spec/sheets/ format version 1) or ``sheet_text`` (a
sheet file's text, from an import); ``house`` (``{"name", "text"}``: a house ruleset file the sheet names by
``name``, which must extend a built-in ruleset); ``entry`` (``{"at": k, "hand": {...}}``: the hand being written as
the sheet's hand ``k`` from 0, with ``bids`` in bidding order, ``tricks_won`` in seat order, or ``contract``
``{"seat", "bid", "strain"}`` and ``bidding_team_tricks``, ``calls`` or ``redeal``; numbers may be text, in Arabic-
Indic digits too). A request that cannot be used is a :class:`PageError` (the page's 400), worded for a person.
The work is bounded: at most :data:`MAX_HANDS` hands, a house file of at most :data:`MAX_HOUSE` bytes.
"""

from __future__ import annotations

import json
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core.actions import PASS, Bid
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.cards import STRAINS, strain_name, strain_text
from tarneeb.core.context import Catalog, using
from tarneeb.core.sources import cite, rule_name
from tarneeb.core.spec import Rules, builtin_rulesets_only, load_rules, resolve_ruleset, rulesets
from tarneeb.errors import BadInput, SheetError
from tarneeb.i18n.arabic import FSI, PDI
from tarneeb.i18n.tables import LANGS, clause_text, i18n, tr
from tarneeb.sheet import EntryError, HandResult, Reason, Sheet, SheetHand, SheetResult, score_sheet, sheet_from_data
from tarneeb.sheet.entry import Written, write_hand
from tarneeb.sheet.words_ar import SheetWords, ltr
from tarneeb.sheet.words_ar import rule_name as rule_name_ar
from tarneeb.sheet.words_ar import strain as strain_ar

MAX_HANDS = 500  # hands of one sheet (a long match has about 40)
MAX_HOUSE = 64 * 1024  # bytes of a house ruleset file
MAX_NAME = 40  # characters of a player's name
PAD = tuple(range(14))  # the numbers the pad offers for a bid or a count of tricks; core says which it takes


class PageError(BadInput):
    """A request the page cannot use: not JSON, no sheet, a sheet of the wrong shape, a house file refused."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ------------------------------------------------------------------ words


def _iso(text: object) -> str:
    """A player's name (any script) isolated from the sentence's direction."""
    return f"{FSI}{text}{PDI}"


def _refusal(key: str, **kw: object) -> str:
    """A refusal in Arabic (``[sheet.errors]`` of spec/i18n/ar-sheet.toml; the command words none)."""
    return str(i18n("ar")["sheet"]["errors"][key]).format(**kw)


def _delta(d: int) -> str:
    return f"+{d}" if d > 0 else str(d)


class Words:
    """The sentences of one page: the players by their names, in the page's language. The Arabic is the score
    command's (:class:`tarneeb.sheet.words_ar.SheetWords`): a reason, a team, a bid and a rule's name read the same
    on the page and in ``tarneeb score --lang ar``."""

    def __init__(self, lang: str, names: Sequence[str], rules: Rules) -> None:
        self.ar = SheetWords(names, _iso)
        self.lang, self.names, self.rules = lang, [_iso(n) for n in names], rules

    def team(self, team: int) -> str:
        if self.lang == "ar":
            return self.ar.team(team)
        a, b = (s for s in range(4) if core_rules.team_of(s) == team)
        return f"{self.names[a]} and {self.names[b]}"

    def strain(self, strain: int | None) -> str:
        if strain is None:
            return ""
        return strain_ar(strain) if self.lang == "ar" else strain_name(strain)

    def bid(self, bid: Bid) -> str:
        if self.lang == "ar":
            return self.ar.bid(bid)
        return "pass" if bid.n is None else f"{bid.n}" + ("" if bid.strain is None else f" {strain_name(bid.strain)}")

    def reason(self, r: Reason) -> str:
        """A reason the replay gave, in the page's language (English: the replay's own sentence, names isolated;
        Arabic: the score command's sentence)."""
        if self.lang == "ar":
            return self.ar.reason(r)
        text = r.text
        for raw, shown in sorted(zip(self._raw, self.names, strict=True), key=lambda p: -len(p[0])):
            text = text.replace(raw, shown)
        return text

    @property
    def _raw(self) -> list[str]:
        return [n[1:-1] for n in self.names]

    def no_winner(self) -> str:
        return self.ar.no_winner() if self.lang == "ar" else "No team has won yet."

    def error(self, e: EntryError, facts: Mapping[str, Any]) -> str:
        """The first entry core refuses, in a player's words (English: the replay's own message); ``facts``: the
        seat and bid refused, the tricks written, the winner, which the Arabic names."""
        if self.lang == "en":
            text = e.message
            for raw, shown in sorted(zip(self._raw, self.names, strict=True), key=lambda p: -len(p[0])):
                text = text.replace(raw, shown)
            return text[:1].upper() + text[1:] + "."
        return self._error_ar(e, facts)

    def _error_ar(self, e: EntryError, detail: Mapping[str, Any]) -> str:
        f = e.field
        if f == "bids" and "seat" in detail:
            return _refusal("bid", name=self.names[detail["seat"]], bid=self.bid(detail["bid"]))
        if f == "bids":
            return _refusal("bid-order")
        if f == "tricks_won" and "tricks" in detail:
            return _refusal("tricks", tricks=ltr(" + ".join(map(str, detail["tricks"])) + f" = {sum(detail['tricks'])}"))
        if f == "bidding_team_tricks" and "tricks" in detail and "team" in detail:
            return _refusal("team-tricks", team=self.team(detail["team"]), tricks=detail["tricks"])
        if f == "contract" and "seat" in detail:
            return _refusal("contract", name=self.names[detail["seat"]], bid=self.bid(detail["bid"]))
        if f == "calls":
            return _refusal("calls")
        if f == "redeal":
            return _refusal("redeal")
        if f == "hand" and "winner" in detail:
            return _refusal("over", n=e.hand - 1, team=self.team(detail["winner"]))
        if f == "first_dealer":
            return _refusal("first-dealer")
        return _refusal("other")

    def why(self, clause: str, text: str) -> dict[str, str]:
        """Why a number is what it is: the sentence, the rule (its short name, in Arabic the one the score command
        gives it, and what it says at this table), the document it is written in (its name and section), the
        clause id (shown folded)."""
        rs = self.rules.ruleset
        c = rs.clauses.get(clause)
        out = {"text": text, "clause": clause, "rule": rule_name_ar(clause) if self.lang == "ar" else rule_name(clause),
               "statement": "", "source": ""}
        if c is not None:
            out["statement"] = clause_text(rs, clause, self.lang) or (c.text if self.lang == "en" else "")
            out["source"] = cite(c.doc, c.heading, self.lang)
        return out


# ------------------------------------------------------------------ the request


def _number(value: Any) -> Any:
    """A number as the page sends it: an int, or text in any decimal digits (``"١٢"`` is 12); else as given (the
    sheet's reader names what it is)."""
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) <= 3:
        return int(value.strip())
    return value


def _numbers(value: Any) -> Any:
    return [_number(v) for v in value] if isinstance(value, list) else _number(value)


def _rules(sheet: Sheet, house: Mapping[str, Any] | None, catalog: Catalog) -> Rules:
    """The sheet's rules: a built-in ruleset, or the house file the page holds (named by the sheet's ruleset), read
    from a folder of its own; it must extend a built-in ruleset (the page opens no other file)."""
    if house is None or sheet.ruleset in rulesets():
        return sheet.rules()
    name, text = house.get("name"), house.get("text")
    if not isinstance(name, str) or not isinstance(text, str):
        raise PageError("house: a house file is given as its name and its text")
    if name != sheet.ruleset:
        raise SheetError(sheet.file, "ruleset", f"{sheet.ruleset!r} is neither a ruleset id nor the house file "
                                                f"{name!r} this sheet keeps")
    if len(text.encode("utf-8")) > MAX_HOUSE:
        raise PageError(f"house: the house file is too large: at most {MAX_HOUSE // 1024} KiB")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PageError(f"{name}: not TOML: {e}") from None
    base = raw.get("extends")
    if not isinstance(base, str) or base not in rulesets():
        raise PageError(f"{name}: extends: a house file on this page extends a built-in ruleset "
                        f"({', '.join(rulesets())})")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.toml"
        path.write_text(text, encoding="utf-8")
        try:
            rs = resolve_ruleset(str(path), None, catalog)
            rs = with_readings(rs, dict(sheet.readings), "readings")
            return load_rules(rs, dict(sheet.options))
        except BadInput as e:
            raise PageError(f"{name}: {str(e).replace(str(path), name)}") from None


def answer(req: Any) -> dict[str, Any]:
    """The page's answer to one request (see the module's docstring); :class:`PageError` when it cannot be used."""
    if not isinstance(req, dict):
        raise PageError("the request is not a JSON object")
    lang = str(req["lang"]) if req.get("lang") in LANGS else "en"
    data = req.get("sheet")
    if "sheet_text" in req:
        if not isinstance(req["sheet_text"], str):
            raise PageError("sheet_text: the sheet file's text is needed")
        try:
            data = json.loads(req["sheet_text"])
        except json.JSONDecodeError as e:
            raise PageError(f"(file): line {e.lineno}: not JSON: {e.msg}") from None
        except (ValueError, RecursionError) as e:  # a number of too many digits, nesting too deep
            why = "nested too deeply" if isinstance(e, RecursionError) else str(e)
            raise PageError(f"(file): not a sheet the page can read: {why}") from None
    house = req.get("house")
    if isinstance(data, dict) and house is None and isinstance(data.get("x-house"), dict):
        house = data["x-house"]  # a sheet exported by the page keeps its house file
    if house is not None and not isinstance(house, dict):
        raise PageError("house: a house file is given as its name and its text")
    if isinstance(data, dict) and isinstance(data.get("hands"), list) and len(data["hands"]) > MAX_HANDS:
        raise PageError(f"hands: at most {MAX_HANDS} hands on one sheet")
    if isinstance(data, dict) and isinstance(data.get("players"), list):
        if any(isinstance(p, str) and len(p) > MAX_NAME for p in data["players"]):
            raise PageError(f"players: a name has at most {MAX_NAME} characters")
    catalog = Catalog(files_allowed=False) if house is None else Catalog(files_allowed=True)
    with using(catalog) if house is not None else builtin_rulesets_only():
        try:  # a shape the format refuses, found reading the sheet or replaying it (a hand of the other family)
            sheet = sheet_from_data(data, "(sheet)")
            rules = _rules(sheet, house, catalog)
            res = score_sheet(sheet, rules)
        except SheetError as e:
            raise PageError(str(e)) from None
        out = _shown(lang, sheet, rules, res)
        out["sheet"] = data
        if house is not None:
            out["house"] = {"name": house.get("name"), "text": house.get("text")}
        entry = req.get("entry")
        if entry is not None:
            out["entry"] = _entry(lang, sheet, rules, entry, res)
    return out


# ------------------------------------------------------------------ the sheet


def _shown(lang: str, sheet: Sheet, rules: Rules, res: SheetResult) -> dict[str, Any]:
    w = Words(lang, sheet.players, rules)
    individual = rules.individual
    cols: list[dict[str, Any]] = [{"head": w.names[s], "seat": s} for s in range(4)] if individual else \
        [{"head": w.team(t), "seat": t} for t in (0, 1)]
    rows = []
    for h in res.hands:
        rows.append(_row(w, rules, h, cols))
    err = None
    if res.error is not None:
        e = res.error
        hand = sheet.hands[e.hand - 1] if 0 < e.hand <= len(sheet.hands) else None
        facts = {} if hand is None else _hand_facts(e, hand)
        if e.field == "hand" and res.over:
            facts["winner"] = res.winner
        text = w.error(e, facts)
        err = {"hand": e.hand, "field": e.field, "text": text, "why": w.why(e.clause, text), "detail": e.message}
    if res.over:
        last = res.hands[-1]
        why = next(r for r in last.reasons if r.kind == "outcome" and r.clause == last.outcome_clause)
        outcome = {"over": True, "winner": res.winner, "text": w.reason(why), "why": w.why(why.clause, w.reason(why))}
    else:
        outcome = {"over": False, "winner": None, "text": w.no_winner(), "why": None}
    nxt = res.next_dealer
    return {
        "lang": lang, "ruleset": {"id": rules.id, "name": _ruleset_name(rules, lang), "individual": individual,
                                  "egyptian": bool(rules.egyptian), "weak_redeal": bool(rules.weak_redeal),
                                  "target": res.first_target},
        "players": list(sheet.players), "names": w.names, "first_dealer": sheet.first_dealer,
        "teams": [w.team(0), w.team(1)], "columns": cols, "rows": rows, "error": err, "outcome": outcome,
        "next_dealer": nxt, "next_dealer_name": None if nxt is None else w.names[nxt],
        "scores": [res.scores[c["seat"]] for c in cols], "hands": len(sheet.hands),
    }


def _ruleset_name(rules: Rules, lang: str) -> str:
    rs = rules.ruleset
    if lang == "ar":
        return tr("ar", "ruleset", rs.id, "name") or rs.name_ar or rs.name
    return rs.name


def _row(w: Words, rules: Rules, h: HandResult, cols: list[dict[str, Any]]) -> dict[str, Any]:
    score = [r for r in h.reasons if r.kind == "score"]
    cells = []
    for c in cols:
        s = c["seat"]
        mine = next((r for r in score if r.facts.get("seat") == s), None) if rules.individual else \
            (score[0] if score else None)
        cell: dict[str, Any] = {"score": h.scores[s], "delta": _delta(h.deltas[s]) if not h.redeal else "",
                                "why": None, "bid": None, "took": None}
        if mine is not None:
            cell["why"] = w.why(mine.clause, w.reason(mine))
        if rules.individual and h.calls:
            cell["bid"] = next((w.bid(b) for seat, b in h.calls if seat == s), None)
            cell["took"] = None if h.tricks_won is None else h.tricks_won[s]
        cells.append(cell)
    hand_why = [w.why(r.clause, w.reason(r)) for r in h.reasons if r.kind in ("deal", "outcome", "dealer")]
    if h.winner is None and h.outcome_clause and not h.redeal:
        hand_why.insert(len([r for r in h.reasons if r.kind in ("deal", "outcome")]),
                        w.why(h.outcome_clause, w.no_winner()))
    contract = None
    if h.contract is not None:
        holder, n, strain = h.contract
        took = None if h.tricks_won is None else core_rules.team_tricks(h.tricks_won)[core_rules.team_of(holder)]
        contract = {"seat": holder, "name": w.names[holder], "bid": w.bid(Bid(n, strain)), "team_took": took}
    return {"hand": h.number, "dealer": h.dealer, "dealer_name": w.names[h.dealer], "cells": cells,
            "thrown_in": h.redeal is not None, "contract": contract, "whys": hand_why,
            "winner": h.winner, "game_won": h.game_won, "next_dealer": h.next_dealer,
            "written": _written(rules, h)}


def _written(rules: Rules, h: HandResult) -> dict[str, Any]:
    """The hand as the page writes it, to edit it: the bids in order and the tricks, or the contract and the team's
    tricks, or the calls of an auction nobody won, or the deal thrown in for a weak hand."""
    if h.redeal == "deal.weak-redeal":
        return {"redeal": h.redeal}
    if h.contract is None and not rules.individual:
        return {"calls": [b.n if b.n is not None else "pass" for _, b in h.calls]}
    if h.contract is None:
        return {"bids": [b.n if b.n is not None else "pass" for _, b in h.calls],
                "tricks_won": None if h.tricks_won is None else list(h.tricks_won)}
    holder, n, strain = h.contract
    took = None if h.tricks_won is None else core_rules.team_tricks(h.tricks_won)[core_rules.team_of(holder)]
    out: dict[str, Any] = {"contract": {"seat": holder, "bid": n, "strain": strain_text(strain)},
                           "bidding_team_tricks": took}
    if strain is None and h.trump is not None:  # the trump named, kept (it changes no score)
        out["trump"] = strain_text(h.trump)
    return out


def _hand_facts(e: EntryError, hand: SheetHand) -> dict[str, Any]:
    """The facts of a refused entry the Arabic words name: the tricks written, the contract refused."""
    facts: dict[str, Any] = {}
    if e.field == "tricks_won" and hand.tricks_won is not None:
        facts["tricks"] = list(hand.tricks_won)
    if e.field == "bidding_team_tricks" and hand.bidding_team_tricks is not None and hand.contract is not None:
        facts["tricks"], facts["team"] = hand.bidding_team_tricks, core_rules.team_of(hand.contract[0])
    if e.field == "contract" and hand.contract is not None:
        facts["seat"], facts["bid"] = hand.contract
    return facts


# ------------------------------------------------------------------ the hand being written


def _partial(entry: Mapping[str, Any], egyptian: bool) -> tuple[SheetHand, dict[str, Any]]:
    """The hand being written as a sheet hand (what of it is written so far), and the page's own choices not yet a
    field of the format (the contract's holder chosen before its bid; under Egyptian bids, its number before its
    strain)."""
    hand = entry.get("hand", {})
    if not isinstance(hand, dict):
        raise PageError("entry.hand: the hand being written is a JSON object")
    unknown = set(hand) - {"bids", "tricks_won", "contract", "bidding_team_tricks", "calls", "redeal", "trump"}
    if unknown:
        raise PageError(f"entry.hand: unknown field {sorted(unknown)[0]}")
    data: dict[str, Any] = {}
    chosen: dict[str, Any] = {}
    if "redeal" in hand:
        data["redeal"] = hand["redeal"]
    elif "calls" in hand:
        data["calls"] = _numbers(hand["calls"])
    elif "contract" in hand:
        c = hand["contract"]
        if not isinstance(c, dict):
            raise PageError("entry.hand.contract: a JSON object")
        chosen = {k: _number(v) for k, v in c.items() if k in ("seat", "bid", "strain")}
        seat, bid, strain = chosen.get("seat"), chosen.get("bid"), chosen.get("strain")
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise PageError("entry.hand.contract.seat: the seat of the player who took the bid, 0 to 3")
        if bid is not None and type(bid) is not int:
            raise PageError("entry.hand.contract.bid: a number of tricks")
        if strain is not None and (not isinstance(strain, str) or strain not in STRAINS):
            raise PageError(f"entry.hand.contract.strain: one of {', '.join(STRAINS)}")
        if chosen.get("seat") is not None and chosen.get("bid") is not None and (chosen.get("strain") or not egyptian):
            bid = f"{chosen['bid']}{chosen.get('strain') or ''}"
            data["contract"] = {"seat": chosen["seat"], "bid": bid}
    elif "bids" in hand:
        data["bids"] = _numbers(hand["bids"])
        if not isinstance(data["bids"], list) or len(data["bids"]) > 4:
            raise PageError("entry.hand.bids: at most four bids")
    for key in ("tricks_won", "bidding_team_tricks"):
        if hand.get(key) is not None:
            data[key] = _numbers(hand[key])
    if isinstance(data.get("tricks_won"), list) and len(data["tricks_won"]) != 4:
        raise PageError("entry.hand.tricks_won: the tricks of the four players, in seat order (null: not written yet)")
    if isinstance(data.get("tricks_won"), list) and None in data["tricks_won"]:
        chosen["tricks_won"] = data.pop("tricks_won")  # not all four written yet
    if "trump" in hand and hand["trump"]:
        data["trump"] = hand["trump"]
    if not {"bids", "calls", "contract", "redeal"} & set(data):
        return SheetHand(), chosen  # nothing written yet (the auction's holder may be chosen)
    try:
        sheet = sheet_from_data({"format": "tarneeb-score-sheet", "version": 1, "ruleset": "classic",
                                 "players": ["a", "b", "c", "d"], "first_dealer": 0, "hands": [data]}, "(entry)")
    except SheetError as e:
        raise PageError(str(e).replace("(entry): hand 1: ", "entry: ").replace("(entry): ", "entry: ")) from None
    return sheet.hands[0], chosen


def _entry(lang: str, sheet: Sheet, rules: Rules, entry: Any, res: SheetResult) -> dict[str, Any]:
    """The hand being written (``entry``) on the sheet replayed as ``res``: how far core takes it, in words."""
    if not isinstance(entry, dict):
        raise PageError("entry: the hand being written is a JSON object")
    at = entry.get("at", len(sheet.hands))
    if type(at) is not int or not 0 <= at <= len(sheet.hands):
        raise PageError(f"entry.at: a hand of the sheet, 0 to {len(sheet.hands)}")
    hand, chosen = _partial(entry, bool(rules.egyptian))
    w = Words(lang, sheet.players, rules)
    try:
        got = write_hand(sheet, rules, at, hand, res if at == len(sheet.hands) else None)
    except SheetError as e:
        raise PageError(str(e)) from None
    out: dict[str, Any] = {"at": at, "number": at + 1, "dealer": got.dealer,
                           "dealer_name": None if got.dealer is None else w.names[got.dealer],
                           "closed": got.closed, "error": None, "thrown_in": None, "ready": False,
                           "steps": [], "next": None, "pad": [], "extras": []}
    if got.error is not None:
        err = got.error
        facts = _hand_facts(err, hand)
        if got.refused is not None and hand.bids is not None:
            facts["seat"], facts["bid"] = got.refused
        if err.field == "hand" and got.closed:
            facts["winner"] = got.winner
        text = w.error(err, facts)
        out["error"] = {"field": err.field, "text": text, "why": w.why(err.clause, text), "detail": err.message}
    if got.closed:
        return out
    if got.thrown_in is not None:
        text = w.reason(got.thrown_in)
        out["thrown_in"] = {"text": text, "why": w.why(got.thrown_in.clause, text)}
    steps = _steps(w, rules, got, hand, chosen)
    out["steps"] = steps
    nxt = next((i for i, s in enumerate(steps) if s["value"] is None), None)
    if out["error"] is not None:  # the refused entry is the one to write again
        nxt = next((i for i, s in enumerate(steps) if s.get("refused")), nxt)
    out["next"] = nxt
    if nxt is not None:
        out["pad"] = _pad(w, got, steps[nxt], chosen)
    out["ready"] = got.done is not None and out["error"] is None
    if got.done is not None:
        out["hand"] = _hand_json(hand)
        out["preview"] = [_delta(got.done.deltas[s]) for s in (range(4) if rules.individual else (0, 1))]
    if hand == SheetHand() and not any(v is not None for v in chosen.values()):  # nothing written yet
        if not rules.individual:
            out["extras"].append({"key": "all_pass", "label": "all_pass"})
        if rules.weak_redeal:
            out["extras"].append({"key": "weak", "label": "weak"})
    return out


def _steps(w: Words, rules: Rules, got: Written, hand: SheetHand, chosen: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    refused_field = got.error.field if got.error is not None else None
    if hand.redeal is not None or (hand.calls is not None and rules.individual is False):
        return steps
    if rules.individual:
        bids = list(hand.bids or ())
        for i, seat in enumerate(got.order):
            value = bids[i] if i < len(bids) else None
            steps.append({"key": "bids", "i": i, "seat": seat, "name": w.names[seat], "kind": "bid",
                          "value": None if value is None else (value.n if value.n is not None else "pass"),
                          "refused": refused_field == "bids" and value is not None and i == len(bids) - 1})
        if got.played or hand.tricks_won is not None or chosen.get("tricks_won") is not None:
            won = list(hand.tricks_won or chosen.get("tricks_won") or [None] * 4)
            for seat in range(4):
                steps.append({"key": "tricks_won", "i": seat, "seat": seat, "name": w.names[seat], "kind": "tricks",
                              "value": won[seat], "refused": refused_field == "tricks_won" and seat == 3})
        return steps
    holder = chosen.get("seat")
    steps.append({"key": "contract", "i": "seat", "seat": holder, "kind": "holder", "name": None,
                  "value": holder, "shown": None if holder is None else w.names[holder], "refused": False})
    steps.append({"key": "contract", "i": "bid", "seat": holder, "kind": "contract",
                  "name": None if holder is None else w.names[holder], "value": chosen.get("bid"),
                  "refused": refused_field == "contract"})
    if rules.egyptian:
        strain = chosen.get("strain")
        steps.append({"key": "contract", "i": "strain", "seat": holder, "kind": "strain", "name": None,
                      "value": strain, "shown": None if strain is None else w.strain(STRAINS.index(strain)),
                      "refused": False})
    if got.played or hand.bidding_team_tricks is not None:
        team = None if holder is None else w.team(core_rules.team_of(int(holder)))
        steps.append({"key": "bidding_team_tricks", "i": 0, "seat": holder, "kind": "team_tricks", "name": team,
                      "value": hand.bidding_team_tricks, "refused": refused_field == "bidding_team_tricks"})
    return steps


def _pad(w: Words, got: Written, step: dict[str, Any], chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """The keys of the pad for ``step``: the numbers (or names, strains) the player may tap, each marked ``ok`` where
    core takes it (a bid: the seat's legal bids; a contract: the auction's possible contracts)."""
    kind = step["kind"]
    if kind == "bid":
        legal = set(got.legal)
        keys = [{"value": n, "label": str(n), "ok": Bid(n) in legal} for n in PAD]
        if PASS in legal:
            keys.append({"value": "pass", "label": w.bid(PASS), "ok": True})
        return keys
    if kind == "holder":
        return [{"value": s, "label": w.names[s], "ok": True} for s in range(4)]
    if kind == "contract":
        numbers = sorted({b.n for b in got.contracts if b.n is not None})
        return [{"value": n, "label": str(n), "ok": True} for n in numbers]
    if kind == "strain":
        n = chosen.get("bid")
        strains = sorted({b.strain for b in got.contracts if b.n == n and b.strain is not None})
        return [{"value": STRAINS[s], "label": w.strain(s), "ok": True} for s in strains]
    return [{"value": n, "label": str(n), "ok": True} for n in PAD]


def _hand_json(hand: SheetHand) -> dict[str, Any]:
    """A hand as the sheet file writes it (spec/sheets/ format version 1)."""
    out: dict[str, Any] = {}
    if hand.bids is not None:
        out["bids"] = [b.n if b.n is not None else "pass" for b in hand.bids]
    if hand.calls is not None:
        out["calls"] = ["pass" if b.n is None else f"{b.n}{strain_text(b.strain) or ''}" for b in hand.calls]
    if hand.contract is not None:
        seat, b = hand.contract
        out["contract"] = {"seat": seat, "bid": f"{b.n}{strain_text(b.strain) or ''}"}
    if hand.trump is not None:
        out["trump"] = STRAINS[hand.trump]
    if hand.tricks_won is not None:
        out["tricks_won"] = list(hand.tricks_won)
    if hand.bidding_team_tricks is not None:
        out["bidding_team_tricks"] = hand.bidding_team_tricks
    if hand.redeal is not None:
        out["redeal"] = hand.redeal
    return out


__all__ = ["MAX_HANDS", "MAX_HOUSE", "PageError", "answer"]
