"""The rules as pure functions of :class:`~tarneeb.core.spec.Rules` and plain inputs.

These are the engine's only rule decisions; the state machine in
:mod:`tarneeb.core.match` calls them, and the formal layer compares its encodings
against them. Each returns or cites the clause id that decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tarneeb.core.cards import CARD_BITS, SAME_COLOUR, SUIT_MASKS
from tarneeb.core.model import Rules

# ------------------------------------------------------------------ seats


def first_dealers(rules: Rules) -> tuple[int, ...]:
    """The seats that may deal the first hand (deal.first-dealer): any, by chance, or seat 0 alone under reading
    seat0 of ambiguity first-dealer. A seeded draw takes ``seats[rng.randrange(len(seats))]``."""
    return (0,) if rules.first_dealer == "seat0" else (0, 1, 2, 3)


def next_seat(rules: Rules, seat: int) -> int:
    """The seat after ``seat`` in the direction of play (clause play.direction)."""
    return (seat + rules.step) % 4


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 seats 1 and 3 (clause seats.partners)."""
    return seat & 1


def partner(seat: int) -> int:
    """The seat across the table from ``seat``, its partner (clause seats.partners)."""
    return seat ^ 2


def team_tricks(tricks_won: Sequence[int]) -> tuple[int, int]:
    """The tricks of team 0 and of team 1 from the tricks won by seat (clause seats.partners)."""
    return tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3]


_SEAT_ORDERS: Final[dict[int, tuple[tuple[int, int, int, int], ...]]] = {
    s: tuple((first, (first + s) % 4, (first + 2 * s) % 4, (first + 3 * s) % 4) for first in range(4)) for s in (1, 3)}


def seat_order(rules: Rules, first: int) -> tuple[int, int, int, int]:
    """The four seats in the direction of play, starting with ``first`` (play.direction; step 1 or 3)."""
    return _SEAT_ORDERS[rules.step][first]


def deal_order(rules: Rules, dealer: int) -> tuple[int, int, int, int]:
    """The seats in the order they receive cards: the seat after the dealer first, the dealer last (deal.order)."""
    return seat_order(rules, next_seat(rules, dealer))


