"""The referee's report in Arabic (``tarneeb ruling --lang ar``).

The sentences are built from each ruling's answer fields (not translated from the English text), with the
labels and templates of ``spec/i18n/ar-ruling.toml`` (section ``[ruling]``), the clause statements of
``spec/i18n/ar.toml`` (through :func:`tarneeb.i18n.tables.clause_text`) and the Arabic readings of the
ambiguity register. Seats are named 1 to 4 as players count (seat 0 of a situation is player 1).

Every line is wrapped for right-to-left display in a right-to-left isolate (U+2067 ... U+2069); clause ids,
card codes, ruleset labels, citations and formulas inside it sit in left-to-right isolates (U+2066 ... U+2069),
so a terminal or a browser that applies the Unicode bidirectional algorithm shows them in the right order.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from tarneeb.core.sources import cite
from tarneeb.core.spec import rulesets
from tarneeb.i18n.arabic import FSI, LRI, PDI, RLI, isolate
from tarneeb.i18n.tables import clause_text, tr
from tarneeb.ruling.arabic_words import (
    _bid_words,
    _delta,
    _num,
    _scores,
    _strain,
    _t,
    _table,
    card_ar,
    ltr,
    player,
    rtl_isolated,
    ruleset_ar,
    team,
)
from tarneeb.ruling.readings import KEY_FIELDS, AmbiguityFlag, Report, Ruling


def _lead_why(a: dict[str, Any], seat: object) -> str:
    """Why ``seat`` leads (or plays) now, from the answer's "reason" (see decision.leader_of_next)."""
    reason = a.get("reason")
    if reason == "last-trick":
        return _t("reasons", "lead-last-trick", seat=player(seat), n=a.get("tricks_done", "?"))
    if reason == "first-bidder":
        return _t("reasons", "lead-first-bidder", dealer=player(a.get("dealer")))
    if reason == "contract":
        return _t("reasons", "lead-contract", seat=player(seat))
    if reason == "auction":
        c = a.get("contract", {})
        return _t("reasons", "lead-auction", holder=player(c.get("seat")), bid=c.get("bid", "?"))
    if reason == "direction":
        return _t("reasons", "direction", cards=a.get("cards", "?"), leader=player(a.get("leader")),
                  way=_t("labels", str(a.get("direction", "counter-clockwise"))))
    if reason == "stated":
        return _t("reasons", "lead-stated", seat=player(seat))
    return ""


def _with(text: str, why: str) -> str:
    """``text`` (ending in a full stop) with ``why`` in brackets before the stop."""
    return f"{text[:-1]} {why}." if why else text


def _card(a: dict[str, Any], asked: dict[str, Any]) -> str:
    card = card_ar(asked.get("card", "?"))
    seat = player(a.get("seat"))
    led = _strain(a.get("led")) if a.get("led") else ""
    reason = a.get("reason")
    if a.get("turn") is not None and a.get("legal") is False:
        key = "lead-out-of-turn" if a.get("lead") else "out-of-turn"
        return _with(_t("sentences", key, seat=seat, turn=player(a["turn"]), card=card),
                     _lead_why(a, a["turn"]))
    if a.get("legal"):
        if a.get("lead"):
            return _t("sentences", "card-lead", seat=seat, card=card, why=_lead_why(a, a.get("seat")))
        if reason == "follows":
            return _t("sentences", "card-follows", seat=seat, card=card, led=led)
        if reason == "void":
            key = "card-void-must-trump" if a.get("must_trump") else "card-void"
            return _t("sentences", key, seat=seat, card=card, led=led)
        return _t("sentences", "card-legal", card=card, seat=seat)
    if reason in ("holds-led", "must-trump"):  # the clause itself is stated under the sentence, its id in the
        return _t("sentences", f"card-{reason}", seat=seat, card=card, led=led, clause="")  # technical line
    return _t("sentences", "card-not-legal", card=card, seat=seat)


