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

States and events are all written alike (see the note after the imports). Seats are 0..3 and teams 0/1 here, as in
the engine's data; every text a person reads counts players 1..4.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from tarneeb.core.actions import Bid

# Every state and event is written the same way, so that mypyc compiles it into a native class (tarneeb/compiled.py):
#
# * ``@dataclass(init=False, unsafe_hash=True)``: equality, hashing, ``repr`` and ``dataclasses.replace`` as any
#   dataclass, but the ``__init__`` below it, written out, is compiled (a generated one would run interpreted: a
#   state is built per card played);
# * ``Final`` fields: immutable, as the type checker holds every caller to (``mypy --strict`` refuses an assignment
#   to a field outside ``__init__``);
# * what is the same for every instance of a class (its phase, its clause) is a property, never a class attribute
#   (mypyc would make one a field);
# * ``__reduce__`` rebuilds it from its fields, for pickle and copy (a native class with a written ``__init__`` has
#   no other way).

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


# the phases of the states, as the states' phase properties return them (``Phase.PLAY`` is a look-up through the
# enum's class each time it is read, several times the cost of a module constant's)
_DEAL: Final = Phase.DEAL
_WEAK_CLAIM: Final = Phase.WEAK_CLAIM
_BIDDING: Final = Phase.BIDDING
_TRUMP_CHOICE: Final = Phase.TRUMP_CHOICE
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER


@dataclass(init=False, unsafe_hash=True)
class Table:
    """What carries from one deal to the next."""

    dealer: Final[int]  # the seat dealing the deal in progress, or the next one
    scores: Final[tuple[int, int, int, int]]  # by seat; in the auction family partners carry the team score
    target: Final[int]  # the target in force (win.play-on)
    games: Final[tuple[int, ...]]  # the teams that won the games ended before play-on, in order
    deals: Final[int]  # deals ended so far, played or cancelled: the number of the deal in progress
    played: Final[int]  # hands played to the end
    redeals: Final[int]  # deals cancelled

    def __init__(self, dealer: int, scores: tuple[int, int, int, int], target: int, games: tuple[int, ...],
                 deals: int = 0, played: int = 0, redeals: int = 0) -> None:
        self.dealer = dealer
        self.scores = scores
        self.target = target
        self.games = games
        self.deals = deals
        self.played = played
        self.redeals = redeals

    def __reduce__(self) -> tuple[Any, ...]:
        return Table, (self.dealer, self.scores, self.target, self.games, self.deals, self.played, self.redeals)


@dataclass(init=False, unsafe_hash=True)
class Deal:
    """A deal in progress, as far as the rules need it before the play: the hands dealt, the card the dealer shows
    and the trump it decides (trump.source). What was said on the way (claims, calls) is in the events."""

    hands: Final[Hands]
    revealed: Final[int | None]  # the dealer's card when the ruleset shows one (trump.source), else None
    trump: Final[int]  # 0..3 when the deal decides it (a fixed suit or the dealer's card), -1 when the contract will

    def __init__(self, hands: Hands, revealed: int | None, trump: int) -> None:
        self.hands = hands
        self.revealed = revealed
        self.trump = trump

    def __reduce__(self) -> tuple[Any, ...]:
        return Deal, (self.hands, self.revealed, self.trump)


@dataclass(init=False, unsafe_hash=True)
class Dealing:
    """Waiting for the deck of the next deal (a chance node)."""

    table: Final[Table]

    def __init__(self, table: Table) -> None:
        self.table = table

    def __reduce__(self) -> tuple[Any, ...]:
        return Dealing, (self.table,)

    @property
    def phase(self) -> Phase:
        return _DEAL

    @property
    def to_move(self) -> int:
        return -1


@dataclass(init=False, unsafe_hash=True)
class Claiming:
    """A weak seat asks for a redeal or keeps its hand; ``claimers`` are the weak seats still to choose, in turn."""

    table: Final[Table]
    deal: Final[Deal]
    claimers: Final[tuple[int, ...]]

    def __init__(self, table: Table, deal: Deal, claimers: tuple[int, ...]) -> None:
        self.table = table
        self.deal = deal
        self.claimers = claimers

    def __reduce__(self) -> tuple[Any, ...]:
        return Claiming, (self.table, self.deal, self.claimers)

    @property
    def phase(self) -> Phase:
        return _WEAK_CLAIM

    @property
    def to_move(self) -> int:
        return self.claimers[0]


