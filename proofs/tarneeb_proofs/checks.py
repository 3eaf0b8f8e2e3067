"""The proofs: invariant families x rulesets x option variants, and their mutants.

A :class:`Check` is a list of :class:`Obligation` (hypotheses, claim). A check
is *proved* when, for every obligation, the hypotheses are satisfiable (the
proof is not vacuous), so is each guard of a guarded conjunct with them
(:func:`guards`), and hypotheses + not(claim) is unsat. It ends with a
*counterexample* at the first obligation whose negation is satisfiable; the
model is printed as a game situation. A mutant check runs the same
obligations on an :class:`~tarneeb_proofs.encode.Encoding` with one rule
deliberately broken, and must end with a counterexample.

Families 1-2 are built in :mod:`tarneeb_proofs.play_families`, family 3 in
:mod:`tarneeb_proofs.bid_families`, family 7 in :mod:`tarneeb_proofs.references`, family 8 (the engine's
own code, obligations that run it: :attr:`Obligation.run`) in :mod:`tarneeb_proofs.bridge`; 4-6 here.
What each family proves exactly is written in ``proofs/README.md``.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from tarneeb.core.spec import OptionValue, Rules, get_ruleset, load_rules, rulesets
from tarneeb.errors import ConfigError

from .encode import (
    NO_LED,
    Encoding,
    Term,
    seat2,
    zmax,
)
from .witness import Witness, seat_text

INVARIANTS = ("tricks", "follow", "bids", "scoring", "outcome", "config", "references", "engine")
INVARIANT_TITLES = {
    "tricks": "1. a hand is 13 tricks",
    "follow": "2. legal follow-suit and trick winner",
    "bids": "3. bids and the redeal",
    "scoring": "4. scoring tables",
    "outcome": "5. win qualification and ties",
    "config": "6. configuration soundness",
    "references": "7. the documents' worked examples (encoding and engine)",
    "engine": "8. the engine's rule functions equal the encodings (tarneeb_proofs.bridge)",
}


@dataclass
class Obligation:
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
    # an obligation discharged by running code (the engine family): returns a counterexample or None
    run: Callable[[], Witness | None] | None = None


@dataclass(frozen=True)
class Check:
    invariant: str
    ruleset: str
    options: tuple[tuple[str, OptionValue], ...]
    mutant: str | None
    clauses: tuple[str, ...]
    build: Callable[[Encoding], list[Obligation]]
    stage: str = ""  # a sub-part of a family (config soundness stages)

    @property
    def variant(self) -> str:
        return ",".join(f"{k}={_fmt(v)}" for k, v in self.options) or "default"

    @property
    def id(self) -> str:
        base = f"{self.invariant}{'.' + self.stage if self.stage else ''}:{self.ruleset}:{self.variant}"
        return base + (f":mutant={self.mutant}" if self.mutant else "")

    @property
    def expected(self) -> str:
        return "counterexample" if self.mutant else "proved"

    def rules(self) -> Rules:
        return load_rules(self.ruleset, dict(self.options))


@dataclass
class Result:
    check: Check
    status: str  # proved | counterexample | vacuous | unknown
    runtime: float
    obligation: str = ""
    witness: Witness | None = None
    detail: str = ""
    shared: int = 0  # obligations already proved by an earlier check in this process (same share key)

    @property
    def ok(self) -> bool:
        return self.status == self.check.expected


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_SHARED_PROVED: set[str] = set()  # formula keys of shared obligations already proved in this process
_KEYS: dict[tuple[tuple[int, ...], int], tuple[str, list[Term]]] = {}  # z3 AST ids -> (key, the terms kept alive)


def formula_key(hyp: Sequence[Term], claim: Term) -> str:
    """The sha256 of the SMT-LIB text (declarations, hypotheses, claim) of an obligation.

    Two obligations get the same key only when they state exactly the same
    fact. z3 hash-conses its terms, so the text is printed once per distinct
    formula (memoised on the term ids, whose terms are kept alive here).
    """
    ids = (tuple(h.get_id() for h in hyp), claim.get_id())
    hit = _KEYS.get(ids)
    if hit is None:
        hs, cs = z3.Solver(), z3.Solver()
        hs.add(*hyp)
        cs.add(claim)
        text = hs.sexpr() + "\n; claim\n" + cs.sexpr()
        hit = (hashlib.sha256(text.encode()).hexdigest(), [*hyp, claim])
        _KEYS[ids] = hit
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


def run_check(check: Check, timeout_ms: int = 60_000) -> Result:
    """Run every obligation of a check; a solver timeout is a visible ``unknown``, never a pass.

    Per obligation: the hypotheses are satisfiable, every guard of a guarded
    conjunct (``Implies(g, c)``, in the claim or the hypotheses) is
    satisfiable with them (else ``vacuous``, naming the conjunct; see
    :attr:`Obligation.guards`), and
    hypotheses + not(claim) is unsat.
    """
    t0 = time.perf_counter()
    # the engine family's mutants are engine bugs (tarneeb_proofs.bridge_mutants), its encoding is the true one
    enc = Encoding(check.rules(), None if check.invariant == "engine" else check.mutant)
    shared = 0
    for ob in check.build(enc):
        if ob.run is not None:
            w = ob.run()
            if w is not None:
                return Result(check, "counterexample", time.perf_counter() - t0, ob.name, w, shared=shared)
            continue
        key = formula_key(ob.hyp, ob.claim) if ob.share else ""
        if key and key in _SHARED_PROVED:
            shared += 1
            continue
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        s.add(*ob.hyp)
        r = solve(s)
        if r != z3.sat:
            status = "vacuous" if r == z3.unsat else "unknown"
            return Result(check, status, time.perf_counter() - t0, ob.name, detail=f"hypotheses are {r}", shared=shared)
        models = [s.model()]
        for where, g in guards(ob.hyp, ob.claim, ob.guards):
            if any(z3.is_true(md.eval(g, model_completion=True)) for md in models):
                continue
            r = s.check(g)
            if r == z3.sat:
                models.append(s.model())
                continue
            status = "vacuous" if r == z3.unsat else "unknown"
            return Result(check, status, time.perf_counter() - t0, ob.name,
                          detail=f"the guard of {where} is {r} with the hypotheses: {_guard_text(g)}", shared=shared)
        s.add(z3.Not(ob.claim))
        r = solve(s)
        if r == z3.sat:
            w = ob.witness(s.model())
            w.clauses = list(check.clauses)
            return Result(check, "counterexample", time.perf_counter() - t0, ob.name, w, shared=shared)
        if r != z3.unsat:
            return Result(check, "unknown", time.perf_counter() - t0, ob.name, detail=str(s.reason_unknown()),
                          shared=shared)
        if key and check.mutant is None:  # only a proof under the true rules may stand for a later check
            _SHARED_PROVED.add(key)
    return Result(check, "proved", time.perf_counter() - t0, shared=shared)


# ------------------------------------------------------------------ helpers
def ival(m: Any, t: Term) -> int:
    return int(m.eval(t, model_completion=True).as_long())


def bval(m: Any, t: Term) -> bool:
    return bool(z3.is_true(m.eval(t, model_completion=True)))


def exactly_one(bs: Sequence[Term]) -> Term:
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


# ============================================================== 4. scoring
# The scoring tables as the clause texts state them (score.values), per ruleset:
# (lowest bid, highest bid, multiplier of the face value).
DOC_TABLES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "card-kings-41": ((2, 13, 1),),  # 000, Scoring: face value
    "eram-41": ((2, 13, 1),),  # 003, Scoring: the bid itself
    "bsfyi-41": ((2, 4, 1), (5, 8, 2), (9, 13, 3)),  # 001, The scoring table
    "tarneeb-400": ((2, 4, 1), (5, 8, 2), (9, 13, 3)),  # 001's table, assumed by 002
}


def doc_values(r: Rules) -> dict[int, int]:
    """Bid -> value as its score.values clause states it: the document's table (a house ruleset that keeps the
    values inherits it); a house ruleset that sets its own values states them in its own clause, so the
    obligation then checks the encoding against the file's list (no document to compare with)."""
    rs = r.ruleset
    if "score.values" not in rs.changed:
        for rid in rs.lineage or (rs.id,):
            if rid in DOC_TABLES:
                return {b: b * mult for lo, hi, mult in DOC_TABLES[rid] for b in range(lo, hi + 1)}
    return {b: r.values[b] for b in range(r.bid_min, r.bid_max + 1)}


