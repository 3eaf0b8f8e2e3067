"""The one transition of a match: ``step(rules, state, action)`` gives the next state and what happened.

Every consumer drives this: :class:`~tarneeb.core.match.Match` owns a state and steps it, the record verifier
replays a record through it, the referee builds a state and steps it. Nothing else sequences a hand.

A step runs the phase the state is in (one function per phase, ``_deal`` .. ``_play``) and the phases that pass
on the way (the trump reveal, a redeal, the scoring, the outcome), each a call of :mod:`tarneeb.core.hand` (the
steps of a hand) or :mod:`tarneeb.core.rules` (the single rule decisions). An illegal action raises an
:class:`~tarneeb.errors.IllegalAction` naming the action, the seat, the deciding clause and the state, and
changes nothing (states are immutable).

* :func:`start`, :func:`part_way` -- the state before a match's first deal, or part-way (scores, target, games);
* :func:`playing_from` -- the play part-way, from facts (the hands now, the trick in progress, the tricks won);
* :func:`step` -- the transition; for a verifier, :func:`deal` -- its deal from a deck given as any sequence,
  :func:`play_trick` -- four of its plays at once (runs of bids and of tricks at once: :mod:`tarneeb.core.runs`);
* :func:`start_play`, :func:`end_hand`, :func:`settle_match`, :func:`cancel` -- the start of the play, the end of a
  hand, a hand's outcome applied to the match and a cancelled deal, from a state a verifier builds from a record's
  claims (``step(..., force=True)`` takes an illegal action as made);
* :func:`open_unseen`, :func:`tricks_taken` -- a hand whose cards nobody wrote down (a score sheet): its bidding
  opened without a deal, its play ended from the tricks each took;
* :func:`legal_actions`, :func:`legal_play_mask` -- what the player to move may do;
* :func:`timeout_action` -- what a turn timer plays (timer.auto-bid, timer.auto-play);
* :func:`describe` -- the state in one line, as the errors quote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import ASK, BIDS, EGYPTIAN, KEEP, PASS, PLAYS, Action, Bid, Deal, NameTrump, Play, Redeal
from tarneeb.core.cards import (
    CARD_BITS,
    CARDS_OF_SUIT,
    FULL_DECK,
    SUIT_MASKS,
    card_str,
    cards_of,
    hand_str,
    player_and_seat,
    strain_name,
)
from tarneeb.core.spec import Rules
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Called,
    Calling,
    Cancelled,
    Claimed,
    Claiming,
    Contract,
    Contracted,
    ContractMade,
    Dealing,
    Dealt,
    Decided,
    Event,
    GameWon,
    Hands,
    MatchWon,
    Naming,
    NextDealer,
    Over,
    Phase,
    Played,
    Playing,
    PlayStarted,
    Scored,
    State,
    Table,
    Trick,
    TrickTaken,
    TrumpNamed,
    Violation,
)
from tarneeb.core.state import (
    Deal as DealState,
)
from tarneeb.errors import IllegalAction, IllegalBid, IllegalDeal, IllegalPlay, IllegalTrump, WrongPhase

Step = tuple[State, tuple[Event, ...]]

_PLAYS_OF_SUIT: Final[tuple[tuple[tuple[Play, ...], ...], ...]] = tuple(
    tuple(tuple(PLAYS[c] for c in cards) for cards in CARDS_OF_SUIT[s]) for s in range(4)
)
# the Play actions of a 13-bit suit mask, per suit (Final: a compiled function reads them without a look-up)
_P0: Final = _PLAYS_OF_SUIT[0]
_P1: Final = _PLAYS_OF_SUIT[1]
_P2: Final = _PLAYS_OF_SUIT[2]
_P3: Final = _PLAYS_OF_SUIT[3]
_OTHER_SUITS: Final = tuple(FULL_DECK ^ m for m in SUIT_MASKS)  # the cards not of suit s
_SHIFT: Final = (0, 13, 26, 39)
_NAME_TRUMP = tuple(NameTrump(s) for s in range(4))  # the contract holder's choices (trump.source)
_CLAIMS = (ASK, KEEP)  # a weak seat's choices (deal.weak-redeal, reading claimed of ambiguity weak-hand)
_NO_BIDS = (0, 0, 0, 0)
_ALL_IN = (True, True, True, True)
_WANT = {Phase.DEAL: "a deal", Phase.BIDDING: "a bid", Phase.PLAY: "a card", Phase.TRUMP_CHOICE: "a trump suit",
         Phase.WEAK_CLAIM: "redeal:ask or redeal:keep", Phase.OVER: "nothing: the match is over"}


# ---------------------------------------------------------------------- starts
def start(rules: Rules, first_dealer: int = 0, scores: Sequence[int] | None = None) -> Dealing:
    """The state before the first deal of a match dealt first by ``first_dealer`` (a chance outcome,
    deal.first-dealer); ``scores`` starts it part-way (seats 0..3; partners carry the team score in the auction
    family), and then any seat may deal first."""
    if first_dealer not in (core_rules.first_dealers(rules) if scores is None else range(4)):  # a start, or part-way
        why = "the first dealer must be a seat 0..3" if first_dealer not in range(4) else \
            "under reading seat0 of ambiguity first-dealer seat 0 deals the first hand"
        raise IllegalDeal(f"first dealer {first_dealer}", None, "deal.first-dealer", why, "new match")
    at = [0, 0, 0, 0] if scores is None else [x if type(x) is int else int(x) for x in scores]  # numbers as ints
    if len(at) != 4 or (not rules.individual and (at[0] != at[2] or at[1] != at[3])):
        raise IllegalDeal(f"start scores {list(scores or [])}", None, "seats.partners",
                          "four seat scores are needed, and partners share a team score in this ruleset",
                          "new match")
    return Dealing(Table(first_dealer, (at[0], at[1], at[2], at[3]), rules.target, ()))


def part_way(rules: Rules, dealer: int, scores: Sequence[int] | None = None, target: int | None = None,
             games: Sequence[int] | None = None, *, partners_agree: bool = True) -> Dealing:
    """A match part-way, waiting for the deal of a hand by ``dealer`` (as OpenSpiel's games rebuild a state).

    ``scores`` by seat (auction family: partners carry the team score); ``target`` the target in force
    (win.play-on), ``games`` the winners of the games already won before play-on (inferred from ``target`` when
    omitted). Everything is checked: a seat 0..3, four integer scores, partners equal in the auction family
    (``partners_agree=False`` lets a verifier go on from a record's inconsistent claim), a target the ruleset can
    have in force, team numbers 0 or 1.
    """
    given = [0, 0, 0, 0] if scores is None else list(scores)
    if not all(type(x) is int for x in given):
        raise IllegalDeal(f"start scores {given}", None, "seats.partners", "seat scores are integers",
                          "match part-way")
    if partners_agree or len(given) != 4:
        start(rules, dealer, given)  # the checks of a start: a seat, four scores, partners equal in a team game
    else:
        start(rules, dealer, [0, 0, 0, 0])  # part-way: any dealer may be waited for
    if games is None:
        want = core_rules.target_in_force(rules, 0) if target is None else target
        k = 0
        # the games it takes to reach that target: 1 at most, or any number under reading repeated
        most = 2 if rules.play_on_count == "once" else max(2, (want - rules.target) // max(1, rules.play_on_raise) + 1)
        while core_rules.target_in_force(rules, k) != want:
            k += 1
            if k > most:
                raise IllegalDeal(f"target {want}", None, "win.play-on",
                                  f"the targets in force under this ruleset are {rules.target}"
                                  + (f" and {rules.target + rules.play_on_raise}" if rules.play_on_raise else "")
                                  + (" and so on, one raise per game won" if rules.play_on_count == "repeated"
                                     and rules.play_on_raise else ""),
                                  "match part-way")
        games = [0] * k  # the teams that won earlier games are not known; only their number matters
    if any(g not in (0, 1) for g in games):
        raise IllegalDeal(f"games {list(games)}", None, "win.play-on", "a game is won by team 0 or 1",
                          "match part-way")
    in_force = core_rules.target_in_force(rules, len(games))
    if target is not None and target != in_force:
        raise IllegalDeal(f"target {target}", None, "win.play-on",
                          f"after {len(games)} game(s) the target in force is {in_force}", "match part-way")
    s0, s1, s2, s3 = given
    return Dealing(Table(dealer, (s0, s1, s2, s3), in_force, tuple(games)))


# ---------------------------------------------------------------------- the transition
def step(rules: Rules, state: State, action: Action, *, force: bool = False) -> Step:
    """The state after ``action`` and the events it caused; raises an :class:`~tarneeb.errors.IllegalAction`
    (the state is unchanged) when the action is not legal in ``state``.

    ``force``, for a verifier going on from what a record claims: an illegal bid, auction call or card, or no trump
    named (a strain of 4) by the contract holder, is taken as made all the same, and the step's events start with a
    :class:`~tarneeb.core.state.Violation` naming the clause it breaks (a pass is counted as a bid of nothing, a
    card leaves its seat's hand if it was there). A legal action gives exactly what it gives without ``force``; an
    action of the wrong phase, a bad deck, a card that is no card of the pack, or a strain that is none still
    raise."""
    kind = type(action)
    if kind is Play and type(state) is Playing:
        return _play(rules, state, action.card, force)  # type: ignore[union-attr]
    if kind is Bid and type(state) is Bidding:
        return _bid(rules, state, action, force)  # type: ignore[arg-type]
    if kind is Bid and type(state) is Calling:
        return _call(rules, state, action, force)  # type: ignore[arg-type]
    if kind is Deal and type(state) is Dealing:
        return _deal(rules, state, action.deck)  # type: ignore[union-attr]
    if kind is NameTrump and type(state) is Naming:
        return _name_trump(rules, state, action, force)  # type: ignore[arg-type]
    if kind is Redeal and type(state) is Claiming:
        return _claim(rules, state, action.ask)  # type: ignore[union-attr]
    raise _wrong_phase(state, action)


def _wrong_phase(state: State, action: Action | str) -> IllegalAction:
    """The refusal of ``action`` (an action, or what a caller names it) in a phase that does not take it."""
    ph = state.phase
    # once the match is over the clause that decided it answers every action; before, the phase's own
    rule = (state.rule if type(state) is Over else "deal.weak-redeal" if ph is Phase.WEAK_CLAIM else "hand.tricks")
    to_move = state.to_move
    return refuse(WrongPhase, action, to_move if to_move >= 0 else None, rule,
                  f"the {ph.value} phase expects {_WANT.get(ph, ph.value)}", state)


def _deal(rules: Rules, state: Dealing, deck: Sequence[int]) -> Step:
    """The deck is dealt (deal.order), refused unless it deals the whole pack (deal.deck); then :func:`_dealt`."""
    table = state.table
    try:
        hands = core_rules.deal_hands(rules, table.dealer, deck) if len(deck) == 52 else None
    except (TypeError, ValueError):
        hands = None
    if hands is None or hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:  # 52 cards covering the pack
        raise refuse(IllegalDeal, f"deal of {len(deck)} cards", None, "deal.deck",
                     "a deal must order all 52 distinct cards 0..51", state)
    return _dealt(rules, table, tuple(deck), (hands[0], hands[1], hands[2], hands[3]))


def deal(rules: Rules, state: State, deck: Sequence[int]) -> Step:
    """``step(rules, state, Deal(tuple(deck)))`` for a deck given as any sequence of card numbers (the bytes a
    verifier decodes, say), without building the action: the same state and events, or the same error."""
    if type(state) is not Dealing:
        return step(rules, state, Deal(tuple(deck)))
    return _deal(rules, state, deck)


def _dealt(rules: Rules, table: Table, deck: tuple[int, ...], hands: Hands) -> Step:
    """What a deck dealt into ``hands`` makes happen: the dealer's card and trump (trump.source); a weak hand's
    redeal, or its holder's choice (deal.weak-redeal); else the bidding opens."""
    revealed, trump = core_hand.deal_trump(rules, deck)
    deal = DealState(hands, revealed, trump)
    events: tuple[Event, ...] = (Dealt(table.deals, table.dealer, deck, hands),)
    weak = core_hand.weak_seats(rules, hands)
    if weak:
        claimers = core_hand.weak_claimers(rules, table.dealer, hands)
        if not claimers:  # the redeal is automatic
            return _cancel(rules, table, events, "deal.weak-redeal", f"seat(s) {weak} hold no card above 10")
        return Claiming(table, deal, claimers), events
    return _open_bidding(rules, table, deal, events)


def _claim(rules: Rules, state: Claiming, ask: bool) -> Step:
    """A weak seat asks for a redeal (the deal is cancelled) or keeps its hand (the next weak seat chooses, or the
    bidding opens): deal.weak-redeal under reading claimed of ambiguity weak-hand."""
    seat = state.claimers[0]
    events: tuple[Event, ...] = (Claimed(seat, ask),)
    if ask:
        return _cancel(rules, state.table, events, "deal.weak-redeal",
                       f"{player_and_seat(seat)} holds no card above 10 and asks for a redeal")
    rest = state.claimers[1:]
    if rest:
        return Claiming(state.table, state.deal, rest), events
    return _open_bidding(rules, state.table, state.deal, events)


def _open_bidding(rules: Rules, table: Table, deal: DealState, events: tuple[Event, ...]) -> Step:
    """The dealer's card and trump where it decides it (trump.source); the seat after the dealer speaks first
    (bid.turn, auction.order)."""
    first = core_rules.next_seat(rules, table.dealer)
    events = (*events, BiddingOpened(deal.revealed, deal.trump, first))
    if rules.individual:
        return Bidding(table, deal, first, _NO_BIDS, 0), events
    a = core_hand.auction_start(rules, table.dealer)
    to_speak = first if a.to_speak is None else a.to_speak
    return Calling(table, deal, to_speak, None, a.holder, a.passes, a.spoken, _ALL_IN), events


def _bid(rules: Rules, state: Bidding, bid: Bid, force: bool = False) -> Step:
    """An individual bid, legal at the bidder's score (bid.*); after the fourth, the bid total decides whether the
    hand is played (bid.total). ``force``: an illegal one is taken as made (a pass as a bid of nothing)."""
    seat = state.to_move
    table = state.table
    bad = core_rules.bid_violation(rules, table.scores[seat], bid.n, bid.strain)
    pre: tuple[Event, ...] = ()
    if bad is not None:
        if not force:
            raise refuse(IllegalBid, bid, seat, bad[0], bad[1], state)
        pre = (Violation(seat, str(bid), bad[0], bad[1]),)
    n = bid.n
    if n is None:  # refused above (bid.no-pass), or taken as a bid of nothing under force
        if not force:
            raise refuse(IllegalBid, bid, seat, "bid.no-pass", "passing is not allowed", state)
        n = 0
    b = state.bids
    bids = (n if seat == 0 else b[0], n if seat == 1 else b[1], n if seat == 2 else b[2], n if seat == 3 else b[3])
    events: tuple[Event, ...] = (*pre, Called(seat, bid))
    spoken = state.spoken + 1
    if spoken < 4:
        return Bidding(table, state.deal, core_rules.next_seat(rules, seat), bids, spoken), events
    return _bids_made(rules, table, state.deal, bids, events)


def _bids_made(rules: Rules, table: Table, deal: DealState, bids: tuple[int, int, int, int],
               events: tuple[Event, ...]) -> Step:
    """The four bids made: the bid total decides whether the hand is played (bid.total); if it is, the play starts
    (play.lead), else the deal is cancelled."""
    if not core_rules.hand_is_played(rules, bids, table.scores):
        total, threshold = core_rules.bid_total(rules, bids, table.scores)
        return _cancel(rules, table, events, "bid.total", f"bids total {total}, below {threshold}")
    return _start_play(rules, Contracted(table, deal.trump, bids, None), deal.hands, events)


def _call(rules: Rules, state: Calling, bid: Bid, force: bool = False) -> Step:
    """A call of the team auction by the seat to speak (auction.*); when the auction ends, the contract, or a
    redeal if all four passed (auction.all-pass). ``force``: an illegal call is taken as made (an Egyptian contract
    it leaves without a strain then waits for its holder to name trump)."""
    seat = state.to_move
    a = core_hand.Auction(state.table.dealer, seat, None if state.top is None else (state.top.n or 0, state.top.strain),
                          state.holder, state.passes, state.spoken, list(state.active))
    bad = core_hand.auction_call(rules, a, bid.n, bid.strain, force=force)
    pre: tuple[Event, ...] = ()
    if bad is not None:
        if not force:
            raise refuse(IllegalBid, bid, seat, bad[0], bad[1], state)
        pre = (Violation(seat, str(bid), bad[0], bad[1]),)
    deal = state.deal
    events: tuple[Event, ...] = (*pre, Called(seat, bid))
    top = bid if bid.n is not None else state.top
    if a.to_speak is not None:
        act = a.active
        return Calling(state.table, deal, a.to_speak, top, a.holder, a.passes, a.spoken,
                       (act[0], act[1], act[2], act[3])), events
    table = state.table
    if top is None:
        return _cancel(rules, table, events, "auction.all-pass", "all four players passed")
    n = top.n
    if n is None:  # a top bid is a bid, never a pass: here for the type
        raise refuse(IllegalBid, bid, seat, "auction.order", "the auction ended on a pass as its top bid", state)
    contract = (a.holder, n, top.strain)
    events = (*events, ContractMade(contract))
    if rules.egyptian:
        strain = top.strain
        if strain is None:  # an Egyptian bid names a strain (auction.egyptian): only a call taken under force has none
            if not force:
                raise refuse(IllegalBid, bid, seat, "auction.egyptian", "an Egyptian contract names a strain", state)
            return Naming(table, deal, contract), events
        events = (*events, TrumpNamed(strain))
        return _start_play(rules, Contracted(table, strain, _NO_BIDS, contract), deal.hands, events)
    return Naming(table, deal, contract), events


def _name_trump(rules: Rules, state: Naming, action: NameTrump, force: bool = False) -> Step:
    """The contract holder names one of the four suits as trump (trump.source); ``force``: no trump (4) is taken
    as named."""
    suit = action.suit
    pre: tuple[Event, ...] = ()
    if type(suit) is not int or not 0 <= suit < 4:
        why = "the contract holder names one of the four suits"
        if not force or type(suit) is not int or suit != 4:
            raise refuse(IllegalTrump, action, state.to_move, "trump.source", why, state)
        pre = (Violation(state.to_move, str(action), "trump.source", why),)
    return _start_play(rules, Contracted(state.table, suit, _NO_BIDS, state.contract), state.deal.hands,
                       (*pre, TrumpNamed(suit)))


def _start_play(rules: Rules, start: Contracted, hands: Hands, events: tuple[Event, ...]) -> Step:
    """The first trick is led by the seat after the dealer, or the contract holder (play.lead)."""
    leader = core_hand.hand_leader(rules, start.table.dealer, start.contract)
    return Playing(start, hands, leader, leader, (), (0, 0, 0, 0)), (*events, PlayStarted(leader))


def _play(rules: Rules, state: Playing, card: int, force: bool = False) -> Step:
    """A card by the seat to move, legal by play.follow / play.must-trump; the fourth card of a trick gives it to
    its winner (play.winner), who leads the next (play.next-lead); the thirteenth trick ends the hand. ``force``: an
    illegal card of the pack is taken as played (it leaves the seat's hand if it was there)."""
    seat = state.to_move
    hands = state.hands
    hand = hands[seat]
    trick = state.trick
    start = state.start
    led = trick[0] // 13 if trick else -1
    mask = core_rules.legal_play_mask(rules, hand, led, start.trump)
    try:
        legal = (mask >> card) & 1
    except (TypeError, ValueError):  # not a card number: a negative or non-integer card
        legal = 0
    played: tuple[Event, ...]
    if legal:
        played = (Played(seat, card),)
        left = hand ^ CARD_BITS[card]  # a card of the hand: 0..51 (a look-up, not a shift)
    else:
        bad = core_rules.play_violation(rules, hand, led, start.trump, card)
        if bad is None:
            raise RuntimeError("a card refused by the legal set, yet no clause broken")
        if not force or type(card) is not int or not 0 <= card < 52:
            raise refuse(IllegalPlay, Play(card), seat, bad[0], bad[1], state)
        played = (Violation(seat, str(PLAYS[card]), bad[0], bad[1]), Played(seat, card))
        left = hand & ~CARD_BITS[card]  # taken as played: it leaves the hand if it was there
    if seat == 0:
        hands = (left, hands[1], hands[2], hands[3])
    elif seat == 1:
        hands = (hands[0], left, hands[2], hands[3])
    elif seat == 2:
        hands = (hands[0], hands[1], left, hands[3])
    else:
        hands = (hands[0], hands[1], hands[2], left)
    if len(trick) < 3:
        return Playing(start, hands, core_rules.next_seat(rules, seat), state.leader, trick + (card,), state.won), played
    c0, c1, c2 = trick
    cards = (c0, c1, c2, card)
    winner = core_hand.trick_winner_seat(rules, state.leader, cards, start.trump)
    w = state.won
    won = (w[0] + (winner == 0), w[1] + (winner == 1), w[2] + (winner == 2), w[3] + (winner == 3))
    done = Trick(state.leader, cards, winner)
    after = Playing(start, hands, winner, winner, (), won)
    if won[0] + won[1] + won[2] + won[3] < 13:
        return after, (*played, TrickTaken(done))
    return _end_hand(rules, after, (*played, TrickTaken(done)))


def play_trick(rules: Rules, state: State, cards: Sequence[int], *, force: bool = False) -> Step:
    """A whole trick at once: four cards from the seat to lead and the seats after it, in turn. The same state and
    events as four :func:`step` s of ``Play`` (a test holds them so); where the four are legal it is found in one
    go (:func:`tarneeb.core.hand.legal_trick_winner`), else by the four steps, the first illegal card raising as
    :func:`step` does (``force``: taken as played as :func:`step` takes it). For a verifier reading whole
    tricks."""
    if type(state) is Playing and not state.trick and len(cards) == 4:
        c0, c1, c2, c3 = cards
        if type(c0) is type(c1) is type(c2) is type(c3) is int and 0 <= min(c0, c1, c2, c3) and max(c0, c1, c2, c3) < 52:
            start = state.start
            leader = state.leader
            winner = core_hand.legal_trick_winner(rules, state.hands, leader, cards, start.trump)
            if winner >= 0:
                s0, s1, s2, s3 = core_rules.seat_order(rules, leader)
                h = list(state.hands)
                h[s0] ^= CARD_BITS[c0]
                h[s1] ^= CARD_BITS[c1]
                h[s2] ^= CARD_BITS[c2]
                h[s3] ^= CARD_BITS[c3]
                w = state.won
                won = (w[0] + (winner == 0), w[1] + (winner == 1), w[2] + (winner == 2), w[3] + (winner == 3))
                done = Trick(leader, (c0, c1, c2, c3), winner)
                after = Playing(start, (h[0], h[1], h[2], h[3]), winner, winner, (), won)
                events: tuple[Event, ...] = (Played(s0, c0), Played(s1, c1), Played(s2, c2), Played(s3, c3),
                                             TrickTaken(done))
                if won[0] + won[1] + won[2] + won[3] < 13:
                    return after, events
                return _end_hand(rules, after, events)
    now: State = state
    happened: tuple[Event, ...] = ()
    for card in cards:
        now, events = step(rules, now, PLAYS[card] if type(card) is int and 0 <= card < 52 else Play(card), force=force)
        happened += events
    return now, happened


def _end_hand(rules: Rules, state: Playing, events: tuple[Event, ...]) -> Step:
    """Score a played hand (score.*), decide its outcome (win.*, tie.*), settle play-on (win.play-on), and either
    end the match or pass the deal on (deal.rotation)."""
    return _finish(rules, state.start, state.won, events, None)


def _finish(rules: Rules, start: Contracted, won: tuple[int, int, int, int], events: tuple[Event, ...],
            claimed: tuple[int, int, int, int] | None) -> Step:
    """:func:`_end_hand` of a hand played from ``start`` with ``won`` tricks by seat; ``claimed``: the scores after
    it on which its outcome is judged (None: the scores before it plus its changes)."""
    table = start.table
    deltas = core_hand.hand_deltas(rules, start.bids, start.contract, won)
    sc = table.scores
    scores = (sc[0] + deltas[0], sc[1] + deltas[1], sc[2] + deltas[2], sc[3] + deltas[3]) if claimed is None else claimed
    events = (*events, Scored(won, (deltas[0], deltas[1], deltas[2], deltas[3]), scores))
    win, rule = core_hand.hand_outcome(rules, scores, table.target, start.bids, start.contract, won)
    return _settle(rules, table, scores, win, rule, (*events, Decided(win, rule)))


def _settle(rules: Rules, table: Table, scores: tuple[int, int, int, int], win: int | None, rule: str,
            events: tuple[Event, ...]) -> Step:
    """A played hand's outcome (``win`` by ``rule``) applied to the match at ``table`` (as before the hand), the
    scores now ``scores``: play-on (win.play-on), the end of the match, or the next dealer (deal.rotation)."""
    settled = core_hand.settle(rules, win, table.target, table.games)
    games = tuple(settled.games)
    if win is not None and settled.target != table.target:
        events = (*events, GameWon(win, settled.target))
    deals, played = table.deals + 1, table.played + 1
    if settled.winner is not None:
        after = Table(table.dealer, scores, settled.target, games, deals, played, table.redeals)
        return Over(after, settled.winner, rule), (*events, MatchWon(settled.winner, rule))
    dealer = core_hand.next_dealer(rules, table.dealer, None)
    after = Table(dealer, scores, settled.target, games, deals, played, table.redeals)
    return Dealing(after), (*events, NextDealer(dealer, core_hand.next_dealer_clause(None)))


# ---------------------------------------------------------------------- going on from what a record claims
def start_play(rules: Rules, start: Contracted, hands: Hands) -> Step:
    """The play of a deal from ``start`` (its table, trump, and bids or contract) with the ``hands`` dealt: the
    first leader (play.lead), as the step that ends the bidding starts it. For a verifier going on from a record's
    claims, which builds ``start`` from them: another contract or trump than the rules', a deal played that its bid
    total cancels."""
    return _start_play(rules, start, hands, ())


def end_hand(rules: Rules, start: Contracted, won: Sequence[int], *, scores: Sequence[int] | None = None) -> Step:
    """The end of a hand played from ``start`` whose thirteen tricks were won as ``won`` (by seat): the state and
    events of the thirteenth trick's step from its scoring on (score.*, win.*, tie.*, win.play-on, deal.rotation).
    For a verifier going on from a record's claims: ``start`` built from them, ``won`` the tricks it claims;
    ``scores``, the scores after the hand as it claims them: the outcome is judged on them (and
    :class:`~tarneeb.core.state.Scored` carries them) instead of the scores before it plus its changes."""
    w0, w1, w2, w3 = won
    return _finish(rules, start, (w0, w1, w2, w3), (),
                   None if scores is None else (scores[0], scores[1], scores[2], scores[3]))


def settle_match(rules: Rules, table: Table, winner: int | None, clause: str = "") -> Step:
    """A played hand's outcome applied to the match: ``winner`` (team 0/1, None: nobody yet) by ``clause``, at
    ``table`` as it was before the hand but for its scores, the scores after it. A game won before play-on raises
    the target (win.play-on), a match won ends it, else the next dealer deals (deal.rotation): the end of
    :func:`end_hand` after its outcome. For a verifier going on from a record's claimed winner."""
    return _settle(rules, table, table.scores, winner, clause, ())


def cancel(rules: Rules, table: Table, clause: str, why: str) -> Step:
    """A deal at ``table`` cancelled by ``clause`` (bid.total, auction.all-pass, deal.weak-redeal; ``why`` in words):
    the state and events of the step that cancels it from its cancellation on, the next dealer by that clause
    (redeal.dealer, ...). For a verifier weighing another dealer than the one a record claims."""
    return _cancel(rules, table, (), clause, why)


def _cancel(rules: Rules, table: Table, events: tuple[Event, ...], clause: str, why: str) -> Step:
    """The deal is cancelled by ``clause``; the next dealer by that clause (redeal.dealer, ...)."""
    dealer = core_hand.next_dealer(rules, table.dealer, clause)
    after = Table(dealer, table.scores, table.target, table.games, table.deals + 1, table.played, table.redeals + 1)
    return Dealing(after), (*events, Cancelled(clause, why), NextDealer(dealer, core_hand.next_dealer_clause(clause)))



# ---------------------------------------------------------------------- a hand whose cards nobody wrote down
_UNSEEN = DealState((0, 0, 0, 0), None, -1)  # a deal whose cards are not known, nor a trump it turns up


def open_unseen(rules: Rules, state: State, *, weak: bool = False) -> Step:
    """The deal of a hand whose cards nobody wrote down (a score sheet kept at a real table), from the match waiting
    for it (:class:`~tarneeb.core.state.Dealing`): the bidding opened as after a deal (bid.turn, auction.order),
    trump not known until a contract names it (it changes no score). The bids or calls are then stepped as ever,
    and the play, never stepped card by card, is ended by :func:`tricks_taken`. ``weak``: the deal thrown in for a
    hand with no card above 10 (deal.weak-redeal), refused where the ruleset plays such a hand. Another phase is
    refused as :func:`step` refuses a deal there."""
    if type(state) is not Dealing:
        raise _wrong_phase(state, "deal")
    table = state.table
    if weak:
        if not rules.weak_redeal:
            raise refuse(IllegalDeal, "weak-hand redeal", None, "deal.weak-redeal",
                         "this ruleset plays a hand with no card above 10; the deal is not thrown in", state)
        return _cancel(rules, table, (), "deal.weak-redeal", "a player held no card above 10")
    return _open_bidding(rules, table, _UNSEEN, ())


def tricks_taken(rules: Rules, state: State, won: Sequence[int] | int) -> Step:
    """The end of a hand whose cards nobody wrote down (:func:`open_unseen`), from the start of its play (the
    contract holder yet to name trump counts as that start where nobody wrote trump down): its 13 tricks taken as
    ``won`` -- four counts by seat, or in the auction family the number the contract's team took -- then what the
    thirteenth trick's step does (:func:`end_hand`: score.*, win.*, tie.*, win.play-on, deal.rotation). Refused
    (hand.tricks) unless the counts are whole numbers, none below 0, making 13 in all."""
    if type(state) is Naming:
        start = Contracted(state.table, -1, _NO_BIDS, state.contract)
    elif type(state) is Playing and not state.trick and not any(state.won):
        start = state.start
    else:
        raise _wrong_phase(state, "tricks taken")
    contract = start.contract
    by_seat: list[int] = []
    if type(won) is int and contract is not None:
        if 0 <= won <= 13:
            team = core_rules.team_of(contract[0])
            other = next(s for s in range(4) if core_rules.team_of(s) != team)
            by_seat = [0, 0, 0, 0]
            by_seat[contract[0]], by_seat[other] = won, 13 - won
        why = f"the contract's team took {won} of the 13 tricks: a number from 0 to 13 is needed"
    elif not isinstance(won, int) and len(won) == 4 and all(type(w) is int and w >= 0 for w in won):
        by_seat = list(won)
        why = f"the tricks taken, {' + '.join(map(str, won))} = {sum(won)}, must make the 13 tricks of a hand"
    else:
        why = ("the number of tricks the contract's team took is needed" if contract is not None
               else "four counts of tricks, one a player, none below 0, are needed")
    if len(by_seat) != 4 or sum(by_seat) != 13:
        raise refuse(IllegalPlay, f"tricks taken {won}", None, "hand.tricks", why, state)
    return _finish(rules, start, (by_seat[0], by_seat[1], by_seat[2], by_seat[3]), (), None)


# ---------------------------------------------------------------------- the play part-way, from facts


def playing_from(rules: Rules, start: Contracted, hands: Sequence[int], leader: int, trick: Sequence[int] = (),
                 won: Sequence[int] = (0, 0, 0, 0)) -> Playing:
    """The play part-way, built from facts, as a referee states them: ``start`` (the table, trump and the bids or
    the contract the play began with: the ``start`` of a :class:`Playing` state :func:`step` reached), the cards each
    seat holds now (``hands``, four 52-bit masks), the seat that led the trick in progress and its cards so far in
    play order (``leader``, ``trick``), and the tricks each seat has won (``won``). The seat to move is the one
    after the trick's cards in the direction of play (play.direction).

    Checked, else :class:`~tarneeb.errors.IllegalDeal` naming the clause: trump is one the ruleset can have and the
    start is of its bidding family (trump.source); the leader is a seat (play.direction); the cards of the hands and
    the trick are cards of the pack, each in one place (deal.deck); at most three cards are in the trick, at most 12
    tricks are won, and every seat holds 13 cards less one per trick won and one if it has played to the trick in
    progress (hand.tricks)."""

    def bad(clause: str, why: str) -> IllegalDeal:
        return IllegalDeal("play part-way", None, clause, why, "play part-way")

    if type(start) is not Contracted or rules.individual != (start.contract is None):
        raise bad("trump.source", "the play starts from the bids or the contract of the ruleset's bidding family")
    if start.trump not in ((0, 1, 2, 3, 4) if rules.egyptian else (0, 1, 2, 3)):
        raise bad("trump.source", f"trump {start.trump} is not one this ruleset can have")
    if type(leader) is not int or leader not in range(4):
        raise bad("play.direction", f"the leader must be a seat 0..3, not {leader!r}")
    if len(hands) != 4 or not all(type(h) is int and 0 <= h <= FULL_DECK for h in hands):
        raise bad("deal.deck", "four hands are needed, each a set of cards of the pack")
    if len(trick) > 3 or not all(type(c) is int and 0 <= c < 52 for c in trick):
        raise bad("hand.tricks", "the trick in progress holds at most three cards of the pack before the seat to move")
    held = hands[0] | hands[1] | hands[2] | hands[3]
    played = sum(CARD_BITS[c] for c in set(trick))
    if sum(h.bit_count() for h in hands) != held.bit_count() or len(set(trick)) != len(trick) or held & played:
        raise bad("deal.deck", "a card is in two places")
    if len(won) != 4 or not all(type(w) is int and w >= 0 for w in won) or sum(won) > 12:
        raise bad("hand.tricks", f"tricks won {list(won)}: a trick is left to play only after at most 12")
    order = core_rules.seat_order(rules, leader)
    dealt = list(hands)
    for seat, card in zip(order, trick, strict=False):
        dealt[seat] |= CARD_BITS[card]
    left = 13 - sum(won)
    for seat in range(4):
        if dealt[seat].bit_count() != left:
            raise bad("hand.tricks", f"{player_and_seat(seat)} holds {hands[seat].bit_count()} card(s); after "
                                     f"{sum(won)} trick(s) and {len(trick)} card(s) of this one it holds "
                                     f"{left - (dealt[seat] != hands[seat])}")
    return Playing(start, (hands[0], hands[1], hands[2], hands[3]), order[len(trick)], leader, tuple(trick),
                   (won[0], won[1], won[2], won[3]))


# ---------------------------------------------------------------------- what the player to move may do
def legal_play_mask(rules: Rules, state: Playing) -> int:
    """The cards the seat to move may play (play.follow, play.must-trump)."""
    trick = state.trick
    return core_rules.legal_play_mask(rules, state.hands[state.to_move], trick[0] // 13 if trick else -1,
                                      state.start.trump)


def legal_actions(rules: Rules, state: State) -> Sequence[Action]:
    """Legal actions of the player to move (empty while waiting for a deal, a chance node, and once over).

    In play the cards come in ascending order (clubs first, low to high)."""
    if type(state) is Playing:
        trick = state.trick
        led = trick[0] // 13 if trick else -1
        mask = core_rules.legal_play_mask(rules, state.hands[state.to_move], led, state.start.trump)
        if led >= 0 and not mask & _OTHER_SUITS[led]:  # following suit: one precomputed tuple
            return _PLAYS_OF_SUIT[led][mask >> _SHIFT[led]]
        return _P0[mask & 0x1FFF] + _P1[(mask >> 13) & 0x1FFF] + _P2[(mask >> 26) & 0x1FFF] + _P3[mask >> 39]
    if type(state) is Bidding:
        return legal_bids(rules, state.table.scores[state.to_move])
    if type(state) is Calling:
        return legal_calls(rules, state)
    if type(state) is Naming:
        return _NAME_TRUMP
    if type(state) is Claiming:
        return _CLAIMS
    return []


def legal_bids(rules: Rules, score: int) -> tuple[Bid, ...]:
    """The individual bids legal at ``score`` (core_rules.legal_bids), kept on the rules object by score."""
    table: dict[int, tuple[Bid, ...]] = rules.derived.get("legal bids", (core_rules.legal_bids, core_rules.min_bid_for),
                                                          dict)
    got = table.get(score)
    if got is None:
        got = table[score] = tuple(BIDS[b] for b in core_rules.legal_bids(rules, score))
    return got


def legal_calls(rules: Rules, state: Calling) -> tuple[Bid, ...]:
    """The calls legal in an auction state. They depend only on (dealer, seat to speak, top bid, passes): the rules
    decide them once per such state (auction_bid_violation), kept on the rules object."""
    table: dict[tuple[int, int, Bid | None, int], tuple[Bid, ...]] = rules.derived.get(
        "legal calls", (core_rules.auction_bid_violation, core_rules.dealer_forced, core_rules.bid_key), dict)
    dealer = state.table.dealer
    key = (dealer, state.to_move, state.top, state.passes)
    got = table.get(key)
    if got is None:
        top = None if state.top is None else (state.top.n or 0, state.top.strain)
        strains = range(5) if rules.egyptian else (None,)
        candidates: list[Bid] = [PASS] + [BIDS[n] if s is None else EGYPTIAN[(n, s)]
                                          for n in range(rules.min_bid, 14) for s in strains]
        got = table[key] = tuple(
            b for b in candidates
            if core_rules.auction_bid_violation(rules, dealer, state.to_move, top, state.passes, b.n, b.strain) is None)
    return got


def timeout_action(rules: Rules, state: State) -> Action:
    """What a turn timer plays for the player to move (clauses timer.auto-bid, timer.auto-play)."""
    if type(state) is Bidding or type(state) is Calling:
        legal = legal_actions(rules, state)
        if rules.auto_bid:
            b = BIDS[rules.auto_bid]
            if b in legal:
                return b
        return legal[0]
    if type(state) is Playing:
        cards = cards_of(legal_play_mask(rules, state))
        if rules.auto_play == "lowest-non-trump":
            non_trump = [c for c in cards if c // 13 != state.start.trump]
            cards = non_trump or cards
        return PLAYS[min(cards, key=lambda c: (c % 13, c // 13))]
    legal = legal_actions(rules, state)
    if not legal:
        raise refuse(WrongPhase, "timeout", None, "hand.tricks", "no player is to move", state)
    return legal[0]


# ---------------------------------------------------------------------- in words
def refuse(kind: type[IllegalAction], action: Action | str, seat: int | None, clause: str, reason: str,
           state: State) -> IllegalAction:
    """The error an illegal ``action`` raises in ``state``: the action and the state in words (:func:`describe`,
    said when the message is first read), the seat, the deciding clause and the reason. (The proofs compare the
    kind, the seat and the clause, never the words.)"""
    return kind(str(action), seat, clause, reason, lambda: describe(state))


def describe(state: State) -> str:
    """The state in one line, as error messages quote it: the deal's number, the phase, the dealer, the scores,
    and the seat to move with its hand, trump and the trick so far where they are known."""
    table = state.table
    parts = [f"deal {table.deals}", f"phase {state.phase.value}", f"dealer {player_and_seat(table.dealer)}",
             f"scores {list(table.scores)}"]
    to_move = state.to_move
    if to_move >= 0:
        parts.append(f"{player_and_seat(to_move)} to move holding [{hand_str(hand_of(state, to_move))}]")
    trump = trump_of(state)
    if trump >= 0:
        parts.append(f"trump {strain_name(trump, letter=True)}")
    if type(state) is Playing and state.trick:
        parts.append("trick so far " + " ".join(card_str(c) for c in state.trick))
    return "; ".join(parts)


def hand_of(state: State, seat: int) -> int:
    """The cards ``seat`` holds now (0 between deals)."""
    if type(state) is Playing:
        return state.hands[seat]
    if type(state) is Claiming or type(state) is Bidding or type(state) is Calling or type(state) is Naming:
        return state.deal.hands[seat]
    return 0


def trump_of(state: State) -> int:
    """Trump 0..3 or 4 (no trump) where it is known in ``state``, else -1."""
    if type(state) is Playing:
        return state.start.trump
    if type(state) is Bidding or type(state) is Calling:
        return state.deal.trump
    return -1


__all__ = ["Contract", "Step", "cancel", "deal", "describe", "end_hand", "hand_of", "legal_actions", "legal_bids",
           "legal_calls", "legal_play_mask", "open_unseen", "part_way", "play_trick", "playing_from", "refuse",
           "settle_match", "start", "start_play", "step", "timeout_action", "tricks_taken", "trump_of"]
