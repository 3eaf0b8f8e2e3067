"""Counterexamples as a game situation a player can read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tarneeb.core.cards import SUIT_NAMES, card_str, hand_codes
from tarneeb.core.sources import rule_words


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
            lines.append("  clauses: " + ", ".join(rule_words(c) for c in self.clauses))
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """The witness as ``prove --json`` gives it."""
        return {"title": self.title, "facts": dict(self.rows), "clauses": list(self.clauses)}


def card_text(c: int) -> str:
    """A card as every human text writes it (``AS``), or a note that the number is no card."""
    return card_str(c) if 0 <= c < 52 else f"no card (the number {c})"


def hand_text(mask: int) -> str:
    """A hand (52-bit mask) in the cards' codes, as every human text writes a hand (``AS KS | QH | ...``)."""
    return hand_codes(mask & ((1 << 52) - 1))


def seat_text(s: int) -> str:
    """A seat as players count it, with the seat number of the encoding: ``player 2 (seat 1) of team 2``."""
    return f"player {s + 1} (seat {s}) of team {s % 2 + 1}" if 0 <= s < 4 else f"no seat (the number {s})"


def suit_text(s: int, leading: str = "") -> str:
    """A suit (0..3) by name, ``no trump`` for 4; ``leading`` says what an out-of-range value means."""
    if 0 <= s < 4:
        return SUIT_NAMES[s]
    if s == 4:
        return "no trump"
    return leading or f"no suit (the number {s})"


def bids_text(pairs: Sequence[tuple[int, int]]) -> str:
    """Bids by player, in words."""
    return ", ".join(f"player {s + 1} bids {b}" for s, b in pairs)
