"""Runs of a hand's actions at once, for a verifier reading a whole line: the bids or calls of a bidding
(:func:`call_all`) and the tricks of a play (:func:`play_tricks`; :func:`trick_winners` -- only who led and won
each). Each gives what stepping the transition (:mod:`tarneeb.core.transition`) one action at a time gives: the
same state and events, or the same error (tests hold them so). Where a run is legal it is found in one go from the
rules' functions; the rest is stepped, and the end of a bidding or of a hand is the transition's own
(``_bids_made``, ``_finish``). What is derived from a rules object (the auction runs met, the seat orders) is kept
on it (``rules.derived``), under the functions that decide it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core import transition as T
from tarneeb.core.actions import BIDS, Bid
from tarneeb.core.cards import CARD_BITS
from tarneeb.core.spec import Rules
from tarneeb.core.state import Bidding, Called, Calling, Event, Played, Playing, State, Trick, TrickTaken
from tarneeb.core.transition import Step

_PLAY = tuple(tuple(Played(seat, c) for c in range(52)) for seat in range(4))  # one event per seat and card (play_tricks)
_CALLED = tuple(tuple(Called(seat, b) for b in BIDS) for seat in range(4))  # one per seat and individual bid (call_all)


def auction_deciders() -> tuple[object, ...]:
    """What decides a whole auction, read when asked (a replaced function is seen): its calls (auction.*), whose
    turn it is and when it ends (auction.order). An auction run kept on the rules is kept under them."""
    return (core_rules.auction_bid_violation, core_rules.dealer_forced, core_rules.bid_key, core_hand.auction_start,
            core_hand.auction_call, core_rules.auction_next, core_rules.next_seat)


def call_all(rules: Rules, state: State, calls: Sequence[Bid]) -> Step:
    """Bids or auction calls one after another (the whole bidding, say): the same state and events as a step
    (:func:`~tarneeb.core.transition.step`) of each in turn (a test holds them so). Individual bids are taken in one
    go while each is legal, the fourth ending the bidding as its step does (``_bids_made``); auction calls, all but
    the last while each is legal and the auction goes on after it (:func:`_auction_run`). The rest, from the first
    that is not (an auction call that ends the auction early, the last call, any after the bidding), are stepped,
    raising as the step does. For a verifier reading a hand's bids."""
    k = 0
    last = len(calls) - 1
    happened: tuple[Event, ...] = ()
    if type(state) is Bidding:
        table, seat, spoken = state.table, state.to_move, state.spoken
        scores = table.scores
        bids = list(state.bids)
        events: list[Event] = []
        while k <= last:
            bid = calls[k]
            n = bid.n if type(bid) is Bid else None
            if n is None or core_rules.bid_violation(rules, scores[seat], n, bid.strain) is not None:
                break
            bids[seat] = n
            events.append(_CALLED[seat][n] if 0 <= n < 14 and bid is BIDS[n] else Called(seat, bid))
            spoken += 1
            k += 1
            if spoken == 4:
                break
            seat = core_rules.next_seat(rules, seat)
        if k:
            made = (bids[0], bids[1], bids[2], bids[3])
            if spoken == 4:  # the fourth bid: the bidding is over, as its step says (bid.total)
                state, happened = T._bids_made(rules, table, state.deal, made, tuple(events))
            else:
                state, happened = Bidding(table, state.deal, seat, made, spoken), tuple(events)
    elif type(state) is Calling and last > 0:
        k, after, happened = _auction_run(rules, state, calls)
        if after is not None:
            state = after
    for bid in calls[k:]:
        state, ev = T.step(rules, state, bid)
        happened += ev
    return state, happened


_Run = tuple[int, int | None, Bid | None, int, int, int, tuple[bool, bool, bool, bool], tuple[Event, ...]]
_RUNS_KEPT = 50_000  # auction runs kept per rules object: past it, the table starts again


def _auction_run(rules: Rules, state: Calling, calls: Sequence[Bid]) -> tuple[int, Calling | None, tuple[Event, ...]]:
    """:func:`call_all` of auction calls from ``state``, all but the last: (how many were taken, the auction after
    them, their events); (0, None, ()) when none was. Calls are taken while each is legal and the auction goes on
    after it; if one ends it before the last, none is (every call is stepped). What the run gives depends only on
    the auction's fields (the dealer, the seat to speak, the top bid and its holder, the passes, the calls so far,
    the seats still in) and the calls, so it is kept on the rules object under them (a verifier meets the same
    auctions again and again)."""
    table, top = state.table, state.top
    key = (table.dealer, state.to_move, top, state.holder, state.passes, state.spoken, state.active, *calls[:-1])
    deciders = (*auction_deciders(), _auction_run)
    runs: dict[tuple[object, ...], _Run] = rules.derived.get("auction runs", deciders, dict)
    try:
        run = runs.get(key)
    except TypeError:  # a call that is no Bid (unhashable): stepped, it raises
        return 0, None, ()
    if run is None:
        a = core_hand.Auction(table.dealer, state.to_move, None if top is None else (top.n or 0, top.strain),
                              state.holder, state.passes, state.spoken, list(state.active))
        events: list[Event] = []
        k = 0
        for bid in calls[:-1]:
            speaker = a.to_speak
            if type(bid) is not Bid or speaker is None or core_hand.auction_call(rules, a, bid.n, bid.strain) is not None:
                break
            if a.to_speak is None:  # the auction ended before the last call: every call stepped
                k = 0
                break
            events.append(Called(speaker, bid))
            if bid.n is not None:
                top = bid
            k += 1
        act = a.active
        run = (k, a.to_speak, top, a.holder, a.passes, a.spoken, (act[0], act[1], act[2], act[3]), tuple(events))
        if len(runs) >= _RUNS_KEPT:
            runs.clear()
        runs[key] = run
    k, to_speak, top, holder, passes, spoken, active, happened = run
    if not k or to_speak is None:
        return 0, None, ()
    return k, Calling(table, state.deal, to_speak, top, holder, passes, spoken, active), happened


