"""The Arabic of a replayed score sheet, once: a reason of a hand (:class:`~tarneeb.sheet.Reason`, from its
``facts``), a team, a bid, a score change and the short name of the rule that decides it, with the templates of
``spec/i18n/ar-sheet.toml`` (``[sheet]``, ``[rule_names]``), as players at the table say them.

``tarneeb score FILE --lang ar`` (:mod:`tarneeb.cli.score_ar`) and the score page (:mod:`tarneeb.serve.score`, on
``tarneeb serve`` and the offline site) both speak through :class:`SheetWords`, so that a reason reads the same in the
terminal and on the page: the command writes it as one line, ``{sentence}، حسب {rule}.`` (:meth:`SheetWords.by`),
the page as the sentence with the rule's name in its fold. A player's name sits in an isolate (``isolate``, by
default a first-strong isolate: a Latin or an Arabic name alike), a signed number in a left-to-right one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tarneeb.core.actions import Bid
from tarneeb.core.cards import STRAINS
from tarneeb.core.rules import team_of
from tarneeb.i18n.arabic import FSI, LRI, PDI
from tarneeb.i18n.tables import i18n
from tarneeb.sheet.replay import Reason


def t(key: str, **kw: object) -> str:
    """The template ``key`` of ``[sheet]`` filled with ``kw``."""
    text = i18n("ar").get("sheet", {}).get(key, "")
    if not isinstance(text, str) or not text:
        raise KeyError(f"spec/i18n/ar-sheet.toml: [sheet] has no {key!r}")
    return text.format(**kw)


def rule_name(clause: str) -> str:
    """A rule as players name it, ``قاعدة الهدف`` (``[rule_names]``); a club's own clause, unnamed there, is «a rule
    of this table» (its id is for the technical line or fold)."""
    return str(i18n("ar").get("rule_names", {}).get(clause, "")) or t("rule_unnamed")


def first_strong(name: str) -> str:
    """A player's name in a first-strong isolate."""
    return f"{FSI}{name}{PDI}"


def ltr(text: object) -> str:
    """``text`` in a left-to-right isolate (a signed number, a formula)."""
    return f"{LRI}{text}{PDI}"


def delta(d: int) -> str:
    """A score change as a sentence states it, signed, ``+3`` or ``-4``."""
    return ltr(f"+{d}" if d > 0 else str(d))


def strain(s: int) -> str:
    """A strain (0..3 the suits, 4 no trump) as players name it."""
    return str(i18n("ar")["ruling"]["strains"][STRAINS[s]])


class SheetWords:
    """The Arabic of one sheet: its players by their names (``names`` in seat order, each in ``isolate``)."""

    def __init__(self, names: Sequence[str], isolate: Callable[[str], str] = first_strong) -> None:
        self.names = [isolate(n) for n in names]

    def team(self, team: int) -> str:
        """The two partners of ``team`` (0: seats 0 and 2), ``رامي وسامي``."""
        a, b = (self.names[s] for s in range(4) if team_of(s) == team)
        return t("team", a=a, b=b)

    def bid(self, bid: Bid) -> str:
        """A bid or call: ``باص``, ``7``, ``8 كبّة``."""
        if bid.n is None:
            return t("pass")
        return f"{bid.n}" + ("" if bid.strain is None else f" {strain(bid.strain)}")

    def reason(self, r: Reason) -> str:
        """A reason of a hand as one sentence, from its facts (seats, teams, numbers; -1 for no strain)."""
        f = r.facts
        if r.kind == "deal":
            key = f"redeal.{r.clause}"
            return t("redeal", why=t(key if key in i18n("ar")["sheet"] else "redeal.other", **f))
        if r.kind == "score" and "seat" in f:
            worth = "" if f["value"] == f["bid"] else t("worth", bid=f["bid"], value=f["value"])
            return t("seat_bid", name=self.names[f["seat"]], bid=f["bid"], worth=worth, took=f["took"],
                     made=t("made" if f["made"] else "failed"), delta=delta(f["delta"]))
        if r.kind == "score":
            return t("contract", holder=self.names[f["holder"]],
                     bid=self.bid(Bid(f["bid"], None if f["strain"] < 0 else f["strain"])),
                     trump="" if f["trump"] < 0 else t("named_trump", trump=strain(f["trump"])),
                     team=self.team(f["team"]), took=f["took"], made=t("made" if f["made"] else "failed"),
                     team0=self.team(0), d0=delta(f["delta0"]), team1=self.team(1), d1=delta(f["delta1"]))
        if r.kind == "outcome" and "target" in f:
            return t("game", team=self.team(f["team"]), target=f["target"])
        if r.kind == "outcome":
            return t("match", team=self.team(f["team"]))
        return t("again" if f["again"] else "next_dealer", name=self.names[f["dealer"]])

    @staticmethod
    def no_winner() -> str:
        """No team has won yet, as a sentence."""
        return t("no_winner")

    @staticmethod
    def by(sentence: str, clause: str) -> str:
        """A sentence with the rule that decides it, as one line: ``…، حسب قاعدة الهدف.``"""
        return t("by", text=sentence.removesuffix("."), rule=rule_name(clause))


__all__ = ["SheetWords", "delta", "first_strong", "ltr", "rule_name", "strain", "t"]
