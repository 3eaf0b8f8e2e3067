"""The one concrete evaluator of the encodings: the value of Z3 terms at a point.

The point's values are substituted for the input variables and the term is simplified by Z3 to a constant
(memoised by term and point, so variants sharing a term evaluate it once). The engine family, the match stage
and the differential tests all read the encodings' values through :class:`Ev`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

Term = Any  # a z3 expression

_MEMO: dict[tuple[int, ...], tuple[list[Term], dict[tuple[Any, ...], tuple[Any, ...]]]] = {}


def py_value(v: Term) -> Any:
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_int_value(v) or z3.is_bv_value(v):
        return int(v.as_long())
    if z3.is_string_value(v):
        return str(v.as_string())
    raise ValueError(f"the encoding did not reduce to a value: {v}")


def _val(var: Term, x: Any) -> Term:
    if z3.is_bv(var):
        return z3.BitVecVal(int(x), var.size())
    if z3.is_bool(var):
        return z3.BoolVal(bool(x))
    return z3.IntVal(int(x))


class Ev:
    """The value of the terms ``outs`` (over the variables ``xs``) at concrete points, memoised by term."""

    def __init__(self, xs: Sequence[Term], outs: Sequence[Term]) -> None:
        self.xs = list(xs)
        key = tuple(t.get_id() for t in [*self.xs, *outs])
        hit = _MEMO.get(key)
        if hit is None:  # the terms are kept alive with the memo, so their ids stay theirs
            hit = ([*self.xs, *outs], {})
            _MEMO[key] = hit
        self.outs = list(outs)
        self.memo = hit[1]

    def __call__(self, *vals: Any) -> tuple[Any, ...]:
        got = self.memo.get(vals)
        if got is None:
            pairs = [(x, _val(x, v)) for x, v in zip(self.xs, vals, strict=True)]
            got = tuple(py_value(z3.simplify(z3.substitute(o, *pairs))) for o in self.outs)
            self.memo[vals] = got
        return got


