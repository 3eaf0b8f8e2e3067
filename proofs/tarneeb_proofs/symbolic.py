"""Symbolic execution of the engine's own code along every feasible path.

The engine's functions are plain Python on ints, bools, tuples and lists. :class:`Explorer` runs one of them,
unchanged, with some arguments replaced by symbolic values (:class:`SymInt`, :class:`SymBool`): Python objects
that carry a Z3 term and answer every operation the code applies to them with a new term. Wherever the code's
path depends on a symbolic value (``if``, ``and``, ``or``, ``while``, a comparison turned into a bool, a number
used as an index, a dict or set key, a ``range`` bound), the explorer *forks*: it asks Z3 which outcomes are
possible under the path so far and runs the function again for each of them. When no fork is left, the paths
found cover every input of the domain (each fork splits the inputs of its path between its outcomes), and each
path ends with the result the engine's code computes on all of that path's inputs, as terms. The caller then
proves, per path, ``domain and path condition -> engine result = encoding`` (:mod:`tarneeb_proofs.bridge`).

Nothing is sampled, and nothing is assumed about which comparisons the engine makes: a comparison nobody
expected (a special case at one card, one score, while 13 cards are held) is one more fork, and its path is
proved like the others. What the method cannot follow, it refuses (:class:`Unsupported`), naming the construct:

* a symbolic value asked for its identity in engine code (``id``), or engine code that reads an attribute
  ``__class__`` (``type()`` and ``isinstance()`` of a symbolic value answer what they answer for every value of
  its domain: a symbolic integer is an ``int``, a symbolic truth value a ``bool``; engine modules get these
  guarded names while a function is explored);
* a symbolic value passed to Python code outside the engine package ``tarneeb`` (a library function would see an
  object that is not an int);
* a number with more than :attr:`Explorer.max_values` possible values used as an index or key, a bit
  operation on a number that may be negative or too wide, a division by a symbolic number, floats;
* more than :attr:`Explorer.max_paths` paths or :attr:`Explorer.max_decisions` forks on one path.

Library functions the engine calls on symbolic values are C builtins that use the values' own operations
(``sum``, ``max``, ``min``, ``len`` of a list, ``sorted``, ``map``, list and tuple indexing); ``bytes()`` of a
list is given a model of its own (each element must be an int 0..255, else ``ValueError``, as in CPython).
One thing is not checked and is stated instead: a symbolic number turned into text (an f-string of a reason)
becomes a placeholder ``<n>``; the bridge never compares such texts, and the engine must not decide anything on
them (none of its functions does: their texts are reasons for people).
"""

from __future__ import annotations

import builtins
import sys
import time
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import z3

Term = Any

_ENGINE = "tarneeb"  # the package whose code is explored (tarneeb_proofs is the prover, not the engine)


class Unsupported(Exception):
    """A construct the symbolic method cannot follow: the function is refused, never sampled instead."""


@dataclass
class Path:
    """One feasible path: the conditions chosen at each fork, and what the function returned (or raised)."""

    conds: list[Term]
    result: Any = None
    error: BaseException | None = None
    notes: list[str] = field(default_factory=list)


_CURRENT: list[Explorer] = []


def current() -> Explorer | None:
    """The explorer running now (None outside an exploration)."""
    return _CURRENT[-1] if _CURRENT else None


def _explorer() -> Explorer:
    if not _CURRENT:
        raise Unsupported("a symbolic value was used outside an exploration")
    return _CURRENT[-1]


