"""Actions: a game is a replayable list of these.

``Deal`` is the chance event (the deck order); ``Bid``, ``NameTrump``,
``Play`` and ``Redeal`` are the players'. Each has a short text form used in records and on
the command line: ``deal:<104 chars>``, ``bid:7``, ``bid:pass``, ``bid:8H``,
``bid:9N`` (Egyptian, N = no trump), ``trump:S``, ``play:QD``, ``redeal:ask``, ``redeal:keep``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tarneeb.core.cards import RANKS, STRAINS, card_str, parse_card, parse_suit
from tarneeb.core.rules import bid_key
from tarneeb.errors import ActionError, CardError


@dataclass(frozen=True, slots=True)
class Deal:
    deck: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy (compiled by mypyc, a frozen class has no other way)
        return Deal, (self.deck,)

    def __str__(self) -> str:
        return "deal:" + "".join(card_str(c) for c in self.deck)


@dataclass(frozen=True, slots=True)
class Bid:
    """``n`` tricks, or ``None`` for a pass; ``strain`` 0..4 (C D H S N) under Egyptian bidding."""

    n: int | None
    strain: int | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy (compiled by mypyc, a frozen class has no other way)
        return Bid, (self.n, self.strain)

    def __str__(self) -> str:
        if self.n is None:
            return "bid:pass"
        if self.strain is None:
            return f"bid:{self.n}"
        return f"bid:{self.n}" + _strain_text(self.strain)

    def key(self) -> int:
        """Auction order: more tricks, then a higher strain (see :func:`tarneeb.core.rules.bid_key`)."""
        return bid_key(self.n, self.strain)


@dataclass(frozen=True, slots=True)
class NameTrump:
    suit: int

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy (compiled by mypyc, a frozen class has no other way)
        return NameTrump, (self.suit,)

    def __str__(self) -> str:
        return "trump:" + _strain_text(self.suit)


def _strain_text(strain: object) -> str:
    """A strain's letter (C D H S N), or the value marked as no strain."""
    return STRAINS[strain] if type(strain) is int and 0 <= strain < len(STRAINS) else f"<strain {strain!r}>"


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy (compiled by mypyc, a frozen class has no other way)
        return Play, (self.card,)

    def __str__(self) -> str:
        c = self.card
        return _PLAY_TEXT[c] if type(c) is int and 0 <= c < 52 else f"play:<card {c!r}>"


@dataclass(frozen=True, slots=True)
class Redeal:
    """A weak seat's choice under reading claimed of ambiguity weak-hand: ask for a redeal, or keep the hand."""

    ask: bool

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy (compiled by mypyc, a frozen class has no other way)
        return Redeal, (self.ask,)

    def __str__(self) -> str:
        return "redeal:ask" if self.ask else "redeal:keep"


Action = Deal | Bid | NameTrump | Play | Redeal
ASK, KEEP = Redeal(True), Redeal(False)

_PLAY_TEXT: tuple[str, ...] = tuple("play:" + card_str(c) for c in range(52))
PLAYS: Final[tuple[Play, ...]] = tuple(Play(c) for c in range(52))
BIDS: Final[tuple[Bid, ...]] = tuple(Bid(n) for n in range(14))
PASS = Bid(None)
EGYPTIAN: dict[tuple[int, int], Bid] = {(n, s): Bid(n, s) for n in range(14) for s in range(5)}


def parse_action(text: str) -> Action:
    """Parse the text form; raises :class:`ActionError` naming the text."""
    kind, _, rest = text.strip().partition(":")
    kind = kind.lower()
    try:
        if kind == "deal":
            cards = [parse_card(rest[i:i + 2]) for i in range(0, len(rest), 2)]
            return Deal(tuple(cards))
        if kind == "bid":
            r = rest.strip().upper()
            if r == "PASS":
                return PASS
            if r and r[-1] in STRAINS and not r[-1].isdigit():
                return Bid(int(r[:-1]), STRAINS.index(r[-1]))
            return Bid(int(r))
        if kind == "trump":
            r = rest.strip().upper()
            return NameTrump(4 if r == "N" else parse_suit(r))
        if kind == "play":
            return PLAYS[parse_card(rest)]
        if kind == "redeal":
            r = rest.strip().lower()
            if r not in ("ask", "keep"):
                raise ValueError("a weak seat's choice is redeal:ask or redeal:keep")
            return ASK if r == "ask" else KEEP
    except (ValueError, CardError) as e:
        raise ActionError(f"unreadable action {text!r}: {e}") from None
    raise ActionError(f"unreadable action {text!r}: the kind must be deal, bid, trump, play or redeal")


__all__ = ["ASK", "Action", "ActionError", "Bid", "BIDS", "Deal", "EGYPTIAN", "KEEP", "NameTrump", "PASS", "PLAYS",
           "Play", "Redeal", "parse_action", "RANKS"]
