"""A hand being written on a score sheet, one entry at a time (the score-sheet page asks after every tap): how far
core takes it.

:func:`write_hand` replays the sheet's hands before it, opens the hand's deal as :func:`~tarneeb.sheet.score_sheet`
does, and steps what is written so far: the individual bids in bidding order (the seats and their order are the
ones the transition asks for), or the auction's contract or calls, then the tricks. It stops at the first entry core
refuses; it says whether the bids or calls threw the deal in (then no tricks are written) and, once every entry is
taken, gives the hand's result as the replay would. The numbers core takes for the next bid are core's
(:func:`tarneeb.core.transition.legal_actions`); nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tarneeb.core import clauses as core_clauses
from tarneeb.core import transition
from tarneeb.core.actions import Bid
from tarneeb.core.spec import Rules
from tarneeb.core.state import Bidding, Called, Calling, Cancelled, Over, State
from tarneeb.errors import IllegalAction
from tarneeb.sheet.format import Sheet, SheetHand
from tarneeb.sheet.replay import (
    EntryError,
    HandResult,
    Reason,
    SheetResult,
    _contract,
    _family,
    _hand,
    _ordinal,
    _Refused,
    _word,
    bid_words,
    score_sheet,
    team_names,
    thrown_in_reason,
)


@dataclass
class Written:
    """A hand as far as it is written: who deals it, the seats in bidding order (individual bids), the seat whose
    bid is next and the bids core takes from it, the auction's possible contracts (its first caller's calls but
    the pass), the first entry refused, the deal thrown in, whether it is played (its tricks wanted), and the hand's
    result once every entry is taken. ``closed``: no hand can be written here (the match is over, or an earlier
    entry is impossible)."""

    number: int  # the hand, from 1
    dealer: int | None = None
    order: tuple[int, ...] = ()
    to_bid: int | None = None
    legal: tuple[Bid, ...] = ()
    contracts: tuple[Bid, ...] = ()
    error: EntryError | None = None
    thrown_in: Reason | None = None
    played: bool = False
    done: HandResult | None = None
    closed: bool = False
    refused: tuple[int, Bid] | None = None  # the seat and the bid or call refused
    winner: int | None = None  # the team that had won the match before this hand (closed)
    state: State | None = field(default=None, repr=False)


def write_hand(sheet: Sheet, rules: Rules, at: int, hand: SheetHand, before: SheetResult | None = None) -> Written:
    """The hand ``hand`` written as the sheet's hand ``at`` (from 0; the hands from ``at`` on are not replayed):
    its bids (``bids``, in bidding order; fewer than four while they are being written), or its ``contract`` or
    ``calls``, then its tricks (``tricks_won``, ``bidding_team_tricks``), or ``redeal``. ``before``: the replay of
    the sheet's first ``at`` hands when the caller has it (else it is replayed here)."""
    if before is None:
        before = score_sheet(replace(sheet, hands=sheet.hands[:at]), rules)
    k = at + 1
    out = Written(k)
    if before.error is not None:
        out.error, out.closed = before.error, True
        return out
    state = before.state
    assert state is not None
    names = sheet.players
    if type(state) is Over:
        winner = out.winner = state.winner
        out.closed = True
        out.error = EntryError(k, "hand", before.winner_clause or "win.target",
                               f"the match was over after hand {at}: {team_names(names, winner)} won it")
        return out
    out.dealer = state.table.dealer
    _family(rules, sheet, k, hand)
    try:
        opened, events = transition.open_unseen(rules, state, weak=hand.redeal is not None)
    except IllegalAction as e:
        out.error = EntryError(k, "redeal" if hand.redeal else "hand", e.rule, e.reason)
        return out
    if rules.individual:
        out.order = _order(rules, opened)
    elif type(opened) is Calling:
        out.contracts = tuple(b for b in transition.legal_calls(rules, opened) if b.n is not None)
    now: State = opened
    more = events
    written = hand.bids if hand.bids is not None else hand.calls
    key = "bids" if hand.bids is not None else "calls"
    for i, bid in enumerate(written or (), start=1):  # each bid or call taken or refused as at the table
        if type(now) is not Bidding and type(now) is not Calling:
            out.error = EntryError(k, key, core_clauses.turn_clause(rules),
                                   f"the bidding was over after the {_ordinal(i - 1)} {_word(key)}; "
                                   f"{len(written or ())} are written")
            return out
        seat = now.to_move
        try:
            now, step = transition.step(rules, now, bid)
        except IllegalAction as e:
            out.refused, out.to_bid = (seat, bid), seat
            out.legal = tuple(transition.legal_actions(rules, now))  # type: ignore[arg-type]
            out.error = EntryError(k, key, e.rule, f"the {_ordinal(i)} {_word(key)}, {names[seat]}'s "
                                                   f"{bid_words(bid)}: {e.reason}")
            return out
        more += step
    if hand.contract is None and (type(now) is Bidding or type(now) is Calling):  # not over yet: who is next
        out.to_bid = now.to_move
        out.legal = tuple(transition.legal_actions(rules, now))  # type: ignore[arg-type]
        out.state = now
        return out
    if hand.contract is not None:
        try:
            now, more = _contract(rules, names, opened, events, k, hand.contract)
        except _Refused as r:
            out.error = r.error
            return out
    cancelled = next((e for e in more if type(e) is Cancelled), None)
    out.played = cancelled is None
    if cancelled is not None:
        calls = [(e.seat, e.bid) for e in more if type(e) is Called]
        out.thrown_in = thrown_in_reason(rules, cancelled, calls, state.table.scores)
    wanted = hand.tricks_won if hand.tricks_won is not None else hand.bidding_team_tricks
    if out.played and wanted is None:
        out.state = now
        return out
    try:
        _, done = _hand(rules, sheet, state, k, hand, before.hands[-1] if before.hands else None)
    except _Refused as r:
        out.error = r.error
        return out
    out.done = done
    return out


def _order(rules: Rules, opened: State) -> tuple[int, ...]:
    """The seats in bidding order: the seat the transition asks for, bid after bid (each scratch bid one it takes)."""
    seats: list[int] = []
    now = opened
    while type(now) is Bidding and len(seats) < 4:
        seats.append(now.to_move)
        legal = transition.legal_actions(rules, now)
        now, _ = transition.step(rules, now, legal[-1])
    return tuple(seats)


__all__ = ["Written", "write_hand"]