def _scoring_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    bid, t, t2 = z3.Int("bid"), z3.Int("tricks"), z3.Int("tricks2")
    in_range = [bid >= r.bid_min, bid <= r.bid_max] + [bid != x for x in sorted(r.bid_excluded)]
    tr = [t >= 0, t <= 13, t2 >= 0, t2 <= 13]
    d = enc.individual_delta(bid, t)
    doc: Term = z3.IntVal(-1)
    for b, value in doc_values(r).items():
        doc = z3.If(bid == b, value, doc)
    claim_t = z3.And(z3.Implies(t >= bid, d == doc), z3.Implies(t < bid, d == -doc))
    claim_m = z3.And(z3.Implies(t >= bid, d > 0), z3.Implies(t < bid, d < 0))
    claim_x = z3.Implies(z3.And(t >= bid, t2 >= bid), d == enc.individual_delta(bid, t2))

    def w(m: Any) -> Witness:
        x = Witness(title="one player's hand")
        x.add("bid", str(ival(m, bid)))
        x.add("tricks taken", str(ival(m, t)))
        x.add("score change (encoding)", str(ival(m, d)))
        x.add("with " + str(ival(m, t2)) + " tricks (encoding)", str(ival(m, enc.individual_delta(bid, t2))))
        return x

    return [
        Obligation("the score change is the document's table (+value made, -value failed)", in_range + tr, claim_t, w),
        Obligation("a made bid never loses points; a failed one never gains", in_range + tr, claim_m, w),
        Obligation("tricks above the bid change nothing", in_range + tr, claim_x, w),
    ]


