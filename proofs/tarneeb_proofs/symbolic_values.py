"""The symbolic values of :mod:`tarneeb_proofs.symbolic`: :class:`SymInt` and :class:`SymBool`, Python objects that
carry a Z3 term and answer every operation the engine's code applies to them with a new term (or a fork of the
exploration running now, where the code's path depends on one).

The exploration running now is a dynamic context (:func:`exploring`, a :class:`contextvars.ContextVar`): a symbolic
value asks it to decide a condition, to give a number a plain value, to prove a fact of the path, and it keeps
the simplified forms of the terms the values build (the run's cache, :class:`~tarneeb_proofs.session.Session`).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

import z3

Term = Any
F = TypeVar("F", bound=Callable[..., Any])


def untraced(f: F) -> F:
    """``f`` run with the thread's trace function off, and put back after. The guards' hook
    (:mod:`tarneeb_proofs.symbolic_guards`) is a trace function that watches the engine's code; Python calls it for
    every new frame, Z3's bindings' too. What an operation of a symbolic value or a fork runs is the prover's and
    Z3's code only (never the engine's): unwatched, it costs a tenth less of a proof's time."""
    get, put = sys.gettrace, sys.settrace

    @functools.wraps(f)
    def g(*args: Any, **kw: Any) -> Any:
        tr = get()
        if tr is None:
            return f(*args, **kw)
        put(None)
        try:
            return f(*args, **kw)
        finally:
            put(tr)
    return g  # type: ignore[return-value]


class Unsupported(Exception):
    """A construct the symbolic method cannot follow: the function is refused, never sampled instead."""


class Exploring(Protocol):
    """What a symbolic value asks of the exploration running now (:class:`tarneeb_proofs.symbolic.Explorer`)."""

    def decide(self, cond: Term) -> bool:
        """The truth of a symbolic condition on this path (a fork when both outcomes are possible)."""

    def concretize(self, t: Term, what: str) -> int:
        """The value of a symbolic number needed as a plain int: one fork per possible value."""

    def proves(self, claim: Term) -> bool:
        """``claim`` holds on every input of this path."""

    def note(self, text: str) -> None:
        """Note something of this path the proof states rather than checks."""

    def simplified(self, t: Term) -> Term:
        """``z3.simplify(t)``, from the run's cache of simplified terms."""


_CURRENT: ContextVar[Exploring | None] = ContextVar("tarneeb_proofs_exploring", default=None)


@contextmanager
def exploring(ex: Exploring) -> Iterator[None]:
    """``ex`` is the exploration running now, in the block (for the symbolic values used in it)."""
    token = _CURRENT.set(ex)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current() -> Exploring | None:
    """The exploration running now (None outside an exploration)."""
    return _CURRENT.get()


def _explorer() -> Exploring:
    ex = _CURRENT.get()
    if ex is None:
        raise Unsupported("a symbolic value was used outside an exploration")
    return ex


SIMPLIFIED_MAX = 200_000  # simplified terms a cache keeps before it starts again


def simplified(t: Term, cache: dict[int, tuple[Term, Term]] | None = None) -> Term:
    """``z3.simplify(t)``, found in ``cache`` (AST id -> (term, simplified), the term kept alive) when given, else in
    the cache of the exploration running now, if any. Z3 shares equal terms, so a re-run of a function on the same
    inputs (another path, another case, another check of the run) builds the same terms and finds them there."""
    if cache is None:
        ex = _CURRENT.get()
        if ex is None:
            return z3.simplify(t)
        return ex.simplified(t)
    hit = cache.get(t.get_id())
    if hit is None:
        if len(cache) > SIMPLIFIED_MAX:
            cache.clear()
        hit = cache[t.get_id()] = (t, z3.simplify(t))
    return hit[1]


# ====================================================================== symbolic values
def _is_bv(t: Term) -> bool:
    return bool(z3.is_bv(t))


def _width(t: Term) -> int:
    return int(t.size())


def _ext(t: Term, w: int) -> Term:
    return z3.ZeroExt(w - _width(t), t) if w > _width(t) else t


