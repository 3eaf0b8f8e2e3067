"""Test support: the match machine steered through every kind of transition (**bounded**: a test, not a proof).

A driver (:class:`tests.steered.driver.Driver`) builds matches through ``Match.at`` and applies actions chosen on
purpose (:mod:`tests.steered.scenarios`, :mod:`tests.steered.plan`), comparing the engine's state machine
(:class:`tarneeb.core.match.Match`, with the steps of :mod:`tarneeb.core.hand`) with the encodings
(:class:`tarneeb_proofs.encode.Encoding`, read through :class:`tarneeb_proofs.evaluate.Ev`; :mod:`tests.steered.expected`)
at every step, and counts the kinds of transition it reached (:mod:`tests.steered.kinds`). Under every option variant
of every ruleset (:mod:`tests.steered.variants`) the scenarios reach: a deal cancelled by the bid total (below the
threshold; played at and above it), all-pass in each all-pass mode, the weak-hand redeal, 1, 2 and 3 cancelled deals
in a row (each cause, and mixed causes), the made-bid win, a bid of 13 made and failed, kaboot for each side, play on
at each target, each tie rule (both teams qualifying, level and not), the match's end.

**Compared at every step** with values the encoding gives (never :mod:`tarneeb.core.rules` or ``hand``): the hands
dealt (deal.order), the weak-hand test, the trump, the seat to move, its whole legal set (play: every card by
``legal_mask``; individual bidding: ``legal_bid`` for 0..14 and a pass; the auction: ``call_ok`` for every call
from the encoded auction state advanced by ``auction_step``; the trump named: ``trump_ok``), that the action taken
is accepted and that illegal ones are refused (every illegal held card, a card not held, every illegal bid, the
illegal calls near the top bid), the contract, the cause of a cancellation (``weak_hand``, ``hand_played``,
all-pass), the next dealer by cause (``next_seat`` / ``dealer_after_redeal``), the first leader
(``first_leader``), each trick's winner seat, the tricks won, the score changes, the scores carried, each
outcome, the target in force (``target_in_force``, play on), the games won and that the match is over exactly when
decided. A disagreement is a :class:`tests.steered.kinds.Counterexample` naming the transition, the input (the start,
the deal and its deck, the bids, the trick), what the engine gives, what the encoding gives and the clause.

**Coverage.** Each variant counts every kind of transition it reached (:data:`tests.steered.kinds.KINDS`); a zero
where the transition can occur under that variant is a counterexample ("transition X never reached under
ruleset/variant"); a kind that cannot occur there is "n/a" with the reason (:func:`tests.steered.kinds.not_applicable`).

**Reductions used to read the encoding quickly** (:func:`tests.steered.terms.lemmas`, proved in Z3 by
``tests/test_match_steered.py``): the legal set of a hand is the hand masked by the legal set of the hand with its
suits filled up; the trick winner depends only on the suits and the order of the four cards; a hand is weak iff each
of its cards alone is.

:func:`tests.steered.runs.steered_matches` gives the finished matches with their start states (for the tests of the
tools that check records, :mod:`tests.toolcheck`). Imported by the tests only; formerly the ``match`` stage of
``tarneeb prove``'s engine family (``tarneeb_proofs.match_stage``).
"""
