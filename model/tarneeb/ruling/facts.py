"""The facts a question needs and their checks against one ruleset, shared by every question kind.

Which facts a ruling needs (:class:`~tarneeb.ruling.situation.Missing` when one is not given), whether the facts
fit the ruleset's bidding family (:class:`~tarneeb.ruling.situation.NotApplicable`: these are the reasons
``spec/i18n/ar-ruling.toml`` [ruling.not-applicable] words in Arabic), and the checks of stated facts against the
ruleset (a stated trump, the finished tricks in turn, stated bids); trump, the next leader, the turn to bid and the
auction as the transition gives them, stepped from the facts by :mod:`tarneeb.ruling.steps` (the event that opened
the bidding, the seat to move after a trick or a bid, the refusal of a stated bid or call).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import tarneeb.ruling.steps as steps
from tarneeb.core import clauses as core_clauses
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.cards import NO_TRUMP, card_str, player_name, strain_name
from tarneeb.core.sources import rule_words
from tarneeb.core.spec import Rules
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Calling,
    Contracted,
    ContractMade,
    Dealing,
    Event,
    Played,
    Playing,
    State,
    TrickTaken,
)
from tarneeb.errors import IllegalAction, IllegalBid
from tarneeb.ruling.situation import Missing, NotApplicable, Situation, TrickInProgress, completed_tricks

T = TypeVar("T")

# ------------------------------------------------------------------ what the referee stepped, kept


def kept(rules: Rules, situation: Situation, key: object, make: Callable[[], T]) -> T:
    """``make()`` -- states the referee steps from these facts under ``rules`` (a start of the play, the trumps a
    hand can have) -- kept on the situation for that rules object, as one ruling asks for them several times."""
    at = (id(rules), key)
    hit = situation.kept.get(at)
    if hit is not None and hit[0] is rules:
        return hit[1]  # type: ignore[return-value]
    value = make()
    situation.kept[at] = (rules, value)
    return value


def trumps(rules: Rules, situation: Situation) -> tuple[int, ...]:
    """Every trump a hand can be played in under ``rules`` (:func:`tarneeb.ruling.steps.trumps`)."""
    dealer = situation.dealer or 0
    return kept(rules, situation, ("trumps", dealer), lambda: steps.trumps(rules, dealer))


def start_in(rules: Rules, situation: Situation, trump: int) -> Contracted:
    """A start of the play in ``trump`` after a deal by the stated dealer, any where none is stated
    (:func:`tarneeb.ruling.steps.start`)."""
    dealer = situation.dealer or 0
    return kept(rules, situation, ("start", dealer, trump), lambda: steps.start(rules, dealer, trump))


# ------------------------------------------------------------------ facts a ruleset needs


def need_dealer(situation: Situation) -> int:
    """The dealer the situation states (:class:`Missing` when it does not)."""
    if situation.dealer is None:
        raise Missing("dealer", "say which player deals")
    return situation.dealer


def family_check(rules: Rules, situation: Situation, uses_bids: bool) -> None:
    """Raise NotApplicable when the facts are of the other bidding family."""
    if rules.individual:
        if uses_bids and situation.bids is None and (situation.contract is not None or situation.auction is not None):
            raise NotApplicable("the situation describes an auction and a contract; this ruleset has "
                                "individual bids")
        if (sc := _family_scores(situation)) is not None and len(sc) == 2:
            raise NotApplicable("the situation gives team scores; this ruleset scores each player")
    else:
        if uses_bids and situation.bids is not None and situation.contract is None and situation.auction is None:
            raise NotApplicable("the situation gives each player's own bid; this ruleset has a team auction")
        if (sc := _family_scores(situation)) is not None and len(sc) == 4 and (sc[0] != sc[2] or sc[1] != sc[3]):
            raise NotApplicable("the situation gives partners different personal scores; this ruleset keeps "
                                "one score per team")


def _family_scores(situation: Situation) -> list[int] | None:
    """The scores that show the family of the situation: those before the hand, else those after it (when both are
    given, :func:`tarneeb.ruling.scoring.check_score_change` checks the ones after against the ones before)."""
    return situation.scores if situation.scores is not None else situation.scores_after


def outcome_scores(situation: Situation) -> list[int] | None:
    """The scores an outcome is judged on when no hand is scored here: those after the hand when the situation gives
    them (the question is about the state after it), else the scores it states."""
    return situation.scores_after if situation.scores_after is not None else situation.scores


def contract_of(situation: Situation) -> tuple[int, int, int | None] | None:
    """The stated contract as the core takes it: (seat, tricks, strain)."""
    return None if situation.contract is None else (situation.contract.seat, situation.contract.bid, situation.contract.trump)


# ------------------------------------------------------------------ trump


def dealt(rules: Rules, situation: Situation) -> BiddingOpened:
    """The event that opened the bidding after a deal by the stated dealer (any, where none is stated) turning the
    stated card (any, where none is stated): the card the ruleset shows, and trump (-1 when the contract names it)."""
    return kept(rules, situation, "dealt", lambda: steps.opened(rules, situation.dealer or 0, None, situation.revealed)[1])


def dealt_trump(rules: Rules, situation: Situation) -> tuple[int | None, int]:
    """(the turned card the ruleset reads, trump 0..3 or -1 when the contract names it) after the deal."""
    opening = dealt(rules, situation)
    if opening.revealed is not None and situation.revealed is None:
        raise Missing("revealed", "the dealer's turned card decides trump under this ruleset")
    return opening.revealed, opening.trump


def trump_chain(rules: Rules) -> tuple[str, ...]:
    """The clauses that decide trump under ``rules`` (trump.source, then the rule of its source)."""
    return tuple(dict.fromkeys(("trump.source", core_clauses.trump_clause(rules))))


def check_stated_trump(rules: Rules, situation: Situation) -> None:
    """A trump stated directly must be the one the ruleset gives (a contradiction for this ruleset otherwise): the
    deal's, where it decides trump (a fixed suit, or the stated turned card's), else one a hand can be played in."""
    if situation.trump is None:
        return
    opening = dealt(rules, situation)
    if opening.trump >= 0 and (opening.revealed is None or situation.revealed is not None):
        turned, trump = opening.revealed, opening.trump
        if trump != situation.trump:
            why = f"the turned card {card_str(turned)} makes it {strain_name(trump)}" if turned is not None else \
                f"{strain_name(trump)} is always trump"
            raise situation.err(["trump"] + (["revealed"] if turned is not None else []),
                                f"trump is stated as {strain_name(situation.trump)}, but under {rules.label()} {why} "
                                f"[{rule_words(core_clauses.trump_clause(rules))}]")
    elif situation.trump not in trumps(rules, situation):
        if situation.trump == NO_TRUMP:
            raise situation.err(["trump"], f"no trump is stated, but under {rules.label()} a hand always has a trump "
                                           "suit [trump.source]")
        raise situation.err(["trump"], f"trump is stated as {strain_name(situation.trump)}, but under {rules.label()} "
                                       "no hand is played in it [trump.source]")


def trump_of(rules: Rules, situation: Situation) -> tuple[int, tuple[str, ...]]:
    """(trump 0..3 / 4 no trump, clauses) under ``rules`` for the situation."""
    if situation.trump is not None:
        check_stated_trump(rules, situation)
        return situation.trump, trump_chain(rules)
    _, trump = dealt_trump(rules, situation)
    if trump < 0:
        if situation.contract is None or situation.contract.trump is None:
            raise Missing("contract.trump", "the contract holder names trump under this ruleset")
        trump = situation.contract.trump
    return trump, trump_chain(rules)


# ------------------------------------------------------------------ the turn of play


def play_start(rules: Rules, situation: Situation, trump: int | None = None) -> Contracted:
    """A start of the play in ``trump`` (None: the first trump a hand can have; the caller asks only what no trump
    changes) after a deal by the stated dealer (any, where none is stated) (:func:`tarneeb.ruling.steps.start`)."""
    if trump is not None:
        return start_in(rules, situation, trump)

    def any_trump() -> Contracted:
        state = steps.start_of_play(rules, situation.dealer or 0)[0]
        if type(state) is not Playing:
            raise RuntimeError("a start of the play that is not the play")
        return state.start
    return kept(rules, situation, "start", any_trump)


def trick_played(rules: Rules, situation: Situation, trick: TrickInProgress, trump: int | None = None,
                 start: Contracted | None = None) -> tuple[State, tuple[Event, ...]]:
    """The cards of ``trick`` stepped in play order (:func:`tarneeb.ruling.steps.play_in_turn`) from ``start`` (else
    :func:`play_start` in ``trump``): the state after (its seat to move is the next to play, or to lead), and the
    events (who played each card, who won)."""
    return steps.play_in_turn(rules, start or play_start(rules, situation, trump), trick.leader, trick.cards)


def trick_winner(rules: Rules, situation: Situation, trick: TrickInProgress, trump: int,
                 start: Contracted | None = None) -> tuple[int, int]:
    """(the seat that wins the four cards of ``trick``, the seat that leads next), as the transition steps them."""
    state, events = trick_played(rules, situation, trick, trump, start)
    taken = next(e for e in events if type(e) is TrickTaken)
    return taken.trick.winner, state.to_move


def _last_won(rules: Rules, situation: Situation) -> tuple[int, int]:
    """(who won the last finished trick, who leads next), in every trump the facts allow: where trump is not known
    and the trumps a hand can have answer differently, trump is missing."""
    try:
        allowed: tuple[int, ...] = (trump_of(rules, situation)[0],)
        unknown = None
    except Missing as e:
        allowed, unknown = trumps(rules, situation), e
    got = {trick_winner(rules, situation, situation.history[-1], t) for t in allowed}
    if len(got) > 1 and unknown is not None:
        raise unknown
    return got.pop()


def first_leader(rules: Rules, situation: Situation) -> int:
    """Who leads the first trick after the stated dealer's deal (and, in the auction family, contract: a contract
    stated to an individual-bid ruleset is no fact of its hand)."""
    if situation.dealer is None:
        raise RuntimeError("the first leader asked without a dealer")
    return steps.first_leader(rules, situation.dealer, None if rules.individual else contract_of(situation))


def leader_of_next(rules: Rules, situation: Situation) -> tuple[int, str, str, dict[str, Any]] | None:
    """(seat, clause, why) of the seat that leads the trick after the finished ones, or None when the facts do
    not tell: the seat to move after the last trick of ``history`` (play.next-lead; in every trump the facts allow),
    else, when no finished trick is stated, the first leader from the dealer and, in the auction family, the
    contract (play.lead), as the transition gives them. The last item gives the reason as answer fields
    ("reason": "last-trick", "first-bidder" or "contract", with the numbers the English ``why`` states)."""
    if len(situation.history) >= 13:
        raise situation.err(["history"], "all 13 tricks are finished: no trick is left to lead")
    if situation.history:
        won, w = _last_won(rules, situation)
        n = len(situation.history)
        return (w, core_clauses.lead_clause(n), f"{player_name(won)} won the last trick ({n})",
                {"reason": "last-trick", "tricks_done": n})
    done = completed_tricks(situation)
    if done:
        return None
    if situation.dealer is None:
        return None
    if rules.individual:
        seat = steps.first_leader(rules, situation.dealer, None)
        return (seat, core_clauses.lead_clause(0),
                f"the first bidder, after the dealer ({player_name(situation.dealer)}), leads the first trick",
                {"reason": "first-bidder", "dealer": situation.dealer})
    if situation.contract is None and situation.auction is not None:
        contract = auction_contract(rules, situation)
        seat = steps.first_leader(rules, situation.dealer, contract)
        return (seat, core_clauses.lead_clause(0),
                f"the auction ends with {player_name(contract[0])}'s bid of {contract[1]} as the contract, and the "
                "contract holder leads the first trick",
                {"reason": "auction", "contract": {"seat": contract[0], "bid": contract[1]}})
    if situation.contract is None:
        raise Missing("contract", "the contract holder leads the first trick under this ruleset")
    seat = first_leader(rules, situation)
    return (seat, core_clauses.lead_clause(0), f"the contract holder ({player_name(seat)}) leads the first trick",
            {"reason": "contract"})


def direction_word(rules: Rules) -> str:
    """The direction of play (play.direction) as the verdicts word it."""
    return "counter-clockwise" if rules.step == 1 else "clockwise"


def check_tagged(rules: Rules, situation: Situation, trick: TrickInProgress, fld: str) -> None:
    """Seat-tagged cards must be those of the seats the transition has play them, in turn from the leader
    (play.direction)."""
    if not trick.seats:
        return
    _, events = trick_played(rules, situation, trick)
    seats = [e.seat for e in events if type(e) is Played]
    for i, st in enumerate(trick.seats):
        want = seats[i]
        if st is not None and st != want:
            raise situation.err([f"{fld}.cards[{i}].seat", f"{fld}.leader"],
                                f"card {i + 1} of the trick led by {player_name(trick.leader)} is {player_name(want)}'s under "
                                f"{rules.label()} ({direction_word(rules)}), not {player_name(st)}'s "
                                "[play.direction]")


def check_history(rules: Rules, situation: Situation) -> None:
    """Finished tricks in turn: seat tags in the direction of play, each trick led by the seat the transition has
    lead after the one before (play.next-lead), the first by the first leader when the dealer is known (play.lead)."""
    for i, h in enumerate(situation.history):
        check_tagged(rules, situation, h, f"history[{i}]")
    if not situation.history:
        return
    if situation.dealer is not None and not situation.played and (rules.individual or situation.contract is not None):
        first = first_leader(rules, situation)
        if situation.history[0].leader != first:
            raise situation.err(["history[0].leader", "dealer"],
                                f"the first trick was led by {player_name(situation.history[0].leader)}, but under "
                                f"{rules.label()} {player_name(first)} leads it [play.lead]")
    try:
        trump, _ = trump_of(rules, situation)
    except Missing:
        return
    start = play_start(rules, situation, trump)
    for i in range(1, len(situation.history)):
        won, w = trick_winner(rules, situation, situation.history[i - 1], trump, start)
        if situation.history[i].leader != w:
            raise situation.err([f"history[{i}].leader", f"history[{i - 1}]"],
                                f"{player_name(won)} won trick {i} under {rules.label()} (trump {strain_name(trump)}), so "
                                f"{player_name(w)} leads trick {i + 1}, not {player_name(situation.history[i].leader)} "
                                "[play.next-lead]")


# ------------------------------------------------------------------ bidding


def seat_scores(situation: Situation) -> list[int] | None:
    """The four seat scores the stated scores give a table (two team scores: each carried by both partners)."""
    sc = situation.scores
    if sc is None:
        return None
    return list(sc) if len(sc) == 4 else [sc[0], sc[1], sc[0], sc[1]]


def opened(rules: Rules, situation: Situation, scores: list[int] | None,
           dealer: int | None = None) -> tuple[Bidding | Calling, BiddingOpened]:
    """The bidding open after a deal by ``dealer`` (the stated one, else any) at ``scores``
    (:func:`tarneeb.ruling.steps.opened`); scores no table can have are a contradiction of the facts."""
    try:
        return steps.opened(rules, situation.dealer or 0 if dealer is None else dealer, scores)
    except IllegalAction as e:
        raise situation.err(["scores"], f"no table of {rules.label()} has these scores: {e.reason} [{e.rule}]") from None


def stated_bids(situation: Situation) -> dict[int, int]:
    """The individual bids stated, by seat."""
    return {seat: b for seat, b in enumerate(situation.bids or []) if b is not None}


def _cannot(rules: Rules, situation: Situation, seat: int, b: int, e: IllegalAction) -> Exception:
    return situation.err([f"bids.{seat}"] + (["scores"] if e.rule == "bid.rising-min" else []),
                         f"a bid of {b} cannot have been made under {rules.label()}: {e.reason} [{e.rule}]")


def check_individual_bids(rules: Rules, situation: Situation) -> None:
    """Check stated bids against the ruleset: each stated bid, stepped at its seat's turn (the seats before it making
    the first bid the transition offers them), is one the transition takes."""
    for seat, b in sorted(stated_bids(situation).items()):
        state = steps.to_bid(rules, opened(rules, situation, situation.scores)[0], seat, {})
        try:
            transition.step(rules, state, steps.bid_of(b))
        except IllegalBid as e:
            raise _cannot(rules, situation, seat, b, e) from None


def bids_in_turn(rules: Rules, situation: Situation) -> tuple[State, tuple[Event, ...]]:
    """The stated individual bids stepped in turn from the stated dealer's deal while the seat to bid has one
    (:func:`tarneeb.ruling.steps.in_turn`): the state reached and the events; a stated bid the transition refuses is a
    contradiction."""
    stated = stated_bids(situation)
    try:
        return steps.in_turn(rules, opened(rules, situation, situation.scores)[0], stated)
    except IllegalBid as e:
        seat = e.seat if e.seat is not None else -1
        raise _cannot(rules, situation, seat, stated.get(seat, 0), e) from None


def auction(rules: Rules, situation: Situation) -> tuple[State, tuple[Event, ...]]:
    """The auction after the stated dealer's deal at the stated scores, its stated calls stepped in order (the
    transition checks each): the state after the last, with the events of every step."""
    dealer = need_dealer(situation)
    state: State = opened(rules, situation, seat_scores(situation), dealer)[0]
    happened: tuple[Event, ...] = ()
    for i, call in enumerate(situation.auction or []):
        if type(state) is not Calling:
            raise situation.err([f"auction[{i}]"], "the auction was already over before this call")
        try:
            state, events = transition.step(rules, state, call)
        except IllegalAction as e:
            raise situation.err([f"auction[{i}]"], f"{call} by {player_name(e.seat)} cannot have been made under {rules.label()}: "
                                                   f"{e.reason} [{e.rule}]") from None
        happened += events
    return state, happened


def auction_contract(rules: Rules, situation: Situation) -> tuple[int, int, int | None]:
    """The contract the stated auction ends with, as the transition makes it (the ContractMade of
    :func:`auction`'s steps): (seat, tricks, strain or None while the holder has still to name trump). An auction
    not over yet leaves the contract :class:`Missing`; one where all passed has none (the deal is cancelled)."""
    state, events = auction(rules, situation)
    made = [e.contract for e in events if type(e) is ContractMade]
    if made:
        return made[-1]
    if type(state) is Calling:
        raise Missing("auction", f"the auction is not over: {player_name(state.to_move)} calls next, and the "
                                 "contract it ends with decides who leads")
    if type(state) is Dealing:
        raise situation.err(["auction"], f"all passed, so the deal is cancelled and {player_name(state.table.dealer)} "
                                         f"deals again under {rules.label()} "
                                         f"[{core_clauses.redeal_clause(rules)}]: no one leads")
    raise RuntimeError(f"an auction ended without a contract in {type(state).__name__}")


def individual_turn(rules: Rules, situation: Situation) -> int | None:
    """Whose bid it is from the dealer and the bids made (None without a dealer): the seat to bid once the stated
    bids are stepped in turn; a stated bid of a seat the transition would reach only later is a contradiction
    (bid.turn)."""
    if situation.dealer is None:
        return None
    stated = stated_bids(situation)
    state, _ = bids_in_turn(rules, situation)
    if type(state) is not Bidding:
        raise situation.err(["bids", "question"], "all four have bid: no bid is left to make")
    nxt = state.to_move
    probe: State = state
    while type(probe) is Bidding:
        if probe.to_move in stated:
            early = probe.to_move
            raise situation.err([f"bids.{early}", "dealer"],
                                f"{player_name(early)} has bid, but {player_name(nxt)} bids before it "
                                f"(the dealer is {player_name(situation.dealer)}) under {rules.label()} "
                                f"[{rule_words(core_clauses.turn_clause(rules))}]")
        probe, _ = transition.step(rules, probe, transition.legal_actions(rules, probe)[0])
    return nxt


def all_bids(situation: Situation) -> list[int]:
    """The four individual bids (:class:`Missing` unless all four are given)."""
    if situation.bids is None or any(b is None for b in situation.bids):
        raise Missing("bids", "all four bids are needed")
    return [b for b in situation.bids if b is not None]


__all__ = [
    "all_bids", "auction", "auction_contract", "bids_in_turn", "check_history", "check_individual_bids", "check_stated_trump",
    "check_tagged", "contract_of", "dealt", "dealt_trump", "direction_word", "family_check", "first_leader",
    "individual_turn", "leader_of_next", "need_dealer", "opened", "outcome_scores", "play_start", "seat_scores",
    "stated_bids", "total_scores", "trick_played", "trick_winner", "trump_chain", "trump_of",
]


def total_scores(rules: Rules, situation: Situation) -> list[int]:
    """The scores a deal is played on, as the bid total in force needs them (bid.total): the situation's, or zeros
    where the total does not depend on them."""
    if situation.scores is None and core_rules.total_in_force(rules, [0, 0, 0, 0]) != core_rules.total_in_force(
            rules, [10**6] * 4):
        raise Missing("scores", "the scores set the bid total under this ruleset")
    return list(situation.scores) if situation.scores is not None else [0, 0, 0, 0]
