"""Differential tests: the engine's rule functions against the Z3 encodings on the same concrete inputs."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarneeb.conformance.examples import load_examples
from tarneeb.core import rules as R
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb_proofs.encode import Encoding

RULESETS = list(rulesets())
INDIVIDUAL = [r for r in RULESETS if rulesets()[r].params.get("family") == "individual"]


@cache
def enc_for(rid: str, opts: tuple[tuple[str, object], ...] = ()) -> tuple[Rules, Encoding]:
    r = load_rules(rid, dict(opts))
    return r, Encoding(r)


def option_sets(rid: str) -> st.SearchStrategy[tuple[tuple[str, object], ...]]:
    rs = rulesets()[rid]
    parts = []
    for o in rs.options:
        vals = list(o.allowed) if o.allowed else [o.range[0], o.range[1]] if o.range else [o.default]
        parts.append(st.tuples(st.just(o.name), st.sampled_from(vals)))
    return st.tuples(*parts) if parts else st.just(())


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_legal_play_and_winner(data: st.DataObject) -> None:
    rid = data.draw(st.sampled_from(RULESETS))
    r, e = enc_for(rid, data.draw(option_sets(rid)))
    cards = data.draw(st.permutations(range(52)))
    hand = 0
    for c in cards[: data.draw(st.integers(1, 13))]:
        hand |= 1 << c
    led = data.draw(st.integers(-1, 3))
    trump = data.draw(st.integers(0, 4))
    assert e.eval_legal_mask(hand, led, trump) == R.legal_play_mask(r, hand, led, trump)
    trick = list(cards[20:24])
    assert e.eval_trick_winner(trick, trump) == R.trick_winner(trick, trump)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_bids_and_redeal(data: st.DataObject) -> None:
    rid = data.draw(st.sampled_from(INDIVIDUAL))
    r, e = enc_for(rid, data.draw(option_sets(rid)))
    score = data.draw(st.integers(-200, 200))
    assert e.eval_legal_bids(score) == R.legal_bids(r, score)
    bids = data.draw(st.lists(st.integers(2, 13), min_size=4, max_size=4))
    assert e.eval_hand_played(bids) == R.hand_is_played(r, bids)
    dealer = data.draw(st.integers(0, 3))
    assert e.eval_dealer_after_redeal(dealer) == R.dealer_after_redeal(r, dealer)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_scoring(data: st.DataObject) -> None:
    rid = data.draw(st.sampled_from(RULESETS))
    r, e = enc_for(rid, data.draw(option_sets(rid)))
    if r.individual:
        bid = data.draw(st.sampled_from(R.legal_bids(r, 0)))
        tricks = data.draw(st.integers(0, 13))
        assert e.eval_individual_delta(bid, tricks) == R.individual_delta(r, bid, tricks)
    else:
        c = data.draw(st.integers(r.min_bid, 13))
        bt = data.draw(st.integers(0, 1))
        tb = data.draw(st.integers(0, 13))
        tt = (tb, 13 - tb) if bt == 0 else (13 - tb, tb)
        assert e.eval_team_deltas(c, bt, tt) == R.team_deltas(r, c, bt, tt)
        assert e.eval_bid13_wins(c, tb) == R.bid13_wins(r, c, tb)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_outcome(data: st.DataObject) -> None:
    rid = data.draw(st.sampled_from(RULESETS))
    r, e = enc_for(rid, data.draw(option_sets(rid)))
    if r.individual:
        scores = data.draw(st.lists(st.integers(-100, 120), min_size=4, max_size=4))
        bids = data.draw(st.lists(st.sampled_from(R.legal_bids(r, 0)), min_size=4, max_size=4))
        cut = sorted(data.draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
        tricks = [cut[0], cut[1] - cut[0], cut[2] - cut[1], 13 - cut[2]]
        assert e.eval_individual_outcome(scores, bids, tricks) == R.individual_outcome(r, scores, bids, tricks)
        assert e.eval_individual_outcome(scores) == R.individual_outcome(r, scores)
    else:
        s = (data.draw(st.integers(-100, 200)), data.draw(st.integers(-100, 200)))
        target = data.draw(st.sampled_from([r.target, R.target_in_force(r, 1)]))
        bt = data.draw(st.integers(0, 1))
        b13 = data.draw(st.booleans())
        assert e.eval_auction_outcome(s, target, bt, b13) == R.auction_outcome(r, s, target, bt, b13)
        g = data.draw(st.integers(0, 3))
        assert e.eval_target_in_force(g) == R.target_in_force(r, g)


EXAMPLE_KINDS = ("value", "hand-score", "bid-legal", "outcome", "team-score", "target")


@pytest.mark.parametrize("ex", [x for x in load_examples() if x.kind in EXAMPLE_KINDS], ids=lambda x: x.id)
def test_examples_against_encodings(ex: object) -> None:
    from tarneeb.conformance.examples import Example

    assert isinstance(ex, Example)
    r = load_rules(ex.ruleset, ex.options)
    e = Encoding(r)
    inp, want = ex.input, ex.expect
    if ex.kind == "value":
        assert e.eval_individual_delta(inp["bid"], inp["bid"]) == want["value"]
    elif ex.kind == "hand-score":
        assert e.eval_hand_played(inp["bids"]) == want["played"]
        if "deltas" in want:
            got = [e.eval_individual_delta(b, t) for b, t in zip(inp["bids"], inp["tricks"], strict=True)]
            assert got == want["deltas"]
    elif ex.kind == "bid-legal":
        legal = inp["bid"] != "pass" and int(inp["bid"]) in e.eval_legal_bids(inp["score"])
        assert legal == want["legal"]
    elif ex.kind == "outcome":
        if r.individual:
            w, rule = e.eval_individual_outcome(inp["scores"], inp.get("bids"), inp.get("tricks"))
        else:
            s = inp["scores"]
            w, rule = e.eval_auction_outcome((s[0], s[1]), r.target, inp["bidding_team"], False)
        assert ("none" if w is None else w) == want["winner"]
        if "rule" in want:
            assert rule == want["rule"]
    elif ex.kind == "team-score":
        tt = (inp["team_tricks"][0], inp["team_tricks"][1])
        assert list(e.eval_team_deltas(inp["contract"], inp["bidding_team"], tt)) == want["deltas"]
        if "game_won" in want:
            assert e.eval_bid13_wins(inp["contract"], tt[inp["bidding_team"]]) == want["game_won"]
    elif ex.kind == "target":
        assert e.eval_target_in_force(inp["games_won"]) == want["target"]