def _bid(a: dict[str, Any], asked: dict[str, Any]) -> str:
    plain, bid = _bid_words(asked.get("bid", "?"))
    seat = player(a.get("seat"))
    if a.get("turn") is not None and a.get("legal") is False:
        if "order" in a:
            why = _t("reasons", "bid-order", dealer=player(a.get("dealer")),
                     order=_t("labels", "then").join(player(k) for k in a["order"]))
        elif "calls" in a:
            why = _t("reasons", "bid-calls", calls=a["calls"], dealer=player(a.get("dealer")))
        else:
            why = ""
        return _with(_t("sentences", "bid-out-of-turn", bid=bid, seat=seat, turn=player(a["turn"])), why)
    if a.get("legal"):
        extra = ""
        if "lowest" in a:
            extra += " " + _t("reasons", "bid-rising-ok", score=_num(a.get("score", 0)), lowest=a["lowest"])
        if a.get("in_turn"):
            extra += _t("reasons", "bid-in-turn", dealer=player(a.get("dealer")))
        key = "bid-legal-seat" if "seat" in a else "bid-legal"
        return _t("sentences", key, bid=bid, seat=seat)[:-1] + extra + "."
    clause = str(a.get("clause", ""))
    n = plain if plain.isdigit() else "?"
    span = {"lowest": a.get("lowest"), "highest": a.get("highest")}
    reasons: dict[str, tuple[str, dict[str, object]]] = {
        "bid.excluded": ("bid-excluded", {"n": n}), "bid.range": ("bid-range", span),
        "auction.range": ("bid-range", span),
        "bid.rising-min": ("bid-rising-min", {"score": _num(a.get("score", 0)), "lowest": a.get("lowest")}),
        "auction.all-pass": ("bid-forced", {}), "bid.no-pass": ("bid-no-pass", {}),
        "bid.meaning": ("bid-meaning", {}), "auction.egyptian": ("bid-shape", {}),
        "auction.raise": ("bid-raise", {}), "auction.continuous": ("bid-raise", {}),
        "auction.dealer-privilege": ("bid-raise-dealer", {})}
    because = reasons.get(clause)
    key = "bid-not-legal-seat" if "seat" in a else "bid-not-legal"
    head = _t("sentences", key, bid=bid, seat=seat)[:-1]
    reason = f": {_t('reasons', because[0], **because[1])}" if because is not None else ""
    return f"{head}{reason}."  # the clause is stated under the sentence, its id in the technical line


def _redeal(a: dict[str, Any]) -> str:
    dealer = player(a.get("dealer"))
    reason = a.get("reason")
    if reason == "total":
        if a.get("redeal"):
            who = _t("labels", "same-dealer" if a.get("same_dealer") else "next-dealer")
            return _t("sentences", "redeal-total", total=a["total"], minimum=a["minimum"], who=who, dealer=dealer)
        return _t("sentences", "played-total", total=a["total"], minimum=a["minimum"], dealer=dealer)
    if reason == "all-pass":
        return _t("sentences", "redeal-all-pass", dealer=dealer)
    if reason == "contract":
        return _t("sentences", "played-contract", dealer=dealer)
    return _t("sentences", "redeal-yes" if a.get("redeal") else "redeal-no", dealer=dealer)


def _next_dealer(a: dict[str, Any]) -> str:
    dealer = player(a.get("dealer"))
    if "redeal" in a:
        return _redeal(a)
    if "deals" in a:
        return _t("sentences", "after-deals", deals=a["deals"], dealer=dealer)
    if a.get("hand") == "played":
        return _t("sentences", "next-dealer-played", dealer=dealer)
    if a.get("hand") == "cancelled":
        who = _t("labels", "same-dealer" if a.get("same_dealer") else "next-dealer")
        return _t("sentences", "next-dealer-cancelled", who=who, dealer=dealer)
    return _t("sentences", "next-dealer", dealer=dealer)


def _score(a: dict[str, Any]) -> str:
    if "seat" in a:
        if "bid" in a:
            text = _t("sentences", "score-seat-made" if a.get("made") else "score-seat-failed",
                      seat=player(a["seat"]), bid=a["bid"], took=a["took"], delta=_delta(int(a["delta"])))
            if "before" in a:
                text = text[:-1] + _t("sentences", "score-from-to", before=_num(a["before"]), score=_num(a["score"]))
            return text
        key = "score-seat-after" if "score" in a else "score-seat"
        return _t("sentences", key, seat=player(a["seat"]), delta=_delta(int(a["delta"])),
                  score=ltr(a.get("score", "")))
    deltas = [int(d) for d in a["deltas"]]
    if "contract" in a:
        c = a["contract"]
        return _t("sentences", "score-contract", bid=c["bid"], seat=player(c["seat"]), team0=team(0),
                  team1=team(1), d0=_delta(deltas[0]), d1=_delta(deltas[1]))
    if "bids" in a and "tricks" in a:
        parts = "؛ ".join(_t("sentences", "score-part", seat=k + 1, bid=a["bids"][k], took=a["tricks"][k],
                             delta=_delta(d)) for k, d in enumerate(deltas))
        return parts + "."
    parts = "، ".join(f"{_t('labels', 'player', n=k + 1)}: {_delta(d)}" for k, d in enumerate(deltas))
    return _t("sentences", "score", parts=parts)


def _winner(a: dict[str, Any]) -> str:
    w = a.get("winner")
    reason = a.get("reason")
    if reason is None:
        return _t("sentences", "winner-none") if w is None else _t("sentences", "winner", team=team(w))
    kw: dict[str, object] = {"target": a.get("target"), "scores": _scores(list(a.get("scores", [])))}
    if w is not None:
        kw["team"] = team(w)
    if reason == "made-bid":
        kw.update(bidder=player(a.get("bidder")), bid=a.get("bid"))
    if reason in ("higher", "equal"):
        kw["how"] = _t("labels", f"{reason}-{a.get('tie', 'top')}")
    return _t("sentences", f"winner-{reason}", **kw)


