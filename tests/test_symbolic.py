"""The symbolic executor itself (``tarneeb_proofs.symbolic``), checked against Python on every point of small domains.

Every proof of the engine family trusts the executor to follow Python's semantics. Here small functions that use
the constructs the engine uses (integer and bit arithmetic, floor division and modulo of negative numbers,
comparisons, ``and`` / ``or`` / ``not``, loops, early returns, raising, indexing a module table, dict and set keys,
``sum`` / ``max`` / ``min`` / ``sorted`` / ``bit_count``, ``bytes()``) are explored on symbolic inputs, and for
every point of the domain: exactly one path's conditions hold there (the paths split the domain), and that path's
result, evaluated at the point, is what CPython computes (or the same exception). A slip in one operation of the
executor (``//`` rounding toward zero, a shift the wrong way, a fork that drops an outcome) fails here at the
point where it differs. The refusals are checked too: a construct the executor cannot follow is refused, never
run on a sample.
"""

from __future__ import annotations

import functools
import itertools
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

z3 = pytest.importorskip("z3")

from tarneeb_proofs.symbolic import Explorer, SymInt, Unsupported, term_of  # noqa: E402

# the probes live in a module of the engine package's name: the executor follows only engine code
PROBES = '''
TABLE = (5, 3, 8, 1, 9, 2, 7, 4)
KEYS = {0: "a", 3: "b", 7: "c"}

def arith(x, y):
    return x * 3 - y + (x + y) * (x - y) - 7

def floor_div(x, y):
    return (x // 4, x % 4, x // -3, x % -3, -x // 5)

def bits(x, y):
    if x < 0 or y < 0:  # (a bit operation on a number that may be negative is refused, see below)
        return 0
    return ((y & 0b1010) | (x & 3), y ^ 5, y << 2, y >> 1, (y & 15).bit_count())

def compare(x, y):
    if x < y and not x == 3:
        return 1
    if x >= y or y == -2:
        return 2 if x != y else 3
    return 4

def chained(x, y):
    return -3 <= x < y <= 5

def loop(x, y):
    n, total = 0, 0
    while total < y and n < 8:
        total += x if x > 0 else 1
        n += 1
    return n, total

def early(x, y):
    for i in range(4):
        if x == i * 2:
            return i
    return -1

def raising(x, y):
    if y == 7:
        raise ValueError("seven")
    return x + y

def table(x, y):
    return TABLE[y % 8] + TABLE[(x + 8) % 8]

def dict_key(x, y):
    return KEYS.get(y % 8, "none"), y % 8 in {1, 3, 5}

def builtins_(x, y):
    xs = [x, y, 2, -1]
    return sum(xs), max(xs), min(x, y), sorted([y, x, 0])[1], abs(x)

def truthy(x, y):
    a = x and y
    b = x or y
    return (1 if a else 0, b, bool(x) + bool(y), int(x > y) * 4)

def bytes_of(x, y):
    try:
        return bytes([y, 1, 2])[0]
    except ValueError:
        return -1

def range_bound(x, y):
    return [i * i for i in range(y % 5)]

def minus(x, y):
    lone = x & (x - 1) == 0 if x > 0 else None  # a single bit set (the engine's "one card of the suit")
    return x - y, y - 3, 11 - x, lone, (y & (y - 1)) if y > 0 else -1
'''

DOMAIN_X = range(-8, 9)
DOMAIN_Y = range(-3, 13)


@pytest.fixture(scope="module")
def probes() -> Iterator[types.ModuleType]:
    mod = types.ModuleType("tarneeb._symbolic_probes")
    exec(compile(PROBES, "<tarneeb._symbolic_probes>", "exec"), mod.__dict__)  # noqa: S102 - the probes above
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


NAMES = ["arith", "floor_div", "bits", "compare", "chained", "loop", "early", "raising", "table", "dict_key",
         "builtins_", "truthy", "bytes_of", "range_bound", "minus"]


class _At:
    """The inputs at one point, as a model: a term's value there is the term with the point substituted, simplified
    (what a solver's model of ``x == a, y == b`` gives, without a solver per point)."""

    def __init__(self, point: list[tuple[Any, Any]]) -> None:
        self.point = point

    def eval(self, t: Any, model_completion: bool = True) -> Any:
        value = z3.simplify(z3.substitute(t, *self.point))
        assert z3.is_true(value) or z3.is_false(value) or z3.is_int_value(value) or z3.is_bv_value(value), value
        return value


