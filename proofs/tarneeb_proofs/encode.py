"""Z3 encodings of the rules, built from a resolved :class:`tarneeb.core.spec.Rules` only.

Nothing here reads :mod:`tarneeb.core.rules` or :mod:`tarneeb.core.match`: every term is
written from the clause texts of ``spec/rulesets/*.toml`` and the parameters
``load_rules`` resolves (``Rules.values``, ``bid_min``, ``total_min``,
``tie_rule``, ``must_trump`` ...).

Two worlds, two sorts:

* **play** (cards, hands, tricks): bit-vectors, so a symbolic hand of 13
  tricks stays in QF_BV. A card is a 6-bit vector ``suit * 13 + rank``
  (as in :mod:`tarneeb.core.cards`), a hand a 52-bit mask, a seat a 2-bit vector
  (seat arithmetic is then modulo 4 for free), a suit 6 bits with
  ``NO_LED`` (63) for "nothing led yet" and 4 for no trump.
* **bidding, scoring, outcome**: unbounded integers (``z3.Int``).

Public API (used by the proofs in :mod:`tarneeb_proofs.registry`, the
differential tests and ``tarneeb diff``):

``Encoding(rules, mutant=None)``
    all term builders for one configuration. ``mutant`` names one
    deliberately wrong rule from :data:`tarneeb_proofs.encode_base.MUTANTS`; the proofs must find a
    counterexample for it.

``Encoding`` is built in layers, lowest first: :class:`tarneeb_proofs.encode_base.EncodingBase` (the rules, the
mutant switch, the turn order, the parameters a check may make symbolic),
:class:`tarneeb_proofs.encode_auction.AuctionEncoding` (the team auction: its state
:class:`~tarneeb_proofs.encode_auction.AuctionState`, its terms and their evaluation), and this module's class
(every other rule). The helpers below (``bv6``, ``suit_of``, ``holds`` ...) are for the proofs too.

Term builders (inputs are z3 terms; results are z3 terms):
    ``legal_play(hand, led, trump, card)``, ``legal_mask(hand, led, trump)``,
    ``trump_suit(revealed, named)``, ``trick_winner(cards, trump)`` (index in play order, 2 bits),
    ``trick_winner_seat(cards, trump, leader)``,
    ``is_winner(cards, trump, i)``, ``min_bid_for(score)``, ``legal_bid(score, bid)``,
    ``hand_played(bids, scores)``, ``dealer_after_redeal(dealer)``,
    ``individual_delta(bid, tricks)``, ``team_deltas(contract, bidding_team, bt_tricks)``,
    ``bid13_wins(contract, bt_tricks)``, ``team_qualifies(a, b)``, ``made_bid_win(bids, tricks)``,
    ``individual_outcome(scores, bids, tricks)`` -> :class:`Outcome`,
    ``auction_outcome(team_scores, target, bidding_team, bid13_won)`` -> :class:`Outcome`,
    ``target_in_force(games_won)``, ``auction(dealer, n_steps)`` ->
    :class:`~tarneeb_proofs.encode_auction.AuctionRun`, and its steps ``auction_start(dealer)``,
    ``call_ok(state, dealer, n, strain)``, ``auction_step(state, n, strain)``.

Concrete evaluation (the terms above at a point, through the one evaluator :class:`tarneeb_proofs.evaluate.Ev`:
each term set is built once per encoding and compiled once):
    ``eval_legal_mask``, ``eval_trick_winner``, ``eval_play_trick``, ``eval_next_seat``, ``eval_first_leader``,
    ``eval_trump_from_reveal``, ``eval_trump_ok``, ``eval_legal_bids``, ``eval_hand_played``,
    ``eval_dealer_after_redeal``, ``eval_individual_delta``, ``eval_team_deltas``,
    ``eval_bid13_wins``, ``eval_individual_outcome``, ``eval_auction_outcome``,
    ``eval_target_in_force``, the auction call by call (``eval_auction_start``, ``eval_call_ok``,
    ``eval_auction_step``, ``eval_key``) and ``eval_auction`` (given calls through :meth:`auction`). Each
    mirrors the function of the same name in :mod:`tarneeb.core.rules` (or, for ``eval_auction``, a whole
    auction driven through :class:`tarneeb.Match`), with the same argument and result conventions, so a test
    can compare them directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from .encode_auction import AuctionEncoding
from .encode_base import Term as Term  # a z3 expression: every module of the proofs takes it from here

NO_LED = 63
NO_TRUMP = 4
FULL = (1 << 52) - 1
SAME_COLOUR = (3, 2, 1, 0)  # clause trump.source (revealed-same-colour): clubs<->spades, diamonds<->hearts


# ------------------------------------------------------------------ helpers
def bv6(x: int | Term) -> Term:
    """A 6-bit term: a card or a suit (an int becomes a constant; a term is kept)."""
    return z3.BitVecVal(x, 6) if isinstance(x, int) else x


def seat2(x: int | Term) -> Term:
    """A 2-bit term: a seat (an int becomes a constant; a term is kept)."""
    return z3.BitVecVal(x, 2) if isinstance(x, int) else x


def suit_of(card: Term) -> Term:
    """Suit (6 bits) of a 6-bit card."""
    return z3.If(z3.ULT(card, 13), bv6(0), z3.If(z3.ULT(card, 26), bv6(1), z3.If(z3.ULT(card, 39), bv6(2), bv6(3))))


def rank_of(card: Term) -> Term:
    """Rank (0 = two .. 12 = ace, 6 bits) of a 6-bit card."""
    return card - suit_of(card) * 13


def card_bit(card: Term) -> Term:
    """The 52-bit one-hot mask of a card."""
    return z3.BitVecVal(1, 52) << z3.ZeroExt(46, card)


def holds(hand: Term, card: Term) -> Term:
    """Whether the 52-bit ``hand`` holds ``card``."""
    return (hand & card_bit(card)) != 0


SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def suit_mask(suit: Term) -> Term:
    """52-bit mask of a suit; empty for no trump (4) or nothing led."""
    out = z3.BitVecVal(0, 52)
    for s in range(3, -1, -1):
        out = z3.If(suit == s, z3.BitVecVal(SUIT_MASKS[s], 52), out)
    return out


def popcount52(x: Term) -> Term:
    """Number of set bits of a 52-bit vector, as an 8-bit vector."""
    return z3.Sum([z3.ZeroExt(7, z3.Extract(i, i, x)) for i in range(52)])


def zmax(a: Term, b: Term) -> Term:
    """The larger of two integer terms."""
    return z3.If(a >= b, a, b)


@dataclass(frozen=True)
class Outcome:
    """Three exclusive results of a scored hand, each a z3 Bool, with the deciding clause."""

    team0: Term
    team1: Term
    play_on: Term
    clause: Term  # z3 String: the clause id that decides

    def winner(self) -> Term:
        """0, 1, or -1 for play on."""
        return z3.If(self.team0, z3.IntVal(0), z3.If(self.team1, z3.IntVal(1), z3.IntVal(-1)))


@dataclass
class PlayStep:
    """One card played (:meth:`Encoding.play_step`): the state after it and the facts of the play."""

    seat: Term  # 2 bits: the seat that played
    hand: Term  # 52 bits: its hand before the play
    legal: Term  # Bool: the card is a legal play from that hand (play.follow, play.must-trump)
    hands: list[Term]  # the four hands after the play
    closes: Term  # Bool: the card is the fourth of the trick
    winner: Term  # 2 bits: the seat whose card wins the trick (when it closes)
    leader: Term  # 2 bits: the leader after the play (the winner's lead when the trick closed)
    m: Term  # 2 bits: cards in the current trick after the play (0 when it closed)


class Encoding(AuctionEncoding):
    """Every rule of one configuration as z3 terms (see the module docstring): ``Encoding(rules, mutant=None)``."""

    def _suit(self, card: Term) -> Term:
        """``suit_of(card)``, the same term, built once (a trick's terms ask for it many times)."""
        hit = self._suits.get(card.get_id())
        if hit is None:
            hit = self._suits[card.get_id()] = (card, suit_of(card))
        return hit[1]

    # ------------------------------------------------------------- seats
    def next_seat2(self, seat: Term) -> Term:
        """play.direction, on 2-bit seats (on integer seats: :meth:`next_seat`, of the auction's layer below)."""
        return seat2(seat) + self.step

    def first_dealers(self) -> list[int]:
        """deal.first-dealer: chance picks any of the 4 seats; under reading seat0 of ambiguity first-dealer
        (spec/ambiguities.toml) seat 0 alone."""
        return [0] if self.r.first_dealer == "seat0" else [0, 1, 2, 3]

    def team_of(self, seat: Term) -> Term:
        """seats.partners: the team of an integer seat (team 0 is seats 0 and 2, team 1 seats 1 and 3)."""
        return seat % 2

    def dealt_to(self, place: int) -> tuple[int, int]:
        """deal.order: (k, i) for the card at ``place`` (0..51) of the deck: the i-th card of the k-th seat to
        receive cards (the seat after the dealer is k = 0): ``place`` mod 4 and ``place`` // 4 one card at a time;
        in the rounds of packets of ``deal_packets`` (reading in-packets of ambiguity classic-deal-order), the
        round the place falls in, its seat's packet within the round and the card's place in the packet."""
        sizes = self.r.deal_packets or (1,) * 13
        start, before = 0, 0  # the round's first place; the cards each seat holds before the round
        for size in sizes:
            if place < start + 4 * size:
                k, j = divmod(place - start, size)
                return k, before + j
            start, before = start + 4 * size, before + size
        raise ValueError(f"place {place} is past the {start} cards the packets deal")

    # ------------------------------------------------------------- trump
    def trump_ok(self, trump: Term) -> Term:
        """trump.source: the trump values this configuration can produce (4 = no trump)."""
        r = self.r
        if r.trump_source == "fixed":
            return trump == r.fixed_suit
        if r.trump_source in ("revealed-same-colour", "revealed-suit"):
            return z3.ULT(trump, 4)
        return z3.ULE(trump, 4) if r.egyptian else z3.ULT(trump, 4)

    def trump_from_reveal(self, card: Term) -> Term:
        """trump.source: the trump a turned card names (its suit, or its same-colour partner)."""
        s = suit_of(card)
        if self.r.trump_source == "revealed-same-colour":
            return z3.If(s == 0, bv6(3), z3.If(s == 1, bv6(2), z3.If(s == 2, bv6(1), bv6(0))))
        return s

    def trump_suit(self, revealed: Term, named: Term) -> Term:
        """trump.source: the trump of a hand (6 bits, 4 = no trump).

        ``revealed`` is the dealer's turned card (6 bits), ``named`` the strain the
        contract names (6 bits; the auction family): fixed suit, the turned card's
        suit or its same-colour partner, or the named strain.
        """
        r = self.r
        if r.trump_source == "fixed":
            return bv6(r.fixed_suit)
        if r.trump_source in ("revealed-same-colour", "revealed-suit"):
            return self.trump_from_reveal(revealed)
        return bv6(named)

    def weak_claimed(self) -> bool:
        """deal.weak-redeal: whether a weak seat may keep its hand, each in bidding order asking for a redeal or
        keeping it (reading claimed of ambiguity weak-hand), rather than a weak hand cancelling the deal at once."""
        return self.r.weak_redeal and self.r.weak_claim == "claimed"

    def weak_hand(self, hand: Term) -> Term:
        """deal.weak-redeal: a hand with no card above 10 (no jack, queen, king or ace) is weak."""
        high = sum((((1 << 13) - 1) & ~((1 << 9) - 1)) << (13 * s) for s in range(4))
        return (hand & z3.BitVecVal(high, 52)) == 0

    # -------------------------------------------------------------- play
    def legal_play(self, hand: Term, led: Term, trump: Term, card: Term) -> Term:
        """play.follow (and play.must-trump): may ``card`` be played from ``hand``?"""
        in_hand = holds(hand, card)
        if self.m("follow-not-enforced"):
            return in_hand
        leading = led == NO_LED
        void = (hand & suit_mask(led)) == 0
        must = (self.r.must_trump or self.m("discard-forbidden")) and not self.m("must-trump-ignored")
        trump_rule: Term = z3.BoolVal(True)
        if must:
            play_trump = suit_of(card) == trump
            if self.m("must-trump-highest"):  # no higher trump held: the held trumps above the card
                above = ~((card_bit(card) << 1) - 1)
                play_trump = z3.And(play_trump, (hand & suit_mask(trump) & above) == 0)
            trump_rule = z3.Or(z3.UGE(trump, 4), (hand & suit_mask(trump)) == 0, play_trump)
        if self.m("lead-trump-forbidden"):
            in_hand = z3.And(in_hand, z3.Not(z3.And(leading, suit_of(card) == trump, (hand & ~suit_mask(trump)) != 0)))
        return z3.And(in_hand, z3.Or(leading, suit_of(card) == led, z3.And(void, trump_rule)))

    def legal_mask(self, hand: Term, led: Term, trump: Term) -> Term:
        """The 52-bit mask of the cards :meth:`legal_play` allows from ``hand``."""
        bits = [z3.If(self.legal_play(hand, led, trump, bv6(c)), z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
                for c in range(51, -1, -1)]
        return z3.Concat(*bits)

    def _counts(self, cards: Sequence[Term], trump: Term, i: int) -> Term:
        """Can card i win at all? (trump if a trump was played, else the led suit)."""
        led = self._suit(cards[0])
        if self.m("winner-highest-rank"):
            return z3.BoolVal(True)
        if self.m("winner-ignores-trump"):
            return self._suit(cards[i]) == led
        trumped = z3.Or([self._suit(c) == trump for c in cards])
        return z3.If(trumped, self._suit(cards[i]) == trump, self._suit(cards[i]) == led)

    def is_winner(self, cards: Sequence[Term], trump: Term, i: int) -> Term:
        """play.winner: card i is the highest trump played, or with no trump the highest of the led suit."""
        key = rank_of if self.m("winner-highest-rank") else (lambda c: c)
        others = [z3.Or(z3.Not(self._counts(cards, trump, j)), z3.ULT(key(cards[j]), key(cards[i])))
                  for j in range(len(cards)) if j != i]
        return z3.And(self._counts(cards, trump, i), *others)

    def trick_winner(self, cards: Sequence[Term], trump: Term) -> Term:
        """Index (2 bits, in play order) of the winning card."""
        out = seat2(3)
        for i in (2, 1, 0):
            out = z3.If(self.is_winner(cards, trump, i), seat2(i), out)
        return out

    def first_leader(self, dealer: Term, holder: Term) -> Term:
        """play.lead (2-bit seats): the first bidder after the dealer, or the contract holder."""
        if self.m("lead-by-dealer"):
            return seat2(dealer)
        return self.next_seat2(dealer) if self.r.individual else holder

    def play_step(self, hands: Sequence[Term], leader: Term, m: Term, trick: Sequence[Term], trump: Term,
                  card: Term) -> PlayStep:
        """One card played: the play relation of a hand (the 13-trick proofs and ``play_trick`` use it).

        ``hands``: the four 52-bit hands; ``leader``: the 2-bit seat that led the
        current trick; ``m``: cards already in the trick (2 bits, 0..3);
        ``trick``: its cards so far (three 6-bit terms, the first ``m`` count);
        ``card``: the card played. The seat to move is ``leader`` + ``m`` steps
        in play.direction; the card must be legal (play.follow,
        play.must-trump); the fourth card closes the trick, whose winner
        (play.winner) leads next (play.next-lead).
        """
        step = seat2(self.step % 4)
        seat = seat2(leader) + m * step
        hand = hands[3]
        for j in (2, 1, 0):
            hand = z3.If(seat == j, hands[j], hand)
        led = z3.If(m == 0, bv6(NO_LED), suit_of(trick[0]))
        source = z3.BitVecVal(FULL, 52) if self.m("card-from-anywhere") else hand
        legal = self.legal_play(source, led, trump, card)
        after = [z3.If(seat == j, hands[j] & ~card_bit(card), hands[j]) for j in range(4)]
        closes = m == 3
        winner = self.trick_winner_seat([trick[0], trick[1], trick[2], card], trump, leader)
        nxt = winner + 1 if self.m("next-lead-after-winner") else winner
        return PlayStep(seat, hand, legal, after, closes, winner, z3.If(closes, nxt, seat2(leader)), m + 1)

    def play_trick(self, hands: Sequence[Term], leader: Term, trump: Term,
                   cards: Sequence[Term]) -> tuple[Term, list[list[Term]], list[Term], Term, list[Term]]:
        """One trick: four :meth:`play_step` from ``leader`` (play.direction, play.follow, play.winner).

        Returns (all four plays legal, the four hands before each play and after
        the trick (5 lists), the seat of each play, the seat that leads next:
        the winner's (play.winner, play.next-lead), the hand each player held
        before playing).
        """
        cur = list(hands)
        history = [cur]
        seats: list[Term] = []
        before: list[Term] = []
        ok: list[Term] = []
        win: Term = seat2(leader)
        for i, c in enumerate(cards):
            trick = [cards[min(j, i)] for j in range(3)]  # the cards before this one (only the first i count)
            st = self.play_step(cur, leader, seat2(i), trick, trump, c)
            before.append(st.hand)
            seats.append(st.seat)
            ok.append(st.legal)
            cur = st.hands
            history.append(cur)
            win = st.leader
        return z3.And(ok), history, seats, win, before

    def trick_winner_seat(self, cards: Sequence[Term], trump: Term, leader: Term) -> Term:
        """play.winner and play.direction: the seat (2 bits) that wins a trick led by ``leader``."""
        seats: list[Term] = []
        seat = seat2(leader)
        for _ in cards:
            seats.append(seat)
            seat = self.next_seat2(seat)
        idx = self.trick_winner(cards, trump)
        win = seats[3]
        for i in (2, 1, 0):
            win = z3.If(idx == i, seats[i], win)
        return win

    # ---------------------------------------------------- individual bids
    def min_bid_for(self, score: Term) -> Term:
        """bid.range / bid.rising-min: the lowest bid for a player with ``score``."""
        r = self.r
        lo: Term = z3.IntVal(r.bid_min - (1 if self.m("bid-below-min") else 0))
        if r.rising_min and not self.m("rising-min-ignored"):
            early = 1 if self.m("rising-min-early") else 0
            for threshold, m in r.rising_table:
                lo = z3.If(score >= threshold - early, zmax(lo, z3.IntVal(m)), lo)
        return lo

    def bid_max(self) -> int:
        """bid.range: the highest bid."""
        if self.m("top-bid-refused"):
            return self.r.bid_max - 1
        return 2 if self.m("bids-capped-at-2") else self.r.bid_max

    def legal_bid(self, score: Term, bid: Term) -> Term:
        """bid.range / bid.rising-min: may a player with ``score`` bid ``bid``?"""
        parts = [bid >= self.min_bid_for(score), bid <= self.bid_max()]
        if not self.m("excluded-bid-allowed"):
            parts += [bid != x for x in sorted(self.r.bid_excluded)]
        return z3.And(parts)

    def total_min(self) -> int:
        """bid.total: the least total of the four bids that gets a hand played (raised by :meth:`total_needed`)."""
        return self.r.total_min + (1 if self.m("redeal-threshold-plus-1") else 0)

    def total_needed(self, scores: Sequence[Term]) -> Term:
        """bid.total: the threshold of a deal played on ``scores`` (the seats' scores before it): ``total_min``, or
        under reading rising of ambiguity raised-total the largest total of ``total_table`` whose score threshold
        some seat has reached, when that is larger."""
        need: Term = z3.IntVal(self.total_min())
        for threshold, total in self.r.total_table:
            need = z3.If(z3.Or([x >= threshold for x in scores]), zmax(need, z3.IntVal(total)), need)
        return need

    def hand_played(self, bids: Sequence[Term], scores: Sequence[Term]) -> Term:
        """bid.total: played iff the four bids reach the threshold in force on ``scores``."""
        return z3.Sum(list(bids)) >= self.total_needed(scores)

    def dealer_after_redeal(self, dealer: Term) -> Term:
        """bid.total: who deals after a thrown-in hand (the same dealer or the next seat)."""
        same = self.r.redeal_same_dealer != self.m("redeal-dealer-swapped")
        return dealer if same else self.next_seat(dealer)

    # ---------------------------------------------------------- scoring
    def value_of(self, bid: Term) -> Term:
        """score.values: the value of a bid (0 outside the table)."""
        out: Term = z3.IntVal(0)
        for b in range(self.r.bid_min, self.r.bid_max + 1):
            out = z3.If(bid == b, z3.IntVal(self.r.values[b]), out)
        return out

    def individual_delta(self, bid: Term, tricks: Term) -> Term:
        """score.individual / score.extra: +value when tricks >= bid, else -value."""
        v = self.value_of(bid)
        made = v + (tricks - bid) if self.m("extra-tricks-count") else v
        failed = v if self.m("failed-bid-scores") else -v
        return z3.If(tricks >= bid, made, failed)

    def bid13_wins(self, contract: Term, bt_tricks: Term) -> Term:
        """score.bid13: under bid13 = win, a bid of 13 whose team takes all 13 tricks wins on the spot."""
        return z3.And(z3.BoolVal(self.r.bid13 == "win"), contract == 13, bt_tricks == 13)

    def _kaboot(self, usual: Term) -> Term:
        k = self.r.kaboot
        if k == "16":
            return z3.IntVal(16)
        if k == "26":
            return z3.IntVal(26)
        if k == "double":
            return 2 * usual
        return usual

    def team_deltas(self, contract: Term, bidding_team: Term, bt_tricks: Term) -> tuple[Term, Term]:
        """(team 0 change, team 1 change) for an auction hand; the defenders take 13 - bt_tricks.

        score.standard / score.bid-only, score.kaboot (all 13 tricks replace the
        usual points; defenders too under standard unless the reading is bidders-only, and under kaboot
        double their usual points unless the reading is usual), score.bid13 (which decides a bid of 13
        unless the reading is kaboot-first and the kaboot applies); a failed 13 may pay the defenders double
        (a variant no document names).
        """
        r = self.r
        dt_tricks = 13 - bt_tricks
        made = bt_tricks >= contract
        if r.score_style == "standard":
            d_bt = z3.If(made, bt_tricks, -contract)
            d_dt = z3.If(made, dt_tricks if self.m("defenders-score-on-made") else z3.IntVal(0), dt_tricks)
            if r.failed13_defenders == "double":
                d_dt = z3.If(z3.And(contract == 13, z3.Not(made)), 2 * dt_tricks, d_dt)
        else:
            d_bt = z3.If(made, contract, -contract)
            d_dt = z3.IntVal(0)
        bidders_kaboot = z3.And(bt_tricks == 13, z3.BoolVal(r.score_style == "standard"
                                                            or r.bid_only_kaboot == "bidders-replace"))
        kaboot_bt = z3.If(bidders_kaboot, self._kaboot(d_bt), d_bt)
        # a made 13 whose kaboot the reading kaboot-first puts before the bid-13 rule
        kaboot_first = z3.And(made, bidders_kaboot, z3.BoolVal(r.bid13_kaboot == "kaboot-first"))
        if r.bid13 == "26":
            b26 = z3.If(made, z3.IntVal(-16), z3.IntVal(26)) if self.m("bid13-26-swapped") else \
                z3.If(made, z3.IntVal(26), z3.IntVal(-16))
            d_bt = z3.If(z3.And(contract == 13, z3.Not(kaboot_first)), b26, kaboot_bt)
        elif r.bid13 == "win":
            d_bt = z3.If(z3.And(contract == 13, made, z3.Not(kaboot_first)), d_bt, kaboot_bt)
        else:
            d_bt = kaboot_bt
        defenders_kaboot = r.score_style == "standard" and r.defender_kaboot == "either-team" and not (
            r.kaboot == "double" and r.kaboot_double_defenders == "usual")
        if defenders_kaboot:
            d_dt = z3.If(dt_tricks == 13, self._kaboot(d_dt), d_dt)
        return z3.If(bidding_team == 0, d_bt, d_dt), z3.If(bidding_team == 0, d_dt, d_bt)

    # ---------------------------------------------------------- outcome
    def team_qualifies(self, a: Term, b: Term) -> Term:
        """win.qualify: one partner at the target or more, the other above zero."""
        t = self.target
        if self.m("partner-geq-0"):
            return z3.Or(z3.And(a >= t, b >= 0), z3.And(b >= t, a >= 0))
        return z3.Or(z3.And(a >= t, b > 0), z3.And(b >= t, a > 0))

    def tie_key(self, a: Term, b: Term) -> Term:
        """tie.both-qualify: combined score, or the top individual score."""
        return a + b if self.r.tie_rule == "combined" else zmax(a, b)

    def made_bid_win(self, bids: Sequence[Term] | None, tricks: Sequence[Term] | None,
                     scores: Sequence[Term] | None = None) -> list[Term]:
        """win.made-bid (option made_bid_wins = N): per team, a Bool "a player of this team bid N and made it"
        (under reading partner-positive of ambiguity bid10-partner: and the partner's ``scores`` entry, after the
        hand, is above zero; without scores no made bid wins under that reading).

        The first seat (in seat order) that made it decides, as a tie-break of an
        impossible case. Both False when the rule is off or no bids are given.
        """
        x = self.r.made_bid_wins
        if not x or bids is None or tricks is None:
            return [z3.BoolVal(False), z3.BoolVal(False)]
        positive = self.r.made_bid_partner == "partner-positive"
        mk = [z3.And(bids[s] == x, tricks[s] >= bids[s],
                     z3.BoolVal(True) if not positive else
                     z3.BoolVal(False) if scores is None else scores[(s + 2) % 4] > 0) for s in range(4)]
        return [z3.Or(mk[0], z3.And(z3.Not(mk[0]), z3.Not(mk[1]), mk[2])),
                z3.And(z3.Not(mk[0]), z3.Or(mk[1], z3.And(z3.Not(mk[2]), mk[3])))]

    def individual_outcome(self, scores: Sequence[Term], bids: Sequence[Term] | None = None,
                           tricks: Sequence[Term] | None = None) -> Outcome:
        """win.qualify, tie.both-qualify, win.made-bid: who has won after a scored hand (individual family)."""
        made_by = self.made_bid_win(bids, tricks, scores)
        made_any = z3.Or(made_by)
        q0 = self.team_qualifies(scores[0], scores[2])
        q1 = self.team_qualifies(scores[1], scores[3])
        k0 = self.tie_key(scores[0], scores[2])
        k1 = self.tie_key(scores[1], scores[3])
        both = z3.And(q0, q1)
        better0 = z3.BoolVal(True) if self.m("tie-to-team-0") else k0 > k1
        win0 = z3.Or(made_by[0], z3.And(z3.Not(made_any), q0, z3.Or(z3.Not(q1), better0)))
        win1 = z3.Or(made_by[1], z3.And(z3.Not(made_any), q1, z3.Or(z3.Not(q0), k1 > k0)))
        play_on = z3.And(z3.Not(made_any), z3.Or(z3.And(z3.Not(q0), z3.Not(q1)), z3.And(both, k0 == k1)))
        clause = z3.If(made_any, z3.StringVal("win.made-bid"),
                       z3.If(both, z3.StringVal("tie.both-qualify"), z3.StringVal("win.qualify")))
        return Outcome(win0, win1, play_on, clause)

    def auction_outcome(self, team_scores: Sequence[Term], target: Term, bidding_team: Term,
                        bid13_won: Term) -> Outcome:
        """win.target, tie.both-qualify (bidding team), score.bid13 (win on the spot)."""
        r0, r1 = team_scores[0] >= target, team_scores[1] >= target
        both = z3.And(r0, r1)
        tie_team = 1 - bidding_team if self.m("tie-to-defenders") else bidding_team
        w0 = z3.Or(z3.And(bid13_won, bidding_team == 0),
                   z3.And(z3.Not(bid13_won), z3.Or(z3.And(both, tie_team == 0), z3.And(r0, z3.Not(r1)))))
        w1 = z3.Or(z3.And(bid13_won, bidding_team == 1),
                   z3.And(z3.Not(bid13_won), z3.Or(z3.And(both, tie_team == 1), z3.And(r1, z3.Not(r0)))))
        on = z3.And(z3.Not(bid13_won), z3.Not(r0), z3.Not(r1))
        clause = z3.If(bid13_won, z3.StringVal("score.bid13"),
                       z3.If(both, z3.StringVal("tie.both-qualify"), z3.StringVal("win.target")))
        return Outcome(w0, w1, on, clause)

    def target_in_force(self, games_won: Term) -> Term:
        """win.play-on: the target rises once, after the first game."""
        if self.m("play-on-not-raised"):
            return self.target
        # ambiguity play-on-count: once, or (reading repeated) one raise per game won
        raised = self.target + (self.play_on_raise * games_won if self.r.play_on_count == "repeated"
                                else self.play_on_raise)
        return z3.If(z3.And(self.play_on_raise > 0, games_won >= 1), raised, self.target)

    # ------------------------------------------------ concrete evaluation
    # play
    def eval_legal_mask(self, hand: int, led: int, trump: int) -> int:
        """Mirror of ``rules.legal_play_mask`` (led -1 when leading; trump -1 or 4 when none)."""
        def b() -> tuple[list[Term], list[Term]]:
            h, ld, t = z3.BitVec("h", 52), z3.BitVec("led", 6), z3.BitVec("t", 6)
            return [h, ld, t], [self.legal_mask(h, ld, t)]
        return int(self._ev("legal_mask", b)(hand, NO_LED if led < 0 else led, _trump(trump))[0])

    def eval_trick_winner(self, cards: Sequence[int], trump: int) -> int:
        """Mirror of ``rules.trick_winner``: index in play order."""
        def b() -> tuple[list[Term], list[Term]]:
            cs = [z3.BitVec(f"c{i}", 6) for i in range(4)]
            t = z3.BitVec("t", 6)
            return [*cs, t], [self.trick_winner(cs, t)]
        return int(self._ev("trick_winner", b)(*cards, _trump(trump))[0])

    def eval_play_trick(self, hands: Sequence[int], leader: int, trump: int,
                        cards: Sequence[int]) -> tuple[bool, list[int], list[int], int]:
        """The trick relation (:meth:`play_trick`): (all four plays legal, hands after, seat of each play, winner)."""
        def b() -> tuple[list[Term], list[Term]]:
            hs = [z3.BitVec(f"H{j}", 52) for j in range(4)]
            cs = [z3.BitVec(f"c{i}", 6) for i in range(4)]
            ld, t = z3.BitVec("L", 2), z3.BitVec("t", 6)
            ok, hist, seats, win, _ = self.play_trick(hs, ld, t, cs)
            return [*hs, ld, t, *cs], [ok, *hist[4], *seats, win]
        v = self._ev("play_trick", b)(*hands, leader, _trump(trump), *cards)
        return bool(v[0]), [int(x) for x in v[1:5]], [int(x) for x in v[5:9]], int(v[9])

    def eval_next_seat(self, seat: int) -> int:
        """Mirror of ``rules.next_seat``."""
        def b() -> tuple[list[Term], list[Term]]:
            s = z3.Int("s")
            return [s], [self.next_seat(s)]
        return int(self._ev("next_seat", b)(seat)[0])

    def eval_first_leader(self, dealer: int, holder: int) -> int:
        """play.lead: the first leader of a hand (``holder``: the contract holder, ignored for individual bids)."""
        def b() -> tuple[list[Term], list[Term]]:
            d, h = z3.BitVec("d", 2), z3.BitVec("h", 2)
            return [d, h], [self.first_leader(d, h)]
        return int(self._ev("first_leader", b)(dealer, holder)[0])

    def eval_trump_from_reveal(self, card: int) -> int:
        """Mirror of ``rules.trump_from_reveal``."""
        def b() -> tuple[list[Term], list[Term]]:
            c = z3.BitVec("c", 6)
            return [c], [self.trump_from_reveal(c)]
        return int(self._ev("trump_from_reveal", b)(card)[0])

    def eval_trump_ok(self, trump: int) -> bool:
        """Whether this configuration can produce the trump value ``trump`` (:meth:`trump_ok`)."""
        def b() -> tuple[list[Term], list[Term]]:
            t = z3.BitVec("t", 6)
            return [t], [self.trump_ok(t)]
        return bool(self._ev("trump_ok", b)(trump)[0])

    # individual bids
    def eval_legal_bids(self, score: int) -> list[int]:
        """Mirror of ``rules.legal_bids``: every legal bid from 0 to 13."""
        def b() -> tuple[list[Term], list[Term]]:
            s = z3.Int("score")
            return [s], [self.legal_bid(s, z3.IntVal(i)) for i in range(14)]
        return [i for i, ok in enumerate(self._ev("legal_bids", b)(score)) if ok]

    def eval_hand_played(self, bids: Sequence[int], scores: Sequence[int]) -> bool:
        """Mirror of ``rules.hand_is_played``."""
        def b() -> tuple[list[Term], list[Term]]:
            bs = [z3.Int(f"b{i}") for i in range(4)]
            ss = [z3.Int(f"s{i}") for i in range(4)]
            return bs + ss, [self.hand_played(bs, ss)]
        return bool(self._ev("hand_played", b)(*bids, *scores)[0])

    def eval_dealer_after_redeal(self, dealer: int) -> int:
        """Mirror of ``rules.dealer_after_redeal``."""
        def b() -> tuple[list[Term], list[Term]]:
            d = z3.Int("d")
            return [d], [self.dealer_after_redeal(d)]
        return int(self._ev("dealer_after_redeal", b)(dealer)[0])

    # scoring and outcome
    def eval_individual_delta(self, bid: int, tricks: int) -> int:
        """Mirror of ``rules.individual_delta``."""
        def b() -> tuple[list[Term], list[Term]]:
            x, t = z3.Int("b"), z3.Int("t")
            return [x, t], [self.individual_delta(x, t)]
        return int(self._ev("individual_delta", b)(bid, tricks)[0])

    def eval_team_deltas(self, contract: int, bidding_team: int, tricks: tuple[int, int]) -> tuple[int, int]:
        """Mirror of ``rules.team_deltas`` (tricks by team, summing to 13)."""
        def b() -> tuple[list[Term], list[Term]]:
            c, bt, tb = z3.Int("c"), z3.Int("bt"), z3.Int("tb")
            return [c, bt, tb], list(self.team_deltas(c, bt, tb))
        d0, d1 = self._ev("team_deltas", b)(contract, bidding_team, tricks[bidding_team])
        return int(d0), int(d1)

    def eval_bid13_wins(self, contract: int, team_tricks: int) -> bool:
        """Mirror of ``rules.bid13_wins``."""
        def b() -> tuple[list[Term], list[Term]]:
            c, t = z3.Int("c"), z3.Int("t")
            return [c, t], [self.bid13_wins(c, t)]
        return bool(self._ev("bid13_wins", b)(contract, team_tricks)[0])

    def eval_individual_outcome(self, scores: Sequence[int], bids: Sequence[int] | None = None,
                                tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
        """Mirror of ``rules.individual_outcome``: (winning team or None, clause id)."""
        with_bids = bids is not None and tricks is not None

        def b() -> tuple[list[Term], list[Term]]:
            s = [z3.Int(f"s{i}") for i in range(4)]
            if not with_bids:
                o = self.individual_outcome(s)
                return s, [o.winner(), o.clause]
            bs = [z3.Int(f"b{i}") for i in range(4)]
            ts = [z3.Int(f"t{i}") for i in range(4)]
            o = self.individual_outcome(s, bs, ts)
            return [*s, *bs, *ts], [o.winner(), o.clause]
        args = [*scores, *(bids or []), *(tricks or [])] if with_bids else list(scores)
        w, clause = self._ev("individual_outcome" + ("+bids" if with_bids else ""), b)(*args)
        return (None if w < 0 else int(w)), str(clause)

    def eval_auction_outcome(self, team_scores: tuple[int, int], target: int, bidding_team: int,
                             bid13_won: bool) -> tuple[int | None, str]:
        """Mirror of ``rules.auction_outcome``: (winning team or None, clause id)."""
        def b() -> tuple[list[Term], list[Term]]:
            s = [z3.Int("s0"), z3.Int("s1")]
            t, bt, b13 = z3.Int("T"), z3.Int("bt"), z3.Bool("b13")
            o = self.auction_outcome(s, t, bt, b13)
            return [*s, t, bt, b13], [o.winner(), o.clause]
        w, clause = self._ev("auction_outcome", b)(team_scores[0], team_scores[1], target, bidding_team, bid13_won)
        return (None if w < 0 else int(w)), str(clause)

    def eval_target_in_force(self, games_won: int) -> int:
        """Mirror of ``rules.target_in_force``."""
        def b() -> tuple[list[Term], list[Term]]:
            g = z3.Int("g")
            return [g], [self.target_in_force(g)]
        return int(self._ev("target_in_force", b)(games_won)[0])


def _trump(trump: int) -> int:
    return NO_TRUMP if trump < 0 else trump


Builder = Callable[[Encoding], Term]
