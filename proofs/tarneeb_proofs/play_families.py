"""Families 1 and 2 of the proofs: a hand is 13 tricks (``tricks``), follow-suit and the trick winner (``follow``).

The builders take an :class:`~tarneeb_proofs.encode.Encoding` and return the
obligations; :mod:`tarneeb_proofs.registry` registers them (and runs them). What
each family proves is written in ``proofs/README.md``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from .encode import (
    FULL,
    NO_LED,
    Encoding,
    PlayStep,
    Term,
    bv6,
    card_bit,
    holds,
    popcount52,
    suit_mask,
    suit_of,
)
from .obligations import Obligation, bval, exactly_one, ival
from .witness import Witness, card_text, hand_text, seat_text, suit_text

# ====================================================== 1. a hand is 13 tricks
# the hand invariant at a state (hands, played set, tricks done, cards in the trick, leader, tricks won, a count)
_Invariant = Callable[[Sequence[Term], Term, Term, Term, Term, Sequence[Term], Callable[[Term], Term]], Term]


def _count_lemmas(cnt: Callable[[Term], Term], x: Term, c: Term) -> list[Term]:
    """Instances, at the terms ``x`` and ``c``, of the counting lemmas proved for ``popcount52`` (:func:`_popcount_obs`)."""
    b = card_bit(c)
    return [z3.Implies((x & b) != 0, cnt(x & ~b) + 1 == cnt(x)),
            z3.Implies((x & b) == 0, cnt(x | b) == cnt(x) + 1),
            (cnt(x) == 0) == (x == 0)]


@functools.cache
def _popcount_obs() -> list[Obligation]:
    """The counting lemmas, for the real ``popcount52``: one card at a time (all 52), and "count 0 iff empty"."""
    X = z3.BitVec("X", 52)

    def w_x(m: Any) -> Witness:
        w = Witness(title="a set of cards")
        w.add("cards", hand_text(ival(m, X)))
        return w

    obs = []
    for c in range(52):
        b = z3.BitVecVal(1 << c, 52)
        obs.append(Obligation(f"lemma: removing card {c} lowers the count by one", [(X & b) != 0],
                              popcount52(X & ~b) + 1 == popcount52(X), w_x, share=True))
        obs.append(Obligation(f"lemma: adding card {c} raises the count by one", [(X & b) == 0],
                              popcount52(X | b) == popcount52(X) + 1, w_x, share=True))
    obs.append(Obligation("lemma: a set counts 0 iff it is empty", [], (popcount52(X) == 0) == (X == 0), w_x,
                          share=True))
    return obs


def _tricks(enc: Encoding) -> list[Obligation]:
    """A hand as a transition system over single plays, proved by induction (see proofs/README.md).

    State: the four hands ``H`` and the played set ``P`` (52-bit masks), tricks
    done ``k``, plays in the current trick ``m``, the leader, the cards of the
    current trick so far, tricks won ``W``. One transition = one card played by
    the seat to move (the leader, then on in play.direction), legal under
    play.follow / play.must-trump; the fourth card closes the trick, its winner
    (play.winner) wins it and leads next.
    """
    r = enc.r
    H = [z3.BitVec(f"H{j}", 52) for j in range(4)]
    P = z3.BitVec("P", 52)
    k = z3.BitVec("k", 8)
    m = z3.BitVec("m", 2)
    W = [z3.BitVec(f"W{j}", 8) for j in range(4)]
    T = [z3.BitVec(f"T{i}", 6) for i in range(3)]
    leader = z3.BitVec("leader", 2)
    trump = z3.BitVec("trump", 6)
    dealer = z3.BitVec("dealer", 2)
    holder = z3.BitVec("holder", 2)
    c = z3.BitVec("c", 6)
    cnt = z3.Function("cnt", z3.BitVecSort(52), z3.BitVecSort(8))
    rstep = z3.BitVecVal(r.step % 4, 2)  # the invariant is stated from the ruleset, not from the (mutable) encoding
    inv = _hand_invariant(rstep)

    # the transition: one card c played by the seat to move, through the play relation of encode.py
    # (the same relation ``play_trick`` builds a whole trick from, which the differential tests run)
    st = enc.play_step(H, leader, m, T, trump, c)
    seat, hand, legal = st.seat, st.hand, st.legal
    H2, P2 = st.hands, P | card_bit(c)
    k2 = z3.If(st.closes, k + 1, k)
    W2 = [W[j] + z3.If(z3.And(st.closes, st.winner == j), z3.BitVecVal(1, 8), z3.BitVecVal(0, 8)) for j in range(4)]
    base = [enc.trump_ok(trump), z3.ULT(c, 52)] + [z3.ULT(t, 52) for t in T]
    lemmas = [x for j in range(4) for x in _count_lemmas(cnt, H[j], c)] + _count_lemmas(cnt, P, c)
    lemmas += [cnt(z3.BitVecVal(0, 52)) == 0]
    held = holds(hand, c)
    # the step holds for any trump value, so trump.source is left out: one proof per turn order (shared by
    # formula key); legality enters only through ``held``, proved from play.follow in its own obligation
    step_hyp = [inv(H, P, k, m, leader, W, cnt), z3.ULT(k, 13), held, z3.ULT(c, 52)] + lemmas
    # base case: a deal (13 distinct cards to each seat), nothing played, the first leader
    init = _masks(H, z3.BitVecVal(0, 52)) + [popcount52(h) == 13 for h in H]
    init += [P == 0, k == 0, m == 0] + [w == 0 for w in W] + [leader == enc.first_leader(dealer, holder)]
    # one card per seat in a trick: the four seats to move from any leader are the four seats
    order = [enc.play_step(H, leader, z3.BitVecVal(i, 2), T, trump, c).seat for i in range(4)]
    # play.lead, stated from the ruleset: the seat after the dealer (individual bids) or the contract holder
    want_lead = dealer + rstep if r.individual else holder
    # play.winner / play.next-lead, stated from the clauses: the fourth card closes the trick; the seat whose
    # card is the highest trump, else the highest card of the led suit, wins it and leads the next one
    X = [T[0], T[1], T[2], c]
    trumped = z3.Or([suit_of(x) == trump for x in X])
    top = [z3.And(z3.If(trumped, suit_of(X[i]) == trump, suit_of(X[i]) == suit_of(X[0])),
                  *[z3.Implies(suit_of(X[j]) == suit_of(X[i]), z3.ULT(X[j], X[i])) for j in range(4) if j != i])
           for i in range(4)]
    claim_win = z3.And(
        *[z3.Implies(z3.And(m == 3, top[i]),
                     z3.And(st.leader == leader + z3.BitVecVal(i, 2) * rstep, st.m == 0,
                            W2[0] + W2[1] + W2[2] + W2[3] == W[0] + W[1] + W[2] + W[3] + 1,
                            *[z3.Implies(leader + z3.BitVecVal(i, 2) * rstep == j, W2[j] == W[j] + 1)
                              for j in range(4)]))
          for i in range(4)],
        z3.Implies(m != 3, z3.And(st.leader == leader, st.m == m + 1, *[W2[j] == W[j] for j in range(4)])))
    hyp_win = [z3.Distinct(*X)] + base  # any four distinct cards, any hands: the trick's cards decide

    wit = _HandWitnesses(enc, H, k, m, W, T, leader, trump, dealer, holder, c, seat, st, W2, order)
    zero = [_count_lemmas(cnt, h, bv6(0))[2] for h in H]
    return list(_popcount_obs()) + [
        Obligation("the first trick is led by the seat after the dealer / the contract holder (play.lead)",
                   [], enc.first_leader(dealer, holder) == want_lead, wit.first_trick),
        Obligation("the fourth card's trick goes to the highest trump, else the highest card of the led suit, "
                   "whose seat leads next; before it the leader stays (play.winner, play.next-lead)",
                   hyp_win, claim_win, wit.card_played),
        Obligation("a deal satisfies the hand invariant", init,
                   inv(H, P, k, m, leader, W, popcount52), wit.fresh_deal, share=True, guards="off"),
        Obligation("a legal play is a card of the player's own hand (play.follow)",
                   [inv(H, P, k, m, leader, W, cnt), z3.ULT(k, 13), legal] + base, held, wit.in_progress, guards="claim"),
        Obligation("in every trick the four seats to play are the four seats (one card per seat)",
                   [], z3.Distinct(*order), wit.turn_order),
        Obligation("every play of a held card keeps the invariant (partition of the deck, counts, one winner per trick)",
                   step_hyp, inv(H2, P2, k2, st.m, st.leader, W2, cnt), wit.in_progress, share=True, guards="claim"),
        Obligation("the player to move always holds a card",
                   [inv(H, P, k, m, leader, W, cnt), z3.ULT(k, 13)] + base + zero, hand != 0, wit.in_progress,
                   guards="claim"),
        Obligation("after 13 tricks every card was played once and the trick counts sum to 13",
                   [inv(H, P, k, m, leader, W, cnt), k == 13] + base + zero,
                   z3.And(P == FULL, *[h == 0 for h in H], W[0] + W[1] + W[2] + W[3] == 13), wit.after_last),
    ]


def _hand_invariant(rstep: Term) -> _Invariant:
    """The invariant of a hand in progress, for the turn order ``rstep`` (2 bits): the hands and the played set
    partition the deck, ``k`` tricks done and ``m`` cards of the current one played (counted by ``count``), each
    seat holding 13 - k cards less the one it played in this trick, and the tricks won summing to ``k``."""

    def inv(H: Sequence[Term], P: Term, k: Term, m: Term, leader: Term, W: Sequence[Term],
            count: Callable[[Term], Term]) -> Term:
        parts = _masks(H, P) + [z3.ULE(k, 13), z3.Implies(k == 13, m == 0),
                                count(P) == 4 * k + z3.ZeroExt(6, m)]
        for j in range(4):
            pos = (z3.BitVecVal(j, 2) - leader) * rstep  # j's place in the trick's play order
            played = z3.If(z3.ULT(pos, m), z3.BitVecVal(1, 8), z3.BitVecVal(0, 8))
            parts.append(count(H[j]) == 13 - k - played)
        parts += [z3.ULE(w, 13) for w in W] + [W[0] + W[1] + W[2] + W[3] == k]
        return z3.And(parts)

    return inv


@dataclass(frozen=True, eq=False)
class _HandWitnesses:
    """The counterexamples of the tricks family (:func:`_tricks`) read as game situations, from its variables: the
    hands ``H``, tricks done ``k``, cards in the trick ``m``, tricks won ``W``, the trick so far ``T``, the leader,
    trump, dealer and contract holder, the card ``c`` played by ``seat``; and what the encoding made of the play
    (``st``, the tricks won after it ``W2``, the seats to play a trick in order)."""

    enc: Encoding
    H: list[Term]
    k: Term
    m: Term
    W: list[Term]
    T: list[Term]
    leader: Term
    trump: Term
    dealer: Term
    holder: Term
    c: Term
    seat: Term
    st: PlayStep
    W2: list[Term]
    order: list[Term]

    def in_progress(self, mdl: Any) -> Witness:
        """A hand in progress and the card to play."""
        w = Witness(title="a hand in progress")
        w.add("trump", _trump_text(ival(mdl, self.trump)))
        for j in range(4):
            w.add(f"seat {j} holds", hand_text(ival(mdl, self.H[j])))
        w.add("tricks played / cards in this trick", f"{ival(mdl, self.k)} / {ival(mdl, self.m)}")
        w.add("leader", seat_text(ival(mdl, self.leader)))
        mm = ival(mdl, self.m)
        w.add("trick so far", " ".join(card_text(ival(mdl, self.T[i])) for i in range(mm)) or "(none)")
        w.add("to play", f"{seat_text(ival(mdl, self.seat))} plays {card_text(ival(mdl, self.c))}")
        w.add("tricks won", str([ival(mdl, x) for x in self.W]))
        return w

    def fresh_deal(self, mdl: Any) -> Witness:
        """The four hands of a deal."""
        w = Witness(title="a fresh deal")
        for j in range(4):
            w.add(f"seat {j} holds", hand_text(ival(mdl, self.H[j])))
        return w

    def after_last(self, mdl: Any) -> Witness:
        """The hands and the tricks won after the last trick."""
        w = Witness(title="after the last trick")
        for j in range(4):
            w.add(f"seat {j} still holds", hand_text(ival(mdl, self.H[j])))
        w.add("tricks won", str([ival(mdl, x) for x in self.W]))
        return w

    def turn_order(self, mdl: Any) -> Witness:
        """A trick's leader and the seats to play it, in order."""
        w = Witness(title="a trick's turn order")
        w.add("leader", seat_text(ival(mdl, self.leader)))
        w.add("seats to play, in order", ", ".join(seat_text(ival(mdl, s)) for s in self.order))
        return w

    def first_trick(self, mdl: Any) -> Witness:
        """The dealer, the contract holder and the first leader."""
        w = Witness(title="the first trick")
        w.add("dealer", seat_text(ival(mdl, self.dealer)))
        if not self.enc.r.individual:
            w.add("contract holder", seat_text(ival(mdl, self.holder)))
        w.add("first leader (encoding)", seat_text(ival(mdl, self.enc.first_leader(self.dealer, self.holder))))
        return w

    def card_played(self, mdl: Any) -> Witness:
        """A card played in a trick, and the leader and tricks won after it."""
        w = Witness(title="a card played in a trick")
        w.add("trump", _trump_text(ival(mdl, self.trump)))
        w.add("leader", seat_text(ival(mdl, self.leader)))
        mm = ival(mdl, self.m)
        w.add("trick so far", " ".join(card_text(ival(mdl, self.T[i])) for i in range(mm)) or "(none)")
        w.add("to play", f"{seat_text(ival(mdl, self.seat))} plays {card_text(ival(mdl, self.c))}")
        w.add("tricks won", str([ival(mdl, x) for x in self.W]))
        w.add("leader after the play (encoding)", seat_text(ival(mdl, self.st.leader)))
        w.add("tricks won after the play (encoding)", str([ival(mdl, x) for x in self.W2]))
        return w


