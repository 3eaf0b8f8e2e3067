"""The facts a question needs and their checks against one ruleset, shared by every question kind.

Which facts a ruling needs (:class:`~tarneeb.ruling.situation.Missing` when one is not given), whether the facts
fit the ruleset's bidding family (:class:`~tarneeb.ruling.situation.NotApplicable`: these are the reasons
``spec/i18n/ar-ruling.toml`` [ruling.not-applicable] words in Arabic), and the checks of stated facts against the
ruleset (a stated trump, the finished tricks in turn, stated bids); trump, the next leader and the auction as the
rule core gives them (:func:`tarneeb.core.hand.deal_trump`, :func:`tarneeb.core.hand.hand_leader`, a
:class:`~tarneeb.core.match.Match` built with :meth:`~tarneeb.core.match.Match.at`).
"""

from __future__ import annotations

from typing import Any

from tarneeb.core import clauses as C
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.actions import Deal
from tarneeb.core.cards import NO_TRUMP, card_str, player_name, strain_name
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction
from tarneeb.ruling.situation import Missing, NotApplicable, Situation, TrickInProgress, completed_tricks

# ------------------------------------------------------------------ facts a ruleset needs


def need_dealer(s: Situation) -> int:
    if s.dealer is None:
        raise Missing("dealer", "say which player deals")
    return s.dealer


def family_check(r: Rules, s: Situation, uses_bids: bool) -> None:
    """Raise NotApplicable when the facts are of the other bidding family."""
    if r.individual:
        if uses_bids and s.bids is None and (s.contract is not None or s.auction is not None):
            raise NotApplicable("the situation describes an auction and a contract; this ruleset has "
                                "individual bids")
        if s.scores is not None and len(s.scores) == 2:
            raise NotApplicable("the situation gives team scores; this ruleset scores each player")
    else:
        if uses_bids and s.bids is not None and s.contract is None and s.auction is None:
            raise NotApplicable("the situation gives each player's own bid; this ruleset has a team auction")
        if s.scores is not None and len(s.scores) == 4 and (
                s.scores[0] != s.scores[2] or s.scores[1] != s.scores[3]):
            raise NotApplicable("the situation gives partners different personal scores; this ruleset keeps "
                                "one score per team")


def contract_of(s: Situation) -> tuple[int, int, int | None] | None:
    """The stated contract as the core takes it: (seat, tricks, strain)."""
    return None if s.contract is None else (s.contract.seat, s.contract.bid, s.contract.trump)


# ------------------------------------------------------------------ trump


def _deck_turning(card: int | None) -> tuple[int, ...]:
    """A deck whose 52nd card, the dealer's 13th (the turned card), is ``card`` (any deck when None)."""
    if card is None:
        return tuple(range(52))
    return (*(c for c in range(52) if c != card), card)


def dealt_trump(r: Rules, s: Situation) -> tuple[int | None, int]:
    """(the turned card the ruleset reads, trump 0..3 or -1 when the contract names it) after the deal."""
    turned, trump = H.deal_trump(r, _deck_turning(s.revealed))
    if turned is not None and s.revealed is None:
        raise Missing("revealed", "the dealer's turned card decides trump under this ruleset")
    return turned, trump


def trump_chain(r: Rules) -> tuple[str, ...]:
    return tuple(dict.fromkeys(("trump.source", C.trump_clause(r))))


def check_stated_trump(r: Rules, s: Situation) -> None:
    """A trump stated directly must be the one the ruleset gives (a contradiction for this ruleset otherwise)."""
    if s.trump is None:
        return
    if r.trump_source == "fixed" or (r.trump_source.startswith("revealed") and s.revealed is not None):
        turned, dealt = H.deal_trump(r, _deck_turning(s.revealed))
        if dealt != s.trump:
            why = f"the turned card {card_str(turned)} makes it {strain_name(dealt)}" if turned is not None else \
                f"{strain_name(dealt)} is always trump"
            raise s.err(["trump"] + (["revealed"] if turned is not None else []),
                        f"trump is stated as {strain_name(s.trump)}, but under {r.label()} {why} "
                        f"[{C.trump_clause(r)}]")
    elif s.trump == NO_TRUMP and not r.egyptian:
        raise s.err(["trump"], f"no trump is stated, but under {r.label()} a hand always has a trump suit "
                               "[trump.source]")


