"""Reference answers of the conformance vectors: what the rules say for each vector's input.

The vector files (``spec/vectors/<ruleset>/<category>.json``, see :mod:`tarneeb.conformance.vectors`) hold
one test per line, each with an input, the expected answer and the clause it tests. The expected answers and
clauses come from here, and every one is a call into the rule core: the single decisions of
:mod:`tarneeb.core.rules`, the steps of a hand of :mod:`tarneeb.core.hand`, the clause choices of
:mod:`tarneeb.core.clauses`, or a :class:`~tarneeb.core.match.Match` built by :meth:`Match.at
<tarneeb.core.match.Match.at>` and driven through the hand. :mod:`tarneeb.conformance.vector_gen` picks the
inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tarneeb.conformance.protocol import PERFT_CLAUSE
from tarneeb.core import clauses as C
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.actions import Bid, Deal, parse_action
from tarneeb.core.cards import STRAINS, card_str, cards_of, mask_of, parse_card, strain_text
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import IllegalAction

CATEGORIES = ("play-legality", "trick-winner", "bid-legality", "bidding-end", "hand-scoring", "outcome",
              "deal", "hand", "match", "perft")
COMMAND = {"play-legality": "play_legal", "trick-winner": "trick_winner", "bid-legality": "bid_legal",
           "bidding-end": "bidding_end", "hand-scoring": "score_hand", "outcome": "outcome", "deal": "start",
           "hand": "start", "match": "start", "perft": "start"}
# Categories whose tests drive a deal through start/apply (the others are one rule query each).
START_CATEGORIES = ("deal", "hand", "match", "perft")
# Field of an answer -> clause it tests, per category (tests may override per field).
FIELD_CLAUSES: dict[str, dict[str, str]] = {
    "play-legality": {"legal": "play.follow"},
    "trick-winner": {"winner": "play.winner"},
    "bid-legality": {},
    "bidding-end": {},
    "hand-scoring": {},
    "outcome": {},
    "deal": {"hands": "deal.order", "revealed": "trump.source", "trump": "trump.source",
             "redeal": "deal.weak-redeal"},
    "hand": {"hands": "deal.order", "trump": "trump.source", "trick_winners": "play.winner",
             "tricks_won": "hand.tricks", "scores": "score.negative"},
    "match": {},
    "perft": {"nodes": PERFT_CLAUSE},
}


# ------------------------------------------------------------------ helpers

def cs(cards: Sequence[int]) -> list[str]:
    """Card codes as card texts (``AS``, ``10H`` ...)."""
    return [card_str(c) for c in cards]


def strain_value(t: Any) -> int:
    """The strain of a vector's ``trump`` field: -1 for null, else 0..4 from its letter."""
    return -1 if t is None else STRAINS.index(t)


NEUTRAL_DECK = tuple(range(52))  # no hand is weak: every seat gets one of J, Q, K, A of clubs


def bid_state(rules: Rules, dealer: int, scores: Sequence[int], bids: Sequence[str]) -> Match:
    """A match at ``scores`` whose hand by ``dealer`` was dealt the neutral deck and has had ``bids``."""
    m = Match.at(rules, dealer, scores)
    m.apply(Deal(NEUTRAL_DECK))
    for b in bids:
        m.apply(parse_action(b))
    return m


def legal_bid_texts(m: Match) -> list[str]:
    """The texts of the actions legal in ``m`` now."""
    return [str(a) for a in m.legal_actions()]


def _contract(rules: Rules, inp: dict[str, Any]) -> tuple[int, int, int | None] | None:
    """A vector's contract as (seat, tricks, strain); None under individual bids."""
    if rules.individual:
        return None
    c = inp["contract"]
    return c["seat"], c["n"], None if c.get("strain") is None else strain_value(c["strain"])


# ------------------------------------------------------------------ reference answers

