"""The states the referee builds from a situation's facts, and the steps it takes them through.

Every answer of the referee about the course of a hand is read from the one transition of a match,
:func:`tarneeb.core.transition.step`: the state after the stated actions, the events of a step, or the clause of a
refusal (:attr:`tarneeb.errors.IllegalAction.rule`). Nothing here decides a rule or orders a hand's steps: the
functions below only say which actions to step, and read what the transition did.

The facts rarely give a whole state, so the referee steps a *completion* of them: a state that keeps every fact the
question turns on and fills the rest with cards and calls the transition takes -- a deck with no weak hand, bids
or calls that lead to the contract asked about, a trick's cards each held, when its seat's turn comes, by the seat
that plays it, a hand's end reached through its last trick. Where an answer could turn on what the facts leave out,
the caller steps every completion and rules only when they agree (:mod:`tarneeb.ruling.tricks`).

* :func:`opened` -- the match at the stated dealer and scores (:func:`tarneeb.core.transition.part_way`), the deal
  dealt, the bidding open;
* :func:`to_bid`, :func:`in_turn` -- individual bids stepped up to a seat's turn, or while the seat to bid has one;
  :func:`speaking_order` -- who speaks, in turn;
* :func:`start_of_play`, :func:`start` -- the play's start, reached by stepping the bidding; :func:`trumps` -- every
  trump a hand can be played in; :func:`first_leader` -- who leads the first trick;
* :func:`play_in_turn` -- a trick's cards stepped; :func:`seats_in_trick`, :func:`position` -- a seat to move in a
  trick, with a hand of its own (:func:`tarneeb.core.transition.playing_from`);
* :func:`hand_end` -- the end of a played hand (score, outcome, next dealer); :func:`dealer_after` -- who deals
  after a deal played, or cancelled.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import ASK, BIDS, EGYPTIAN, PASS, PLAYS, Bid, Deal, NameTrump
from tarneeb.core.cards import CARD_BITS, player_name, strain_name
from tarneeb.core.spec import Rules
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Calling,
    Cancelled,
    Claiming,
    Contract,
    Contracted,
    Event,
    Naming,
    NextDealer,
    Played,
    Playing,
    PlayStarted,
    State,
    TrickTaken,
)
from tarneeb.errors import IllegalAction

Opened = Bidding | Calling
Steps = tuple[State, tuple[Event, ...]]


# ------------------------------------------------------------------ the deal


def _decks(turned: int | None) -> Iterator[tuple[int, ...]]:
    """Decks to try, in turn: the pack in order (dealt a card at a time, every seat gets every rank), then seeded
    shuffles; each ends with ``turned`` when given (the 52nd card, the dealer's last)."""
    for k in range(40):
        deck = list(range(52))
        if k:
            random.Random(k).shuffle(deck)
        if turned is not None:
            deck.remove(turned)
            deck.append(turned)
        yield tuple(deck)


def opened(rules: Rules, dealer: int, scores: Sequence[int] | None = None,
           turned: int | None = None) -> tuple[Opened, BiddingOpened]:
    """The match at ``dealer`` and ``scores`` (:func:`tarneeb.core.transition.part_way`) once a deck is dealt and the
    bidding open: a deck the transition deals with no weak hand, turning ``turned`` when the ruleset shows the
    dealer's card; with the event that opened the bidding (the card shown, trump)."""
    return _open(rules, transition.part_way(rules, dealer, scores), turned)


def _open(rules: Rules, table: State, turned: int | None) -> tuple[Opened, BiddingOpened]:
    for deck in _decks(turned):
        state, events = transition.step(rules, table, Deal(deck))
        opening = events[-1]
        if (type(state) is Bidding or type(state) is Calling) and type(opening) is BiddingOpened \
                and opening.revealed in (None, turned if turned is not None else opening.revealed):
            return state, opening
    raise RuntimeError(f"no deck tried opens the bidding under {rules.label()}")


def bid_of(n: int | None) -> Bid:
    """An individual bid of ``n`` tricks (None: a pass) as an action."""
    return BIDS[n] if n is not None and 0 <= n < len(BIDS) else Bid(n)


# ------------------------------------------------------------------ the bidding


def to_bid(rules: Rules, state: State, seat: int, stated: Mapping[int, int]) -> Bidding:
    """The individual bidding stepped from ``state`` until ``seat`` is to bid: the seats before it bid as stated, or,
    where the facts give no bid, the first bid the transition offers them. Raises the refusal of a stated bid."""
    while type(state) is Bidding and state.to_move != seat:
        mover = state.to_move
        state, _ = transition.step(rules, state, bid_of(stated[mover]) if mover in stated
                                   else transition.legal_actions(rules, state)[0])
    if type(state) is not Bidding:
        raise RuntimeError(f"the bidding ended before {player_name(seat)} bid")
    return state


def in_turn(rules: Rules, state: State, stated: Mapping[int, int]) -> tuple[State, tuple[Event, ...]]:
    """The stated individual bids stepped from ``state`` while the seat to bid has one (the events of every step).
    Raises the refusal of a stated bid."""
    happened: tuple[Event, ...] = ()
    while type(state) is Bidding and state.to_move in stated:
        state, events = transition.step(rules, state, bid_of(stated[state.to_move]))
        happened += events
    return state, happened


def speaking_order(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The seats in the order they bid or call after a deal by ``dealer``: the seats of the first four calls the
    transition takes, each the first one it offers."""
    state: State = opened(rules, dealer)[0]
    seats: list[int] = []
    while len(seats) < 4 and (type(state) is Bidding or type(state) is Calling):
        seats.append(state.to_move)
        state, _ = transition.step(rules, state, transition.legal_actions(rules, state)[0])
    return tuple(seats)


def _auction_to(rules: Rules, state: State, holder: int | None, bid: Bid | None, opener: bool = False) -> Steps:
    """Step an auction to its end: ``holder`` (None: the first seat to speak) makes ``bid`` (None: the lowest call it
    may make); with ``opener``, the first seat to speak, if another, opens with the lowest call it may make; every
    other call is a pass where the transition takes one (else the lowest call). Raises a refusal."""
    happened: tuple[Event, ...] = ()
    done = False
    first = True
    while type(state) is Calling:
        legal = transition.legal_calls(rules, state)
        if not done and (holder is None or state.to_move == holder):
            call = bid if bid is not None else next(b for b in legal if b.n is not None)
            done = True
        elif opener and first:
            call = next(b for b in legal if b.n is not None)
        else:
            call = PASS if PASS in legal else legal[0]
        first = False
        state, events = transition.step(rules, state, call)
        happened += events
    return state, happened


def start_of_play(rules: Rules, dealer: int, scores: Sequence[int] | None = None, trump: int | None = None,
                  contract: Contract | None = None, any_bid: bool = False) -> Steps:
    """The play's start reached by stepping the bidding from the deal (the state once the first trick is to be led,
    with the events of every step: its ``start`` holds the table, trump and the bids or contract; PlayStarted names
    the first leader): dealt with a card that gives ``trump`` where the deal decides it (None: any trump), the
    highest individual bid each seat may make, or an auction won by the ``contract``'s holder at its bid (by the
    first seat at the lowest call, where no contract is given; by its holder at the lowest it may make, with
    ``any_bid``), trump named or bid. Raises the last refusal when no completion tried reaches it."""
    last: IllegalAction | None = None
    for turned in (None, *range(52)):
        first, opening = opened(rules, dealer, scores, turned)
        if trump is not None and opening.trump >= 0 and opening.trump != trump:
            continue
        state: State = first
        happened: tuple[Event, ...] = (opening,)
        try:
            while type(state) is Bidding:
                state, events = transition.step(rules, state, transition.legal_bids(rules, state.table.scores[state.to_move])[-1])
                happened += events
            if type(state) is Calling:
                state, happened = _to_contract(rules, state, happened, contract, trump, any_bid)
            if type(state) is Naming:
                state, events = transition.step(rules, state, NameTrump(0 if trump is None else trump))
                happened += events
        except IllegalAction as e:
            last = e
        else:
            if type(state) is Playing and (trump is None or state.start.trump == trump):
                return state, happened
        if opening.trump < 0 or opening.revealed is None:
            break  # no other card turned changes the bidding's end
    if last is not None:
        raise last
    raise RuntimeError(f"no completion of the bidding reaches a play in trump {strain_name(trump) if trump is not None else trump} "
                       f"under {rules.label()}")


def _to_contract(rules: Rules, state: Calling, happened: tuple[Event, ...], contract: Contract | None,
                 trump: int | None, any_bid: bool = False) -> tuple[State, tuple[Event, ...]]:
    """The auction stepped to ``contract`` (:func:`_auction_to`): its holder bidding alone, else after the first seat
    opened; the contract's bid names ``trump`` as its strain where bids name one (``any_bid``: the holder's lowest
    call instead). Raises the last refusal."""
    if contract is not None and any_bid:
        bid: Bid | None = None
    elif contract is not None:
        n, strain = contract[1], (trump if trump is not None else 0)
        bid = EGYPTIAN[(n, strain)] if rules.egyptian and 0 <= n < 14 and 0 <= strain < 5 else bid_of(n)
    elif rules.egyptian:
        legal = transition.legal_calls(rules, state)
        bid = next(b for b in legal if b.n is not None and (trump is None or b.strain == trump))
    else:
        bid = None
    last: IllegalAction | None = None
    for opener in (False, True):
        try:
            got, events = _auction_to(rules, state, None if contract is None else contract[0], bid, opener)
        except IllegalAction as e:
            last = e
            continue
        if type(got) is Naming or type(got) is Playing:
            return got, happened + events
    if last is not None:
        raise last
    return state, happened


def trumps(rules: Rules, dealer: int) -> tuple[int, ...]:
    """Every trump a hand can be played in under ``rules`` (4: no trump), as the transition takes them: those the
    deal gives (every card turned in turn), else those the contract holder may name, else the strains of the calls
    that may open the auction."""
    found: set[int] = set()
    table = transition.part_way(rules, dealer)
    for turned in (None, *range(52)):
        state, opening = _open(rules, table, turned)
        if opening.trump < 0:
            if type(state) is Calling:
                ended, _ = _auction_to(rules, state, None, None)
                if type(ended) is Naming:
                    found = {a.suit for a in transition.legal_actions(rules, ended) if type(a) is NameTrump}
                else:
                    found = {b.strain for b in transition.legal_calls(rules, state)
                             if b.n is not None and b.strain is not None}
            break
        found.add(opening.trump)
        if opening.revealed is None:
            break  # the deal decides trump whatever card is turned
    return tuple(sorted(found))


def start(rules: Rules, dealer: int, trump: int) -> Contracted:
    """A start of the play in ``trump`` after a deal by ``dealer`` (:func:`start_of_play`)."""
    state = start_of_play(rules, dealer, None, trump)[0]
    if type(state) is not Playing:
        raise RuntimeError("a start of the play that is not the play")
    return state.start


def first_leader(rules: Rules, dealer: int, contract: Contract | None) -> int:
    """Who leads the first trick of a deal by ``dealer`` (the holder of ``contract`` in the auction family): the
    leader the transition names when the play starts (PlayStarted). Where the auction cannot reach the contract's
    bid, the holder's lowest call stands for it (the lead is asked, not the bid)."""
    try:
        _, events = start_of_play(rules, dealer, None, None if contract is None else contract[2], contract)
    except IllegalAction:
        if contract is None:
            raise
        _, events = start_of_play(rules, dealer, None, None, contract, any_bid=True)
    return next(e.leader for e in events if type(e) is PlayStarted)


