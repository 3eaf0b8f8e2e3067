"""The registry of checks: every invariant family x ruleset x option variant, and the mutants each must catch.

The top of the proof layers: it imports the families (:mod:`tarneeb_proofs.play_families`,
:mod:`tarneeb_proofs.bid_families`, :mod:`tarneeb_proofs.families`, :mod:`tarneeb_proofs.references`,
:mod:`tarneeb_proofs.engine_family`), none of which imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tarneeb.core.spec import OptionValue, get_ruleset, rulesets
from tarneeb.errors import ConfigError

from .bid_families import _bids_auction, _bids_individual
from .encode import Encoding
from .engine_family import engine_checks
from .evaluate import compiling
from .families import (
    _config_auction,
    _config_individual,
    _config_scoring,
    _outcome_auction,
    _outcome_individual,
    _scoring_auction,
    _scoring_individual,
)
from .invariants import invariant_checks
from .obligations import Check, Obligation, reading_variants, variants
from .play_families import _follow, _tricks
from .references import reference_checks
from .transition_family import transition_checks

INVARIANTS = ("tricks", "follow", "bids", "scoring", "outcome", "config", "references", "engine", "transition",
              "invariants")
INVARIANT_TITLES: Mapping[str, str] = {
    "tricks": "1. a hand is 13 tricks",
    "follow": "2. legal follow-suit and trick winner",
    "bids": "3. bids and the redeal",
    "scoring": "4. scoring tables",
    "outcome": "5. win qualification and ties",
    "config": "6. configuration soundness",
    "references": "7. the documents' worked examples (encoding and engine)",
    "engine": "8. the engine's rule functions equal the encodings (tarneeb_proofs.bridge)",
    "transition": "9. the engine's transition equals the specification's, for every state and action",
    "invariants": "10. the design's invariants, inductive on the specification's transition",
}




# ====================================================================== registry
PLAY_OPTIONS = ("direction", "must_trump", "egyptian", "trump_source")
BID_OPTIONS_IND = ("rising_min_bid", "bid_total_min")
AUCTION_OPTIONS = ("auction", "all_pass", "egyptian", "min_bid", "direction")
SCORING_OPTIONS = ("scoring", "kaboot", "bid13", "min_bid")
OUTCOME_OPTIONS_IND = ("target", "made_bid_wins")
OUTCOME_OPTIONS_AUC = ("target",)

# mutants per (family, family kind): (mutant, option variant it applies to or None for the first variant)
MUTANT_PLAN: Mapping[tuple[str, bool], Sequence[tuple[str, Mapping[str, OptionValue]]]] = {
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
EXTRA_MUTANTS: Mapping[str, Sequence[tuple[str, str, Mapping[str, OptionValue]]]] = {
    # ruleset -> (family, mutant, options)
    "card-kings-41": [("bids", "excluded-bid-allowed", {})],
    "tarneeb-400": [("bids", "rising-min-ignored", {}), ("bids", "rising-min-early", {})],
    "bsfyi-41": [("bids", "rising-min-ignored", {"rising_min_bid": True}),
                 ("bids", "rising-min-early", {"rising_min_bid": True})],
    "classic": [("config", "passed-may-reenter", {"auction": "continuous"}),
                ("config", "defenders-score-on-made", {})],
}

CLAUSES: Mapping[str, tuple[str, ...]] = {
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
    """Every check of ``tarneeb prove``: the families 1-6 of each built-in ruleset, the documents' examples, the
    engine, the transition and the design's invariants (the encodings' evaluators compiled once per term for all)."""
    out: list[Check] = []
    with compiling():
        for rid in rulesets():
            out += family_checks(rid)
        out += reference_checks()
        return out + engine_checks() + transition_checks() + invariant_checks()


def ruleset_checks(ref: str) -> list[Check]:
    """Every check of families 1-6 and 8 for one ruleset, also a ruleset file (``tarneeb prove --ruleset FILE``).

    A house ruleset gets the mutants of its family kind (not its base's own extra mutants: the file may have
    changed what they break); family 7 (the documents' worked examples) concerns the built-ins only.
    """
    rs = get_ruleset(ref)
    if rs.id in rulesets():
        return [c for c in all_checks() if c.ruleset == rs.id and c.invariant != "references"]
    with compiling():
        return (family_checks(rs.name_ref) + engine_checks([rs.name_ref]) + transition_checks([rs.name_ref])
                + invariant_checks([rs.name_ref]))


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
            if inv == "scoring":  # the table under each selectable reading of the register, where it matters
                for v, rd in reading_variants(rid, vs):
                    out.append(Check(inv, rid, v, None, clauses, build, stage, rd))
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
    """The checks of ``ruleset`` and ``invariant`` (each None: all)."""
    return [c for c in checks if (ruleset is None or c.ruleset == ruleset)
            and (invariant is None or c.invariant == invariant)]