def trump_of(r: Rules, s: Situation) -> tuple[int, tuple[str, ...]]:
    """(trump 0..3 / 4 no trump, clauses) under ``r`` for the situation."""
    if s.trump is not None:
        check_stated_trump(r, s)
        return s.trump, trump_chain(r)
    _, trump = dealt_trump(r, s)
    if trump < 0:
        if s.contract is None or s.contract.trump is None:
            raise Missing("contract.trump", "the contract holder names trump under this ruleset")
        trump = s.contract.trump
    return trump, trump_chain(r)


# ------------------------------------------------------------------ the turn of play


def leader_of_next(r: Rules, s: Situation) -> tuple[int, str, str, dict[str, Any]] | None:
    """(seat, clause, why) of the seat that leads the trick after the finished ones, or None when the facts do
    not tell: the winner of the last trick of ``history`` (play.next-lead), else, when no finished trick is
    stated, the first leader (:func:`tarneeb.core.hand.hand_leader`, play.lead) from the dealer and, in the
    auction family, the contract. The last item gives the reason as answer fields ("reason": "last-trick",
    "first-bidder" or "contract", with the numbers the English ``why`` states)."""
    if len(s.history) >= 13:
        raise s.err(["history"], "all 13 tricks are finished: no trick is left to lead")
    if s.history:
        last = s.history[-1]
        trump, _ = trump_of(r, s)
        w = H.trick_winner_seat(r, last.leader, list(last.cards), trump)
        return (w, C.lead_clause(len(s.history)), f"{player_name(w)} won the last trick ({len(s.history)})",
                {"reason": "last-trick", "tricks_done": len(s.history)})
    done = completed_tricks(s)
    if done:
        return None
    if s.dealer is None:
        return None
    if r.individual:
        seat = H.hand_leader(r, s.dealer, None)
        return (seat, C.lead_clause(0), f"the first bidder, after the dealer ({player_name(s.dealer)}), leads the first trick",
                {"reason": "first-bidder", "dealer": s.dealer})
    if s.contract is None:
        raise Missing("contract", "the contract holder leads the first trick under this ruleset")
    seat = H.hand_leader(r, s.dealer, (s.contract.seat, s.contract.bid, s.contract.trump))
    return (seat, C.lead_clause(0), f"the contract holder ({player_name(seat)}) leads the first trick",
            {"reason": "contract"})


def direction_word(r: Rules) -> str:
    """The direction of play (play.direction) as the verdicts word it."""
    return "counter-clockwise" if r.step == 1 else "clockwise"


def check_tagged(r: Rules, s: Situation, trick: TrickInProgress, fld: str) -> None:
    """Seat-tagged cards must follow the direction of play from the leader (play.direction)."""
    for i, st in enumerate(trick.seats):
        want = H.trick_turn(r, trick.leader, i)
        if st is not None and st != want:
            raise s.err([f"{fld}.cards[{i}].seat", f"{fld}.leader"],
                        f"card {i + 1} of the trick led by {player_name(trick.leader)} is {player_name(want)}'s under {r.label()} "
                        f"({direction_word(r)}), not {player_name(st)}'s "
                        "[play.direction]")


