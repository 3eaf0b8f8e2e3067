"""Deciding one question of a situation under one ruleset: :func:`decide` gives a :class:`Decision`.

Every rule is the rule core's: the single decisions of :mod:`tarneeb.core.rules`, the steps of a hand of
:mod:`tarneeb.core.hand` (trump after the deal, the trick's winning seat, a hand's score changes, its outcome,
the next dealer), the auction played through a :class:`~tarneeb.core.match.Match` built with
:meth:`~tarneeb.core.match.Match.at`, and the clause cited from :mod:`tarneeb.core.clauses`. What is left here
is the referee's own work: which facts a question needs (:class:`~tarneeb.ruling.situation.Missing` when one is
not given), whether the facts fit the ruleset's family
(:class:`~tarneeb.ruling.situation.NotApplicable`), the checks of stated facts against the ruleset, and the
wording of the ruling.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.core import clauses as C
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.actions import Deal
from tarneeb.core.cards import NO_TRUMP, SUIT_NAMES, SUITS, card_str, mask_of, n_of, player_name, strain_name, team_label
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction
from tarneeb.ruling.situation import Missing, NotApplicable, Situation, TrickInProgress, completed_tricks, holds


@dataclass(frozen=True, slots=True)
class Decision:
    answer: dict[str, Any]
    text: str
    chain: tuple[str, ...]  # deciding clause first
    math: str = ""  # the arithmetic or the comparison that decides, e.g. "combined 55 = 55"


@dataclass(frozen=True, slots=True)
class ClauseRef:
    id: str
    text: str
    doc: str
    heading: str

    def to_json(self) -> dict[str, str]:
        """The clause as a JSON object: id, text, document and heading."""
        return {"id": self.id, "text": self.text, "doc": self.doc, "heading": self.heading}


def clause_refs(r: Rules, chain: Sequence[str]) -> tuple[ClauseRef, ...]:
    """The ruleset's clauses of ``chain``, in order, each once (ids the ruleset lacks are left out)."""
    out: list[ClauseRef] = []
    seen: set[str] = set()
    for cid in chain:
        c = r.ruleset.clauses.get(cid)
        if c is None or cid in seen:
            continue
        seen.add(cid)
        out.append(ClauseRef(c.id, c.text, c.doc, c.heading))
    return tuple(out)


# ------------------------------------------------------------------ wording


def team_name(team: int) -> str:
    """A team with its players, e.g. ``team 1 (player 1 and player 3)``."""
    return f"{team_label(team)} ({player_name(team)} and {player_name(team + 2)})"


def fmt_delta(d: int) -> str:
    """A score change with its sign (``+10``, ``-8``, ``0``)."""
    return f"+{d}" if d > 0 else str(d)


def _bid_text(n: int | None, strain: int | None) -> str:
    return "a pass" if n is None else f"a bid of {n}{'' if strain is None else ' ' + strain_name(strain)}"


# ------------------------------------------------------------------ facts a ruleset needs


def _need_dealer(s: Situation) -> int:
    if s.dealer is None:
        raise Missing("dealer", "say which player deals")
    return s.dealer


def _family_check(r: Rules, s: Situation, uses_bids: bool) -> None:
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


def _contract(s: Situation) -> tuple[int, int, int | None] | None:
    """The stated contract as the core takes it: (seat, tricks, strain)."""
    return None if s.contract is None else (s.contract.seat, s.contract.bid, s.contract.trump)


# ------------------------------------------------------------------ trump


def _deck_turning(card: int | None) -> tuple[int, ...]:
    """A deck whose 52nd card, the dealer's 13th (the turned card), is ``card`` (any deck when None)."""
    if card is None:
        return tuple(range(52))
    return (*(c for c in range(52) if c != card), card)


def _dealt_trump(r: Rules, s: Situation) -> tuple[int | None, int]:
    """(the turned card the ruleset reads, trump 0..3 or -1 when the contract names it) after the deal."""
    turned, trump = H.deal_trump(r, _deck_turning(s.revealed))
    if turned is not None and s.revealed is None:
        raise Missing("revealed", "the dealer's turned card decides trump under this ruleset")
    return turned, trump


def _trump_chain(r: Rules) -> tuple[str, ...]:
    return tuple(dict.fromkeys(("trump.source", C.trump_clause(r))))


def _check_stated_trump(r: Rules, s: Situation) -> None:
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


def _trump(r: Rules, s: Situation) -> tuple[int, tuple[str, ...]]:
    """(trump 0..3 / 4 no trump, clauses) under ``r`` for the situation."""
    if s.trump is not None:
        _check_stated_trump(r, s)
        return s.trump, _trump_chain(r)
    _, trump = _dealt_trump(r, s)
    if trump < 0:
        if s.contract is None or s.contract.trump is None:
            raise Missing("contract.trump", "the contract holder names trump under this ruleset")
        trump = s.contract.trump
    return trump, _trump_chain(r)