def _trump(a: dict[str, Any]) -> str:
    t = a.get("trump")
    if t is None:
        return _t("sentences", "trump-named-strain" if a.get("named_by") == "strain" else "trump-named")
    trump = _strain(t)
    if a.get("stated"):
        return _t("sentences", f"trump-stated-{a.get('check', 'agrees')}", trump=trump)
    if "turned" in a:
        return _t("sentences", "trump-turned", trump=trump, turned=card_ar(a["turned"]))
    if a.get("fixed"):
        return _t("sentences", "trump-fixed", trump=trump)
    return _t("sentences", "trump", trump=trump)


def _leads(a: dict[str, Any], leader: object) -> str:
    if a.get("reason") == "won-trick":
        return _t("sentences", "leads-won-trick", leader=player(leader))
    if "trick" in a:
        return _t("sentences", "leads-trick", leader=player(leader), trick=a["trick"], why=_lead_why(a, leader))
    return _t("sentences", "who-leads", leader=player(leader))


def _whose_turn(a: dict[str, Any]) -> str:
    seat = player(a.get("seat"))
    phase = a.get("phase", "play")
    if phase == "play" and a.get("reason") == "direction":
        return _t("sentences", "turn-in-trick", seat=seat, n=int(a["cards"]) + 1, leader=player(a.get("leader")),
                  way=_t("labels", str(a.get("direction", "counter-clockwise"))))
    if phase == "play" and "leader" in a:
        return _leads(a, a["leader"])
    if phase == "bidding" and "made" in a:
        return _t("sentences", "turn-bidding-made", seat=seat, made=a["made"], dealer=player(a.get("dealer")))
    if phase == "bidding" and "calls" in a:
        return _t("sentences", "turn-bidding-calls", seat=seat, calls=a["calls"])
    if phase == "trump" and "contract" in a:
        c = a["contract"]
        return _t("sentences", "turn-naming", seat=seat, holder=player(c.get("seat")), bid=c.get("bid", "?"))
    return _t("sentences", f"whose-turn-{phase}", seat=seat)


def _irregularity(a: dict[str, Any], asked: dict[str, Any]) -> str:
    irr = str(a.get("irregularity"))
    name = _t("irregularities", irr)
    head = ""
    if a.get("revoke") is True:
        head = _t("sentences", "revoke", seat=player(asked.get("seat")), trick=a["trick"], card=card_ar(a["card"]),
                  proof=card_ar(a["proof"])) + " "
    elif a.get("revoke") is False:
        return _t("sentences", "no-revoke", seat=player(asked.get("seat")))
    if a.get("out_of_turn") is False:
        return _t("sentences", f"no-{irr}", seat=player(a.get("turn")))
    breaks = list(a.get("breaks", []))
    if breaks and head:  # the revoke is told already: the clause it breaks, without its name again
        text = head + _t("sentences", "irregularity-told")
    elif breaks:
        text = head + _t("sentences", "irregularity", name=name)
    else:
        text = head + _t("sentences", "irregularity-no-clause", name=name)
    return text + (" " + _t("sentences", "documents-silent") if a.get("documents") == "silent" else "")


def fact(field: str) -> str:
    """A fact of the situation (the field the referee names: ``contract.trump``, ``hands.2``, ``deals[1].hand``) in
    Arabic words, from ``[ruling.facts]`` (the words of the web form's labels); the id itself, isolated, for a field
    it does not know."""
    facts = _table().get("facts", {})
    if field in facts:
        return str(facts[field])
    if (m := re.fullmatch(r"deals\[(\d+)\]\.(.+)", field)) is not None:
        return _t("facts", "in-deal", fact=fact(m.group(2)), n=int(m.group(1)) + 1)
    if (m := re.fullmatch(r"(hands|bids|tricks|scores|scores_after|voids)(?:\.(\d)|\[(\d)\])", field)) is not None \
            and f"{m.group(1)}-seat" in facts:  # hands.2, or scores[2] of a list by seat
        return _t("facts", f"{m.group(1)}-seat", seat=player(m.group(2) or m.group(3)))
    # a part of a fact, worded from the fact's own words: "history[1].cards[2].seat" is whose card the third card
    # of the second finished trick is
    parts = {"history": "history-trick", "auction": "auction-call"}
    if (m := re.fullmatch(r"(history|auction)\[(\d+)\]", field)) is not None and parts[m.group(1)] in facts:
        return _t("facts", parts[m.group(1)], n=int(m.group(2)) + 1)
    if (m := re.fullmatch(r"(.+)\.(cards\[(\d+)\]|cards|leader|seat)", field)) is not None:
        whole = fact(m.group(1))
        key = "card-of" if m.group(3) else f"{m.group(2)}-of"
        if key in facts and not whole.startswith(LRI):
            return _t("facts", key, fact=whole, n=int(m.group(3) or 0) + 1)
    return ltr(field)


def several(text: str) -> str:
    """An Arabic sentence said of one ruleset as said of several (a card or a headline that names several rulesets
    that rule alike): the replacements of ``[ruling.several]``, none today («هذه القوانين» is said of one and of
    several alike)."""
    for one, many in _table().get("several", {}).items():
        text = text.replace(one, str(many))
    return text


