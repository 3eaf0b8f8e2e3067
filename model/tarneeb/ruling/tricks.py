"""Trump and the play of the cards: the question kinds ``trump``, ``card-legal`` and ``trick-winner``.

Every rule is the rule core's: trump after the deal (:func:`tarneeb.core.hand.deal_trump`), the legal cards
(:func:`tarneeb.core.rules.legal_play_mask`, the clause a card breaks from :func:`tarneeb.core.rules.play_violation`),
the trick's winning seat (:func:`tarneeb.core.hand.trick_winner_seat`); what is left here is the wording.
"""

from __future__ import annotations

from typing import Any

from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.cards import NO_TRUMP, SUIT_NAMES, SUITS, card_str, mask_of, n_of, player_name, strain_name
from tarneeb.core.spec import Rules
from tarneeb.ruling.facts import check_tagged, dealt_trump, direction_word, leader_of_next, trump_chain, trump_of
from tarneeb.ruling.situation import Missing, Situation, completed_tricks, holds
from tarneeb.ruling.verdict import Decision

# ------------------------------------------------------------------ trump


def decide_trump(rules: Rules, situation: Situation) -> Decision:
    """Question ``trump``: which suit is trump (the turned card, a fixed suit, or the contract's), or that the
    bidding names it; a stated trump is checked."""
    if situation.trump is not None:
        t, chain = trump_of(rules, situation)
        named = rules.trump_source == "contract" or (rules.trump_source.startswith("revealed") and situation.revealed is None)
        how = (f"{rules.label()} lets the contract name it" if rules.trump_source == "contract" else
               "not checked: the turned card is not given") if named else f"that agrees with {rules.label()}"
        check = ("contract" if rules.trump_source == "contract" else "unchecked") if named else "agrees"
        return Decision({"trump": "N" if t == NO_TRUMP else SUITS[t], "stated": True, "check": check},
                        f"Trump is {strain_name(t)}, as stated; {how}.", chain)
    turned, dealt = dealt_trump(rules, situation)
    if dealt < 0 and (situation.contract is None or situation.contract.trump is None):
        who = "the winning bid's strain fixes it" if rules.egyptian else "the winner of the bidding names it"
        return Decision({"trump": None, "named_by": "strain" if rules.egyptian else "winner"},
                        f"No card decides trump: {who}; the turned card means nothing here.",
                        trump_chain(rules))
    t, chain = trump_of(rules, situation)
    why = ""
    if turned is not None:
        why = f" (the dealer's turned card is {card_str(turned)})"
    elif dealt >= 0:
        why = " whatever card is turned"
    math = ""
    if turned is not None:
        math = f"turned {card_str(turned)} ({SUIT_NAMES[turned // 13]}) -> trump {strain_name(t)}"
    answer: dict[str, Any] = {"trump": "N" if t == NO_TRUMP else SUITS[t]}
    if turned is not None:
        answer["turned"] = card_str(turned)
    elif dealt >= 0:
        answer["fixed"] = True
    return Decision(answer, f"Trump is {strain_name(t)}{why}.", chain, math)


# ------------------------------------------------------------------ play


def _out_of_turn(seat: int, turn: int, clause: str, what: str, why: str, facts: dict[str, Any]) -> Decision:
    """``facts``: the reason of ``why`` as answer fields (see :func:`leader_of_next`), and "lead": True when the
    seat would lead."""
    return Decision({"legal": False, "seat": seat, "turn": turn, "clause": clause,
                     "irregularity": "lead-out-of-turn", **facts},
                    f"{player_name(seat, True)} may not {what}: it is {player_name(turn)}'s turn ({why}).", (clause, "play.direction"),
                    f"{player_name(seat)} != {player_name(turn)}")


