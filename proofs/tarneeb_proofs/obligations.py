"""Obligations and checks: what a proof is, and how one is run.

A :class:`Check` is a list of :class:`Obligation` (hypotheses, claim). A check
is *proved* when, for every obligation, the hypotheses are satisfiable (the
proof is not vacuous), so is each guard of a guarded conjunct with them
(:func:`guards`), and hypotheses + not(claim) is unsat. It ends with a
*counterexample* at the first obligation whose negation is satisfiable; the
model is printed as a game situation. A mutant check runs the same
obligations on an :class:`~tarneeb_proofs.encode.Encoding` with one rule
deliberately broken, and must end with a counterexample. An obligation may
instead be discharged by running code (:attr:`Obligation.run`: the engine family).

This module is the bottom of the proof layers above :mod:`tarneeb_proofs.encode`: the families import it,
:mod:`tarneeb_proofs.registry` assembles them.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import itertools
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Container, Iterator, Sequence
from concurrent.futures import InvalidStateError, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import z3

from tarneeb.core.ambiguity import rules_under, selectable_readings, taken_for, with_readings
from tarneeb.core.spec import OptionValue, Rules, get_ruleset, load_rules
from tarneeb.errors import TarneebError

from . import cache
from .encode import Encoding, Term
from .evaluate import compiling
from .session import Session
from .witness import Witness

SOURCE_MUTANT_FAMILIES = ("engine", "transition")  # families whose mutants edit the code, not the encoding


class Refused(Exception):
    """Raised by an obligation's ``run``: the method cannot handle the code it was to prove (the witness says what
    and where). The check's result is ``refused``: a failure, never a pass and never a fallback to sampling."""

    def __init__(self, witness: Witness) -> None:
        super().__init__(witness.title)
        self.witness = witness


@dataclass
class Obligation:
    """One fact a check proves: hypotheses and a claim (or code run, :attr:`run`), with how a counterexample is
    shown."""

    name: str
    hyp: list[Term]
    claim: Term
    witness: Callable[[Any], Witness] = field(default=lambda m: Witness())
    # truthy: proved once per process and reused by a later obligation with the same formula key
    # (:func:`formula_key`, the sha256 of the exact SMT-LIB text); a string is only a label
    share: bool | str = False
    # whose guarded conjuncts (``Implies(g, c)``) must have a satisfiable guard: "claim+hyp" (default),
    # "claim" when a hypothesis is an invariant or lemma instance whose guards speak of other states (k = 13
    # while k < 13; removing a card from the played set), "off" for an invariant claimed at one state (the deal)
    guards: str = "claim+hyp"
    # an obligation discharged by running code (the engine family), given the run's session: returns a
    # counterexample or None, may raise Refused (what it did beside its verdict goes through Session.report)
    run: Callable[[Session], Witness | None] | None = None


@dataclass(frozen=True)
class Check:
    """One check of ``tarneeb prove``: an invariant family's obligations for one ruleset, option variant and
    reading, with or without a mutant (a frozen description, sent to worker processes: its rules are loaded when it
    runs)."""

    invariant: str
    ruleset: str
    options: tuple[tuple[str, OptionValue], ...]
    mutant: str | None
    clauses: tuple[str, ...]
    build: Callable[[Encoding], list[Obligation]]
    stage: str = ""  # a sub-part of a family (config soundness stages)
    # readings of spec/ambiguities.toml selected over the ruleset's own (tarneeb.core.ambiguity.with_readings)
    readings: tuple[tuple[str, str], ...] = ()

    @property
    def variant(self) -> str:
        """The options and readings of the check as text ("default" when none)."""
        opts = ",".join(f"{k}={_fmt(v)}" for k, v in self.options) or "default"
        return opts + "".join(f";reading {a}={r}" for a, r in self.readings)

    @property
    def id(self) -> str:
        """The check's id: family, stage, ruleset, variant and mutant."""
        base = f"{self.invariant}{'.' + self.stage if self.stage else ''}:{self.ruleset}:{self.variant}"
        return base + (f":mutant={self.mutant}" if self.mutant else "")

    @property
    def expected(self) -> str:
        """What the check must end with: a counterexample for a mutant, else a proof."""
        return "counterexample" if self.mutant else "proved"

    def rules(self) -> Rules:
        """The rules the check runs under (its ruleset at its options, under its readings)."""
        if not self.readings:
            return load_rules(self.ruleset, dict(self.options))
        return load_rules(with_readings(get_ruleset(self.ruleset), dict(self.readings)), dict(self.options))