def sentence(kind: str, x: Ruling, asked: dict[str, Any]) -> str:
    """The ruling of ``x`` as one Arabic sentence: the verdict and the reason the English states, from the
    answer's fields."""
    a = x.answer
    if x.status == "not-applicable":
        return str(_table().get("not-applicable", {}).get(x.text, _t("status", "not-applicable")))  # its reason
    if x.status == "undecided":
        return _t("status", "undecided", fact=fact(str(a.get("missing", "?"))))
    if x.status == "contradiction":
        return _t("status", "contradiction", fields="، ".join(fact(str(f)) for f in a.get("fields", [])))
    if kind == "card-legal" or (kind != "bid-legal" and a.get("turn") is not None and a.get("legal") is False):
        return _card(a, asked)
    if kind == "bid-legal":
        return _bid(a, asked)
    if kind == "trick-winner":
        key = "trick-winner-trump" if a.get("by") == "trump" else (
            "trick-winner-led" if a.get("by") == "led" else "trick-winner")
        return _t("sentences", key, winner=player(a["winner"]), card=card_ar(a["card"]), trump=_strain(a.get("trump")),
                  led=_strain(a.get("led")) if a.get("led") else "")
    if kind == "redeal":
        return _redeal(a)
    if kind == "score":
        return _score(a)
    if kind == "winner":
        return _winner(a)
    if kind == "next-dealer":
        return _next_dealer(a)
    if kind == "trump":
        return _trump(a)
    if kind == "who-leads":
        return _leads(a, a["leader"])
    if kind == "whose-turn":
        return _whose_turn(a)
    return _irregularity(a, asked)


def add_sentences(out: dict[str, Any], rep: Report) -> None:
    """Give each ruling of ``out`` (:func:`~tarneeb.ruling.readings.report_json` of ``rep``) its Arabic sentence,
    ``ruling_ar``, the same said of several rulesets that rule alike, ``ruling_ar_several`` (:func:`several`), its
    arithmetic in Arabic, ``math_ar`` (:func:`math_ar`), and each reading of its ambiguities that the engine rules
    its sentence, ``ruling_ar`` (and ``ruling_ar_several``)."""
    for r, x in zip(out["rulings"], rep.rulings, strict=True):
        r["ruling_ar"] = sentence(rep.kind, x, rep.asked)
        r["ruling_ar_several"] = several(r["ruling_ar"])
        r["math_ar"] = math_ar(x.math)
        for a, flag in zip(r["ambiguities"], x.ambiguities, strict=True):
            for rd, reading in zip(a["readings"], flag.readings, strict=True):
                if reading.answer is not None:  # the ruling under that reading, from its answer as above
                    rd["ruling_ar"] = sentence(rep.kind, dataclasses.replace(x, answer=reading.answer, status="ruled"),
                                               rep.asked)
                    rd["ruling_ar_several"] = several(rd["ruling_ar"])


_WORDY = re.compile(r"[A-Za-z]{3,}")


def arithmetic(x: Ruling) -> str:
    """The ruling's arithmetic when it is a formula (a few words translated); "" when it is worded in English
    or names seats (0-based there, 1-based here)."""
    math = x.math
    for en, ar in _table().get("math", {}).items():
        math = math.replace(en, ar)
    if not math or _WORDY.search(math) or "seat" in x.math:
        return ""
    return math


# ------------------------------------------------------------------ the arithmetic in Arabic
#
# Each shape the arithmetic of a ruling takes (the "math" of tarneeb.ruling.decision and tarneeb.ruling.turns),
# read back into its numbers, players, cards and suits and worded with the templates of [ruling.arithmetic]. This
# restates no rule: it says in Arabic the comparison the English line states, number for number; formulas stay
# in left-to-right isolates (so "14 < 41" reads the same in a right-to-left line).

_SUIT_LETTER = {name: "CDHS"[i] for i, plural in enumerate(("clubs", "diamonds", "hearts", "spades"))
                for name in (plural, plural[:-1])} | {"no trump": "N"}
_FORMULA = re.compile(r"[-+=<>\d\s,]+")
_CMP = r"(-?\d+) (>=|<=|<|>|=) (-?\d+)"


def _a(key: str, **kw: object) -> str:
    return _t("arithmetic", key, **kw)


def _suit(name: str) -> str:
    return _strain(_SUIT_LETTER[name])


def _f(text: str) -> str:
    """A formula ("6 >= 5", "20 + 5 = 25") in a left-to-right isolate, its comparisons as signs (≥, ≤), its spaces
    no-break ones (a formula broken across two lines of a right-to-left paragraph reads in the wrong order)."""
    return ltr(text.replace(">=", "≥").replace("<=", "≤").replace(" ", "\u00a0"))


def _formula(text: str) -> str:
    """A formula with no words ("2+3+2+2 = 9 < 11", "0 + 5 = 5, 0 + 2 = 2"): each comma's part isolated."""
    return "، ".join(_f(part) for part in text.split(", "))