def decide_card(rules: Rules, situation: Situation) -> Decision:
    """Question ``card-legal``: may the question's seat play the question's card now: in turn (the leader or the
    next seat in the direction of play) and following suit (or trumping under must-trump) when able."""
    question = situation.question
    if question.card is None:
        raise situation.err(["question.card"], "a card-legal question names the card")
    if situation.trick is not None:
        check_tagged(rules, situation, situation.trick, "trick")
    trick = situation.trick
    leading = trick is None or (not trick.cards and trick.led is None)
    name = card_str(question.card)
    if leading:
        seat = question.seat if question.seat is not None else (trick.leader if trick is not None else None)
        if seat is None:
            raise Missing("question.seat", "say which seat plays the card")
        expected = leader_of_next(rules, situation)
        if expected is not None and expected[0] != seat:
            return _out_of_turn(seat, expected[0], expected[1], "lead", expected[2], {"lead": True, **expected[3]})
        if trick is not None and trick.leader != seat:
            return _out_of_turn(seat, trick.leader, "play.direction", "lead", f"{player_name(trick.leader)} leads",
                                {"lead": True, "reason": "stated"})
        if expected is None:
            if trick is None and situation.dealer is None:
                raise Missing("dealer", "the dealer (and in the auction family the contract) decides who leads")
            if trick is None:
                raise Missing("history", "who won the last trick decides who leads; give the finished tricks")
            expected = (trick.leader, core_clauses.lead_clause(completed_tricks(situation) or 0), "as stated", {"reason": "stated"})
        hand = mask_of(situation.hands.get(seat, [])) | (1 << question.card)
        legal = bool(core_rules.legal_play_mask(rules, hand, -1, -1) >> question.card & 1)
        if not legal:
            raise RuntimeError(f"the leader's {name} is not legal, yet a leader may play any card")
        return Decision({"legal": True, "seat": seat, "lead": True, **expected[3]},
                        f"{player_name(seat, True)} leads ({expected[2]}), and a leader may play any card: {name} is legal.",
                        (expected[1], "play.follow"), f"leader = {player_name(seat)}")
    if trick is None:
        raise RuntimeError("a card to follow with no trick in progress")
    if len(trick.cards) >= 4:
        raise situation.err(["trick.cards", "question"], "the trick in progress already has four cards")
    if trick.cards:
        seat = core_hand.trick_turn(rules, trick.leader, len(trick.cards))
        if question.seat is not None and question.seat != seat:
            way = direction_word(rules)
            return _out_of_turn(question.seat, seat, "play.direction", "play now",
                                f"after {n_of(len(trick.cards), 'card')} led by {player_name(trick.leader)}, {way}",
                                {"reason": "direction", "cards": len(trick.cards), "leader": trick.leader,
                                 "direction": way})
    else:  # the led suit is stated without its card
        if question.seat is None:
            raise Missing("question.seat", "with only the led suit stated, say which seat plays")
        if question.seat == trick.leader:
            raise situation.err(["question.seat", "trick.leader"], "the leader has already led this trick")
        seat = question.seat
    for other in range(4):
        if other != seat and question.card in situation.hands.get(other, []):
            raise situation.err(["question.card", f"hands.{other}"],
                                f"{card_str(question.card)} is in {player_name(other)}'s hand, but it is {player_name(seat)}'s turn")
    led = trick.led_suit()
    trump = -1
    chain: tuple[str, ...] = ("play.follow",)
    if question.card // 13 != led:
        has_led = holds(situation, seat, led)
        if has_led is None:
            raise Missing(f"hands.{seat}",
                          f"whether {player_name(seat)} holds a {SUIT_NAMES[led][:-1]} decides it; list the player's whole "
                          f"hand or add voids.{seat}")
        if not has_led and rules.must_trump:
            trump, _ = trump_of(rules, situation)
            chain = ("play.must-trump", "play.follow", "trump.source")
            if trump < 4 and question.card // 13 != trump and holds(situation, seat, trump) is None:
                raise Missing(f"hands.{seat}", f"whether {player_name(seat)} holds a trump ({SUIT_NAMES[trump]}) decides "
                                               f"it under must-trump; list the hand or add voids.{seat}")
    hand = mask_of(situation.hands.get(seat, [])) | (1 << question.card)
    legal = bool(core_rules.legal_play_mask(rules, hand, led, trump) >> question.card & 1)
    if legal:
        if question.card // 13 == led:
            text = f"{name} follows the led suit ({SUIT_NAMES[led]}): legal."
            math = f"{name} is a {SUIT_NAMES[led][:-1]}, the led suit"
        else:
            text = (f"{player_name(seat, True)} holds no {SUIT_NAMES[led]}, so may play any card"
                    f"{', trump or not' if not rules.must_trump else ''}: {name} is legal.")
            math = f"{player_name(seat)} is void in {SUIT_NAMES[led]}"
        facts = {"reason": "follows"} if question.card // 13 == led else {"reason": "void", "must_trump": rules.must_trump}
        return Decision({"legal": True, "seat": seat, "led": SUITS[led], **facts}, text, chain, math)
    bad = core_rules.play_violation(rules, hand, led, trump, question.card)
    if bad is None:
        raise RuntimeError(f"{name} is not legal, yet no clause is broken")
    math = (f"{player_name(seat)} holds a {SUIT_NAMES[led][:-1]}" if bad[0] == "play.follow"
            else f"{player_name(seat)} is void in {SUIT_NAMES[led]} and holds a trump")
    return Decision({"legal": False, "seat": seat, "clause": bad[0], "irregularity": "revoke", "led": SUITS[led],
                     "reason": "holds-led" if bad[0] == "play.follow" else "must-trump"},
                    f"{name} is not legal: {bad[1]}.", (bad[0],) + tuple(c for c in chain if c != bad[0]), math)


def decide_trick(rules: Rules, situation: Situation) -> Decision:
    """Question ``trick-winner``: the seat that wins the four cards of the trick in progress, and with which card."""
    if situation.trick is None or len(situation.trick.cards) != 4:
        raise situation.err(["trick.cards"], "a trick-winner question needs the four cards of the trick, in play order")
    check_tagged(rules, situation, situation.trick, "trick")
    trump, chain = trump_of(rules, situation)
    cards = list(situation.trick.cards)
    seat = core_hand.trick_winner_seat(rules, situation.trick.leader, cards, trump)
    c = cards[core_rules.trick_winner(cards, trump)]
    by = "the highest trump" if c // 13 == trump else f"the highest {SUIT_NAMES[cards[0] // 13][:-1]}"
    leader = situation.trick.leader
    order = " ".join(f"{card_str(x)}({player_name(core_hand.trick_turn(rules, leader, i))})" for i, x in enumerate(cards))
    return Decision({"winner": seat, "card": card_str(c), "trump": "N" if trump == NO_TRUMP else SUITS[trump],
                     "by": "trump" if c // 13 == trump else "led", "led": SUITS[cards[0] // 13]},
                    f"{player_name(seat, True)} wins with {card_str(c)}, {by} (trump {strain_name(trump)}).",
                    ("play.winner",) + chain + ("play.direction",), f"{order}: {card_str(c)} wins")


__all__ = ["decide_card", "decide_trick", "decide_trump"]