def _decide_trump(r: Rules, s: Situation) -> Decision:
    if s.trump is not None:
        t, chain = _trump(r, s)
        named = r.trump_source == "contract" or (r.trump_source.startswith("revealed") and s.revealed is None)
        how = (f"{r.label()} lets the contract name it" if r.trump_source == "contract" else
               "not checked: the turned card is not given") if named else f"that agrees with {r.label()}"
        check = ("contract" if r.trump_source == "contract" else "unchecked") if named else "agrees"
        return Decision({"trump": "N" if t == NO_TRUMP else SUITS[t], "stated": True, "check": check},
                        f"Trump is {strain_name(t)}, as stated; {how}.", chain)
    turned, dealt = _dealt_trump(r, s)
    if dealt < 0 and (s.contract is None or s.contract.trump is None):
        who = "the winning bid's strain fixes it" if r.egyptian else "the winner of the bidding names it"
        return Decision({"trump": None, "named_by": "strain" if r.egyptian else "winner"},
                        f"No card decides trump: {who}; the turned card means nothing here.",
                        _trump_chain(r))
    t, chain = _trump(r, s)
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
        trump, _ = _trump(r, s)
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


def _check_tagged(r: Rules, s: Situation, trick: TrickInProgress, fld: str) -> None:
    """Seat-tagged cards must follow the direction of play from the leader (play.direction)."""
    for i, st in enumerate(trick.seats):
        want = H.trick_turn(r, trick.leader, i)
        if st is not None and st != want:
            raise s.err([f"{fld}.cards[{i}].seat", f"{fld}.leader"],
                        f"card {i + 1} of the trick led by {player_name(trick.leader)} is {player_name(want)}'s under {r.label()} "
                        f"({direction_word(r)}), not {player_name(st)}'s "
                        "[play.direction]")


def _check_history(r: Rules, s: Situation) -> None:
    """Finished tricks in turn: seat tags in the direction of play, each trick led by the winner of the one
    before (play.next-lead), the first by the first leader when the dealer is known (play.lead)."""
    for i, h in enumerate(s.history):
        _check_tagged(r, s, h, f"history[{i}]")
    if not s.history:
        return
    if s.dealer is not None and not s.played and (r.individual or s.contract is not None):
        first = H.hand_leader(r, s.dealer, _contract(s))
        if s.history[0].leader != first:
            raise s.err(["history[0].leader", "dealer"],
                        f"the first trick was led by {player_name(s.history[0].leader)}, but under {r.label()} {player_name(first)} "
                        f"leads it [play.lead]")
    try:
        trump, _ = _trump(r, s)
    except Missing:
        return
    for i in range(1, len(s.history)):
        prev = s.history[i - 1]
        w = H.trick_winner_seat(r, prev.leader, list(prev.cards), trump)
        if s.history[i].leader != w:
            raise s.err([f"history[{i}].leader", f"history[{i - 1}]"],
                        f"{player_name(w)} won trick {i} under {r.label()} (trump {strain_name(trump)}), so {player_name(w)} leads "
                        f"trick {i + 1}, not {player_name(s.history[i].leader)} [play.next-lead]")


def _out_of_turn(seat: int, turn: int, clause: str, what: str, why: str, facts: dict[str, Any]) -> Decision:
    """``facts``: the reason of ``why`` as answer fields (see :func:`leader_of_next`), and "lead": True when the
    seat would lead."""
    return Decision({"legal": False, "seat": seat, "turn": turn, "clause": clause,
                     "irregularity": "lead-out-of-turn", **facts},
                    f"{player_name(seat, True)} may not {what}: it is {player_name(turn)}'s turn ({why}).", (clause, "play.direction"),
                    f"{player_name(seat)} != {player_name(turn)}")


