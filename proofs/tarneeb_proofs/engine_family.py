"""Family ``engine``: the stages (play, bids, auction, turn, scoring, outcome, match), their option variants
and their mutant checks. The methods are in :mod:`tarneeb_proofs.bridge` and the stage modules it lists."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import z3

from tarneeb.core.spec import get_ruleset, rulesets

from .bridge import auction_parts, bids_parts, play_parts, turn_parts
from .bridge_scores import outcome_parts, scoring_parts
from .encode import Encoding, Term
from .match_stage import match_parts
from .mutants import MUTANTS, MutantError, applied, mutated_source
from .obligations import Check, Obligation, variants
from .witness import Witness

Part = Callable[[Encoding], tuple[list[tuple[str, list[Term], Term]], list[Any]]]  # lemmas, Compare / Replay
# stage -> (builder, option names enumerated for individual rulesets, for auction rulesets); None: not that kind
STAGES: dict[str, tuple[Part, tuple[str, ...] | None, tuple[str, ...] | None]] = {
    "play": (play_parts, ("must_trump", "egyptian", "trump_source"), ("must_trump", "egyptian", "trump_source")),
    "bids": (bids_parts, ("rising_min_bid", "bid_total_min"), None),
    "auction": (auction_parts, None, ("auction", "all_pass", "egyptian", "min_bid")),
    "turn": (turn_parts, None, ("auction", "direction")),
    "scoring": (scoring_parts, (), ("scoring", "kaboot", "bid13", "min_bid")),
    "outcome": (outcome_parts, ("target", "made_bid_wins"), ("target", "play_on")),
    "match": (match_parts, (), ()),
}


CLAUSES = ("play.winner", "play.follow", "play.must-trump", "play.direction", "trump.source", "deal.weak-redeal",
           "bid.range", "bid.excluded", "bid.rising-min", "bid.no-pass", "bid.total", "redeal.dealer",
           "auction.order", "auction.range", "auction.raise", "auction.dealer-privilege", "auction.continuous",
           "auction.all-pass", "auction.egyptian", "score.individual", "score.standard", "score.bid-only",
           "score.kaboot", "score.bid13", "win.qualify", "tie.both-qualify", "win.made-bid", "win.target",
           "win.play-on")




def _lemma_witness(terms: Sequence[Term]) -> Callable[[Any], Witness]:
    def w(m: Any) -> Witness:
        x = Witness(title="inputs where the encoding's reduction fails")
        for v in sorted(_vars(terms), key=str):
            x.add(str(v), str(m.eval(v, model_completion=True)))
        return x
    return w


def build(stage: str, mutant: str | None, enc: Encoding) -> list[Any]:
    """The stage's obligations: the engine runs first (a mismatch is a counterexample), then the reductions."""
    if mutant is not None:
        try:
            mutated_source(MUTANTS[mutant])
        except MutantError as e:  # a stale entry (its text edited away) fails its check as vacuous: no crash, no catch
            return [Obligation(f"stale mutant, it no longer applies: {e}", [z3.BoolVal(False)], z3.BoolVal(True))]
    lemmas, cmps = STAGES[stage][0](enc)
    out = []
    for c in cmps:
        def run(c: Any = c) -> Witness | None:
            with applied(mutant):
                bad = c.run()
            return None if bad is None else bad.witness(enc.r)
        what = ("replays its matches through the encoded steps" if c.fn == "Match"
                else "equals the encoding at every enumerated input")
        out.append(Obligation(f"engine {c.fn} {what}", [], z3.BoolVal(True), run=run))
    for name, hyp, claim in lemmas:
        # shared: proved once per process for the same formula (checks.formula_key hashes its SMT-LIB text)
        out.append(Obligation(name, hyp, claim, _lemma_witness([*hyp, claim]), share=True))
    return out


def _vars(terms: Sequence[Term]) -> list[Term]:
    seen: dict[int, Term] = {}
    done: set[int] = set()
    todo = list(terms)
    while todo:
        t = todo.pop()
        if t.get_id() in done:
            continue
        done.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen[t.get_id()] = t
        elif z3.is_app(t):
            todo.extend(t.children())
    return list(seen.values())[:12]


def engine_checks(refs: list[str] | None = None) -> list[Any]:
    """Every engine stage x ruleset x option variant, and the engine mutants of the manifest (``refs``: these
    rulesets only, also ruleset files; a file gets the mutants of its family kind, not a built-in's own)."""
    out = []
    for rid in refs if refs is not None else list(rulesets()):
        rs = get_ruleset(rid)
        individual = rs.params.get("family") == "individual"
        clauses = tuple(c for c in CLAUSES if c in rs.clauses)
        for stage, (_, ind_opts, auc_opts) in STAGES.items():
            names = ind_opts if individual else auc_opts
            if names is None:
                continue
            vs = variants(rid, names)
            if "play_on" in names:  # an integer option: the default and a raise
                vs = vs + [tuple(sorted((*v, ("play_on", 10)))) for v in vs]
            for v in vs:
                out.append(Check("engine", rid, v, None, clauses, functools.partial(build, stage, None), stage))
            for mname, m in MUTANTS.items():
                if m.stage != f"engine.{stage}" or not m.in_manifest:
                    continue
                same_kind = (rulesets()[m.ruleset].params.get("family") == "individual") == individual
                if not {"all": True, "kind": same_kind, "own": m.ruleset == rid}[m.in_manifest]:
                    continue
                base = dict(vs[0])
                base.update({k: x for k, x in m.options.items() if k in names})
                out.append(Check("engine", rid, tuple(sorted(base.items())), mname, clauses,
                                 functools.partial(build, stage, mname), stage))
    return out