def _scoring_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    hyp = [c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1), tb >= 0, tb <= 13]
    d0, d1 = enc.team_deltas(c, bt, tb)
    d_bt = z3.If(bt == 0, d0, d1)
    d_dt = z3.If(bt == 0, d1, d0)
    td = 13 - tb
    made = tb >= c

    def kab(usual: Term) -> Term:
        return {"16": z3.IntVal(16), "26": z3.IntVal(26), "double": 2 * usual, "none": usual}[r.kaboot]

    usual_bt = z3.If(made, tb, -c) if r.score_style == "standard" else z3.If(made, c, -c)
    usual_dt = z3.If(made, z3.IntVal(0), td) if r.score_style == "standard" else z3.IntVal(0)
    special13 = z3.And(c == 13, z3.BoolVal(r.bid13 == "26"))
    # (a conjunct whose guard the options rule out is left out: its guard could never hold)
    claims = [z3.Implies(special13, d_bt == z3.If(made, z3.IntVal(26), z3.IntVal(-16)))] if r.bid13 == "26" else []
    claims += [
        z3.Implies(z3.And(z3.Not(special13), tb == 13, z3.Not(z3.And(c == 13, z3.BoolVal(r.bid13 == "win")))),
                   d_bt == kab(usual_bt)),
        z3.Implies(z3.And(z3.Not(special13), z3.Or(tb < 13, z3.And(c == 13, z3.BoolVal(r.bid13 == "win")))),
                   d_bt == usual_bt),
        z3.Implies(z3.Not(z3.And(td == 13, z3.BoolVal(r.score_style == "standard"))), d_dt == usual_dt),
        enc.bid13_wins(c, tb) == z3.And(z3.BoolVal(r.bid13 == "win"), c == 13, made),
    ]
    if r.score_style == "standard":
        claims.append(z3.Implies(td == 13, d_dt == kab(usual_dt)))
    claim_m = z3.And(z3.Implies(made, z3.And(d_bt > 0, d_dt == 0)), z3.Implies(z3.Not(made), d_bt < 0))

    def w(m: Any) -> Witness:
        x = Witness(title="a scored auction hand")
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}")
        x.add("tricks (bidders / defenders)", f"{ival(m, tb)} / {13 - ival(m, tb)}")
        x.add("score change team 0 / team 1 (encoding)", f"{ival(m, d0)} / {ival(m, d1)}")
        return x

    return [
        Obligation("the score change is the table of score.standard/bid-only, kaboot, bid13", hyp, z3.And(claims), w),
        Obligation("a made contract never loses points (defenders get nothing); a failed one never gains",
                   hyp, claim_m, w),
    ]


