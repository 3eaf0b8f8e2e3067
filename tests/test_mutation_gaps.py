"""Gaps the mutation run (tools/mutation.py, proofs/MUTATION.md) found in the tests of the rule code.

Each test names the surviving mutant it kills; it is the first file of the mutation kill command.
"""

from __future__ import annotations

import pytest

from tarneeb.core import rules as R
from tarneeb.core.actions import Bid, Deal
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import load_rules


def test_bid_key_orders_a_pass_below_every_bid_as_documented() -> None:
    # rules.bid_key: "a pass is -1" (mutant: a pass keyed 0). Callers outside the engine (tests/strategies.py, the
    # auction differential test) rely on the documented -1 for "no top bid yet".
    assert R.bid_key(None, None) == -1
    assert R.bid_key(None, 3) == -1
    keys = [R.bid_key(n, s) for n in range(1, 14) for s in (None, 0, 1, 2, 3, 4)]
    assert all(R.bid_key(None, None) < k for k in keys)
    # more tricks first, then the strain C < D < H < S < no trump
    assert R.bid_key(7, 4) < R.bid_key(8, 0) and R.bid_key(7, 0) < R.bid_key(7, 1) < R.bid_key(7, 4)
    assert R.bid_key(7, None) == R.bid_key(7, 0)


@pytest.mark.parametrize("rid", ["bsfyi-41", "classic"])
def test_trump_from_reveal_refuses_a_source_without_a_revealed_card(rid: str) -> None:
    # rules.trump_from_reveal under trump.source "fixed" (bsfyi-41) or "contract" (classic): no card is revealed, so
    # the function must refuse (mutant: `==` -> `<=` sends "contract" and "fixed" to the same-colour branch).
    r = load_rules(rid)
    assert r.trump_source in ("fixed", "contract")
    with pytest.raises(ValueError, match="does not use a revealed card"):
        R.trump_from_reveal(r, 0)


def test_auction_holder_is_minus_one_until_the_first_bid() -> None:
    # hand.Auction.holder defaults to -1 ("no holder"), which Match.auction_holder shows (mutant: default 0, i.e.
    # seat 0 holds a bid nobody made). Rule results do not read it before a bid; the public property does.
    m = Match(load_rules("classic"), first_dealer=1)
    m.apply(Deal(tuple(range(52))))
    assert m.phase is Phase.BIDDING and m.auction_holder == -1
    seat = m.to_move
    bid = next(a for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None)
    m.apply(bid)
    assert m.auction_holder == seat