@dataclass(init=False, unsafe_hash=True)
class Bidding:
    """The individual bids: ``bids`` by seat (0 for a seat yet to bid), ``spoken`` of them made."""

    table: Final[Table]
    deal: Final[Deal]
    to_move: Final[int]
    bids: Final[tuple[int, int, int, int]]
    spoken: Final[int]

    def __init__(self, table: Table, deal: Deal, to_move: int, bids: tuple[int, int, int, int], spoken: int) -> None:
        self.table = table
        self.deal = deal
        self.to_move = to_move
        self.bids = bids
        self.spoken = spoken

    def __reduce__(self) -> tuple[Any, ...]:
        return Bidding, (self.table, self.deal, self.to_move, self.bids, self.spoken)

    @property
    def phase(self) -> Phase:
        return _BIDDING


@dataclass(init=False, unsafe_hash=True)
class Calling:
    """The team auction: the top bid and its holder, the calls so far, the seats still in (auction.*)."""

    table: Final[Table]
    deal: Final[Deal]
    to_move: Final[int]
    top: Final[Bid | None]  # the top bid so far
    holder: Final[int]  # its seat, -1 before the first bid
    passes: Final[int]
    spoken: Final[int]
    active: Final[tuple[bool, bool, bool, bool]]  # the seats still in (a continuous auction's pass is final)

    def __init__(self, table: Table, deal: Deal, to_move: int, top: Bid | None, holder: int, passes: int, spoken: int,
                 active: tuple[bool, bool, bool, bool]) -> None:
        self.table = table
        self.deal = deal
        self.to_move = to_move
        self.top = top
        self.holder = holder
        self.passes = passes
        self.spoken = spoken
        self.active = active

    def __reduce__(self) -> tuple[Any, ...]:
        return Calling, (self.table, self.deal, self.to_move, self.top, self.holder, self.passes, self.spoken, self.active)

    @property
    def phase(self) -> Phase:
        return _BIDDING


@dataclass(init=False, unsafe_hash=True)
class Naming:
    """The contract holder names trump (trump.source)."""

    table: Final[Table]
    deal: Final[Deal]
    contract: Final[Contract]

    def __init__(self, table: Table, deal: Deal, contract: Contract) -> None:
        self.table = table
        self.deal = deal
        self.contract = contract

    def __reduce__(self) -> tuple[Any, ...]:
        return Naming, (self.table, self.deal, self.contract)

    @property
    def phase(self) -> Phase:
        return _TRUMP_CHOICE

    @property
    def to_move(self) -> int:
        return self.contract[0]


@dataclass(init=False, unsafe_hash=True)
class Contracted:
    """What the play of a deal starts from: trump and the individual bids or the contract."""

    table: Final[Table]
    trump: Final[int]  # 0..3, or 4 for no trump (an Egyptian contract)
    bids: Final[tuple[int, int, int, int]]  # the individual bids by seat; (0, 0, 0, 0) in the auction family
    contract: Final[Contract | None]  # None in the individual family

    def __init__(self, table: Table, trump: int, bids: tuple[int, int, int, int], contract: Contract | None) -> None:
        self.table = table
        self.trump = trump
        self.bids = bids
        self.contract = contract

    def __reduce__(self) -> tuple[Any, ...]:
        return Contracted, (self.table, self.trump, self.bids, self.contract)


@dataclass(init=False, unsafe_hash=True)
class Trick:
    """A completed trick: its leader, its four cards in play order, the seat that won it."""

    leader: Final[int]
    cards: Final[tuple[int, int, int, int]]
    winner: Final[int]

    def __init__(self, leader: int, cards: tuple[int, int, int, int], winner: int) -> None:
        self.leader = leader
        self.cards = cards
        self.winner = winner

    def __reduce__(self) -> tuple[Any, ...]:
        return Trick, (self.leader, self.cards, self.winner)


@dataclass(init=False, unsafe_hash=True)
class Playing:
    """The play: the hands as they are now, the trick in progress, the tricks won by seat (their sum is the
    number of tricks completed). The tricks themselves are in the events."""

    start: Final[Contracted]
    hands: Final[Hands]
    to_move: Final[int]
    leader: Final[int]  # the seat that led (or leads) the trick in progress
    trick: Final[tuple[int, ...]]  # its cards so far, in play order
    won: Final[tuple[int, int, int, int]]  # tricks won by seat

    def __init__(self, start: Contracted, hands: Hands, to_move: int, leader: int, trick: tuple[int, ...],
                 won: tuple[int, int, int, int]) -> None:
        self.start = start
        self.hands = hands
        self.to_move = to_move
        self.leader = leader
        self.trick = trick
        self.won = won

    def __reduce__(self) -> tuple[Any, ...]:
        return Playing, (self.start, self.hands, self.to_move, self.leader, self.trick, self.won)

    @property
    def phase(self) -> Phase:
        return _PLAY

    @property
    def table(self) -> Table:
        return self.start.table

    @property
    def led(self) -> int:
        """The suit led in the trick in progress, -1 before its first card."""
        return self.trick[0] // 13 if self.trick else -1