# ================================================= 5. win qualification, ties
def _outcome_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    s = [z3.Int(f"score{j}") for j in range(4)]
    b = [z3.Int(f"bid{j}") for j in range(4)]
    t = [z3.Int(f"tricks{j}") for j in range(4)]
    hyp = [x >= r.bid_min for x in b] + [x <= r.bid_max for x in b] + [x >= 0 for x in t] + [z3.Sum(t) == 13]
    o = enc.individual_outcome(s, b, t)
    target = r.target

    def qual(a: Term, c: Term) -> Term:  # stated independently: the better partner at the target, the other above 0
        return z3.And(zmax(a, c) >= target, z3.If(a >= c, c, a) > 0)

    q = [qual(s[0], s[2]), qual(s[1], s[3])]
    made_any: Term = z3.BoolVal(False)
    made_team: list[Term] = [z3.BoolVal(False), z3.BoolVal(False)]
    if r.made_bid_wins:
        mk = [z3.And(b[j] == r.made_bid_wins, t[j] >= b[j]) for j in range(4)]
        made_any = z3.Or(mk)
        made_team = [z3.Or(mk[0], mk[2]), z3.Or(mk[1], mk[3])]
    key = [s[0] + s[2], s[1] + s[3]] if r.tie_rule == "combined" else [zmax(s[0], s[2]), zmax(s[1], s[3])]
    wins = [o.team0, o.team1]
    claims = [exactly_one([o.team0, o.team1, o.play_on])]
    for x in (0, 1):
        y = 1 - x
        claims += [
            z3.Implies(z3.And(wins[x], z3.Not(made_any)), q[x]),
            z3.Implies(z3.And(q[x], z3.Not(q[y]), z3.Not(made_any)), wins[x]),
            z3.Implies(z3.And(q[0], q[1], z3.Not(made_any)), wins[x] == (key[x] > key[y])),
        ]
        if r.made_bid_wins:
            claims.append(z3.Implies(made_team[x], wins[x]))
    claims.append(z3.Implies(z3.And(q[0], q[1], z3.Not(made_any)), o.play_on == (key[0] == key[1])))
    claims.append(z3.Implies(z3.And(z3.Not(q[0]), z3.Not(q[1]), z3.Not(made_any)), o.play_on))

    def w(m: Any) -> Witness:
        x = Witness(title="scores after a hand")
        x.add("scores", str([ival(m, v) for v in s]))
        if r.made_bid_wins:
            x.add("bids / tricks", f"{[ival(m, v) for v in b]} / {[ival(m, v) for v in t]}")
        res = "team 0 wins" if bval(m, o.team0) else ""
        res += (" and " if res else "") + "team 1 wins" if bval(m, o.team1) else ""
        res += (" and " if res else "") + "play on" if bval(m, o.play_on) else ""
        x.add("result (encoding)", res or "nothing")
        return x

    return [Obligation("exactly one of team 0 / team 1 / play on; qualification; tie rule", hyp, z3.And(claims), w)]


