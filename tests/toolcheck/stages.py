"""The tools checks, by stage, and the first counterexample of a configuration (:func:`tools_failure`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from tests.steered.kinds import MatchMismatch

from tarneeb.core.spec import OptionValue, Rules, load_rules
from tarneeb_proofs.encode import Encoding
from tarneeb_proofs.obligations import ENGINE_CPU_S, EngineHang, engine_cpu_limit, hang_witness, raised_witness
from tarneeb_proofs.witness import Witness

from .corruption_check import corruption
from .failure import Failure
from .records import RecordBank, Recorded
from .referee import referee
from .vectors import vectors
from .verify_clean import fast_clean, replay_clean

STAGES = ("verify-fast", "verify-replay", "vectors", "referee", "corruption")
# the clauses a tools check may cite where the code under check raised instead of answering (those the ruleset has)
CLAUSES = ("deal.first-dealer", "deal.rotation", "redeal.dealer", "deal.deck", "deal.weak-redeal", "trump.source",
           "bid.turn", "bid.no-pass", "bid.range", "bid.total", "auction.order", "auction.range", "auction.raise",
           "auction.dealer-privilege", "auction.continuous", "auction.all-pass", "auction.egyptian", "play.lead",
           "play.next-lead", "play.follow", "play.winner", "play.direction", "score.individual", "score.values",
           "score.standard", "score.bid-only", "score.kaboot", "score.bid13", "win.qualify", "win.target",
           "tie.both-qualify", "win.made-bid", "win.play-on", "hand.tricks")

Stage = Callable[[Rules, Encoding, Sequence[Recorded]], Failure | None]
RUN: Mapping[str, Stage] = MappingProxyType({
    "verify-fast": lambda rules, enc, recs: fast_clean(rules, recs),
    "verify-replay": lambda rules, enc, recs: replay_clean(rules, recs),
    "vectors": lambda rules, enc, recs: vectors(rules, recs),
    "referee": lambda rules, enc, recs: referee(rules, recs),
    "corruption": corruption,
})
WHAT: Mapping[str, str] = MappingProxyType({
    "verify-fast": "the fast path takes every line of clean records; verify reports nothing",
    "verify-replay": "the replay reports nothing on clean records",
    "vectors": "the vector reference equals the engine on states of the matches",
    "referee": "the referee rules as the engine played",
    "corruption": "every single-field corruption is reported as the table says, and nothing on correct lines",
})


def tools_failure(rid: str, options: Mapping[str, OptionValue], stages: Sequence[str] = STAGES,
                  bank: RecordBank | None = None) -> Witness | None:
    """The first counterexample of the tools ``stages`` under ``rid`` with ``options``, on the live code (a test
    patches a mutant in around it), or None. The records come from ``bank`` (a fresh one when None: an engine
    mutant changes the matches themselves). Where the engine disagrees with the encoding on the steered matches, the
    match's counterexample; where the code under check raises, or runs past ``ENGINE_CPU_S`` of CPU, a witness
    naming the innermost function of the package that raised, or the hang (as ``tarneeb prove`` did)."""
    rules = load_rules(rid, dict(options))
    clauses = [c for c in CLAUSES if c in rules.ruleset.clauses]
    enc = Encoding(rules)
    bank = bank if bank is not None else RecordBank()
    for stage in stages:
        name = f"tools {stage}: {WHAT[stage]}"
        try:
            with engine_cpu_limit(ENGINE_CPU_S):
                bad = RUN[stage](rules, enc, bank.get(rid, rules.options))
        except MatchMismatch as e:  # the engine itself is wrong there: the steered match's counterexample
            return e.cx.witness(rules)
        except EngineHang:
            return hang_witness(name, ENGINE_CPU_S)
        except Exception as e:  # noqa: BLE001 - the code under check raised where it should answer
            return raised_witness(name, e, clauses)
        if bad is not None:
            return bad.witness(rules)
    return None
