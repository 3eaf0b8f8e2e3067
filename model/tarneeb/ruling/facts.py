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

from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Deal
from tarneeb.core.cards import NO_TRUMP, card_str, player_name, strain_name
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction
from tarneeb.ruling.situation import Missing, NotApplicable, Situation, TrickInProgress, completed_tricks

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


def _deck_turning(card: int | None) -> tuple[int, ...]:
    """A deck whose 52nd card, the dealer's 13th (the turned card), is ``card`` (any deck when None)."""
    if card is None:
        return tuple(range(52))
    return (*(c for c in range(52) if c != card), card)


def dealt_trump(rules: Rules, situation: Situation) -> tuple[int | None, int]:
    """(the turned card the ruleset reads, trump 0..3 or -1 when the contract names it) after the deal."""
    turned, trump = core_hand.deal_trump(rules, _deck_turning(situation.revealed))
    if turned is not None and situation.revealed is None:
        raise Missing("revealed", "the dealer's turned card decides trump under this ruleset")
    return turned, trump


def trump_chain(rules: Rules) -> tuple[str, ...]:
    """The clauses that decide trump under ``rules`` (trump.source, then the rule of its source)."""
    return tuple(dict.fromkeys(("trump.source", core_clauses.trump_clause(rules))))


def check_stated_trump(rules: Rules, situation: Situation) -> None:
    """A trump stated directly must be the one the ruleset gives (a contradiction for this ruleset otherwise)."""
    if situation.trump is None:
        return
    if rules.trump_source == "fixed" or (rules.trump_source.startswith("revealed") and situation.revealed is not None):
        turned, dealt = core_hand.deal_trump(rules, _deck_turning(situation.revealed))
        if dealt != situation.trump:
            why = f"the turned card {card_str(turned)} makes it {strain_name(dealt)}" if turned is not None else \
                f"{strain_name(dealt)} is always trump"
            raise situation.err(["trump"] + (["revealed"] if turned is not None else []),
                                f"trump is stated as {strain_name(situation.trump)}, but under {rules.label()} {why} "
                                f"[{core_clauses.trump_clause(rules)}]")
    elif situation.trump == NO_TRUMP and not rules.egyptian:
        raise situation.err(["trump"], f"no trump is stated, but under {rules.label()} a hand always has a trump suit "
                                       "[trump.source]")


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


def leader_of_next(rules: Rules, situation: Situation) -> tuple[int, str, str, dict[str, Any]] | None:
    """(seat, clause, why) of the seat that leads the trick after the finished ones, or None when the facts do
    not tell: the winner of the last trick of ``history`` (play.next-lead), else, when no finished trick is
    stated, the first leader (:func:`tarneeb.core.hand.hand_leader`, play.lead) from the dealer and, in the
    auction family, the contract. The last item gives the reason as answer fields ("reason": "last-trick",
    "first-bidder" or "contract", with the numbers the English ``why`` states)."""
    if len(situation.history) >= 13:
        raise situation.err(["history"], "all 13 tricks are finished: no trick is left to lead")
    if situation.history:
        last = situation.history[-1]
        trump, _ = trump_of(rules, situation)
        w = core_hand.trick_winner_seat(rules, last.leader, list(last.cards), trump)
        return (w, core_clauses.lead_clause(len(situation.history)), f"{player_name(w)} won the last trick ({len(situation.history)})",
                {"reason": "last-trick", "tricks_done": len(situation.history)})
    done = completed_tricks(situation)
    if done:
        return None
    if situation.dealer is None:
        return None
    if rules.individual:
        seat = core_hand.hand_leader(rules, situation.dealer, None)
        return (seat, core_clauses.lead_clause(0),
                f"the first bidder, after the dealer ({player_name(situation.dealer)}), leads the first trick",
                {"reason": "first-bidder", "dealer": situation.dealer})
    if situation.contract is None:
        raise Missing("contract", "the contract holder leads the first trick under this ruleset")
    seat = core_hand.hand_leader(rules, situation.dealer, (situation.contract.seat, situation.contract.bid, situation.contract.trump))
    return (seat, core_clauses.lead_clause(0), f"the contract holder ({player_name(seat)}) leads the first trick",
            {"reason": "contract"})


def direction_word(rules: Rules) -> str:
    """The direction of play (play.direction) as the verdicts word it."""
    return "counter-clockwise" if rules.step == 1 else "clockwise"


def check_tagged(rules: Rules, situation: Situation, trick: TrickInProgress, fld: str) -> None:
    """Seat-tagged cards must follow the direction of play from the leader (play.direction)."""
    for i, st in enumerate(trick.seats):
        want = core_hand.trick_turn(rules, trick.leader, i)
        if st is not None and st != want:
            raise situation.err([f"{fld}.cards[{i}].seat", f"{fld}.leader"],
                                f"card {i + 1} of the trick led by {player_name(trick.leader)} is {player_name(want)}'s under "
                                f"{rules.label()} ({direction_word(rules)}), not {player_name(st)}'s "
                                "[play.direction]")