def play_tricks(rules: Rules, state: State, tricks: Sequence[Sequence[int]]) -> Step:
    """Whole tricks one after another (the rest of a hand, say): the same state and events as
    :func:`~tarneeb.core.transition.play_trick` of each in turn (a test holds them so), found in one go while every
    trick is legal, the first illegal card raising as its step does. For a verifier reading a hand's tricks."""
    if type(state) is not Playing or state.trick:
        return _trick_by_trick(rules, state, tricks, 0)
    seats, now, tail = _legal_tricks(rules, state, tricks)
    k = len(seats) - 1
    if not k:
        return _trick_by_trick(rules, state, tricks, 0)
    orders, played = _seat_orders(rules), _PLAY
    events: list[Event] = []
    for i in range(k):  # each trick's plays and its winner, as its step gives them
        leader = seats[i]
        c0, c1, c2, c3 = tricks[i]
        s0, s1, s2, s3 = orders[leader]
        events += (played[s0][c0], played[s1][c1], played[s2][c2], played[s3][c3],
                   TrickTaken(Trick(leader, (c0, c1, c2, c3), seats[i + 1])))
    happened = (*events, *tail)  # the thirteenth trick's step ends the hand: its events after the tricks'
    if k == len(tricks):
        return now, happened
    now, rest = _trick_by_trick(rules, now, tricks, k)
    return now, happened + rest


def trick_winners(rules: Rules, state: State, tricks: Sequence[Sequence[int]]
                  ) -> tuple[State, list[int], tuple[Event, ...]] | None:
    """:func:`play_tricks` without the events of the tricks themselves, for a verifier that only compares who led
    and won each: where ``state`` is the play at the start of a trick and every one of ``tricks`` is four legal
    cards, no more than the tricks left, (the state after them, the seats, the events after the last trick's
    :class:`~tarneeb.core.state.TrickTaken`: the hand's end when it ended, else none). ``seats[i]`` leads trick
    ``i`` and ``seats[i + 1]`` wins it (play.winner, play.next-lead): the leader of the first, then the winner of
    each, as the TrickTaken events of :func:`play_tricks` give them (a test holds them so). None otherwise:
    :func:`play_tricks` then says which card is illegal."""
    if type(state) is not Playing or state.trick:
        return None
    seats, now, tail = _legal_tricks(rules, state, tricks)
    if len(seats) <= len(tricks):
        return None
    return now, seats, tail


def _legal_tricks(rules: Rules, state: Playing, tricks: Sequence[Sequence[int]]
                  ) -> tuple[list[int], State, tuple[Event, ...]]:
    """The tricks of ``tricks`` from the first while each is four legal cards and a trick is left to play, from
    ``state`` at the start of a trick: (the leader of the first and the winner of each, the state after them and
    the events after the last one's TrickTaken: the hand's end when the thirteenth ended it)."""
    start = state.start
    trump = start.trump
    orders = _seat_orders(rules)
    bits = CARD_BITS
    hands = list(state.hands)
    won = list(state.won)
    leader = state.leader
    seats = [leader]
    room = 13 - sum(won)  # the tricks left in the hand: a further one raises as its step does
    try:
        for cards in tricks:
            if len(seats) > room:
                break
            c0, c1, c2, c3 = cards
            # a card not of the pack: no winner, or raises
            winner = core_hand.legal_trick_winner(rules, hands, leader, cards, trump)
            if winner < 0:
                break
            s0, s1, s2, s3 = orders[leader]
            hands[s0] ^= bits[c0]
            hands[s1] ^= bits[c1]
            hands[s2] ^= bits[c2]
            hands[s3] ^= bits[c3]
            won[winner] += 1
            seats.append(winner)
            leader = winner
    except (TypeError, ValueError):  # not four cards, or not card numbers: trick by trick from here, as play_trick
        pass
    w4 = (won[0], won[1], won[2], won[3])
    if room and len(seats) > room:  # the thirteenth trick ends the hand
        return seats, *T._finish(rules, start, w4, (), None)
    return seats, Playing(start, (hands[0], hands[1], hands[2], hands[3]), leader, leader, (), w4), ()


def _seat_orders(rules: Rules) -> tuple[tuple[int, int, int, int], ...]:
    """The seats of a trick in play order from each leader (play.direction), kept on the rules object."""
    return rules.derived.get("seat orders", (core_rules.seat_order,),
                             lambda: tuple(core_rules.seat_order(rules, s) for s in range(4)))


def _trick_by_trick(rules: Rules, state: State, tricks: Sequence[Sequence[int]], k: int) -> Step:
    """:func:`~tarneeb.core.transition.play_trick` of ``tricks[k:]`` in turn."""
    now = state
    happened: tuple[Event, ...] = ()
    for cards in tricks[k:]:
        now, events = T.play_trick(rules, now, cards)
        happened += events
    return now, happened


__all__ = ["auction_deciders", "call_all", "play_tricks", "trick_winners"]
