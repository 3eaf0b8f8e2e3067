"""The one concrete evaluator of the encodings: the value of Z3 terms at a point.

``Ev(xs, outs)`` compiles the terms ``outs`` (over the z3 constants ``xs``) once into a Python function of the
inputs: one statement per node of the terms' DAG, with z3's own semantics: unbounded integers, Euclidean ``div``
and ``mod``, bit-vectors reduced to their width (wrap-around, unsigned and signed comparisons, shifts past the
width give 0), ``ite``, strings (the clause ids) as Python strings. ``Ev(...)(*point)`` is then a plain call.
Chosen by measurement over the engine family's own evaluations (16 814 distinct points of 89 term sets, every
engine check of ``tarneeb prove``): substituting the point and asking ``z3.simplify`` (the previous ``Ev``) took
305 us a point, asserting the point and solving (the previous ``Encoding.eval_*``) 5-90 ms a call, the
compiled terms 2.5 us a point (compiling all 89 sets: 0.42 s), with the same values everywhere. The compiled
function is memoised by term in a :class:`Compiled` (a run's, the session's: variants and checks sharing a term
compile it once), given to :class:`Ev` or put in force for a block by :func:`compiling` (the encodings build their
evaluators without one: they use the memo in force).

Values: an integer or bit-vector input takes any Python integer (a bit-vector input is reduced to its width, as
``BitVecVal`` does), a Boolean input any truth value; results are ``int`` (bit-vectors unsigned), ``bool`` or
``str``. Anything this evaluator cannot reduce to a value raises :class:`EvalError`, never a guess: an operator it
does not implement, a variable of the terms that is not among the inputs, an input or output sort other than
Int, Bool, bit-vector (and String for outputs), a division by zero (z3 leaves ``x div 0`` unspecified; it is
refused even in the branch of an ``ite`` that is not taken), an input that is not an integer.

Nothing of the engine is used: the engine family, the match stage, ``Encoding.eval_*`` and the differential
tests all read the encodings' values through :class:`Ev`. This module imports only z3.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

import z3

Term = Any  # a z3 expression


class EvalError(ValueError):
    """A term (or a point) the evaluator cannot reduce to a value."""


class Compiled:
    """Compiled term sets, by the ids of their terms (kept alive here, so their ids stay theirs): a set of terms
    met again (another encoding of the same rule values, another check) is compiled once."""

    def __init__(self) -> None:
        self._memo: dict[tuple[int, ...], tuple[list[Term], Callable[..., tuple[Any, ...]]]] = {}

    def function(self, xs: Sequence[Term], outs: Sequence[Term]) -> Callable[..., tuple[Any, ...]]:
        """:func:`compile_terms` of ``xs`` and ``outs``, compiled once."""
        key = tuple(t.get_id() for t in [*xs, *outs])
        hit = self._memo.get(key)
        if hit is None:
            hit = ([*xs, *outs], compile_terms(xs, outs))
            self._memo[key] = hit
        return hit[1]


# the memo Ev compiles into when it is given none (the encodings build theirs so): a dynamic context, set by
# compiling() for a block (a session while it runs a check; the building of the checks)
_IN_FORCE: ContextVar[Compiled | None] = ContextVar("tarneeb_proofs_compiled", default=None)


@contextmanager
def compiling(memo: Compiled | None = None) -> Iterator[Compiled]:
    """In the block, :class:`Ev` compiles into ``memo``; without one, into the memo already in force (a new one when
    none is)."""
    if memo is None:
        memo = _IN_FORCE.get()
        if memo is not None:
            yield memo
            return
        memo = Compiled()
    token = _IN_FORCE.set(memo)
    try:
        yield memo
    finally:
        _IN_FORCE.reset(token)


class Ev:
    """The value of the terms ``outs`` (over the variables ``xs``) at concrete points: ``Ev(xs, outs)(*point)``
    is the tuple of the outputs' values. Compiled once per term in ``compiled``, or in the memo in force
    (:func:`compiling`); with neither, compiled here (see the module docstring)."""

    def __init__(self, xs: Sequence[Term], outs: Sequence[Term], compiled: Compiled | None = None) -> None:
        self.xs = list(xs)
        self.outs = list(outs)
        memo = compiled if compiled is not None else _IN_FORCE.get()
        self._f = memo.function(self.xs, self.outs) if memo is not None else compile_terms(self.xs, self.outs)

    def __call__(self, *vals: Any) -> tuple[Any, ...]:
        """The outputs' values at the point ``vals`` (one value per input, in order)."""
        if len(vals) != len(self.xs):
            raise EvalError(f"{len(vals)} values for the {len(self.xs)} inputs {', '.join(map(str, self.xs))}")
        return self._f(*vals)