def _outcome_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    raise_ = z3.Int("play_on_raise")
    enc.play_on_raise = raise_
    sc = [z3.Int("team0"), z3.Int("team1")]
    games = z3.Int("games_won")
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    hyp = [raise_ >= 0, raise_ <= 1000, games >= 0, games <= 1, c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1),
           tb >= 0, tb <= 13]
    T = enc.target_in_force(games)
    b13 = enc.bid13_wins(c, tb)
    o = enc.auction_outcome(sc, T, bt, b13)
    wins = [o.team0, o.team1]
    claims = [exactly_one([o.team0, o.team1, o.play_on]), z3.Implies(b13, z3.If(bt == 0, o.team0, o.team1))]
    for x in (0, 1):
        y = 1 - x
        claims += [
            z3.Implies(z3.And(wins[x], z3.Not(b13)), sc[x] >= T),
            z3.Implies(z3.And(sc[x] >= T, sc[y] < T, z3.Not(b13)), wins[x]),
            z3.Implies(z3.And(sc[0] >= T, sc[1] >= T, z3.Not(b13)), wins[x] == (bt == x)),
        ]
    claims.append(z3.Implies(z3.And(sc[0] < T, sc[1] < T, z3.Not(b13)), o.play_on))
    claims.append(z3.Implies(games == 0, T == r.target))
    claims.append(z3.Implies(games == 1, T == r.target + raise_))

    def w(m: Any) -> Witness:
        x = Witness(title="team scores after an auction hand")
        x.add("team scores", f"{ival(m, sc[0])} / {ival(m, sc[1])}")
        x.add("games already won / play-on raise", f"{ival(m, games)} / {ival(m, raise_)}")
        x.add("target in force (encoding)", str(ival(m, T)))
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}, {ival(m, tb)} tricks")
        x.add("result (encoding)", {0: "team 0 wins", 1: "team 1 wins", -1: "play on"}[ival(m, o.winner())])
        return x

    return [Obligation("exactly one result; target and bidding-team rules; bid 13; play-on target", hyp,
                       z3.And(claims), w)]


# ======================================================= 6. configuration soundness
def _config_individual(enc: Encoding) -> list[Obligation]:
    """From any scores: a legal hand that is played, team 0 both gain, team 1 both lose (progress to a decision)."""
    s = [z3.Int(f"score{j}") for j in range(4)]

    def lowest(sc: Term) -> Term:
        out: Term = z3.IntVal(99)
        for b in range(13, -1, -1):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    def highest(sc: Term) -> Term:
        out: Term = z3.IntVal(-99)
        for b in range(0, 14):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    bids = [lowest(s[0]), highest(s[1]), lowest(s[2]), highest(s[3])]
    tricks = [13 - bids[2], z3.IntVal(0), bids[2], z3.IntVal(0)]
    deltas = [enc.individual_delta(bids[j], tricks[j]) for j in range(4)]
    o = enc.individual_outcome(s, bids, tricks)
    claim = z3.And(*[enc.legal_bid(s[j], bids[j]) for j in range(4)], enc.hand_played(bids),
                   bids[0] + bids[2] <= 13, bids[0] <= tricks[0],
                   deltas[0] >= 1, deltas[2] >= 1, deltas[1] <= -1, deltas[3] <= -1)
    # once team 0 qualifies and team 1 does not, the match is decided
    q0 = enc.team_qualifies(s[0], s[2])
    q1 = enc.team_qualifies(s[1], s[3])
    decided = z3.Implies(z3.And(q0, z3.Not(q1)), z3.Or(o.team0, o.team1))

    def w(m: Any) -> Witness:
        x = Witness(title="a score state")
        x.add("scores", str([ival(m, v) for v in s]))
        x.add("bids tried (encoding)", str([ival(m, v) for v in bids]))
        x.add("tricks", str([ival(m, v) for v in tricks]))
        x.add("score changes (encoding)", str([ival(m, v) for v in deltas]))
        return x

    return [Obligation("from any scores a legal played hand moves team 0 up and team 1 down", [], claim, w),
            Obligation("a team qualifying alone decides the match", [], decided, w)]


