"""The one evaluator of the encodings (``tarneeb_proofs.evaluate.Ev``): z3's semantics, operator by operator, and
a clear error (never a value) for a term or a point it cannot evaluate."""

from __future__ import annotations

from typing import Any

import pytest

z3 = pytest.importorskip("z3")

from tarneeb_proofs.evaluate import Compiled, Ev, EvalError, compiling, py_value  # noqa: E402


def z3_value(xs: list[Any], outs: list[Any], vals: tuple[Any, ...]) -> tuple[Any, ...]:
    pairs = [(x, z3.BitVecVal(v, x.size()) if z3.is_bv(x) else z3.BoolVal(bool(v)) if z3.is_bool(x)
              else z3.IntVal(v)) for x, v in zip(xs, vals, strict=True)]
    return tuple(py_value(z3.simplify(z3.substitute(o, *pairs))) for o in outs)


def test_integer_operators_are_z3s_unbounded_euclidean_ones() -> None:
    a, b = z3.Ints("a b")
    outs = [a + b, a - b - 3, a * b * 7, -a, a / b, a % b, a <= b, a < b, a >= b, a > b, a == b, z3.Distinct(a, b, 0),
            z3.If(a > b, a, b), a * (2 ** 70)]
    ev = Ev([a, b], outs)
    for x in (-7, -1, 0, 1, 7, 2 ** 80):
        for y in (-3, -1, 1, 2, 3):
            assert ev(x, y) == z3_value([a, b], outs, (x, y)), (x, y)
    assert ev(-7, 2)[4:6] == (-4, 1) and ev(7, -2)[4:6] == (-3, 1) and ev(-7, -2)[4:6] == (4, 1)


def test_bit_vector_operators_wrap_and_compare_as_z3_does() -> None:
    x, y = z3.BitVecs("x y", 6)
    w = z3.BitVec("w", 52)
    outs = [x + y, x - y, x * y, -x, ~x, x & y, x | y, x ^ y, x << y, z3.LShR(x, y), z3.ULT(x, y), z3.ULE(x, y),
            z3.UGT(x, y), z3.UGE(x, y), x < y, x <= y, x > y, x >= y, z3.Concat(x, y), z3.Extract(4, 1, x),
            z3.ZeroExt(3, x), z3.SignExt(3, x), (w >> 13) & 63, z3.Extract(5, 0, w) == x,
            z3.BV2Int(x) - 40, z3.Int2BV(z3.BV2Int(x) - 40, 6), z3.Int2BV(z3.BV2Int(w) * 3, 8)]
    ev = Ev([x, y, w], outs)
    for vx in (0, 1, 31, 32, 63):
        for vy in (0, 1, 5, 6, 40, 63):
            for vw in (0, (1 << 52) - 1, 1 << 51):
                assert ev(vx, vy, vw) == z3_value([x, y, w], outs, (vx, vy, vw)), (vx, vy, vw)
    assert ev(-1, 0, 0)[0] == 63  # an input is reduced to its width, as BitVecVal does


def test_booleans_ite_and_strings() -> None:
    p, q = z3.Bools("p q")
    n = z3.Int("n")
    outs = [z3.And(p, q), z3.Or(p, q), z3.Not(p), z3.Implies(p, q), z3.Xor(p, q), p == q,
            z3.If(p, z3.StringVal("win.target"), z3.StringVal("tie.both-qualify")), z3.If(q, n, -n)]
    ev = Ev([p, q, n], outs)
    for vp in (False, True):
        for vq in (False, True):
            assert ev(vp, vq, 5) == z3_value([p, q, n], outs, (vp, vq, 5))
    assert ev(True, False, 5)[6] == "win.target"


def test_the_compiled_function_is_memoised_by_term() -> None:
    a = z3.Int("memo_a")
    memo = Compiled()
    assert Ev([a], [a + 1], memo)._f is Ev([a], [a + 1], memo)._f is memo.function([a], [a + 1])
    with compiling(Compiled()) as in_force:  # the memo in force, for evaluators built without one (the encodings')
        assert Ev([a], [a + 1])._f is Ev([a], [a + 1])._f is in_force.function([a], [a + 1])
        assert Ev([a], [a + 1])._f is not memo.function([a], [a + 1])


@pytest.mark.parametrize("build, what", [
    (lambda: Ev([z3.Int("a")], [z3.Int("a") + z3.Int("free")]), "free is not among the inputs"),
    (lambda: Ev([z3.Int("a")], [z3.Function("f", z3.IntSort(), z3.IntSort())(z3.Int("a"))]), "uninterpreted function"),
    (lambda: Ev([z3.BitVec("x", 6)], [z3.UDiv(z3.BitVec("x", 6), 3)]), "not implemented"),
    (lambda: Ev([z3.Real("r")], [z3.Real("r") + 1]), "only Int, Bool and bit-vector inputs"),
    (lambda: Ev([z3.Int("a")], [z3.ToReal(z3.Int("a"))]), "sort Real"),
    (lambda: Ev([z3.IntVal(3)], [z3.IntVal(3)]), "not a z3 variable"),
])
def test_a_term_it_cannot_evaluate_is_refused_when_built(build: Any, what: str) -> None:
    with pytest.raises(EvalError, match=what):
        build()


def test_a_point_without_a_value_is_refused() -> None:
    a, b = z3.Ints("a b")
    ev = Ev([a, b], [z3.If(b == 0, 0, a / b), a % b])
    with pytest.raises(EvalError, match="no value at this point"):  # z3 leaves x div 0 unspecified
        ev(3, 0)
    with pytest.raises(EvalError, match="no value at this point"):
        ev(1.5, 2)
    with pytest.raises(EvalError, match="no value at this point"):
        ev(None, 2)
    with pytest.raises(EvalError, match="2 inputs"):
        ev(1)
    assert ev(7, 2) == (3, 1)