def deal_positions(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For each of the four seats in :func:`deal_order` (the seat after the dealer first), the places in the deck of
    the cards it receives, in the order it receives them (deal.order): one card at a time, places k, k + 4, ...;
    under reading in-packets of ambiguity classic-deal-order, a round of packets of the first size of
    ``deal_packets`` to each seat in turn, then of the next size, and so on. (Not cached: the proofs' cache keys a
    proof by the engine code it ran, and a cache hit would hide the code.)"""
    places: list[list[int]] = [[], [], [], []]
    at = 0
    for size in rules.deal_packets or (1,) * 13:
        for k in range(4):
            places[k] += range(at, at + size)
            at += size
    return tuple(places[0]), tuple(places[1]), tuple(places[2]), tuple(places[3])


def deal_hands(rules: Rules, dealer: int, deck: Sequence[int]) -> list[int]:
    """Masks of the four hands: card i goes to the (i mod 4 + 1)-th seat after the dealer (deal.order), or as the
    packets of :func:`deal_positions` give it.

    A card outside 0..51 gives a hand a bit outside the pack (a number over 255, a negative number or a
    non-integer raises ValueError or TypeError). Each hand's mask is the sum of its cards' bits, so a card given
    twice carries into another bit; a hand of 13 cards still has 13 bits only when they are distinct, so for a
    deck of 52 the four masks cover the 52 bits of the pack (``hands[0] | hands[1] | hands[2] | hands[3] ==
    FULL_DECK``) exactly when it holds each of the 52 cards once.
    """
    # card by card, range-checked (0..255) and integers only, as ``1 << c`` was (iter: not an array's raw buffer)
    cards = deck if type(deck) is bytes else bytes(deck if type(deck) in (list, tuple) else iter(deck))
    bit = _CARD_BITS.__getitem__
    s0, s1, s2, s3 = deal_order(rules, dealer)
    hands = [0, 0, 0, 0]
    if rules.deal_packets:  # classic-deal-order, reading in-packets
        if len(cards) != 52:
            raise ValueError(f"a deal in packets is of 52 cards, not {len(cards)}")
        for seat, places in zip((s0, s1, s2, s3), deal_positions(rules), strict=True):
            hands[seat] = sum(bit(cards[i]) for i in places)
        return hands
    hands[s0] = sum(map(bit, cards[0::4]))
    hands[s1] = sum(map(bit, cards[1::4]))
    hands[s2] = sum(map(bit, cards[2::4]))
    hands[s3] = sum(map(bit, cards[3::4]))
    return hands


_CARD_BITS: Final = [*CARD_BITS] + [1 << 52] * 204  # card -> its bit; 52..255 outside the pack


def deck_of_hands(rules: Rules, dealer: int, cards_by_seat: Sequence[Sequence[int]]) -> list[int]:
    """The deck that deals each seat (by seat number) its 13 cards in the order given, the inverse of
    :func:`deal_hands` (deal.order): the i-th card of the k-th seat to receive cards is card 4i + k (or at the i-th
    place :func:`deal_positions` gives that seat)."""
    deck = [0] * 52
    places = deal_positions(rules) if rules.deal_packets else None
    for k, seat in enumerate(deal_order(rules, dealer)):
        for i, c in enumerate(cards_by_seat[seat]):
            deck[4 * i + k if places is None else places[k][i]] = c
    return deck


def revealed_card(deck: Sequence[int]) -> int:
    """The dealer's 13th card, which is the 52nd card dealt (trump.source; deal.order gives the dealer the last card)."""
    return deck[51]


def trump_from_reveal(rules: Rules, card: int) -> int:
    """Trump suit for a revealed card under ``revealed-*`` sources (trump.source)."""
    suit = card // 13
    if rules.trump_source == "revealed-same-colour":
        return SAME_COLOUR[suit]
    if rules.trump_source == "revealed-suit":
        return suit
    raise ValueError(f"trump source {rules.trump_source} does not use a revealed card")


def is_weak_hand(mask: int) -> bool:
    """No card above 10 (no jack, queen, king or ace): deal.weak-redeal."""
    return mask & _HIGH_CARDS == 0


_HIGH_CARDS = sum(0b1111000000000 << (13 * s) for s in range(4))  # J, Q, K, A of every suit


# ---------------------------------------------------------- individual bids


def min_bid_for(rules: Rules, score: int) -> int:
    """Lowest bid for a player with ``score`` (bid.range, bid.rising-min)."""
    lo = rules.bid_min
    if rules.rising_min:
        for threshold, m in rules.rising_table:
            if score >= threshold:
                lo = max(lo, m)
    return lo


def legal_bids(rules: Rules, score: int) -> list[int]:
    lo = min_bid_for(rules, score)
    return [b for b in range(lo, rules.bid_max + 1) if b not in rules.bid_excluded]


def bid_violation(rules: Rules, score: int, bid: int | None, strain: int | None = None) -> tuple[str, str] | None:
    """None when ``bid`` is legal, else (clause id, reason); an individual bid names no suit (bid.meaning)."""
    if strain is not None:
        return "bid.meaning", "a bid here is a number of tricks without a suit"
    if bid is None:
        return "bid.no-pass", "passing is not allowed"
    if type(bid) is not int or not rules.bid_min <= bid <= rules.bid_max:  # a whole number of tricks in the range
        return "bid.range", f"bids run from {rules.bid_min} to {rules.bid_max}"
    if bid in rules.bid_excluded:
        return "bid.excluded", f"a bid of {bid} is not allowed"
    lo = min_bid_for(rules, score)
    if bid < lo:
        return "bid.rising-min", f"with a score of {score} the lowest bid is {lo}"
    return None


def total_in_force(rules: Rules, scores: Sequence[int]) -> int:
    """bid.total: the total the four bids must reach in a deal played on ``scores`` (each seat's score before it).

    ``total_min``, raised under reading rising of ambiguity raised-total to the total of each (threshold, total)
    pair of ``total_table`` whose threshold the top score at the table reaches (empty under reading fixed)."""
    need = rules.total_min
    for threshold, total in rules.total_table:
        if total > need and (scores[0] >= threshold or scores[1] >= threshold or scores[2] >= threshold
                             or scores[3] >= threshold):
            need = total
    return need


def bid_total(rules: Rules, bids: Sequence[int], scores: Sequence[int]) -> tuple[int, int]:
    """bid.total: (the total of the bids, the threshold it is compared with) in a deal played on ``scores``."""
    return sum(bids), total_in_force(rules, scores)


def hand_is_played(rules: Rules, bids: Sequence[int], scores: Sequence[int]) -> bool:
    """bid.total: the hand is played iff the bids sum to at least the threshold (:func:`bid_total`)."""
    total, threshold = bid_total(rules, bids, scores)
    return total >= threshold


def dealer_after_redeal(rules: Rules, dealer: int) -> int:
    """redeal.dealer: the same dealer, or the next one."""
    return dealer if rules.redeal_same_dealer else next_seat(rules, dealer)


# -------------------------------------------------------------------- play


def legal_play_mask(rules: Rules, hand: int, led: int, trump: int) -> int:
    """Cards of ``hand`` that may be played when ``led`` (-1 when leading) was led (play.follow, play.must-trump)."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    if follow:
        return follow
    if rules.must_trump and 0 <= trump < 4:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def play_violation(rules: Rules, hand: int, led: int, trump: int, card: int) -> tuple[str, str] | None:
    if type(card) is not int or not 0 <= card < 52 or not hand >> card & 1:
        return "play.follow", "the card is not in the player's hand"
    if legal_play_mask(rules, hand, led, trump) >> card & 1:
        return None
    if hand & SUIT_MASKS[led]:
        return "play.follow", "the player holds the led suit and must follow it"
    return "play.must-trump", "the player is void in the led suit, holds a trump and must trump"


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index (0..3, in play order) of the winning card (play.winner).

    The best card so far is always of the led suit or of trump; a later card
    beats it when it is higher in the same suit, or a trump over a non-trump.
    A discard of any other suit never wins. ``trump`` is 4 (no trump) or -1
    when there is none.
    """
    if len(cards) == 4:  # a whole trick, unrolled (the verifier and the engine call this 13 times a hand)
        c0, c1, c2, c3 = cards
        best, best_card, best_suit = 0, c0, c0 // 13
        s = c1 // 13
        if s == best_suit:
            if c1 > best_card:
                best, best_card = 1, c1
        elif s == trump:
            best, best_card, best_suit = 1, c1, s
        s = c2 // 13
        if s == best_suit:
            if c2 > best_card:
                best, best_card = 2, c2
        elif s == trump:
            best, best_card, best_suit = 2, c2, s
        s = c3 // 13
        if (s == best_suit and c3 > best_card) or (s != best_suit and s == trump):
            best = 3
        return best
    best = i = 0
    best_card = cards[0]
    best_suit = best_card // 13
    for c in cards:  # the first card compares with itself and changes nothing
        s = c // 13
        if s == best_suit:
            if c > best_card:
                best, best_card = i, c
        elif s == trump:
            best, best_card, best_suit = i, c, s
        i += 1
    return best


# ----------------------------------------------------------------- scoring


def bid_made(bid: int, tricks: int) -> bool:
    """A bid (or a contract) is made when at least that many tricks are taken; extra tricks change nothing here."""
    return tricks >= bid


def bid_value(rules: Rules, bid: int) -> int:
    """score.values: what a bid is worth, won when made and lost when failed."""
    return rules.values[bid]


def individual_delta(rules: Rules, bid: int, tricks: int) -> int:
    """score.individual / score.values (:func:`bid_value`) / score.extra."""
    v = bid_value(rules, bid)
    return v if bid_made(bid, tricks) else -v


def bid13_wins(rules: Rules, contract: int, team_tricks: int) -> bool:
    return rules.bid13 == "win" and contract == 13 and team_tricks == 13


def team_deltas(rules: Rules, contract: int, bidding_team: int, tricks: tuple[int, int]) -> tuple[int, int]:
    """Change in each team's score for an auction hand.

    Clauses score.standard / score.bid-only, score.kaboot and score.bid13, with the reading the rules select
    of ambiguities defender-kaboot (``rules.defender_kaboot``), kaboot-double-defenders
    (``rules.kaboot_double_defenders``), kaboot-bid-only (``rules.bid_only_kaboot``) and bid13-vs-kaboot
    (``rules.bid13_kaboot``), and the variant no document names ``rules.failed13_defenders``.
    """
    bt, dt = bidding_team, 1 - bidding_team
    made = bid_made(contract, tricks[bt])
    if rules.score_style == "standard":
        d_bt = tricks[bt] if made else -contract
        d_dt = 0 if made else tricks[dt]
        if contract == 13 and not made and rules.failed13_defenders == "double":
            d_dt = 2 * tricks[dt]
    else:
        d_bt = contract if made else -contract
        d_dt = 0
    kaboot_bt = tricks[bt] == 13 and (rules.score_style == "standard" or rules.bid_only_kaboot == "bidders-replace")
    by_bid13 = contract == 13 and rules.bid13 != "normal" and not (made and kaboot_bt and rules.bid13_kaboot == "kaboot-first")
    if by_bid13 and rules.bid13 == "26":
        d_bt = 26 if made else -16
    elif by_bid13 and made:
        pass  # bid13 = win: the game is won on the spot (auction_outcome); points as a made bid
    elif kaboot_bt:
        d_bt = _kaboot(rules, d_bt)
    if tricks[dt] == 13 and rules.score_style == "standard" and rules.defender_kaboot == "either-team" \
            and not (rules.kaboot == "double" and rules.kaboot_double_defenders == "usual"):
        d_dt = _kaboot(rules, d_dt)
    return (d_bt, d_dt) if bt == 0 else (d_dt, d_bt)


def _kaboot(rules: Rules, usual: int) -> int:
    if rules.kaboot == "16":
        return 16
    if rules.kaboot == "26":
        return 26
    if rules.kaboot == "double":
        return 2 * usual
    return usual


# ---------------------------------------------------------------- outcome


def qualification(rules: Rules, a: int, b: int) -> tuple[bool, bool, bool, bool]:
    """win.qualify, the four comparisons of partners on ``a`` and ``b``: (a at the target or more, b above zero,
    b at the target or more, a above zero). :func:`team_qualifies` combines them."""
    return a >= rules.target, b > 0, b >= rules.target, a > 0


def team_qualifies(rules: Rules, a: int, b: int) -> bool:
    """win.qualify: one partner at the target or more and the other above zero (:func:`qualification`)."""
    a_at, b_above, b_at, a_above = qualification(rules, a, b)
    return (a_at and b_above) or (b_at and a_above)


def tie_keys(rules: Rules, scores: Sequence[int]) -> tuple[int, int]:
    """tie.both-qualify: what decides between two qualifying teams, (team 0's, team 1's): the combined score of
    the partners, or the top score of either (the tie rule)."""
    if rules.tie_rule == "combined":
        return scores[0] + scores[2], scores[1] + scores[3]
    return max(scores[0], scores[2]), max(scores[1], scores[3])


def made_bid_winner(rules: Rules, bids: Sequence[int], tricks: Sequence[int],
                    scores: Sequence[int] | None = None) -> int | None:
    """win.made-bid: the first seat (0..3) that bid the winning bid and made it; None when none did or the
    ruleset has no such win. Under reading partner-positive of ambiguity bid10-partner the seat's partner must
    also be above zero in ``scores`` (each seat's score after the hand; without them no made bid wins)."""
    if rules.made_bid_wins:
        for seat in range(4):
            if bids[seat] == rules.made_bid_wins and bid_made(bids[seat], tricks[seat]) and (
                    rules.made_bid_partner == "outright" or (scores is not None and scores[partner(seat)] > 0)):
                return seat
    return None


def individual_outcome(rules: Rules, scores: Sequence[int], bids: Sequence[int] | None = None,
                       tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
    """(winning team or None, deciding clause id) after a scored hand."""
    if rules.made_bid_wins and bids is not None and tricks is not None:
        seat = made_bid_winner(rules, bids, tricks, scores)
        if seat is not None:
            return team_of(seat), "win.made-bid"
    q0 = team_qualifies(rules, scores[0], scores[2])
    q1 = team_qualifies(rules, scores[1], scores[3])
    if q0 and q1:
        a, b = tie_keys(rules, scores)
        if a == b:
            return None, "tie.both-qualify"
        return (0 if a > b else 1), "tie.both-qualify"
    if q0:
        return 0, "win.qualify"
    if q1:
        return 1, "win.qualify"
    return None, "win.qualify"


def target_reached(team_scores: Sequence[int], target: int) -> tuple[bool, bool]:
    """win.target: whether team 0 and team 1 have reached ``target`` (the score at the target or more)."""
    return team_scores[0] >= target, team_scores[1] >= target


def auction_outcome(rules: Rules, team_scores: tuple[int, int], target: int, bidding_team: int,
                    bid13_won: bool) -> tuple[int | None, str]:
    """(winning team or None, clause id) for the auction family at ``target``."""
    if bid13_won:
        return bidding_team, "score.bid13"
    reach = target_reached(team_scores, target)
    if reach[0] and reach[1]:
        return bidding_team, "tie.both-qualify"
    if reach[0]:
        return 0, "win.target"
    if reach[1]:
        return 1, "win.target"
    return None, "win.target"


def target_in_force(rules: Rules, games_won: int) -> int:
    """win.play-on: the target after ``games_won`` games. Ambiguity play-on-count: play on once (reading once),
    or after every game won (reading repeated: the rules never end the match, the host does)."""
    if rules.play_on_raise > 0 and games_won >= 1:
        if rules.play_on_count == "repeated":
            return rules.target + rules.play_on_raise * games_won
        return rules.target + rules.play_on_raise
    return rules.target


# ----------------------------------------------------------------- auction


def bid_key(n: int | None, strain: int | None) -> int:
    """Auction order of a bid: more tricks, then a higher strain (C < D < H < S < no trump); a pass is -1."""
    return -1 if n is None else n * 5 + (strain or 0)


def dealer_forced(rules: Rules, dealer: int, seat: int, top: tuple[int, int | None] | None, passes: int) -> bool:
    """auction.all-pass under the dealer-forced option: the dealer speaks after three passes and may not pass."""
    return rules.all_pass == "dealer-forced" and seat == dealer and top is None and passes == 3


def auction_bid_violation(rules: Rules, dealer: int, seat: int, top: tuple[int, int | None] | None, passes: int,
                          n: int | None, strain: int | None) -> tuple[str, str] | None:
    """None when ``seat`` may make bid ``(n, strain)`` (``n`` None: a pass) over ``top``, else (clause id, reason).

    Clauses auction.range, auction.raise, auction.dealer-privilege, auction.continuous, auction.all-pass
    (ambiguity forced-dealer-minimum: at least, or exactly, the minimum), auction.egyptian (ambiguity
    egyptian-dealer-match: the dealer may take exactly the top bid, or its number in any strain).
    """
    if n is None:
        if dealer_forced(rules, dealer, seat, top, passes):
            return "auction.all-pass", "the dealer must bid the minimum after three passes"
        return None
    if (strain is None) == rules.egyptian or (strain is not None and (type(strain) is not int or not 0 <= strain <= 4)):
        return "auction.egyptian", ("Egyptian bids name a suit or no trump" if rules.egyptian else "bids here name no suit")
    if type(n) is not int or not rules.min_bid <= n <= 13:  # a whole number of tricks
        return "auction.range", f"bids run from {rules.min_bid} to 13"
    if dealer_forced(rules, dealer, seat, top, passes) and rules.forced_bid == "exactly" and n != rules.min_bid:
        return "auction.all-pass", f"the dealer must bid exactly the minimum, {rules.min_bid}, after three passes"
    if top is not None:
        k, tk = bid_key(n, strain), bid_key(*top)
        dealer_privilege = seat == dealer and rules.auction_style == "dealer-privilege"
        # ambiguity egyptian-dealer-match, reading same-number-any-strain: the dealer takes the top bid's number (in
        # any strain: without Egyptian bids a bid has no strain, and its number is the bid the dealer may match)
        any_strain = (rules.egyptian and dealer_privilege and n == top[0]
                      and rules.dealer_match == "same-number-any-strain")
        if (k < tk or (k == tk and not dealer_privilege)) and not any_strain:
            if k == tk and seat == dealer:
                rule = "auction.continuous"
            elif dealer_privilege:
                rule = "auction.dealer-privilege"
            else:
                rule = "auction.raise"
            return rule, "a bid must be higher than the top bid" + (" (the dealer may match it)" if dealer_privilege else "")
    return None


def auction_next(rules: Rules, seat: int, spoken: int, active: Sequence[bool], has_top: bool, holder: int) -> int | None:
    """The seat to speak after ``seat``, or None when the auction is over (auction.order, auction.continuous).

    One round (dealer's privilege): over after four calls. Continuous: a pass is final; over when no one is left,
    or when only the holder of the top bid is left.
    """
    if rules.auction_style == "dealer-privilege":
        return None if spoken >= 4 else next_seat(rules, seat)
    n_active = sum(active)
    if (not has_top and n_active == 0) or (has_top and n_active == 1 and active[holder]):
        return None
    if n_active == 0:  # a top bid whose holder is out: no deal reaches it; over, rather than a search for no one
        return None
    nxt = next_seat(rules, seat)
    while not active[nxt]:
        nxt = next_seat(rules, nxt)
    return nxt