@dataclass(init=False, unsafe_hash=True)
class Over:
    """The match is decided: ``winner`` (team 0/1) by clause ``rule``."""

    table: Final[Table]
    winner: Final[int]
    rule: Final[str]

    def __init__(self, table: Table, winner: int, rule: str) -> None:
        self.table = table
        self.winner = winner
        self.rule = rule

    def __reduce__(self) -> tuple[Any, ...]:
        return Over, (self.table, self.winner, self.rule)

    @property
    def phase(self) -> Phase:
        return _OVER

    @property
    def to_move(self) -> int:
        return -1


State = Dealing | Claiming | Bidding | Calling | Naming | Playing | Over


# ---------------------------------------------------------------------- events
@dataclass(init=False, unsafe_hash=True)
class Dealt:
    """The deck was dealt by ``dealer`` (deal.order): deal number ``number``."""

    number: Final[int]
    dealer: Final[int]
    deck: Final[tuple[int, ...]]
    hands: Final[Hands]

    def __init__(self, number: int, dealer: int, deck: tuple[int, ...], hands: Hands) -> None:
        self.number = number
        self.dealer = dealer
        self.deck = deck
        self.hands = hands

    def __reduce__(self) -> tuple[Any, ...]:
        return Dealt, (self.number, self.dealer, self.deck, self.hands)

    @property
    def clause(self) -> str:
        return "deal.order"


@dataclass(init=False, unsafe_hash=True)
class Claimed:
    """A weak seat asked for a redeal or kept its hand (deal.weak-redeal)."""

    seat: Final[int]
    ask: Final[bool]

    def __init__(self, seat: int, ask: bool) -> None:
        self.seat = seat
        self.ask = ask

    def __reduce__(self) -> tuple[Any, ...]:
        return Claimed, (self.seat, self.ask)

    @property
    def clause(self) -> str:
        return "deal.weak-redeal"


@dataclass(init=False, unsafe_hash=True)
class BiddingOpened:
    """The bidding opened: the card the dealer showed (None: none is shown) and trump (-1: the contract names it)."""

    revealed: Final[int | None]
    trump: Final[int]
    to_move: Final[int]

    def __init__(self, revealed: int | None, trump: int, to_move: int) -> None:
        self.revealed = revealed
        self.trump = trump
        self.to_move = to_move

    def __reduce__(self) -> tuple[Any, ...]:
        return BiddingOpened, (self.revealed, self.trump, self.to_move)

    @property
    def clause(self) -> str:
        return "trump.source"


@dataclass(init=False, unsafe_hash=True)
class Called:
    """A bid (an individual bid, or an auction call; ``bid.n`` None: a pass) by ``seat``."""

    seat: Final[int]
    bid: Final[Bid]

    def __init__(self, seat: int, bid: Bid) -> None:
        self.seat = seat
        self.bid = bid

    def __reduce__(self) -> tuple[Any, ...]:
        return Called, (self.seat, self.bid)

    @property
    def clause(self) -> str:
        return "bid.turn"


@dataclass(init=False, unsafe_hash=True)
class ContractMade:
    """The auction ended with a contract (auction.order)."""

    contract: Final[Contract]

    def __init__(self, contract: Contract) -> None:
        self.contract = contract

    def __reduce__(self) -> tuple[Any, ...]:
        return ContractMade, (self.contract,)

    @property
    def clause(self) -> str:
        return "auction.order"


@dataclass(init=False, unsafe_hash=True)
class TrumpNamed:
    """Trump is known after the auction: named by the holder, or an Egyptian contract's strain (trump.source)."""

    trump: Final[int]

    def __init__(self, trump: int) -> None:
        self.trump = trump

    def __reduce__(self) -> tuple[Any, ...]:
        return TrumpNamed, (self.trump,)

    @property
    def clause(self) -> str:
        return "trump.source"


@dataclass(init=False, unsafe_hash=True)
class Cancelled:
    """The deal was cancelled by ``clause`` (bid.total, auction.all-pass, deal.weak-redeal); ``why`` in words."""

    clause: Final[str]
    why: Final[str]

    def __init__(self, clause: str, why: str) -> None:
        self.clause = clause
        self.why = why

    def __reduce__(self) -> tuple[Any, ...]:
        return Cancelled, (self.clause, self.why)


@dataclass(init=False, unsafe_hash=True)
class PlayStarted:
    """The play began: ``leader`` leads the first trick (play.lead)."""

    leader: Final[int]

    def __init__(self, leader: int) -> None:
        self.leader = leader

    def __reduce__(self) -> tuple[Any, ...]:
        return PlayStarted, (self.leader,)

    @property
    def clause(self) -> str:
        return "play.lead"


