"""Family ``transition``: the engine's transition (:func:`tarneeb.core.transition.step`, ``start``, ``part_way``)
equals the specification's, for every state of each phase and every action, stage by stage.

A stage is a phase of the transition with the targets that prove it (:mod:`tarneeb_proofs.refine_deal`,
``refine_bids``, ``refine_play``), the rule functions it stands in by their encodings (each proved in the same
configuration by the family ``engine``), and the options and readings its checks enumerate (:data:`STAGES`: an
explicit, ordered table). A target proved earlier in the process, or in the cache (:mod:`tarneeb_proofs.cache`),
for the same engine code and the same values of the rule fields its proof read, is not proved again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3

from tarneeb.core.spec import get_ruleset, rulesets

from .bridge import Summary, Target, fingerprint, recording
from .encode import Encoding
from .mutants import MUTANTS, MutantError, applied, manifest_mutants, mutated_source
from .obligations import Check, Obligation, engine_reading_sets, variants
from .refine import transition_summaries
from .refine_bids import AUCTION_TARGETS, BID_TARGETS, bid_stand_ins
from .refine_deal import DEAL_TARGETS, deal_stand_ins
from .refine_play import PLAY_TARGETS, play_stand_ins
from .session import Session
from .witness import Witness

FAMILY = "transition"
# the engine modules whose functions a proof of this family may run (the memo's fingerprint of the engine code)
MODULES = ("tarneeb.core.rules", "tarneeb.core.hand", "tarneeb.core.cards", "tarneeb.core.transition",
           "tarneeb.core.state", "tarneeb.core.actions")


TargetBuilder = Callable[[Encoding], Target | None]  # one target of a stage (None: not of this configuration)


@dataclass(frozen=True)
class Stage:
    """A phase of the transition: its targets (a builder each, so a proof reads only what its own target needs),
    its stand-ins, the options its checks enumerate (individual family, auction family; None: not of that family)
    and the ambiguities whose readings it runs under."""

    name: str
    targets: tuple[TargetBuilder, ...]
    stand_ins: Callable[[Encoding], list[Summary]]
    individual: tuple[str, ...] | None
    auction: tuple[str, ...] | None
    readings: tuple[str, ...]


def _play_stand_ins(enc: Encoding) -> list[Summary]:
    """The play's stand-ins (a named function: a stage is sent to worker processes, a lambda cannot be)."""
    return play_stand_ins()


STAGES: tuple[Stage, ...] = (
    Stage("deal", DEAL_TARGETS, deal_stand_ins, ("trump_source", "direction", "target"),
          ("weak_redeal", "egyptian", "direction", "target", "play_on"),
          ("first-dealer", "weak-hand", "turned-card-trump", "400-direction", "play-on-count")),
    Stage("bids", BID_TARGETS, bid_stand_ins, ("rising_min_bid", "bid_total_min", "direction"), None,
          ("rising-min-threshold", "raised-total", "400-direction")),
    Stage("auction", AUCTION_TARGETS, bid_stand_ins, None, ("auction", "all_pass", "egyptian", "min_bid", "direction"),
          ("forced-dealer-minimum", "egyptian-dealer-match")),
    Stage("play", PLAY_TARGETS, _play_stand_ins, ("trump_source", "direction", "target"),
          ("egyptian", "direction", "target", "play_on"), ("turned-card-trump", "400-direction", "play-on-count")),
)
CLAUSES = ("deal.deck", "deal.order", "deal.first-dealer", "deal.rotation", "deal.weak-redeal", "trump.source",
           "bid.turn", "bid.total", "redeal.dealer", "auction.order", "auction.all-pass", "play.lead", "play.follow",
           "play.winner", "play.next-lead", "hand.tricks", "score.values", "score.standard", "win.target",
           "win.qualify", "win.play-on", "seats.partners")


def _stand_ins(stage: Stage, enc: Encoding) -> list[Summary]:
    return transition_summaries() + stage.stand_ins(enc)


def build(stage: Stage, mutant: str | None, enc: Encoding) -> list[Obligation]:
    """The stage's obligations, one per target of this configuration, run with the mutant patched in (a target
    already proved for the same engine code and the same values of the rule fields its proof read is taken as
    proved: memo, then cache)."""
    if mutant is not None:
        try:
            mutated_source(MUTANTS[mutant])
        except MutantError as e:  # a stale entry fails its check as vacuous: no crash, no catch
            return [Obligation(f"stale mutant, it no longer applies: {e}", [z3.BoolVal(False)], z3.BoolVal(True))]
    out = []
    for make in stage.targets:
        t = make(enc)
        if t is not None:
            out.append(Obligation(f"the engine's {t.fn} equals the specification's for every state and action "
                                  f"({make.__name__})", [], z3.BoolVal(True),
                                  run=functools.partial(_run, stage, make, mutant, enc)))
    return out


def _run(stage: Stage, make: TargetBuilder, mutant: str | None, enc: Encoding, session: Session) -> Witness | None:
    """Prove one target (or take it from the session's memo or the cache): a counterexample, or None with the
    function proved reported (``engine-functions``)."""
    with applied(mutant):
        key = (FAMILY, stage.name, make.__name__, fingerprint(MODULES))
        hit = session.memo.get(key, enc.r)
        dkey = (FAMILY, stage.name, make.__name__)
        if hit is None and mutant is None:  # a mutant's run never meets the cache (its digests are the engine's)
            hit = session.cache.get(dkey, enc.r)
        if hit is not None:
            for f in hit:
                session.report("engine-functions", {**f, "ruleset": enc.r.id, "reused": True})
            return None
        rr, seen = recording(enc.r)
        e = Encoding(rr)
        target = make(e)
        if target is None:
            raise AssertionError(f"{make.__name__} has no target under the rules it had one under")
        target.summaries = _stand_ins(stage, e)
        bad = target.run(rr, session)
        if bad is not None:
            return bad.witness(enc.r)
        facts = [dict(target.facts)]
        session.memo.put(key, seen, facts)
        if mutant is None:
            session.cache.put(dkey, seen, target.executed, facts)
        for f in facts:
            session.report("engine-functions", {**f, "ruleset": enc.r.id, "reused": False})
    return None


def transition_checks(refs: list[str] | None = None) -> list[Any]:
    """Every stage x ruleset x option variant (and reading), and the transition's mutants of the manifest."""
    out = []
    for rid in refs if refs is not None else list(rulesets()):
        rs = get_ruleset(rid)
        individual = rs.params.get("family") == "individual"
        clauses = tuple(c for c in CLAUSES if c in rs.clauses)
        for stage in STAGES:
            names = stage.individual if individual else stage.auction
            if names is None:
                continue
            vs = variants(rid, names)
            if "play_on" in names:  # an integer option: the default and a raise
                vs = vs + [tuple(sorted((*v, ("play_on", 10)))) for v in vs]
            make = functools.partial(build, stage, None)
            out += [Check(FAMILY, rid, v, None, clauses, make, stage.name) for v in vs]
            out += [Check(FAMILY, rid, v, None, clauses, make, stage.name, rd)
                    for v, rd in engine_reading_sets(rid, vs, stage.readings)]
            out += [Check(FAMILY, rid, v, mname, clauses, functools.partial(build, stage, mname), stage.name)
                    for v, mname in manifest_mutants(f"{FAMILY}.{stage.name}", rid, individual, names, vs[0])]
    return out


__all__ = ["FAMILY", "STAGES", "Stage", "build", "transition_checks"]
