"""What one run of ``tarneeb prove`` keeps in one process: what it has proved so far, and the caches that make a
later check of the run cheaper.

A :class:`Session` is made once per run in each process that runs checks (:func:`tarneeb_proofs.obligations.run_all`:
one in the running process, or one per worker process with ``--jobs``) and handed along: to
:func:`~tarneeb_proofs.obligations.run_check`, to each obligation that runs engine code
(:attr:`~tarneeb_proofs.obligations.Obligation.run`), to the targets those prove. The package keeps no state of its
own between checks: two sessions in one process share nothing, so a test makes a new one for a new run.

What a session remembers, each kept for the rest of the run:

* :attr:`Session.memo`: the engine family's builders and the transition's targets proved, by the engine code and
  the values of the rule fields their proofs read (:class:`Memo`);
* :attr:`Session.shared_proved`: the formula keys of the shared obligations proved under the true rules (a later
  check with the same formula counts it as shared, not proved again), and :attr:`Session.formula_keys`, the
  keys already computed, by the terms' ids;
* :attr:`Session.lemmas`: the summaries' lemmas decided (:meth:`Session.lemma_holds`);
* :attr:`Session.simplified`: the simplified forms of the terms the symbolic executions built, by AST id (the
  explorations of one function, of its cases and of the next checks build many of the same terms);
* :attr:`Session.compiled`: the encodings' term sets compiled for concrete evaluation
  (:class:`~tarneeb_proofs.evaluate.Compiled`), in force while a check runs;
* :attr:`Session.cache`: the cache folder of proofs across runs, with the digests of the prover's and the
  engine's code computed so far (:class:`~tarneeb_proofs.cache.ProofCache`).

It also holds what the obligations of the check running now report beside their verdict (:meth:`Session.report`),
which :func:`~tarneeb_proofs.obligations.run_check` puts in the check's result.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import z3

from tarneeb.compiled import require_pure
from tarneeb.core.spec import Rules

from .cache import ProofCache
from .evaluate import Compiled, compiling

Term = Any  # a z3 expression


def _same_value(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - incomparable: not the same
        return False


class Memo:
    """Builders already proved in this process: (stage, fns, engine fingerprint) -> the rule fields they read, with
    the values, and what they found. A configuration with the same values of those fields gets the same proof (the
    code that ran read nothing else of the rules)."""

    def __init__(self) -> None:
        self._done: dict[tuple[Any, ...], list[tuple[dict[str, Any], list[dict[str, Any]]]]] = {}

    def get(self, key: tuple[Any, ...], rules: Rules) -> list[dict[str, Any]] | None:
        """What a proof of ``key`` found, when one was made under rule values equal to ``rules``' (None if not)."""
        for seen, facts in self._done.get(key, []):
            if all(_same_value(getattr(rules, k), v) for k, v in seen.items()):
                return facts
        return None

    def put(self, key: tuple[Any, ...], seen: dict[str, Any], facts: list[dict[str, Any]]) -> None:
        """Remember a proof of ``key`` that read the rule fields ``seen`` (with their values) and found ``facts``."""
        self._done.setdefault(key, []).append((dict(seen), facts))


class Session:
    """The state of one run of the proofs in one process (see the module docstring); made empty."""

    def __init__(self) -> None:
        require_pure("the proofs")  # they execute the engine's source on symbolic values and digest its code
        self.memo = Memo()
        self.shared_proved: set[str] = set()  # formula keys of shared obligations proved in this run
        self.formula_keys: dict[tuple[tuple[int, ...], int], tuple[str, list[Term]]] = {}  # AST ids -> (key, terms)
        self.lemmas: dict[tuple[int, ...], tuple[list[Term], bool]] = {}  # AST ids -> (the terms kept alive, holds)
        self.simplified: dict[int, tuple[Term, Term]] = {}  # AST id -> (term, simplified), for every exploration
        self.compiled = Compiled()  # the encodings' evaluators compiled, by term
        self.cache = ProofCache()  # the cache folder, with the digests of the code computed in this run
        self._reports: dict[str, list[Any]] = {}  # what the obligations of the running check reported

    # ------------------------------------------------------------------ the running check
    @contextmanager
    def running(self) -> Iterator[dict[str, list[Any]]]:
        """While one check runs: the reports of its obligations (:meth:`report`) go to the dict given, and the
        encodings' evaluators compile into :attr:`compiled`."""
        reports: dict[str, list[Any]] = {}
        self._reports = reports
        try:
            with compiling(self.compiled):
                yield reports
        finally:
            self._reports = {}

    def report(self, key: str, item: Any) -> None:
        """Add ``item`` (plain, picklable data) to the list ``key`` of the running check's
        :attr:`~tarneeb_proofs.obligations.Result.data`."""
        self._reports.setdefault(key, []).append(item)

    # ------------------------------------------------------------------ facts decided once per run
    def lemma_holds(self, hyp: Sequence[Term], claim: Term) -> bool:
        """Whether ``hyp`` implies ``claim`` (Z3 finds no counterexample within a minute); decided once per run for
        the same terms."""
        key = (*[h.get_id() for h in hyp], claim.get_id())
        hit = self.lemmas.get(key)
        if hit is None:
            s = z3.Solver()
            s.set("timeout", 60_000)
            s.add(*hyp)
            s.add(z3.Not(claim))
            hit = self.lemmas[key] = ([*hyp, claim], s.check() == z3.unsat)
        return hit[1]


__all__ = ["Memo", "Session"]
