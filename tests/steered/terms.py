"""The encoding's terms as the steered matches read them: packing, the reductions (lemmas) they rest on, and a cache
of built terms shared between configurations that read the same parameters."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3

from tarneeb.core.spec import Rules
from tarneeb_proofs.encode import SUIT_MASKS, Encoding, Term, holds, suit_of

NO_LED = 63  # the encoding's "nothing led yet" (encode.NO_LED)
NO_TRUMP = 4
PASS_CALL = (0, 0)  # the encoding's pass: n = 0
Call = tuple[int, int]  # (tricks, strain) in the encoding's terms: (0, 0) a pass; strain 0 when not Egyptian
St = tuple[bool, int, int, bool, bool, bool, bool, int, int, int]  # ended, top, holder, active x4, passes, spoken, to_move
INT_FIELDS = (1, 2, 7, 8, 9)  # the integer fields of St (the others are Booleans)
Lemma = tuple[str, list[Term], Term]


def consts(terms: Sequence[Term]) -> set[int]:
    """The ids of the uninterpreted constants (the variables) occurring in ``terms``."""
    seen: set[int] = set()
    out: set[int] = set()
    todo = list(terms)
    while todo:
        t = todo.pop()
        i = t.get_id()
        if i in seen:
            continue
        seen.add(i)
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(i)
        elif z3.is_app(t):
            todo.extend(t.children())
    return out


def packed(bools: Sequence[Term]) -> Term:
    """The Booleans as one bit-vector (bit i = bools[i]): one substitution for all of them."""
    bits = [z3.If(b, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) for b in reversed(bools)]
    return bits[0] if len(bits) == 1 else z3.Concat(*bits)


def fill(hand: int) -> int:
    """The hand with every suit it holds filled up (the legal-set lemma's point)."""
    return sum(m for m in SUIT_MASKS if hand & m)


def canon(cards: Sequence[int], trump: int) -> tuple[int, ...]:
    """The trick and trump with the suits renamed (the trump suit to spades, the others in order of first appearance)
    and each card's rank replaced by its order among the trick's cards of its suit: the winner lemma's point (the same
    suits equal to each other and to trump, the same order within a suit)."""
    names: dict[int, int] = {}
    if trump < 4:
        names[trump] = 3
    free = iter(s for s in range(4) if s not in names.values())
    for c in cards:
        if c // 13 not in names:
            names[c // 13] = next(free)
    out = list(cards)
    for s, t in names.items():
        idx = sorted((i for i in range(4) if cards[i] // 13 == s), key=lambda i: cards[i])
        for k, i in enumerate(idx):
            out[i] = t * 13 + k
    return (*out, 3 if trump < 4 else trump)


def pack_state(fields: Sequence[Term]) -> Term:
    """An auction state (:data:`St` order) as one bit-vector: a bit per Boolean, 16 bits (two's complement) per integer,
    so that the encoding's next state is read with one substitution."""
    parts = [z3.Int2BV(f, 16) if i in INT_FIELDS else z3.If(f, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
             for i, f in enumerate(fields)]
    return z3.Concat(*parts)


def unpack_state(v: int) -> St:
    """The auction state packed by :func:`pack_state`, read back from the value of its bit-vector."""
    out: list[Any] = []
    shift = sum(16 if i in INT_FIELDS else 1 for i in range(10))
    for i in range(10):
        w = 16 if i in INT_FIELDS else 1
        shift -= w
        x = v >> shift & ((1 << w) - 1)
        out.append(x - (1 << 16) if w == 16 and x >> 15 else x if w == 16 else bool(x))
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9])


def ev(xs: Sequence[Term], outs: Sequence[Term]) -> tuple[list[Term], list[Term]]:
    """The inputs and outputs of an evaluator (:class:`tarneeb_proofs.evaluate.Ev`), as lists."""
    return list(xs), list(outs)


# ====================================================================== built terms, shared


class _Reads:
    """A view of a :class:`Rules` that records the attributes read through it (see :class:`TermCache`)."""

    def __init__(self, rules: Rules, seen: dict[str, Any]) -> None:
        self._r = rules
        self._seen = seen

    def __getattr__(self, name: str) -> Any:
        v = getattr(self._r, name)
        self._seen["r." + name] = v
        return v


class _SpyEncoding(Encoding):
    """An :class:`Encoding` (a copy of one's state) that records the parameters its builders read."""

    def __getattribute__(self, name: str) -> Any:
        d = object.__getattribute__(self, "__dict__")
        if name in d and name not in ("r", "_suits", "_seen"):
            v = d[name]
            d["_seen"][name] = v.sexpr() if isinstance(v, z3.ExprRef) else v
        return object.__getattribute__(self, name)


def _spy(enc: Encoding) -> tuple[Encoding, dict[str, Any]]:
    seen: dict[str, Any] = {}
    spy = object.__new__(_SpyEncoding)
    spy.__dict__.update(enc.__dict__)
    spy.__dict__["_seen"] = seen
    spy.__dict__["r"] = _Reads(enc.r, seen)
    return spy, seen


def _param(enc: Encoding, key: str) -> Any:
    if key.startswith("r."):
        return getattr(enc.r, key[2:])
    v = getattr(enc, key)
    return v.sexpr() if isinstance(v, z3.ExprRef) else v


class TermCache:
    """Terms built from the encoding's builders, reused for a later configuration that gives every parameter the
    build read (attributes of the Encoding and of its Rules) the same value: the builders are functions of what they
    read, and building the terms costs more than the rest of a variant's run. One cache per test session
    (``tests/conftest.py``'s ``steer_terms``) or per run."""

    def __init__(self) -> None:
        # name -> [(the parameters the build read, with their values; what it built)]
        self._built: dict[str, list[tuple[tuple[tuple[str, Any], ...], Any]]] = {}

    def get(self, enc: Encoding, name: str, build: Callable[[Encoding], Any]) -> Any:
        """``build(enc)``, or what an earlier build of ``name`` gave where it read the same parameter values."""
        for reads, out in self._built.get(name, []):
            if all(_param(enc, k) == v for k, v in reads):
                return out
        spy, seen = _spy(enc)
        out = build(spy)
        self._built.setdefault(name, []).append((tuple(seen.items()), out))
        return out


# ====================================================================== the reductions


def lemmas(enc: Encoding) -> list[Lemma]:
    """The three reductions :class:`tests.steered.expected.Expected` reads the encoding through, as Z3 obligations
    (name, hypotheses, claim)."""
    h, led, t = z3.BitVec("ml_hand", 52), z3.BitVec("ml_led", 6), z3.BitVec("ml_trump", 6)
    full = z3.BitVecVal(0, 52)
    for m in SUIT_MASKS:
        full = full | z3.If((h & m) != 0, z3.BitVecVal(m, 52), z3.BitVecVal(0, 52))
    out: list[Lemma] = [
        ("the encoding's legal set of a hand is the hand masked by the legal set of the hand with its suits filled up",
         [], enc.legal_mask(h, led, t) == (h & enc.legal_mask(full, led, t)))]
    a = [z3.BitVec(f"ml_a{i}", 6) for i in range(4)]
    b = [z3.BitVec(f"ml_b{i}", 6) for i in range(4)]
    ta, tb = z3.BitVec("ml_ta", 6), z3.BitVec("ml_tb", 6)
    sa, sb = [suit_of(x) for x in a], [suit_of(x) for x in b]
    hyp = [z3.ULT(x, 52) for x in a + b] + [z3.Distinct(*a), z3.Distinct(*b), z3.ULE(ta, 4), z3.ULE(tb, 4)]
    hyp += [(sa[i] == ta) == (sb[i] == tb) for i in range(4)]
    hyp += [(sa[i] == sa[j]) == (sb[i] == sb[j]) for i in range(4) for j in range(i + 1, 4)]
    hyp += [z3.Implies(sa[i] == sa[j], z3.ULT(a[i], a[j]) == z3.ULT(b[i], b[j]))
            for i in range(4) for j in range(4) if i != j]
    out.append(("the encoding's trick winner depends only on which cards' suits are equal, to each other and to "
                "trump, and on the order of cards of one suit", hyp, enc.trick_winner(a, ta) == enc.trick_winner(b, tb)))
    each = z3.And([z3.Implies(holds(h, z3.BitVecVal(c, 6)), enc.weak_hand(z3.BitVecVal(1 << c, 52)))
                   for c in range(52)])
    out.append(("the encoding's weak hand is a hand each of whose cards alone is weak", [], enc.weak_hand(h) == each))
    return out


def lemma_failure(lemma: Lemma, timeout_ms: int = 60_000) -> str | None:
    """None when Z3 proves the lemma (its hypotheses satisfiable, hypotheses + not(claim) unsat), else why not."""
    name, hyp, claim = lemma
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*hyp)
    if s.check() != z3.sat:
        return f"{name}: the hypotheses are not satisfiable (vacuous)"
    s.add(z3.Not(claim))
    r = s.check()
    if r == z3.unsat:
        return None
    return f"{name}: {r}" + (f", counterexample {s.model()}" if r == z3.sat else "")