# ====================================================================== the explorer
class Explorer:
    """Runs a function on symbolic inputs along every feasible path (depth first, by re-execution)."""

    def __init__(self, domain: Sequence[Term] = (), *, max_paths: int = 20000, max_decisions: int = 5000,
                 max_values: int = 64, timeout_ms: int = 20_000) -> None:
        self.domain = list(domain)
        self.max_paths = max_paths
        self.max_decisions = max_decisions
        self.max_values = max_values
        self.timeout_ms = timeout_ms
        self.forks = 0  # decision points met (for the report)
        self.executed: dict[int, tuple[types.CodeType, dict[str, Any]]] = {}  # the engine code that ran (for the cache)
        self.solver_s = 0.0  # time in fork checks
        # per prefix of choices: the feasible alternatives (condition, value) of the decision that follows it
        self._alts: dict[tuple[int, ...], list[tuple[Term, Any]]] = {}
        self._trail: list[int] = []
        self._pos = 0
        self._solver: Any = None
        self._conds: list[Term] = []
        self._fixed: list[tuple[Term, Term]] = []  # (term, value) concretised on this path
        self._notes: list[str] = []

    # ------------------------------------------------------------------ running
    def explore(self, fn: Callable[[], Any]) -> list[Path]:
        """Every feasible path of ``fn()`` (a closure over symbolic values) under the domain, depth first: each run
        replays a prefix of choices, and every decision first met on a run takes its first alternative and queues
        the others."""
        paths: list[Path] = []
        work: list[list[int]] = [[]]
        with _guards(self.executed):
            while work:
                if len(paths) >= self.max_paths:
                    raise Unsupported(f"more than {self.max_paths} paths")
                given = work.pop()
                self._trail = list(given)
                self._pos = 0
                self._conds = []
                self._fixed = []
                self._notes = []
                s = z3.Solver()
                s.set("timeout", self.timeout_ms)
                s.add(*self.domain)
                self._solver = s
                _CURRENT.append(self)
                try:
                    result: Any = fn()
                    err: BaseException | None = None
                except Unsupported:
                    raise
                except Exception as e:  # the engine's own exception on this path: part of its behaviour
                    result, err = None, e
                finally:
                    _CURRENT.pop()
                for k in range(len(self._trail) - 1, len(given) - 1, -1):
                    prefix = tuple(self._trail[:k])
                    for i in range(len(self._alts[prefix]) - 1, 0, -1):
                        work.append([*prefix, i])
                paths.append(Path(list(self._conds), result, err, list(self._notes)))
        return paths

    # ------------------------------------------------------------------ decisions
    def _simplify(self, t: Term) -> Term:
        if self._fixed:
            t = z3.substitute(t, *self._fixed)
        return simplified(t)

    def _check(self, extra: Term) -> Any:
        s = self._solver
        t0 = time.perf_counter()
        s.push()
        s.add(extra)
        r = s.check()
        s.pop()
        self.solver_s += time.perf_counter() - t0
        if r == z3.unknown:
            reason = str(s.reason_unknown())
            if "cancel" in reason and time.perf_counter() - t0 < self.timeout_ms / 1000 - 1:
                raise KeyboardInterrupt  # Ctrl-C inside Z3
            raise Unsupported(f"Z3 could not decide a fork within {self.timeout_ms // 1000} s ({reason})")
        return r

    def _choose(self, make: Callable[[], list[tuple[Term, Any]]]) -> Any:
        prefix = tuple(self._trail[:self._pos])
        if self._pos >= self.max_decisions:
            raise Unsupported(f"more than {self.max_decisions} forks on one path")
        if self._pos < len(self._trail):
            choice = self._trail[self._pos]
            alts = self._alts[prefix]
        else:
            alts = self._alts.get(prefix) or make()
            self._alts[prefix] = alts
            self.forks += 1
            choice = 0
            self._trail.append(0)
        self._pos += 1
        cond, value = alts[choice]
        self._conds.append(cond)
        self._solver.add(cond)
        return value

    def decide(self, cond: Term) -> bool:
        """The truth of a symbolic condition on this path (a fork when both outcomes are possible)."""
        c = self._simplify(cond)
        if z3.is_true(c):
            return True
        if z3.is_false(c):
            return False

        def make() -> list[tuple[Term, Any]]:
            if self._check(c) == z3.unsat:
                return [(z3.Not(c), False)]
            if self._check(z3.Not(c)) == z3.unsat:
                return [(c, True)]
            return [(c, True), (z3.Not(c), False)]

        return bool(self._choose(make))

    def concretize(self, t: Term, what: str) -> int:
        """The value of a symbolic number needed as a plain int (an index, a key): one fork per possible value."""
        c = self._simplify(t)
        if z3.is_int_value(c) or z3.is_bv_value(c):
            return int(c.as_long())

        def make() -> list[tuple[Term, Any]]:
            s = self._solver
            s.push()
            alts: list[tuple[Term, Any]] = []
            while True:
                t0 = time.perf_counter()
                r = s.check()
                if r == z3.unsat:
                    break
                if r != z3.sat:
                    s.pop()
                    if "cancel" in str(s.reason_unknown()) and time.perf_counter() - t0 < self.timeout_ms / 1000 - 1:
                        raise KeyboardInterrupt
                    raise Unsupported(f"Z3 could not enumerate the values of {what}")
                v = s.model().eval(c, model_completion=True)
                alts.append((c == v, int(v.as_long())))
                if len(alts) > self.max_values:
                    s.pop()
                    raise Unsupported(f"{what} has more than {self.max_values} possible values")
                s.add(c != v)
            s.pop()
            return alts

        value = self._choose(make)
        self._fixed.append((c, z3.IntVal(value) if z3.is_int(c) else z3.BitVecVal(value, c.size())))
        return int(value)

    def proves(self, claim: Term) -> bool:
        """``claim`` holds on every input of this path (used to justify a conversion, e.g. a number >= 0)."""
        return bool(self._check(z3.Not(claim)) == z3.unsat)

    def note(self, text: str) -> None:
        if text not in self._notes:
            self._notes.append(text)


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