def _decide_card(r: Rules, s: Situation) -> Decision:
    q = s.question
    if q.card is None:
        raise s.err(["question.card"], "a card-legal question names the card")
    if s.trick is not None:
        _check_tagged(r, s, s.trick, "trick")
    trick = s.trick
    leading = trick is None or (not trick.cards and trick.led is None)
    name = card_str(q.card)
    if leading:
        seat = q.seat if q.seat is not None else (trick.leader if trick is not None else None)
        if seat is None:
            raise Missing("question.seat", "say which seat plays the card")
        expected = leader_of_next(r, s)
        if expected is not None and expected[0] != seat:
            return _out_of_turn(seat, expected[0], expected[1], "lead", expected[2], {"lead": True, **expected[3]})
        if trick is not None and trick.leader != seat:
            return _out_of_turn(seat, trick.leader, "play.direction", "lead", f"{player_name(trick.leader)} leads",
                                {"lead": True, "reason": "stated"})
        if expected is None:
            if trick is None and s.dealer is None:
                raise Missing("dealer", "the dealer (and in the auction family the contract) decides who leads")
            if trick is None:
                raise Missing("history", "who won the last trick decides who leads; give the finished tricks")
            expected = (trick.leader, C.lead_clause(completed_tricks(s) or 0), "as stated", {"reason": "stated"})
        hand = mask_of(s.hands.get(seat, [])) | (1 << q.card)
        legal = bool(R.legal_play_mask(r, hand, -1, -1) >> q.card & 1)
        if not legal:
            raise RuntimeError(f"the leader's {name} is not legal, yet a leader may play any card")
        return Decision({"legal": True, "seat": seat, "lead": True, **expected[3]},
                        f"{player_name(seat, True)} leads ({expected[2]}), and a leader may play any card: {name} is legal.",
                        (expected[1], "play.follow"), f"leader = {player_name(seat)}")
    if trick is None:
        raise RuntimeError("a card to follow with no trick in progress")
    if len(trick.cards) >= 4:
        raise s.err(["trick.cards", "question"], "the trick in progress already has four cards")
    if trick.cards:
        seat = H.trick_turn(r, trick.leader, len(trick.cards))
        if q.seat is not None and q.seat != seat:
            way = direction_word(r)
            return _out_of_turn(q.seat, seat, "play.direction", "play now",
                                f"after {n_of(len(trick.cards), 'card')} led by {player_name(trick.leader)}, {way}",
                                {"reason": "direction", "cards": len(trick.cards), "leader": trick.leader,
                                 "direction": way})
    else:  # the led suit is stated without its card
        if q.seat is None:
            raise Missing("question.seat", "with only the led suit stated, say which seat plays")
        if q.seat == trick.leader:
            raise s.err(["question.seat", "trick.leader"], "the leader has already led this trick")
        seat = q.seat
    for other in range(4):
        if other != seat and q.card in s.hands.get(other, []):
            raise s.err(["question.card", f"hands.{other}"],
                        f"{card_str(q.card)} is in {player_name(other)}'s hand, but it is {player_name(seat)}'s turn")
    led = trick.led_suit()
    trump = -1
    chain: tuple[str, ...] = ("play.follow",)
    if q.card // 13 != led:
        has_led = holds(s, seat, led)
        if has_led is None:
            raise Missing(f"hands.{seat}",
                          f"whether {player_name(seat)} holds a {SUIT_NAMES[led][:-1]} decides it; list the player's whole "
                          f"hand or add voids.{seat}")
        if not has_led and r.must_trump:
            trump, _ = _trump(r, s)
            chain = ("play.must-trump", "play.follow", "trump.source")
            if trump < 4 and q.card // 13 != trump and holds(s, seat, trump) is None:
                raise Missing(f"hands.{seat}", f"whether {player_name(seat)} holds a trump ({SUIT_NAMES[trump]}) decides "
                                               f"it under must-trump; list the hand or add voids.{seat}")
    hand = mask_of(s.hands.get(seat, [])) | (1 << q.card)
    legal = bool(R.legal_play_mask(r, hand, led, trump) >> q.card & 1)
    if legal:
        if q.card // 13 == led:
            text = f"{name} follows the led suit ({SUIT_NAMES[led]}): legal."
            math = f"{name} is a {SUIT_NAMES[led][:-1]}, the led suit"
        else:
            text = (f"{player_name(seat, True)} holds no {SUIT_NAMES[led]}, so may play any card"
                    f"{', trump or not' if not r.must_trump else ''}: {name} is legal.")
            math = f"{player_name(seat)} is void in {SUIT_NAMES[led]}"
        facts = {"reason": "follows"} if q.card // 13 == led else {"reason": "void", "must_trump": r.must_trump}
        return Decision({"legal": True, "seat": seat, "led": SUITS[led], **facts}, text, chain, math)
    bad = R.play_violation(r, hand, led, trump, q.card)
    if bad is None:
        raise RuntimeError(f"{name} is not legal, yet no clause is broken")
    math = (f"{player_name(seat)} holds a {SUIT_NAMES[led][:-1]}" if bad[0] == "play.follow"
            else f"{player_name(seat)} is void in {SUIT_NAMES[led]} and holds a trump")
    return Decision({"legal": False, "seat": seat, "clause": bad[0], "irregularity": "revoke", "led": SUITS[led],
                     "reason": "holds-led" if bad[0] == "play.follow" else "must-trump"},
                    f"{name} is not legal: {bad[1]}.", (bad[0],) + tuple(c for c in chain if c != bad[0]), math)