def _value(v: Any, m: Any) -> Any:
    """The engine value ``v`` (ints, bools, symbolic values, tuples and lists of them) at the model ``m``."""
    if isinstance(v, (tuple, list)):
        return type(v)(_value(x, m) for x in v)
    if isinstance(v, (int, str)) or v is None:
        return v
    t = m.eval(term_of(v), model_completion=True)
    if z3.is_bool(t):
        return z3.is_true(t)
    return t.as_long()  # (a bit-vector is an unsigned number: the executor widens before any signed use)


@pytest.mark.parametrize("name", NAMES)
def test_every_point_follows_one_path_that_computes_what_python_does(name: str, probes: types.ModuleType) -> None:
    fn = getattr(probes, name)
    x, y = z3.Int("x"), z3.Int("y")
    domain = [x >= DOMAIN_X.start, x < DOMAIN_X.stop, y >= DOMAIN_Y.start, y < DOMAIN_Y.stop]
    paths = Explorer(domain).explore(lambda: fn(SymInt(x), SymInt(y)))
    assert paths
    for a, b in itertools.product(DOMAIN_X, DOMAIN_Y):
        point = [(x, z3.IntVal(a)), (y, z3.IntVal(b))]
        here = [p for p in paths if all(z3.is_true(z3.simplify(z3.substitute(c, *point))) for c in p.conds)]
        assert len(here) == 1, f"{name}({a}, {b}): {len(here)} paths hold"
        p = here[0]
        try:
            want: Any = fn(a, b)
        except Exception as e:  # noqa: BLE001 - the exception is the answer to compare
            assert p.error is not None and type(p.error) is type(e), f"{name}({a}, {b}): {p.error!r} vs {e!r}"
            continue
        assert p.error is None, f"{name}({a}, {b}) raised {p.error!r} symbolically, returns {want!r}"
        assert _value(p.result, _At(point)) == want, f"{name}({a}, {b})"


def test_bit_vector_inputs_follow_python_too(probes: types.ModuleType) -> None:
    """A 52-bit hand is a bit-vector: the same probes on 8-bit unsigned values."""
    x, y = z3.BitVec("x", 8), z3.BitVec("y", 8)
    domain = [z3.ULT(x, 16), z3.ULT(y, 12)]
    for name in ["bits", "table", "compare", "floor_div", "minus"]:
        fn = getattr(probes, name)
        paths = Explorer(domain).explore(functools.partial(lambda f: f(SymInt(x), SymInt(y)), fn))
        for a, b in itertools.product(range(16), range(12)):
            point = [(x, z3.BitVecVal(a, 8)), (y, z3.BitVecVal(b, 8))]
            here = [p for p in paths if all(z3.is_true(z3.simplify(z3.substitute(c, *point))) for c in p.conds)]
            assert len(here) == 1, f"{name}({a}, {b})"
            assert _value(here[0].result, _At(point)) == fn(a, b), f"{name}({a}, {b}) on bit-vectors"


def test_a_difference_the_path_proves_non_negative_stays_a_bit_vector(probes: types.ModuleType) -> None:
    """``x & (x - 1)`` on a 52-bit hand stays in bit-vectors (a mix of Int and bit-vector terms there made a fork of
    legal_play_mask undecidable within Z3's timeout in some solver states: a refusal where a counterexample was)."""
    x = z3.BitVec("x", 52)
    seen: list[Any] = []

    def run() -> None:
        v = SymInt(x)
        if v > 0:
            seen.append(v - 1)
            seen.append(v & (v - 1))
        seen.append(v - 5)  # not proved >= 5 on every path: an Int

    Explorer([]).explore(run)
    assert z3.is_bv(term_of(seen[0])) and z3.is_bv(term_of(seen[1]))
    assert not z3.is_bv(term_of(seen[-1]))


REFUSED = '''
import colorsys

def library(x):
    return colorsys.rgb_to_yiq(x, 0, 0)  # a pure-Python function of the standard library

def identity(x):
    return id(x)

def negative_bits(x):
    return x & 3

def klass(x):
    return x.__class__

def divide_by(x):
    return 12 // x
'''


@pytest.mark.parametrize("name,why", [("library", "passed to colorsys"), ("identity", "id()"), ("klass", "__class__"),
                                      ("divide_by", "division"),
                                      ("negative_bits", "negative")])
def test_what_it_cannot_follow_is_refused(name: str, why: str) -> None:
    mod = types.ModuleType("tarneeb._symbolic_refused")
    exec(compile(REFUSED, "<tarneeb._symbolic_refused>", "exec"), mod.__dict__)  # noqa: S102 - the probes above
    sys.modules[mod.__name__] = mod
    try:
        x = z3.Int("x")
        with pytest.raises(Unsupported, match=why.replace("(", r"\(").replace(")", r"\)")):
            Explorer([x >= -5, x <= 5]).explore(lambda: getattr(mod, name)(SymInt(x)))
    finally:
        del sys.modules[mod.__name__]