@dataclass
class Result:
    """What became of one check: its status, the time it took, and the failing obligation with its witness."""

    check: Check
    status: str  # proved | counterexample | vacuous | unknown | refused
    runtime: float
    obligation: str = ""
    witness: Witness | None = None
    detail: str = ""
    shared: int = 0  # obligations already proved by an earlier check in this process (same share key)
    # what the check's obligations reported beside their verdict (:func:`report`): plain data, so it comes back from
    # a worker process (``--jobs``); e.g. the engine functions proved under "engine-functions"
    data: dict[str, list[Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the check ended as expected."""
        return self.status == self.check.expected


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def formula_key(hyp: Sequence[Term], claim: Term,
                keys: dict[tuple[tuple[int, ...], int], tuple[str, list[Term]]] | None = None, keep: bool = True) -> str:
    """The sha256 of the SMT-LIB text (declarations, hypotheses, claim) of an obligation.

    Two obligations get the same key only when they state exactly the same
    fact. z3 hash-conses its terms, so the text is printed once per distinct
    formula when ``keys`` is given (a session's :attr:`~tarneeb_proofs.session.Session.formula_keys`: the key
    memoised on the term ids, whose terms are kept alive there; with ``keep`` false it is looked up, not added).
    """
    ids = (tuple(h.get_id() for h in hyp), claim.get_id())
    hit = keys.get(ids) if keys is not None else None
    if hit is None:
        hs, cs = z3.Solver(), z3.Solver()
        hs.add(*hyp)
        cs.add(claim)
        text = hs.sexpr() + "\n; claim\n" + cs.sexpr()
        hit = (hashlib.sha256(text.encode()).hexdigest(), [*hyp, claim])
        if keys is not None and keep:
            keys[ids] = hit
    return hit[0]


def guards(hyp: Sequence[Term], claim: Term, where: str = "claim+hyp") -> list[tuple[str, Term]]:
    """The guards of the guarded conjuncts: ``g`` of every ``Implies(g, c)`` in a (nested) conjunction.

    ``where``: "claim" (the claim's), "claim+hyp" (the hypotheses' too), "off" (none).
    """
    out: list[tuple[str, Term]] = []

    def walk(t: Term, where: str, n: list[int]) -> None:
        if z3.is_and(t):
            for ch in t.children():
                walk(ch, where, n)
            return
        n[0] += 1
        if z3.is_implies(t):
            out.append((f"{where} conjunct {n[0]}", t.arg(0)))

    if where != "off":
        walk(claim, "claim", [0])
    if where == "claim+hyp":
        for i, h in enumerate(hyp):
            walk(h, f"hypothesis {i + 1}", [0])
    return out


def _guard_text(g: Term) -> str:
    text = " ".join(g.sexpr().split())
    return text if len(text) <= 160 else text[:157] + "..."


def solve(s: Any) -> Any:
    """``s.check()``; a query cancelled anyway (answer unknown, "canceled") is re-raised as KeyboardInterrupt, so an
    interrupted run never reports a false ``unknown``. (Z3's own Ctrl-C handling is off, see ``__init__``.)"""
    r = s.check()
    if r == z3.unknown and "cancel" in str(s.reason_unknown()):
        raise KeyboardInterrupt
    return r


def run_check(check: Check, session: Session | None = None, timeout_ms: int = 60_000) -> Result:
    """:func:`_run_check` in the run's ``session`` (a new one when none is given: nothing reused from an earlier
    check), with what its obligations reported (:meth:`Session.report`) in the result's ``data``."""
    session = Session() if session is None else session
    with session.running() as reports:
        res = _run_check(check, session, timeout_ms)
    res.data = {k: list(v) for k, v in reports.items()}
    return res


# The longest an obligation that runs engine code may take, in CPU seconds of this process (the longest one
# cold, engine.play's symbolic proofs, takes under a minute): past it the engine is taken as caught in a loop
# that never ends, a counterexample (a bug such as `k += 0` in a search loop made prove hang instead).
ENGINE_CPU_S = 300.0


class EngineHang(BaseException):
    """An engine run outlasted :data:`ENGINE_CPU_S` (a BaseException: code under test that catches Exception
    cannot swallow it)."""


@contextlib.contextmanager
def engine_cpu_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`EngineHang` in the block after ``seconds`` of the process's CPU time (SIGVTALRM; in the main
    thread only, elsewhere no limit)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_limit(signum: int, frame: object) -> None:
        raise EngineHang

    old = signal.signal(signal.SIGVTALRM, on_limit)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)


def raised_witness(name: str, e: Exception, clauses: Sequence[str]) -> Witness:
    """An exception that escaped the engine or a tool while an obligation ran: a failure of the check (never an
    error of the command), naming the innermost function of the package that raised it."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f"{os.sep}tarneeb{os.sep}" in f.filename]
    w = Witness(f"the code under check raised {type(e).__name__} where it should have answered")
    w.add("obligation", name)
    if frames:
        f = frames[-1]
        mod = f.filename.rsplit(f"{os.sep}tarneeb{os.sep}", 1)[1].removesuffix(".py").replace(os.sep, ".")
        w.add("function", f"tarneeb.{mod}.{f.name} (line {f.lineno})")
    w.add("input", str(e)[:500])
    rule = getattr(e, "rule", None)
    w.clauses = [rule] if isinstance(rule, str) and rule else list(clauses)
    return w


def hang_witness(name: str, seconds: float) -> Witness:
    """The counterexample of an engine run that outlasted its CPU limit."""
    w = Witness(f"the engine did not finish within {seconds:.0f} s of CPU: a loop that never ends?")
    w.add("obligation", name)
    return w


class _Verdict(NamedTuple):
    """What became of one obligation: ``proved`` (or taken as proved from the cache), ``shared`` (proved by an
    earlier check of the run), else the check's failing status with its witness or detail."""

    status: str
    witness: Witness | None = None
    detail: str = ""


def _run_check(check: Check, session: Session | None = None, timeout_ms: int = 60_000) -> Result:
    """Run every obligation of a check in the run's ``session``; a solver timeout is a visible ``unknown``, never a
    pass.

    Per obligation: the hypotheses are satisfiable, every guard of a guarded
    conjunct (``Implies(g, c)``, in the claim or the hypotheses) is
    satisfiable with them (else ``vacuous``, naming the conjunct; see
    :attr:`Obligation.guards`), and
    hypotheses + not(claim) is unsat.
    """
    session = Session() if session is None else session
    t0 = time.perf_counter()
    # the engine family's mutants are bugs in the code (tarneeb_proofs.mutants): their
    # encoding is the true one
    enc = Encoding(check.rules(), None if check.invariant in SOURCE_MUTANT_FAMILIES else check.mutant)
    shared = 0
    built: Iterator[Obligation] | None = None
    while True:
        try:
            if built is None:
                built = iter(check.build(enc))
            ob = next(built, None)
        except Refused:
            raise
        except Exception as e:  # noqa: BLE001 - code run to build the check (records of the engine's matches) raised
            return Result(check, "counterexample", time.perf_counter() - t0, "building the check",
                          raised_witness("building the check", e, check.clauses), shared=shared)
        if ob is None:
            break
        v = _run_code(check, ob, session) if ob.run is not None else _prove(check, ob, session, timeout_ms)
        if v.status == "shared":
            shared += 1
        elif v.status != "proved":
            return Result(check, v.status, time.perf_counter() - t0, ob.name, v.witness, v.detail, shared=shared)
    return Result(check, "proved", time.perf_counter() - t0, shared=shared)


def _run_code(check: Check, ob: Obligation, session: Session) -> _Verdict:
    """An obligation discharged by running code: a hang, a raised exception or the counterexample it returns fails
    the check; a refusal makes it ``refused``."""
    assert ob.run is not None
    try:
        with engine_cpu_limit(ENGINE_CPU_S):
            w = ob.run(session)
    except EngineHang:
        w = hang_witness(ob.name, ENGINE_CPU_S)
    except Refused as e:
        return _Verdict("refused", e.witness)
    except Exception as e:  # noqa: BLE001 - the code under check raised where it should answer
        w = raised_witness(ob.name, e, check.clauses)
    return _Verdict("proved") if w is None else _Verdict("counterexample", w)


def _prove(check: Check, ob: Obligation, session: Session, timeout_ms: int) -> _Verdict:
    """An obligation of formulas: taken from this run (a shared one proved earlier) or the cache, else proved."""
    key = formula_key(ob.hyp, ob.claim, session.formula_keys) if ob.share else ""
    if key and key in session.shared_proved:
        return _Verdict("shared")
    # across runs: the same formula (exact SMT-LIB text, vacuity mode) proved by the same prover and Z3
    # (an obligation proved once per run is not kept in the session's keys: its term ids are not asked for again)
    stored = (f"{key or formula_key(ob.hyp, ob.claim, session.formula_keys, keep=False)}|{ob.guards}"
              if check.mutant is None and cache.enabled() else "")
    if stored and session.cache.formula_proved(stored):
        if key:
            session.shared_proved.add(key)
        return _Verdict("proved")
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*ob.hyp)
    r = solve(s)
    if r != z3.sat:
        return _Verdict("vacuous" if r == z3.unsat else "unknown", detail=f"hypotheses are {r}")
    models = [s.model()]
    for where, g in guards(ob.hyp, ob.claim, ob.guards):
        if any(z3.is_true(md.eval(g, model_completion=True)) for md in models):
            continue
        r = s.check(g)
        if r == z3.sat:
            models.append(s.model())
            continue
        return _Verdict("vacuous" if r == z3.unsat else "unknown",
                        detail=f"the guard of {where} is {r} with the hypotheses: {_guard_text(g)}")
    s.add(z3.Not(ob.claim))
    r = solve(s)
    if r == z3.sat:
        w = ob.witness(s.model())
        w.clauses = list(check.clauses)
        return _Verdict("counterexample", w)
    if r != z3.unsat:
        return _Verdict("unknown", detail=str(s.reason_unknown()))
    if key and check.mutant is None:  # only a proof under the true rules may stand for a later check
        session.shared_proved.add(key)
    if stored:
        session.cache.formula_put(stored)
    return _Verdict("proved")