def _config_auction(enc: Encoding) -> list[Obligation]:
    """The auction can always produce a contract for the first speaker (bid the minimum, all others pass)."""
    r = enc.r
    dealer = z3.Int("dealer")
    run = enc.auction(dealer, 4)
    calls = [run.calls_n[0] == r.min_bid, run.calls_s[0] == 0] + \
        [z3.And(run.calls_n[i] == 0, run.calls_s[i] == 0) for i in range(1, 4)]
    has, holder, _ = run.contract()
    claim = z3.And(run.all_legal(), run.ended[4], has, holder == enc.next_seat(dealer))

    def w(m: Any) -> Witness:
        x = Witness(title="an auction")
        x.add("dealer", seat_text(ival(m, dealer)))
        x.add("calls", f"{r.min_bid}, pass, pass, pass")
        x.add("over / contract (encoding)", f"{bval(m, run.ended[4])} / {bval(m, has)}")
        return x

    return [Obligation("an auction can end in a contract from any dealer", [dealer >= 0, dealer <= 3] + calls,
                       claim, w)]


def _config_scoring(enc: Encoding) -> list[Obligation]:
    """Every contract made exactly scores > 0 for the bidders and 0 for the defenders."""
    r = enc.r
    c, bt = z3.Int("contract"), z3.Int("bidding_team")
    d0, d1 = enc.team_deltas(c, bt, c)
    claim = z3.And(z3.If(bt == 0, d0, d1) > 0, z3.If(bt == 0, d1, d0) == 0)

    def w(m: Any) -> Witness:
        x = Witness(title="a contract made exactly")
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}")
        x.add("score change team 0 / team 1 (encoding)", f"{ival(m, d0)} / {ival(m, d1)}")
        return x

    return [Obligation("a made contract moves the bidders up and leaves the defenders",
                       [c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1)], claim, w)]


# ====================================================================== registry
PLAY_OPTIONS = ("direction", "must_trump", "egyptian", "trump_source")
BID_OPTIONS_IND = ("rising_min_bid", "bid_total_min")
AUCTION_OPTIONS = ("auction", "all_pass", "egyptian", "min_bid", "direction")
SCORING_OPTIONS = ("scoring", "kaboot", "bid13", "min_bid")
OUTCOME_OPTIONS_IND = ("target", "made_bid_wins")
OUTCOME_OPTIONS_AUC = ("target",)