def _seq(text: str) -> str:
    """"2 -> 3 -> 4 -> 1" as "2 ثم 3 ثم 4 ثم 1"."""
    return _t("labels", "then").join(text.split(" -> "))


def _team_of(label: str) -> str:
    """"team 1" as the Arabic team label (its two players)."""
    return team(int(label.removeprefix("team ")) - 1)


def _qualify(part: str) -> str | None:
    m = re.fullmatch(rf"(team \d): {_CMP} and {_CMP}: (qualifies|does not qualify)", part)
    if m is None:
        return None
    t, a, op1, b, c, op2, d, verdict = m.groups()
    return _a("qualify", team=_team_of(t), hi=_f(f"{a} {op1} {b}"), lo=_f(f"{c} {op2} {d}"),
              verdict=_a("qualifies" if verdict == "qualifies" else "does-not-qualify"))


def _deal_step(step: str) -> str | None:
    m = re.fullmatch(r"deal (\d+) by player (\d)(?: (played|cancelled))? -> player (\d)", step)
    if m is None:
        return None
    n, dealer, how, nxt = m.groups()
    return _a("deal", n=n, dealer=dealer, next=nxt, how=_a(f"deal-{how}") if how else "")


def _render(math: str) -> tuple[str, str] | None:
    """(shape, the Arabic) of an English arithmetic line, or None when it has no known shape."""
    m = re.fullmatch(r"player (\d) != player (\d)(?: \((.+)\))?", math)
    if m is not None:
        inner = _render(m.group(3)) if m.group(3) else None
        if m.group(3) and inner is None:
            return None
        text = _a("not-in-turn", seat=m.group(1), turn=m.group(2))
        return ("not-in-turn", text + (f" ({inner[1]})" if inner else ""))
    if _FORMULA.fullmatch(math):
        return "formula", _formula(math)
    if (m := re.fullmatch(r"turned (\S+) \(([a-z]+)\) -> trump ([a-z ]+)", math)) is not None:
        return "trump-turned", _a("trump-turned", card=card_ar(m.group(1)), suit=_suit(m.group(2)),
                                  trump=_suit(m.group(3)))
    if (m := re.fullmatch(r"leader = player (\d)", math)) is not None:
        return "leader", _a("leader", seat=m.group(1))
    if (m := re.fullmatch(r"(\S+) is a ([a-z]+), the led suit", math)) is not None:
        return "follows", _a("follows", card=card_ar(m.group(1)), suit=_suit(m.group(2)))
    if (m := re.fullmatch(r"player (\d) is void in ([a-z]+)( and holds a trump)?", math)) is not None:
        key = "void-holds-trump" if m.group(3) else "void"
        return key, _a(key, seat=m.group(1), suit=_suit(m.group(2)))
    if (m := re.fullmatch(r"player (\d) holds a ([a-z]+)", math)) is not None:
        return "holds", _a("holds", seat=m.group(1), suit=_suit(m.group(2)))
    if (m := re.fullmatch(r"((?:\S+\(player \d\) ?)+): (\S+) wins", math)) is not None:
        cards = "، ".join(_a("trick-card", card=card_ar(c), seat=s)
                         for c, s in re.findall(r"(\S+)\(player (\d)\)", m.group(1)))
        return "trick", _a("trick", cards=cards, card=card_ar(m.group(2)))
    if (m := re.fullmatch(r"(\d+) is among the excluded bids \[([\d, ]*)\]", math)) is not None:
        return "excluded", _a("excluded", bid=m.group(1), bids="، ".join(m.group(2).split(", ")))
    if (m := re.fullmatch(rf"score (-?\d+): lowest bid (\d+); {_CMP}", math)) is not None:
        return "rising-min", _a("rising-min", score=_num(m.group(1)), lowest=m.group(2),
                                cmp=_f(" ".join(m.group(3, 4, 5))))
    if (m := re.fullmatch(rf"(team \d) took {_CMP}; team 1 (.+), team 2 (.+)", math)) is not None:
        t, took, op, bid, f0, f1 = m.groups()
        if _FORMULA.fullmatch(f0) and _FORMULA.fullmatch(f1):
            return "contract-score", _a("contract-score", team=_team_of(t), cmp=_f(f"{took} {op} {bid}"),
                                        team0=team(0), team1=team(1), f0=_f(f0), f1=_f(f1))
    if (m := re.fullmatch(r"(team 1: .+); (team 2: .+)", math)) is not None:
        parts = [_qualify(p) for p in m.groups()]
        if all(parts):
            return "qualify", "؛ ".join(p for p in parts if p)
        m2 = re.fullmatch(rf"team 1: {_CMP}; team 2: {_CMP}", math)
        if m2 is not None:
            return "reached", _a("reached", team0=team(0), team1=team(1), c0=_f(" ".join(m2.group(1, 2, 3))),
                                 c1=_f(" ".join(m2.group(4, 5, 6))))
    if (m := re.fullmatch(rf"combined (\S+ = -?\d+), (\S+ = -?\d+): {_CMP}", math)) is not None:
        return "combined", _a("combined", a=_f(m.group(1)), b=_f(m.group(2)), cmp=_f(" ".join(m.group(3, 4, 5))))
    if (m := re.fullmatch(r"top score (-?\d+) \(of (-?\d+), (-?\d+)\) (=|<|>) (-?\d+) \(of (-?\d+), (-?\d+)\)",
                          math)) is not None:
        a, x, y, op, b, z, w = m.groups()
        return "top", _a("top", a=_num(a), x=_num(x), y=_num(y), b=_num(b), z=_num(z), w=_num(w),
                         cmp=_f(f"{a} {op} {b}"))
    if (m := re.fullmatch(r"winner of the trick = player (\d)", math)) is not None:
        return "won-trick", _a("won-trick", seat=m.group(1))
    if (m := re.fullmatch(r"trick (\d+): leader = player (\d)", math)) is not None:
        return "trick-leader", _a("trick-leader", trick=m.group(1), seat=m.group(2))
    if (m := re.fullmatch(r"(order )?players (\d(?: -> \d)*)", math)) is not None:
        key = "bidding-order" if m.group(1) else "play-order"
        return key, _a(key, order=_seq(m.group(2)))
    if math.startswith("deal "):
        steps = [_deal_step(s) for s in math.split("; ")]
        if all(steps):
            return "deals", "؛ ".join(s for s in steps if s)
    m = re.fullmatch(r"took (\d+) (>=|<) bid (\d+): ([+-]?\d+)(?: \(a bid of \d+ is worth (\d+)\))?(?:; ([-+=\d ]+))?",
                     math)
    if m is not None:
        took, op, bid, delta, worth, after = m.groups()
        text = _a("seat-score", took=took, bid=bid, cmp=_f(f"{took} {op} {bid}"), delta=_f(delta))
        if worth:
            text += " " + _a("bid-worth", bid=bid, value=worth)
        return "seat-score", text + (f"؛ {_f(after)}" if after else "")
    m = re.fullmatch(r"trick (\d+): ([a-z]+) led, player (\d) played (\S+) while holding a ([a-z]+) \((\S+)\)", math)
    if m is not None:
        trick, led, seat, card, what, proof = m.groups()
        held = _a("a-trump") if what == "trump" else _suit(what)
        return "revoke", _a("revoke", trick=trick, led=_suit(led), seat=seat, card=card_ar(card), held=held,
                            proof=card_ar(proof))
    return None


