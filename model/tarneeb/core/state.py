"""The state of a match between two actions, and what an action makes happen (events).

A state is one of seven phase types, each carrying exactly what its phase needs, so no field is a hole to be
checked for "no deal in progress":

* :class:`Dealing` -- waiting for the deck (the chance event), between deals;
* :class:`Claiming` -- a weak seat chooses to ask for a redeal or keep its hand (deal.weak-redeal, reading claimed
  of ambiguity weak-hand);
* :class:`Bidding` -- the four individual bids, in turn (bid.turn);
* :class:`Calling` -- the team auction (auction.*);
* :class:`Naming` -- the contract holder names trump (trump.source);
* :class:`Playing` -- the thirteen tricks;
* :class:`Over` -- the match is decided.

Every phase holds the :class:`Table` (what carries from deal to deal: dealer, scores, target, games won); the
phases of a deal hold its :class:`Deal`. States are immutable: :func:`tarneeb.core.transition.step` makes a new one
from an old one and an action, with the :class:`Event` s the action caused, each naming its clause.

States and events are built with :func:`state_class`. Seats are 0..3 and teams 0/1 here, as in the engine's
data; every text a person reads counts players 1..4.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeVar, dataclass_transform

from tarneeb.core.actions import Bid

C = TypeVar("C")


@dataclass_transform(frozen_default=True)
def state_class(cls: type[C]) -> type[C]:
    """A state or an event: immutable, as the type checker holds every caller to (``mypy --strict`` refuses an
    assignment to a field), and at run time a plain slotted dataclass, whose construction costs a fifth of a frozen
    one's on the engine's hot path (a state per card played)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)

Contract = tuple[int, int, int | None]  # (holder's seat, tricks, strain or None)
Hands = tuple[int, int, int, int]  # a 52-bit card mask per seat


class Phase(Enum):
    """The phase a state is in; the passing phases (trump reveal, redeal, scoring, outcome) happen inside a step."""

    DEAL = "deal"
    WEAK_CLAIM = "weak-claim"
    TRUMP_REVEAL = "trump-reveal"
    BIDDING = "bidding"
    REDEAL = "redeal"
    TRUMP_CHOICE = "trump-choice"
    PLAY = "play"
    HAND_SCORING = "hand-scoring"
    MATCH_OUTCOME = "match-outcome"
    OVER = "over"


@state_class
class Table:
    """What carries from one deal to the next."""

    dealer: int  # the seat dealing the deal in progress, or the next one
    scores: tuple[int, int, int, int]  # by seat; in the auction family partners carry the team score
    target: int  # the target in force (win.play-on)
    games: tuple[int, ...]  # the teams that won the games ended before play-on, in order
    deals: int = 0  # deals ended so far, played or cancelled: the number of the deal in progress
    played: int = 0  # hands played to the end
    redeals: int = 0  # deals cancelled


@state_class
class Deal:
    """A deal in progress, as far as the rules need it before the play: the hands dealt, the card the dealer shows
    and the trump it decides (trump.source). What was said on the way (claims, calls) is in the events."""

    hands: Hands
    revealed: int | None  # the dealer's card when the ruleset shows one (trump.source), else None
    trump: int  # 0..3 when the deal decides it (a fixed suit or the dealer's card), -1 when the contract will


@state_class
class Dealing:
    """Waiting for the deck of the next deal (a chance node)."""

    table: Table

    phase = Phase.DEAL
    to_move = -1


@state_class
class Claiming:
    """A weak seat asks for a redeal or keeps its hand; ``claimers`` are the weak seats still to choose, in turn."""

    table: Table
    deal: Deal
    claimers: tuple[int, ...]

    phase = Phase.WEAK_CLAIM

    @property
    def to_move(self) -> int:
        return self.claimers[0]


@state_class
class Bidding:
    """The individual bids: ``bids`` by seat (0 for a seat yet to bid), ``spoken`` of them made."""

    table: Table
    deal: Deal
    to_move: int
    bids: tuple[int, int, int, int]
    spoken: int

    phase = Phase.BIDDING


@state_class
class Calling:
    """The team auction: the top bid and its holder, the calls so far, the seats still in (auction.*)."""

    table: Table
    deal: Deal
    to_move: int
    top: Bid | None  # the top bid so far
    holder: int  # its seat, -1 before the first bid
    passes: int
    spoken: int
    active: tuple[bool, bool, bool, bool]  # the seats still in (a continuous auction's pass is final)

    phase = Phase.BIDDING


@state_class
class Naming:
    """The contract holder names trump (trump.source)."""

    table: Table
    deal: Deal
    contract: Contract

    phase = Phase.TRUMP_CHOICE

    @property
    def to_move(self) -> int:
        return self.contract[0]


