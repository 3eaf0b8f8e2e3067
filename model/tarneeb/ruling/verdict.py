"""A decision of the referee on one question under one ruleset (:class:`Decision`), the clauses it cites
(:class:`ClauseRef`) and the words every decision uses (a team with its players, a signed score change).

The bottom of the deciding modules: :mod:`tarneeb.ruling.facts` checks the stated facts, the per-kind modules
(:mod:`~tarneeb.ruling.tricks`, :mod:`~tarneeb.ruling.bidding`, :mod:`~tarneeb.ruling.scoring`,
:mod:`~tarneeb.ruling.turns`) decide, and :func:`tarneeb.ruling.decision.decide` picks the one asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.core.cards import player_name, team_label
from tarneeb.core.spec import Rules
from tarneeb.ruling.arithmetic import NONE, Math


@dataclass(frozen=True, slots=True)
class Decision:
    """The referee's answer to one question under one ruleset: the answer as fields, its sentence, the deciding
    clauses (deciding clause first) and the arithmetic or comparison behind it."""

    answer: dict[str, Any]
    text: str
    chain: tuple[str, ...]  # deciding clause first
    math: Math = NONE  # the arithmetic or the comparison that decides (tarneeb.ruling.arithmetic)


@dataclass(frozen=True, slots=True)
class ClauseRef:
    """A clause a ruling cites: its id, our wording, the document and the heading it comes from."""

    id: str
    text: str
    doc: str
    heading: str

    def to_json(self) -> dict[str, str]:
        """The clause as a JSON object: id, text, document and heading."""
        return {"id": self.id, "text": self.text, "doc": self.doc, "heading": self.heading}


def clause_refs(rules: Rules, chain: Sequence[str]) -> tuple[ClauseRef, ...]:
    """The ruleset's clauses of ``chain``, in order, each once (ids the ruleset lacks are left out)."""
    out: list[ClauseRef] = []
    seen: set[str] = set()
    for cid in chain:
        c = rules.ruleset.clauses.get(cid)
        if c is None or cid in seen:
            continue
        seen.add(cid)
        out.append(ClauseRef(c.id, c.text, c.doc, c.heading))
    return tuple(out)


# ------------------------------------------------------------------ wording


def team_name(team: int) -> str:
    """A team with its players, e.g. ``team 1 (player 1 and player 3)``."""
    return f"{team_label(team)} ({player_name(team)} and {player_name(team + 2)})"


def fmt_delta(d: int) -> str:
    """A score change with its sign (``+10``, ``-8``, ``0``)."""
    return f"+{d}" if d > 0 else str(d)


__all__ = ["ClauseRef", "Decision", "clause_refs", "fmt_delta", "team_name"]