# ------------------------------------------------------------------ helpers
def ival(m: Any, t: Term) -> int:
    """The integer value of ``t`` in the model ``m``."""
    return int(m.eval(t, model_completion=True).as_long())


def bval(m: Any, t: Term) -> bool:
    """The truth value of ``t`` in the model ``m``."""
    return bool(z3.is_true(m.eval(t, model_completion=True)))


def exactly_one(bs: Sequence[Term]) -> Term:
    """Exactly one of ``bs`` holds."""
    return z3.And(z3.Or(list(bs)), *[z3.Not(z3.And(a, b)) for a, b in itertools.combinations(bs, 2)])


def variants(rid: str, names: Sequence[str]) -> list[tuple[tuple[str, OptionValue], ...]]:
    """Every combination of the allowed values of the named options (those the ruleset has).

    An option given by a range (``play_on``) has no list of allowed values: it is left out here (else the
    product would be empty and drop every other option); a family that needs it adds its values itself.
    """
    rs = get_ruleset(rid)
    opts = [o for o in rs.options if o.name in names and o.allowed]
    out = []
    for combo in itertools.product(*[o.allowed for o in opts]):
        out.append(tuple(sorted(zip([o.name for o in opts], combo, strict=True))))
    return out or [()]


def reading_variants(rid: str, vs: Sequence[tuple[tuple[str, OptionValue], ...]]) -> list[
        tuple[tuple[tuple[str, OptionValue], ...], tuple[tuple[str, str], ...]]]:
    """(option variant, one reading) for every selectable reading ``rid`` does not take (spec/ambiguities.toml) and
    every variant of ``vs`` under which it changes some hand's score (elsewhere it is the ruleset itself): the
    scoring checks run under each reading too. Where a reading matters is the encoding's word, never the engine's
    (an engine that ignores a reading must not make its checks disappear)."""
    rs = get_ruleset(rid)
    domain = [(c, bt, (tb, 13 - tb) if bt == 0 else (13 - tb, tb)) for c in range(1, 14) for bt in (0, 1)
              for tb in range(14)]
    out: list[tuple[tuple[tuple[str, OptionValue], ...], tuple[tuple[str, str], ...]]] = []
    # the ruleset's own scores over the domain, once a variant
    tables: dict[tuple[tuple[str, OptionValue], ...], list[tuple[tuple[int, int, tuple[int, int]], Any]]] = {}
    with compiling():  # each term set compiled once (across calls too, when the caller has a memo in force)
        for a in selectable_readings(rs):
            for reading in a.params:
                if reading == taken_for(a, rs):
                    continue
                other = with_readings(rs, {a.id: reading})
                for v in vs:
                    try:
                        base, rules = load_rules(rs, dict(v)), load_rules(other, dict(v))
                    except TarneebError:
                        continue
                    if v not in tables:
                        eb = Encoding(base)
                        tables[v] = [((c, bt, t), eb.eval_team_deltas(c, bt, t)) for c, bt, t in domain
                                     if c >= base.min_bid]
                    er = Encoding(rules)
                    if any(d != er.eval_team_deltas(*x) for x, d in tables[v]):
                        out.append((v, ((a.id, reading),)))
    return out


