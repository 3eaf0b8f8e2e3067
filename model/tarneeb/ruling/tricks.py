"""Trump and the play of the cards: the question kinds ``trump``, ``card-legal`` and ``trick-winner``.

Every rule is the transition's, stepped from the facts (:mod:`tarneeb.ruling.steps`): trump is the one the deal
opens the bidding with, or the contract's; a trick's cards are stepped to find who plays next and who wins; a card
is legal when the transition takes it from the seat to move, and the clause it breaks is that of its refusal. Where
the facts leave a seat's hand partly unknown, the card is stepped from every hand the facts allow (one card or none
of each suit they are silent on) in every trump they allow, and the ruling is given only when all agree; else the
fact that changes it is named as missing. What is left here is the wording.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

import tarneeb.ruling.steps as steps
from tarneeb.core import clauses as core_clauses
from tarneeb.core import transition
from tarneeb.core.actions import PLAYS
from tarneeb.core.cards import CARD_BITS, NO_TRUMP, SUIT_MASKS, SUIT_NAMES, SUITS, card_str, mask_of, n_of, player_name, strain_name
from tarneeb.core.spec import Rules
from tarneeb.core.state import Contracted, Played, TrickTaken
from tarneeb.errors import IllegalPlay
from tarneeb.ruling.arithmetic import NONE, math
from tarneeb.ruling.facts import (
    check_tagged,
    dealt,
    dealt_trump,
    direction_word,
    leader_of_next,
    play_start,
    start_in,
    trick_played,
    trump_chain,
    trump_of,
    trumps,
)
from tarneeb.ruling.situation import Missing, Situation, TrickInProgress, completed_tricks, holds
from tarneeb.ruling.verdict import Decision

# ------------------------------------------------------------------ trump


def decide_trump(rules: Rules, situation: Situation) -> Decision:
    """Question ``trump``: which suit is trump (the turned card, a fixed suit, or the contract's), or that the
    bidding names it; a stated trump is checked."""
    if situation.trump is not None:
        t, chain = trump_of(rules, situation)
        opening = dealt(rules, situation)  # the contract names trump (-1), or the card turned does, or a fixed suit
        by_contract = opening.trump < 0
        named = by_contract or (opening.revealed is not None and situation.revealed is None)
        how = (f"{rules.label()} lets the contract name it" if by_contract else
               "not checked: the turned card is not given") if named else f"that agrees with {rules.label()}"
        check = ("contract" if by_contract else "unchecked") if named else "agrees"
        return Decision({"trump": "N" if t == NO_TRUMP else SUITS[t], "stated": True, "check": check},
                        f"Trump is {strain_name(t)}, as stated; {how}.", chain)
    turned, by_deal = dealt_trump(rules, situation)
    if by_deal < 0 and (situation.contract is None or situation.contract.trump is None):
        who = "the winning bid's strain fixes it" if rules.egyptian else "the winner of the bidding names it"
        return Decision({"trump": None, "named_by": "strain" if rules.egyptian else "winner"},
                        f"No card decides trump: {who}; the turned card means nothing here.",
                        trump_chain(rules))
    t, chain = trump_of(rules, situation)
    why = ""
    if turned is not None:
        why = f" (the dealer's turned card is {card_str(turned)})"
    elif by_deal >= 0:
        why = " whatever card is turned"
    arith = NONE if turned is None else math("trump-turned", card=turned, trump=t)
    answer: dict[str, Any] = {"trump": "N" if t == NO_TRUMP else SUITS[t]}
    if turned is not None:
        answer["turned"] = card_str(turned)
    elif by_deal >= 0:
        answer["fixed"] = True
    return Decision(answer, f"Trump is {strain_name(t)}{why}.", chain, arith)


# ------------------------------------------------------------------ play


def _out_of_turn(seat: int, turn: int, clause: str, what: str, why: str, facts: dict[str, Any]) -> Decision:
    """``facts``: the reason of ``why`` as answer fields (see :func:`leader_of_next`), and "lead": True when the
    seat would lead."""
    return Decision({"legal": False, "seat": seat, "turn": turn, "clause": clause,
                     "irregularity": "lead-out-of-turn", **facts},
                    f"{player_name(seat, True)} may not {what}: it is {player_name(turn)}'s turn ({why}).", (clause, "play.direction"),
                    math("not-in-turn", seat=seat, turn=turn))


def decide_card(rules: Rules, situation: Situation) -> Decision:
    """Question ``card-legal``: may the question's seat play the question's card now: in turn (the seat the
    transition has lead, or play next) and a card the transition takes from it (see :func:`_outcomes`)."""
    question = situation.question
    if question.card is None:
        raise situation.err(["question.card"], "a card-legal question names the card")
    if situation.trick is not None:
        check_tagged(rules, situation, situation.trick, "trick")
    trick = situation.trick
    leading = trick is None or (not trick.cards and trick.led is None)
    if leading:
        return _decide_lead(rules, situation, question.card)
    if trick is None:
        raise RuntimeError("a card to follow with no trick in progress")
    if len(trick.cards) >= 4:
        raise situation.err(["trick.cards", "question"], "the trick in progress already has four cards")
    if trick.cards:
        seat = trick_played(rules, situation, trick)[0].to_move
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
    return _decide_follow(rules, situation, trick, seat, question.card)


def _decide_lead(rules: Rules, situation: Situation, card: int) -> Decision:
    """A card led: by the seat the transition has lead, and one it takes (a leader may lead any card it holds)."""
    question, trick = situation.question, situation.trick
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
    name = card_str(card)
    _check_held(situation, seat, card)
    outs = _outcomes(rules, situation, seat, seat, (), card)
    if set(outs.values()) != {None}:
        raise RuntimeError(f"the leader's {name} is not legal, yet a leader may play any card")
    return Decision({"legal": True, "seat": seat, "lead": True, **expected[3]},
                    f"{player_name(seat, True)} leads ({expected[2]}), and a leader may play any card: {name} is legal.",
                    (expected[1], "play.follow"), math("leader", seat=seat))


def _decide_follow(rules: Rules, situation: Situation, trick: TrickInProgress, seat: int, card: int) -> Decision:
    """A card played to the trick in progress by ``seat``, the seat to move."""
    led = trick.led_suit()
    _check_held(situation, seat, card)
    cards = trick.cards or _stand_ins(rules, situation, trick, seat, card)
    outs = _outcomes(rules, situation, seat, trick.leader, cards, card)
    answers = set(outs.values())
    if len(answers) > 1:
        raise _missing(rules, situation, seat, led, outs)
    bad = answers.pop()
    chain = _play_chain(rules, situation, seat, trick.leader, cards, card, led)
    name = card_str(card)
    if bad is None:
        if card // 13 == led:
            text = f"{name} follows the led suit ({SUIT_NAMES[led]}): legal."
            arith = math("follows", card=card, led=led)
        else:
            text = (f"{player_name(seat, True)} holds no {SUIT_NAMES[led]}, so may play any card"
                    f"{', trump or not' if not rules.must_trump else ''}: {name} is legal.")
            arith = math("void", seat=seat, led=led)
        facts = {"reason": "follows"} if card // 13 == led else {"reason": "void", "must_trump": rules.must_trump}
        return Decision({"legal": True, "seat": seat, "led": SUITS[led], **facts}, text, chain, arith)
    arith = math("holds" if bad[0] == "play.follow" else "void-holds-trump", seat=seat, led=led)
    return Decision({"legal": False, "seat": seat, "clause": bad[0], "irregularity": "revoke", "led": SUITS[led],
                     "reason": "holds-led" if bad[0] == "play.follow" else "must-trump"},
                    f"{name} is not legal: {bad[1]}.", (bad[0],) + tuple(c for c in chain if c != bad[0]), arith)


# ------------------------------------------------------------------ what a hand could do


Outcome = tuple[str, str] | None  # the refusal's (clause, reason), None when the transition takes the card
Completion = tuple[int, frozenset[int]]  # (trump, the suits the facts are silent on that the seat holds)


def _size(situation: Situation) -> int:
    """The most cards the seat to move can hold: 13, less the tricks finished where the facts say how many."""
    return 13 - (completed_tricks(situation) or 0)


def _check_held(situation: Situation, seat: int, card: int) -> None:
    """The card asked about is held: a hand listed in full without it is a contradiction."""
    listed = situation.hands.get(seat)
    if listed is not None and card not in listed and len(listed) >= _size(situation):
        raise situation.err(["question.card", f"hands.{seat}"],
                            f"{card_str(card)} is not among the {len(listed)} cards listed for {player_name(seat)}, "
                            "which are all it holds")


def _placed(situation: Situation) -> int:
    """Every card the facts place: held, played, in a finished trick or in the trick in progress, asked about."""
    cards = [c for h in situation.hands.values() for c in h] + list(situation.played)
    cards += [c for t in situation.history for c in t.cards] + (list(situation.trick.cards) if situation.trick else [])
    return mask_of(cards) | (CARD_BITS[situation.question.card] if situation.question.card is not None else 0)


def _free(situation: Situation, taken: int, suit: int) -> int | None:
    """A card of ``suit`` the facts place nowhere and ``taken`` does not hold, or None."""
    busy = _placed(situation) | taken
    return next((c for c in range(13 * suit, 13 * suit + 13) if not busy >> c & 1), None)


def _stand_ins(rules: Rules, situation: Situation, trick: TrickInProgress, seat: int, card: int) -> tuple[int, ...]:
    """With only the led suit stated: a card of it the facts place nowhere stands for the leader's, and cards of no
    account for those of the seats between, until the transition has ``seat`` play next."""
    led = trick.led_suit()
    first = _free(situation, 0, led)
    cards = [first if first is not None else next(c for c in range(13 * led, 13 * led + 13) if c != card)]
    start = play_start(rules, situation)
    while steps.seats_in_trick(rules, start, trick.leader, cards)[0] != seat and len(cards) < 3:
        taken = mask_of(cards) | mask_of(situation.hands.get(seat, []))
        cards.append(next(c for c in range(52) if not (_placed(situation) | taken) >> c & 1))
    return tuple(cards)


def _trumps(rules: Rules, situation: Situation) -> tuple[tuple[int, ...], Missing | None]:
    """The trumps the facts allow (one, where they give it) and why trump is not known (None where it is)."""
    try:
        return (trump_of(rules, situation)[0],), None
    except Missing as e:
        return trumps(rules, situation), e


def _hands(situation: Situation, seat: int, card: int, cards: tuple[int, ...]) -> Iterator[tuple[frozenset[int], int]]:
    """Every hand the facts allow ``seat`` when it plays ``card`` after ``cards``, as far as which suits it holds
    goes: the stated cards and the card, one card or none of each suit the facts are silent on whether it holds
    (a card they place nowhere), made up to the seat's count -- where the facts say how many tricks are finished --
    with cards they place nowhere of the suits it then holds. (The suits it holds, the hand.) A choice that cannot
    be made up, or makes more cards than it can hold, is none."""
    known = mask_of(situation.hands.get(seat, [])) | CARD_BITS[card]
    unplaced = [c for c in range(52) if not (_placed(situation) | mask_of(cards) | known) >> c & 1]
    silent = [(suit, next(c for c in unplaced if c // 13 == suit)) for suit in range(4)
              if not known & SUIT_MASKS[suit] and holds(situation, seat, suit) is None
              and any(c // 13 == suit for c in unplaced)]
    exact = completed_tricks(situation) is not None
    for k in range(len(silent) + 1):
        for chosen in combinations(silent, k):
            hand = known | sum(CARD_BITS[c] for _, c in chosen)
            if exact:
                more = [c for c in unplaced if hand & SUIT_MASKS[c // 13] and not hand >> c & 1]
                need = _size(situation) - hand.bit_count()
                if need < 0 or need > len(more):
                    continue
                hand |= sum(CARD_BITS[c] for c in more[:need])
            if hand.bit_count() <= _size(situation):
                yield frozenset(suit for suit, _ in chosen), hand


def _step_card(rules: Rules, start: Contracted, leader: int, cards: tuple[int, ...], hand: int, card: int,
               seats: tuple[int, frozenset[int]]) -> Outcome:
    """The transition's answer to ``card`` from the seat to move holding ``hand``."""
    state = steps.position(rules, start, leader, cards, hand, seats)
    try:
        transition.step(rules, state, PLAYS[card])
    except IllegalPlay as e:
        return e.rule, e.reason
    return None


def _outcomes(rules: Rules, situation: Situation, seat: int, leader: int, cards: tuple[int, ...],
              card: int) -> dict[Completion, Outcome]:
    """The transition's answer to ``card`` played by ``seat`` after ``cards`` of the trick led by ``leader``, in
    every completion of the facts: every trump they allow, every hand they allow the seat (:func:`_hands`). None
    at all is a contradiction of the facts."""
    hands = list(_hands(situation, seat, card, cards))
    if not hands:
        raise situation.err([f"hands.{seat}", "question.card"],
                            f"no hand {player_name(seat)} can hold agrees with the facts and holds {card_str(card)}")
    trumps, _ = _trumps(rules, situation)
    out: dict[Completion, Outcome] = {}
    for trump in trumps:
        start = start_in(rules, situation, trump)
        seats = steps.seats_in_trick(rules, start, leader, cards)
        for held, hand in hands:
            out[(trump, held)] = _step_card(rules, start, leader, cards, hand, card, seats)
    return out


def _missing(rules: Rules, situation: Situation, seat: int, led: int, outs: dict[Completion, Outcome]) -> Exception:
    """The fact whose change changes the answer, as Missing: whether the seat holds the led suit; trump; whether it
    holds another suit (a trump, under must-trump)."""
    def turns_on(suit: int) -> bool:  # in one trump, the hands holding the suit answer otherwise than those without
        for trump in {t for t, _ in outs}:
            have = {o for (t, held), o in outs.items() if t == trump and suit in held}
            lack = {o for (t, held), o in outs.items() if t == trump and suit not in held}
            if have and lack and have != lack:
                return True
        return False

    if turns_on(led):
        return Missing(f"hands.{seat}", f"whether {player_name(seat)} holds a {SUIT_NAMES[led][:-1]} decides it; list the "
                                        "player's whole hand, or the suits the player has none of")
    trumps, why = _trumps(rules, situation)
    if why is not None and any(outs.get((t, held), o) != o for (_, held), o in outs.items() for t in trumps):
        return why
    for suit in range(4):
        if turns_on(suit):
            if len(trumps) == 1 and suit == trumps[0]:
                return Missing(f"hands.{seat}", f"whether {player_name(seat)} holds a trump ({SUIT_NAMES[suit]}) decides "
                                                "it under must-trump; list the hand, or the suits the player has none of")
            return Missing(f"hands.{seat}", f"whether {player_name(seat)} holds a {SUIT_NAMES[suit][:-1]} decides it; "
                                            "list the player's whole hand, or the suits the player has none of")
    return Missing(f"hands.{seat}", f"which cards {player_name(seat)} holds decides it; list the player's whole hand")


def _play_chain(rules: Rules, situation: Situation, seat: int, leader: int, cards: tuple[int, ...], card: int,
                led: int) -> tuple[str, ...]:
    """The clauses the card's legality turns on here: play.follow, the clauses of the refusals the card meets from
    a hand like the seat's -- as far as the led suit goes, with one card or none of every other suit, wherever the
    facts place the cards -- in every trump a hand can have, and trump.source when which suit is trump changes the
    answer."""
    base = CARD_BITS[card] | (mask_of(situation.hands.get(seat, [])) & SUIT_MASKS[led])
    busy = base | mask_of(cards)  # a hand like the seat's, whatever the facts place elsewhere
    others = [(s, next(c for c in range(13 * s, 13 * s + 13) if not busy >> c & 1))
              for s in range(4) if s != led and not base & SUIT_MASKS[s]]
    seen: set[str] = set()
    by_hand: dict[int, set[Outcome]] = {}
    for start in [start_in(rules, situation, t) for t in trumps(rules, situation)]:
        seats = steps.seats_in_trick(rules, start, leader, cards)
        for k in range(len(others) + 1):
            for chosen in combinations(others, k):
                hand = base | sum(CARD_BITS[c] for _, c in chosen)
                out = _step_card(rules, start, leader, cards, hand, card, seats)
                by_hand.setdefault(hand, set()).add(out)
                if out is not None:
                    seen.add(out[0])
    trump_matters = any(len(v) > 1 for v in by_hand.values())
    return (*sorted(seen - {"play.follow"}), "play.follow") + (("trump.source",) if trump_matters else ())


def decide_trick(rules: Rules, situation: Situation) -> Decision:
    """Question ``trick-winner``: the seat that wins the four cards of the trick in progress, and with which card,
    as the transition steps them."""
    if situation.trick is None or len(situation.trick.cards) != 4:
        raise situation.err(["trick.cards"], "a trick-winner question needs the four cards of the trick, in play order")
    check_tagged(rules, situation, situation.trick, "trick")
    trump, chain = trump_of(rules, situation)
    cards = list(situation.trick.cards)
    _, events = trick_played(rules, situation, situation.trick, trump)
    seat = next(e.trick.winner for e in events if type(e) is TrickTaken)
    played = [(e.seat, e.card) for e in events if type(e) is Played]
    c = next(x for s, x in played if s == seat)
    by = "the highest trump" if c // 13 == trump else f"the highest {SUIT_NAMES[cards[0] // 13][:-1]}"
    return Decision({"winner": seat, "card": card_str(c), "trump": "N" if trump == NO_TRUMP else SUITS[trump],
                     "by": "trump" if c // 13 == trump else "led", "led": SUITS[cards[0] // 13]},
                    f"{player_name(seat, True)} wins with {card_str(c)}, {by} (trump {strain_name(trump)}).",
                    ("play.winner",) + chain + ("play.direction",), math("trick", played=tuple(played), card=c))


__all__ = ["decide_card", "decide_trick", "decide_trump"]
