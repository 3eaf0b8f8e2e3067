"""Test support: the tools that check other engines take every rule from the proved core (**bounded**: a test over
the matches recorded, not a proof; formerly family 9, ``tools``, of ``tarneeb prove``).

The tools are run on records of whole matches (:mod:`tests.toolcheck.records`: the steered matches of
:mod:`tests.steered`, which reach every kind of transition of their coverage, and seeded self-play ones; written in
the record format of ``spec/records/README.md`` by :mod:`tarneeb.records.writer`) and compared with what the engine
(:class:`~tarneeb.core.match.Match`) did, with a table of the spec's clause ids written here, and with the encoding
(:mod:`tarneeb_proofs.encode`) for the outcome's clause. Stages (:mod:`tests.toolcheck.stages`), each run per
ruleset and option variant:

* ``verify-fast``: the verifier's fast path (:func:`tarneeb.records.fastpath.fast_hand`) alone takes every line of
  a clean record, and ``verify`` (fast path first) reports nothing (:mod:`tests.toolcheck.verify_clean`).
* ``verify-replay``: the step-by-step replay (``verify`` with the fast path off: every line through
  :class:`tarneeb.records.replay.HandReplay`) reports nothing on a clean record.
* ``vectors``: the conformance vectors' reference answers (:mod:`tarneeb.conformance.vector_ref`: play and bid
  legality, trick winners, the end of the bidding, scores, outcomes, deals, whole hands, runs of deals, perft
  counts) equal the engine's on states from those matches (:mod:`tests.toolcheck.vectors`).
* ``referee``: the referee (:func:`tarneeb.ruling.decision.decide`) answers who wins, the score, whether the deal
  is played, who deals next, who wins a trick and who leads as the engine played it (:mod:`tests.toolcheck.referee`).
* ``corruption``: every single-field corruption of a line (:data:`tests.toolcheck.corruptions.CORRUPTIONS`: the
  dealer, the deck, the revealed card, trump, a bid's seat, an illegal bid, a call on a deal thrown in for a weak
  hand, the redeal cause, the contract, a trick's leader, a revoke, a trick's winner, the tricks won, a score
  change, the running scores, the outcome's winner, clause and match end; the header's first dealer and start
  scores) is reported on that line, on the corrupted field, with the clause the table gives; every other divergence
  on that line follows from an earlier one, and the next line (a correct one) reports nothing. Both paths:
  ``verify`` with the fast path, and without (:mod:`tests.toolcheck.corruption_check`).

A failure is a counterexample (:class:`tests.toolcheck.failure.Failure`) naming the tool's function, the input
(ruleset, match and seed, line, what was changed), what the tool says and what the engine or the table says, and the
clause with its source. Imported by the tests only.
"""