def _decide_trick(r: Rules, s: Situation) -> Decision:
    if s.trick is None or len(s.trick.cards) != 4:
        raise s.err(["trick.cards"], "a trick-winner question needs the four cards of the trick, in play order")
    _check_tagged(r, s, s.trick, "trick")
    trump, chain = _trump(r, s)
    cards = list(s.trick.cards)
    seat = H.trick_winner_seat(r, s.trick.leader, cards, trump)
    c = cards[R.trick_winner(cards, trump)]
    by = "the highest trump" if c // 13 == trump else f"the highest {SUIT_NAMES[cards[0] // 13][:-1]}"
    order = " ".join(f"{card_str(x)}({player_name(H.trick_turn(r, s.trick.leader, i))})" for i, x in enumerate(cards))
    return Decision({"winner": seat, "card": card_str(c), "trump": "N" if trump == NO_TRUMP else SUITS[trump],
                     "by": "trump" if c // 13 == trump else "led", "led": SUITS[cards[0] // 13]},
                    f"{player_name(seat, True)} wins with {card_str(c)}, {by} (trump {strain_name(trump)}).",
                    ("play.winner",) + chain + ("play.direction",), f"{order}: {card_str(c)} wins")


# ------------------------------------------------------------------ bidding


def _bid_facts_individual(r: Rules, s: Situation) -> None:
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


def _auction_match(r: Rules, s: Situation) -> Match:
    """A match at the stated dealer and scores with the stated calls applied (the engine checks every call)."""
    dealer = _need_dealer(s)
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


def _decide_bid(r: Rules, s: Situation) -> Decision:
    q = s.question
    if q.bid is None:
        raise s.err(["question.bid"], "a bid-legal question names the bid (a number or 'pass')")
    bid_text = _bid_text(q.bid.n, q.bid.strain)
    checked = C.bid_legal_clauses(r)
    _family_check(r, s, uses_bids=True)
    if r.individual:
        seat = q.seat
        if seat is None:
            raise Missing("question.seat", "say which seat bids")
        if s.bids is not None and s.bids[seat] is not None:
            raise s.err(["question.seat", f"bids.{seat}"], f"{player_name(seat)} has already bid ({s.bids[seat]}); "
                                                           "each player bids once")
        _bid_facts_individual(r, s)
        turn = _individual_turn(r, s)
        if turn is not None and turn != seat:
            if s.dealer is None:
                raise RuntimeError("a bidding turn known without the dealer")
            order = "players " + " -> ".join(str(x + 1) for x in H.bidding_order(r, s.dealer))
            return Decision({"legal": False, "seat": seat, "turn": turn, "clause": C.turn_clause(r),
                             "irregularity": "bid-out-of-turn", "dealer": s.dealer,
                             "order": list(H.bidding_order(r, s.dealer))},
                            f"{bid_text.capitalize()} by {player_name(seat)} is not legal now: it is {player_name(turn)}'s turn to "
                            f"bid (the dealer is {player_name(s.dealer)}; order {order}).", (C.turn_clause(r),) + checked,
                            f"{player_name(seat)} != {player_name(turn)}")
        if r.rising_min and s.scores is None:
            raise Missing("scores", "the bidder's score sets the lowest bid under this ruleset")
        score = s.scores[seat] if s.scores is not None else 0
        bad = R.bid_violation(r, score, q.bid.n, q.bid.strain)
        if bad is not None and bad[0] == "bid.meaning":
            return Decision({"legal": False, "clause": "bid.meaning", "seat": seat},
                            f"{bid_text} is not legal: a bid here is a number of tricks with no suit.",
                            ("bid.meaning",))
        bad = R.bid_violation(r, score, q.bid.n)
        lo = R.min_bid_for(r, score)
        math = f"{lo} <= {q.bid.n} <= {r.bid_max}" if q.bid.n is not None and lo <= q.bid.n <= r.bid_max else ""
        if q.bid.n in r.bid_excluded:
            math = f"{q.bid.n} is among the excluded bids {sorted(r.bid_excluded)}"
        elif r.rising_min and q.bid.n is not None:
            math = f"score {score}: lowest bid {lo}; {q.bid.n} {'>=' if q.bid.n >= lo else '<'} {lo}"
        turn_text = "" if turn is None else f", in turn (the dealer is {player_name(s.dealer)})"
        facts: dict[str, Any] = {"seat": seat}
        if r.rising_min:
            facts.update(score=score, lowest=lo)
        if bad is None:
            extra = f" (a player on {score} may bid {lo} or more)" if r.rising_min else ""
            chain = checked if turn is None else checked + (C.turn_clause(r),)
            if turn is not None:
                facts.update(in_turn=True, dealer=s.dealer)
            return Decision({"legal": True, **facts},
                            f"{bid_text.capitalize()} by {player_name(seat)} is legal{extra}{turn_text}.", chain, math)
        if bad[0] == "bid.range":
            facts.update(lowest=r.bid_min, highest=r.bid_max)
        return Decision({"legal": False, "clause": bad[0], **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {bad[1]}.",
                        (bad[0],) + tuple(c for c in checked if c != bad[0]), math)
    m = _auction_match(r, s)
    if m.phase is not Phase.BIDDING:
        raise s.err(["auction", "question"], "the auction is over: no further call can be made")
    seat = m.to_move
    if q.seat is not None and q.seat != seat:
        return Decision({"legal": False, "seat": q.seat, "turn": seat, "clause": C.turn_clause(r),
                         "irregularity": "bid-out-of-turn", "dealer": m.dealer, "calls": len(s.auction or [])},
                        f"{bid_text.capitalize()} by {player_name(q.seat)} is not legal now: after "
                        f"{n_of(len(s.auction or []), 'call')} from the player after the dealer ({player_name(m.dealer)}), "
                        f"it is {player_name(seat)}'s turn.",
                        (C.turn_clause(r),) + checked, f"{player_name(q.seat)} != {player_name(seat)}")
    top = m.auction_top
    checked = C.bid_legal_clauses(r, forced=R.dealer_forced(r, m.dealer, seat, None if top is None or top.n is None
                                                           else (top.n, top.strain), m.passes))
    try:
        m.apply(q.bid)
    except IllegalAction as e:
        facts = {"seat": seat}
        if e.rule == "auction.range":
            facts.update(lowest=r.min_bid, highest=13)
        return Decision({"legal": False, "clause": e.rule, **facts},
                        f"{bid_text.capitalize()} by {player_name(seat)} is not legal: {e.reason}.",
                        (e.rule,) + tuple(c for c in checked if c != e.rule))
    return Decision({"legal": True, "seat": seat}, f"{bid_text.capitalize()} by {player_name(seat)} is legal.", checked)


def _individual_turn(r: Rules, s: Situation) -> int | None:
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


def _all_bids(s: Situation) -> list[int]:
    if s.bids is None or any(b is None for b in s.bids):
        raise Missing("bids", "all four bids are needed")
    return [b for b in s.bids if b is not None]


def _total_scores(r: Rules, s: Situation) -> list[int]:
    """The scores a deal is played on, as the bid total in force needs them (bid.total): the situation's, or zeros
    where the total does not depend on them."""
    if s.scores is None and R.total_in_force(r, [0, 0, 0, 0]) != R.total_in_force(r, [10**6] * 4):
        raise Missing("scores", "the scores set the bid total under this ruleset")
    return list(s.scores) if s.scores is not None else [0, 0, 0, 0]


def _decide_redeal(r: Rules, s: Situation) -> Decision:
    _family_check(r, s, uses_bids=True)
    dealer = _need_dealer(s)
    cancel = C.redeal_clause(r)
    if r.individual:
        bids = _all_bids(s)
        _bid_facts_individual(r, s)
        scores = _total_scores(r, s)
        total, minimum = R.bid_total(r, bids, scores)  # the numbers R.hand_is_played compares
        sums = "+".join(str(b) for b in bids) + f" = {total}"
        if R.hand_is_played(r, bids, scores):
            nxt = H.next_dealer(r, dealer, None)
            return Decision({"redeal": False, "dealer": nxt, "reason": "total", "total": total,
                             "minimum": minimum},
                            f"The bids total {total}, at least {minimum}: the hand is played, and {player_name(nxt)} "
                            f"deals the next one.", (cancel, C.next_dealer_clause(None)),
                            f"{sums} >= {minimum}")
        nd = H.next_dealer(r, dealer, cancel)
        who = "the same dealer" if nd == dealer else "the next dealer"
        return Decision({"redeal": True, "dealer": nd, "reason": "total", "total": total, "minimum": minimum,
                         "same_dealer": nd == dealer},
                        f"The bids total {total}, below {minimum}: the hand is cancelled and {who}, "
                        f"{player_name(nd)}, deals again.", (cancel, C.next_dealer_clause(cancel)),
                        f"{sums} < {minimum}")
    if s.auction is None:
        raise Missing("auction", "the calls of the auction decide it")
    m = _auction_match(r, s)
    if m.phase is Phase.BIDDING:
        raise Missing("auction", f"the auction is not over ({player_name(m.to_move)} still to call)")
    if m.phase is Phase.DEAL:
        return Decision({"redeal": True, "dealer": m.dealer, "reason": "all-pass"},
                        f"All four passed: the hand is dealt again by {player_name(m.dealer)}.",
                        tuple(dict.fromkeys((cancel, C.next_dealer_clause(m.records[-1].redeal)))))
    nxt = H.next_dealer(r, dealer, None)
    return Decision({"redeal": False, "dealer": nxt, "reason": "contract"},
                    f"A contract was reached: the hand is played, and {player_name(nxt)} deals the next one.",
                    (cancel, C.next_dealer_clause(None)))


def _decide_next_dealer(r: Rules, s: Situation) -> Decision:
    dealer = _need_dealer(s)
    result = s.hand_result
    if result is None and (s.bids is not None or s.auction is not None):
        d = _decide_redeal(r, s)
        chain = d.chain if d.answer["redeal"] else (C.next_dealer_clause(None),) + d.chain
        return Decision(dict(d.answer), d.text, tuple(dict.fromkeys(chain)), d.math)
    if result is None:
        raise Missing("hand", "say whether the hand was played or cancelled (or give the bids)")
    if result == "played":
        nxt = H.next_dealer(r, dealer, None)
        return Decision({"dealer": nxt, "hand": "played"}, f"The hand was played: the deal passes to {player_name(nxt)}.",
                        (C.next_dealer_clause(None), "play.direction"))
    cancel = C.redeal_clause(r)
    nd = H.next_dealer(r, dealer, cancel)
    if r.individual:
        who = "the same dealer deals again" if nd == dealer else "the next dealer deals"
        return Decision({"dealer": nd, "hand": "cancelled", "same_dealer": nd == dealer},
                        f"The hand was cancelled: {who}, {player_name(nd)}.",
                        (C.next_dealer_clause(cancel), cancel))
    # all passed, or a weak hand was thrown in: both pass the deal on (core.hand.next_dealer)
    return Decision({"dealer": nd, "hand": "cancelled", "same_dealer": False},
                    f"The hand was cancelled: the next dealer, {player_name(nd)}, deals.",
                    (cancel, "deal.weak-redeal", C.next_dealer_clause(None)))


# ------------------------------------------------------------------ scoring and outcome


def _hand_tricks(s: Situation) -> list[int]:
    if s.tricks is None:
        raise Missing("tricks", "the tricks each player took are needed")
    if sum(s.tricks) != 13:
        raise Missing("tricks", f"only {sum(s.tricks)} of 13 tricks are accounted for; the hand is scored after "
                                "all 13")
    return s.tricks


def _auction_deltas(r: Rules, s: Situation, tricks: list[int]) -> tuple[int, int]:
    contract = _contract(s)
    if contract is None:
        raise Missing("contract", "the contract (its player and bid) decides the score")
    bad = _contract_range(r, contract[1])
    if bad is not None:
        raise s.err(["contract.bid"], f"{contract[1]} is not a possible contract under {r.label()} "
                                      f"({bad[1]}) [{bad[0]}]")
    deltas = H.hand_deltas(r, [0, 0, 0, 0], contract, tricks)
    return deltas[0], deltas[1]


def _contract_range(r: Rules, n: int) -> tuple[str, str] | None:
    """The core's objection to a contract of ``n`` tricks as an opening bid (auction.range), None when it is in
    range; the strain is left aside (the contract's trump may be the suit named after the auction)."""
    return R.auction_bid_violation(r, 0, 1, None, 0, n, 0 if r.egyptian else None)


def _individual_deltas(r: Rules, s: Situation) -> tuple[list[int], list[int]]:
    bids = _all_bids(s)
    _bid_facts_individual(r, s)
    scores = _total_scores(r, s)
    if not R.hand_is_played(r, bids, scores):
        total, minimum = R.bid_total(r, bids, scores)
        raise s.err(["bids", "tricks"], f"the bids total {total}, below {minimum}: under {r.label()} the "
                                        f"hand is not played, so no tricks are taken [bid.total]")
    tricks = _hand_tricks(s)
    return bids, H.hand_deltas(r, bids, None, tricks)


def _check_after(r: Rules, s: Situation, after: list[int]) -> None:
    if s.scores_after is None or not after:
        return
    given = s.scores_after if r.individual or len(s.scores_after) == 2 else s.scores_after[:2]
    for k, (a, b) in enumerate(zip(given, after, strict=True)):
        if a != b:
            raise s.err(["scores_after", "scores", "bids", "tricks"],
                        f"under {r.label()} the hand leaves {player_name(k) if r.individual else team_label(k)} on {b}, "
                        f"not {a}")


def _decide_score(r: Rules, s: Situation) -> Decision:
    _family_check(r, s, uses_bids=True)
    before = s.scores or [0, 0, 0, 0]
    if r.individual:
        bids, deltas = _individual_deltas(r, s)
        after = [before[k] + deltas[k] for k in range(4)] if len(before) == 4 else []
        _check_after(r, s, after)
        parts = [f"{player_name(k)} bid {bids[k]}, took {s.tricks[k] if s.tricks else 0}: {fmt_delta(deltas[k])}"
                 for k in range(4)]
        math = ", ".join(f"{before[k]} {'+' if deltas[k] >= 0 else '-'} {abs(deltas[k])} = {after[k]}"
                         for k in range(4)) if after else ""
        return Decision({"deltas": deltas, "scores": after, "bids": bids, "tricks": list(s.tricks or [0] * 4)},
                        "; ".join(parts) + ".", C.score_ruling_clauses(r),
                        math)
    tricks = _hand_tricks(s)
    d0, d1 = _auction_deltas(r, s, tricks)
    after2 = [before[0] + d0, before[1] + d1]
    _check_after(r, s, after2)
    if s.contract is None:
        raise RuntimeError("a contract's score without a contract")
    bt = R.team_of(s.contract.seat)
    took = R.team_tricks(tricks)[bt]
    math = (f"{team_label(bt)} took {took} {'>=' if R.bid_made(s.contract.bid, took) else '<'} {s.contract.bid}; "
            f"{team_label(0)} {before[0]} {'+' if d0 >= 0 else '-'} {abs(d0)} = {after2[0]}, "
            f"{team_label(1)} {before[1]} {'+' if d1 >= 0 else '-'} {abs(d1)} = {after2[1]}")
    return Decision({"deltas": [d0, d1, d0, d1], "scores": after2,
                     "contract": {"seat": s.contract.seat, "bid": s.contract.bid}, "took": took},
                    f"Contract {s.contract.bid} by {player_name(s.contract.seat)}: {team_label(0)} {fmt_delta(d0)}, "
                    f"{team_label(1)} {fmt_delta(d1)}.",
                    tuple(dict.fromkeys((C.score_clause(r, _contract(s), tricks), *C.score_ruling_clauses(r)))),
                    math)


def _possible_changes(r: Rules, s: Situation) -> list[set[int]] | set[tuple[int, int]]:
    """Every score change the ruleset allows for one hand (per seat, or per team pair for auctions)."""
    if r.individual:
        out = []
        for seat in range(4):
            score = s.scores[seat] if s.scores is not None and len(s.scores) == 4 else 0
            bids = R.legal_bids(r, score)
            stated = s.bids[seat] if s.bids is not None else None
            if stated is not None:
                bids = [stated]
            out.append({R.individual_delta(r, b, t) for b in bids for t in range(14)})
        return out
    pairs: set[tuple[int, int]] = set()
    for n in range(14):
        if _contract_range(r, n) is not None:
            continue
        for bt in (0, 1):
            for t in range(14):
                pairs.add(R.team_deltas(r, n, bt, (t, 13 - t) if bt == 0 else (13 - t, t)))
    return pairs


def _check_score_change(r: Rules, s: Situation) -> None:
    """scores -> scores_after must be a change one hand can make under ``r``."""
    if s.scores is None or s.scores_after is None:
        return
    possible = _possible_changes(r, s)
    if isinstance(possible, list):
        if len(s.scores) != 4:
            return
        for seat in range(4):
            d = s.scores_after[seat] - s.scores[seat]
            if d not in possible[seat]:
                vals = sorted({abs(v) for v in possible[seat]})
                raise s.err([f"scores.{seat}", f"scores_after.{seat}"] + (["bids"] if s.bids else []),
                            f"{player_name(seat)} goes from {s.scores[seat]} to {s.scores_after[seat]} "
                            f"({fmt_delta(d)}), which no hand can do under {r.label()}: a hand adds or "
                            f"takes away the bid's value, one of {vals} [score.values]")
        return
    t0, t1 = (s.scores[0], s.scores[1])
    a0, a1 = (s.scores_after[0], s.scores_after[1])
    if (a0 - t0, a1 - t1) not in possible:
        raise s.err(["scores", "scores_after"],
                    f"team changes ({fmt_delta(a0 - t0)}, {fmt_delta(a1 - t1)}) cannot come from one hand under "
                    f"{r.label()} [score.standard]")


def _decide_winner_individual(r: Rules, s: Situation) -> Decision:
    target = R.target_in_force(r, 0)  # the situation is of a first game
    rt = r if target == r.target else dataclasses.replace(r, target=target)  # as H.hand_outcome judges at a target
    bids: list[int] | None = None
    if s.bids is not None and s.tricks is not None:
        bids, deltas = _individual_deltas(r, s)
        if s.scores is None:
            raise Missing("scores", "the scores before the hand are needed")
        after = [s.scores[k] + deltas[k] for k in range(4)]
        _check_after(r, s, after)
        win, rule = H.hand_outcome(r, after, target, bids, None, s.tricks)
    else:
        after = s.scores_after or s.scores or []
        if len(after) != 4:
            raise Missing("scores", "each player's score is needed")
        win, rule = R.individual_outcome(rt, after)
    standing = f"scores {after}"
    chain: tuple[str, ...] = (rule,) + tuple(c for c in ("win.target", "win.qualify", "tie.both-qualify")
                                             if c != rule)
    if rule == "win.made-bid":
        if bids is None or s.tricks is None:
            raise RuntimeError("a made-bid win without the bids and tricks")
        seat = R.made_bid_winner(r, bids, s.tricks, after)
        if seat is None:
            raise RuntimeError("a made-bid win with no seat that made its bid")
        return Decision({"winner": win, "clause": rule, "reason": "made-bid", "bidder": seat,
                         "bid": bids[seat], "scores": list(after)},
                        f"{player_name(seat, True)} bid {bids[seat]} and made it: {team_name(win or 0)} wins at once "
                        f"({standing}).", chain)
    q0 = R.team_qualifies(rt, after[0], after[2])
    q1 = R.team_qualifies(rt, after[1], after[3])
    math = _winner_math(rt, after, q0, q1)
    answer: dict[str, Any] = {"winner": win, "clause": rule, "scores": list(after), "target": target}
    if win is not None and rule == "tie.both-qualify":
        how = "combined score" if r.tie_rule == "combined" else "top score"
        text = f"Both teams qualify; {team_name(win)} wins on the higher {how} ({standing})."
        answer.update(reason="higher", tie=r.tie_rule)
    elif win is not None:
        text = f"{team_name(win)} qualifies and wins ({standing})."
        answer.update(reason="qualifies")
    elif q0 and q1:
        how = "combined scores" if r.tie_rule == "combined" else "top scores"
        text = f"Both teams qualify with equal {how}: no winner yet, another hand is played ({standing})."
        answer.update(reason="equal", tie=r.tie_rule)
    else:
        text = (f"No team has won: none has one partner at {target} or more with the other above zero "
                f"({standing}); another hand is played.")
        answer.update(reason="none-qualifies")
    return Decision(answer, text, chain, math)


def _winner_math(r: Rules, sc: Sequence[int], q0: bool, q1: bool) -> str:
    """The comparison behind an individual-family outcome, e.g. "combined 45+10 = 55 = 42+13 = 55": the
    comparisons :func:`tarneeb.core.rules.qualification` makes (those of the higher partner: one partner at the
    target, the other above zero) and the keys of :func:`tarneeb.core.rules.tie_keys`."""
    def team(t: int, q: bool) -> str:
        a, b = sc[t], sc[R.partner(t)]
        a_at, b_above, b_at, a_above = R.qualification(r, a, b)
        hi, lo, at, above = (a, b, a_at, b_above) if a >= b else (b, a, b_at, a_above)
        return (f"{team_label(t)}: {hi} {'>=' if at else '<'} {r.target} and {lo} "
                f"{'> 0' if above else '<= 0'}: {'qualifies' if q else 'does not qualify'}")
    if q0 and q1:
        a, b = R.tie_keys(r, sc)
        cmp = "=" if a == b else (">" if a > b else "<")
        if r.tie_rule == "combined":
            return f"combined {sc[0]}+{sc[2]} = {a}, {sc[1]}+{sc[3]} = {b}: {a} {cmp} {b}"
        return f"top score {a} (of {sc[0]}, {sc[2]}) {cmp} {b} (of {sc[1]}, {sc[3]})"
    return "; ".join((team(0, q0), team(1, q1)))


def _decide_winner(r: Rules, s: Situation) -> Decision:
    _family_check(r, s, uses_bids=s.bids is not None or s.contract is not None)
    if r.individual:
        return _decide_winner_individual(r, s)
    target = R.target_in_force(r, 0)  # the situation is of a first game
    contract = _contract(s)
    if contract is not None and s.tricks is not None:
        tricks = _hand_tricks(s)
        d0, d1 = _auction_deltas(r, s, tricks)
        if s.scores is None:
            raise Missing("scores", "the team scores before the hand are needed")
        after2 = (s.scores[0] + d0, s.scores[1] + d1)
        _check_after(r, s, list(after2))
        win, rule = H.hand_outcome(r, [after2[0], after2[1], after2[0], after2[1]], target, [0, 0, 0, 0],
                                   contract, tricks)
    else:
        sc = s.scores_after or s.scores
        if sc is None:
            raise Missing("scores", "the team scores are needed")
        after2 = (sc[0], sc[1])
        if contract is None and all(R.target_reached(after2, target)):
            raise Missing("contract", "both teams reached the target; the bidding team decides")
        bt = R.team_of(contract[0]) if contract is not None else 0
        win, rule = R.auction_outcome(r, after2, target, bt, False)
    chain = (rule,) + tuple(c for c in ("win.target", "tie.both-qualify", "score.bid13") if c != rule)
    reached = R.target_reached(after2, target)  # the comparisons R.auction_outcome makes
    math = (f"{team_label(0)}: {after2[0]} {'>=' if reached[0] else '<'} {target}; "
            f"{team_label(1)}: {after2[1]} {'>=' if reached[1] else '<'} {target}")
    answer: dict[str, Any] = {"winner": win, "clause": rule, "scores": list(after2), "target": target}
    if win is None:
        text = f"No team has reached {target} (team scores {list(after2)}): play goes on."
        answer.update(reason="none-reached")
    elif rule == "score.bid13":
        text = f"{team_name(win)} bid 13 and took every trick: it wins on the spot."
        answer.update(reason="bid13")
    elif rule == "tie.both-qualify":
        text = f"Both teams reached {target}: the bidding team, {team_name(win)}, wins."
        answer.update(reason="bidding-team")
    else:
        text = f"{team_name(win)} reached {target} and wins (team scores {list(after2)})."
        answer.update(reason="reached")
    return Decision(answer, text, chain, math)


# ------------------------------------------------------------------ dispatch

_DECIDERS: dict[str, Callable[[Rules, Situation], Decision]] = {
    "card-legal": _decide_card, "trick-winner": _decide_trick, "bid-legal": _decide_bid,
    "redeal": _decide_redeal, "score": _decide_score, "winner": _decide_winner,
    "next-dealer": _decide_next_dealer, "trump": _decide_trump,
}


def decide(kind: str, r: Rules, s: Situation) -> Decision:
    """The engine's ruling on question ``kind`` under ``r`` (raises on missing or contradictory facts)."""
    from tarneeb.ruling import turns

    if s.trump is not None:
        _check_stated_trump(r, s)
    if s.history:
        _check_history(r, s)
    if kind == "score" and s.question.seat is not None:
        return turns.decide_seat_score(r, s)
    if kind in ("score", "winner"):
        _family_check(r, s, uses_bids=True)
        _check_score_change(r, s)
    if kind == "next-dealer" and s.deals:
        return turns.decide_deal_sequence(r, s)
    if kind in turns.DECIDERS:
        return turns.DECIDERS[kind](r, s)
    return _DECIDERS[kind](r, s)


__all__ = ["ClauseRef", "Decision", "clause_refs", "decide", "fmt_delta", "team_name"]
