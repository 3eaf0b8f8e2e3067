"""No rule logic outside core (issue 22, item 4): the tools take every rule from :mod:`tarneeb.core`.

Each test changes one rule in core (a core function monkeypatched, or a :class:`~tarneeb.core.spec.Rules` field)
and sees that the tool follows it: the verifier's fast path (:func:`tarneeb.records.fastpath.fast_hand`) and its
step-by-step replay (``verify_lines(fast=False)``), the conformance vector reference
(:mod:`tarneeb.conformance.vector_ref`) and the referee's answer and explanation (:func:`tarneeb.ruling.decision.decide`).
A tool that worked the rule out itself would go on stating the old rule: each of these tests failed on the code
before the fix (the tools of main at b357330, with the new core functions present), but the first, which guards
the next dealer after a cancelled deal that main already takes from ``hand.next_dealer``.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from tarneeb import Deal, Match, Phase, load_rules
from tarneeb.conformance import vector_ref as V
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.cards import card_str
from tarneeb.core.spec import Rules
from tarneeb.records import Divergence, RecordProblem, Verifier, match_dicts, verify_lines
from tarneeb.records.fastpath import fast_hand
from tarneeb.ruling import SituationError, parse_situation
from tarneeb.ruling.decision import Decision, decide
from tarneeb_proofs.mutants import MUTANTS, applied


def _match(rules: Rules, seed: int, scores: list[int] | None = None, hands: int = 30) -> Match:
    """A seeded self-play match (random legal actions and decks), stopped after ``hands`` deals."""
    rng = random.Random(seed)
    m = Match(rules, rng.randrange(4), scores)
    while not m.is_over() and (m.phase is not Phase.DEAL or len(m.records) < hands):
        if m.phase is Phase.DEAL:
            deck = list(range(52))
            rng.shuffle(deck)
            m.apply(Deal(tuple(deck)))
        else:
            m.apply(rng.choice(list(m.legal_actions())))
    return m


def _lines(m: Match) -> list[bytes]:
    return [orjson.dumps(d) for d in match_dicts(m, "m")]


def _divergences(lines: list[bytes], fast: bool) -> list[Divergence]:
    """The divergences ``verify`` reports (fast path on, or every line replayed); the lines must be readable."""
    _, reps = verify_lines(lines, fast=fast)
    assert not [x for x in reps if isinstance(x, RecordProblem) and x.severity == "error"], reps
    return [x for x in reps if isinstance(x, Divergence)]


def _fast_takes(lines: list[bytes]) -> list[bool]:
    """Whether the fast path alone accepts each hand line (the state advanced by the verifier as it goes)."""
    v = Verifier()
    v.feed_line(lines[0], len(lines[0]), "f", 1)
    out = []
    for i, ln in enumerate(lines[1:], start=2):
        assert v.state is not None
        st = v.state
        out.append(fast_hand(st, orjson.loads(ln)) if st.dealer is not None else False)
        if not out[-1]:
            v.feed_line(ln, len(ln), "f", i)
    return out


def _ruling(rid: str, raw: dict[str, Any], options: dict[str, Any] | None = None) -> Decision:
    rules = load_rules(rid, options or {})
    s = parse_situation({"ruleset": rid, **({"options": {rid: options}} if options else {}), **raw})
    return decide(s.question.kind, rules, s)


# ------------------------------------------------------------------ the next dealer after a cancelled deal


def _cancelled_twice(rules: Rules) -> Match:
    """A match whose first two deals are cancelled by a low bid total (every seat bids its lowest), then one
    deal played (every seat bids its highest)."""
    rng = random.Random(1)
    m = Match(rules, 2)
    while len(m.records) < 3:
        if m.phase is Phase.DEAL:
            m.apply(Deal(tuple(rng.sample(range(52), 52))))
        elif m.phase is Phase.BIDDING:
            legal = list(m.legal_actions())
            m.apply(legal[0] if len(m.records) < 2 else legal[-1])
        else:
            m.apply(rng.choice(list(m.legal_actions())))
    assert [x.redeal for x in m.records] == ["bid.total", "bid.total", None]
    return m


def test_the_dealer_after_a_cancelled_deal_follows_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """redeal.dealer changed in core (the next seat deals instead of the same one): a record written under the
    old rule now diverges at the deal after each cancelled one, on both paths, and the vector reference and the
    referee give the new dealer."""
    rules = load_rules("card-kings-41")
    m = _cancelled_twice(rules)
    lines = _lines(m)
    assert not _divergences(lines, True) and not _divergences(lines, False)
    monkeypatch.setattr(R, "dealer_after_redeal", lambda r, dealer: R.next_seat(r, dealer))
    for fast in (True, False):
        divs = _divergences(lines, fast)
        assert divs and divs[0].line == 3 and divs[0].field == "dealer" and divs[0].clause == "redeal.dealer"
    assert _fast_takes(lines)[:2] == [True, False]  # the second cancelled deal has the wrong dealer now
    d0 = m.records[0].dealer
    got, _, _ = V.ref_bidding_end(rules, {"dealer": d0, "scores": [0, 0, 0, 0], "bids": ["bid:2"] * 4})
    assert got == {"redeal": True, "next_dealer": R.next_seat(rules, d0)}
    d = _ruling("card-kings-41", {"dealer": d0, "bids": [2, 2, 2, 2], "question": {"kind": "redeal"}})
    assert d.answer["dealer"] == R.next_seat(rules, d0) and "the next dealer" in d.text


# ------------------------------------------------------------------ the target in force


def test_the_target_in_force_follows_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """win.target changed in core (the first game is to 10 more): a record where a team won at the old target
    now diverges on its outcome on both paths, and the referee states the new target."""
    rules = load_rules("classic")
    m = _match(rules, 3, [35, 38, 35, 38])
    assert m.is_over() and max(m.records[-1].scores_after) < rules.target + 10
    lines = _lines(m)
    assert not _divergences(lines, True) and not _divergences(lines, False)
    old = R.target_in_force
    monkeypatch.setattr(R, "target_in_force", lambda r, games: old(r, games) + 10)
    for fast in (True, False):
        divs = _divergences(lines, fast)
        assert divs and divs[0].field == "outcome.winner" and divs[0].expected == "none"
    assert _fast_takes(lines)[-1] is False
    d = _ruling("classic", {"scores": [45, 30], "question": {"kind": "winner"}})
    assert d.answer["winner"] is None and d.answer["target"] == 51 and "No team has reached 51" in d.text
    assert d.math == "team 1: 45 < 51; team 2: 30 < 51"
    d = _ruling("bsfyi-41", {"scores": [45, 3, 2, 2], "question": {"kind": "winner"}})
    assert d.answer["winner"] is None and d.answer["target"] == 51 and "one partner at 51" in d.text


# ------------------------------------------------------------------ qualification, ties, the target reached


def test_the_qualification_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """win.qualify changed in core (a partner at exactly 0 counts): the referee's winner and the comparison its
    explanation shows both follow rules.qualification, the comparisons rules.team_qualifies combines."""
    raw = {"scores": [45, 3, 0, 2], "question": {"kind": "winner"}}
    d = _ruling("bsfyi-41", raw)
    assert d.answer["winner"] is None and "team 1: 45 >= 41 and 0 <= 0: does not qualify" in d.math
    monkeypatch.setattr(R, "qualification", lambda r, a, b: (a >= r.target, b >= 0, b >= r.target, a >= 0))
    d = _ruling("bsfyi-41", raw)
    assert d.answer["winner"] == 0
    assert "team 1: 45 >= 41 and 0 > 0: qualifies" in d.math  # the comparison the core made, not a restated one


def test_the_tie_keys_stated_are_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """tie.both-qualify changed in core (team 0's key one higher): the winner and the keys the explanation
    compares are rules.tie_keys'."""
    raw = {"scores": [45, 42, 10, 13], "question": {"kind": "winner"}}
    d = _ruling("card-kings-41", raw)
    assert d.answer["winner"] is None and d.math == "combined 45+10 = 55, 42+13 = 55: 55 = 55"
    old = R.tie_keys
    monkeypatch.setattr(R, "tie_keys", lambda r, sc: (old(r, sc)[0] + 1, old(r, sc)[1]))
    d = _ruling("card-kings-41", raw)
    assert d.answer["winner"] == 0 and d.math == "combined 45+10 = 56, 42+13 = 55: 56 > 55"


def test_the_target_reached_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """win.target changed in core (a team must pass the target): the auction referee's winner and the
    comparison it shows are rules.target_reached's, which rules.auction_outcome uses."""
    raw = {"scores": [41, 30], "question": {"kind": "winner"}}
    d = _ruling("classic", raw)
    assert d.answer["winner"] == 0 and d.math == "team 1: 41 >= 41; team 2: 30 < 41"
    monkeypatch.setattr(R, "target_reached", lambda sc, t: (sc[0] > t, sc[1] > t))
    d = _ruling("classic", raw)
    assert d.answer["winner"] is None and d.math == "team 1: 41 < 41; team 2: 30 < 41"
    d = _ruling("classic", {"scores": [41, 41], "question": {"kind": "winner"}})  # neither passed: no contract needed
    assert d.answer["winner"] is None


def test_the_made_bid_winner_named_is_the_one_that_made_it() -> None:
    """win.made-bid: two seats bid the winning 10 and only the second made it; the referee names that seat (it
    named the first seat that bid 10, made or not)."""
    d = _ruling("bsfyi-41", {"scores": [0, 0, 0, 0], "bids": [10, 10, 2, 2], "tricks": [1, 10, 1, 1],
                             "question": {"kind": "winner"}}, {"made_bid_wins": 10})
    assert d.answer["winner"] == 1 and d.answer["bidder"] == 1 and d.text.startswith("Player 2 bid 10 and made it")


# ------------------------------------------------------------------ the bid total, a bid's value


def test_the_bid_total_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """bid.total changed in core (the threshold one higher): the referee's ruling and the numbers it states are
    rules.bid_total's, which rules.hand_is_played compares."""
    raw = {"dealer": 0, "bids": [3, 3, 3, 2], "question": {"kind": "redeal"}}
    d = _ruling("eram-41", raw)
    assert d.answer["redeal"] is False and d.math == "3+3+3+2 = 11 >= 11"
    old = R.bid_total
    monkeypatch.setattr(R, "bid_total", lambda r, bids, scores: (old(r, bids, scores)[0], old(r, bids, scores)[1] + 1))
    d = _ruling("eram-41", raw)
    assert d.answer == {"redeal": True, "dealer": 1, "reason": "total", "total": 11, "minimum": 12,
                        "same_dealer": False}
    assert "below 12" in d.text and d.math == "3+3+3+2 = 11 < 12"
    with pytest.raises(SituationError, match="the bids total 11, below 12"):  # a score asked of a cancelled deal
        _ruling("eram-41", {"scores": [0, 0, 0, 0], "bids": [3, 3, 3, 2], "tricks": [3, 3, 3, 4],
                            "question": {"kind": "score"}})


def test_a_bids_value_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """score.values changed in core (a bid of 5 worth 7): one seat's score change and the value the explanation
    states are rules.bid_value's."""
    raw = {"scores": [0, 0, 0, 0], "bids": [5, 3, 3, 2], "tricks": [6, 3, 3, 1], "question": {"kind": "score",
                                                                                             "seat": 0}}
    d = _ruling("card-kings-41", raw)
    assert d.answer["delta"] == 5 and "worth" not in d.math
    old = R.bid_value
    monkeypatch.setattr(R, "bid_value", lambda r, bid: 7 if bid == 5 else old(r, bid))
    d = _ruling("card-kings-41", raw)
    assert d.answer["delta"] == 7 and "(a bid of 5 is worth 7)" in d.math


# ------------------------------------------------------------------ tricks: the winning seat, the team's tricks


def test_the_trick_steps_are_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """play.winner changed in the core's hand steps (the leader always wins): the replay reports the trick
    winners of a clean record (hand.trick_winner_seat), and the fast path refuses its lines
    (hand.legal_trick_winner)."""
    rules = load_rules("bsfyi-41")
    lines = _lines(_match(rules, 5, hands=6))
    assert all(_fast_takes(lines))
    old_seat, old_play = H.trick_winner_seat, H.legal_trick_winner
    monkeypatch.setattr(H, "trick_winner_seat", lambda r, leader, cards, trump: leader)
    divs = _divergences(lines, False)
    assert divs and divs[0].field.endswith(".winner") and divs[0].clause == "play.winner"
    monkeypatch.setattr(H, "trick_winner_seat", old_seat)

    def leader_wins(rules: Rules, hands: list[int], leader: int, cards: Any, trump: int) -> int:
        return leader if old_play(rules, hands, leader, cards, trump) >= 0 else -1

    monkeypatch.setattr(H, "legal_trick_winner", leader_wins)
    assert not any(_fast_takes(lines))  # every played deal has a trick its leader does not win
    assert not _divergences(lines, True)  # the replay (unpatched winner) still finds the record clean


def test_the_team_tricks_are_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """seats.partners changed in core (team 1 credited one trick of team 0's): the replay checks tricks given by
    team against rules.team_tricks."""
    rules = load_rules("classic")
    m = _match(rules, 7, hands=3)
    rec = next(x for x in m.records if x.redeal is None)
    objs = [orjson.loads(x) for x in _lines(m)]
    i = next(k for k, o in enumerate(objs) if o.get("hand") == rec.deal_no)
    t0, t1 = R.team_tricks(rec.tricks_won)
    objs[i]["tricks_won"] = [t0, t1]
    lines = [orjson.dumps(o) for o in objs[:i + 1]]
    assert not [d for d in _divergences(lines, False) if d.field == "tricks_won"]
    old = R.team_tricks
    monkeypatch.setattr(R, "team_tricks", lambda tw: (old(tw)[0] - 1, old(tw)[1] + 1))
    assert [d.clause for d in _divergences(lines, False) if d.field == "tricks_won"] == ["play.winner"]


# ------------------------------------------------------------------ the deal given as hands


def test_the_deck_of_hands_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """deal.order: a deal given as four hands is turned back into the deck by rules.deck_of_hands."""
    rules = load_rules("bsfyi-41")
    m = _match(rules, 11, hands=2)
    objs = [orjson.loads(x) for x in _lines(m)]
    for o, rec in zip(objs[1:], m.records, strict=True):
        hands = R.deal_hands(rules, rec.dealer, rec.deck)
        o.pop("deck")
        o["hands"] = [[card_str(c) for c in rec.deck if hands[s] >> c & 1] for s in range(4)]
    lines = [orjson.dumps(o) for o in objs]
    assert not _divergences(lines, False)
    calls: list[int] = []
    old = R.deck_of_hands

    def spy(rules: Rules, dealer: int, cards: Any) -> list[int]:
        calls.append(dealer)
        return old(rules, R.next_seat(rules, dealer), cards)  # the deal order of the next dealer: the hands come out wrong

    monkeypatch.setattr(R, "deck_of_hands", spy)
    assert _divergences(lines, False) and calls == [rec.dealer for rec in m.records]


# ------------------------------------------------------------------ the referee restating a rule (mutants)

RESTATED = {"ruling-restates-qualification": test_the_qualification_stated_is_the_cores,
            "ruling-restates-bid-total": test_the_bid_total_stated_is_the_cores,
            "ruling-restates-tie-keys": test_the_tie_keys_stated_are_the_cores}


def test_every_restating_mutant_is_listed() -> None:
    assert set(RESTATED) == {m.id for m in MUTANTS.values() if m.stage == "ruling"}


@pytest.mark.parametrize("mid", sorted(RESTATED))
def test_a_referee_restating_a_rule_is_caught(mid: str) -> None:
    """The referee worked out the rule itself (tarneeb_proofs.mutants, stage "ruling"): its words are the same
    until the rule changes in core; then the test of that rule fails."""
    with applied(mid), pytest.MonkeyPatch.context() as mp, pytest.raises(AssertionError):
        RESTATED[mid](mp)


# ------------------------------------------------------------------ the batch path's tables


def test_the_batch_follows_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules changed in core (the next seat deals after a low bid total, the dealer leads, a bid of 5 is worth 7):
    the batch path's tables, kept on the rules object, are built again from the changed functions, so the batch
    plays the new rules (its games change) and the transition replays them alike."""
    from tarneeb.play import batch

    rules = load_rules("card-kings-41")
    before = batch.run(rules, 6, 3, max_hands=8, log_games=6, low_bids=3.0)
    assert batch.replay_check(rules, before)
    old_value = R.bid_value
    monkeypatch.setattr(R, "dealer_after_redeal", lambda r, dealer: R.next_seat(r, dealer))
    monkeypatch.setattr(H, "hand_leader", lambda r, dealer, contract: dealer if contract is None else contract[0])
    monkeypatch.setattr(R, "bid_value", lambda r, bid: 7 if bid == 5 else old_value(r, bid))
    after = batch.run(rules, 6, 3, max_hands=8, log_games=6, low_bids=3.0)
    assert batch.replay_check(rules, after)
    def played(res: batch.BatchResult) -> list[batch.DealLog]:
        return [e for lg in res.logs.values() for e in lg.deals if e.redeal is None]

    assert all(e.leader == R.next_seat(rules, e.dealer) for e in played(before))
    assert played(after) and all(e.leader == e.dealer for e in played(after))
    cancelled = [e for lg in after.logs.values() for e in lg.deals if e.redeal == "bid.total"]
    assert cancelled and all(e.next_dealer == (R.next_seat(rules, e.dealer), "redeal.dealer") for e in cancelled)
    assert any(5 in [n for _, n in e.calls] and e.deltas and 7 in map(abs, e.deltas)
               for lg in after.logs.values() for e in lg.deals)
