"""The steered matches of a configuration: one run per option variant, each step compared with the encoding, then
the variant's coverage; the finished matches for the tests of the tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from tarneeb.core.match import Match
from tarneeb.core.spec import Rules, load_rules
from tarneeb.errors import ConfigError
from tarneeb_proofs.encode import Encoding
from tarneeb_proofs.obligations import ENGINE_CPU_S, EngineHang, engine_cpu_limit

from .driver import Driver
from .expected import Expected
from .kinds import KIND, KIND_IDS, Bad, Counterexample, MatchMismatch, PlanError, cite, not_applicable
from .scenarios import ScenarioFn, Start, scenarios
from .terms import Lemma, TermCache, lemmas
from .variants import variant_label, variants


@dataclass
class SteerVariant:
    """The scenarios of one option variant, every step compared with the encoding, then the coverage.

    ``scenarios`` builds the scenarios (a test gives fewer to see a transition never reached fail); ``cache``
    shares the encoding's built terms with other variants (a fresh one when None)."""

    rules: Rules
    label: str
    seed: int = 0
    scenarios: ScenarioFn = scenarios
    cache: TermCache | None = None
    points: int = 0
    coverage: dict[str, int] = field(default_factory=dict)
    scenario_names: list[str] = field(default_factory=list)

    def run(self) -> Counterexample | None:
        """The first counterexample of the variant: a step where the engine disagrees with the encoding, a raise or
        a hang of the engine (past ``ENGINE_CPU_S`` of CPU), a scenario that cannot be built, or a transition that
        can occur under the variant and was never reached; None when every step agrees and every one was reached."""
        rules = self.rules
        ex = Expected(Encoding(rules), self.cache)
        drv = Driver(rules, ex, self.label, self.seed)
        names = self.scenario_names = []
        try:
            with engine_cpu_limit(ENGINE_CPU_S):
                drv.starts()
                for sc in self.scenarios(rules, ex):
                    names.append(sc.name)
                    drv.run(sc)
        except Bad as b:
            self.points = drv.points
            return b.cx
        except PlanError as e:  # the steering could not steer here (a house ruleset it was not written for): a failure
            return Counterexample(f"steering: the scenario '{names[-1] if names else '?'}' cannot be built under "
                                  f"{rules.ruleset.id}/{self.label}", drv.where(), "no match steered", str(e), "hand.tricks")
        except EngineHang:
            return Counterexample(f"the engine did not finish within {ENGINE_CPU_S:.0f} s of CPU: a loop that never "
                                  "ends?", drv.where(), "no answer", "an answer", "hand.tricks")
        except Exception as e:  # noqa: BLE001 - the engine raised while the driver read its state: a counterexample
            self.points = drv.points
            return Counterexample(f"the engine raised {type(e).__name__} while its state was read", drv.where(),
                                  f"{type(e).__name__}: {e}", "no exception", "hand.tricks")
        self.points = drv.points
        self.coverage = {k: drv.cov.get(k, 0) for k in KIND_IDS}
        return self.gap()

    def gap(self) -> Counterexample | None:
        """The first kind of transition that can occur under the variant and that its run never reached."""
        rules = self.rules
        for k in KIND_IDS:
            if not_applicable(k, rules) is None and self.coverage.get(k, 0) == 0:
                return Counterexample(f"transition {k} ({KIND[k].text}) never reached under {rules.ruleset.id}/{self.label}",
                                      f"{rules.ruleset.id} [{self.label}], scenarios: " + "; ".join(self.scenario_names),
                                      "0 times", "can occur under this variant (not n/a)", cite(rules, *KIND[k].clauses))
        return None

    def coverage_text(self) -> str:
        """The variant's coverage in one line: each kind's count, or n/a with the reason."""
        cells = []
        for k in KIND_IDS:
            why = not_applicable(k, self.rules)
            cells.append(f"{k}=n/a ({why})" if why is not None else f"{k}={self.coverage.get(k, 0)}")
        return f"{self.rules.ruleset.id} [{self.label}], {self.points} steps: " + ", ".join(cells)


def variant_runs(rules: Rules, seed: int = 0, cache: TermCache | None = None) -> list[SteerVariant]:
    """One :class:`SteerVariant` per option variant of ``rules``'s ruleset (:func:`tests.steered.variants.variants`,
    from ``rules``'s options)."""
    rs = rules.ruleset
    out = []
    for opts in variants(rs, rules.option_map):
        try:
            rv = load_rules(rs, opts)
        except ConfigError:
            continue  # a combination the engine refuses to load is no variant
        out.append(SteerVariant(rv, variant_label(rs, opts), seed, cache=cache))
    return out


def run_rules(rules: Rules, seed: int = 0, cache: TermCache | None = None
              ) -> tuple[Counterexample | None, list[SteerVariant]]:
    """Every variant of ``rules``'s ruleset, stopping at the first counterexample."""
    runs = variant_runs(rules, seed, cache)
    for v in runs:
        bad = v.run()
        if bad is not None:
            return bad, runs
    return None, runs


def variant_lemmas(rules: Rules) -> list[Lemma]:
    """The reductions the encoding is read through (:func:`tests.steered.terms.lemmas`), for the encoding of every
    variant of ``rules``'s ruleset, each distinct formula once."""
    out: list[Lemma] = []
    seen: set[tuple[int, ...]] = set()
    for v in variant_runs(rules):
        for name, hyp, claim in lemmas(Encoding(v.rules)):
            key = (claim.get_id(), *(h.get_id() for h in hyp))
            if key not in seen:
                seen.add(key)
                out.append((f"{name} ({v.label})", hyp, claim))
    return out


class Steered(NamedTuple):
    """A finished steered match: the scenario's name, where it started (``Match.at``) and the match itself (its
    ``records`` and ``history`` hold every deal, all complete)."""

    scenario: str
    start: Start
    match: Match


def steered_matches(rules: Rules, seed: int = 0, cache: TermCache | None = None) -> list[Steered]:
    """The steered matches under ``rules`` (one configuration), each checked step by step. Every match ends at a
    deal boundary (waiting for a deal, or over), so its records are complete; rebuild one with
    ``Match.at(rules, *start)`` and ``match.history``. Raises :class:`tests.steered.kinds.MatchMismatch` when the
    engine disagrees with the encoding."""
    ex = Expected(Encoding(rules), cache)
    drv = Driver(rules, ex, variant_label(rules.ruleset, rules.option_map), seed)
    out = []
    for sc in scenarios(rules, ex):
        try:
            m = drv.run(sc)
        except Bad as b:
            raise MatchMismatch(b.cx) from None
        out.append(Steered(sc.name, sc.start, m))
    return out
