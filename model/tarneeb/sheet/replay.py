"""A score sheet replayed through core: each hand's deal opened without cards
(:func:`tarneeb.core.transition.open_unseen`), its bids or calls stepped (:func:`tarneeb.core.transition.step`), its
play ended from the tricks taken (:func:`tarneeb.core.transition.tricks_taken`). What the steps report (Called,
ContractMade, Cancelled, Scored, Decided, GameWon, MatchWon, NextDealer) is the whole result; what they refuse is the
first impossible entry (:class:`EntryError`). The words name the players by the names on the sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tarneeb.core import clauses as core_clauses
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import PASS, Bid, NameTrump
from tarneeb.core.cards import strain_name, strain_text
from tarneeb.core.spec import Rules
from tarneeb.core.state import (
    Bidding,
    Called,
    Calling,
    Cancelled,
    ContractMade,
    Decided,
    Event,
    GameWon,
    MatchWon,
    Naming,
    NextDealer,
    Over,
    Scored,
    State,
    TrumpNamed,
)
from tarneeb.errors import IllegalAction, SheetError
from tarneeb.sheet.format import Sheet, SheetHand


@dataclass(frozen=True)
class Reason:
    """Why a score moved (or did not), the outcome, the next dealer: the clause and a sentence. ``kind``: "deal"
    (a deal thrown in), "score" (a score change), "outcome" (a game or the match won), "dealer" (the next dealer).

    ``facts``: what the sentence states, by name, for words in another language to state it from (seats 0..3,
    teams 0/1, 1 for yes): a deal thrown in, ``total`` and ``threshold`` under bid.total; a seat's bid, ``seat``,
    ``bid``, ``value``, ``took``, ``made``, ``delta``; a contract, ``holder``, ``bid``, ``strain`` and ``trump``
    (-1 for none), ``team``, ``took``, ``made``, ``delta0``, ``delta1``; an outcome, ``team`` (and ``target``
    for a game won before play-on); the next dealer, ``dealer`` and ``again``."""

    kind: str
    clause: str
    text: str
    facts: dict[str, int] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class EntryError:
    """The first entry core refuses: the hand (from 1; 0 for the sheet's head), the field, the clause, why."""

    hand: int
    field: str
    clause: str
    message: str


@dataclass
class HandResult:
    """One hand replayed: who dealt, the bids or calls by seat, the contract, how the deal ended, the score
    changes with their reasons and the running scores (seats 0..3; in the auction family partners carry the team
    score), the outcome after it, who deals next."""

    number: int  # from 1
    dealer: int
    calls: list[tuple[int, Bid]] = field(default_factory=list)
    contract: tuple[int, int, int | None] | None = None
    trump: int | None = None  # 0..3, 4 no trump; None when not written down or not asked
    redeal: str | None = None  # the clause that cancelled the deal
    tricks_won: tuple[int, int, int, int] | None = None
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    reasons: list[Reason] = field(default_factory=list)
    winner: int | None = None  # the team that won the match with this hand
    outcome_clause: str = ""
    game_won: int | None = None  # a team that won a game before play-on with this hand
    target: int = 0  # the target in force after the hand
    next_dealer: int | None = None  # None once the match is over
    next_dealer_clause: str = ""


@dataclass
class SheetResult:
    """A sheet replayed: its rules and players, the hands up to the first impossible entry, the outcome."""

    sheet: Sheet
    rules: Rules
    hands: list[HandResult]
    error: EntryError | None
    start_scores: tuple[int, int, int, int]
    first_target: int
    state: State | None = None  # the match after the last hand replayed (None when the head is refused)

    @property
    def over(self) -> bool:
        return bool(self.hands) and self.hands[-1].winner is not None

    @property
    def winner(self) -> int | None:
        return self.hands[-1].winner if self.hands else None

    @property
    def winner_clause(self) -> str:
        return self.hands[-1].outcome_clause if self.over else ""

    @property
    def scores(self) -> tuple[int, int, int, int]:
        return self.hands[-1].scores if self.hands else self.start_scores

    @property
    def next_dealer(self) -> int | None:
        if self.hands:
            return self.hands[-1].next_dealer
        return None if self.error is not None else self.sheet.first_dealer


class _Refused(Exception):
    def __init__(self, error: EntryError) -> None:
        super().__init__(error.message)
        self.error = error


def score_sheet(sheet: Sheet, rules: Rules | None = None) -> SheetResult:
    """Replay ``sheet`` (under ``rules``, by default those it names: :meth:`Sheet.rules`) hand by hand, stopping at
    the first entry core refuses."""
    rules = sheet.rules() if rules is None else rules
    hands: list[HandResult] = []
    try:
        state: State = transition.start(rules, sheet.first_dealer)
    except IllegalAction as e:
        return SheetResult(sheet, rules, [], EntryError(0, "first_dealer", e.rule, e.reason), (0, 0, 0, 0), rules.target)
    start, target = state.table.scores, state.table.target
    error = None
    for k, hand in enumerate(sheet.hands, start=1):
        try:
            state, done = _hand(rules, sheet, state, k, hand, hands[-1] if hands else None)
        except _Refused as r:
            error = r.error
            break
        hands.append(done)
    return SheetResult(sheet, rules, hands, error, start, target, state)


# ------------------------------------------------------------------ one hand


def _hand(rules: Rules, sheet: Sheet, state: State, k: int, hand: SheetHand, last: HandResult | None
          ) -> tuple[State, HandResult]:
    names = sheet.players
    _family(rules, sheet, k, hand)
    done = HandResult(k, state.table.dealer)
    try:
        state, events = transition.open_unseen(rules, state, weak=hand.redeal is not None)
    except IllegalAction as e:
        if type(state) is Over and last is not None:
            raise _Refused(EntryError(k, "hand", e.rule, f"the match was over after hand {k - 1}: "
                                      f"{team_names(names, state.winner)} won it")) from None
        raise _Refused(EntryError(k, "redeal" if hand.redeal else "hand", e.rule, e.reason)) from None
    if hand.bids is not None:
        state, events = _calls(rules, names, state, events, k, "bids", hand.bids)
    elif hand.calls is not None:
        state, events = _calls(rules, names, state, events, k, "calls", hand.calls)
    elif hand.contract is not None:
        state, events = _contract(rules, names, state, events, k, hand.contract)
    if type(state) is Naming and hand.trump is not None:
        try:
            state, more = transition.step(rules, state, NameTrump(hand.trump))
        except IllegalAction as e:
            raise _Refused(EntryError(k, "trump", e.rule, e.reason)) from None
        events += more
    named = next((e.trump for e in events if type(e) is TrumpNamed), None)
    if hand.trump is not None and named is not None and named != hand.trump:  # the contract's own strain
        raise _Refused(EntryError(k, "trump", "auction.egyptian", f"the contract names {strain_name(named)} as trump, "
                                                                  f"not {strain_name(hand.trump)}"))
    cancelled = next((e for e in events if type(e) is Cancelled), None)
    trick_field = "tricks_won" if hand.tricks_won is not None or rules.individual else "bidding_team_tricks"
    won: Sequence[int] | int | None = hand.tricks_won if hand.tricks_won is not None else hand.bidding_team_tricks
    if cancelled is not None:
        if won is not None:
            raise _Refused(EntryError(k, trick_field, cancelled.clause, f"the deal was thrown in ({cancelled.why}): "
                                                                         "no tricks are taken"))
    else:
        if won is None:
            raise _Refused(EntryError(k, trick_field, "hand.tricks",
                                      "the hand is played: the tricks each player took are needed" if rules.individual
                                      else "the hand is played: the tricks the contract's team took are needed"))
        try:
            state, more = transition.tricks_taken(rules, state, won)
        except IllegalAction as e:
            raise _Refused(EntryError(k, trick_field, e.rule, e.reason)) from None
        events += more
    _read(rules, names, done, events, state)
    return state, done


def _family(rules: Rules, sheet: Sheet, k: int, hand: SheetHand) -> None:
    """The fields of the ruleset's bidding family (a shape, not a rule: the file is unusable under this ruleset)."""
    wrong = (("calls", "contract", "bidding_team_tricks", "trump") if rules.individual else ("bids",))
    for key in wrong:
        if getattr(hand, key) is not None:
            want = "bids and tricks_won" if rules.individual else "calls or contract, then bidding_team_tricks"
            raise SheetError(sheet.file, f"hand {k}: {key}", f"{rules.id} is played with {_family_words(rules)}: "
                                                             f"write {want}")


def _family_words(rules: Rules) -> str:
    return "individual bids" if rules.individual else "an auction for one contract"


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def _calls(rules: Rules, names: Sequence[str], state: State, events: tuple[Event, ...], k: int, key: str,
           calls: Sequence[Bid]) -> tuple[State, tuple[Event, ...]]:
    """The bids or calls in order, each stepped; the bidding must end with the last of them."""
    for i, bid in enumerate(calls, start=1):
        if type(state) is not Bidding and type(state) is not Calling:
            raise _Refused(EntryError(k, key, core_clauses.turn_clause(rules),
                                      f"the bidding was over after the {_ordinal(i - 1)} {_word(key)}; "
                                      f"{len(calls)} are written"))
        seat = state.to_move
        try:
            state, more = transition.step(rules, state, bid)
        except IllegalAction as e:
            raise _Refused(EntryError(k, key, e.rule, f"the {_ordinal(i)} {_word(key)}, {names[seat]}'s "
                                                      f"{bid_words(bid)}: {e.reason}")) from None
        events += more
    if type(state) is Bidding or type(state) is Calling:
        raise _Refused(EntryError(k, key, core_clauses.turn_clause(rules),
                                  f"the bidding is not over: {names[state.to_move]} is still to "
                                  f"{'bid' if key == 'bids' else 'call'}"))
    return state, events


def _word(key: str) -> str:
    return "bid" if key == "bids" else "call"


def bid_words(bid: Bid) -> str:
    """A bid or call as the sheet's words write it: ``pass``, ``7``, ``8 hearts``."""
    if bid.n is None:
        return "pass"
    return f"{bid.n}" + ("" if bid.strain is None else f" {strain_name(bid.strain)}")


def _contract(rules: Rules, names: Sequence[str], state: State, events: tuple[Event, ...], k: int,
              contract: tuple[int, Bid]) -> tuple[State, tuple[Event, ...]]:
    """An auction the transition takes that the contract's holder wins with its bid: the holder bids, every other
    call a pass where one is taken (else the first call offered); failing that, the first seat to speak opens with
    the lowest call and the holder bids over it. The first refusal of the holder's bid is the entry's error."""
    seat, bid = contract
    first: IllegalAction | None = None
    for opener in (False, True):
        now, happened, spoken, done = state, events, 0, False
        try:
            while type(now) is Calling:
                legal = transition.legal_calls(rules, now)
                if not done and now.to_move == seat:
                    call, done = bid, True
                elif opener and not spoken:
                    call = next(b for b in legal if b.n is not None)
                else:
                    call = PASS if PASS in legal else legal[0]
                now, more = transition.step(rules, now, call)
                happened += more
                spoken += 1
        except IllegalAction as e:
            first = first or e
            continue
        made = next((e.contract for e in happened if type(e) is ContractMade), None)
        if made == (seat, bid.n, bid.strain):
            return now, happened
    if first is not None:
        raise _Refused(EntryError(k, "contract", first.rule, f"{names[seat]}'s contract of {bid_words(bid)}: "
                                                             f"{first.reason}"))
    raise _Refused(EntryError(k, "contract", core_clauses.turn_clause(rules),
                              "no auction the rules allow ends in this contract"))


# ------------------------------------------------------------------ what the steps reported


def _fmt(d: int) -> str:
    return f"+{d}" if d > 0 else str(d)


def team_names(names: Sequence[str], team: int) -> str:
    """The two players of ``team`` by their names on the sheet: ``Rami and Sami``."""
    a, b = (s for s in range(4) if core_rules.team_of(s) == team)
    return f"{names[a]} and {names[b]}"


def _read(rules: Rules, names: Sequence[str], done: HandResult, events: tuple[Event, ...], state: State) -> None:
    """The hand's result from the events of its steps."""
    done.target = state.table.target
    done.scores = state.table.scores
    for e in events:
        if type(e) is Called:
            done.calls.append((e.seat, e.bid))
        elif type(e) is ContractMade:
            done.contract = e.contract
        elif type(e) is TrumpNamed:
            done.trump = e.trump
        elif type(e) is Cancelled:
            done.redeal = e.clause
            done.reasons.append(thrown_in_reason(rules, e, done.calls, state.table.scores))
        elif type(e) is Scored:
            done.tricks_won = e.tricks_won
            done.deltas = e.deltas
            done.scores = e.scores
            done.reasons += _score_reasons(rules, names, done)
        elif type(e) is Decided:
            done.outcome_clause = e.clause
        elif type(e) is GameWon:
            done.game_won = e.team
            done.reasons.append(Reason("outcome", "win.play-on",
                                       f"{team_names(names, e.team)} win a game; play goes on to {e.target}.",
                                       {"team": e.team, "target": e.target}))
        elif type(e) is MatchWon:
            done.winner = e.team
            done.outcome_clause = e.clause
            done.reasons.append(Reason("outcome", e.clause, f"{team_names(names, e.team)} win the match.",
                                       {"team": e.team}))
        elif type(e) is NextDealer:
            done.next_dealer = e.dealer
            done.next_dealer_clause = e.clause
            same = e.dealer == done.dealer
            done.reasons.append(Reason("dealer", e.clause, f"{names[e.dealer]} deals {'again' if same else 'next'}.",
                                       {"dealer": e.dealer, "again": int(same)}))


def thrown_in_reason(rules: Rules, e: Cancelled, calls: Sequence[tuple[int, Bid]], scores: Sequence[int]) -> Reason:
    """The reason of a deal thrown in (``e``) after ``calls`` (seat, bid) at ``scores``: under bid.total, core's
    numbers, the bids' sum and the total in force."""
    facts = {}
    if e.clause == "bid.total":
        bids = [0, 0, 0, 0]
        for seat, b in calls:
            bids[seat] = b.n or 0
        facts = dict(zip(("total", "threshold"), core_rules.bid_total(rules, bids, scores), strict=True))
    return Reason("deal", e.clause, f"The deal is thrown in: {e.why}; no score changes.", facts)


def _score_reasons(rules: Rules, names: Sequence[str], done: HandResult) -> list[Reason]:
    """Each score change in words, with the clause that scores it (core's numbers: the bid's value, made or not,
    the scoring clause of the contract)."""
    won = done.tricks_won or (0, 0, 0, 0)
    d = done.deltas
    if done.contract is None:
        out = []
        for seat, b in done.calls:
            n = b.n or 0
            value = core_rules.bid_value(rules, n)
            made = core_rules.bid_made(n, won[seat])
            worth = "" if value == n else f" (a bid of {n} is worth {value})"
            out.append(Reason("score", core_clauses.individual_bid_clause(rules, n),
                              f"{names[seat]} bid {n}{worth} and took {won[seat]}: "
                              f"{'made' if made else 'failed'}, {_fmt(d[seat])}.",
                              {"seat": seat, "bid": n, "value": value, "took": won[seat], "made": int(made),
                               "delta": d[seat]}))
        return out
    holder, n, strain = done.contract
    team = core_rules.team_of(holder)
    took = core_rules.team_tricks(won)[team]
    made = core_rules.bid_made(n, took)
    bid = f"{n}" + ("" if strain is None else f" {strain_name(strain)}")
    named = f" and named {strain_name(done.trump)} trump" if strain is None and done.trump is not None else ""
    facts = {"holder": holder, "bid": n, "strain": -1 if strain is None else strain,
             "trump": -1 if strain is not None or done.trump is None else done.trump, "team": team, "took": took,
             "made": int(made), "delta0": d[0], "delta1": d[1]}
    return [Reason("score", core_clauses.score_clause(rules, done.contract, won),
                   f"{names[holder]} won the auction with {bid}{named}; {team_names(names, team)} took {took} of 13: "
                   f"{'made' if made else 'failed'}. {team_names(names, 0)} {_fmt(d[0])}, {team_names(names, 1)} {_fmt(d[1])}.",
                   facts)]


def result_dict(res: SheetResult) -> dict[str, Any]:
    """A replayed sheet as JSON (``tarneeb score --json``; a page shows the same): each hand's dealer, calls, contract,
    score changes, running scores, reasons, outcome and next dealer, then the match's. Seats 0..3 in the sheet's order
    of players, teams 0 (seats 0 and 2) and 1, hands from 1."""

    def bid(b: Bid) -> str:
        return "pass" if b.n is None else f"{b.n}" + ("" if b.strain is None else strain_text(b.strain) or "")

    hands = []
    for h in res.hands:
        hands.append({
            "hand": h.number, "dealer": h.dealer, "calls": [[s, bid(b)] for s, b in h.calls],
            "contract": None if h.contract is None else {"seat": h.contract[0], "bid": f"{h.contract[1]}"
                                                          + (strain_text(h.contract[2]) or "")},
            "trump": strain_text(h.trump), "redeal": h.redeal,
            "tricks_won": None if h.tricks_won is None else list(h.tricks_won),
            "deltas": list(h.deltas), "scores": list(h.scores),
            "reasons": [{"kind": r.kind, "clause": r.clause, "text": r.text} for r in h.reasons],
            "outcome": {"winner": h.winner, "clause": h.outcome_clause, "match_over": h.winner is not None,
                        "game_won": h.game_won, "target": h.target},
            "next_dealer": h.next_dealer, "next_dealer_clause": h.next_dealer_clause or None,
        })
    err = res.error
    return {
        "format": "tarneeb-score-sheet-result", "version": 1,
        "numbering": "seats 0-3 in the sheet's order of players, teams 0 (seats 0 and 2) and 1, hands from 1",
        "ruleset": res.rules.id, "label": res.rules.label(), "players": list(res.sheet.players),
        "first_dealer": res.sheet.first_dealer, "start_scores": list(res.start_scores), "hands": hands,
        "scores": list(res.scores), "outcome": {"winner": res.winner, "clause": res.winner_clause or None,
                                                "match_over": res.over},
        "next_dealer": res.next_dealer,
        "error": None if err is None else {"hand": err.hand or None, "field": err.field, "clause": err.clause,
                                           "message": err.message},
    }


__all__ = ["EntryError", "HandResult", "Reason", "SheetResult", "result_dict", "score_sheet"]