MATH_SHAPES = ("not-in-turn", "formula", "trump-turned", "leader", "follows", "void", "void-holds-trump", "holds",
               "trick", "excluded", "rising-min", "contract-score", "qualify", "reached", "combined", "top",
               "won-trick", "trick-leader", "bidding-order", "play-order", "deals", "seat-score", "revoke")


def math_shape(math: str) -> str | None:
    """The shape of an English arithmetic line (one of :data:`MATH_SHAPES`), None when it has none known."""
    got = _render(math) if math else None
    return got[0] if got else None


def math_ar(math: str) -> str:
    """The arithmetic line of a ruling (its English ``math``) in Arabic, number for number; "" when there is none
    or its shape is not known (:data:`MATH_SHAPES`; a test holds every shape the referee writes to one)."""
    got = _render(math) if math else None
    return got[1] if got else ""


def _arithmetic_ar(x: Ruling) -> str:
    """The ruling's arithmetic as the report prints it: in Arabic (:func:`math_ar`, as the web page shows it), or,
    for a shape :func:`math_ar` does not know, the formula (:func:`arithmetic`) isolated; "" when there is none."""
    worded = math_ar(x.math)
    if worded:
        return worded
    formula = arithmetic(x)
    return ltr(formula) if formula else ""


def _clause_text(x: Ruling, c: Any) -> tuple[str, str]:
    """A deciding clause as players read it: (its Arabic statement, its source in Arabic); no id."""
    rs = rulesets().get(x.ruleset)
    text = clause_text(rs, c.id, "ar") if rs is not None else c.text
    return text, isolate(cite(c.doc, c.heading, "ar"))


def _deciding(x: Ruling, explain: bool) -> list[Any]:
    """The clauses a ruling's report states: the deciding one, every clause an irregularity breaks, and with
    ``explain`` the whole chain; each once."""
    if x.status != "ruled" or not x.clauses:
        return []
    breaks = set(x.answer.get("breaks") or [])
    return [c for i, c in enumerate(x.clauses) if i == 0 or explain or c.id in breaks]


def _reading_lines(kind: str, x: Ruling, a: AmbiguityFlag, asked: dict[str, Any]) -> list[str]:
    """Each reading of ``a``: its Arabic text and, where the engine rules it, the ruling under it (as the English
    report gives each reading's ruling); a reading the engine cannot rule is said to be so."""
    out = []
    for r in a.readings:
        text = (tr("ar", "ambiguity", a.id, r.id) or r.text).rstrip(".")
        if r.answer is not None:
            ruling = sentence(kind, dataclasses.replace(x, answer=r.answer, status="ruled"), asked)
        else:
            ruling = _t("labels", "not_computed") + "."
        out.append("  - " + _t("labels", "reading", reading=text, mark=_t("labels", "taken") if r.taken else "",
                                ruling=ruling))
    return out


