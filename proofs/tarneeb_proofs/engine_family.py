"""Family ``engine``: the stages (play, bids, auction, turn, scoring, outcome), their option variants
and their mutant checks. The methods are in :mod:`tarneeb_proofs.bridge` and the stage modules it lists."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import z3

from tarneeb.core.spec import get_ruleset, rulesets

from . import bridge_bids, bridge_play, bridge_scores
from .bridge import Builder, Summariser, Summary, fingerprint, recording
from .encode import Encoding
from .mutants import MUTANTS, MutantError, applied, manifest_mutants, mutated_source
from .obligations import Check, Obligation, engine_reading_sets, reading_sets, reading_variants, variants
from .session import Session
from .witness import Witness

PLAY_OPTIONS = ("must_trump", "egyptian", "trump_source", "weak_redeal", "direction")
# stage -> (option names enumerated for individual rulesets, for auction
# rulesets); None: not that kind. The stages' targets come from the builders of :data:`BUILDERS`.
STAGES: Mapping[str, tuple[tuple[str, ...] | None, tuple[str, ...] | None]] = MappingProxyType({
    "play": (PLAY_OPTIONS, PLAY_OPTIONS),
    "bids": (("rising_min_bid", "bid_total_min"), None),
    "auction": (None, ("auction", "all_pass", "egyptian", "min_bid", "direction")),
    "turn": (None, ("auction", "direction", "weak_redeal")),
    "scoring": ((), ("scoring", "kaboot", "bid13", "min_bid")),
    "outcome": (("target", "made_bid_wins"), ("target", "play_on")),
})


# ambiguity -> the stages whose engine functions follow its readings (beside the auction scoring readings, which
# reading_variants finds from the encoding): each selectable reading runs them (tests/test_readings_selected.py
# asserts every selectable ambiguity is in one or the other, or in the steered-match tests' MATCH_READINGS)
READING_STAGES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "first-dealer": ("bids", "turn"),
    "forced-dealer-minimum": ("auction", "turn"),
    "egyptian-dealer-match": ("auction", "turn"),
    "play-on-count": ("outcome",),
    "bid10-partner": ("outcome",),
    "400-numbers": ("scoring", "outcome"),
    "rising-min-threshold": ("bids",),
    "raised-total": ("bids",),
    "classic-deal-order": ("play",),
    "weak-hand": ("play",),
    "turned-card-trump": ("play",),
    "400-direction": ("play", "bids"),
})


# every builder of engine-function targets and every summariser, from the stage modules' own tables, in this order
BUILDERS: tuple[Builder, ...] = (*bridge_bids.BUILDERS, *bridge_play.BUILDERS, *bridge_scores.BUILDERS)
SUMMARISERS: tuple[Summariser, ...] = (*bridge_bids.SUMMARISERS, *bridge_play.SUMMARISERS, *bridge_scores.SUMMARISERS)


def builders(stage: str) -> tuple[Builder, ...]:
    """The builders of the stage's targets, in their table order (the order their obligations run)."""
    return tuple(b for b in BUILDERS if b.stage == stage)


def summaries(stage: str, enc: Encoding) -> list[Summary]:
    """The summaries (proved callees) the stage's targets may use, for the configuration ``enc``."""
    return [sm for s in SUMMARISERS if stage in s.stages for sm in s.make(enc)]


CLAUSES = ("play.winner", "play.follow", "play.must-trump", "play.direction", "trump.source", "deal.weak-redeal",
           "bid.range", "bid.excluded", "bid.rising-min", "bid.no-pass", "bid.total", "redeal.dealer",
           "auction.order", "auction.range", "auction.raise", "auction.dealer-privilege", "auction.continuous",
           "auction.all-pass", "auction.egyptian", "score.individual", "score.standard", "score.bid-only",
           "score.kaboot", "score.bid13", "win.qualify", "tie.both-qualify", "win.made-bid", "win.target",
           "win.play-on")


