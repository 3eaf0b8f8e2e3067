"""Family ``engine``: the engine's own rule functions (:mod:`tarneeb.core.rules`) equal their encodings.

Every rule decision of the engine is run, as engine code, on every point of a
finite input set and compared with the value of its term in
:class:`~tarneeb_proofs.encode.Encoding` at the same point. The input set
covers the function's whole domain in one of two ways (proofs/README.md):

* **finite domain, enumerated**: seats, dealers, bids 0..13, tricks 0..13,
  the 52 cards, strains, auction states;
* **a reduction proved in Z3 on the encoding**: the domain is cut into
  regions by a list of *atoms* (the comparisons the rule makes: a score
  against the target or 0, the tie keys against each other, a card's suit
  against the led suit or trump, two cards of one suit against each other).
  Two Z3 obligations per function: (a) the encoding is constant on every
  region (same atoms, same value), (b) every point of the domain is in the
  region of one of the enumerated points. The enumerated points are chosen on
  every boundary (threshold - 1, threshold, threshold + 1, equal sums), so
  the engine is run where an off-by-one or a swapped tie would show.

The encoding's value at a point is read by substituting the point into the
term and simplifying (memoised by term, so variants sharing a term evaluate
it once). The engine is always called as ``R.<name>(...)`` on the module, so
a monkeypatched rule function is the one that runs.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tarneeb.core import rules as R
from tarneeb.core.spec import Rules

from .encode import NO_LED, SUIT_MASKS, AuctionState, Encoding, Term, bv6, suit_mask, suit_of
from .evaluate import Ev
from .obligations import solve
from .witness import Witness, card_text, hand_text


# ------------------------------------------------------------------ results
@dataclass
class Mismatch:
    fn: str
    inputs: str
    engine: str
    encoding: str
    clause: str
    module: str = "tarneeb.core.rules"

    def witness(self, r: Rules) -> Witness:
        w = Witness(title=f"the engine's {self.fn} disagrees with the encoding")
        w.add("engine function", f"{self.module}.{self.fn}")
        w.add("input", self.inputs)
        w.add("engine returns", self.engine)
        w.add("encoding gives", self.encoding)
        w.add("clause", r.ruleset.cite(self.clause))
        w.clauses = [self.clause]
        return w


def cite(r: Rules, *ids: str) -> str:
    """The first of ``ids`` that the ruleset has (rulesets word some rules under different clause ids)."""
    for c in ids:
        if c in r.ruleset.clauses:
            return c
    raise KeyError(f"{r.id} has none of the clauses {ids}")


@dataclass
class Compare:
    """One engine function checked at the points ``points`` (engine arguments, without ``r``).

    ``enc_at(point)`` is the encoding's value in the engine's conventions, ``key(point)`` the region of the
    point (points with the same key have the same encoding value, proved by the function's lemma; ``None``:
    every point is its own region), ``clause(point, engine_value)`` the clause to cite.
    """

    fn: str
    points: Iterable[tuple[Any, ...]]
    engine: Callable[..., Any]
    enc_at: Callable[..., Any]
    clause: Callable[..., str]
    show: Callable[..., str] = lambda *p: ", ".join(map(repr, p))
    key: Callable[..., Hashable] | None = None

    def run(self) -> Mismatch | None:
        cache: dict[Hashable, Any] = {}
        for p in self.points:
            got = self.engine(*p)
            if self.key is None:
                want = self.enc_at(*p)
            else:
                k = self.key(*p)
                if k not in cache:
                    cache[k] = self.enc_at(*p)
                want = cache[k]
            if got != want:
                return Mismatch(self.fn, self.show(*p), repr(got), repr(want), self.clause(p, got))
        return None


# ------------------------------------------------------------ region lemmas
def atoms_equal(a: Sequence[Term], b: Sequence[Any]) -> Term:
    return z3.And([x == y for x, y in zip(a, b, strict=True)])


def region_lemmas(fn: str, xs: Sequence[Term], ys: Sequence[Term], domain: Callable[[Sequence[Term]], list[Term]],
                  atoms: Callable[[Sequence[Any]], list[Any]], outs: Callable[[Sequence[Term]], list[Term]],
                  reps: list[Any], extend: bool = False) -> list[tuple[str, list[Term], Term]]:
    """(name, hypotheses, claim): the encoding is constant on each region; the points ``reps`` meet every region.

    With ``extend``, a region no point of ``reps`` meets gets one (a Z3 model, appended to ``reps``), until
    every region is met; the engine then runs on those points too.
    """
    seen: dict[tuple[bool, ...], None] = {}
    for p in reps:
        seen.setdefault(tuple(bool(a) for a in atoms(p)))
    ax = atoms(xs)

    def region(vec: tuple[bool, ...]) -> Term:
        return z3.And([a if v else z3.Not(a) for a, v in zip(ax, vec, strict=True)])

    if extend:
        s = z3.Solver()
        s.add(*domain(xs))
        s.add(*[z3.Not(region(vec)) for vec in seen])
        while solve(s) == z3.sat:
            m = s.model()
            p = tuple(int(m.eval(x, model_completion=True).as_long()) for x in xs)
            reps.append(p)
            vec = tuple(bool(a) for a in atoms(p))
            seen.setdefault(vec)
            s.add(z3.Not(region(vec)))
    cover = z3.Or([region(vec) for vec in seen])
    same = atoms_equal(ax, atoms(ys))
    const = z3.And([o1 == o2 for o1, o2 in zip(outs(xs), outs(ys), strict=True)])
    return [(f"{fn}: the encoding is constant on each region of its comparisons", domain(xs) + domain(ys) + [same],
             const),
            (f"{fn}: the enumerated inputs meet every region ({len(seen)} regions)", domain(xs), cover)]


def mx(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return max(a, b)
    return z3.If(a >= b, a, b)


def trumps(enc: Encoding) -> list[int]:
    """The trump values the configuration produces (encoding's trump.source), 4 = no trump."""
    return [t for t in range(6) if z3.is_true(z3.simplify(enc.trump_ok(bv6(t))))]


def ints(n: int, prefix: str) -> list[Term]:
    return [z3.Int(f"{prefix}{i}") for i in range(n)]


def bvs(n: int, size: int, prefix: str) -> list[Term]:
    return [z3.BitVec(f"{prefix}{i}", size) for i in range(n)]


def bor(*xs: Any) -> Any:
    if all(isinstance(x, bool) for x in xs):
        return any(xs)
    return z3.Or(*xs)


def band(*xs: Any) -> Any:
    if all(isinstance(x, bool) for x in xs):
        return all(xs)
    return z3.And(*xs)


def _suit(c: Any) -> Any:
    return c // 13 if isinstance(c, int) else suit_of(c)


def _lt(a: Any, b: Any) -> Any:
    return a < b if isinstance(a, int) else z3.ULT(a, b)


# ====================================================================== play
def trick_atoms(p: Sequence[Any]) -> list[Any]:
    """What the trick winner may depend on: each card's suit against the led suit, the trump and the other
    cards, and the order of two cards of one suit."""
    cards, t = p[:4], p[4]
    if all(isinstance(c, int) for c in p):  # the same atoms, on numbers (fast path: the engine's inputs)
        su = [c // 13 for c in cards]
        return [a for i in range(4) for a in (su[i] == su[0], su[i] == t,
                                              *[su[i] == su[j] and cards[i] < cards[j] for j in range(4) if j != i])]
    out: list[Any] = []
    for i in range(4):
        out += [_suit(cards[i]) == _suit(cards[0]), _suit(cards[i]) == t]
        for j in range(4):
            if i != j:
                out.append(band(_suit(cards[i]) == _suit(cards[j]), _lt(cards[i], cards[j])))
    return out


def trick_points(ts: Sequence[int]) -> list[tuple[int, ...]]:
    """Every suit pattern of four cards x every order within each suit, for each trump (ranks 0, 12, 6, 9)."""
    out = []
    ranks = (0, 12, 6, 9)
    for t in ts:
        for suits in itertools.product(range(4), repeat=4):
            groups = [[i for i in range(4) if suits[i] == s] for s in range(4)]
            orders = [list(itertools.permutations(ranks[:len(g)])) for g in groups]
            for choice in itertools.product(*orders):
                cards = [0] * 4
                for g, rk in zip(groups, choice, strict=True):
                    for i, k in zip(g, rk, strict=True):
                        cards[i] = suits[i] * 13 + k
                out.append((*cards, t))
    return out


def fill(hand: int) -> int:
    return sum(m for m in SUIT_MASKS if hand & m)


_BLOCKS: dict[Hashable, Any] = {}  # per-process: Z3 terms and lemmas that depend only on the key


def _block(key: Hashable, make: Callable[[], Any]) -> Any:
    if key not in _BLOCKS:
        _BLOCKS[key] = make()
    return _BLOCKS[key]


def _trick_block(enc: Encoding, ts: tuple[int, ...]) -> Any:
    """trick_winner's reduction (its term reads no rule parameter: only the cards, the trump and their domain)."""
    xs, ys = bvs(5, 6, "tw"), bvs(5, 6, "tv")

    def dom(v: Sequence[Term]) -> list[Term]:
        return [z3.ULT(c, 52) for c in v[:4]] + [z3.Distinct(*v[:4]), z3.Or([v[4] == t for t in ts])]

    pts = trick_points(ts)
    lemmas = region_lemmas("trick_winner", xs, ys, dom, trick_atoms, lambda v: [enc.trick_winner(v[:4], v[4])], pts)
    return lemmas, pts, Ev(xs, [enc.trick_winner(xs[:4], xs[4])])


def _mask_block(enc: Encoding, ts: tuple[int, ...]) -> Any:
    """legal_mask's reduction (its term reads play.must-trump only, with the trump domain)."""
    h, led, t = z3.BitVec("h", 52), z3.BitVec("led", 6), z3.BitVec("t", 6)
    filled = z3.BitVecVal(0, 52)
    for s in range(4):
        filled = filled | z3.If((h & suit_mask(bv6(s))) != 0, z3.BitVecVal(SUIT_MASKS[s], 52), z3.BitVecVal(0, 52))
    mask = enc.legal_mask(h, led, t)
    lemma = ("legal_play_mask: the legal set is the hand's cards in the legal set of its suits filled up",
             [z3.Or(led == NO_LED, z3.ULT(led, 4)), z3.Or([t == x for x in ts])],
             mask == h & z3.substitute(mask, (h, filled)))
    return lemma, Ev([h, led, t], [mask])


def play_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    r = enc.r
    ts = tuple(trumps(enc))
    # ---- trick_winner: the reduction to suit patterns and orders
    lemmas, pts, tw = _block(("trick", ts, enc.mutant), lambda: _trick_block(enc, ts))
    lemmas = list(lemmas)
    cmp = [Compare("trick_winner", pts, lambda *p: R.trick_winner(list(p[:4]), p[4]),
                   lambda *p: tw(*p)[0], lambda p, g: "play.winner",
                   lambda *p: f"cards {' '.join(card_text(c) for c in p[:4])}, trump {p[4]}",
                   key=lambda *p: tuple(trick_atoms(p)))]
    # ---- legal_play_mask / play_violation: hands reduce to the set of suits held
    lemma, lm = _block(("mask", r.must_trump, ts, enc.mutant), lambda: _mask_block(enc, ts))
    lemmas.append(lemma)
    hands = [sum(1 << (13 * s + k) for s in range(4) if pat >> s & 1 for k in range(par, 13, 2))
             for pat in range(16) for par in (0, 1)]
    leds = (-1, 0, 1, 2, 3)
    mpts = [(hand, ld, tt) for hand in hands for ld in leds for tt in ts]

    @functools.cache
    def enc_mask(hand: int, ld: int, tt: int) -> int:
        return hand & int(lm(fill(hand), NO_LED if ld < 0 else ld, tt)[0])

    def show_m(hand: int, ld: int, tt: int, card: int | None = None) -> str:
        s = f"hand {hand_text(hand)}, led {'none' if ld < 0 else 'CDHS'[ld]}, trump {tt}"
        return s + (f", card {card_text(card)}" if card is not None else "")

    def play_clause(p: Sequence[Any], got: Any) -> str:
        hand, ld = p[0], p[1]
        if r.must_trump and ld >= 0 and not hand & SUIT_MASKS[ld]:
            return cite(r, "play.must-trump", "play.follow")
        return "play.follow"

    cmp.append(Compare("legal_play_mask", mpts, lambda *p: R.legal_play_mask(r, *p), enc_mask, play_clause,
                       lambda *p: show_m(*p)))

    def viol_expect(hand: int, ld: int, tt: int, card: int) -> tuple[str, ...] | None:
        if enc_mask(hand, ld, tt) >> card & 1:
            return None
        if hand >> card & 1 and ld >= 0 and not hand & SUIT_MASKS[ld]:
            return ("play.must-trump",)
        return ("play.follow",)

    def viol_engine(hand: int, ld: int, tt: int, card: int) -> tuple[str, ...] | None:
        v = R.play_violation(r, hand, ld, tt, card)
        return None if v is None else (v[0],)

    cmp.append(Compare("play_violation", [(*p, c) for p in mpts for c in range(52)], viol_engine, viol_expect,
                       play_clause, lambda *p: show_m(*p)))
    # ---- trump_from_reveal, is_weak_hand
    if r.trump_source.startswith("revealed"):
        c = z3.BitVec("card", 6)
        tr = Ev([c], [enc.trump_from_reveal(c)])
        cmp.append(Compare("trump_from_reveal", [(k,) for k in range(52)], lambda k: R.trump_from_reveal(r, k),
                           lambda k: tr(k)[0], lambda p, g: "trump.source", lambda k: f"revealed card {card_text(k)}"))
    if "deal.weak-redeal" in r.ruleset.clauses:
        hw = z3.BitVec("hw", 52)
        weak = enc.weak_hand(hw)
        lemmas.append(("is_weak_hand: a hand is weak iff each of its cards alone is", [],
                       weak == z3.And([z3.Implies((hw >> k) & 1 == 1, enc.weak_hand(z3.BitVecVal(1 << k, 52)))
                                       for k in range(52)])))
        wk = Ev([hw], [weak])
        full = (1 << 52) - 1
        wpts = [(0,), (full,)] + [(1 << k,) for k in range(52)] + [(full & ~(1 << k),) for k in range(52)]
        wpts += [(sum(1 << (13 * s + k) for s in range(4)),) for k in range(13)]  # one rank in every suit
        cmp.append(Compare("is_weak_hand", wpts, lambda m: R.is_weak_hand(m), lambda m: wk(m)[0],
                           lambda p, g: "deal.weak-redeal", lambda m: f"hand {hand_text(m)}"))
    return lemmas, cmp


# ================================================================ bids (individual)
def _score_reps(r: Rules) -> list[int]:
    """Scores on both sides of every threshold the bidding rules compare with."""
    cuts = {0} | {th for th, _ in r.rising_table}
    return sorted({x + d for x in cuts for d in (-1, 0, 1)} | {-1000, 1000})


def bids_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    r = enc.r
    sc, sc2 = z3.Int("score"), z3.Int("score2")
    reps = [(x,) for x in _score_reps(r)]

    def atoms(v: Sequence[Any]) -> list[Any]:
        return [v[0] >= th for th, _ in r.rising_table] if r.rising_min else [v[0] >= 0]

    bids = range(-1, 15)
    lemmas = region_lemmas("min_bid_for / legal_bids / bid_violation", [sc], [sc2], lambda v: [], atoms,
                           lambda v: [enc.min_bid_for(v[0])] + [enc.legal_bid(v[0], z3.IntVal(b)) for b in bids],
                           reps)
    def key(*p: Any) -> Hashable:
        return tuple(atoms(p[:1]))

    mb = Ev([sc], [enc.min_bid_for(sc)])
    lb = Ev([sc], [enc.legal_bid(sc, z3.IntVal(b)) for b in bids])
    rise = cite(r, "bid.rising-min", "bid.range")
    cmp = [Compare("min_bid_for", reps, lambda s: R.min_bid_for(r, s), lambda s: mb(s)[0], lambda p, g: rise,
                   lambda s: f"score {s}", key),
           Compare("legal_bids", reps, lambda s: R.legal_bids(r, s),
                   lambda s: [b for b, ok in zip(bids, lb(s), strict=True) if ok and 0 <= b <= 13],
                   lambda p, g: rise, lambda s: f"score {s}", key)]

    def bv_engine(s: int, b: int | None) -> str | None:
        v = R.bid_violation(r, s, b)
        return None if v is None else "illegal"

    def bv_enc(s: int, b: int | None) -> str | None:
        if b is None:  # bid.no-pass: the encoding has no pass; every seat bids
            return "illegal"
        return None if lb(s)[list(bids).index(b)] else "illegal"

    def bv_clause(p: Sequence[Any], g: Any) -> str:
        s, b = p
        if b is None:
            return cite(r, "bid.no-pass", "bid.range")
        if b in r.bid_excluded:
            return "bid.excluded"
        return rise if r.bid_min <= b <= r.bid_max else "bid.range"

    cmp.append(Compare("bid_violation", [(s, b) for (s,) in reps for b in [None, *bids]], bv_engine, bv_enc,
                       bv_clause, lambda s, b: f"score {s}, bid {b}", lambda s, b: (*atoms([s]), b)))
    # hand_is_played: a function of the sum of the bids
    bs, bs2 = ints(4, "hb"), ints(4, "hc")
    lemmas += region_lemmas("hand_is_played", bs, bs2, lambda v: [], lambda v: [sum(v[1:], v[0]) == k for k in
                                                                              range(0, 53)] + [sum(v[1:], v[0]) > 52],
                            lambda v: [enc.hand_played(v)], [(k, 0, 0, 0) for k in range(0, 54)] + [(-1, 0, 0, 0)])
    hp = Ev(bs, [enc.hand_played(bs)])
    legal = [b for b in range(14) if r.bid_min <= b <= r.bid_max]
    cmp.append(Compare("hand_is_played", list(itertools.product(legal, repeat=4)),
                       lambda *b: R.hand_is_played(r, list(b)), lambda *b: hp(*b)[0], lambda p, g: "bid.total",
                       lambda *b: f"bids {list(b)}", lambda *b: sum(b)))
    cmp += seat_compares(enc)
    return lemmas, cmp


def seat_compares(enc: Encoding) -> list[Compare]:
    r = enc.r
    d = z3.Int("dealer")
    da = Ev([d], [enc.dealer_after_redeal(d)])
    ns = Ev([d], [enc.next_seat(d)])
    return [Compare("next_seat", [(s,) for s in range(4)], lambda s: R.next_seat(r, s), lambda s: ns(s)[0],
                    lambda p, g: "play.direction", lambda s: f"seat {s}"),
            Compare("dealer_after_redeal", [(s,) for s in range(4)], lambda s: R.dealer_after_redeal(r, s),
                    lambda s: da(s)[0], lambda p, g: cite(r, "redeal.dealer", "auction.all-pass"),
                    lambda s: f"dealer {s}")]


# ================================================================ auction (classic)
def _state(top: Term, passes: Term, to_move: Term, holder: Term = None, active: Sequence[Term] | None = None,
           spoken: Term = None) -> Any:
    return AuctionState(z3.BoolVal(False), top, holder if holder is not None else z3.IntVal(-1),
                        list(active) if active is not None else [z3.BoolVal(True)] * 4, passes,
                        spoken if spoken is not None else z3.IntVal(0), to_move)


def auction_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    """auction_bid_violation over every (dealer, seat, top bid, passes, call)."""
    r = enc.r
    xs, ys = ints(6, "ab"), ints(6, "ac")  # dealer, seat, top key, passes, n (0 = pass), strain

    def call_ok(v: Sequence[Term]) -> Term:
        return enc.call_ok(_state(v[2], v[3], v[1]), v[0], v[4], v[5])

    strains = list(range(5)) if r.egyptian else [0]
    tops: list[tuple[int, int | None] | None] = [None] + [(n, s if r.egyptian else None) for n in range(r.min_bid, 14)
                                                         for s in strains]
    calls: list[tuple[int | None, int | None]] = [(None, None)] + [(n, s if r.egyptian else None)
                                                                   for n in range(1, 15) for s in strains]

    def to_enc(dealer: int, seat: int, top: tuple[int, int | None] | None, passes: int, n: int | None,
               s: int | None) -> tuple[int, ...]:
        tk = -1 if top is None else enc.key(top[0], top[1] or 0)
        return dealer, seat, tk, passes, (0 if n is None else n), (s or 0)

    def atoms(v: Sequence[Any]) -> list[Any]:
        k = enc.key(v[4], v[5])
        return [v[1] == v[0], v[2] < 0, v[3] == 3, v[4] == 0, v[5] == 0, v[4] >= r.min_bid, v[4] <= 13, v[5] >= 0,
                v[5] < enc.strains(), k > v[2], k == v[2]]

    # the dealer speaking or not, after three passes or not, for every dealer; then every top bid x call
    who = [(d, d, pa) for d in range(4) for pa in (0, 3)] + [(d, (d + 1) % 4, pa) for d in (0, 2) for pa in (0, 3)]
    who += [(1, 3, 2), (3, 2, 1)]
    pts = [(d, seat, top, pa, n, s) for d, seat, pa in who for top in tops for n, s in calls]

    top_keys = sorted({to_enc(0, 0, top, 0, None, None)[2] for top in tops})

    def dom(v: Sequence[Term]) -> list[Term]:
        return [v[0] >= 0, v[0] <= 3, v[1] >= 0, v[1] <= 3, v[3] >= 0, v[3] <= 3, z3.Or([v[2] == k for k in top_keys]),
                v[4] >= 0, v[4] <= 14, z3.Or([v[5] == x for x in strains]), z3.Implies(v[4] == 0, v[5] == 0)]

    lemmas = region_lemmas("auction_bid_violation", xs, ys, dom, atoms, lambda v: [call_ok(v)],
                           [to_enc(*p) for p in pts])
    ok = Ev(xs, [call_ok(xs)])

    def engine(*p: Any) -> bool:
        return R.auction_bid_violation(r, *p) is None

    def want(*p: Any) -> bool:
        return bool(ok(*to_enc(*p))[0])

    def clause(p: Sequence[Any], g: Any) -> str:
        d, seat, top, pa, n, s = p
        if n is None:
            return "auction.all-pass"
        if not r.min_bid <= n <= 13:
            return "auction.range"
        if r.egyptian and top is not None and n == top[0]:
            return "auction.egyptian"
        if seat == d and top is not None and enc.key(n, s or 0) == enc.key(top[0], top[1] or 0):
            return "auction.dealer-privilege" if r.auction_style == "dealer-privilege" else "auction.continuous"
        return "auction.raise"

    def show(d: int, seat: int, top: Any, pa: int, n: Any, s: Any) -> str:
        tt = "none" if top is None else f"{top[0]}{'' if top[1] is None else 'CDHSN'[top[1]]}"
        call = "pass" if n is None else f"{n}{'' if s is None else 'CDHSN'[s]}"
        return f"dealer {d}, seat {seat} to speak, top bid {tt}, passes {pa}, call {call}"

    cmp = [Compare("auction_bid_violation", pts, engine, want, clause, show, lambda *p: tuple(atoms(to_enc(*p))))]
    # outside the encoding's call shapes (a strain where none is named, none where one must be, 0 tricks):
    # family 3's theorem says every such call is refused
    odd = [(0, 1, None, 0, n, s) for n, s in ([(7, 0), (13, 4)] if not r.egyptian else [(7, None), (13, None)])]
    odd += [(0, 1, None, 0, 0, 0 if r.egyptian else None)]
    cmp.append(Compare("auction_bid_violation", odd, engine, lambda *p: False,
                       lambda p, g: "auction.egyptian" if p[4] else "auction.range", show))
    return lemmas, cmp


def turn_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    """auction_next after every call (the state the engine passes it), next_seat and dealer_after_redeal."""
    r = enc.r
    seat, spoken, holder, key_ = z3.Int("seat"), z3.Int("spoken"), z3.Int("holder"), z3.Int("topkey")
    act = [z3.Bool(f"active{j}") for j in range(4)]
    n_, s_ = z3.Int("n"), z3.Int("s")
    # the engine is called after the call is applied; the encoding's step is run from the state before it:
    # a pass by ``seat`` (who is then out) or a bid by ``seat`` (who then holds the top bid)
    st = _state(key_, z3.IntVal(0), seat, holder, [z3.Or(a, seat == j) for j, a in enumerate(act)], spoken - 1)
    nxt = enc.auction_step(st, n_, s_)
    ev = Ev([seat, spoken, holder, key_, n_, s_, *act], [nxt.ended, nxt.to_move])
    pts = []
    for sp in range(1, 5):
        for s in range(4):
            for bits in range(16):
                active = [bool(bits >> j & 1) for j in range(4)]
                if not active[s]:  # s passed: the top (if any) stays with someone else
                    pts += [(s, sp, active, False, -1)] + [(s, sp, active, True, h) for h in range(4)
                                                                    if h != s and active[h]]
                else:  # s bid: s holds the top
                    pts.append((s, sp, active, True, s))

    def engine(s: int, sp: int, active: list[bool], has_top: bool, h: int) -> int | None:
        return R.auction_next(r, s, sp, list(active), has_top, h)

    def want(s: int, sp: int, active: list[bool], has_top: bool, h: int) -> int | None:
        bid = active[s]
        n = r.min_bid if bid else 0
        ended, to_move = ev(s, sp, h, enc.key(r.min_bid, 0) if has_top else -1, n, 0, *active)
        return None if ended else to_move

    def show(s: int, sp: int, active: list[bool], has_top: bool, h: int) -> str:
        return (f"seat {s} just {'bid' if active[s] else 'passed'}, calls so far {sp}, seats still in "
                f"{[j for j in range(4) if active[j]]}, top bid {'held by seat ' + str(h) if has_top else 'none'}")

    cl = "auction.continuous" if r.auction_style == "continuous" else "auction.order"
    # callee first: auction_next and dealer_after_redeal call next_seat, so a bug there is named as itself
    return [], seat_compares(enc) + [Compare("auction_next", pts, engine, want, lambda p, g: cl, show)]