@dataclass(init=False, unsafe_hash=True)
class Played:
    """``seat`` played ``card`` (play.follow)."""

    seat: Final[int]
    card: Final[int]

    def __init__(self, seat: int, card: int) -> None:
        self.seat = seat
        self.card = card

    def __reduce__(self) -> tuple[Any, ...]:
        return Played, (self.seat, self.card)

    @property
    def clause(self) -> str:
        return "play.follow"


@dataclass(init=False, unsafe_hash=True)
class TrickTaken:
    """A trick was completed and won (play.winner); its winner leads the next one (play.next-lead)."""

    trick: Final[Trick]

    def __init__(self, trick: Trick) -> None:
        self.trick = trick

    def __reduce__(self) -> tuple[Any, ...]:
        return TrickTaken, (self.trick,)

    @property
    def clause(self) -> str:
        return "play.winner"


@dataclass(init=False, unsafe_hash=True)
class Scored:
    """A played hand was scored: tricks won and score changes by seat, the scores after it (score.*)."""

    tricks_won: Final[tuple[int, int, int, int]]
    deltas: Final[tuple[int, int, int, int]]
    scores: Final[tuple[int, int, int, int]]

    def __init__(self, tricks_won: tuple[int, int, int, int], deltas: tuple[int, int, int, int],
                 scores: tuple[int, int, int, int]) -> None:
        self.tricks_won = tricks_won
        self.deltas = deltas
        self.scores = scores

    def __reduce__(self) -> tuple[Any, ...]:
        return Scored, (self.tricks_won, self.deltas, self.scores)

    @property
    def clause(self) -> str:
        return "score.values"


@dataclass(init=False, unsafe_hash=True)
class Decided:
    """The outcome of a played hand: the winning team (None: nobody yet) and the deciding clause."""

    winner: Final[int | None]
    clause: Final[str]

    def __init__(self, winner: int | None, clause: str) -> None:
        self.winner = winner
        self.clause = clause

    def __reduce__(self) -> tuple[Any, ...]:
        return Decided, (self.winner, self.clause)


@dataclass(init=False, unsafe_hash=True)
class GameWon:
    """A game was won before play-on: the target rises (win.play-on)."""

    team: Final[int]
    target: Final[int]

    def __init__(self, team: int, target: int) -> None:
        self.team = team
        self.target = target

    def __reduce__(self) -> tuple[Any, ...]:
        return GameWon, (self.team, self.target)

    @property
    def clause(self) -> str:
        return "win.play-on"


@dataclass(init=False, unsafe_hash=True)
class MatchWon:
    """The match is over: ``team`` won it by ``clause``."""

    team: Final[int]
    clause: Final[str]

    def __init__(self, team: int, clause: str) -> None:
        self.team = team
        self.clause = clause

    def __reduce__(self) -> tuple[Any, ...]:
        return MatchWon, (self.team, self.clause)


@dataclass(init=False, unsafe_hash=True)
class Violation:
    """An illegal action taken as made (``force``: a verifier going on from what a record claims): ``seat``'s
    ``action`` breaks ``clause`` (``why`` in words). It comes first among the events of its step."""

    seat: Final[int]
    action: Final[str]
    clause: Final[str]
    why: Final[str]

    def __init__(self, seat: int, action: str, clause: str, why: str) -> None:
        self.seat = seat
        self.action = action
        self.clause = clause
        self.why = why

    def __reduce__(self) -> tuple[Any, ...]:
        return Violation, (self.seat, self.action, self.clause, self.why)


@dataclass(init=False, unsafe_hash=True)
class NextDealer:
    """Who deals the next deal, and by which clause (deal.rotation, redeal.dealer, ...)."""

    dealer: Final[int]
    clause: Final[str]

    def __init__(self, dealer: int, clause: str) -> None:
        self.dealer = dealer
        self.clause = clause

    def __reduce__(self) -> tuple[Any, ...]:
        return NextDealer, (self.dealer, self.clause)


Event = (Dealt | Claimed | BiddingOpened | Called | ContractMade | TrumpNamed | Cancelled | PlayStarted | Played
         | TrickTaken | Scored | Decided | GameWon | MatchWon | NextDealer | Violation)


__all__ = [
    "BiddingOpened", "Bidding", "Called", "Calling", "Cancelled", "Claimed", "Claiming", "Contract", "ContractMade",
    "Contracted", "Deal", "Dealing", "Dealt", "Decided", "Event", "GameWon", "Hands", "MatchWon", "Naming",
    "NextDealer", "Over", "Phase", "PlayStarted", "Played", "Playing", "Scored", "State", "Table", "Trick",
    "TrickTaken", "TrumpNamed", "Violation",
]
