"""The verifier's fast path: a canonical hand line through the transition, checked cheaply.

It is the driver of :mod:`tarneeb.records.driver` with cheaper checks, no second replayer: it decodes only the
canonical spelling of a line (a 104-character deck, ``[seat, "8H"]`` bids, tricks of four card strings), steps the
transition with the actions it makes (:func:`tarneeb.core.transition.step`, whole tricks by
:func:`~tarneeb.core.transition.play_trick`) and compares the line's claims with the events. It returns True only for
a clean line, and then advances the match state to the one the transition left; on anything unusual, an illegal
action or any disagreement it returns False with the state untouched, and the verifier replays the line step by step
(:mod:`tarneeb.records.replay`, the same driver), which reports and goes on past a divergence. The tests compare
both paths on every line.
"""

from __future__ import annotations

from operator import is_
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core import runs, transition
from tarneeb.core.actions import NameTrump
from tarneeb.core.cards import STRAINS, SUITS
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Called,
    Calling,
    Cancelled,
    Dealing,
    Decided,
    Event,
    Naming,
    NextDealer,
    Over,
    Playing,
    Scored,
    State,
)
from tarneeb.errors import IllegalAction, IllegalDeal
from tarneeb.records.driver import Driver, MatchState
from tarneeb.records.format import _CANONICAL_BID, _CARD_CODE, _CARD_TEXT, contract_text, text_codes

CANONICAL_KEYS = frozenset({"type", "match", "hand", "dealer", "deck", "revealed", "trump", "bids", "redeal",
                            "contract", "tricks", "tricks_won", "deltas", "scores", "outcome"})
_OUTCOME_KEYS = frozenset({"winner", "clause", "match_over"})
_NAME_TRUMP = tuple(NameTrump(s) for s in range(4))


def _is(v: object, n: int) -> bool:
    """``v`` is the integer ``n`` (not a bool or float that compares equal)."""
    return type(v) is int and v == n


def _ints_are(v: object, want: list[int]) -> bool:
    """``v`` is the list ``want`` of four integers (no bool or float that compares equal)."""
    return (type(v) is list and v == want and len(v) == 4
            and type(v[0]) is type(v[1]) is type(v[2]) is type(v[3]) is int)


def fast_hand(st: MatchState, obj: dict[str, Any]) -> bool:
    """Check a canonical hand line ``obj`` against the state ``st``; True (``st`` advanced) only when clean."""
    if (not CANONICAL_KEYS.issuperset(obj) or not st.dealer_known or st.alt_dealer is not None
            or st.alt_scores is not None or st.alt_target is not None):
        return False
    table = st.table
    n, d = obj.get("hand"), obj.get("dealer")
    # the dealer must be the very int object the rules give: seats 0..3 are CPython's shared small ints, so ``is``
    # is the comparison and the type check at once (a bool or float claim is not taken)
    if type(n) is not int or n != st.next_hand or obj.get("match") != st.header.match or d is not table.dealer:
        return False
    text = obj.get("deck")
    bids = obj.get("bids")
    if type(text) is not str or len(text) != 104 or type(bids) is not list:
        return False
    return FastLine(st, obj, bids).drive(Dealing(table)) is not None