_RULE_FIELDS_NOT_RULES = ("ruleset", "options", "option_map")  # names and labels, not what the engine follows


def engine_reading_variants(rid: str, vs: Sequence[tuple[tuple[str, OptionValue], ...]]) -> list[
        tuple[tuple[tuple[str, OptionValue], ...], tuple[tuple[str, str], ...]]]:
    """(option variant, one reading) for every selectable reading ``rid`` does not take and every variant of ``vs``
    under which the rules the engine is given differ in some field (first dealer, forced bid, the partner of a
    made 10, the value table, the rising thresholds, the turned card's trump, the timer's card, the direction):
    the engine's stages run under each, so a reading the engine mishandles is a counterexample, not a gap. A
    variant's option that stands for a reading is translated (:func:`tarneeb.core.ambiguity.rules_under`); an
    option a reading adds is tried at each of its values."""
    rs = get_ruleset(rid)
    out: list[tuple[tuple[tuple[str, OptionValue], ...], tuple[tuple[str, str], ...]]] = []
    for a in selectable_readings(rs):
        for reading in a.params:
            if reading == taken_for(a, rs):
                continue
            for v in vs:
                try:
                    base = load_rules(rs, dict(v))
                    other = rules_under(base, {a.id: reading})
                except TarneebError:
                    continue
                tries = [other]
                if reading in a.option_from and a.option not in dict(v):
                    added = other.ruleset.option(a.option)
                    tries = [load_rules(other.ruleset, {**dict(other.options), a.option: x}) for x in added.allowed]
                for o in tries:
                    if any(getattr(o, f) != getattr(base, f) for f in base.value_fields()
                           if f not in _RULE_FIELDS_NOT_RULES):
                        item = (tuple(sorted(o.options)), ((a.id, reading),))
                        if item not in out:
                            out.append(item)
    return out