@state_class
class Contracted:
    """What the play of a deal starts from: trump and the individual bids or the contract."""

    table: Table
    trump: int  # 0..3, or 4 for no trump (an Egyptian contract)
    bids: tuple[int, int, int, int]  # the individual bids by seat; (0, 0, 0, 0) in the auction family
    contract: Contract | None  # None in the individual family


@state_class
class Trick:
    """A completed trick: its leader, its four cards in play order, the seat that won it."""

    leader: int
    cards: tuple[int, int, int, int]
    winner: int


@state_class
class Playing:
    """The play: the hands as they are now, the trick in progress, the tricks won by seat (their sum is the
    number of tricks completed). The tricks themselves are in the events."""

    start: Contracted
    hands: Hands
    to_move: int
    leader: int  # the seat that led (or leads) the trick in progress
    trick: tuple[int, ...]  # its cards so far, in play order
    won: tuple[int, int, int, int]  # tricks won by seat

    phase = Phase.PLAY

    @property
    def table(self) -> Table:
        return self.start.table

    @property
    def led(self) -> int:
        """The suit led in the trick in progress, -1 before its first card."""
        return self.trick[0] // 13 if self.trick else -1


@state_class
class Over:
    """The match is decided: ``winner`` (team 0/1) by clause ``rule``."""

    table: Table
    winner: int
    rule: str

    phase = Phase.OVER
    to_move = -1


State = Dealing | Claiming | Bidding | Calling | Naming | Playing | Over


# ---------------------------------------------------------------------- events
@state_class
class Dealt:
    """The deck was dealt by ``dealer`` (deal.order): deal number ``number``."""

    number: int
    dealer: int
    deck: tuple[int, ...]
    hands: Hands

    clause = "deal.order"


@state_class
class Claimed:
    """A weak seat asked for a redeal or kept its hand (deal.weak-redeal)."""

    seat: int
    ask: bool

    clause = "deal.weak-redeal"


@state_class
class BiddingOpened:
    """The bidding opened: the card the dealer showed (None: none is shown) and trump (-1: the contract names it)."""

    revealed: int | None
    trump: int
    to_move: int

    clause = "trump.source"


@state_class
class Called:
    """A bid (an individual bid, or an auction call; ``bid.n`` None: a pass) by ``seat``."""

    seat: int
    bid: Bid

    clause = "bid.turn"


@state_class
class ContractMade:
    """The auction ended with a contract (auction.order)."""

    contract: Contract

    clause = "auction.order"


@state_class
class TrumpNamed:
    """Trump is known after the auction: named by the holder, or an Egyptian contract's strain (trump.source)."""

    trump: int

    clause = "trump.source"


@state_class
class Cancelled:
    """The deal was cancelled by ``clause`` (bid.total, auction.all-pass, deal.weak-redeal); ``why`` in words."""

    clause: str
    why: str


@state_class
class PlayStarted:
    """The play began: ``leader`` leads the first trick (play.lead)."""

    leader: int

    clause = "play.lead"


@state_class
class Played:
    """``seat`` played ``card`` (play.follow)."""

    seat: int
    card: int

    clause = "play.follow"


@state_class
class TrickTaken:
    """A trick was completed and won (play.winner); its winner leads the next one (play.next-lead)."""

    trick: Trick

    clause = "play.winner"


@state_class
class Scored:
    """A played hand was scored: tricks won and score changes by seat, the scores after it (score.*)."""

    tricks_won: tuple[int, int, int, int]
    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]

    clause = "score.values"


@state_class
class Decided:
    """The outcome of a played hand: the winning team (None: nobody yet) and the deciding clause."""

    winner: int | None
    clause: str


@state_class
class GameWon:
    """A game was won before play-on: the target rises (win.play-on)."""

    team: int
    target: int

    clause = "win.play-on"


@state_class
class MatchWon:
    """The match is over: ``team`` won it by ``clause``."""

    team: int
    clause: str


@state_class
class Violation:
    """An illegal action taken as made (``force``: a verifier going on from what a record claims): ``seat``'s
    ``action`` breaks ``clause`` (``why`` in words). It comes first among the events of its step."""

    seat: int
    action: str
    clause: str
    why: str


@state_class
class NextDealer:
    """Who deals the next deal, and by which clause (deal.rotation, redeal.dealer, ...)."""

    dealer: int
    clause: str


Event = (Dealt | Claimed | BiddingOpened | Called | ContractMade | TrumpNamed | Cancelled | PlayStarted | Played
         | TrickTaken | Scored | Decided | GameWon | MatchWon | NextDealer | Violation)


__all__ = [
    "BiddingOpened", "Bidding", "Called", "Calling", "Cancelled", "Claimed", "Claiming", "Contract", "ContractMade",
    "Contracted", "Deal", "Dealing", "Dealt", "Decided", "Event", "GameWon", "Hands", "MatchWon", "Naming",
    "NextDealer", "Over", "Phase", "PlayStarted", "Played", "Playing", "Scored", "State", "Table", "Trick",
    "TrickTaken", "TrumpNamed", "Violation",
]