def _to_int(t: Term) -> Term:
    return z3.BV2Int(t, is_signed=False) if _is_bv(t) else t


def _bool_term(x: Any) -> Term | None:
    if isinstance(x, SymBool):
        return x.t
    if x is True or x is False:
        return z3.BoolVal(x)
    return None


def _num(x: Any) -> Term | int | None:
    """A number's term (a SymInt's, a SymBool's as 0/1), a plain int as itself, None for anything else."""
    if isinstance(x, SymInt):
        return x.t
    if isinstance(x, SymBool):
        return z3.If(x.t, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    if type(x) is int or type(x) is bool:
        return int(x)
    return None


def _const_bv(c: int, w: int) -> Term:
    return z3.BitVecVal(c, max(w, c.bit_length(), 1))


def _pair_bv(a: Term | int, b: Term | int) -> tuple[Term, Term] | None:
    """Both as bit-vectors of one width, when both are bit-vectors or non-negative constants."""
    if isinstance(a, int) and a < 0 or isinstance(b, int) and b < 0:
        return None
    if not ((not isinstance(a, int) and _is_bv(a)) or isinstance(a, int)):
        return None
    if not ((not isinstance(b, int) and _is_bv(b)) or isinstance(b, int)):
        return None
    wa = a.bit_length() if isinstance(a, int) else _width(a)
    wb = b.bit_length() if isinstance(b, int) else _width(b)
    w = max(wa, wb, 1)
    ta = _const_bv(a, w) if isinstance(a, int) else _ext(a, w)
    tb = _const_bv(b, w) if isinstance(b, int) else _ext(b, w)
    return ta, tb


def _int_term(a: Term | int) -> Term:
    return z3.IntVal(a) if isinstance(a, int) else _to_int(a)


def _as_bv(a: Term | int, op: str) -> Term | int:
    """An integer term as a bit-vector for a bit operation, when this path proves it non-negative and < 2**128."""
    if isinstance(a, int) or _is_bv(a):
        return a
    ex = _explorer()
    for w in (64, 128):
        if ex.proves(z3.And(a >= 0, a < 2 ** w)):
            return z3.Int2BV(a, w)
    raise Unsupported(f"the bit operation {op} on a number that may be negative or wider than 128 bits")


def wrap(t: Term) -> Any:
    """A term as an engine value: a plain int or bool when it simplifies to one, else a symbolic one."""
    t = simplified(t)
    if z3.is_int_value(t) or z3.is_bv_value(t):
        return int(t.as_long())
    if z3.is_true(t):
        return True
    if z3.is_false(t):
        return False
    if z3.is_bool(t):
        return SymBool(t)
    return SymInt(t)


class SymInt:
    """A symbolic integer: a Z3 Int (any value) or a bit-vector (read as a non-negative number below 2**width)."""

    __slots__ = ("t",)

    def __init__(self, t: Term) -> None:
        self.t = t

    # ------------------------------------------------------------- arithmetic
    @untraced
    def _arith(self, other: Any, op: str, rev: bool = False) -> Any:
        o = _num(other)
        if o is None:
            return NotImplemented
        a, b = (o, self.t) if rev else (self.t, o)
        if op in ("+", "*"):
            pair = _pair_bv(a, b)
            if pair is not None:
                x, y = pair
                w = _width(x) + (1 if op == "+" else _width(y))
                x, y = _ext(x, w), _ext(y, w)
                return wrap(x + y if op == "+" else x * y)
            x, y = _int_term(a), _int_term(b)
            return wrap(x + y if op == "+" else x * y)
        if op == "-":
            pair = _pair_bv(a, b) if not (isinstance(a, int) and isinstance(b, int)) else None
            if pair is not None and _explorer().proves(z3.UGE(*pair)):
                # a - b of two non-negative numbers that this path proves a >= b: exact in bits, and the bit
                # operations that often follow (x & (x - 1)) stay in bit-vectors (no Int <-> bit-vector mix,
                # on which Z3 may take longer than a fork's timeout)
                x, y = pair
                return wrap(x - y)
            return wrap(_int_term(a) - _int_term(b))
        if op in ("//", "%"):
            if not isinstance(b, int):
                raise Unsupported(f"division ({op}) by a symbolic number")
            if b == 0:
                raise ZeroDivisionError("integer division or modulo by zero")
            pair = _pair_bv(a, b) if b > 0 else None
            if pair is not None:
                x, y = pair
                return wrap(z3.UDiv(x, y) if op == "//" else z3.URem(x, y))
            x = _int_term(a)
            if b > 0:
                return wrap(x / b if op == "//" else x % b)
            q = (-x) / (-b)  # floor(x / b) for b < 0
            return wrap(q if op == "//" else x - b * q)
        raise Unsupported(f"the operation {op}")

    def __add__(self, o: Any) -> Any:
        return self._arith(o, "+")

    def __radd__(self, o: Any) -> Any:
        return self._arith(o, "+", True)

    def __sub__(self, o: Any) -> Any:
        return self._arith(o, "-")

    def __rsub__(self, o: Any) -> Any:
        return self._arith(o, "-", True)

    def __mul__(self, o: Any) -> Any:
        return self._arith(o, "*")

    def __rmul__(self, o: Any) -> Any:
        return self._arith(o, "*", True)

    def __floordiv__(self, o: Any) -> Any:
        return self._arith(o, "//")

    def __rfloordiv__(self, o: Any) -> Any:
        return self._arith(o, "//", True)

    def __mod__(self, o: Any) -> Any:
        return self._arith(o, "%")

    def __rmod__(self, o: Any) -> Any:
        return self._arith(o, "%", True)

    def __neg__(self) -> Any:
        return wrap(-_to_int(self.t))

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        x = _to_int(self.t)
        return wrap(z3.If(x >= 0, x, -x))

    def __invert__(self) -> Any:
        return wrap(-_to_int(self.t) - 1)

    # ------------------------------------------------------------- bits
    @untraced
    def _bits(self, other: Any, op: str, rev: bool = False) -> Any:
        o = _num(other)
        if o is None:
            return NotImplemented
        a, b = (o, self.t) if rev else (self.t, o)
        if op in ("<<", ">>"):
            if isinstance(b, int) and b < 0:
                raise ValueError("negative shift count")
            a2 = _as_bv(a, op)
            if not isinstance(b, int) and not _is_bv(b):
                if not _explorer().decide(b >= 0):
                    raise ValueError("negative shift count")
                b = _as_bv(b, op)
            if isinstance(a2, int):
                a2 = _const_bv(a2, 1)
            if op == ">>":
                if isinstance(b, int):
                    return wrap(z3.LShR(a2, b) if b < _width(a2) else z3.BitVecVal(0, 1))
                w = max(_width(a2), _width(b))
                return wrap(z3.LShR(_ext(a2, w), _ext(b, w)))
            if isinstance(b, int):
                w = _width(a2) + b
                return wrap(_ext(a2, w) << b)
            if _width(b) > 8:
                raise Unsupported("a left shift by a symbolic amount wider than 8 bits")
            w = _width(a2) + 2 ** _width(b) - 1
            return wrap(_ext(a2, w) << _ext(b, w))
        if op == "&" and (isinstance(a, int) and a < 0 or isinstance(b, int) and b < 0):
            # x & -k with x >= 0 keeps x's width: the low bits of -k
            k, x = (a, b) if isinstance(a, int) else (b, a)
            assert isinstance(k, int) and not isinstance(x, int)
            xb = _as_bv(x, op)
            assert not isinstance(xb, int)
            return wrap(xb & z3.BitVecVal(k % (1 << _width(xb)), _width(xb)))
        pair = _pair_bv(_as_bv(a, op), _as_bv(b, op))
        if pair is None:
            raise Unsupported(f"the bit operation {op} on a negative number")
        x, y = pair
        return wrap({"&": x & y, "|": x | y, "^": x ^ y}[op])

    def __and__(self, o: Any) -> Any:
        return self._bits(o, "&")

    def __rand__(self, o: Any) -> Any:
        return self._bits(o, "&", True)

    def __or__(self, o: Any) -> Any:
        return self._bits(o, "|")

    def __ror__(self, o: Any) -> Any:
        return self._bits(o, "|", True)

    def __xor__(self, o: Any) -> Any:
        return self._bits(o, "^")

    def __rxor__(self, o: Any) -> Any:
        return self._bits(o, "^", True)

    def __lshift__(self, o: Any) -> Any:
        return self._bits(o, "<<")

    def __rlshift__(self, o: Any) -> Any:
        return self._bits(o, "<<", True)

    def __rshift__(self, o: Any) -> Any:
        return self._bits(o, ">>")

    def __rrshift__(self, o: Any) -> Any:
        return self._bits(o, ">>", True)

    @untraced
    def bit_count(self) -> Any:
        """``int.bit_count``: the number of one bits, as a term (the number must be a non-negative bit-vector)."""
        t = _as_bv(self.t, "bit_count")
        assert not isinstance(t, int)
        w = _width(t)
        cw = w.bit_length() + 1
        return wrap(z3.Sum([z3.ZeroExt(cw - 1, z3.Extract(i, i, t)) for i in range(w)]))

    # ------------------------------------------------------------- comparisons
    @untraced
    def _cmp(self, other: Any, op: str) -> Any:
        o = _num(other)
        if o is None:
            return NotImplemented
        a: Term = self.t
        b: Term | int = o
        if _is_bv(a) and isinstance(b, int) and not 0 <= b < 2 ** _width(a):
            # a bit-vector is 0 <= a < 2**width: against a constant outside that range the answer is known
            below = b < 0
            return {"==": False, "!=": True, "<": not below, "<=": not below, ">": below, ">=": below}[op]
        pair = _pair_bv(a, b) if _is_bv(a) else None
        if pair is not None:
            x, y = pair
            t = {"==": x == y, "!=": x != y, "<": z3.ULT(x, y), "<=": z3.ULE(x, y), ">": z3.UGT(x, y),
                 ">=": z3.UGE(x, y)}[op]
        else:
            x, y = _to_int(a), _int_term(b)
            t = {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
        return wrap(t)

    def __eq__(self, o: object) -> Any:
        return self._cmp(o, "==")

    def __ne__(self, o: object) -> Any:
        return self._cmp(o, "!=")

    def __lt__(self, o: Any) -> Any:
        return self._cmp(o, "<")

    def __le__(self, o: Any) -> Any:
        return self._cmp(o, "<=")

    def __gt__(self, o: Any) -> Any:
        return self._cmp(o, ">")

    def __ge__(self, o: Any) -> Any:
        return self._cmp(o, ">=")

    # ------------------------------------------------------------- becoming concrete
    @untraced
    def __bool__(self) -> bool:
        z = z3.BitVecVal(0, _width(self.t)) if _is_bv(self.t) else z3.IntVal(0)
        return _explorer().decide(self.t != z)

    @untraced
    def __index__(self) -> int:
        return _explorer().concretize(self.t, "a symbolic number used as an index")

    @untraced
    def __int__(self) -> int:
        return _explorer().concretize(self.t, "a symbolic number made a plain int")

    @untraced
    def __hash__(self) -> int:
        return hash(_explorer().concretize(self.t, "a symbolic number used as a key"))

    def __float__(self) -> float:
        raise Unsupported("a symbolic number made a float")

    def __format__(self, spec: str) -> str:
        _explorer().note("a symbolic number was turned into text (a placeholder)")
        return "<n>"

    def __str__(self) -> str:
        return self.__format__("")

    def __repr__(self) -> str:
        return f"SymInt({self.t})"

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"the attribute {name} of a symbolic number")


class SymBool:
    """A symbolic truth value (a Z3 Bool); as a number it is 0 or 1, as in Python."""

    __slots__ = ("t",)

    def __init__(self, t: Term) -> None:
        self.t = t

    @untraced
    def __bool__(self) -> bool:
        return _explorer().decide(self.t)

    @untraced
    def _logic(self, other: Any, op: str) -> Any:
        o = _bool_term(other)
        if o is None:  # bool & int: the int operation on 0/1
            return SymInt(_num(self))._bits(other, op)
        return wrap({"&": z3.And(self.t, o), "|": z3.Or(self.t, o), "^": z3.Xor(self.t, o)}[op])

    def __and__(self, o: Any) -> Any:
        return self._logic(o, "&")

    __rand__ = __and__

    def __or__(self, o: Any) -> Any:
        return self._logic(o, "|")

    __ror__ = __or__

    def __xor__(self, o: Any) -> Any:
        return self._logic(o, "^")

    __rxor__ = __xor__

    def __eq__(self, o: object) -> Any:
        b = _bool_term(o)
        if b is not None:
            return wrap(self.t == b)
        return SymInt(_num(self)).__eq__(o)

    def __ne__(self, o: object) -> Any:
        b = _bool_term(o)
        if b is not None:
            return wrap(self.t != b)
        return SymInt(_num(self)).__ne__(o)

    def _as_int(self) -> SymInt:
        return SymInt(_num(self))

    def __add__(self, o: Any) -> Any:
        return self._as_int() + o

    def __radd__(self, o: Any) -> Any:
        return o + self._as_int()

    def __sub__(self, o: Any) -> Any:
        return self._as_int() - o

    def __rsub__(self, o: Any) -> Any:
        return o - self._as_int()

    def __mul__(self, o: Any) -> Any:
        return self._as_int() * o

    def __rmul__(self, o: Any) -> Any:
        return o * self._as_int()

    def __lt__(self, o: Any) -> Any:
        return self._as_int() < o

    def __le__(self, o: Any) -> Any:
        return self._as_int() <= o

    def __gt__(self, o: Any) -> Any:
        return self._as_int() > o

    def __ge__(self, o: Any) -> Any:
        return self._as_int() >= o

    def __neg__(self) -> Any:
        return -self._as_int()

    def __invert__(self) -> Any:
        return ~self._as_int()

    @untraced
    def __index__(self) -> int:
        return int(bool(self))

    __int__ = __index__

    @untraced
    def __hash__(self) -> int:
        return hash(bool(self))

    def __format__(self, spec: str) -> str:
        return format(bool(self), spec)

    def __str__(self) -> str:
        return str(bool(self))

    def __repr__(self) -> str:
        return f"SymBool({self.t})"


def is_sym(x: Any) -> bool:
    """Whether ``x`` is a symbolic value (a SymInt or a SymBool)."""
    return isinstance(x, (SymInt, SymBool))


def term_of(x: Any, like: Term | None = None) -> Term:
    """The Z3 term of an engine value: a symbolic value's own, a constant's as a value of ``like``'s sort (a Z3
    term is itself)."""
    if isinstance(x, (SymInt, SymBool)):
        return x.t
    if z3.is_expr(x):
        return x
    if x is True or x is False:
        return z3.BoolVal(x)
    if type(x) is int:
        if like is not None and z3.is_bv(like):
            return z3.BitVecVal(x, like.size())
        return z3.IntVal(x)
    raise TypeError(f"not a number: {x!r}")


def num_eq(x: Any, t: Term) -> Term:
    """``x = t`` as a Z3 Bool, for an engine value ``x`` (int, bool, SymInt, SymBool) and an encoding term ``t``."""
    if z3.is_bool(t):
        return t == term_of(x)
    xt = term_of(x, t)
    if z3.is_bool(xt):
        xt = z3.If(xt, 1, 0)
    if z3.is_bv(xt) and z3.is_bv(t):
        w = max(xt.size(), t.size())
        return _ext(xt, w) == _ext(t, w)
    return _to_int(xt) == _to_int(t)


__all__ = ["Exploring", "SymBool", "SymInt", "Term", "Unsupported", "current", "exploring", "is_sym", "num_eq",
           "simplified", "term_of", "wrap"]