Variant = tuple[tuple[str, OptionValue], ...]
Readings = tuple[tuple[str, str], ...]


def reading_combinations(singles: Sequence[tuple[Variant, Readings]]) -> list[tuple[Variant, Readings]]:
    """(variant, readings) for every variant and every set of two or more readings, of different ambiguities, that
    each change that variant on their own (``singles``: the (variant, one reading) pairs that do). A reading that
    changes nothing under a variant adds nothing to a set there, so the sets not listed are ones listed. The
    families that take them run under each set too: a bug where two readings meet (each right alone) is a
    counterexample. What a set shares with a reading alone (a function that reads the fields of one of them only)
    the session's memo proves once."""
    by_variant: dict[Variant, list[tuple[str, str]]] = {}
    for v, rd in singles:
        by_variant.setdefault(v, []).extend(rd)
    out: list[tuple[Variant, Readings]] = []
    for v, rds in by_variant.items():
        for k in range(2, len(rds) + 1):
            for combo in itertools.combinations(rds, k):
                if len({a for a, _ in combo}) == k:
                    out.append((v, tuple(sorted(combo))))
    return out


def reading_sets(singles: Sequence[tuple[Variant, Readings]]) -> list[tuple[Variant, Readings]]:
    """``singles`` (variant, one reading), then every set of them a variant takes together
    (:func:`reading_combinations`)."""
    return [*singles, *reading_combinations(singles)]


def engine_reading_sets(rid: str, vs: Sequence[Variant], ambiguities: Container[str]) -> list[tuple[Variant, Readings]]:
    """:func:`engine_reading_variants` of the readings of ``ambiguities`` (those a stage reads), then every set of
    them a variant takes together (:func:`reading_sets`)."""
    return reading_sets([x for x in engine_reading_variants(rid, vs) if x[1][0][0] in ambiguities])