def build(stage: str, mutant: str | None, enc: Encoding) -> list[Any]:
    """The stage's obligations, one per builder of engine-function targets, run with the mutant
    patched in. A builder proved earlier in the run's session for the same engine code and the same values of the
    rule fields it read, or in the cache, is not run again (:class:`~tarneeb_proofs.session.Memo`)."""
    if mutant is not None:
        try:
            mutated_source(MUTANTS[mutant])
        except MutantError as e:  # a stale entry (its text edited away) fails its check as vacuous: no crash, no catch
            return [Obligation(f"stale mutant, it no longer applies: {e}", [z3.BoolVal(False)], z3.BoolVal(True))]
    variant = (",".join(f"{k}={v}" for k, v in enc.r.options) or "default") + "".join(
        f";reading {a}={rd}" for a, rd in sorted(enc.r.ruleset.readings.items()))
    return [Obligation(f"engine {', '.join(b.fns)} equal the encoding for every input", [], z3.BoolVal(True),
                       run=functools.partial(_run_builder, stage, b, mutant, enc, variant))
            for b in builders(stage)]


def _run_builder(stage: str, b: Builder, mutant: str | None, enc: Encoding, variant: str,
                 session: Session) -> Witness | None:
    """Prove the targets of one builder (or take them from the session's memo or the cache): a counterexample, or
    None with the functions proved reported (``engine-functions``)."""
    with applied(mutant):
        key = (stage, b.fns, fingerprint())
        hit = session.memo.get(key, enc.r)
        dkey = (stage, b.fns)
        if hit is None and mutant is None:  # a mutant's run never meets the cache (its digests are the engine's)
            hit = session.cache.get(dkey, enc.r)
        if hit is not None:
            for f in hit:
                session.report("engine-functions", {**f, "ruleset": enc.r.id, "variant": variant, "reused": True})
            return None
        rr, seen = recording(enc.r)
        e = Encoding(rr)
        stand_ins = summaries(stage, e)
        facts = []
        executed: dict[int, Any] = {}
        for t in b.make(e):
            t.summaries = stand_ins
            bad = t.run(rr, session)
            if bad is not None:
                return bad.witness(enc.r)
            facts.append(dict(t.facts))
            executed.update(t.executed)
        session.memo.put(key, seen, facts)
        if mutant is None:
            session.cache.put(dkey, seen, executed, facts)
        for f in facts:
            session.report("engine-functions", {**f, "ruleset": enc.r.id, "variant": variant, "reused": False})
    return None


def engine_checks(refs: list[str] | None = None) -> list[Any]:
    """Every engine stage x ruleset x option variant, and the engine mutants of the manifest (``refs``: these
    rulesets only, also ruleset files; a file gets the mutants of its family kind, not a built-in's own)."""
    out = []
    for rid in refs if refs is not None else list(rulesets()):
        rs = get_ruleset(rid)
        individual = rs.params.get("family") == "individual"
        clauses = tuple(c for c in CLAUSES if c in rs.clauses)
        for stage, (ind_opts, auc_opts) in STAGES.items():
            names = ind_opts if individual else auc_opts
            if names is None:
                continue
            vs = variants(rid, names)
            if "play_on" in names:  # an integer option: the default and a raise
                vs = vs + [tuple(sorted((*v, ("play_on", 10)))) for v in vs]
            for v in vs:
                out.append(Check("engine", rid, v, None, clauses, functools.partial(build, stage, None), stage))
            # the engine under each selectable reading of the register: where it changes a score (the scoring
            # stage of the auction family: the encoding says where), or the rules the engine is given
            for v, rd in (reading_sets(reading_variants(rid, vs)) if stage == "scoring" and not individual else
                          engine_reading_sets(rid, vs, {a for a, st in READING_STAGES.items() if stage in st})):
                out.append(Check("engine", rid, v, None, clauses, functools.partial(build, stage, None), stage, rd))
            for v, mname in manifest_mutants(f"engine.{stage}", rid, individual, names, vs[0]):
                out.append(Check("engine", rid, v, mname, clauses, functools.partial(build, stage, mname), stage))
    return out