def _silent_lines(a: AmbiguityFlag) -> list[str]:
    return [_t("labels", "silent")] + ["  - " + (tr("ar", "ambiguity", a.id, r.id) or r.text) for r in a.readings]


def _ambiguity_lines(kind: str, x: Ruling, asked: dict[str, Any], several_: bool) -> tuple[list[str], list[str]]:
    """(lines on the readings of ``x``'s live or open ambiguities, the silent ambiguities' ids): every reading's
    ruling, each said once."""
    lines: list[str] = []
    silent: list[str] = []
    for a in x.ambiguities:
        if all(r.answer is None and not r.taken for r in a.readings):
            silent.append(a.id)
        elif a.changes_ruling:
            lines.append(_t("labels", "ambiguous_for", name=ruleset_ar(x.label, x.ruleset)) if several_
                         else _t("labels", "ambiguous"))
            lines += _reading_lines(kind, x, a, asked)
        elif any(r.taken for r in a.readings) and any(r.answer is None for r in a.readings):
            taken = next(tr("ar", "ambiguity", a.id, r.id) or r.text for r in a.readings if r.taken).rstrip(".")
            lines.append(_t("labels", "open", taken=taken))
            lines += ["  - " + (tr("ar", "ambiguity", a.id, r.id) or r.text) for r in a.readings if r.answer is None]
    return lines, silent


def _technical(rep: Report, explain: bool) -> str:
    """The one technical line: the file, each ruleset's label, its deciding clauses' ids, the ambiguities and
    readings, in a first-strong isolate so the ids cannot reorder the Arabic line."""
    parts = [rep.file] if explain and rep.file else []
    for x in rep.rulings:
        ids = [c.id for c in _deciding(x, explain)]
        ids += [f"{a.id}: {', '.join(r.id for r in a.readings)}" for a in x.ambiguities]
        parts.append(x.label + (f" ({'; '.join(ids)})" if ids else ""))
    return _t("labels", "technical", ids=f"{FSI}{' | '.join(parts)}{PDI}")


def _agreement(rep: Report) -> str:
    ruled = [x for x in rep.rulings if x.status == "ruled"]
    if len(ruled) < 2:
        return ""
    groups: dict[str, list[Ruling]] = {}
    for x in ruled:
        groups.setdefault(x.key(rep.kind), []).append(x)
    if len(groups) == 1:
        return _t("labels", "all_agree", n=len(ruled))
    parts = [f"{_agreed(rep, m).removesuffix('.')} {_t('labels', 'under')} "
             f"{'، '.join(ruleset_ar(y.label, y.ruleset) for y in m)}" for m in groups.values()]
    return _t("labels", "disagree") + " " + "؛ و".join(parts) + "."  # a sentence, not a table's bar


def _agreed(rep: Report, ruled: list[Ruling]) -> str:
    """What the rulesets ``ruled``, which rule alike, all say: their sentence when each words it the same, else
    the verdict alone (the fields they agree on, :data:`~tarneeb.ruling.readings.KEY_FIELDS`), without the reason
    one of them gives ("as stated, which agrees with this ruleset" is not what a ruleset whose contract names trump
    says)."""
    if len(ruled) == 1:
        return sentence(rep.kind, ruled[0], rep.asked)
    said = {several(sentence(rep.kind, x, rep.asked)) for x in ruled}  # said of them all
    if len(said) == 1:
        return said.pop()
    a, asked, kind = ruled[0].answer, rep.asked, rep.kind
    if kind == "card-legal" or (kind != "bid-legal" and a.get("turn") is not None and a.get("legal") is False):
        card, seat = card_ar(asked.get("card", "?")), player(a.get("seat"))
        if a.get("turn") is not None and a.get("legal") is False:
            key = "lead-out-of-turn" if a.get("lead") else "out-of-turn"
            return _t("sentences", key, seat=seat, turn=player(a["turn"]), card=card)
        return _t("sentences", "card-legal" if a.get("legal") else "card-not-legal", card=card, seat=seat)
    if kind == "bid-legal":
        bid, seat = _bid_words(asked.get("bid", "?"))[1], player(a.get("seat"))
        if a.get("turn") is not None and a.get("legal") is False:
            return _t("sentences", "bid-out-of-turn", bid=bid, seat=seat, turn=player(a["turn"]))
        key = ("bid-legal" if a.get("legal") else "bid-not-legal") + ("-seat" if "seat" in a else "")
        return _t("sentences", key, bid=bid, seat=seat)
    if kind == "trick-winner":
        return _t("sentences", "trick-winner-card", winner=player(a["winner"]), card=card_ar(a["card"]))
    if kind in ("redeal", "next-dealer") and "redeal" in a:
        return _t("sentences", "redeal-yes" if a.get("redeal") else "redeal-no", dealer=player(a.get("dealer")))
    if kind == "next-dealer":
        return _t("sentences", "next-dealer", dealer=player(a.get("dealer")))
    if kind == "winner":
        w = a.get("winner")
        return _t("sentences", "winner-none") if w is None else _t("sentences", "winner", team=team(w))
    if kind == "trump" and a.get("trump") is not None:
        return _t("sentences", "trump-stated" if a.get("stated") else "trump", trump=_strain(a["trump"]))
    if kind == "who-leads":
        return _t("sentences", "who-leads", leader=player(a["leader"]))
    if kind == "whose-turn":
        return _t("sentences", f"whose-turn-{a.get('phase', 'play')}", seat=player(a.get("seat")))
    if kind == "score" and "seat" in a:
        return _t("sentences", "score-seat", seat=player(a["seat"]), delta=_delta(int(a["delta"])))
    if kind == "score":
        return _t("sentences", "score", parts="، ".join(f"{_t('labels', 'player', n=k + 1)}: {_delta(int(d))}"
                                                        for k, d in enumerate(a["deltas"])))
    return several(sentence(kind, ruled[0], asked))  # trump named at the auction, an irregularity: one verdict