_SIMPLE: dict[int, tuple[Term, Term]] = {}  # AST id -> (term, simplified): Z3 shares equal terms, so a re-run
# of the function on the same inputs builds the same terms and finds their simplified forms here


def simplified(t: Term) -> Term:
    hit = _SIMPLE.get(t.get_id())
    if hit is None:
        if len(_SIMPLE) > 200_000:
            _SIMPLE.clear()
        hit = _SIMPLE[t.get_id()] = (t, z3.simplify(t))
    return hit[1]


def _wrap(t: Term) -> Any:
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
                return _wrap(x + y if op == "+" else x * y)
            x, y = _int_term(a), _int_term(b)
            return _wrap(x + y if op == "+" else x * y)
        if op == "-":
            pair = _pair_bv(a, b) if not (isinstance(a, int) and isinstance(b, int)) else None
            if pair is not None and _explorer().proves(z3.UGE(*pair)):
                # a - b of two non-negative numbers that this path proves a >= b: exact in bits, and the bit
                # operations that often follow (x & (x - 1)) stay in bit-vectors (no Int <-> bit-vector mix,
                # on which Z3 may take longer than a fork's timeout)
                x, y = pair
                return _wrap(x - y)
            return _wrap(_int_term(a) - _int_term(b))
        if op in ("//", "%"):
            if not isinstance(b, int):
                raise Unsupported(f"division ({op}) by a symbolic number")
            if b == 0:
                raise ZeroDivisionError("integer division or modulo by zero")
            pair = _pair_bv(a, b) if b > 0 else None
            if pair is not None:
                x, y = pair
                return _wrap(z3.UDiv(x, y) if op == "//" else z3.URem(x, y))
            x = _int_term(a)
            if b > 0:
                return _wrap(x / b if op == "//" else x % b)
            q = (-x) / (-b)  # floor(x / b) for b < 0
            return _wrap(q if op == "//" else x - b * q)
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
        return _wrap(-_to_int(self.t))

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        x = _to_int(self.t)
        return _wrap(z3.If(x >= 0, x, -x))

    def __invert__(self) -> Any:
        return _wrap(-_to_int(self.t) - 1)

    # ------------------------------------------------------------- bits
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
                    return _wrap(z3.LShR(a2, b) if b < _width(a2) else z3.BitVecVal(0, 1))
                w = max(_width(a2), _width(b))
                return _wrap(z3.LShR(_ext(a2, w), _ext(b, w)))
            if isinstance(b, int):
                w = _width(a2) + b
                return _wrap(_ext(a2, w) << b)
            if _width(b) > 8:
                raise Unsupported("a left shift by a symbolic amount wider than 8 bits")
            w = _width(a2) + 2 ** _width(b) - 1
            return _wrap(_ext(a2, w) << _ext(b, w))
        if op == "&" and (isinstance(a, int) and a < 0 or isinstance(b, int) and b < 0):
            # x & -k with x >= 0 keeps x's width: the low bits of -k
            k, x = (a, b) if isinstance(a, int) else (b, a)
            assert isinstance(k, int) and not isinstance(x, int)
            xb = _as_bv(x, op)
            assert not isinstance(xb, int)
            return _wrap(xb & z3.BitVecVal(k % (1 << _width(xb)), _width(xb)))
        pair = _pair_bv(_as_bv(a, op), _as_bv(b, op))
        if pair is None:
            raise Unsupported(f"the bit operation {op} on a negative number")
        x, y = pair
        return _wrap({"&": x & y, "|": x | y, "^": x ^ y}[op])

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

    def bit_count(self) -> Any:
        t = _as_bv(self.t, "bit_count")
        assert not isinstance(t, int)
        w = _width(t)
        cw = w.bit_length() + 1
        return _wrap(z3.Sum([z3.ZeroExt(cw - 1, z3.Extract(i, i, t)) for i in range(w)]))

    # ------------------------------------------------------------- comparisons
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
        return _wrap(t)

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
    def __bool__(self) -> bool:
        z = z3.BitVecVal(0, _width(self.t)) if _is_bv(self.t) else z3.IntVal(0)
        return _explorer().decide(self.t != z)

    def __index__(self) -> int:
        return _explorer().concretize(self.t, "a symbolic number used as an index")

    def __int__(self) -> int:
        return _explorer().concretize(self.t, "a symbolic number made a plain int")

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

    def __bool__(self) -> bool:
        return _explorer().decide(self.t)

    def _logic(self, other: Any, op: str) -> Any:
        o = _bool_term(other)
        if o is None:  # bool & int: the int operation on 0/1
            return SymInt(_num(self))._bits(other, op)
        return _wrap({"&": z3.And(self.t, o), "|": z3.Or(self.t, o), "^": z3.Xor(self.t, o)}[op])

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
            return _wrap(self.t == b)
        return SymInt(_num(self)).__eq__(o)

    def __ne__(self, o: object) -> Any:
        b = _bool_term(o)
        if b is not None:
            return _wrap(self.t != b)
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

    def __index__(self) -> int:
        return int(bool(self))

    __int__ = __index__

    def __hash__(self) -> int:
        return hash(bool(self))

    def __format__(self, spec: str) -> str:
        return format(bool(self), spec)

    def __str__(self) -> str:
        return str(bool(self))

    def __repr__(self) -> str:
        return f"SymBool({self.t})"