def check_history(rules: Rules, situation: Situation) -> None:
    """Finished tricks in turn: seat tags in the direction of play, each trick led by the winner of the one
    before (play.next-lead), the first by the first leader when the dealer is known (play.lead)."""
    for i, h in enumerate(situation.history):
        check_tagged(rules, situation, h, f"history[{i}]")
    if not situation.history:
        return
    if situation.dealer is not None and not situation.played and (rules.individual or situation.contract is not None):
        first = core_hand.hand_leader(rules, situation.dealer, contract_of(situation))
        if situation.history[0].leader != first:
            raise situation.err(["history[0].leader", "dealer"],
                                f"the first trick was led by {player_name(situation.history[0].leader)}, but under "
                                f"{rules.label()} {player_name(first)} leads it [play.lead]")
    try:
        trump, _ = trump_of(rules, situation)
    except Missing:
        return
    for i in range(1, len(situation.history)):
        prev = situation.history[i - 1]
        w = core_hand.trick_winner_seat(rules, prev.leader, list(prev.cards), trump)
        if situation.history[i].leader != w:
            raise situation.err([f"history[{i}].leader", f"history[{i - 1}]"],
                                f"{player_name(w)} won trick {i} under {rules.label()} (trump {strain_name(trump)}), so "
                                f"{player_name(w)} leads trick {i + 1}, not {player_name(situation.history[i].leader)} "
                                "[play.next-lead]")


# ------------------------------------------------------------------ bidding


def check_individual_bids(rules: Rules, situation: Situation) -> None:
    """Check stated bids against the ruleset (a stated bid must have been legal)."""
    if situation.bids is None:
        return
    for seat, b in enumerate(situation.bids):
        if b is None:
            continue
        score = situation.scores[seat] if situation.scores is not None else 0
        bad = core_rules.bid_violation(rules, score, b)
        if bad is not None:
            raise situation.err([f"bids.{seat}"] + (["scores"] if bad[0] == "bid.rising-min" else []),
                                f"a bid of {b} cannot have been made under {rules.label()}: {bad[1]} [{bad[0]}]")


def auction_match(rules: Rules, situation: Situation) -> Match:
    """A match at the stated dealer and scores with the stated calls applied (the engine checks every call)."""
    dealer = need_dealer(situation)
    scores = None if situation.scores is None else [situation.scores[0], situation.scores[1], situation.scores[0], situation.scores[1]]
    m = Match.at(rules, dealer, scores)
    # Any deck will do for the auction; this one gives every seat all 13 ranks (no weak hand).
    m.apply(Deal(tuple(range(52))))
    for i, call in enumerate(situation.auction or []):
        if m.phase is not Phase.BIDDING:
            raise situation.err([f"auction[{i}]"], "the auction was already over before this call")
        try:
            m.apply(call)
        except IllegalAction as e:
            raise situation.err([f"auction[{i}]"], f"{call} by {player_name(e.seat)} cannot have been made under {rules.label()}: "
                                                   f"{e.reason} [{e.rule}]") from None
    return m


def individual_turn(rules: Rules, situation: Situation) -> int | None:
    """Whose bid it is from the dealer and the bids made (None without a dealer); stated bids that skip a seat
    are a contradiction (bid.turn)."""
    if situation.dealer is None:
        return None
    have = [k for k in range(4) if situation.bids is not None and situation.bids[k] is not None]
    nxt, early = core_hand.bid_turn(rules, situation.dealer, have)
    if early is not None:
        raise situation.err([f"bids.{early}", "dealer"],
                            f"{player_name(early)} has bid, but {player_name(nxt)} bids before it "
                            f"(the dealer is {player_name(situation.dealer)}) under {rules.label()} "
                            f"[{core_clauses.turn_clause(rules)}]")
    if nxt is None:
        raise situation.err(["bids", "question"], "all four have bid: no bid is left to make")
    return nxt


def all_bids(situation: Situation) -> list[int]:
    """The four individual bids (:class:`Missing` unless all four are given)."""
    if situation.bids is None or any(b is None for b in situation.bids):
        raise Missing("bids", "all four bids are needed")
    return [b for b in situation.bids if b is not None]


__all__ = [
    "all_bids", "auction_match", "check_history", "check_individual_bids", "check_stated_trump", "check_tagged",
    "contract_of", "dealt_trump", "direction_word", "family_check", "individual_turn", "leader_of_next",
    "need_dealer", "outcome_scores", "trump_chain", "trump_of",
]


def total_scores(rules: Rules, situation: Situation) -> list[int]:
    """The scores a deal is played on, as the bid total in force needs them (bid.total): the situation's, or zeros
    where the total does not depend on them."""
    if situation.scores is None and core_rules.total_in_force(rules, [0, 0, 0, 0]) != core_rules.total_in_force(
            rules, [10**6] * 4):
        raise Missing("scores", "the scores set the bid total under this ruleset")
    return list(situation.scores) if situation.scores is not None else [0, 0, 0, 0]
