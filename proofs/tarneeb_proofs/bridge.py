"""Family ``engine``: the engine's own code proved equal to the encodings, for every input of each domain.

Each rule function of :mod:`tarneeb.core.rules` and each step of :mod:`tarneeb.core.hand` is a
:class:`Target`: the function, and one or more :class:`Case` (the arguments: concrete values where the domain is a
handful of values, symbolic ones (:mod:`tarneeb_proofs.symbolic`) for the rest, with the constraints of the
domain). A case is run by the symbolic explorer: the engine's code, unchanged, along every feasible path; each
path ends with the engine's result as terms over the inputs, and one Z3 query asks whether any path has an input
where that result differs from the encoding's value (:attr:`Case.claim`). Unsat is a proof for every input of
the domain; sat is a counterexample: the input is read from the model, the engine is run on it concretely, and
the report names the function, the input, what the engine returns, what the encoding gives and the clause.

A construct the explorer cannot follow makes the function *refused* (:class:`~tarneeb_proofs.obligations.Refused`,
a failure of ``tarneeb prove``), never sampled instead. A case with no symbolic input is an enumerated point:
the same machinery, with no fork.

The engine is always reached through its module (``getattr(module, name)`` at run time), so a function patched
into the running process (:mod:`tarneeb_proofs.mutants`) is the one proved.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import z3

from tarneeb.core.model import Derived
from tarneeb.core.spec import Rules

from . import symbolic
from .encode import Encoding, Term, bv6, seat2
from .evaluate import py_value
from .obligations import Refused
from .session import Session
from .symbolic import Explorer, SymBool, SymInt, Unsupported, current, is_sym, num_eq
from .symbolic_values import untraced
from .witness import Witness, card_text

RULES = "tarneeb.core.rules"
HAND = "tarneeb.core.hand"


# ------------------------------------------------------------------ the tables of builders
@dataclass(frozen=True)
class Builder:
    """Builds the targets of some engine functions for one configuration (an Encoding): ``fns`` names them. Each
    stage module lists its builders in an explicit, ordered table (``bridge_play.BUILDERS``, ...), read by
    :mod:`tarneeb_proofs.engine_family`: nothing registers itself when a module is imported."""

    stage: str
    fns: tuple[str, ...]
    make: Callable[[Encoding], list[Target]]


@dataclass(frozen=True)
class Summariser:
    """Makes the summaries (proved callees) the targets of ``stages`` may use, for one configuration."""

    stages: tuple[str, ...]
    make: Callable[[Encoding], list[Summary]]


# ------------------------------------------------------------------ which rules a proof read
def _recording_class(base: type, log: dict[str, Any]) -> type:
    """A subclass of ``base`` (a Rules class) whose every read of a rule field is put in ``log`` with its value."""
    names = frozenset(Rules.value_fields())  # what says what the rules are (not the store of what is derived)

    def getattribute(self: Any, name: str) -> Any:
        v = object.__getattribute__(self, name)
        if name in names:
            log[name] = v
        return v

    return type(f"Recording{base.__name__}", (base,), {"__slots__": (), "__getattribute__": getattribute})


def recording(rules: Rules) -> tuple[Rules, dict[str, Any]]:
    """A copy of ``rules`` that logs every rule field read from it (by the engine and the encoding alike), with the
    value, in the dict returned with it: what a proof run on the copy read of the rules. The copy has a class of
    its own, made for this log, so a copy the engine makes of it (``dataclasses.replace``) logs there too."""
    log: dict[str, Any] = {}
    obj: Any = object.__new__(_recording_class(type(rules), log))
    for f in dataclasses.fields(rules):
        object.__setattr__(obj, f.name, getattr(rules, f.name))
    # an empty store: a table kept on the rules is filled again under the log, so the fields it reads are seen
    object.__setattr__(obj, "derived", Derived())
    return obj, log


def fingerprint(modules: Sequence[str] = ("tarneeb.core.rules", "tarneeb.core.hand", "tarneeb.core.cards")) -> tuple[Any, ...]:
    """The engine code as it is now: its functions and class methods (objects, so a patched one differs) and its
    module-level data (a table, a mask: a patched value differs)."""
    out: list[Any] = []
    for name in modules:
        mod = importlib.import_module(name)
        for k, v in sorted(vars(mod).items()):
            if callable(v) and getattr(v, "__module__", None) == name:
                out.append((k, v))
                if isinstance(v, type):
                    out += [(f"{k}.{a}", x) for a, x in sorted(vars(v).items()) if callable(x)]
            elif isinstance(v, _DATA) and not k.startswith("__"):
                out.append((k, _Held(v)))
    return tuple(out)


_DATA = (int, str, bytes, tuple, frozenset, float)  # module-level values a fingerprint compares (immutable ones)


class _Held:
    """A module-level value in a fingerprint, compared by identity (a patched value is another object; hashing a
    large table's contents on every proof would cost more than the proof) and kept alive so its id stays its own."""

    __slots__ = ("v",)

    def __init__(self, v: object) -> None:
        self.v = v

    def __hash__(self) -> int:
        return id(self.v)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Held) and other.v is self.v


