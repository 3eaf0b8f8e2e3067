"""The verifier's fast path: decode a canonical hand line and run it through the rule core, nothing else.

As python-chess's PGN reader drives its one ``Board`` and gets speed by skipping work, this path is no second
replayer: it only decodes the canonical spelling of a line (a 104-character deck, ``[seat, "8H"]`` bids,
tricks of four card strings) and asks the rule core (:mod:`tarneeb.core.rules` for each decision,
:mod:`tarneeb.core.hand` for each step of the hand) what the rules give, then compares. It returns True only
for a clean line, and then advances the match state; on anything unusual or any disagreement it returns False
with the state untouched, and the verifier replays the line step by step (:mod:`tarneeb.records.replay`, also
built on the rule core), which reports and goes on past a divergence. The tests compare both paths on every line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.cards import CARD_BITS, FULL_DECK, STRAINS, SUITS
from tarneeb.core.spec import Rules
from tarneeb.core.tables import auction_deciders, rules_table
from tarneeb.records.format import _CANONICAL_BID, _CARD_CODE, _CARD_TEXT, MatchHeader, contract_text, text_codes


@dataclass(slots=True)
class MatchState:
    """What the verifier knows of a match between two hand lines."""

    header: MatchHeader
    rules: Rules
    dealer: int | None  # expected dealer of the next deal; None = unknown (not checked)
    dealer_clause: str
    scores: list[int]
    target: int
    games: list[int]
    next_hand: int = 0
    over_rule: str | None = None  # set once the match is over
    over_reported: bool = False
    scores_known: bool = True  # False after an unreadable line: the next hand's own claims give its scores
    lost: list[tuple[str, int, int | None]] = field(default_factory=list)  # unreadable (file, line, deal number)
    last_dealer: int | None = None  # dealer of the previous deal (to name a wrong next dealer's cause)
    last_redeal: str | None = None  # the clause that cancelled the previous deal, None when it was played
    # where the previous line claimed another dealer or other scores than the rules gave: what the rules gave (the
    # next dealer from the rules' dealer, the scores by the rules), which the next line may go on from instead
    alt_dealer: int | None = None
    alt_scores: list[int] | None = None
    alt_target: tuple[int, list[int]] | None = None  # (target, games won) as the rules' winner left them
    said: set[str] = field(default_factory=set)  # warnings given once per match
    # a clean auction hand the scoring hypotheses can be weighed on (a bid of 13, or all 13 tricks to a team):
    # (contract, tricks by seat, the changes claimed, which are the rules' own); the verifier takes it
    # (Summary.refuted)
    weigh: tuple[tuple[int, int, int | None], list[int], list[int]] | None = None


CANONICAL_KEYS = frozenset({"type", "match", "hand", "dealer", "deck", "revealed", "trump", "bids", "redeal",
                            "contract", "tricks", "tricks_won", "deltas", "scores", "outcome"})
_OUTCOME_KEYS = frozenset({"winner", "clause", "match_over"})


def _is(v: object, n: int) -> bool:
    """``v`` is the integer ``n`` (not a bool or float that compares equal)."""
    return type(v) is int and v == n


def _ints_are(v: object, want: list[int]) -> bool:
    """``v`` is the list ``want`` of four integers (no bool or float that compares equal)."""
    return (type(v) is list and v == want and len(v) == 4
            and type(v[0]) is type(v[1]) is type(v[2]) is type(v[3]) is int)


def fast_hand(st: MatchState, obj: dict[str, Any]) -> bool:
    """Check a canonical hand line ``obj`` against the state ``st``; True (``st`` advanced) only when clean."""
    if (not CANONICAL_KEYS.issuperset(obj) or st.alt_dealer is not None or st.alt_scores is not None
            or st.alt_target is not None):
        return False
    rules = st.rules
    dealer = st.dealer
    n, d = obj.get("hand"), obj.get("dealer")
    if (dealer is None or type(n) is not int or n != st.next_hand or obj.get("match") != st.header.match
            or type(d) is not int or d != dealer):
        return False
    text = obj.get("deck")
    bids_obj = obj.get("bids")
    if type(text) is not str or len(text) != 104 or type(bids_obj) is not list:
        return False
    # ---- the deal: the hands, revealed card, trump, a redeal for a weak hand
    dealt = _deal(rules, dealer, text, obj)
    if dealt is None:
        return False
    hands, trump = dealt
    if core_hand.weak_seats(rules, hands):
        if core_hand.weak_claimers(rules, dealer, hands):  # a weak seat chooses (ambiguity weak-hand): the replay checks it
            return False
        return _cancelled(st, obj, dealer, "deal.weak-redeal", bids_obj, [])
    # ---- the bidding
    contract: tuple[int, int, int | None] | None = None
    bids = [0, 0, 0, 0]
    if rules.individual:
        if obj.get("trump") != STRAINS[trump] or not _individual_bids(rules, dealer, bids_obj, st.scores, bids):
            return False
        if not core_rules.hand_is_played(rules, bids, st.scores):
            return _cancelled(st, obj, dealer, "bid.total", bids_obj, None)
    else:
        contract = _auction_of(rules, dealer, bids_obj)
        if contract is None:  # an illegal call, a call out of turn, or an auction not over
            return False
        if contract[0] < 0:  # all passed
            return _cancelled(st, obj, dealer, "auction.all-pass", bids_obj, None)
        trump = _contract_trump(rules, obj, contract)
        if trump < 0:
            return False
    if obj.get("redeal") is not None:
        return False
    # ---- the play: each card by the core's legality function, each trick by its winner function
    won = _play(rules, obj.get("tricks"), hands, core_hand.hand_leader(rules, dealer, contract), trump)
    if won is None:
        return False
    return _scored(st, obj, dealer, bids, contract, won)


def _deal(rules: Rules, dealer: int, text: str, obj: dict[str, Any]) -> tuple[list[int], int] | None:
    """(the four hands, trump 0..3 or -1 when the contract names it) of a 104-character deck dealt by ``dealer``,
    the revealed card claimed as the rules give it; None when the deck or the revealed card is not."""
    deck = text_codes(text)  # the card codes in deal order
    if deck is None:
        return None
    hands = core_rules.deal_hands(rules, dealer, deck)
    if hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:  # 52 cards covering the pack: 13 each, no repeat
        return None
    revealed, trump = core_hand.deal_trump(rules, deck)
    if revealed is None:
        if "revealed" in obj:
            return None
    elif obj.get("revealed") != _CARD_TEXT[revealed]:
        return None
    return hands, trump


def _individual_bids(rules: Rules, dealer: int, bids_obj: list[Any], scores: list[int], bids: list[int]) -> bool:
    """The four ``[seat, "n"]`` bids in bidding order, each legal at its bidder's score, into ``bids`` by seat;
    False on anything else."""
    if len(bids_obj) != 4:
        return False
    for seat, x in zip(core_hand.bidding_order(rules, dealer), bids_obj, strict=True):  # bid.turn
        if type(x) is not list or len(x) != 2 or type(x[0]) is not int or x[0] != seat:
            return False
        b = _CANONICAL_BID.get(x[1]) if type(x[1]) is str else None
        if b is None or b.n is None or b.strain is not None or core_rules.bid_violation(rules, scores[seat], b.n):
            return False
        bids[seat] = b.n
    return True


def _auction_of(rules: Rules, dealer: int, bids_obj: list[Any]) -> _Contract | None:
    """The contract of the auction of ``[seat, "text"]`` calls (see :func:`_auction`); None when not canonical."""
    calls: list[object] = [dealer]
    for x in bids_obj:
        if type(x) is not list or len(x) != 2 or type(x[0]) is not int or type(x[1]) is not str:
            return None
        calls += x
    return _auction(rules, tuple(calls))


def _contract_trump(rules: Rules, obj: dict[str, Any], contract: _Contract) -> int:
    """Trump 0..3 after the auction (the winning bid's strain, or the suit the line names), the contract and trump
    claimed as the rules give them; -1 when not."""
    if rules.egyptian:
        if contract[2] is None:
            return -1
        trump = contract[2]
    else:
        t = obj.get("trump")
        if type(t) is not str or t not in ("C", "D", "H", "S"):
            return -1
        trump = SUITS.index(t)
    cobj = obj.get("contract")
    if (type(cobj) is not dict or not _is(cobj.get("seat"), contract[0]) or len(cobj) != 2
            or cobj.get("bid") != contract_text(contract) or obj.get("trump") != STRAINS[trump]):
        return -1
    return trump


def _scored(st: MatchState, obj: dict[str, Any], dealer: int, bids: list[int], contract: _Contract | None,
            won: list[int]) -> bool:
    """Scoring, the outcome and the match, by the core's hand steps, for a hand played to the end: True and the
    state advanced when the line claims them as the rules give them."""
    rules = st.rules
    scores = st.scores
    deltas = core_hand.hand_deltas(rules, bids, contract, won)
    after = [scores[0] + deltas[0], scores[1] + deltas[1], scores[2] + deltas[2], scores[3] + deltas[3]]
    if not (_ints_are(obj.get("tricks_won"), won) and _ints_are(obj.get("deltas"), deltas)
            and _ints_are(obj.get("scores"), after)):
        return False
    if contract is not None and (contract[1] == 13 or 13 in core_rules.team_tricks(won)):
        st.weigh = (contract, list(won), list(deltas))
    win, rule = core_hand.hand_outcome(rules, after, st.target, bids, contract, won)
    settled = core_hand.settle(rules, win, st.target, st.games)
    over = settled.winner is not None
    out = obj.get("outcome")
    if type(out) is not dict or not _OUTCOME_KEYS.issuperset(out):
        return False
    w = out.get("winner")
    c = out.get("clause")
    if (not (w is None if win is None else _is(w, win)) or out.get("match_over") is not over
            or (c is not None and (type(c) is not str or (win is not None and c != rule)))):
        return False
    if settled.game_won is not None:
        st.games = list(settled.games)
    st.target = settled.target
    st.scores = after
    st.dealer = core_hand.next_dealer(rules, dealer, None)
    st.dealer_clause = core_clauses.next_dealer_clause(None)
    st.last_dealer, st.last_redeal = dealer, None
    st.next_hand += 1
    if over:
        st.over_rule = rule
    return True


_Contract = tuple[int, int, int | None]
# The outcome of an auction is decided by the rules alone from the dealer and the calls (seat, text): it is kept
# per rules object (tarneeb.core.tables), as Match keeps its legal calls.
_AUCTIONS: dict[int, tuple[Rules, tuple[object, ...], dict[tuple[object, ...], _Contract | None]]] = {}


def _auction(rules: Rules, calls: tuple[object, ...]) -> _Contract | None:
    """The contract (holder, tricks, strain) of the auction ``calls`` = (dealer, seat, text, seat, text, ...) with
    every seat an int: (-1, 0, None) when all passed; None when a call is illegal, out of turn (auction.order) or
    not written canonically, or the auction is not over."""
    table = rules_table(_AUCTIONS, rules, auction_deciders())
    if calls in table:
        return table[calls]
    if len(table) > 50_000:
        table.clear()
    got = table[calls] = _run_auction(rules, calls)
    return got


def _run_auction(rules: Rules, calls: tuple[object, ...]) -> _Contract | None:
    dealer = calls[0]
    if type(dealer) is not int:
        raise RuntimeError(f"an auction key starts with {dealer!r}, not the dealer's seat")
    a = core_hand.auction_start(rules, dealer)
    for i in range(1, len(calls), 2):
        seat, text = calls[i], calls[i + 1]
        b = _CANONICAL_BID.get(text) if type(text) is str else None
        if a.to_speak is None or seat != a.to_speak or b is None or core_hand.auction_call(rules, a, b.n, b.strain) is not None:
            return None
    if a.to_speak is not None:  # the auction is not over
        return None
    if a.top is None:  # all passed
        return (-1, 0, None)
    return (a.holder, a.top[0], a.top[1])


def _play(rules: Rules, tricks: object, hands: list[int], leader: int, trump: int) -> list[int] | None:
    """Tricks won by seat for 13 canonical tricks, or None on any illegal card, wrong leader or winner."""
    if type(tricks) is not list or len(tricks) != 13:
        return None
    code = _CARD_CODE
    bit = CARD_BITS
    winner = core_hand.legal_trick_winner
    so = core_rules.seat_order
    orders = (so(rules, 0), so(rules, 1), so(rules, 2), so(rules, 3))
    won = [0, 0, 0, 0]
    try:
        for t in tricks:
            # leader, cards, winner: nothing unknown to warn about (not a dict: TypeError below). The leader and
            # the winner must be the very int objects the rules give: seats 0..3 are CPython's shared small ints,
            # so ``is`` is the comparison and the type check at once (a bool or float claim is not taken)
            if len(t) != 3 or t["leader"] is not leader:
                return None
            cs = t["cards"]
            if type(cs) is not list:
                return None
            a, b, c, d = cs  # four cards: ValueError below otherwise
            cards = c0, c1, c2, c3 = code[a], code[b], code[c], code[d]
            w = winner(rules, hands, leader, cards, trump)  # the core's hand step: legality and the winning seat
            if w < 0 or t["winner"] is not w:
                return None
            s0, s1, s2, s3 = orders[leader]  # the cards leave the hands of the seats that played them
            hands[s0] ^= bit[c0]
            hands[s1] ^= bit[c1]
            hands[s2] ^= bit[c2]
            hands[s3] ^= bit[c3]
            leader = w
            won[w] += 1
    except (KeyError, TypeError, ValueError):  # a missing field, not four cards, or a card not written canonically
        return None
    return won


def _cancelled(st: MatchState, obj: dict[str, Any], dealer: int, clause: str, bids_obj: list[Any],
               bids_want: list[Any] | None) -> bool:
    """A deal by ``dealer`` cancelled by ``clause`` (its deal and bids already checked); ``bids_want`` [] when
    no bid may be given (a weak hand). Before a trump is known (all passed, a weak hand) none may be claimed."""
    rules = st.rules
    if (obj.get("redeal") != clause or "tricks" in obj or not _ints_are(obj.get("scores"), st.scores)
            or (bids_want is not None and bids_obj != bids_want)):
        return False
    if clause != "bid.total" and (obj.get("trump") is not None or obj.get("contract", None) is not None):
        return False
    st.dealer = core_hand.next_dealer(rules, dealer, clause)
    st.dealer_clause = core_clauses.next_dealer_clause(clause)
    st.last_dealer, st.last_redeal = dealer, clause
    st.next_hand += 1
    return True