class FastLine(Driver):
    """A canonical line through the driver: each hook steps the line's actions and returns None at the first claim
    the events do not bear out; the last (the end of the deal) advances the match state."""

    __slots__ = ("st", "rules", "obj", "bids", "start")

    def __init__(self, st: MatchState, obj: dict[str, Any], bids: list[Any]) -> None:
        self.st = st
        self.rules = st.rules
        self.obj = obj
        self.bids = bids

    # ---- the deal: the hands, the revealed card, trump, a weak hand's redeal
    def deal(self, state: Dealing) -> State | None:
        obj = self.obj
        deck = text_codes(obj["deck"])  # the card codes in deal order
        if deck is None:
            return None
        try:
            now, ev = transition.deal(self.rules, state, deck)
        except IllegalDeal:  # not 52 distinct cards
            return None
        if type(now) is Dealing:  # a weak hand: the deal is cancelled before the bidding, no card shown
            return self._cancelled(now, ev, []) if "revealed" not in obj else None
        opened = ev[1] if len(ev) > 1 else None
        if type(opened) is not BiddingOpened:  # a weak seat chooses (ambiguity weak-hand): the replay checks it
            return None
        revealed = opened.revealed
        if revealed is None:
            if "revealed" in obj:
                return None
        elif obj.get("revealed") != _CARD_TEXT[revealed]:
            return None
        if self.rules.individual and obj.get("trump") != STRAINS[opened.trump]:
            return None
        return now

    # ---- the bidding: each call by the seat to speak, legal; the line's calls end with the bidding
    def call(self, state: Bidding | Calling) -> State | None:
        bids = self.bids
        calls = []
        for x in bids:
            if type(x) is not list or len(x) != 2:
                return None
            text = x[1]
            b = _CANONICAL_BID.get(text) if type(text) is str else None
            if b is None:
                return None
            calls.append(b)
        try:
            now, ev = runs.call_all(self.rules, state, calls)
        except IllegalAction:  # an illegal call, or one after the end of the bidding
            return None
        if type(now) is Bidding or type(now) is Calling:  # the line's bidding stops before the bidding is over
            return None
        for x, e in zip(bids, ev, strict=False):  # each call by the seat whose turn it was (the first events: the calls)
            if type(e) is not Called or x[0] is not e.seat:
                return None
        if type(now) is Dealing:  # cancelled: a low bid total, or all passed
            return self._cancelled(now, ev, None)
        if self.obj.get("redeal") is not None:
            return None
        if type(now) is Playing and not self.rules.individual:  # an Egyptian contract: its strain is trump
            start = now.start
            if start.contract is None or not self._contract_is(start.contract, start.trump):
                return None
        return now

    def name(self, state: Naming) -> State | None:
        t = self.obj.get("trump")
        if type(t) is not str or t not in ("C", "D", "H", "S"):
            return None
        trump = SUITS.index(t)
        if not self._contract_is(state.contract, trump):
            return None
        now, _ = transition.step(self.rules, state, _NAME_TRUMP[trump])
        return now

    def _contract_is(self, contract: tuple[int, int, int | None], trump: int) -> bool:
        """The line claims the contract and trump the auction gave."""
        obj = self.obj
        cobj = obj.get("contract")
        return (type(cobj) is dict and _is(cobj.get("seat"), contract[0]) and len(cobj) == 2
                and cobj.get("bid") == contract_text(contract) and obj.get("trump") == STRAINS[trump])

    # ---- the play: the thirteen tricks, each led and won by the seats the transition says
    def trick(self, state: Playing) -> State | None:
        tricks = self.obj.get("tricks")
        if type(tricks) is not list or len(tricks) != 13:
            return None
        code = _CARD_CODE
        cards: list[tuple[int, int, int, int]] = []
        leaders: list[object] = []
        winners: list[object] = []
        try:
            for t in tricks:  # leader, cards, winner: nothing unknown to warn about (not a dict: TypeError below)
                a, b, c, d = t["cards"]  # four cards: ValueError below otherwise
                if len(t) != 3:
                    return None
                cards.append((code[a], code[b], code[c], code[d]))
                leaders.append(t["leader"])
                winners.append(t["winner"])
        except (KeyError, TypeError, ValueError):  # a missing field, not four cards, a card not written canonically
            return None
        played = runs.trick_winners(self.rules, state, cards)
        if played is None:  # an illegal card: the replay says which
            return None
        end, seats, ev = played
        # each trick's leader and winner: the very int objects the rules give (see fast_hand)
        if not (all(map(is_, leaders, seats)) and all(map(is_, winners, seats[1:]))):
            return None
        self.start = state.start
        return self._scored(end, ev)

    # ---- the end of the deal
    def _scored(self, end: State, ev: tuple[Event, ...]) -> State | None:
        """A hand played to the end: its scoring, outcome and the match after it (``ev``: the events of the last
        trick's step from the scoring on) as the line claims them; the match state advanced."""
        scored, decided, last = ev[0], ev[1], ev[-1]
        if type(scored) is not Scored or type(decided) is not Decided:
            return None
        st, obj = self.st, self.obj
        won, deltas = list(scored.tricks_won), list(scored.deltas)
        if not (_ints_are(obj.get("tricks_won"), won) and _ints_are(obj.get("deltas"), deltas)
                and _ints_are(obj.get("scores"), list(scored.scores))):
            return None
        contract = self.start.contract
        if contract is not None and (contract[1] == 13 or 13 in core_rules.team_tricks(won)):
            st.weigh = (contract, won, deltas)
        win, rule = decided.winner, decided.clause
        over = type(end) is Over
        out = obj.get("outcome")
        if type(out) is not dict or not _OUTCOME_KEYS.issuperset(out):
            return None
        w = out.get("winner")
        c = out.get("clause")
        if (not (w is None if win is None else _is(w, win)) or out.get("match_over") is not over
                or (c is not None and (type(c) is not str or (win is not None and c != rule)))):
            return None
        dealer = st.table.dealer
        st.table = end.table
        if type(last) is NextDealer:
            st.dealer_clause = last.clause
        st.last_dealer, st.last_redeal = dealer, None
        st.next_hand += 1
        if over:
            st.over_rule = rule
        return end

    def _cancelled(self, now: State, ev: tuple[Event, ...], bids_want: list[Any] | None) -> State | None:
        """A deal the transition cancelled (``ev`` ends with its Cancelled and NextDealer events), its deal and bids
        already checked; ``bids_want`` [] when no bid may be given (a weak hand). Before a trump is known (all
        passed, a weak hand) none may be claimed. The match state advanced."""
        cancelled, nxt = ev[-2], ev[-1]
        if type(cancelled) is not Cancelled or type(nxt) is not NextDealer:
            return None
        st, obj = self.st, self.obj
        clause = cancelled.clause
        if (obj.get("redeal") != clause or "tricks" in obj or not _ints_are(obj.get("scores"), list(st.table.scores))
                or (bids_want is not None and self.bids != bids_want)):
            return None
        if clause != "bid.total" and (obj.get("trump") is not None or obj.get("contract", None) is not None):
            return None
        dealer = st.table.dealer
        st.table = now.table
        st.dealer_clause = nxt.clause
        st.last_dealer, st.last_redeal = dealer, clause
        st.next_hand += 1
        return now


__all__ = ["CANONICAL_KEYS", "FastLine", "fast_hand"]
