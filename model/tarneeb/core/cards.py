"""Cards, suits and hands as bitmasks.

A card is an int 0..51: ``suit * 13 + rank`` with suits in the order clubs,
diamonds, hearts, spades (the Egyptian bidding order of document 002) and ranks
0 = two .. 12 = ace. A hand is a 52-bit int mask, so follow-suit checks are a
single ``&``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from tarneeb.errors import CardError

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
RANKS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NO_TRUMP = 4
STRAINS = "CDHSN"

SUIT_MASKS: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL_DECK: Final = (1 << 52) - 1
CARD_BITS: Final[tuple[int, ...]] = tuple(1 << c for c in range(52))  # a card's bit in a hand mask

# For every 13-bit pattern, the ranks it holds (ascending). 8192 small tuples.
_RANKS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if p >> r & 1) for p in range(1 << 13)
)
# Same-colour partner suit: clubs<->spades, diamonds<->hearts.
SAME_COLOUR = (3, 2, 1, 0)


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def make_card(suit: int, rank: int) -> int:
    return suit * 13 + rank


def card_str(card: int) -> str:
    """Short form: rank then suit letter, e.g. ``AS``, ``TH``, ``2C``."""
    return RANKS[card % 13] + SUITS[card // 13]


CARD_TEXT: tuple[str, ...] = tuple(card_str(c) for c in range(52))  # card_str of every card, by its number


def card_name(card: int) -> str:
    """Readable form, e.g. ``10 of hearts``."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def card_symbol(card: int) -> str:
    """A card as players read it: its rank and its suit's symbol, ``10♥``."""
    return f"{RANK_NAMES[card % 13]}{SUIT_SYMBOLS[card // 13]}"


# what every --json of a human-facing command (ruling, show, rules, stats) says of its numbers, in its "numbering"
JSON_NUMBERING = "seats 0-3 (seat 0 is player 1), teams 0-1 (team 0 is players 1 and 3)"


def player_name(seat: object, capital: bool = False) -> str:
    """A seat 0..3 as players count it in every human text: ``player 1`` .. ``player 4`` (``Player 1`` with
    ``capital``); files, records and JSON keep the seat numbers 0..3. Anything else is shown as given."""
    word = "Player" if capital else "player"
    return f"{word} {seat + 1}" if type(seat) is int and 0 <= seat < 4 else f"{word} {seat}"


def n_of(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun in its right form: ``1 match``, ``2 matches`` (``many`` defaults to ``one`` + "s")."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def team_label(team: object) -> str:
    """A team 0/1 as players count it in every human text: ``team 1`` (players 1 and 3) and ``team 2`` (players 2
    and 4); records and JSON keep 0 and 1. Anything else is shown as given."""
    return f"team {team + 1}" if type(team) is int and 0 <= team < 2 else f"team {team}"


def player_and_seat(seat: object) -> str:
    """``player 3 (seat 2)``: a seat a record or a file gives (0..3) as players count it, with the number the
    data holds; what the verifier says about a record's seats. Anything else is shown as given."""
    return f"{player_name(seat)} (seat {seat})" if type(seat) is int and 0 <= seat < 4 else str(seat)


def strain_name(strain: int, letter: bool = False) -> str:
    """``no trump`` for 4, else the suit's name (``hearts``) or, with ``letter``, its letter (``H``)."""
    if strain == NO_TRUMP:
        return "no trump"
    return SUITS[strain] if letter else SUIT_NAMES[strain]


def strain_text(strain: int | None) -> str | None:
    """The letter of a strain as records and the protocol write it (``H``, ``N`` for no trump); None when
    there is none yet (None or -1)."""
    return None if strain is None or strain < 0 else STRAINS[strain]


def parse_suit(text: str) -> int:
    t = text.strip().upper()
    for i, (letter, name, sym) in enumerate(zip(SUITS, SUIT_NAMES, SUIT_SYMBOLS, strict=True)):
        if t in (letter, name.upper(), name.upper().rstrip("S"), sym):
            return i
    raise CardError(f"unknown suit {text!r}: use one of C, D, H, S")


def parse_card(text: str) -> int:
    """Parse ``AS``, ``10H``, ``TH``, ``qd`` or ``2♣``; raises :class:`CardError`."""
    if type(text) is str:
        c = _CARD_OF_TEXT.get(text)  # the short form itself: one look-up
        if c is not None:
            return c
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"unreadable card {text!r}: expected rank then suit, e.g. AS, 10H")
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"unknown rank in card {text!r}: use 2-9, T or 10, J, Q, K, A")
    return make_card(parse_suit(suit_text), RANKS.index(rank_text))


_CARD_OF_TEXT: dict[str, int] = {card_str(c): c for c in range(52)}


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# For every suit and 13-bit pattern, the cards it holds (ascending).
CARDS_OF_SUIT: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(13 * s + r for r in ranks) for ranks in _RANKS_OF) for s in range(4)
)


def cards_of(mask: int) -> list[int]:
    """Cards of a mask in ascending order (clubs 2 first)."""
    out: list[int] = []
    for s in range(4):
        p = (mask >> (13 * s)) & 0x1FFF
        if p:
            out += CARDS_OF_SUIT[s][p]
    return out


def ranks_in(mask: int, suit: int) -> tuple[int, ...]:
    return _RANKS_OF[(mask >> (13 * suit)) & 0x1FFF]


def count(mask: int) -> int:
    return mask.bit_count()


def suit_count(mask: int, suit: int) -> int:
    return (mask & SUIT_MASKS[suit]).bit_count()


def per_player(values: Sequence[object]) -> str:
    """Four values by seat as people read them: ``player 1 3, player 2 5, player 3 1, player 4 4``."""
    return ", ".join(f"{player_name(s)} {v}" for s, v in enumerate(values))


def per_team(values: Sequence[object]) -> str:
    """Two values by team as people read them: ``team 1 41, team 2 39``."""
    return ", ".join(f"{team_label(t)} {v}" for t, v in enumerate(values))


def hand_codes(mask: int) -> str:
    """A hand by suit in the cards' codes, as every human text writes a card (``AS``, ``TD``) and every input
    takes it: ``AS KS 7S | QH 2H | no diamonds | 9C 8C``."""
    parts = []
    for s in (3, 2, 1, 0):
        rs = ranks_in(mask, s)
        parts.append(" ".join(RANKS[r] + SUITS[s] for r in reversed(rs)) or f"no {SUIT_NAMES[s]}")
    return " | ".join(parts)


def hand_str(mask: int) -> str:
    """Hand by suit, e.g. ``S: A K 7 | H: Q 2 | D: - | C: 9 8``."""
    parts = []
    for s in (3, 2, 1, 0):
        rs = ranks_in(mask, s)
        parts.append(SUITS[s] + ": " + (" ".join(RANK_NAMES[r] for r in reversed(rs)) or "-"))
    return " | ".join(parts)
