"""The words the referee's Arabic is made of: a card, a ruleset with its options and readings, a player, a team,
a strain, a bid, a score change and the scores, each as players say them, with the labels and templates of
``spec/i18n/ar-ruling.toml`` (section ``[ruling]``); and the isolates that keep ids and numbers in order in a
right-to-left line. The sentences and the report built of them are :mod:`tarneeb.ruling.arabic`.
"""

from __future__ import annotations

import re
from typing import Any

from tarneeb.core.actions import ActionError, Bid, parse_action
from tarneeb.core.cards import STRAINS, SUITS, parse_card
from tarneeb.core.spec import rulesets
from tarneeb.errors import CardError
from tarneeb.i18n.arabic import LRI, PDI, RLI, team_name, terms
from tarneeb.i18n.tables import i18n, tr


def ltr(text: object) -> str:
    """``text`` in a left-to-right isolate (ids, card codes, formulas)."""
    return f"{LRI}{text}{PDI}"


def card_ar(code: object) -> str:
    """A card as players name it: ``AS`` -> «آس البستوني», ``10H`` -> «عشرة الكبّة»; the words are ``[cards]`` of
    ``spec/i18n/terms.toml`` (where the docs find them too). The code is left for the technical line: players say
    the card, they do not spell its code. A code that is not a card: «الورقة X» (X isolated), so that a sentence's
    «بـ» still reads."""
    try:
        c = parse_card(str(code))
    except CardError:
        return f"الورقة {ltr(code)}"
    words = terms().get("cards", {})
    rank, suit = words["ranks"][c % 13], words["suits"][SUITS[c // 13]]
    return f"{rank} {suit}"


def ruleset_ar(label: str, rid: str = "") -> str:
    """A ruling's ruleset label (``classic [all_pass=dealer-forced]``, ``eram-41 [reading weakest-card=lowest-rank]``)
    in Arabic words: the ruleset's Arabic name, with each option changed by its Arabic name and value and each
    reading by its Arabic text. The label itself goes to the technical line."""
    m = re.fullmatch(r"(\S+)(?: \[(.*)\])?", label)
    base, extra = (m.group(1), m.group(2)) if m else (label, None)
    rid = rid or base
    name = tr("ar", "ruleset", rid, "name") or (rulesets()[rid].name_ar if rid in rulesets() else "") or ltr(base)
    if not extra:
        return name
    options, readings = [], []
    for part in extra.split(", "):
        if (r := re.fullmatch(r"reading (\S+)=(\S+)", part)) is not None:
            readings.append(tr("ar", "ambiguity", r.group(1), r.group(2)).rstrip(".") or ltr(part))
        elif "=" in part:
            k, v = part.split("=", 1)
            option = tr("ar", "option_names", k) or ltr(k)
            value = v if re.fullmatch(r"-?\d+", v) else (tr("ar", "values", v) or ltr(v))
            options.append(_t("labels", "option_value", option=option, value=value))
        else:
            options.append(ltr(part))
    if options:
        name = _t("labels", "with_options", name=name, options="، ".join(options))
    for reading in readings:
        name = _t("labels", "with_reading", name=name, reading=reading)
    return name


def rtl_isolated(text: str) -> str:
    """One terminal line of Arabic in a right-to-left isolate (``i18n.arabic.rtl_line`` marks a line of a
    text file with RLM instead)."""
    return f"{RLI}{text}{PDI}"


def _table() -> dict[str, Any]:
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
    """Team 0/1 as players name it, with its two players: «الفريق الأول (1 و3)» (the names of terms.toml [seats])."""
    n = int(str(t))
    return _t("labels", "team", name=team_name(n), a=n + 1, b=n + 3)


def _strain(code: object) -> str:
    return _t("strains", str(code)) if code is not None else ""


def _delta(d: int) -> str:
    return ltr(f"+{d}" if d > 0 else str(d))


def _num(n: object) -> str:
    """A number as written in a sentence; a negative one in a left-to-right isolate (its minus sign stays put)."""
    return ltr(n) if int(str(n)) < 0 else str(n)


def _scores(scores: list[int]) -> str:
    """The scores an outcome is decided on: each player's (1 to 4) or each team's."""
    if len(scores) == 4:
        return _t("labels", "scores4", scores="، ".join(_num(v) for v in scores))
    return _t("labels", "scores2", a=_num(scores[0]), b=_num(scores[1]), team0=team(0), team1=team(1))


def _bid_words(code: object) -> tuple[str, str]:
    """(the bid as a player reads it: a number or the word for a pass, the same with its noun) of an action code
    ``bid:6`` / ``bid:7H`` / ``bid:pass``."""
    try:
        bid = parse_action(str(code))
    except ActionError:
        bid = None
    if not isinstance(bid, Bid):
        plain = str(code).removeprefix("bid:")
    elif bid.n is None:
        word = _t("labels", "pass")
        return word, _t("labels", "a-pass", word=word)
    else:
        plain = str(bid.n) if bid.strain is None else f"{bid.n} {_strain(STRAINS[bid.strain])}"
    return plain, _t("labels", "a-bid", bid=plain)


__all__ = ["card_ar", "ltr", "player", "rtl_isolated", "ruleset_ar", "team"]