def check_history(r: Rules, s: Situation) -> None:
    """Finished tricks in turn: seat tags in the direction of play, each trick led by the winner of the one
    before (play.next-lead), the first by the first leader when the dealer is known (play.lead)."""
    for i, h in enumerate(s.history):
        check_tagged(r, s, h, f"history[{i}]")
    if not s.history:
        return
    if s.dealer is not None and not s.played and (r.individual or s.contract is not None):
        first = H.hand_leader(r, s.dealer, contract_of(s))
        if s.history[0].leader != first:
            raise s.err(["history[0].leader", "dealer"],
                        f"the first trick was led by {player_name(s.history[0].leader)}, but under {r.label()} {player_name(first)} "
                        f"leads it [play.lead]")
    try:
        trump, _ = trump_of(r, s)
    except Missing:
        return
    for i in range(1, len(s.history)):
        prev = s.history[i - 1]
        w = H.trick_winner_seat(r, prev.leader, list(prev.cards), trump)
        if s.history[i].leader != w:
            raise s.err([f"history[{i}].leader", f"history[{i - 1}]"],
                        f"{player_name(w)} won trick {i} under {r.label()} (trump {strain_name(trump)}), so {player_name(w)} leads "
                        f"trick {i + 1}, not {player_name(s.history[i].leader)} [play.next-lead]")


# ------------------------------------------------------------------ bidding


def check_individual_bids(r: Rules, s: Situation) -> None:
    """Check stated bids against the ruleset (a stated bid must have been legal)."""
    if s.bids is None:
        return
    for seat, b in enumerate(s.bids):
        if b is None:
            continue
        score = s.scores[seat] if s.scores is not None else 0
        bad = R.bid_violation(r, score, b)
        if bad is not None:
            raise s.err([f"bids.{seat}"] + (["scores"] if bad[0] == "bid.rising-min" else []),
                        f"a bid of {b} cannot have been made under {r.label()}: {bad[1]} [{bad[0]}]")


def auction_match(r: Rules, s: Situation) -> Match:
    """A match at the stated dealer and scores with the stated calls applied (the engine checks every call)."""
    dealer = need_dealer(s)
    scores = None if s.scores is None else [s.scores[0], s.scores[1], s.scores[0], s.scores[1]]
    m = Match.at(r, dealer, scores)
    # Any deck will do for the auction; this one gives every seat all 13 ranks (no weak hand).
    m.apply(Deal(tuple(range(52))))
    for i, call in enumerate(s.auction or []):
        if m.phase is not Phase.BIDDING:
            raise s.err([f"auction[{i}]"], "the auction was already over before this call")
        try:
            m.apply(call)
        except IllegalAction as e:
            raise s.err([f"auction[{i}]"], f"{call} by {player_name(e.seat)} cannot have been made under {r.label()}: "
                                           f"{e.reason} [{e.rule}]") from None
    return m


def individual_turn(r: Rules, s: Situation) -> int | None:
    """Whose bid it is from the dealer and the bids made (None without a dealer); stated bids that skip a seat
    are a contradiction (bid.turn)."""
    if s.dealer is None:
        return None
    have = [k for k in range(4) if s.bids is not None and s.bids[k] is not None]
    nxt, early = H.bid_turn(r, s.dealer, have)
    if early is not None:
        raise s.err([f"bids.{early}", "dealer"],
                    f"{player_name(early)} has bid, but {player_name(nxt)} bids before it "
                    f"(the dealer is {player_name(s.dealer)}) under {r.label()} "
                    f"[{C.turn_clause(r)}]")
    if nxt is None:
        raise s.err(["bids", "question"], "all four have bid: no bid is left to make")
    return nxt


def all_bids(s: Situation) -> list[int]:
    if s.bids is None or any(b is None for b in s.bids):
        raise Missing("bids", "all four bids are needed")
    return [b for b in s.bids if b is not None]


__all__ = [
    "all_bids", "auction_match", "check_history", "check_individual_bids", "check_stated_trump", "check_tagged",
    "contract_of", "dealt_trump", "direction_word", "family_check", "individual_turn", "leader_of_next",
    "need_dealer", "trump_chain", "trump_of",
]