# mutants per (family, family kind): (mutant, option variant it applies to or None for the first variant)
MUTANT_PLAN: dict[tuple[str, bool], list[tuple[str, dict[str, OptionValue]]]] = {
    ("tricks", True): [("turn-step-2", {}), ("card-from-anywhere", {}), ("lead-by-dealer", {}),
                       ("next-lead-after-winner", {}), ("winner-ignores-trump", {})],
    ("tricks", False): [("turn-step-2", {}), ("card-from-anywhere", {}), ("lead-by-dealer", {}),
                        ("next-lead-after-winner", {}), ("winner-ignores-trump", {})],
    ("follow", True): [("follow-not-enforced", {}), ("winner-ignores-trump", {}), ("winner-highest-rank", {}),
                       ("discard-forbidden", {}), ("lead-trump-forbidden", {})],
    ("follow", False): [("follow-not-enforced", {}), ("must-trump-ignored", {"must_trump": True}),
                        ("winner-ignores-trump", {}), ("discard-forbidden", {"must_trump": False}),
                        ("must-trump-highest", {"must_trump": True}), ("lead-trump-forbidden", {})],
    ("bids", True): [("bid-below-min", {}), ("redeal-threshold-plus-1", {}), ("redeal-dealer-swapped", {}),
                     ("bids-capped-at-2", {}), ("top-bid-refused", {})],
    ("bids", False): [("passed-may-reenter", {"auction": "continuous"}), ("anyone-may-match", {}),
                      ("dealer-may-pass-forced", {"all_pass": "dealer-forced"}),
                      ("strain-before-tricks", {"egyptian": True}),
                      ("anyone-may-match", {"auction": "continuous"}),
                      ("dealer-may-pass-forced", {"auction": "continuous", "all_pass": "dealer-forced"}),
                      ("strain-before-tricks", {"auction": "continuous", "egyptian": True}),
                      ("dealer-match-ignored", {}), ("opener-must-bid", {}),
                      ("same-level-strain-refused", {"egyptian": True}),
                      ("opener-must-bid", {"auction": "continuous"}),
                      ("same-level-strain-refused", {"auction": "continuous", "egyptian": True})],
    ("scoring", True): [("extra-tricks-count", {}), ("failed-bid-scores", {})],
    ("scoring", False): [("defenders-score-on-made", {}), ("bid13-26-swapped", {"bid13": "26"})],
    ("outcome", True): [("partner-geq-0", {}), ("tie-to-team-0", {})],
    ("outcome", False): [("tie-to-defenders", {}), ("play-on-not-raised", {})],
    ("config", True): [("bids-capped-at-2", {})],
    ("config", False): [],
}
EXTRA_MUTANTS: dict[str, list[tuple[str, str, dict[str, OptionValue]]]] = {
    # ruleset -> (family, mutant, options)
    "card-kings-41": [("bids", "excluded-bid-allowed", {})],
    "tarneeb-400": [("bids", "rising-min-ignored", {}), ("bids", "rising-min-early", {})],
    "bsfyi-41": [("bids", "rising-min-ignored", {"rising_min_bid": True}),
                 ("bids", "rising-min-early", {"rising_min_bid": True})],
    "classic": [("config", "passed-may-reenter", {"auction": "continuous"}),
                ("config", "defenders-score-on-made", {})],
}

CLAUSES = {
    "tricks": ("hand.tricks", "play.direction", "play.lead", "play.follow", "play.winner", "play.next-lead"),
    "follow": ("play.follow", "play.must-trump", "play.winner", "trump.source"),
    "bids": ("bid.range", "bid.excluded", "bid.rising-min", "bid.turn", "bid.total", "redeal.dealer",
             "auction.order", "auction.raise", "auction.dealer-privilege", "auction.continuous", "auction.all-pass",
             "auction.egyptian"),
    "scoring": ("score.individual", "score.values", "score.extra", "score.standard", "score.bid-only",
                "score.kaboot", "score.bid13"),
    "outcome": ("win.target", "win.qualify", "tie.both-qualify", "win.made-bid", "score.bid13", "win.play-on"),
    "config": ("bid.total", "score.values", "win.qualify", "auction.all-pass", "score.standard"),
}


def _family(inv: str, individual: bool) -> list[tuple[str, Callable[[Encoding], list[Obligation]], tuple[str, ...]]]:
    """(stage, builder, option names whose values are enumerated)."""
    from .bid_families import _bids_auction, _bids_individual  # families 1-3 in their own modules (they import this one)
    from .play_families import _follow, _tricks

    if inv == "tricks":
        return [("", _tricks, PLAY_OPTIONS)]
    if inv == "follow":
        return [("", _follow, PLAY_OPTIONS)]
    if inv == "bids":
        return [("", _bids_individual, BID_OPTIONS_IND)] if individual else [("", _bids_auction, AUCTION_OPTIONS)]
    if inv == "scoring":
        return [("", _scoring_individual, ())] if individual else [("", _scoring_auction, SCORING_OPTIONS)]
    if inv == "outcome":
        return [("", _outcome_individual, OUTCOME_OPTIONS_IND)] if individual else \
            [("", _outcome_auction, OUTCOME_OPTIONS_AUC)]
    # config: individual -> every option combination; auction -> per stage
    if individual:
        return [("", _config_individual, ("*",))]
    return [("auction", _config_auction, AUCTION_OPTIONS), ("scoring", _config_scoring, SCORING_OPTIONS)]


