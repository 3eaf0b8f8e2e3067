"""The referee's report in Arabic (``tarneeb ruling --lang ar``).

The sentences are built from each ruling's answer fields (not translated from the English text), with the
labels and templates of ``spec/i18n/ar-ruling.toml`` (section ``[ruling]``), the clause statements of
``spec/i18n/ar.toml`` (through :func:`tarneeb.docgen.rulebook.clause_text`) and the Arabic readings of the
ambiguity register. Seats are named 1 to 4 as players count (seat 0 of a situation is player 1).

Every line is wrapped for right-to-left display in a right-to-left isolate (U+2067 ... U+2069); clause ids,
card codes, ruleset labels, citations and formulas inside it sit in left-to-right isolates (U+2066 ... U+2069),
so a terminal or a browser that applies the Unicode bidirectional algorithm shows them in the right order.
"""

from __future__ import annotations

import re
from typing import Any

from tarneeb.core.sources import cite
from tarneeb.core.spec import rulesets
from tarneeb.docgen.arabic import LRI, PDI, RLI, isolate
from tarneeb.ruling.readings import KEY_FIELDS, AmbiguityFlag, Report, Ruling


def ltr(text: object) -> str:
    """``text`` in a left-to-right isolate (ids, card codes, formulas)."""
    return f"{LRI}{text}{PDI}"


def rtl_isolated(text: str) -> str:
    """One terminal line of Arabic in a right-to-left isolate (``docgen.arabic.rtl_line`` marks a line of a
    text file with RLM instead)."""
    return f"{RLI}{text}{PDI}"


def _table() -> dict[str, Any]:
    from tarneeb.docgen.rulebook import i18n

    table: dict[str, Any] = i18n("ar").get("ruling", {})
    return table


def _t(section: str, key: str, **kw: object) -> str:
    text = str(_table().get(section, {}).get(key, ""))
    if not text:
        raise KeyError(f"spec/i18n/ar-ruling.toml: [ruling.{section}] has no {key!r}")
    return text.format(**kw)


def player(seat: object) -> str:
    """Seat 0..3 as the player number 1..4."""
    return str(int(str(seat)) + 1) if seat is not None else "?"


def team(t: object) -> str:
    n = int(str(t))
    return _t("labels", "team", a=n + 1, b=n + 3)


def _strain(code: object) -> str:
    return _t("strains", str(code)) if code is not None else ""


def _delta(d: int) -> str:
    return ltr(f"+{d}" if d > 0 else str(d))


def _clauses(ids: list[str]) -> str:
    return "، ".join(ltr(c) for c in ids)


def sentence(kind: str, x: Ruling, asked: dict[str, Any]) -> str:
    """The ruling of ``x`` as one Arabic sentence."""
    a = x.answer
    if x.status == "not-applicable":
        return _t("status", "not-applicable")
    if x.status == "undecided":
        return _t("status", "undecided", field=ltr(a.get("missing", "?")))
    if x.status == "contradiction":
        return _t("status", "contradiction", fields=_clauses(list(a.get("fields", []))))
    if a.get("turn") is not None and a.get("legal") is False:
        key = "bid-out-of-turn" if kind == "bid-legal" else "out-of-turn"
        return _t("sentences", key, seat=player(a.get("seat")), turn=player(a["turn"]),
                  card=ltr(asked.get("card", "?")))
    if kind == "card-legal":
        card = ltr(asked.get("card", "?"))
        key = "card-legal" if a.get("legal") else "card-not-legal"
        text = _t("sentences", key, card=card, seat=player(a.get("seat")))
        return text if a.get("legal") or not a.get("clause") else f"{text[:-1]} ({ltr(a['clause'])})."
    if kind == "bid-legal":
        bid = ltr(asked.get("bid", "?"))
        if a.get("legal"):
            return _t("sentences", "bid-legal", bid=bid)
        return _t("sentences", "bid-not-legal", bid=bid)[:-1] + f" ({ltr(a.get('clause', ''))})."
    if kind == "trick-winner":
        return _t("sentences", "trick-winner", winner=player(a["winner"]), card=ltr(a["card"]),
                  trump=_strain(a.get("trump")))
    if kind == "redeal":
        return _t("sentences", "redeal-yes" if a.get("redeal") else "redeal-no", dealer=player(a["dealer"]))
    if kind == "score":
        if "seat" in a:
            key = "score-seat-after" if "score" in a else "score-seat"
            return _t("sentences", key, seat=player(a["seat"]), delta=_delta(int(a["delta"])),
                      score=ltr(a.get("score", "")))
        parts = "، ".join(f"{_t('labels', 'player', n=k + 1)}: {_delta(int(d))}" for k, d in enumerate(a["deltas"]))
        return _t("sentences", "score", parts=parts)
    if kind == "winner":
        w = a.get("winner")
        return _t("sentences", "winner-none") if w is None else _t("sentences", "winner", team=team(w))
    if kind == "next-dealer":
        return _t("sentences", "next-dealer", dealer=player(a["dealer"]))
    if kind == "trump":
        t = a.get("trump")
        return _t("sentences", "trump-named") if t is None else _t("sentences", "trump", trump=_strain(t))
    if kind == "who-leads":
        return _t("sentences", "who-leads", leader=player(a["leader"]))
    if kind == "whose-turn":
        return _t("sentences", f"whose-turn-{a.get('phase', 'play')}", seat=player(a["seat"]))
    irr = str(a.get("irregularity"))
    name = _t("irregularities", irr)
    head = ""
    if a.get("revoke") is True:
        head = _t("sentences", "revoke", seat=player(asked.get("seat")), trick=a["trick"], card=ltr(a["card"]),
                  proof=ltr(a["proof"])) + " "
    elif a.get("revoke") is False:
        return _t("sentences", "no-revoke", seat=player(asked.get("seat")))
    breaks = list(a.get("breaks", []))
    if breaks:
        return head + _t("sentences", "irregularity", name=name, clauses=_clauses(breaks))
    return head + _t("sentences", "irregularity-no-clause", name=name)