# ------------------------------------------------------------------ the play


def play_in_turn(rules: Rules, start: Contracted, leader: int, cards: Sequence[int],
                 won: Sequence[int] = (3, 3, 3, 2)) -> Steps:
    """Step the ``cards`` of a trick led by ``leader``, in play order, from the play part-way
    (:func:`tarneeb.core.transition.playing_from`) after the tricks ``won`` (by default 11: the trick before the last,
    so that the state after names who leads next). When its turn comes (the transition's seat to move) a seat holds
    the card it plays and, to make up its hand, other cards of that card's suit, so that the card is one it may play
    whatever was led; before, it holds cards of no account. The state after, and the events (Played names each
    card's seat; TrickTaken the winner)."""
    left = 13 - sum(won)
    used = set(cards)
    fill: list[list[int]] = []
    for card in cards:  # the cards of the card's suit each seat holds with it, when its turn comes
        same = [c for c in range(13 * (card // 13), 13 * (card // 13) + 13) if c not in used][:left - 1]
        used.update(same)
        fill.append(same)
    spare = iter(c for c in range(52) if c not in used)
    hands = [sum(CARD_BITS[next(spare)] for _ in range(left)) for _ in range(4)]
    state: State = transition.playing_from(rules, start, hands, leader, (), won)
    happened: tuple[Event, ...] = ()
    for card, same in zip(cards, fill, strict=True):
        if type(state) is not Playing:
            break
        held = list(state.hands)
        held[state.to_move] = CARD_BITS[card] | sum(CARD_BITS[c] for c in same)
        state = transition.playing_from(rules, start, held, state.leader, state.trick, state.won)
        state, events = transition.step(rules, state, PLAYS[card])
        happened += events
    return state, happened


def seats_in_trick(rules: Rules, start: Contracted, leader: int, cards: Sequence[int]) -> tuple[int, frozenset[int]]:
    """(the seat to move after ``cards`` of a trick led by ``leader``, the seats that played them), as the transition
    steps them (:func:`play_in_turn`)."""
    probe, events = play_in_turn(rules, start, leader, cards)
    if type(probe) is not Playing or len(cards) > 3:
        raise RuntimeError("a trick of four cards has no seat to move")
    return probe.to_move, frozenset(e.seat for e in events if type(e) is Played)


def position(rules: Rules, start: Contracted, leader: int, cards: Sequence[int], hand: int,
             seats: tuple[int, frozenset[int]]) -> Playing:
    """The play part-way with the trick led by ``leader`` holding ``cards``, the seat to move holding ``hand``
    (``seats``: the seat to move and those that played, from :func:`seats_in_trick`): as late in the hand as that
    hand allows (13 cards less its size of tricks won, by the leader), each other seat holding other cards, none of
    ``hand`` nor of the trick."""
    mover, played = seats
    size = hand.bit_count()
    taken = hand | sum(CARD_BITS[c] for c in cards)
    pool = iter(c for c in range(52) if not taken >> c & 1)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        if seat == mover:
            hands[seat] = hand
            continue
        for _ in range(size - (seat in played)):
            hands[seat] |= CARD_BITS[next(pool)]
    won = [0, 0, 0, 0]
    won[leader] = 13 - size
    return transition.playing_from(rules, start, hands, leader, tuple(cards), won)


def hand_end(rules: Rules, start: Contracted, tricks: Sequence[int]) -> tuple[Event, ...]:
    """The events of the end of a played hand whose seats won ``tricks`` (13 in all): its last trick stepped
    (:func:`play_in_turn`), led and won by a seat that won a trick -- its ace of a suit, the three others that suit's
    lowest cards, until the transition gives it the trick -- after the other twelve (scoring, outcome, next deal)."""
    for winner in range(4):
        if tricks[winner] <= 0:
            continue
        won = list(tricks)
        won[winner] -= 1
        for suit in range(4):
            cards = [13 * suit + 12, 13 * suit, 13 * suit + 1, 13 * suit + 2]
            _, events = play_in_turn(rules, start, winner, cards, won)
            taken = next(e for e in events if type(e) is TrickTaken)
            if taken.trick.winner == winner:
                return events
    raise RuntimeError(f"no last trick tried is won by a player who won a trick of tricks won {list(tricks)} "
                       "(players 1 to 4)")


# ------------------------------------------------------------------ the next deal


def dealer_after(rules: Rules, dealer: int, played: bool) -> list[NextDealer]:
    """Who deals after a deal by ``dealer`` (NextDealer: the seat and the clause), by every completion of it the
    referee steps: played to its end, or cancelled -- its bidding thrown in (every seat's lowest bid, or passes), or a
    deck with a weak hand asked to be redealt. One for each way the transition takes."""
    out: list[NextDealer] = []
    if played:
        state, _ = start_of_play(rules, dealer)
        if type(state) is Playing:
            for split in ((4, 3, 3, 3), (3, 4, 3, 3), (3, 3, 4, 3), (3, 3, 3, 4)):
                out += [e for e in hand_end(rules, state.start, split) if type(e) is NextDealer]
                if out:
                    break
        return out
    state, _ = opened(rules, dealer)
    try:
        while type(state) is Bidding or type(state) is Calling:
            legal = transition.legal_actions(rules, state)
            state, events = transition.step(rules, state, PASS if PASS in legal else legal[0])
    except IllegalAction:
        events = ()
    out += [e for e in events if type(e) is NextDealer and any(type(x) is Cancelled for x in events)]
    weak = _weak_deal(rules, dealer)
    if weak is not None:
        out.append(weak)
    return out


def _weak_deal(rules: Rules, dealer: int) -> NextDealer | None:
    """The next dealer after a deal thrown in for a weak hand -- a deck (:func:`tarneeb.core.rules.deck_of_hands`)
    dealing one seat the 13 lowest cards, its holder asking for a redeal where it is asked -- or None where the
    transition throws in no such deal."""
    low = sorted(range(52), key=lambda c: (c % 13, c // 13))  # twos first, aces last
    table = transition.part_way(rules, dealer)
    for seat in range(4):
        others = iter(low[13:])
        by_seat = [low[:13] if s == seat else [next(others) for _ in range(13)] for s in range(4)]
        deck = tuple(core_rules.deck_of_hands(rules, dealer, by_seat))
        state, events = transition.step(rules, table, Deal(deck))
        while type(state) is Claiming:
            state, more = transition.step(rules, state, ASK)
            events += more
        for e in events:
            if type(e) is NextDealer:
                return e
    return None


__all__ = ["bid_of", "dealer_after", "first_leader", "hand_end", "in_turn", "opened", "play_in_turn",
           "position", "seats_in_trick", "speaking_order", "start", "start_of_play", "to_bid", "trumps"]
