"""Differential tests: the engine's rule functions against the Z3 encodings on the same concrete inputs.

Inputs come from the boundary-biased strategies of ``tests/strategies.py``, over every ruleset and the
option variants each rule depends on, at least 500 examples per property in CI (``volume``). The encoding's
answers are ``Encoding.eval_*``: its terms compiled once by the one evaluator (``tarneeb_proofs.evaluate.Ev``);
``test_evaluator_agrees_with_z3`` ties that evaluation to z3's own (``z3.simplify`` of the term at the point).
"""

from __future__ import annotations

from functools import cache
from typing import Any
from unittest.mock import patch

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import (
    Opts,
    bid_and_tricks,
    bids_with_total,
    configs,
    contract_and_tricks,
    play_situation,
    rules_of,
    scores,
    seat_scores,
    targets,
    team_score_pair,
    trick_split,
    tricks,
    volume,
)

from tarneeb.conformance.examples import load_examples
from tarneeb.core import rules as R
from tarneeb.core.spec import Rules, load_rules
from tarneeb_proofs.encode import Encoding
from tarneeb_proofs.evaluate import Ev, py_value

PLAY = configs("must_trump")
BIDS = [c for c in configs("rising_min_bid", "bid_total_min", "target") if rules_of(*c).individual]
INDIVIDUAL = [c for c in configs("made_bid_wins", "target") if rules_of(*c).individual]
TEAM_SCORE = [c for c in configs("scoring", "kaboot", "bid13") if not rules_of(*c).individual]
TEAM_OUTCOME = [c for c in configs("target", "play_on", "bid13") if not rules_of(*c).individual]


@cache
def fast(rid: str, opts: Opts = ()) -> tuple[Rules, Encoding]:
    r = rules_of(rid, opts)
    return r, Encoding(r)


@volume()
@given(st.data())
def test_legal_play(data: st.DataObject) -> None:
    """play.follow / play.must-trump: the legal cards of a hand, often void in the led suit."""
    r, f = fast(*data.draw(st.sampled_from(PLAY)))
    hand, led, trump = data.draw(play_situation())
    assert f.eval_legal_mask(hand, led, trump) == R.legal_play_mask(r, hand, led, trump)


@volume()
@given(st.data())
def test_trick_winner(data: st.DataObject) -> None:
    """play.winner: the winning card of four (the winner rule is the same in every ruleset)."""
    cards, trump = data.draw(tricks())
    _, f = fast("classic")
    assert f.eval_trick_winner(cards, trump) == R.trick_winner(cards, trump)


@volume()
@given(st.data())
def test_bids_and_redeal(data: st.DataObject) -> None:
    """bid.range / bid.rising-min at the thresholds, bid.total at total_min -1/0/+1, redeal.dealer."""
    r, f = fast(*data.draw(st.sampled_from(BIDS)))
    score = data.draw(scores(r))
    assert f.eval_legal_bids(score) == R.legal_bids(r, score)
    bids = data.draw(bids_with_total(r))
    before = [data.draw(scores(r)) for _ in range(4)]
    assert f.eval_hand_played(bids, before) == R.hand_is_played(r, bids, before)
    dealer = data.draw(st.integers(0, 3))
    assert f.eval_dealer_after_redeal(dealer) == R.dealer_after_redeal(r, dealer)


@volume()
@given(st.data())
def test_individual_scoring(data: st.DataObject) -> None:
    """score.individual / score.values: made exactly, one short, one over, none, all 13."""
    r, f = fast(*data.draw(st.sampled_from(INDIVIDUAL)))
    bid, taken = data.draw(bid_and_tricks(r))
    assert f.eval_individual_delta(bid, taken) == R.individual_delta(r, bid, taken)


@volume()
@given(st.data())
def test_team_scoring(data: st.DataObject) -> None:
    """score.standard / bid-only, score.kaboot, score.bid13: bid 13, kaboot either way, made by exactly 0/+-1."""
    r, f = fast(*data.draw(st.sampled_from(TEAM_SCORE)))
    c, bt, tb = data.draw(contract_and_tricks(r))
    tt = (tb, 13 - tb) if bt == 0 else (13 - tb, tb)
    assert f.eval_team_deltas(c, bt, tt) == R.team_deltas(r, c, bt, tt)
    assert f.eval_bid13_wins(c, tb) == R.bid13_wins(r, c, tb)


@volume()
@given(st.data())
def test_individual_outcome(data: st.DataObject) -> None:
    """win.qualify (partner at 0 / +-1, target +-1), tie.both-qualify (equal keys), win.made-bid."""
    r, f = fast(*data.draw(st.sampled_from(INDIVIDUAL)))
    s = data.draw(seat_scores(r))
    assert f.eval_individual_outcome(s) == R.individual_outcome(r, s)
    legal = R.legal_bids(r, 0)
    bid = st.sampled_from([r.made_bid_wins] * 3 + legal) if r.made_bid_wins else st.sampled_from(legal)
    bids = data.draw(st.lists(bid, min_size=4, max_size=4))
    taken = data.draw(trick_split())
    assert f.eval_individual_outcome(s, bids, taken) == R.individual_outcome(r, s, bids, taken)


