"""Counterexamples as a game situation a player can read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tarneeb.core.cards import card_str, hand_str


@dataclass
class Witness:
    """A counterexample as a reader sees it: a title, labelled facts and the clauses involved."""
    title: str = ""
    rows: list[tuple[str, str]] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)

    def add(self, label: str, value: str) -> None:
        """Add a labelled fact."""
        self.rows.append((label, value))

    def text(self) -> str:
        """The witness as indented lines of text."""
        lines = [self.title] if self.title else []
        lines += [f"  {k}: {v}" for k, v in self.rows]
        if self.clauses:
            lines.append("  clauses: " + ", ".join(self.clauses))
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """The witness as ``prove --json`` gives it."""
        return {"title": self.title, "facts": dict(self.rows), "clauses": list(self.clauses)}


def card_text(c: int) -> str:
    """A card as the engine writes it, or a note that the number is no card."""
    return card_str(c) if 0 <= c < 52 else f"<no card {c}>"


def hand_text(mask: int) -> str:
    """A hand (52-bit mask) as the engine writes it."""
    return hand_str(mask & ((1 << 52) - 1))


def seat_text(s: int) -> str:
    """A seat with its team."""
    return f"seat {s} (team {s % 2})" if 0 <= s < 4 else f"seat ? ({s})"


def bids_text(pairs: Sequence[tuple[int, int]]) -> str:
    """Bids by seat, in words."""
    return ", ".join(f"seat {s} bids {b}" for s, b in pairs)