# ------------------------------------------------------------------ results
@dataclass
class Mismatch:
    """An input where the engine's function and its encoding disagree: what each gives, and the clause."""

    fn: str
    inputs: str
    engine: str
    encoding: str
    clause: str
    module: str = RULES
    note: str = ""
    ran: tuple[str, ...] = ()  # the engine functions the concrete run on the input went through

    def witness(self, rules: Rules) -> Witness:
        """The counterexample as the report shows it (the clause cited as ``rules``' ruleset words it)."""
        w = Witness(title=f"the engine's {self.fn} disagrees with the encoding")
        w.add("engine function", f"{self.module}.{self.fn}")
        w.add("input", self.inputs)
        w.add("engine returns", self.engine)
        w.add("encoding gives", self.encoding)
        if self.ran:
            w.add("engine code run", ", ".join(self.ran))
        w.add("clause", rules.ruleset.cite(self.clause))
        if self.note:
            w.add("note", self.note)
        w.clauses = [self.clause]
        return w


def cite(rules: Rules, *ids: str) -> str:
    """The first of ``ids`` that the ruleset has (rulesets word some rules under different clause ids). The clause a
    counterexample would cite is not part of what is proved, so this read of the ruleset is not logged (a proof is
    reused for another ruleset with the same rule values: :class:`~tarneeb_proofs.session.Memo`)."""
    clauses = object.__getattribute__(rules, "ruleset").clauses
    for c in ids:
        if c in clauses:
            return c
    raise KeyError(f"{rules.id} has none of the clauses {ids}")


# ------------------------------------------------------------------ inputs
@dataclass
class Var:
    """One symbolic input: its name in the report, its Z3 variable, how a value of it is shown."""

    name: str
    term: Term
    show: Callable[[Any], str] = str

    def sym(self) -> Any:
        """The symbolic value of this input, for the explorer."""
        return SymBool(self.term) if z3.is_bool(self.term) else SymInt(self.term)

    def value(self, m: Any) -> Any:
        """The plain value of this input in the Z3 model ``m`` (a counterexample)."""
        v = m.eval(self.term, model_completion=True)
        return bool(z3.is_true(v)) if z3.is_bool(self.term) else int(v.as_long())


def ivar(name: str, show: Callable[[Any], str] = str) -> Var:
    """An integer input."""
    return Var(name, z3.Int(name.replace(" ", "_")), show)


def bvar(name: str, bits: int, show: Callable[[Any], str] = str) -> Var:
    """A bit-vector input of ``bits`` bits (a non-negative number below 2**bits)."""
    return Var(name, z3.BitVec(name.replace(" ", "_"), bits), show)


def boolvar(name: str) -> Var:
    """A truth-value input."""
    return Var(name, z3.Bool(name.replace(" ", "_")))


