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

from tarneeb.core.cards import STRAINS, SUITS, card_str
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
from tarneeb.ruling.arithmetic import SHAPES, Math, change, cmp, line
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


# ------------------------------------------------------------------ the arithmetic in Arabic
#
# Each shape of a ruling's arithmetic (tarneeb.ruling.arithmetic.Math, made by the deciding modules) worded from
# its terms with the templates of [ruling.arithmetic]: the same numbers, players, cards and comparisons as the
# English line. This restates no rule; formulas stay in left-to-right isolates (so "14 < 41" reads the same in a
# right-to-left line).

MATH_SHAPES = SHAPES


def _a(key: str, **kw: object) -> str:
    return _t("arithmetic", key, **kw)


def _suit(suit: int) -> str:
    return _strain(SUITS[suit])


def _card_words(card: int) -> str:
    return card_ar(card_str(card))


def _f(text: str) -> str:
    """A formula ("6 >= 5", "20 + 5 = 25") in a left-to-right isolate, its comparisons as signs (≥, ≤), its spaces
    no-break ones (a formula broken across two lines of a right-to-left paragraph reads in the wrong order)."""
    return ltr(text.replace(">=", "≥").replace("<=", "≤").replace(" ", "\u00a0"))


def _ge(ok: bool) -> str:
    return ">=" if ok else "<"


def _render(m: Math) -> str:
    """The arithmetic ``m`` in Arabic, from its terms."""
    s, t = m.shape, dict(m.terms)
    if s == "not-in-turn":
        inner = t.get("inner")
        return _a("not-in-turn", seat=t["seat"] + 1, turn=t["turn"] + 1) + (f" ({_render(inner)})" if inner else "")
    if s in ("range", "total"):
        return _f(line(m))
    if s == "changes":
        return "، ".join(_f(change(b, d, a)) for b, d, a in zip(t["before"], t["deltas"], t["after"], strict=True))
    if s == "trump-turned":
        return _a("trump-turned", card=_card_words(t["card"]), suit=_suit(t["card"] // 13), trump=_strain(STRAINS[t["trump"]]))
    if s in ("leader", "won-trick"):
        return _a(s, seat=t["seat"] + 1)
    if s == "follows":
        return _a("follows", card=_card_words(t["card"]), suit=_suit(t["led"]))
    if s in ("void", "void-holds-trump", "holds"):
        return _a(s, seat=t["seat"] + 1, suit=_suit(t["led"]))
    if s == "trick":
        cards = "، ".join(_a("trick-card", card=_card_words(c), seat=p + 1) for p, c in t["played"])
        return _a("trick", cards=cards, card=_card_words(t["card"]))
    if s == "excluded":
        return _a("excluded", bid=t["bid"], bids="، ".join(str(b) for b in t["bids"]))
    if s == "rising-min":
        return _a("rising-min", score=_num(t["score"]), lowest=t["lowest"],
                  cmp=_f(f"{t['bid']} {_ge(t['bid'] >= t['lowest'])} {t['lowest']}"))
    if s == "contract-score":
        (b0, b1), (d0, d1), (a0, a1) = t["before"], t["deltas"], t["after"]
        return _a("contract-score", team=team(t["team"]), cmp=_f(f"{t['took']} {_ge(t['made'])} {t['bid']}"),
                  team0=team(0), team1=team(1), f0=_f(change(b0, d0, a0)), f1=_f(change(b1, d1, a1)))
    if s == "qualify":
        return "؛ ".join(_a("qualify", team=team(k), hi=_f(f"{hi} {_ge(at)} {t['target']}"),
                            lo=_f(f"{lo} {'>' if above else '<='} 0"),
                            verdict=_a("qualifies" if q else "does-not-qualify"))
                         for k, (hi, at, lo, above, q) in enumerate(t["teams"]))
    if s == "reached":
        (v0, v1), (r0, r1) = t["scores"], t["reached"]
        return _a("reached", team0=team(0), team1=team(1), c0=_f(f"{v0} {_ge(r0)} {t['target']}"),
                  c1=_f(f"{v1} {_ge(r1)} {t['target']}"))
    if s == "combined":
        sc, (a, b) = t["scores"], t["keys"]
        return _a("combined", a=_f(f"{sc[0]}+{sc[2]} = {a}"), b=_f(f"{sc[1]}+{sc[3]} = {b}"), cmp=_f(f"{a} {cmp(a, b)} {b}"))
    if s == "top":
        sc, (a, b) = t["scores"], t["keys"]
        return _a("top", a=_num(a), x=_num(sc[0]), y=_num(sc[2]), b=_num(b), z=_num(sc[1]), w=_num(sc[3]),
                  cmp=_f(f"{a} {cmp(a, b)} {b}"))
    if s == "trick-leader":
        return _a("trick-leader", trick=t["trick"], seat=t["seat"] + 1)
    if s in ("bidding-order", "play-order"):
        return _a(s, order=_t("labels", "then").join(str(x + 1) for x in t["seats"]))
    if s == "deals":
        return "؛ ".join(_a("deal", n=n, dealer=d + 1, next=nxt + 1, how=_a(f"deal-{how}") if how else "")
                        for n, d, how, nxt in t["steps"])
    if s == "seat-score":
        d = t["delta"]
        text = _a("seat-score", took=t["took"], bid=t["bid"], cmp=_f(f"{t['took']} {_ge(t['made'])} {t['bid']}"),
                  delta=_f(f"+{d}" if d > 0 else str(d)))
        if t["value"] is not None:
            text += " " + _a("bid-worth", bid=t["bid"], value=t["value"])
        return text + (f"؛ {_f(change(t['before'], d))}" if t["before"] is not None else "")
    if s == "revoke":
        return _a("revoke", trick=t["trick"], led=_suit(t["led"]), seat=t["seat"] + 1, card=_card_words(t["card"]),
                  held=_a("a-trump") if t["trump"] else _suit(t["led"]), proof=_card_words(t["proof"]))
    raise ValueError(f"an arithmetic of an unknown shape {s!r}")


def math_shape(m: Math) -> str | None:
    """The shape of an arithmetic (one of :data:`MATH_SHAPES`), None when there is none."""
    return m.shape or None


def math_ar(m: Math) -> str:
    """A ruling's arithmetic in Arabic, number for number; "" when there is none."""
    return _render(m) if m else ""


def _arithmetic_ar(x: Ruling) -> str:
    """The ruling's arithmetic as the report prints it, in Arabic (:func:`math_ar`, as the web page shows it)."""
    return math_ar(x.math)


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


__all__ = ["LRI", "MATH_SHAPES", "PDI", "RLI", "add_sentences", "fact", "ltr", "math_ar", "math_shape",
           "player", "report_text_ar", "rtl_isolated", "ruleset_ar", "sentence", "several"]