def _masks(H: Sequence[Term], P: Term) -> list[Term]:
    parts = [(H[a] & H[b]) == 0 for a, b in itertools.combinations(range(4), 2)]
    parts += [(H[a] & P) == 0 for a in range(4)]
    return parts + [(H[0] | H[1] | H[2] | H[3] | P) == FULL]


def _trump_text(t: int) -> str:
    return suit_text(t)


# ============================================= 2. follow-suit and trick winner
def _follow(enc: Encoding) -> list[Obligation]:
    hand = z3.BitVec("hand", 52)
    led = z3.BitVec("led", 6)
    trump = z3.BitVec("trump", 6)
    M = enc.legal_mask(hand, led, trump)
    L = hand & suit_mask(led)
    T = hand & suit_mask(trump)
    must = enc.r.must_trump
    void_rule = z3.If(z3.And(z3.BoolVal(must), z3.ULT(trump, 4), T != 0), T, hand) if must else hand
    # prohibitions: nothing outside the documented set is legal (and something is)
    claim_legal = z3.And(M != 0, (M & ~hand) == 0, z3.If(L != 0, (M & ~L) == 0, (M & ~void_rule) == 0),
                         (enc.legal_mask(hand, bv6(NO_LED), trump) & ~hand) == 0)
    hyp_legal = [hand != 0, z3.ULT(led, 4), enc.trump_ok(trump)]
    # permissions: every card the documents allow is legal, one guarded conjunct per clause
    c = z3.BitVec("card", 6)
    follows = z3.ULT(led, 4)

    def may(ld: Term) -> Term:
        return enc.legal_play(hand, ld, trump, c)

    perms = [z3.Implies(led == NO_LED, may(led)),  # play.follow: the leader may lead any card
             z3.Implies(z3.And(follows, suit_of(c) == led), may(led)),  # any card of the led suit
             # a void player may discard anything (under must-trump: when holding no trump)
             z3.Implies(z3.And(follows, L == 0, *([z3.Or(z3.UGE(trump, 4), T == 0)] if must else [])), may(led))]
    if must:  # play.must-trump: a void player holding trump may play any of them
        perms.append(z3.Implies(z3.And(follows, L == 0, z3.ULT(trump, 4), suit_of(c) == trump), may(led)))
    hyp_perm = [z3.ULT(c, 52), holds(hand, c), z3.Or(follows, led == NO_LED), enc.trump_ok(trump)]

    def w_perm(m: Any) -> Witness:
        w = Witness(title="a player to play")
        w.add("hand", hand_text(ival(m, hand)))
        ld = ival(m, led)
        w.add("led suit", suit_text(ld) if ld < 4 else "none (leading)")
        w.add("trump", _trump_text(ival(m, trump)))
        w.add("card", card_text(ival(m, c)))
        w.add("legal (encoding)", str(bval(m, may(led))))
        return w

    def w_legal(m: Any) -> Witness:
        w = Witness(title="a player to follow")
        w.add("hand", hand_text(ival(m, hand)))
        w.add("led suit", suit_text(ival(m, led)))
        w.add("trump", _trump_text(ival(m, trump)))
        w.add("legal cards (encoding)", hand_text(ival(m, M)))
        return w

    cards = [z3.BitVec(f"c{i}", 6) for i in range(4)]
    alt = [z3.BitVec(f"d{i}", 6) for i in range(4)]
    hyp_w = [z3.ULT(c, 52) for c in cards] + [z3.Distinct(*cards), enc.trump_ok(trump)]
    wins = [enc.is_winner(cards, trump, i) for i in range(4)]
    idx = enc.trick_winner(cards, trump)
    wc = cards[3]
    for i in (2, 1, 0):
        wc = z3.If(idx == i, cards[i], wc)
    ledsuit = suit_of(cards[0])
    any_trump = z3.Or([suit_of(c) == trump for c in cards])
    highest = z3.And([z3.Implies(suit_of(c) == suit_of(wc), z3.ULE(c, wc)) for c in cards])
    claim_w = z3.And(exactly_one(wins),
                     z3.If(any_trump, suit_of(wc) == trump, suit_of(wc) == ledsuit), highest)
    # a discard (neither led suit nor trump) replaced by another discard changes nothing
    j = z3.BitVec("j", 2)
    hyp_d = hyp_w + [z3.ULT(c, 52) for c in alt] + [z3.Distinct(*alt), j != 0]
    for i in range(4):
        hyp_d.append(z3.If(j == i, z3.And(suit_of(cards[i]) != ledsuit, suit_of(cards[i]) != trump,
                                          suit_of(alt[i]) != ledsuit, suit_of(alt[i]) != trump), alt[i] == cards[i]))
    claim_d = enc.trick_winner(alt, trump) == idx

    def w_trick(m: Any) -> Witness:
        w = Witness(title="a trick")
        w.add("trump", _trump_text(ival(m, trump)))
        w.add("cards in play order", " ".join(card_text(ival(m, c)) for c in cards))
        w.add("winners (encoding)", str([i for i in range(4) if bval(m, wins[i])]))
        return w

    def w_disc(m: Any) -> Witness:
        w = w_trick(m)
        w.add("same trick, one discard changed", " ".join(card_text(ival(m, c)) for c in alt))
        w.add("winner before / after", f"{ival(m, idx)} / {ival(m, enc.trick_winner(alt, trump))}")
        return w

    return [
        Obligation("only the led suit if held, else trumps under must-trump, else the hand is legal; never nothing",
                   hyp_legal, claim_legal, w_legal),
        Obligation("permissions: any lead; any card of the led suit; a void player any discard (holding no trump "
                   "under must-trump) or, under must-trump, any trump", hyp_perm, z3.And(perms), w_perm),
        Obligation("one winner: the highest trump, else the highest card of the led suit", hyp_w, claim_w, w_trick),
        Obligation("discards do not affect the winner", hyp_d, claim_d, w_disc),
    ]