def py_value(v: Term) -> Any:
    """The Python value of a z3 value (a numeral, true/false, a string literal)."""
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_int_value(v) or z3.is_bv_value(v):
        return int(v.as_long())
    if z3.is_string_value(v):
        return str(v.as_string())
    raise EvalError(f"not a value: {str(v)[:200]}")


# ------------------------------------------------------------------ the compiler

def _ediv(a: int, b: int) -> int:
    """z3 integer ``div``: Euclidean (the remainder ``a mod b`` is in 0..|b|-1)."""
    return (a - a % abs(b)) // b


def _signed(x: int, w: int) -> int:
    return x - (1 << w) if x >> (w - 1) & 1 else x


_RUNTIME: Mapping[str, Any] = MappingProxyType({"_ediv": _ediv, "_signed": _signed, "_index": operator.index})

_NARY: Mapping[int, str] = MappingProxyType({
    z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or ", z3.Z3_OP_ADD: " + ", z3.Z3_OP_MUL: " * ", z3.Z3_OP_SUB: " - ",
    z3.Z3_OP_BAND: " & ", z3.Z3_OP_BOR: " | ", z3.Z3_OP_BXOR: " ^ "})
_WRAP: Mapping[int, str] = MappingProxyType({z3.Z3_OP_BADD: " + ", z3.Z3_OP_BSUB: " - ", z3.Z3_OP_BMUL: " * "})  # then reduced
_CMP: Mapping[int, str] = MappingProxyType({z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">",
                                            z3.Z3_OP_ULEQ: "<=", z3.Z3_OP_ULT: "<", z3.Z3_OP_UGEQ: ">=",
                                            z3.Z3_OP_UGT: ">"})
_SCMP: Mapping[int, str] = MappingProxyType({z3.Z3_OP_SLEQ: "<=", z3.Z3_OP_SLT: "<", z3.Z3_OP_SGEQ: ">=",
                                             z3.Z3_OP_SGT: ">"})


def _sort_ok(x: Term, strings: bool) -> bool:
    return bool(z3.is_int(x) or z3.is_bool(x) or z3.is_bv(x) or (strings and z3.is_string(x)))


def compile_terms(inputs: Sequence[Term], outs: Sequence[Term]) -> Callable[..., tuple[Any, ...]]:
    """A Python function ``f(*input values) -> tuple of output values`` evaluating ``outs``; :class:`EvalError`
    when a term cannot be compiled (raised here, once) or a point cannot be evaluated (raised by ``f``)."""
    names: dict[int, str] = {}
    lines: list[str] = []
    for k, x in enumerate(inputs):
        if not (z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED):
            raise EvalError(f"input {x} is not a z3 variable")
        if not _sort_ok(x, strings=False):
            raise EvalError(f"input {x} has sort {x.sort()}: only Int, Bool and bit-vector inputs are evaluated")
        if x.get_id() in names:
            raise EvalError(f"input {x} is given twice")
        names[x.get_id()] = f"i{k}"
        if z3.is_bv(x):
            lines.append(f"i{k} = _index(i{k}) & {(1 << x.size()) - 1}")
        elif z3.is_bool(x):
            lines.append(f"i{k} = bool(i{k})")
        else:
            lines.append(f"i{k} = _index(i{k})")
    for o in outs:
        if not _sort_ok(o, strings=True):
            raise EvalError(f"output {str(o)[:120]} has sort {o.sort()}, which is not evaluated")

    def name(x: Term) -> str:  # the variable holding node x's value, after the statements computing it
        stack = [(x, False)]
        while stack:
            node, ready = stack.pop()
            nid = node.get_id()
            if nid in names:
                continue
            kids = node.children()
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in kids if c.get_id() not in names)
                continue
            v = f"v{len(names)}"
            lines.append(f"{v} = {_expr(node, [names[c.get_id()] for c in kids])}")
            names[nid] = v
        return names[x.get_id()]

    out_names = [name(o) for o in outs]
    params = ", ".join(f"i{k}" for k in range(len(inputs)))
    body = "\n".join("        " + ln for ln in lines) or "        pass"
    src = (f"def _f({params}):\n    try:\n{body}\n    except (TypeError, ZeroDivisionError) as e:\n"
           f"        raise _EvalError('the encoding has no value at this point (' + str(e) + ')') from None\n"
           f"    return ({''.join(n + ', ' for n in out_names)})\n")
    env: dict[str, Any] = dict(_RUNTIME, _EvalError=EvalError)
    exec(compile(src, "<encoding term>", "exec"), env)  # noqa: S102 - source generated above from z3 terms
    fn: Callable[..., tuple[Any, ...]] = env["_f"]
    return fn