def ref_play_legal(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The reference answer to a play-legality vector: whether the card may be played, and the deciding clause."""
    hand = mask_of(parse_card(c) for c in inp["hand"])
    trick = inp["trick"]
    led = parse_card(trick[0]) // 13 if trick else -1
    trump = strain_value(inp["trump"])
    card = parse_card(inp["card"])
    legal = bool(R.legal_play_mask(rules, hand, led, trump) >> card & 1)
    return {"legal": legal}, C.play_clause(rules, hand, led, trump)


def ref_trick_winner(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The reference answer to a trick-winner vector: the winning seat."""
    cards = [parse_card(c) for c in inp["trick"]]
    return {"winner": H.trick_winner_seat(rules, inp["leader"], cards, strain_value(inp["trump"]))}, "play.winner"


def ref_bid_legal(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The reference answer to a bid-legality vector: whether the bid may be made, and the deciding clause."""
    m = bid_state(rules, inp["dealer"], inp["scores"], inp["bids"])
    bid = parse_action(inp["bid"])
    try:
        m.apply(bid)
    except IllegalAction as e:
        return {"legal": False}, e.rule
    if not isinstance(bid, Bid):
        raise RuntimeError(f"{bid} was applied as a bid but is not one")
    matches_top = False
    if not rules.individual and bid.n is not None:
        rec = m.record if m.record is not None else m.records[-1]
        earlier = [b for _, b in rec.bids[:-1] if b.n is not None]
        matches_top = bool(earlier) and earlier[-1].key() == bid.key()
    return {"legal": True}, C.legal_bid_clause(rules, bid.n, matches_top)


def ref_bidding_end(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str, dict[str, str]]:
    """The reference answer to a bidding-end vector: redeal or not, the next dealer, and their clauses."""
    m = bid_state(rules, inp["dealer"], inp["scores"], inp["bids"])
    if m.phase is Phase.BIDDING:
        raise RuntimeError(f"{rules.id}: the vector's bids {inp['bids']} do not end the bidding")
    redeal = m.phase is Phase.DEAL
    main = C.redeal_clause(rules)
    return ({"redeal": redeal, "next_dealer": m.dealer if redeal else None}, main,
            {"redeal": main, "next_dealer": C.next_dealer_clause(main)})


def ref_score(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The reference answer to a scoring vector: the score changes by seat, and the deciding clause."""
    t = inp["tricks"]
    contract = _contract(rules, inp)
    deltas = H.hand_deltas(rules, inp.get("bids") or [0, 0, 0, 0], contract, t)
    return {"deltas": deltas}, C.score_clause(rules, contract, t)


def ref_outcome(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The reference answer to an outcome vector: the winner (or none yet), and the deciding clause."""
    win, rule = H.hand_outcome(rules, inp["scores"], inp["target"], inp.get("bids") or [0, 0, 0, 0], _contract(rules, inp),
                               inp["tricks"])
    return {"winner": win}, rule


def ref_deal(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The reference answer to a deal vector: the hands, the revealed card, the trump and whether it is redealt."""
    m = Match.at(rules, inp["dealer"], inp["scores"], inp["target"])
    deck = tuple(parse_card(c) for c in inp["deck"])
    m.apply(Deal(deck))
    hands = [cs(cards_of(h)) for h in R.deal_hands(rules, inp["dealer"], deck)]
    rec = m.records[-1] if m.record is None else m.record
    out = {"hands": hands, "revealed": None if rec.revealed is None else card_str(rec.revealed),
           "trump": strain_text(rec.trump), "redeal": m.phase is Phase.DEAL}
    return out, "deal.order"


def hand_result(m: Match) -> dict[str, Any]:
    """What the protocol reports when a hand is over, from our engine."""
    rec = m.records[-1]
    return {"trump": strain_text(rec.trump), "redeal": rec.redeal is not None,
            "trick_winners": [t.winner for t in rec.tricks], "tricks_won": list(rec.tricks_won),
            "deltas": list(rec.deltas), "scores": list(rec.scores_after), "winner": rec.outcome,
            "next_dealer": H.next_dealer(m.rules, rec.dealer, rec.redeal)}


def ref_hand(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str, dict[str, str]]:
    """The reference answer to a whole-deal vector: the deal's result, its main clause and the clause of each field."""
    m = Match.at(rules, inp["dealer"], inp["scores"], inp["target"])
    m.apply(Deal(tuple(parse_card(c) for c in inp["deck"])))
    for a in inp["actions"]:
        m.apply(parse_action(a))
    if not m.records or m.phase is Phase.PLAY:
        raise RuntimeError(f"{rules.id}: the vector's actions do not finish the deal")
    res = hand_result(m)
    cl = C.result_clauses(rules, m.records[-1])
    return res, cl.get("deltas", cl["redeal"]), cl


def perft_count(rules: Rules, hands: list[int], leader: int, trump: int, trick: list[int], to_move: int,
                depth: int) -> int:
    """Number of legal play sequences of ``depth`` cards (rules.legal_play_mask, hand.trick_winner_seat)."""
    if depth == 0:
        return 1
    led = trick[0] // 13 if trick else -1
    legal = R.legal_play_mask(rules, hands[to_move], led, trump)
    if depth == 1:
        return legal.bit_count()
    total = 0
    for c in cards_of(legal):
        hands[to_move] &= ~(1 << c)
        trick.append(c)
        if len(trick) == 4:
            w = H.trick_winner_seat(rules, leader, trick, trump)
            if any(hands):
                total += perft_count(rules, hands, w, trump, [], w, depth - 1)
            else:
                total += 1
        else:
            total += perft_count(rules, hands, leader, trump, trick, R.next_seat(rules, to_move), depth - 1)
        trick.pop()
        hands[to_move] |= 1 << c
    return total


def ref_perft(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Card sequences of ``depth`` from the position; a position with no card to play (bidding, naming trump,
    the deal over) and depth 0 count 1, and a sequence that reaches the end of the deal is one leaf."""
    m = Match.at(rules, inp["dealer"], inp["scores"], inp["target"])
    m.apply(Deal(tuple(parse_card(c) for c in inp["deck"])))
    for a in inp["actions"]:
        m.apply(parse_action(a))
    if m.phase is not Phase.PLAY:
        return {"nodes": 1}, PERFT_CLAUSE
    n = perft_count(rules, list(m.hands), m.trick_leader, m.trump, list(m.trick), m.to_move, inp["depth"])
    return {"nodes": n}, PERFT_CLAUSE


def ref_match(rules: Rules, inp: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Deals one after the other from part-way scores, each started from the dealer and scores the previous one
    left; the result of each deal as :func:`hand_result` gives it."""
    m = Match.at(rules, inp["dealer"], inp["scores"], inp["target"])
    out = []
    for deal in inp["deals"]:
        m.apply(Deal(tuple(parse_card(c) for c in deal["deck"])))
        for a in deal["actions"]:
            m.apply(parse_action(a))
        if m.phase is Phase.PLAY:
            raise RuntimeError(f"{rules.id}: the vector's actions do not finish the deal")
        out.append(hand_result(m))
    cl = C.result_clauses(rules, m.records[-1])
    return {"deals": out}, cl.get("winner", cl["redeal"])