def add_sentences(out: dict[str, Any], rep: Report) -> None:
    """Give each ruling of ``out`` (:func:`~tarneeb.ruling.readings.report_json` of ``rep``) its Arabic sentence,
    ``ruling_ar``."""
    for r, x in zip(out["rulings"], rep.rulings, strict=True):
        r["ruling_ar"] = sentence(rep.kind, x, rep.asked)


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


def _clause_line(x: Ruling) -> str:
    from tarneeb.docgen.rulebook import clause_text

    c = x.clauses[0]
    rs = rulesets().get(x.ruleset)
    text = clause_text(rs, c.id, "ar") if rs is not None else c.text
    return f"{_t('labels', 'clause')} {ltr(c.id)}: {text} ({isolate(cite(c.doc, c.heading, 'ar'))})"


def _readings_ar(a: AmbiguityFlag) -> list[str]:
    from tarneeb.docgen.rulebook import _tr

    out = []
    for r in a.readings:
        text = _tr("ar", "ambiguity", a.id, r.id) or r.text
        mark = f" ({_t('labels', 'taken')})" if r.taken else ""
        out.append(f"{ltr(r.id)}{mark}: {text}")
    return out


def _ruling_lines(kind: str, x: Ruling, asked: dict[str, Any], explain: bool) -> list[str]:
    lines = [f"{ltr(x.label)}: {sentence(kind, x, asked)}"]
    if x.status != "ruled":
        return lines
    if x.clauses:
        lines.append(_clause_line(x))
    if explain:
        from tarneeb.docgen.rulebook import clause_text

        rs = rulesets().get(x.ruleset)
        for c in x.clauses[1:]:
            text = clause_text(rs, c.id, "ar") if rs is not None else c.text
            lines.append(f"  {ltr(c.id)}: {text} ({isolate(cite(c.doc, c.heading, 'ar'))})")
    math = arithmetic(x)
    if math:
        lines.append(f"{_t('labels', 'arithmetic')}: {ltr(math)}")
    for a in x.ambiguities:
        silent = all(r.answer is None and not r.taken for r in a.readings)
        if silent and (explain or kind == "irregularity"):
            lines.append(_t("labels", "silent", id=ltr(a.id)))
            lines += ["  - " + r for r in _readings_ar(a)]
        elif silent:
            lines.append(_t("labels", "silent", id=ltr(a.id)) + " " + "، ".join(ltr(r.id) for r in a.readings))
        elif a.changes_ruling:
            lines.append(_t("labels", "ambiguous", id=ltr(a.id)))
            if explain:
                lines += ["  - " + r for r in _readings_ar(a)]
    return lines


def _agreement(rep: Report) -> str:
    ruled = [x for x in rep.rulings if x.status == "ruled"]
    if len(ruled) < 2:
        return ""
    groups: dict[str, list[Ruling]] = {}
    for x in ruled:
        groups.setdefault(x.key(rep.kind), []).append(x)
    if len(groups) == 1:
        return _t("labels", "all_agree", n=len(ruled))
    parts = [f"{sentence(rep.kind, m[0], rep.asked)} {_t('labels', 'under')} "
             f"{'، '.join(ltr(y.label) for y in m)}" for m in groups.values()]
    return _t("labels", "disagree") + " " + " | ".join(parts)


def report_text_ar(rep: Report, explain: bool = False) -> str:
    """The report in Arabic, one right-to-left isolated line each; short unless ``explain``."""
    assert rep.kind in KEY_FIELDS
    lines = [f"{_t('labels', 'question')}: {_t('questions', rep.kind)}"]
    if len(rep.rulings) == 1 or explain:
        for x in rep.rulings:
            lines += _ruling_lines(rep.kind, x, rep.asked, explain)
    else:  # one line each
        for x in rep.rulings:
            why = f" ({ltr(x.clauses[0].id)})" if x.status == "ruled" and x.clauses else ""
            lines.append(f"{ltr(x.label)}: {sentence(rep.kind, x, rep.asked)}{why}")
    agreement = _agreement(rep)
    if agreement:
        lines.append(agreement)
    lines.append(_t("labels", "seats_note"))
    return "\n".join(rtl_isolated(ln) for ln in lines) + "\n"


__all__ = ["LRI", "PDI", "RLI", "add_sentences", "arithmetic", "ltr", "player", "report_text_ar", "rtl_isolated", "sentence"]