def headline_ar(rep: Report) -> str:
    """The answer in one Arabic sentence (as :func:`tarneeb.ruling.readings.headline`): the one ruling's sentence,
    what every ruleset that rules agrees on (:func:`_agreed`) with how many agree, or how they disagree (each
    group's verdict, :func:`_agreed`, with the rulesets that give it)."""
    ruled = [x for x in rep.rulings if x.status == "ruled"]
    if not ruled:
        return ""
    if len(ruled) == 1:
        return _agreed(rep, ruled)
    if len({x.key(rep.kind) for x in ruled}) == 1:
        return f"{_agreed(rep, ruled)} {_t('labels', 'all_agree', n=len(ruled))}"
    return _agreement(rep)


def report_text_ar(rep: Report, explain: bool = False) -> str:
    """The report in Arabic, one right-to-left isolated line each: each ruleset's ruling and arithmetic, each
    deciding clause's statement once (with the rulesets it decides for, when several are asked), every reading's
    ruling, what the documents leave open, how the rulesets agree, and one technical line with the ids."""
    if rep.kind not in KEY_FIELDS:
        raise RuntimeError(f"a report of an unknown question kind {rep.kind!r}")
    several_ = len(rep.rulings) > 1
    lines = [f"{_t('labels', 'question')}: {_t('questions', rep.kind)}"]
    # each clause statement once, with the rulesets it decides for and every source it has among them
    clauses: dict[str, tuple[list[Ruling], list[str]]] = {}
    deciding: set[str] = set()  # the statements of the clauses that decide (the first of a ruling's chain)
    amb_lines: list[str] = []
    silent: dict[str, AmbiguityFlag] = {}
    for x in rep.rulings:
        head = f"{ruleset_ar(x.label, x.ruleset)}: {sentence(rep.kind, x, rep.asked)}"
        math = _arithmetic_ar(x) if x.status == "ruled" else ""
        if math and several_:
            head = f"{head[:-1]} ({_t('labels', 'arithmetic')}: {math})." if head.endswith(".") else \
                f"{head} ({_t('labels', 'arithmetic')}: {math})"
        lines.append(head)
        if math and not several_:
            lines.append(f"{_t('labels', 'arithmetic')}: {math}")
        for i, c in enumerate(_deciding(x, explain)):
            text, source = _clause_text(x, c)
            if i == 0 or c.id in (x.answer.get("breaks") or []):
                deciding.add(text)
            who, sources = clauses.setdefault(text, ([], []))
            who.append(x)
            sources += [source] if source not in sources else []
        more, quiet = _ambiguity_lines(rep.kind, x, rep.asked, several_)
        amb_lines += [ln for ln in more if ln not in amb_lines or ln.startswith("  - ")]
        for a in x.ambiguities:
            if a.id in quiet:
                silent.setdefault(a.id, a)
    for text, (xs, sources) in clauses.items():
        names = "، ".join(dict.fromkeys(ruleset_ar(y.label, y.ruleset) for y in xs))
        label = (_t("labels", "clause_for", names=names) if several_ else _t("labels", "clause")) \
            if text in deciding else _t("labels", "chain_for" if several_ else "chain", names=names)
        lines.append(f"{label}: {text} ({'؛ '.join(sources)})")
    lines += amb_lines
    for a in silent.values():
        lines += _silent_lines(a)
    agreement = _agreement(rep)
    if agreement:
        lines.append(agreement)
    lines.append(_t("labels", "seats_note"))
    lines.append(_technical(rep, explain))
    return "\n".join(rtl_isolated(ln) for ln in lines) + "\n"


__all__ = ["LRI", "MATH_SHAPES", "PDI", "RLI", "add_sentences", "arithmetic", "fact", "ltr", "math_ar", "math_shape",
           "player", "report_text_ar", "rtl_isolated", "ruleset_ar", "sentence", "several"]