def all_checks() -> list[Check]:
    from .bridge import engine_checks

    out: list[Check] = []
    for rid in rulesets():
        out += family_checks(rid)
    from .references import reference_checks  # family 7: its own module (it imports this one)

    out += reference_checks()
    return out + engine_checks()


def ruleset_checks(ref: str) -> list[Check]:
    """Every check of families 1-6 and 8 for one ruleset, also a ruleset file (``tarneeb prove --ruleset FILE``).

    A house ruleset gets the mutants of its family kind (not its base's own extra mutants: the file may have
    changed what they break); family 7 (the documents' worked examples) concerns the built-ins only.
    """
    from .bridge import engine_checks

    rs = get_ruleset(ref)
    if rs.id in rulesets():
        return [c for c in all_checks() if c.ruleset == rs.id and c.invariant != "references"]
    return family_checks(rs.name_ref) + engine_checks([rs.name_ref])


def refused_variants(checks: Sequence[Check]) -> list[str]:
    """The option variants of ``checks`` that the engine refuses to load (a stuck combination), with its reason."""
    out: dict[str, str] = {}
    for c in checks:
        if c.variant in out:
            continue
        try:
            c.rules()
        except ConfigError as e:
            out[c.variant] = f"option variant {c.variant}: {e.key}: {e.reason}"
    return list(out.values())


def family_checks(rid: str) -> list[Check]:
    """The checks of families 1-6 for one ruleset (a built-in id or a ruleset file's path)."""
    out: list[Check] = []
    rs = get_ruleset(rid)
    individual = rs.params.get("family") == "individual"
    present = set(rs.clauses)
    for inv in INVARIANTS:
        if inv not in CLAUSES:  # a family with its own module (references, engine)
            continue
        clauses = tuple(c for c in CLAUSES[inv] if c in present)
        fam = _family(inv, individual)
        for stage, build, names in fam:
            names_all = [o.name for o in rs.options] if names == ("*",) else list(names)
            vs = variants(rid, names_all)
            for v in vs:
                out.append(Check(inv, rid, v, None, clauses, build, stage))
            first_stage = stage == fam[0][0]
            plan = list(MUTANT_PLAN[(inv, individual)]) if first_stage else []
            plan += [(mu, o) for f, mu, o in EXTRA_MUTANTS.get(rid, []) if f == inv and first_stage]
            if inv == "config" and not individual:
                plan = [(mu, o) for f, mu, o in EXTRA_MUTANTS.get(rid, []) if f == inv
                        and ((stage == "auction") == (mu == "passed-may-reenter"))]
            for mu, opts in plan:
                base = dict(vs[0])
                base.update({k: v for k, v in opts.items() if k in base or k in names_all})
                v = tuple(sorted(base.items()))
                out.append(Check(inv, rid, v, mu, clauses, build, stage))
    return out


def select(checks: Sequence[Check], ruleset: str | None = None, invariant: str | None = None) -> list[Check]:
    return [c for c in checks if (ruleset is None or c.ruleset == ruleset)
            and (invariant is None or c.invariant == invariant)]


def run_all(checks: Sequence[Check], jobs: int = 1) -> Iterator[Result]:
    """The results in the order of ``checks``; ``jobs`` > 1 runs them in that many worker processes.

    Neighbouring checks go to the same worker (chunks), so most shared obligations are still proved once per
    worker; a worker never takes a proof from another.
    """
    if jobs <= 1:
        for c in checks:
            yield run_check(c)
        return
    from concurrent.futures import ProcessPoolExecutor

    ex = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield from ex.map(run_check, checks, chunksize=max(1, len(checks) // (4 * jobs)))
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


__all__ = ["Check", "INVARIANTS", "Obligation", "Result", "all_checks", "run_all", "run_check", "select",
           "seat2", "NO_LED"]