def between(t: Term, lo: int, hi: int) -> Term:
    """lo <= t <= hi (bit-vectors unsigned)."""
    if z3.is_bv(t):
        return z3.And(z3.UGE(t, lo), z3.ULE(t, hi)) if lo > 0 else z3.ULE(t, hi)
    return z3.And(t >= lo, t <= hi)


@dataclass
class Case:
    """One part of a function's domain.

    ``call(values)`` calls the engine (``fn`` looked up on its module at the time) with the values of ``vars`` in
    order (symbolic values while proving, plain ones when the engine is re-run on a counterexample);
    ``claim(result)`` is the Z3 Bool "this result equals the encoding's" (``result`` is what the engine returned,
    symbolic or not; ``error`` a raised exception, which the encoding never allows unless ``claim_error`` says);
    ``want(ev)`` the encoding's value in the engine's conventions, with ``ev(term)`` the value of a term at the
    counterexample, for the report; ``clause(result)`` the clause to cite.
    """

    label: str
    vars: list[Var]
    domain: list[Term]
    # (these take extra keyword defaults where a loop binds them: typed loosely)
    call: Callable[..., Any]  # (engine function, values) -> result
    claim: Callable[..., Term]  # result -> Bool
    want: Callable[..., Any]  # ev -> the encoding's value
    clause: str | Callable[..., str]
    claim_error: Callable[[BaseException], Term] | None = None
    # the claim as pairs (engine term, encoding term) that must be equal, for the proof by parts of sums
    # (:func:`sum_parts`) when Z3 cannot decide the claim whole (a sum of table look-ups against a sum of shifts)
    parts: Callable[..., list[tuple[Term, Term]]] | None = None


@dataclass
class Summary:
    """A function proved equal to its encoding on a domain, used by the proofs of its callers (compositional).

    While a caller is explored, ``module.fn`` is replaced by a stand-in: where ``applies(args)`` (the arguments lie
    in the domain of the callee's own proof, for the same rules) holds on every input of the current path, it
    returns ``value(args)``, the encoding's value in the engine's conventions (forking where the result has a
    shape, e.g. a winner or None); elsewhere it runs the engine's own function, explored like the rest. The
    callee's own :class:`Target` is in the same stage and configuration, so the caller's proof stands on a proved
    fact, not on an assumption; a bug in the callee is reported at the callee.
    """

    fn: str
    applies: Callable[..., Term | None]
    value: Callable[..., Any]
    module: str = RULES
    used: bool = False  # the stand-in answered at least once (for the report)
    # a fact about the encoding the callers' claims rely on, proved (once per process) before a proof that used
    # the stand-in may stand: (hypotheses, claim)
    lemma: Callable[[], tuple[list[Term], Term]] | None = None
    # ``value`` may be an application of an uninterpreted function ``uf`` (the caller is then proved for every
    # function in the callee's place); ``definition(args)`` is the encoding's term for it, put back to look for a
    # counterexample that holds for the callee itself
    uf: Any = None
    definition: Callable[..., Term] | None = None


@contextmanager
def summarised(summaries: Sequence[Summary], skip: str) -> Iterator[None]:
    """The stand-ins of ``summaries`` (all but the function ``skip`` being proved) patched into their modules."""
    undo = []
    for sm in summaries:
        if sm.fn == skip:
            continue
        mod = importlib.import_module(sm.module)
        real = getattr(mod, sm.fn)

        def stand_in(*args: Any, sm: Summary = sm, real: Any = real, **kw: Any) -> Any:
            if _stands_in(sm, args, kw):
                sm.used = True
                return sm.value(*args, **kw)
            return real(*args, **kw)

        undo.append((mod, sm.fn, real))
        setattr(mod, sm.fn, stand_in)
    try:
        yield
    finally:
        for mod, name, real in reversed(undo):
            setattr(mod, name, real)


