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

import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from .symbolic_guards import guards
from .symbolic_values import (
    SymBool,
    SymInt,
    Term,
    Unsupported,
    current,
    exploring,
    is_sym,
    num_eq,
    simplified,
    term_of,
    untraced,
)


@dataclass
class Path:
    """One feasible path: the conditions chosen at each fork, and what the function returned (or raised)."""

    conds: list[Term]
    result: Any = None
    error: BaseException | None = None
    notes: list[str] = field(default_factory=list)


# ====================================================================== the explorer
def _solver(domain: Sequence[Term], timeout_ms: int) -> Any:
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*domain)
    return s


class Explorer:
    """Runs a function on symbolic inputs along every feasible path (depth first, by re-execution)."""

    def __init__(self, domain: Sequence[Term] = (), *, max_paths: int = 20000, max_decisions: int = 5000,
                 max_values: int = 64, timeout_ms: int = 20_000,
                 simplified: dict[int, tuple[Term, Term]] | None = None, hook: bool = True) -> None:
        """An explorer of functions on the ``domain`` (the inputs' constraints), within the limits given.

        ``simplified``: the cache of simplified terms to use (the run's, shared by its explorations: a
        :class:`~tarneeb_proofs.session.Session`'s), else one of its own. ``hook``: the guards' profile hook (off
        only to profile the explorer itself)."""
        self.domain = list(domain)
        self.max_paths = max_paths
        self.max_decisions = max_decisions
        self.max_values = max_values
        self.timeout_ms = timeout_ms
        self.hook = hook
        self._simplified: dict[int, tuple[Term, Term]] = {} if simplified is None else simplified
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
        # per prefix of choices and claim (by its id, the claim kept alive so the id stays its own): what proves gave
        self._proved: dict[tuple[tuple[int, ...], int], tuple[Term, bool]] = {}

    # ------------------------------------------------------------------ running
    def explore(self, fn: Callable[[], Any]) -> list[Path]:
        """Every feasible path of ``fn()`` (a closure over symbolic values) under the domain, depth first: each run
        replays a prefix of choices, and every decision first met on a run takes its first alternative and queues
        the others."""
        paths: list[Path] = []
        work: list[list[int]] = [[]]
        # one solver for every path: the domain asserted once, each path's conditions in a scope of their own
        s = self._solver = _solver(self.domain, self.timeout_ms)
        with guards(self.executed, self.hook) as watched:
            while work:
                if len(paths) >= self.max_paths:
                    raise Unsupported(f"more than {self.max_paths} paths")
                given = work.pop()
                self._trail = list(given)
                self._pos = 0
                self._conds = []
                self._fixed = []
                self._notes = []
                s.pop(s.num_scopes())
                s.push()
                try:
                    with exploring(self):
                        result: Any = watched(fn)
                    err: BaseException | None = None
                except Unsupported:
                    raise
                except Exception as e:  # the engine's own exception on this path: part of its behaviour
                    result, err = None, e
                for k in range(len(self._trail) - 1, len(given) - 1, -1):
                    prefix = tuple(self._trail[:k])
                    for i in range(len(self._alts[prefix]) - 1, 0, -1):
                        work.append([*prefix, i])
                paths.append(Path(list(self._conds), result, err, list(self._notes)))
        return paths

    # ------------------------------------------------------------------ decisions
    @untraced
    def simplified(self, t: Term) -> Term:
        """``z3.simplify(t)``, from the cache of simplified terms this explorer was given."""
        return simplified(t, self._simplified)

    def _simplify(self, t: Term) -> Term:
        if self._fixed:
            t = z3.substitute(t, *self._fixed)
        return simplified(t, self._simplified)

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

    @untraced
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

    @untraced
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

    @untraced
    def proves(self, claim: Term) -> bool:
        """``claim`` holds on every input of this path (used to justify a conversion, e.g. a number >= 0). A path
        is replayed from its first choice, so what was proved at the same prefix of choices is not proved again."""
        key = (tuple(self._trail[:self._pos]), claim.get_id())
        hit = self._proved.get(key)
        if hit is not None and hit[0].eq(claim):
            return hit[1]
        out = bool(self._check(z3.Not(claim)) == z3.unsat)
        self._proved[key] = (claim, out)
        return out

    def note(self, text: str) -> None:
        """Note something of this path the proof states rather than checks (a number turned into text)."""
        if text not in self._notes:
            self._notes.append(text)



__all__ = ["Explorer", "Path", "SymBool", "SymInt", "Term", "Unsupported", "current", "is_sym", "num_eq", "term_of"]