def is_sym(x: Any) -> bool:
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


# ====================================================================== guards
_INTROSPECTION = {"type": builtins.type, "isinstance": builtins.isinstance, "issubclass": builtins.issubclass,
                  "id": builtins.id}


def _stand_in(x: Any) -> Any:
    """What a symbolic value is in the proof's domain: an int (SymInt) or a bool (SymBool)."""
    return True if isinstance(x, SymBool) else 0 if isinstance(x, SymInt) else x


def _guarded(name: str, real: Any) -> Any:
    """``type`` / ``isinstance`` answer for a symbolic value what they answer for every value of its domain (a
    SymInt stands for an int, never a bool; a SymBool for a bool); ``id`` of one is refused."""
    def g(*args: Any, **kw: Any) -> Any:
        if any(is_sym(a) for a in args):
            if name == "id":
                raise Unsupported("id() of a symbolic value in engine code")
            return real(*[_stand_in(a) for a in args], **kw)
        return real(*args, **kw)
    g.__name__ = name
    return g


def _bytes_model(x: Any = b"", *rest: Any) -> Any:
    """``bytes(x)``, and for a list or tuple holding symbolic numbers a model of it: each element must be an int
    0..255 (a fork; else ValueError, as CPython raises); the result is a tuple of the elements (indexing and
    slicing it give them back, as bytes give ints)."""
    if rest or type(x) not in (list, tuple) or not any(is_sym(e) for e in x):
        return builtins.bytes(x, *rest)
    out = []
    for e in x:
        if is_sym(e):
            if not (e >= 0 and e <= 255):
                raise ValueError("bytes must be in range(0, 256)")
            out.append(e)
        else:
            out.append(builtins.bytes([e])[0])
    return tuple(out)


class _Table(tuple):  # type: ignore[type-arg]
    """A module-level table of ints (``SUIT_MASKS``, a card-bit table) as seen while exploring: indexing it with a
    symbolic number gives the entry as a term (an if-then-else over the entries) instead of forking on every
    index; any other use is the tuple's own. The engine's table is put back after the exploration."""

    _terms: Any

    def __getitem__(self, i: Any) -> Any:
        if not isinstance(i, SymInt):
            return tuple.__getitem__(self, i)
        n = len(self)
        if not (i >= -n and i < n):
            raise IndexError("tuple index out of range")
        vals = list(tuple.__iter__(self))
        t = i.t
        w = max(max(v.bit_length() for v in vals), 1)
        # the entries are non-negative ints: a bit-vector of their width, chosen by the index
        if _is_bv(t):  # a bit-vector index is never negative; only the entries it can reach
            k_lo, k_hi = 0, min(n, 2 ** _width(t))
        else:  # an integer index may count from the end, as in Python
            k_lo, k_hi = -n, n
        out: Term = z3.BitVecVal(vals[(k_hi - 1) % n], w)
        for k in range(k_hi - 2, k_lo - 1, -1):
            out = z3.If(t == k, z3.BitVecVal(vals[k % n], w), out)
        return _wrap(out)