def _expr(node: Term, a: list[str]) -> str:  # noqa: C901 - one case per operator
    """Python source of one node, given the names of its children's values."""
    if z3.is_int_value(node) or z3.is_bv_value(node):
        return str(node.as_long())
    if z3.is_true(node):
        return "True"
    if z3.is_false(node):
        return "False"
    if z3.is_string_value(node):
        return repr(node.as_string())
    k = node.decl().kind()
    w = node.size() if z3.is_bv(node) else 0
    mask = (1 << w) - 1
    if k == z3.Z3_OP_UNINTERPRETED:
        what = "variable" if not a else "uninterpreted function"
        raise EvalError(f"{what} {node.decl().name()} is not among the inputs: {str(node)[:120]}")
    if not (z3.is_int(node) or z3.is_bool(node) or z3.is_bv(node) or z3.is_string(node)):
        raise EvalError(f"a term of sort {node.sort()} is not evaluated: {str(node)[:120]}")
    if k in _NARY:
        return "(" + _NARY[k].join(a) + ")"
    if k in _WRAP:
        return f"(({_WRAP[k].join(a)}) & {mask})"
    if k == z3.Z3_OP_NOT:
        return f"(not {a[0]})"
    if k == z3.Z3_OP_IMPLIES:
        return f"((not {a[0]}) or {a[1]})"
    if k == z3.Z3_OP_XOR:
        return f"({a[0]} != {a[1]})"
    if k == z3.Z3_OP_ITE:
        return f"({a[1]} if {a[0]} else {a[2]})"
    if k == z3.Z3_OP_EQ:
        return f"({a[0]} == {a[1]})"
    if k == z3.Z3_OP_DISTINCT:
        return f"(len({{{', '.join(a)}}}) == {len(a)})"
    if k in _CMP:
        return f"({a[0]} {_CMP[k]} {a[1]})"
    if k in _SCMP:
        ws = node.children()[0].size()
        return f"(_signed({a[0]}, {ws}) {_SCMP[k]} _signed({a[1]}, {ws}))"
    if k == z3.Z3_OP_UMINUS:
        return f"(-{a[0]})"
    if k == z3.Z3_OP_MOD:  # Euclidean: the remainder is never negative (x mod 0: ZeroDivisionError, refused)
        return f"({a[0]} % abs({a[1]}))"
    if k == z3.Z3_OP_IDIV:
        return f"_ediv({a[0]}, {a[1]})"
    if k == z3.Z3_OP_BNEG:
        return f"((-{a[0]}) & {mask})"
    if k == z3.Z3_OP_BNOT:
        return f"({a[0]} ^ {mask})"
    if k == z3.Z3_OP_BSHL:
        return f"((({a[0]} << {a[1]}) & {mask}) if {a[1]} < {w} else 0)"
    if k == z3.Z3_OP_BLSHR:
        return f"(({a[0]} >> {a[1]}) if {a[1]} < {w} else 0)"
    if k == z3.Z3_OP_BASHR:  # the sign bit fills in (Python's >> of a negative number does)
        return f"((_signed({a[0]}, {w}) >> {a[1]}) & {mask})"
    if k == z3.Z3_OP_CONCAT:
        parts, shift = [], 0
        for kid, nm in zip(reversed(node.children()), reversed(a), strict=True):
            parts.append(f"({nm} << {shift})" if shift else nm)
            shift += kid.size()
        return "(" + " | ".join(parts) + ")"
    if k == z3.Z3_OP_EXTRACT:
        hi, lo = node.params()
        return f"(({a[0]} >> {lo}) & {(1 << (hi - lo + 1)) - 1})"
    if k == z3.Z3_OP_ZERO_EXT or k == z3.Z3_OP_BV2INT:  # an unsigned value as it is
        return a[0]
    if k == z3.Z3_OP_INT2BV:  # an integer modulo 2**width (Python's & of a negative number does it)
        return f"({a[0]} & {mask})"
    if k == z3.Z3_OP_SIGN_EXT:
        wa = node.children()[0].size()
        return f"({a[0]} | {mask ^ ((1 << wa) - 1)} if {a[0]} >> {wa - 1} & 1 else {a[0]})"
    raise EvalError(f"operator {node.decl().name()} is not implemented by the evaluator: {str(node)[:120]}")
