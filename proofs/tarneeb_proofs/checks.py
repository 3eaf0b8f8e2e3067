"""The proofs: invariant families x rulesets x option variants, and their mutants.

A :class:`Check` is a list of :class:`Obligation` (hypotheses, claim). A check
is *proved* when, for every obligation, the hypotheses are satisfiable (the
proof is not vacuous) and hypotheses + not(claim) is unsat. It ends with a
*counterexample* at the first obligation whose negation is satisfiable; the
model is printed as a game situation. A mutant check runs the same
obligations on an :class:`~tarneeb_proofs.encode.Encoding` with one rule
deliberately broken, and must end with a counterexample.

What each family proves exactly is written in ``proofs/README.md``.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from tarneeb.core.spec import OptionValue, Rules, get_ruleset, load_rules, rulesets

from .encode import (
    FULL,
    NO_LED,
    AuctionState,
    Encoding,
    Term,
    bv6,
    card_bit,
    holds,
    popcount52,
    seat2,
    suit_mask,
    suit_of,
    zmax,
)
from .witness import Witness, bids_text, card_text, hand_text, seat_text

INVARIANTS = ("tricks", "follow", "bids", "scoring", "outcome", "config", "engine")
INVARIANT_TITLES = {
    "tricks": "1. a hand is 13 tricks",
    "follow": "2. legal follow-suit and trick winner",
    "bids": "3. bids and the redeal",
    "scoring": "4. scoring tables",
    "outcome": "5. win qualification and ties",
    "config": "6. configuration soundness",
    "engine": "7. the engine's rule functions equal the encodings (tarneeb_proofs.bridge)",
}


@dataclass
class Obligation:
    name: str
    hyp: list[Term]
    claim: Term
    witness: Callable[[Any], Witness] = field(default=lambda m: Witness())
    share: str = ""  # obligations with the same key state the same fact: proved once per process
    # an obligation discharged by running code (the engine family): returns a counterexample or None
    run: Callable[[], Witness | None] | None = None


@dataclass(frozen=True)
class Check:
    invariant: str
    ruleset: str
    options: tuple[tuple[str, OptionValue], ...]
    mutant: str | None
    clauses: tuple[str, ...]
    build: Callable[[Encoding], list[Obligation]]
    stage: str = ""  # a sub-part of a family (config soundness stages)

    @property
    def variant(self) -> str:
        return ",".join(f"{k}={_fmt(v)}" for k, v in self.options) or "default"

    @property
    def id(self) -> str:
        base = f"{self.invariant}{'.' + self.stage if self.stage else ''}:{self.ruleset}:{self.variant}"
        return base + (f":mutant={self.mutant}" if self.mutant else "")

    @property
    def expected(self) -> str:
        return "counterexample" if self.mutant else "proved"

    def rules(self) -> Rules:
        return load_rules(self.ruleset, dict(self.options))


@dataclass
class Result:
    check: Check
    status: str  # proved | counterexample | vacuous | unknown
    runtime: float
    obligation: str = ""
    witness: Witness | None = None
    detail: str = ""
    shared: int = 0  # obligations already proved by an earlier check in this process (same share key)

    @property
    def ok(self) -> bool:
        return self.status == self.check.expected


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_SHARED_PROVED: set[str] = set()  # share keys of obligations already proved in this process


def solve(s: Any) -> Any:
    """``s.check()``; Ctrl-C during a query (Z3 catches SIGINT and answers unknown, "canceled") is re-raised as
    KeyboardInterrupt, so an interrupted run never reports a false ``unknown``."""
    r = s.check()
    if r == z3.unknown and "cancel" in str(s.reason_unknown()):
        raise KeyboardInterrupt
    return r


def run_check(check: Check, timeout_ms: int = 60_000) -> Result:
    """Run every obligation of a check; a solver timeout is a visible ``unknown``, never a pass."""
    t0 = time.perf_counter()
    # the engine family's mutants are engine bugs (tarneeb_proofs.bridge_mutants), its encoding is the true one
    enc = Encoding(check.rules(), None if check.invariant == "engine" else check.mutant)
    shared = 0
    for ob in check.build(enc):
        if ob.run is not None:
            w = ob.run()
            if w is not None:
                return Result(check, "counterexample", time.perf_counter() - t0, ob.name, w)
            continue
        if ob.share and ob.share in _SHARED_PROVED:
            shared += 1
            continue
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        s.add(*ob.hyp)
        r = solve(s)
        if r != z3.sat:
            status = "vacuous" if r == z3.unsat else "unknown"
            return Result(check, status, time.perf_counter() - t0, ob.name, detail=f"hypotheses are {r}")
        s.add(z3.Not(ob.claim))
        r = solve(s)
        if r == z3.sat:
            w = ob.witness(s.model())
            w.clauses = list(check.clauses)
            return Result(check, "counterexample", time.perf_counter() - t0, ob.name, w)
        if r != z3.unsat:
            return Result(check, "unknown", time.perf_counter() - t0, ob.name, detail=str(s.reason_unknown()))
        if ob.share and check.mutant is None:  # only a proof under the true rules may stand for a later check
            _SHARED_PROVED.add(ob.share)
    return Result(check, "proved", time.perf_counter() - t0, shared=shared)


# ------------------------------------------------------------------ helpers
def ival(m: Any, t: Term) -> int:
    return int(m.eval(t, model_completion=True).as_long())


def bval(m: Any, t: Term) -> bool:
    return bool(z3.is_true(m.eval(t, model_completion=True)))


def exactly_one(bs: Sequence[Term]) -> Term:
    return z3.And(z3.Or(list(bs)), *[z3.Not(z3.And(a, b)) for a, b in itertools.combinations(bs, 2)])


def variants(rid: str, names: Sequence[str]) -> list[tuple[tuple[str, OptionValue], ...]]:
    """Every combination of the allowed values of the named options (those the ruleset has)."""
    rs = get_ruleset(rid)
    opts = [o for o in rs.options if o.name in names]
    out = []
    for combo in itertools.product(*[o.allowed for o in opts]):
        out.append(tuple(sorted(zip([o.name for o in opts], combo, strict=True))))
    return out or [()]


# ====================================================== 1. a hand is 13 tricks
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
                              popcount52(X & ~b) + 1 == popcount52(X), w_x, share=f"popcount-rm-{c}"))
        obs.append(Obligation(f"lemma: adding card {c} raises the count by one", [(X & b) == 0],
                              popcount52(X | b) == popcount52(X) + 1, w_x, share=f"popcount-add-{c}"))
    obs.append(Obligation("lemma: a set counts 0 iff it is empty", [], (popcount52(X) == 0) == (X == 0), w_x,
                          share="popcount-zero"))
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

    # the transition: one card c played by the seat to move
    seat = leader + m * z3.BitVecVal(enc.step % 4, 2)
    hand = H[3]
    for j in (2, 1, 0):
        hand = z3.If(seat == j, H[j], hand)
    led = z3.If(m == 0, bv6(NO_LED), suit_of(T[0]))
    source = z3.BitVecVal(FULL, 52) if enc.m("card-from-anywhere") else hand
    legal = enc.legal_play(source, led, trump, c)
    H2 = [z3.If(seat == j, H[j] & ~card_bit(c), H[j]) for j in range(4)]
    P2 = P | card_bit(c)
    closes = m == 3
    idx = enc.trick_winner([T[0], T[1], T[2], c], trump)
    win = leader + idx * z3.BitVecVal(enc.step % 4, 2)
    k2 = z3.If(closes, k + 1, k)
    m2 = m + 1  # wraps to 0 when the trick closes
    leader2 = z3.If(closes, win, leader)
    W2 = [W[j] + z3.If(z3.And(closes, win == j), z3.BitVecVal(1, 8), z3.BitVecVal(0, 8)) for j in range(4)]
    base = [enc.trump_ok(trump), z3.ULT(c, 52)] + [z3.ULT(t, 52) for t in T]
    lemmas = [x for j in range(4) for x in _count_lemmas(cnt, H[j], c)] + _count_lemmas(cnt, P, c)
    lemmas += [cnt(z3.BitVecVal(0, 52)) == 0]
    held = holds(hand, c)
    step_hyp = [inv(H, P, k, m, leader, W, cnt), z3.ULT(k, 13), held] + base + lemmas
    # the step depends on the turn order only (legality enters through ``held``, proved separately)
    step_key = f"tricks-step:rules-step={r.step}:step={enc.step}"
    base_key = f"tricks-deal:individual={r.individual}:step={enc.step}"
    # base case: a deal (13 distinct cards to each seat), nothing played, the first leader
    init = _masks(H, z3.BitVecVal(0, 52)) + [popcount52(h) == 13 for h in H]
    init += [P == 0, k == 0, m == 0] + [w == 0 for w in W] + [leader == enc.first_leader(dealer, holder)]
    # one card per seat in a trick: the four seats to move from any leader are the four seats
    order = [leader + z3.BitVecVal(i, 2) * z3.BitVecVal(enc.step % 4, 2) for i in range(4)]

    def w_state(mdl: Any) -> Witness:
        w = Witness(title="a hand in progress")
        w.add("trump", _trump_text(ival(mdl, trump)))
        for j in range(4):
            w.add(f"seat {j} holds", hand_text(ival(mdl, H[j])))
        w.add("tricks played / cards in this trick", f"{ival(mdl, k)} / {ival(mdl, m)}")
        w.add("leader", seat_text(ival(mdl, leader)))
        mm = ival(mdl, m)
        w.add("trick so far", " ".join(card_text(ival(mdl, T[i])) for i in range(mm)) or "(none)")
        w.add("to play", f"{seat_text(ival(mdl, seat))} plays {card_text(ival(mdl, c))}")
        w.add("tricks won", str([ival(mdl, x) for x in W]))
        return w

    def w_init(mdl: Any) -> Witness:
        w = Witness(title="a fresh deal")
        for j in range(4):
            w.add(f"seat {j} holds", hand_text(ival(mdl, H[j])))
        return w

    def w_end(mdl: Any) -> Witness:
        w = Witness(title="after the last trick")
        for j in range(4):
            w.add(f"seat {j} still holds", hand_text(ival(mdl, H[j])))
        w.add("tricks won", str([ival(mdl, x) for x in W]))
        return w

    def w_order(mdl: Any) -> Witness:
        w = Witness(title="a trick's turn order")
        w.add("leader", seat_text(ival(mdl, leader)))
        w.add("seats to play, in order", ", ".join(seat_text(ival(mdl, s)) for s in order))
        return w

    zero = [_count_lemmas(cnt, h, bv6(0))[2] for h in H]
    return list(_popcount_obs()) + [
        Obligation("a deal satisfies the hand invariant", init + [enc.trump_ok(trump)],
                   inv(H, P, k, m, leader, W, popcount52), w_init, share=base_key),
        Obligation("a legal play is a card of the player's own hand (play.follow)",
                   [inv(H, P, k, m, leader, W, cnt), z3.ULT(k, 13), legal] + base, held, w_state),
        Obligation("in every trick the four seats to play are the four seats (one card per seat)",
                   [], z3.Distinct(*order), w_order),
        Obligation("every play of a held card keeps the invariant (partition of the deck, counts, one winner per trick)",
                   step_hyp, inv(H2, P2, k2, m2, leader2, W2, cnt), w_state, share=step_key),
        Obligation("the player to move always holds a card",
                   [inv(H, P, k, m, leader, W, cnt), z3.ULT(k, 13)] + base + zero, hand != 0, w_state),
        Obligation("after 13 tricks every card was played once and the trick counts sum to 13",
                   [inv(H, P, k, m, leader, W, cnt), k == 13] + base + zero,
                   z3.And(P == FULL, *[h == 0 for h in H], W[0] + W[1] + W[2] + W[3] == 13), w_end),
    ]


def _masks(H: Sequence[Term], P: Term) -> list[Term]:
    parts = [(H[a] & H[b]) == 0 for a, b in itertools.combinations(range(4), 2)]
    parts += [(H[a] & P) == 0 for a in range(4)]
    return parts + [(H[0] | H[1] | H[2] | H[3] | P) == FULL]


def _trump_text(t: int) -> str:
    return "no trump" if t == 4 else "CDHS"[t] if 0 <= t < 4 else f"? ({t})"


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
    claim_legal = z3.And(M != 0, (M & ~hand) == 0, z3.If(L != 0, M == L, M == void_rule),
                         enc.legal_mask(hand, bv6(NO_LED), trump) == hand)
    hyp_legal = [hand != 0, z3.ULT(led, 4), enc.trump_ok(trump)]

    def w_legal(m: Any) -> Witness:
        w = Witness(title="a player to follow")
        w.add("hand", hand_text(ival(m, hand)))
        w.add("led suit", "CDHS"[ival(m, led)])
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
        Obligation("the legal set is the led suit if held, else trumps under must-trump, else the hand",
                   hyp_legal, claim_legal, w_legal),
        Obligation("one winner: the highest trump, else the highest card of the led suit", hyp_w, claim_w, w_trick),
        Obligation("discards do not affect the winner", hyp_d, claim_d, w_disc),
    ]


# ======================================================= 3. bids and the redeal
def _bids_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    score, score2, bid = z3.Int("score"), z3.Int("score2"), z3.Int("bid")
    table_min: Term = z3.IntVal(r.bid_min)
    if r.rising_min:
        for threshold, mb in r.rising_table:
            table_min = z3.If(score >= threshold, zmax(table_min, z3.IntVal(mb)), table_min)
    legal = enc.legal_bid(score, bid)
    some_legal = z3.Or([enc.legal_bid(score, z3.IntVal(b)) for b in range(0, 14)])
    claim_l = z3.And(
        z3.Implies(legal, z3.And(bid >= table_min, bid <= r.bid_max, *[bid != x for x in sorted(r.bid_excluded)])),
        some_legal,
        z3.Implies(z3.And(score2 <= score, legal), enc.legal_bid(score2, bid)),
    )

    def w_l(m: Any) -> Witness:
        w = Witness(title="a bid")
        w.add("player's score", str(ival(m, score)))
        w.add("bid", str(ival(m, bid)))
        w.add("legal (encoding)", str(bval(m, legal)))
        w.add("legal bids (encoding)", str([b for b in range(14) if bval(m, enc.legal_bid(score, z3.IntVal(b)))]))
        return w

    # one bidding round as a relation: turns from the seat after the dealer
    dealer = z3.Int("dealer")
    scores = [z3.Int(f"s{j}") for j in range(4)]
    bt = [z3.Int(f"bt{i}") for i in range(4)]  # bids in turn order
    seats = []
    s = dealer
    for _ in range(4):
        s = enc.next_seat(s)
        seats.append(s)

    def score_of(seat: Term) -> Term:
        return z3.Sum([z3.If(seat == j, scores[j], 0) for j in range(4)])

    by_seat = [z3.Sum([z3.If(seats[i] == j, bt[i], 0) for i in range(4)]) for j in range(4)]
    hyp_r = [dealer >= 0, dealer <= 3] + [enc.legal_bid(score_of(seats[i]), bt[i]) for i in range(4)]
    played = enc.hand_played(by_seat)
    next_dealer = z3.If(played, enc.next_seat(dealer), enc.dealer_after_redeal(dealer))
    want_redeal_dealer = dealer if r.redeal_same_dealer else (dealer + r.step) % 4
    claim_r = z3.And(
        *[z3.Sum([z3.If(seats[i] == j, 1, 0) for i in range(4)]) == 1 for j in range(4)],
        played == (z3.Sum(bt) >= r.total_min),
        z3.Implies(z3.Not(played), next_dealer == want_redeal_dealer),
        next_dealer >= 0, next_dealer <= 3,
    )

    def w_r(m: Any) -> Witness:
        w = Witness(title="a bidding round")
        d = ival(m, dealer)
        w.add("dealer", seat_text(d))
        w.add("scores", str([ival(m, x) for x in scores]))
        w.add("bids", bids_text([(ival(m, seats[i]), ival(m, bt[i])) for i in range(4)]))
        w.add("total / threshold", f"{sum(ival(m, x) for x in bt)} / {r.total_min}")
        w.add("played (encoding)", str(bval(m, played)))
        w.add("next dealer (encoding)", seat_text(ival(m, next_dealer)))
        return w

    # no stuck state: the highest legal bids of the four seats reach the threshold, for any scores
    def best(sc: Term) -> Term:
        out: Term = z3.IntVal(-1000)
        for b in range(0, 14):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    bests = [best(x) for x in scores]
    claim_s = z3.And(*[b >= 0 for b in bests], enc.hand_played(bests))

    def w_s(m: Any) -> Witness:
        w = Witness(title="a score state")
        w.add("scores", str([ival(m, x) for x in scores]))
        w.add("highest legal bids (encoding)", str([ival(m, b) for b in bests]))
        w.add("threshold", str(r.total_min))
        return w

    return [
        Obligation("legal bids: in range, not excluded, rising minimum, never empty, shrinking with score",
                   [], claim_l, w_l),
        Obligation("each seat bids once; played iff the total reaches the threshold; redeal dealer",
                   hyp_r, claim_r, w_r),
        Obligation("no stuck state: for any scores some legal bids get the hand played", [], claim_s, w_s),
    ]


def _bids_continuous(enc: Encoding) -> list[Obligation]:
    """The continuous auction, by induction over single calls with a ranking function (see proofs/README.md).

    No bound on the number of calls: every legal call strictly lowers the rank
    (seats still in, then the top bid's key, which only rises and is bounded),
    a player to speak always has a legal call, and a state where the auction
    is over is one contract or the all-pass rule.
    """
    r = enc.r
    dealer = z3.Int("dealer")
    st = AuctionState(z3.Bool("ended"), z3.Int("top"), z3.Int("holder"), [z3.Bool(f"in{j}") for j in range(4)],
                      z3.Int("passes"), z3.Int("spoken"), z3.Int("to_move"))
    n, s = z3.Int("n"), z3.Int("strain")
    tn, ts = z3.Int("top_n"), z3.Int("top_strain")
    strains = enc.strains()
    calls: list[tuple[int, int]] = [(0, 0)] + [(b, x) for b in range(r.min_bid, 14) for x in range(strains)]
    keys = [z3.simplify(enc.key(z3.IntVal(b), z3.IntVal(x))).as_long() for b, x in calls[1:]]
    lo_key, hi_key = min(keys), max(keys)
    rstep = r.step % 4  # the invariant is stated from the ruleset; 1 and 3 are their own inverses mod 4

    def dist(a: Term, b: Term) -> Term:  # seats from a to b in the direction of play
        return ((b - a) * rstep) % 4

    def nact(x: AuctionState) -> Term:
        return z3.Sum([z3.If(a, 1, 0) for a in x.active])

    def active(x: AuctionState, seat: Term) -> Term:
        return z3.Or([z3.And(seat == j, x.active[j]) for j in range(4)])

    def inv(x: AuctionState) -> Term:
        over = z3.If(x.top < 0, nact(x) == 0, z3.And(nact(x) == 1, active(x, x.holder)))
        pos = [(dist(dealer, z3.IntVal(j)) + 3) % 4 for j in range(4)]  # 0 = first to speak, 3 = the dealer
        no_bid = z3.And(x.holder == -1, *[x.active[j] == (pos[j] >= x.passes) for j in range(4)],
                        z3.Implies(z3.Not(x.ended), (dist(dealer, x.to_move) + 3) % 4 == x.passes),
                        # auction.all-pass (dealer-forced): the dealer never makes the fourth pass
                        x.passes <= 3 if r.all_pass == "dealer-forced" else z3.BoolVal(True))
        between = [z3.Implies(z3.And(dist(x.holder, z3.IntVal(j)) > 0,
                                     dist(x.holder, z3.IntVal(j)) < dist(x.holder, x.to_move)), z3.Not(x.active[j]))
                   for j in range(4)]
        a_bid = z3.And(x.top >= lo_key, x.top <= hi_key, x.holder >= 0, x.holder <= 3, active(x, x.holder),
                       z3.Implies(z3.Not(x.ended), z3.And(x.to_move != x.holder, active(x, x.to_move), *between)))
        return z3.And(dealer >= 0, dealer <= 3, x.to_move >= 0, x.to_move <= 3, x.passes == 4 - nact(x),
                      x.ended == over, z3.If(x.top < 0, z3.And(x.top == -1, no_bid), a_bid))

    ok = enc.call_ok(st, dealer, n, s)
    nxt = enc.auction_step(st, n, s)
    step_hyp = [inv(st), z3.Not(st.ended), ok]
    rank_down = z3.Or(nact(nxt) < nact(st), z3.And(nact(nxt) == nact(st), nxt.top > st.top))
    bounded = z3.And(nact(st) >= 0, st.top <= hi_key)
    raise_hyp = step_hyp + [n > 0, z3.Implies(st.top >= 0, z3.And(st.top == enc.key(tn, ts), tn >= r.min_bid,
                                                                   tn <= 13, ts >= 0, ts < strains))]
    raises = z3.And(z3.Or(st.top < 0, n > tn, z3.And(n == tn, s > ts)), nxt.holder == st.to_move)
    some_call = z3.Or([enc.call_ok(st, dealer, z3.IntVal(a), z3.IntVal(b)) for a, b in calls])
    result = z3.Or(z3.And(st.top >= 0, nact(st) == 1, active(st, st.holder)),
                   z3.And(st.top < 0, nact(st) == 0, z3.BoolVal(r.all_pass == "redeal-next")))

    def w(m: Any) -> Witness:
        x = Witness(title="an auction in progress")
        x.add("dealer", seat_text(ival(m, dealer)))
        top = ival(m, st.top)
        x.add("top bid", "none" if top < 0 else f"key {top} held by {seat_text(ival(m, st.holder))}")
        x.add("seats still in", ", ".join(str(j) for j in range(4) if bval(m, st.active[j])) or "none")
        x.add("auction over", str(bval(m, st.ended)))
        x.add("to speak", seat_text(ival(m, st.to_move)))
        cn, cs = ival(m, n), ival(m, s)
        x.add("call", "pass" if cn == 0 else f"{cn}{'CDHSN'[cs] if r.egyptian and 0 <= cs < 5 else ''}")
        x.add("after the call: top / seats in / over",
              f"{ival(m, nxt.top)} / {ival(m, nact(nxt))} / {bval(m, nxt.ended)}")
        return x

    start = enc.auction_start(dealer)
    return [
        Obligation("the opening state (nothing bid, all in, first bidder to speak) satisfies the invariant",
                   [dealer >= 0, dealer <= 3], inv(start), w),
        Obligation("every legal call keeps the invariant", step_hyp, inv(nxt), w),
        Obligation("every legal call lowers the rank (seats still in, then the top bid rises; both bounded)",
                   step_hyp, z3.And(bounded, rank_down), w),
        Obligation("a player to speak is still in and has a legal call", [inv(st), z3.Not(st.ended)],
                   z3.And(active(st, st.to_move), some_call), w),
        Obligation("an auction that is over has one contract (its holder the last seat in) or the all-pass rule",
                   [inv(st), st.ended], result, w),
        Obligation("a bid must beat the top bid (tricks, then strain) and takes the contract", raise_hyp, raises, w),
    ]


def _bids_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    if r.auction_style == "continuous":
        return _bids_continuous(enc)
    # dealer's privilege: exactly four calls (one each), so four steps are the whole auction
    dealer = z3.Int("dealer")
    run = enc.auction(dealer)
    n = len(run.calls_n)
    hyp = [dealer >= 0, dealer <= 3, run.all_legal()]
    terminated = run.ended[n]
    # contract = the last bid made
    last_n: Term = z3.IntVal(0)
    last_s: Term = z3.IntVal(0)
    last_seat: Term = z3.IntVal(-1)
    for i in range(n):
        last_n = z3.If(run.is_bid(i), run.calls_n[i], last_n)
        last_s = z3.If(run.is_bid(i), run.calls_s[i], last_s)
        last_seat = z3.If(run.is_bid(i), run.seat[i], last_seat)
    has, holder, _top = run.contract()
    any_bid = z3.Or([run.is_bid(i) for i in range(n)])
    strains = enc.strains()
    calls: list[tuple[int, int]] = [(0, 0)] + [(b, s) for b in range(r.min_bid, 14) for s in range(strains)]
    never_stuck = z3.And([z3.Implies(z3.Not(run.ended[i]), z3.Or([run.call_ok[i](z3.IntVal(a), z3.IntVal(b))
                                                                   for a, b in calls])) for i in range(n)])
    result = z3.If(any_bid,
                   z3.And(has, holder == last_seat),
                   z3.And(z3.Not(has), run.passes[n] == 4, z3.BoolVal(r.all_pass == "redeal-next")))
    highest = z3.And([z3.Implies(run.is_bid(i), z3.Or(run.calls_n[i] < last_n,
                                                     z3.And(run.calls_n[i] == last_n, run.calls_s[i] <= last_s)))
                      for i in range(n)])
    if r.auction_style == "dealer-privilege":
        # only the dealer may match; if the dealer bids, the dealer holds the contract
        order = z3.And(
            *[z3.Implies(z3.And(run.is_bid(i), run.seat[i] != dealer, run.top[i] >= 0),
                         enc.key(run.calls_n[i], run.calls_s[i]) > run.top[i]) for i in range(n)],
            *[z3.Implies(z3.And(run.is_bid(i), run.seat[i] == dealer), holder == dealer) for i in range(n)])
    else:
        # every bid raises; a seat that passed never speaks again
        order = z3.And(
            *[z3.Implies(z3.And(run.is_bid(i), run.top[i] >= 0), enc.key(run.calls_n[i], run.calls_s[i]) > run.top[i])
              for i in range(n)],
            *[z3.Implies(z3.And(run.made[i], run.calls_n[i] == 0, run.made[j]), run.seat[j] != run.seat[i])
              for i in range(n) for j in range(i + 1, n)])

    def w_a(m: Any) -> Witness:
        w = Witness(title="an auction")
        w.add("dealer", seat_text(ival(m, dealer)))
        calls_txt = []
        for i in range(n):
            if not bval(m, run.made[i]):
                break
            cn, cs = ival(m, run.calls_n[i]), ival(m, run.calls_s[i])
            txt = "pass" if cn == 0 else f"{cn}{'CDHSN'[cs] if r.egyptian else ''}"
            calls_txt.append(f"{seat_text(ival(m, run.seat[i]))}: {txt}")
        w.add("calls", ", ".join(calls_txt) or "(none)")
        w.add("auction over", str(bval(m, terminated)))
        w.add("contract holder (encoding)", seat_text(ival(m, holder)) if bval(m, has) else "none")
        return w

    return [
        Obligation(f"the auction ends within {n} calls", hyp, terminated, w_a),
        Obligation("a player to speak always has a legal call", hyp, never_stuck, w_a),
        Obligation("the auction ends in one contract (the last bid) or the all-pass rule", hyp + [terminated],
                   result, w_a),
        Obligation("the contract is the highest bid (tricks, then strain); raise and match rules", hyp,
                   z3.And(highest, order), w_a),
    ]


# ============================================================== 4. scoring
# The scoring tables as the clause texts state them (score.values), per ruleset:
# (lowest bid, highest bid, multiplier of the face value).
DOC_TABLES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "card-kings-41": ((2, 13, 1),),  # 000, Scoring: face value
    "eram-41": ((2, 13, 1),),  # 003, Scoring: the bid itself
    "bsfyi-41": ((2, 4, 1), (5, 8, 2), (9, 13, 3)),  # 001, The scoring table
    "tarneeb-400": ((2, 4, 1), (5, 8, 2), (9, 13, 3)),  # 001's table, assumed by 002
}


def _scoring_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    bid, t, t2 = z3.Int("bid"), z3.Int("tricks"), z3.Int("tricks2")
    in_range = [bid >= r.bid_min, bid <= r.bid_max] + [bid != x for x in sorted(r.bid_excluded)]
    tr = [t >= 0, t <= 13, t2 >= 0, t2 <= 13]
    d = enc.individual_delta(bid, t)
    doc: Term = z3.IntVal(-1)
    for lo, hi, mult in DOC_TABLES[r.id]:
        doc = z3.If(z3.And(bid >= lo, bid <= hi), bid * mult, doc)
    claim_t = z3.And(z3.Implies(t >= bid, d == doc), z3.Implies(t < bid, d == -doc))
    claim_m = z3.And(z3.Implies(t >= bid, d > 0), z3.Implies(t < bid, d < 0))
    claim_x = z3.Implies(z3.And(t >= bid, t2 >= bid), d == enc.individual_delta(bid, t2))

    def w(m: Any) -> Witness:
        x = Witness(title="one player's hand")
        x.add("bid", str(ival(m, bid)))
        x.add("tricks taken", str(ival(m, t)))
        x.add("score change (encoding)", str(ival(m, d)))
        x.add("with " + str(ival(m, t2)) + " tricks (encoding)", str(ival(m, enc.individual_delta(bid, t2))))
        return x

    return [
        Obligation("the score change is the document's table (+value made, -value failed)", in_range + tr, claim_t, w),
        Obligation("a made bid never loses points; a failed one never gains", in_range + tr, claim_m, w),
        Obligation("tricks above the bid change nothing", in_range + tr, claim_x, w),
    ]


def _scoring_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    hyp = [c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1), tb >= 0, tb <= 13]
    d0, d1 = enc.team_deltas(c, bt, tb)
    d_bt = z3.If(bt == 0, d0, d1)
    d_dt = z3.If(bt == 0, d1, d0)
    td = 13 - tb
    made = tb >= c

    def kab(usual: Term) -> Term:
        return {"16": z3.IntVal(16), "26": z3.IntVal(26), "double": 2 * usual, "none": usual}[r.kaboot]

    usual_bt = z3.If(made, tb, -c) if r.score_style == "standard" else z3.If(made, c, -c)
    usual_dt = z3.If(made, z3.IntVal(0), td) if r.score_style == "standard" else z3.IntVal(0)
    special13 = z3.And(c == 13, z3.BoolVal(r.bid13 == "26"))
    claims = [
        z3.Implies(special13, d_bt == z3.If(made, z3.IntVal(26), z3.IntVal(-16))),
        z3.Implies(z3.And(z3.Not(special13), tb == 13, z3.Not(z3.And(c == 13, z3.BoolVal(r.bid13 == "win")))),
                   d_bt == kab(usual_bt)),
        z3.Implies(z3.And(z3.Not(special13), z3.Or(tb < 13, z3.And(c == 13, z3.BoolVal(r.bid13 == "win")))),
                   d_bt == usual_bt),
        z3.Implies(z3.And(td == 13, z3.BoolVal(r.score_style == "standard")), d_dt == kab(usual_dt)),
        z3.Implies(z3.Not(z3.And(td == 13, z3.BoolVal(r.score_style == "standard"))), d_dt == usual_dt),
        enc.bid13_wins(c, tb) == z3.And(z3.BoolVal(r.bid13 == "win"), c == 13, made),
    ]
    claim_m = z3.And(z3.Implies(made, z3.And(d_bt > 0, d_dt == 0)), z3.Implies(z3.Not(made), d_bt < 0))

    def w(m: Any) -> Witness:
        x = Witness(title="a scored auction hand")
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}")
        x.add("tricks (bidders / defenders)", f"{ival(m, tb)} / {13 - ival(m, tb)}")
        x.add("score change team 0 / team 1 (encoding)", f"{ival(m, d0)} / {ival(m, d1)}")
        return x

    return [
        Obligation("the score change is the table of score.standard/bid-only, kaboot, bid13", hyp, z3.And(claims), w),
        Obligation("a made contract never loses points (defenders get nothing); a failed one never gains",
                   hyp, claim_m, w),
    ]


# ================================================= 5. win qualification, ties
def _outcome_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    s = [z3.Int(f"score{j}") for j in range(4)]
    b = [z3.Int(f"bid{j}") for j in range(4)]
    t = [z3.Int(f"tricks{j}") for j in range(4)]
    hyp = [x >= r.bid_min for x in b] + [x <= r.bid_max for x in b] + [x >= 0 for x in t] + [z3.Sum(t) == 13]
    o = enc.individual_outcome(s, b, t)
    target = r.target

    def qual(a: Term, c: Term) -> Term:  # stated independently: the better partner at the target, the other above 0
        return z3.And(zmax(a, c) >= target, z3.If(a >= c, c, a) > 0)

    q = [qual(s[0], s[2]), qual(s[1], s[3])]
    made_any: Term = z3.BoolVal(False)
    made_team: list[Term] = [z3.BoolVal(False), z3.BoolVal(False)]
    if r.made_bid_wins:
        mk = [z3.And(b[j] == r.made_bid_wins, t[j] >= b[j]) for j in range(4)]
        made_any = z3.Or(mk)
        made_team = [z3.Or(mk[0], mk[2]), z3.Or(mk[1], mk[3])]
    key = [s[0] + s[2], s[1] + s[3]] if r.tie_rule == "combined" else [zmax(s[0], s[2]), zmax(s[1], s[3])]
    wins = [o.team0, o.team1]
    claims = [exactly_one([o.team0, o.team1, o.play_on])]
    for x in (0, 1):
        y = 1 - x
        claims += [
            z3.Implies(z3.And(wins[x], z3.Not(made_any)), q[x]),
            z3.Implies(z3.And(q[x], z3.Not(q[y]), z3.Not(made_any)), wins[x]),
            z3.Implies(z3.And(q[0], q[1], z3.Not(made_any)), wins[x] == (key[x] > key[y])),
            z3.Implies(made_team[x], wins[x]),
        ]
    claims.append(z3.Implies(z3.And(q[0], q[1], z3.Not(made_any)), o.play_on == (key[0] == key[1])))
    claims.append(z3.Implies(z3.And(z3.Not(q[0]), z3.Not(q[1]), z3.Not(made_any)), o.play_on))

    def w(m: Any) -> Witness:
        x = Witness(title="scores after a hand")
        x.add("scores", str([ival(m, v) for v in s]))
        if r.made_bid_wins:
            x.add("bids / tricks", f"{[ival(m, v) for v in b]} / {[ival(m, v) for v in t]}")
        res = "team 0 wins" if bval(m, o.team0) else ""
        res += (" and " if res else "") + "team 1 wins" if bval(m, o.team1) else ""
        res += (" and " if res else "") + "play on" if bval(m, o.play_on) else ""
        x.add("result (encoding)", res or "nothing")
        return x

    return [Obligation("exactly one of team 0 / team 1 / play on; qualification; tie rule", hyp, z3.And(claims), w)]


def _outcome_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    raise_ = z3.Int("play_on_raise")
    enc.play_on_raise = raise_
    sc = [z3.Int("team0"), z3.Int("team1")]
    games = z3.Int("games_won")
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    hyp = [raise_ >= 0, raise_ <= 1000, games >= 0, games <= 1, c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1),
           tb >= 0, tb <= 13]
    T = enc.target_in_force(games)
    b13 = enc.bid13_wins(c, tb)
    o = enc.auction_outcome(sc, T, bt, b13)
    wins = [o.team0, o.team1]
    claims = [exactly_one([o.team0, o.team1, o.play_on]), z3.Implies(b13, z3.If(bt == 0, o.team0, o.team1))]
    for x in (0, 1):
        y = 1 - x
        claims += [
            z3.Implies(z3.And(wins[x], z3.Not(b13)), sc[x] >= T),
            z3.Implies(z3.And(sc[x] >= T, sc[y] < T, z3.Not(b13)), wins[x]),
            z3.Implies(z3.And(sc[0] >= T, sc[1] >= T, z3.Not(b13)), wins[x] == (bt == x)),
        ]
    claims.append(z3.Implies(z3.And(sc[0] < T, sc[1] < T, z3.Not(b13)), o.play_on))
    claims.append(z3.Implies(games == 0, T == r.target))
    claims.append(z3.Implies(games == 1, T == r.target + raise_))

    def w(m: Any) -> Witness:
        x = Witness(title="team scores after an auction hand")
        x.add("team scores", f"{ival(m, sc[0])} / {ival(m, sc[1])}")
        x.add("games already won / play-on raise", f"{ival(m, games)} / {ival(m, raise_)}")
        x.add("target in force (encoding)", str(ival(m, T)))
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}, {ival(m, tb)} tricks")
        x.add("result (encoding)", {0: "team 0 wins", 1: "team 1 wins", -1: "play on"}[ival(m, o.winner())])
        return x

    return [Obligation("exactly one result; target and bidding-team rules; bid 13; play-on target", hyp,
                       z3.And(claims), w)]


# ======================================================= 6. configuration soundness
def _config_individual(enc: Encoding) -> list[Obligation]:
    """From any scores: a legal hand that is played, team 0 both gain, team 1 both lose (progress to a decision)."""
    s = [z3.Int(f"score{j}") for j in range(4)]

    def lowest(sc: Term) -> Term:
        out: Term = z3.IntVal(99)
        for b in range(13, -1, -1):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    def highest(sc: Term) -> Term:
        out: Term = z3.IntVal(-99)
        for b in range(0, 14):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    bids = [lowest(s[0]), highest(s[1]), lowest(s[2]), highest(s[3])]
    tricks = [13 - bids[2], z3.IntVal(0), bids[2], z3.IntVal(0)]
    deltas = [enc.individual_delta(bids[j], tricks[j]) for j in range(4)]
    o = enc.individual_outcome(s, bids, tricks)
    claim = z3.And(*[enc.legal_bid(s[j], bids[j]) for j in range(4)], enc.hand_played(bids),
                   bids[0] + bids[2] <= 13, bids[0] <= tricks[0],
                   deltas[0] >= 1, deltas[2] >= 1, deltas[1] <= -1, deltas[3] <= -1)
    # once team 0 qualifies and team 1 does not, the match is decided
    q0 = enc.team_qualifies(s[0], s[2])
    q1 = enc.team_qualifies(s[1], s[3])
    decided = z3.Implies(z3.And(q0, z3.Not(q1)), z3.Or(o.team0, o.team1))

    def w(m: Any) -> Witness:
        x = Witness(title="a score state")
        x.add("scores", str([ival(m, v) for v in s]))
        x.add("bids tried (encoding)", str([ival(m, v) for v in bids]))
        x.add("tricks", str([ival(m, v) for v in tricks]))
        x.add("score changes (encoding)", str([ival(m, v) for v in deltas]))
        return x

    return [Obligation("from any scores a legal played hand moves team 0 up and team 1 down", [], claim, w),
            Obligation("a team qualifying alone decides the match", [], decided, w)]


def _config_auction(enc: Encoding) -> list[Obligation]:
    """The auction can always produce a contract for the first speaker (bid the minimum, all others pass)."""
    r = enc.r
    dealer = z3.Int("dealer")
    run = enc.auction(dealer, 4)
    calls = [run.calls_n[0] == r.min_bid, run.calls_s[0] == 0] + \
        [z3.And(run.calls_n[i] == 0, run.calls_s[i] == 0) for i in range(1, 4)]
    has, holder, _ = run.contract()
    claim = z3.And(run.all_legal(), run.ended[4], has, holder == enc.next_seat(dealer))

    def w(m: Any) -> Witness:
        x = Witness(title="an auction")
        x.add("dealer", seat_text(ival(m, dealer)))
        x.add("calls", f"{r.min_bid}, pass, pass, pass")
        x.add("over / contract (encoding)", f"{bval(m, run.ended[4])} / {bval(m, has)}")
        return x

    return [Obligation("an auction can end in a contract from any dealer", [dealer >= 0, dealer <= 3] + calls,
                       claim, w)]


def _config_scoring(enc: Encoding) -> list[Obligation]:
    """Every contract made exactly scores > 0 for the bidders and 0 for the defenders."""
    r = enc.r
    c, bt = z3.Int("contract"), z3.Int("bidding_team")
    d0, d1 = enc.team_deltas(c, bt, c)
    claim = z3.And(z3.If(bt == 0, d0, d1) > 0, z3.If(bt == 0, d1, d0) == 0)

    def w(m: Any) -> Witness:
        x = Witness(title="a contract made exactly")
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}")
        x.add("score change team 0 / team 1 (encoding)", f"{ival(m, d0)} / {ival(m, d1)}")
        return x

    return [Obligation("a made contract moves the bidders up and leaves the defenders",
                       [c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1)], claim, w)]


# ====================================================================== registry
PLAY_OPTIONS = ("direction", "must_trump", "egyptian", "trump_source")
BID_OPTIONS_IND = ("rising_min_bid", "bid_total_min")
AUCTION_OPTIONS = ("auction", "all_pass", "egyptian", "min_bid", "direction")
SCORING_OPTIONS = ("scoring", "kaboot", "bid13", "min_bid")
OUTCOME_OPTIONS_IND = ("target", "made_bid_wins")
OUTCOME_OPTIONS_AUC = ("target",)

# mutants per (family, family kind): (mutant, option variant it applies to or None for the first variant)
MUTANT_PLAN: dict[tuple[str, bool], list[tuple[str, dict[str, OptionValue]]]] = {
    ("tricks", True): [("turn-step-2", {}), ("card-from-anywhere", {})],
    ("tricks", False): [("turn-step-2", {}), ("card-from-anywhere", {})],
    ("follow", True): [("follow-not-enforced", {}), ("winner-ignores-trump", {}), ("winner-highest-rank", {})],
    ("follow", False): [("follow-not-enforced", {}), ("must-trump-ignored", {"must_trump": True}),
                        ("winner-ignores-trump", {})],
    ("bids", True): [("bid-below-min", {}), ("redeal-threshold-plus-1", {}), ("redeal-dealer-swapped", {}),
                     ("bids-capped-at-2", {})],
    ("bids", False): [("passed-may-reenter", {"auction": "continuous"}), ("anyone-may-match", {}),
                      ("dealer-may-pass-forced", {"all_pass": "dealer-forced"}),
                      ("strain-before-tricks", {"egyptian": True}),
                      ("anyone-may-match", {"auction": "continuous"}),
                      ("dealer-may-pass-forced", {"auction": "continuous", "all_pass": "dealer-forced"}),
                      ("strain-before-tricks", {"auction": "continuous", "egyptian": True})],
    ("scoring", True): [("extra-tricks-count", {}), ("failed-bid-scores", {})],
    ("scoring", False): [("defenders-score-on-made", {}), ("bid13-26-swapped", {"bid13": "26"})],
    ("outcome", True): [("partner-geq-0", {}), ("tie-to-team-0", {})],
    ("outcome", False): [("tie-to-defenders", {}), ("play-on-not-raised", {})],
    ("config", True): [("bids-capped-at-2", {})],
    ("config", False): [],
}
EXTRA_MUTANTS: dict[str, list[tuple[str, str, dict[str, OptionValue]]]] = {
    # ruleset -> (family, mutant, options)
    "card-kings-41": [("bids", "excluded-bid-allowed", {})],
    "tarneeb-400": [("bids", "rising-min-ignored", {})],
    "bsfyi-41": [("bids", "rising-min-ignored", {"rising_min_bid": True})],
    "classic": [("config", "passed-may-reenter", {"auction": "continuous"}),
                ("config", "defenders-score-on-made", {})],
}

CLAUSES = {
    "tricks": ("hand.tricks", "play.direction", "play.lead", "play.follow", "play.winner", "play.next-lead"),
    "follow": ("play.follow", "play.must-trump", "play.winner", "trump.source"),
    "bids": ("bid.range", "bid.excluded", "bid.rising-min", "bid.turn", "bid.total", "redeal.dealer",
             "auction.order", "auction.raise", "auction.dealer-privilege", "auction.continuous", "auction.all-pass",
             "auction.egyptian"),
    "scoring": ("score.individual", "score.values", "score.extra", "score.standard", "score.bid-only",
                "score.kaboot", "score.bid13"),
    "outcome": ("win.target", "win.qualify", "tie.both-qualify", "win.made-bid", "score.bid13", "win.play-on"),
    "config": ("bid.total", "score.values", "win.qualify", "auction.all-pass", "score.standard"),
}


def _family(inv: str, individual: bool) -> list[tuple[str, Callable[[Encoding], list[Obligation]], tuple[str, ...]]]:
    """(stage, builder, option names whose values are enumerated)."""
    if inv == "tricks":
        return [("", _tricks, PLAY_OPTIONS)]
    if inv == "follow":
        return [("", _follow, PLAY_OPTIONS)]
    if inv == "bids":
        return [("", _bids_individual, BID_OPTIONS_IND)] if individual else [("", _bids_auction, AUCTION_OPTIONS)]
    if inv == "scoring":
        return [("", _scoring_individual, ())] if individual else [("", _scoring_auction, SCORING_OPTIONS)]
    if inv == "outcome":
        return [("", _outcome_individual, OUTCOME_OPTIONS_IND)] if individual else \
            [("", _outcome_auction, OUTCOME_OPTIONS_AUC)]
    # config: individual -> every option combination; auction -> per stage
    if individual:
        return [("", _config_individual, ("*",))]
    return [("auction", _config_auction, AUCTION_OPTIONS), ("scoring", _config_scoring, SCORING_OPTIONS)]


def all_checks() -> list[Check]:
    from .bridge import engine_checks

    out: list[Check] = []
    for rid, rs in rulesets().items():
        individual = rs.params.get("family") == "individual"
        present = set(rs.clauses)
        for inv in INVARIANTS:
            if inv == "engine":
                continue
            clauses = tuple(c for c in CLAUSES[inv] if c in present)
            fam = _family(inv, individual)
            for stage, build, names in fam:
                names_all = [o.name for o in rs.options] if names == ("*",) else list(names)
                vs = variants(rid, names_all)
                for v in vs:
                    out.append(Check(inv, rid, v, None, clauses, build, stage))
                first_stage = stage == fam[0][0]
                plan = list(MUTANT_PLAN[(inv, individual)]) if first_stage else []
                plan += [(mu, o) for f, mu, o in EXTRA_MUTANTS.get(rid, []) if f == inv and first_stage]
                if inv == "config" and not individual:
                    plan = [(mu, o) for f, mu, o in EXTRA_MUTANTS.get(rid, []) if f == inv
                            and ((stage == "auction") == (mu == "passed-may-reenter"))]
                for mu, opts in plan:
                    base = dict(vs[0])
                    base.update({k: v for k, v in opts.items() if k in base or k in names_all})
                    v = tuple(sorted(base.items()))
                    out.append(Check(inv, rid, v, mu, clauses, build, stage))
    return out + engine_checks()


def select(checks: Sequence[Check], ruleset: str | None = None, invariant: str | None = None) -> list[Check]:
    return [c for c in checks if (ruleset is None or c.ruleset == ruleset)
            and (invariant is None or c.invariant == invariant)]


def run_all(checks: Sequence[Check], jobs: int = 1) -> Iterator[Result]:
    """The results in the order of ``checks``; ``jobs`` > 1 runs them in that many worker processes.

    Neighbouring checks go to the same worker (chunks), so most shared obligations are still proved once per
    worker; a worker never takes a proof from another.
    """
    if jobs <= 1:
        for c in checks:
            yield run_check(c)
        return
    from concurrent.futures import ProcessPoolExecutor

    ex = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield from ex.map(run_check, checks, chunksize=max(1, len(checks) // (4 * jobs)))
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


__all__ = ["Check", "INVARIANTS", "Obligation", "Result", "all_checks", "run_all", "run_check", "select",
           "seat2", "NO_LED"]