def _is_int_table(v: Any) -> bool:
    return (type(v) in (tuple, list) and len(v) >= 2 and all(type(x) is int and x >= 0 for x in v))


_SHADOWS: dict[str, Any] = {**{n: _guarded(n, f) for n, f in _INTROSPECTION.items()}, "bytes": _bytes_model}
_MARK = "__tarneeb_symbolic_guard__"
HOOK = True  # the profile hook of the guards (off only to profile the explorer itself)


def _is_engine(g: dict[str, Any]) -> bool:
    name = g.get("__name__", "")
    return isinstance(name, str) and (name == _ENGINE or name.startswith(_ENGINE + "."))


@contextmanager
def _guards(executed: dict[int, tuple[types.CodeType, dict[str, Any]]] | None = None) -> Iterator[None]:
    """While exploring: engine modules see guarded introspection names, the bytes() model and symbolic tables; a
    symbolic value passed to Python code outside the engine, or engine code reading ``__class__``, is refused.
    ``executed`` collects the engine code that ran (id -> (code object, the globals it ran with))."""
    installed: list[tuple[dict[str, Any], dict[str, Any]]] = []
    kinds: dict[int, int] = {}  # id(module globals) -> 1 engine, 2 prover or z3, 0 other
    seen_code: set[int] = set()

    def install(g: dict[str, Any]) -> None:
        if g.get(_MARK):
            return
        before = {n: g[n] for n in _SHADOWS if n in g}
        installed.append((g, before))
        g.update(_SHADOWS)
        g[_MARK] = True
        # tables of non-negative ints, indexed symbolically by an if-then-else (see _Table)
        for n, v in list(g.items()):
            if _is_int_table(v) and not n.startswith("__"):
                before.setdefault(n, v)
                g[n] = _Table(v)
        # a module-level alias of an introspection builtin (``_type = type``) is guarded too
        for n, v in list(g.items()):
            for real_name, real in _INTROSPECTION.items():
                if v is real and n not in _SHADOWS:
                    before.setdefault(n, v)
                    g[n] = _SHADOWS[real_name]

    def kind(g: dict[str, Any]) -> int:
        k = kinds.get(id(g))
        if k is None:
            name = str(g.get("__name__", ""))
            k = 1 if _is_engine(g) else 2 if name.startswith(("tarneeb_proofs", "z3")) else 0
            kinds[id(g)] = k
            if k == 1:
                install(g)
        return k

    for mod in list(sys.modules.values()):  # the engine's loaded modules, before anything runs
        if mod is not None and _is_engine(vars(mod)):
            kind(vars(mod))

    def profile(frame: types.FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        k = kinds.get(id(frame.f_globals))
        if k == 2:
            return
        if k is None:
            k = kind(frame.f_globals)
            if k == 2:
                return
        if k == 1:
            code = frame.f_code
            if id(code) not in seen_code:
                seen_code.add(id(code))
                if "__class__" in code.co_names:
                    raise Unsupported(f"{code.co_name} reads an attribute __class__")
                if executed is not None:
                    executed[id(code)] = (code, frame.f_globals)
            return
        back = frame.f_back
        if back is None or kinds.get(id(back.f_globals)) != 1:
            return
        for v in frame.f_locals.values():  # Python code outside the engine, called by the engine
            if is_sym(v) or (isinstance(v, (list, tuple)) and any(is_sym(e) for e in v[:64])):
                raise Unsupported(f"a symbolic value passed to {frame.f_globals.get('__name__')}."
                                  f"{frame.f_code.co_name}")

    old = sys.getprofile()
    if HOOK:
        sys.setprofile(profile)
    try:
        yield
    finally:
        if HOOK:
            sys.setprofile(old)
        for g, before in reversed(installed):
            for n in (*_SHADOWS, _MARK):
                g.pop(n, None)
            g.update(before)