def _definitions(t: Term, summaries: Sequence[Summary]) -> list[Term]:
    """``app == definition(app's arguments)`` for every application in ``t`` of a summary's uninterpreted function."""
    by = {sm.uf.name(): sm for sm in summaries}
    out, done, todo = [], set(), [t]
    while todo:
        x = todo.pop()
        if x.get_id() in done:
            continue
        done.add(x.get_id())
        if z3.is_app(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED and x.num_args() and x.decl().name() in by:
            sm = by[x.decl().name()]
            assert sm.definition is not None
            out.append(x == sm.definition(*x.children()))
        todo.extend(x.children())
    return out


@untraced
def _stands_in(sm: Summary, args: tuple[Any, ...], kw: dict[str, Any]) -> bool:
    """The summary ``sm`` answers for these arguments: they lie in its domain on every input of the path (the
    prover's and Z3's code only: a summary's domain is the encoding's, it runs none of the engine)."""
    cond = sm.applies(*args, **kw)
    return cond is not None and (not any(is_sym(a) for a in _flat(args)) and z3.is_true(z3.simplify(cond))
                                 or _explorer_proves(cond))


def _explorer_proves(cond: Term) -> bool:
    ex = current()
    return ex is not None and ex.proves(cond)


def _flat(xs: Any) -> list[Any]:
    out: list[Any] = []
    for x in xs:
        if isinstance(x, (list, tuple)):
            out += _flat(x)
        else:
            out.append(x)
    return out


@dataclass
class Target:
    """An engine function and the cases that cover its domain; :meth:`run` proves or refutes it."""

    fn: str
    cases: list[Case]
    module: str = RULES
    domain_text: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    summaries: list[Summary] = field(default_factory=list)  # callees proved in the same stage (set by the family)
    uses: tuple[str, ...] = ()  # the callees whose summaries its proof uses (where exploring them would explode)
    executed: dict[int, Any] = field(default_factory=dict)  # the engine code its explorations ran (for the cache)

    def engine(self) -> Callable[..., Any]:
        """The engine's function as its module holds it now (a mutant patched in is the one found)."""
        obj: Any = importlib.import_module(self.module)
        for part in self.fn.split("."):
            obj = getattr(obj, part)
        return obj  # type: ignore[no-any-return]

    def run(self, rules: Rules, session: Session) -> Mismatch | None:
        """Prove the function equal to its encoding on every case (None), or find the input where it is not (the
        mismatch); :class:`~tarneeb_proofs.obligations.Refused` where the method cannot follow the code. The
        run's ``session`` keeps what is decided once per run (the summaries' lemmas, the simplified terms)."""
        for sm in self.summaries:
            sm.used = False
        paths = forks = 0
        symbolic = any(c.vars for c in self.cases)
        for case in self.cases:
            f = self.engine()
            syms = [v.sym() for v in case.vars]
            ex = Explorer(case.domain, simplified=session.simplified)
            try:
                with summarised([sm for sm in self.summaries if sm.fn in self.uses], self.fn):
                    found = ex.explore(functools.partial(case.call, f, syms))
            except Unsupported as e:
                raise Refused(self._refusal(rules, case, str(e))) from None
            paths += len(found)
            forks += ex.forks
            self.executed.update(ex.executed)
            if case.parts is not None and all(
                    p.error is None and all(sum_parts(case.domain + p.conds, a, b) for a, b in case.parts(p.result))
                    for p in found):
                continue  # proved by parts (sum_parts); otherwise the whole claim, for a counterexample
            bad = []
            for p in found:
                if p.error is not None:
                    ok = case.claim_error(p.error) if case.claim_error is not None else z3.BoolVal(False)
                else:
                    try:
                        ok = case.claim(p.result)
                    except Unsupported as e:
                        raise Refused(self._refusal(rules, case, str(e))) from None
                bad.append(z3.And(*p.conds, z3.Not(ok)))
            s = z3.Solver()
            s.set("timeout", 60_000)
            s.add(*case.domain)
            s.add(z3.Or(bad) if bad else z3.BoolVal(False))
            res = s.check()
            if res == z3.unsat:
                continue
            ufs = [sm for sm in self.summaries if sm.used and sm.uf is not None and sm.definition is not None]
            if ufs:  # a counterexample for some function in the callee's place: is there one for the callee itself?
                defs = _definitions(z3.And(bad), ufs)
                s.add(*defs)
                res = s.check()
                if res == z3.unsat:
                    continue
            if res != z3.sat:
                raise Refused(self._refusal(rules, case, f"Z3 could not decide the claim ({s.reason_unknown()})"))
            return self._mismatch(rules, case, s.model())
        for sm in self.summaries:
            if sm.used and sm.lemma is not None and not session.lemma_holds(*sm.lemma()):
                raise Refused(self._refusal(rules, self.cases[0], f"the summary of {sm.fn} is not proved equal to its "
                                                              "encoding (a fault of the bridge)"))
        self.facts = {"function": f"{self.module}.{self.fn}", "domain": self.domain_text,
                      "method": "symbolic" if symbolic else "enumerated", "cases": len(self.cases),
                      "paths": paths, "forks": forks,
                      "uses": sorted(sm.fn for sm in self.summaries if sm.fn != self.fn and sm.used)}
        return None

    def _mismatch(self, rules: Rules, case: Case, m: Any) -> Mismatch:
        vals = [v.value(m) for v in case.vars]
        shown = ", ".join(f"{v.name} {v.show(x)}" for v, x in zip(case.vars, vals, strict=True))
        inputs = ", ".join(x for x in (case.label, shown) if x)
        ran: dict[str, None] = {}  # the tarneeb.core functions called on this input, in call order

        def profile(frame: Any, event: str, _arg: Any) -> None:
            mod = frame.f_globals.get("__name__", "")
            if event == "call" and mod.startswith("tarneeb.core."):
                ran.setdefault(f"{mod}.{frame.f_code.co_qualname}")

        old = sys.getprofile()
        sys.setprofile(profile)
        try:
            got: Any = case.call(self.engine(), vals)
            got_text = repr(got)
            err = None
        except Exception as e:  # noqa: BLE001 - the engine's exception is its answer here
            got, got_text, err = None, f"raises {type(e).__name__}: {e}", e
        finally:
            sys.setprofile(old)
        want = case.want(lambda t: py_value(m.eval(t, model_completion=True)))
        clause = case.clause if isinstance(case.clause, str) else case.clause(got)
        note = ""
        if err is None and _same(got, want):
            note = ("the engine run on this input agrees with the encoding, but the symbolic run did not: a fault of "
                    "the symbolic executor (tarneeb_proofs.symbolic), reported as a failure")
        return Mismatch(self.fn, inputs, got_text, repr(want), clause, self.module, note, tuple(ran))

    def _refusal(self, rules: Rules, case: Case, why: str) -> Witness:
        w = Witness(title=f"the engine's {self.fn} cannot be proved by symbolic execution: refused")
        w.add("engine function", f"{self.module}.{self.fn}")
        w.add("case", case.label or "(all inputs)")
        w.add("construct", why)
        return w


def _summands(t: Term) -> list[Term] | None:
    """Terms whose integer values add up to the integer value of the bit-vector ``t``, when ``t`` is built from
    zero-extensions and additions that cannot overflow (each sum's width exceeds the sum of its summands' largest
    values); None when it is not such a term."""
    if z3.is_app_of(t, z3.Z3_OP_CONCAT) and z3.is_bv_value(t.arg(0)) and t.arg(0).as_long() == 0 and t.num_args() == 2:
        return _summands(t.arg(1))
    if z3.is_app_of(t, z3.Z3_OP_ZERO_EXT):
        return _summands(t.arg(0))
    if z3.is_app_of(t, z3.Z3_OP_BADD):
        out: list[Term] = []
        for ch in t.children():
            sub = _summands(ch)
            if sub is None:
                return None
            out += sub
        if sum(2 ** x.size() - 1 for x in out) >= 2 ** t.size():
            return None
        return out
    return [t]


def _free(t: Term, memo: dict[int, tuple[Term, frozenset[str]]] | None = None) -> frozenset[str]:
    """The names of the variables ``t`` reads (``memo``: what is known of subterms, by id, kept alive in it)."""
    if memo is not None:
        hit = memo.get(t.get_id())
        if hit is not None:
            return hit[1]
    if z3.is_const(t):
        out = frozenset((str(t),)) if t.decl().kind() == z3.Z3_OP_UNINTERPRETED else frozenset()
    elif z3.is_app(t):
        out = frozenset().union(*(_free(x, memo) for x in t.children())) if memo is not None else \
            _free_walk(t)
    else:
        out = _free_walk(t)
    if memo is not None:
        memo[t.get_id()] = (t, out)
    return out


def _free_walk(t: Term) -> frozenset[str]:
    seen: set[str] = set()
    todo, done = [t], set()
    while todo:
        x = todo.pop()
        if x.get_id() in done:
            continue
        done.add(x.get_id())
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen.add(str(x))
        else:
            todo.extend(x.children())
    return frozenset(seen)


def sum_parts(domain: Sequence[Term], a: Term, b: Term) -> bool:
    """A proof of ``a = b`` (bit-vectors) by parts: both are sums (:func:`_summands`); grouped by the variables
    each summand reads, every group's sums are equal under ``domain`` (a small query per group). Sound: equal
    parts give equal sums. False when the terms do not split so or a group is not proved (the claim then stays
    undecided, never proved)."""
    fixed = []  # a variable the path fixes (``x == 3`` among its conditions) is that constant in both terms
    for d in domain:
        if z3.is_eq(d) and z3.is_const(d.arg(0)) and d.arg(0).decl().kind() == z3.Z3_OP_UNINTERPRETED and \
                (z3.is_int_value(d.arg(1)) or z3.is_bv_value(d.arg(1))):
            fixed.append((d.arg(0), d.arg(1)))
    if fixed:
        a, b = z3.substitute(a, *fixed), z3.substitute(b, *fixed)
    sa, sb = _summands(z3.simplify(a)), _summands(z3.simplify(b))
    if sa is None or sb is None:
        return False
    groups: dict[frozenset[str], tuple[list[Term], list[Term]]] = {}
    memo: dict[int, tuple[Term, frozenset[str]]] = {}
    domain_free = [(d, _free(d, memo)) for d in domain]  # what each constraint reads, once for every group
    for side, terms in ((0, sa), (1, sb)):
        for t in terms:
            if z3.is_bv_value(t) and t.as_long() == 0:
                continue
            groups.setdefault(_free(t, memo), ([], []))[side].append(t)
    for names, (xs, ys) in groups.items():
        w = max([x.size() for x in xs + ys]) + 8
        lhs = z3.Sum([z3.ZeroExt(w - x.size(), x) for x in xs]) if xs else z3.BitVecVal(0, w)
        rhs = z3.Sum([z3.ZeroExt(w - y.size(), y) for y in ys]) if ys else z3.BitVecVal(0, w)
        dom = [d for d, free in domain_free if free <= names]
        s = z3.Solver()
        s.set("timeout", 10_000)
        s.add(*dom)
        s.add(lhs != rhs)
        if s.check() != z3.unsat:
            return False
    return True


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# ------------------------------------------------------------------ helpers for claims
def eq(x: Any, t: Term) -> Term:
    """Engine value ``x`` (int, bool, symbolic) equals encoding term ``t``."""
    return num_eq(x, t)


def same(xs: Sequence[Any], ts: Sequence[Term]) -> Term:
    """Engine values ``xs`` equal encoding terms ``ts``, one by one (false when the lengths differ)."""
    if len(xs) != len(ts):
        return z3.BoolVal(False)
    return z3.And([eq(x, t) for x, t in zip(xs, ts, strict=True)])


def is_none(x: Any) -> Term:
    """Whether the engine value is None, as a Z3 Bool."""
    return z3.BoolVal(x is None)


def maybe_int(x: Any) -> bool:
    """An engine value that is a number (plain or symbolic), not None nor a tuple."""
    return isinstance(x, (int, SymInt, SymBool))


def opt(x: Any, t: Term, none_when: Term) -> Term:
    """Engine value ``x`` is None exactly when ``none_when``, and otherwise equals ``t``."""
    if x is None:
        return none_when
    if not maybe_int(x):
        return z3.BoolVal(False)
    return z3.And(z3.Not(none_when), eq(x, t))


def seat_after(enc: Encoding, seat: Term, k: int) -> Term:
    """The seat ``k`` steps after ``seat`` in play.direction, by the encoding's next_seat (integer seats)."""
    out = seat
    for _ in range(k):
        out = enc.next_seat(out)
    return out


def seats_after(enc: Encoding, dealer: int) -> list[int]:
    """The four seats after a concrete ``dealer`` in play.direction (the dealer last), as plain numbers."""
    return [int(z3.simplify(seat_after(enc, z3.IntVal(dealer), k)).as_long()) for k in range(1, 5)]


def seat_term(seat: Term) -> Term:
    """An integer seat term (a 2-bit seat widened)."""
    return z3.BV2Int(seat) if z3.is_bv(seat) else seat


# ------------------------------------------------------------------ engine values as terms (for summaries)
def in_range(x: Any, lo: int, hi: int) -> Term:
    """lo <= x <= hi for an engine value (plain or symbolic)."""
    t = term_of(x)
    if z3.is_bool(t):
        t = z3.If(t, 1, 0)
    if z3.is_bv(t):
        t = z3.BV2Int(t)
    return z3.And(t >= lo, t <= hi)


def as_bv(x: Any, w: int) -> Term:
    """An engine value as a ``w``-bit vector (the caller's domain condition must keep it in 0 .. 2**w - 1)."""
    t = term_of(x)
    if z3.is_bool(t):
        return z3.If(t, z3.BitVecVal(1, w), z3.BitVecVal(0, w))
    if z3.is_bv(t):
        return z3.ZeroExt(w - t.size(), t) if t.size() < w else z3.Extract(w - 1, 0, t) if t.size() > w else t
    return z3.Int2BV(t, w)


def as_int(x: Any) -> Term:
    """An engine value as a Z3 integer (a truth value as 0 or 1, a bit-vector unsigned)."""
    t = term_of(x)
    if z3.is_bool(t):
        return z3.If(t, z3.IntVal(1), z3.IntVal(0))
    return z3.BV2Int(t) if z3.is_bv(t) else t


def term_of(x: Any) -> Term:
    """:func:`symbolic.term_of`; a value it does not model is a refusal here (the summaries meet engine values)."""
    try:
        return symbolic.term_of(x)
    except TypeError:
        raise Unsupported(f"a value the summaries do not model: {x!r}") from None


def value(t: Term) -> Any:
    """A term as an engine value: a plain int or bool when it simplifies to one, else a symbolic one."""
    t = z3.simplify(t)
    if z3.is_true(t):
        return True
    if z3.is_false(t):
        return False
    if z3.is_int_value(t) or z3.is_bv_value(t):
        return int(t.as_long())
    return SymBool(t) if z3.is_bool(t) else SymInt(t)


def card_show(c: Any) -> str:
    """A card number as text (its rank and suit when it is a card, else the number)."""
    return card_text(int(c)) if 0 <= int(c) < 52 else str(c)


__all__ = ["Case", "Mismatch", "Target", "Var", "between", "boolvar", "bv6", "bvar", "cite", "eq", "ivar", "opt",
           "same", "seat2", "seat_after", "seat_term"]