def worker_plan(checks: Sequence[Check], jobs: int, cost: Callable[[Check], float] | None = None
                ) -> list[list[Check]]:
    """``checks`` split between ``jobs`` workers. The checks of one family and stage (``engine.play``,
    ``transition.deal``, ...) all go to one worker, whose session's memo proves what they share once (the same
    function under rules that read the same, a summary's lemma, compiled terms). The groups are dealt largest
    first to the worker with the least work so far, by ``cost`` (a check's expected seconds; 1 each when None).
    Each worker runs its checks in the order of ``checks``. Dealing neighbouring checks out in small chunks
    instead proved what they share once per worker: a cold ``tarneeb prove --jobs 2`` took 314 s of CPU that
    way, 205 s this way (2 cores, 2026-12-06)."""
    groups: dict[str, list[Check]] = {}
    for c in checks:
        groups.setdefault(f"{c.invariant}.{c.stage}", []).append(c)
    weight = {k: sum(cost(c) if cost else 1.0 for c in cs) for k, cs in groups.items()}
    plan: list[list[Check]] = [[] for _ in range(max(1, min(jobs, len(groups))))]
    load = [0.0] * len(plan)
    for k in sorted(groups, key=lambda k: -weight[k]):
        i = load.index(min(load))
        plan[i].extend(groups[k])
        load[i] += weight[k]
    pos = {id(c): n for n, c in enumerate(checks)}
    return [sorted(part, key=lambda c: pos[id(c)]) for part in plan]


def run_all(checks: Sequence[Check], jobs: int = 1, cost: Callable[[Check], float] | None = None
            ) -> Iterator[Result]:
    """The results of ``checks``: in their order in this process when ``jobs`` <= 1, else as they complete in
    ``jobs`` worker processes, each running its part of :func:`worker_plan` (``cost``: a check's expected seconds).

    The run has one :class:`~tarneeb_proofs.session.Session` per process that runs checks: this one, or each
    worker's own (made when the worker starts). A worker never takes a proof from another in memory (through the
    cache folder it may).
    """
    if jobs <= 1:
        session = Session()
        for c in checks:
            yield run_check(c, session)
        return
    plan = worker_plan(checks, jobs, cost)
    pools = [ProcessPoolExecutor(max_workers=1, initializer=_worker_starts) for _ in plan]
    try:
        futures = [pool.submit(_worker_check, c) for pool, part in zip(pools, plan, strict=True) for c in part]
        for f in as_completed(futures):
            yield f.result()
    except BaseException:  # Ctrl-C (or the caller stopped reading): the workers are ended, not waited for
        threading.excepthook = _quiet_invalid_state(threading.excepthook)
        for pool in pools:
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    for pool in pools:
        pool.shutdown(wait=True)


def _quiet_invalid_state(hook: Any) -> Any:
    """``hook`` (threading.excepthook) minus InvalidStateError: CPython 3.11's pool manager thread, finding its
    workers ended, sets an exception on futures map() has just cancelled and dies of it, printing a traceback
    after "interrupted". Left in place: the interrupt is ending the run."""
    if getattr(hook, "quiet_invalid_state", False):
        return hook

    def quiet(a: threading.ExceptHookArgs) -> None:
        if a.exc_type is not None and issubclass(a.exc_type, InvalidStateError):
            return
        hook(a)

    quiet.quiet_invalid_state = True  # type: ignore[attr-defined]
    return quiet


# the session of a worker process of run_all: set once when the worker starts, read by each check it runs (the
# worker's loop runs every task in the context its initializer ran in)
_WORKER_SESSION: contextvars.ContextVar[Session | None] = contextvars.ContextVar("tarneeb_proofs_worker_session",
                                                                               default=None)


def _worker_starts() -> None:
    """A worker of run_all makes its session (one per worker process, for all the checks it runs) and leaves
    Ctrl-C to the main process, which ends it (a worker that took the interrupt printed its own traceback from
    inside multiprocessing)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_SESSION.set(Session())


def _worker_check(check: Check) -> Result:
    """One check in a worker process of run_all, in the worker's session."""
    session = _WORKER_SESSION.get()
    if session is None:  # (a pool started without _worker_starts)
        session = Session()
        _WORKER_SESSION.set(session)
    return run_check(check, session)