@volume()
@given(st.data())
def test_auction_outcome(data: st.DataObject) -> None:
    """win.target at the target and the play-on target +-1, both teams over (tie), bid 13 won; win.play-on."""
    r, f = fast(*data.draw(st.sampled_from(TEAM_OUTCOME)))
    target = data.draw(st.sampled_from(targets(r)))
    s = data.draw(team_score_pair(r, target))
    bt = data.draw(st.integers(0, 1))
    b13 = data.draw(st.booleans())
    assert f.eval_auction_outcome(s, target, bt, b13) == R.auction_outcome(r, s, target, bt, b13)
    g = data.draw(st.integers(0, 3))
    assert f.eval_target_in_force(g) == R.target_in_force(r, g)


# ------------------------------------------------------------------ the evaluator gives z3's own values

def z3_value(xs: list[Any], outs: list[Any], vals: tuple[Any, ...]) -> tuple[Any, ...]:
    """The outputs at the point by z3 itself (substitute the point, simplify to a constant): the oracle."""
    pairs = [(x, z3.BitVecVal(v, x.size()) if z3.is_bv(x) else z3.BoolVal(bool(v)) if z3.is_bool(x)
              else z3.IntVal(v)) for x, v in zip(xs, vals, strict=True)]
    return tuple(py_value(z3.simplify(z3.substitute(o, *pairs))) for o in outs)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_evaluator_agrees_with_z3(data: st.DataObject) -> None:
    """Every evaluation ``Encoding.eval_*`` makes on boundary inputs, and every term it compiled at random
    inputs (negative integers, whole bit-vector ranges), gives what ``z3.simplify`` gives."""
    rid, opts = data.draw(st.sampled_from(PLAY + BIDS + TEAM_SCORE + TEAM_OUTCOME))
    r, e = fast(rid, opts)
    orig = Ev.__call__
    seen = 0

    def checked(self: Ev, *vals: Any) -> tuple[Any, ...]:
        nonlocal seen
        got = orig(self, *vals)
        assert got == z3_value(self.xs, self.outs, vals), (self.outs, vals)
        seen += 1
        return got

    with patch.object(Ev, "__call__", checked):
        hand, led, trump = data.draw(play_situation())
        e.eval_legal_mask(hand, led, trump)
        cards, tr = data.draw(tricks())
        e.eval_trick_winner(cards, tr)
        if r.individual:
            e.eval_legal_bids(data.draw(scores(r)))
            e.eval_hand_played(data.draw(bids_with_total(r)), data.draw(seat_scores(r)))
            e.eval_individual_outcome(data.draw(seat_scores(r)))
            e.eval_individual_delta(*data.draw(bid_and_tricks(r)))
        else:
            c, bt, tb = data.draw(contract_and_tricks(r))
            e.eval_team_deltas(c, bt, (tb, 13 - tb) if bt == 0 else (13 - tb, tb))
            target = data.draw(st.sampled_from(targets(r)))
            ts = data.draw(team_score_pair(r, target))
            e.eval_auction_outcome(ts, target, bt, True)
            e.eval_auction_outcome(ts, target, bt, False)
        for ev, _, _ in list(e._evs.values()):  # every term compiled so far, at random inputs
            ev(*[data.draw(st.integers(0, (1 << x.size()) - 1)) if z3.is_bv(x) else data.draw(st.booleans())
                 if z3.is_bool(x) else data.draw(st.integers(-70, 70)) for x in ev.xs])
    assert seen >= 6


EXAMPLE_KINDS = ("value", "hand-score", "bid-legal", "outcome", "team-score", "target")


@pytest.mark.parametrize("ex", [x for x in load_examples() if x.kind in EXAMPLE_KINDS], ids=lambda x: x.id)
def test_examples_against_encodings(ex: object) -> None:
    from tarneeb.conformance.examples import Example

    assert isinstance(ex, Example)
    rules = load_rules(ex.ruleset, ex.options)
    e = Encoding(rules)
    inp, want = ex.input, ex.expect
    if ex.kind == "value":
        assert e.eval_individual_delta(inp["bid"], inp["bid"]) == want["value"]
    elif ex.kind == "hand-score":
        assert e.eval_hand_played(inp["bids"], inp.get("scores", [0, 0, 0, 0])) == want["played"]
        if "deltas" in want:
            got = [e.eval_individual_delta(b, t) for b, t in zip(inp["bids"], inp["tricks"], strict=True)]
            assert got == want["deltas"]
    elif ex.kind == "bid-legal":
        legal = inp["bid"] != "pass" and int(inp["bid"]) in e.eval_legal_bids(inp["score"])
        assert legal == want["legal"]
    elif ex.kind == "outcome":
        if rules.individual:
            w, rule = e.eval_individual_outcome(inp["scores"], inp.get("bids"), inp.get("tricks"))
        else:
            s = inp["scores"]
            w, rule = e.eval_auction_outcome((s[0], s[1]), rules.target, inp["bidding_team"], False)
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
