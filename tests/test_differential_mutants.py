"""The differential properties catch realistic boundary bugs in the engine (entries of ``tarneeb_proofs.mutants``).

Each mutant is a source edit of one function of ``tarneeb.core.rules`` with one slip (``>`` for ``>=``, a partner
at exactly 0, a tie to team 0, kaboot left out, the redeal dealer swapped, ...), applied in this process with
``mutants.applied``; the named property, run with its own strategies (derandomized, no shrinking, at most 500
examples), must fail. The same entries are the ``tarneeb prove`` engine family's mutants (their ``stage``).

Measured with the CI profile (when these bugs were function replacements in
``tests/engine_mutants.py``, named here by their catalogue ids), which tests failed under each mutant:

==================================  ===========================================  ======================================
mutant                              earlier suite (fixed seed, 25-60 examples)   these properties (500 examples)
==================================  ===========================================  ======================================
engine-hand-played-strict           none                                         bids_and_redeal, stateful
engine-partner-at-zero              outcome                                      individual_outcome
engine-tie-to-team-0                none                                         individual_outcome
engine-auction-tie-to-team-0        none                                         auction_outcome, stateful
engine-auction-target-strict        none                                         auction_outcome, stateful
engine-kaboot-ignored               scoring                                      team_scoring, stateful
engine-redeal-dealer-swapped        bids_and_redeal                              bids_and_redeal, stateful
engine-rising-min-strict            none                                         bids_and_redeal, stateful
engine-play-on-late                 none                                         auction_outcome, stateful
engine-made-exactly-fails           scoring, stateful                            individual_scoring, stateful
engine-bid13-twelve                 none                                         team_scoring, stateful
engine-must-trump-ignored           none                                         legal_play, trick_relation, stateful
engine-lower-trump-overtakes-last   legal_play_and_winner, trick_rel., stateful  trick_winner, trick_relation, stateful
engine-dealer-may-not-match         auction_call_by_call, stateful               auction_call_by_call, stateful
engine-dealer-may-pass-forced       auction_call_by_call                         auction_call_by_call, stateful
engine-continuous-ends-early        auction_call_by_call                         auction_call_by_call, stateful
==================================  ===========================================  ======================================
(``engine-lower-trump-overtakes-last`` is now the fourth card only: a trump played last always wins.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from tests import test_differential as D
from tests import test_differential_auction as A
from tests.test_differential_stateful import MatchMachine

from tarneeb_proofs.mutants import MUTANTS, applied

FAST = settings(max_examples=500, derandomize=True, database=None, phases=[Phase.generate], deadline=None,
                suppress_health_check=list(HealthCheck))

CAUGHT_BY: dict[str, Callable[..., Any]] = {
    "engine-hand-played-strict": D.test_bids_and_redeal,
    "engine-partner-at-zero": D.test_individual_outcome,
    "engine-tie-to-team-0": D.test_individual_outcome,
    "engine-auction-tie-to-team-0": D.test_auction_outcome,
    "engine-auction-target-strict": D.test_auction_outcome,
    "engine-kaboot-ignored": D.test_team_scoring,
    "engine-redeal-dealer-swapped": D.test_bids_and_redeal,
    "engine-rising-min-strict": D.test_bids_and_redeal,
    "engine-play-on-late": D.test_auction_outcome,
    "engine-made-exactly-fails": D.test_individual_scoring,
    "engine-bid13-twelve": D.test_team_scoring,
    "engine-must-trump-ignored": D.test_legal_play,
    "engine-lower-trump-overtakes-last": D.test_trick_winner,
    "engine-dealer-may-not-match": A.test_auction_call_by_call,
    "engine-dealer-may-pass-forced": A.test_auction_call_by_call,
    "engine-continuous-ends-early": A.test_auction_call_by_call,
}
#: the stateful test catches these too, in whole matches (a partner at exactly 0 after a scored hand is too rare
#: there: test_individual_outcome covers it)
STATEFUL = ["engine-hand-played-strict", "engine-redeal-dealer-swapped", "engine-play-on-late",
            "engine-lower-trump-overtakes-last", "engine-dealer-may-pass-forced", "engine-must-trump-ignored",
            "engine-kaboot-ignored"]


def test_every_mutant_has_a_property() -> None:
    assert set(CAUGHT_BY) <= set(MUTANTS) and set(STATEFUL) <= set(CAUGHT_BY)


@pytest.mark.parametrize("name", sorted(CAUGHT_BY))
def test_property_catches_mutant(name: str) -> None:
    inner = CAUGHT_BY[name].hypothesis.inner_test  # type: ignore[attr-defined]
    prop = FAST(given(st.data())(inner))
    with applied(name), pytest.raises(AssertionError):
        prop()


@pytest.mark.parametrize("name", STATEFUL)
def test_stateful_catches_mutant(name: str) -> None:
    with applied(name), pytest.raises(AssertionError):
        run_state_machine_as_test(MatchMachine, settings=settings(FAST, stateful_step_count=8))
