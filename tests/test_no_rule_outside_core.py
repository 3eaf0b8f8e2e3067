"""No rule logic outside core: the tools take every rule, and the order of a hand, from
:mod:`tarneeb.core`.

Each rule test changes one rule in core (a core function monkeypatched, or a :class:`~tarneeb.core.spec.Rules`
field) and sees that the tool follows it: the verifier's fast path (:func:`tarneeb.records.fastpath.fast_hand`) and
its step-by-step replay (``verify_lines(fast=False)``), the conformance vector reference
(:mod:`tarneeb.conformance.vector_ref`) and the referee's answer and explanation (:func:`tarneeb.ruling.decision.decide`).
A tool that worked the rule out itself would go on stating the old rule: each of these tests failed on the code
before the fix (the tools of main at b357330, with the new core functions present), but the first, which guards
the next dealer after a cancelled deal that main already takes from ``hand.next_dealer``.

The order of a hand (the deal, the weak seats' claims, the bidding, trump, the play, scoring, the outcome, play-on,
the next dealer) is the transition's (:mod:`tarneeb.core.transition`): no function outside core strings the hand
steps of :mod:`tarneeb.core.hand` of two phases together, nor builds a state of a phase; the verifier (the fast path,
the replay, the verifier around them) calls no hand step at all and steps the transition for every hand line it
replays, only the hypotheses of :mod:`tarneeb.records.diagnose` ask one step each under other rules.
"""

from __future__ import annotations

import ast
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

import tarneeb
from tarneeb import Deal, Match, Phase, load_rules
from tarneeb.conformance import vector_ref as V
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core import transition as T
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
    assert str(d.math) == "team 1: 45 < 51; team 2: 30 < 51"
    d = _ruling("bsfyi-41", {"scores": [45, 3, 2, 2], "question": {"kind": "winner"}})
    assert d.answer["winner"] is None and d.answer["target"] == 51 and "one partner at 51" in d.text


# ------------------------------------------------------------------ qualification, ties, the target reached


def test_the_qualification_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """win.qualify changed in core (a partner at exactly 0 counts): the referee's winner and the comparison its
    explanation shows both follow rules.qualification, the comparisons rules.team_qualifies combines."""
    raw = {"scores": [45, 3, 0, 2], "question": {"kind": "winner"}}
    d = _ruling("bsfyi-41", raw)
    assert d.answer["winner"] is None and "team 1: 45 >= 41 and 0 <= 0: does not qualify" in str(d.math)
    monkeypatch.setattr(R, "qualification", lambda r, a, b: (a >= r.target, b >= 0, b >= r.target, a >= 0))
    d = _ruling("bsfyi-41", raw)
    assert d.answer["winner"] == 0
    assert "team 1: 45 >= 41 and 0 > 0: qualifies" in str(d.math)  # the comparison the core made, not a restated one


def test_the_tie_keys_stated_are_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """tie.both-qualify changed in core (team 0's key one higher): the winner and the keys the explanation
    compares are rules.tie_keys'."""
    raw = {"scores": [45, 42, 10, 13], "question": {"kind": "winner"}}
    d = _ruling("card-kings-41", raw)
    assert d.answer["winner"] is None and str(d.math) == "combined 45+10 = 55, 42+13 = 55: 55 = 55"
    old = R.tie_keys
    monkeypatch.setattr(R, "tie_keys", lambda r, sc: (old(r, sc)[0] + 1, old(r, sc)[1]))
    d = _ruling("card-kings-41", raw)
    assert d.answer["winner"] == 0 and str(d.math) == "combined 45+10 = 56, 42+13 = 55: 56 > 55"


def test_the_target_reached_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """win.target changed in core (a team must pass the target): the auction referee's winner and the
    comparison it shows are rules.target_reached's, which rules.auction_outcome uses."""
    raw = {"scores": [41, 30], "question": {"kind": "winner"}}
    d = _ruling("classic", raw)
    assert d.answer["winner"] == 0 and str(d.math) == "team 1: 41 >= 41; team 2: 30 < 41"
    monkeypatch.setattr(R, "target_reached", lambda sc, t: (sc[0] > t, sc[1] > t))
    d = _ruling("classic", raw)
    assert d.answer["winner"] is None and str(d.math) == "team 1: 41 < 41; team 2: 30 < 41"
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
    assert d.answer["redeal"] is False and str(d.math) == "3+3+3+2 = 11 >= 11"
    old = R.bid_total
    monkeypatch.setattr(R, "bid_total", lambda r, bids, scores: (old(r, bids, scores)[0], old(r, bids, scores)[1] + 1))
    d = _ruling("eram-41", raw)
    assert d.answer == {"redeal": True, "dealer": 1, "reason": "total", "total": 11, "minimum": 12,
                        "same_dealer": False}
    assert "below 12" in d.text and str(d.math) == "3+3+3+2 = 11 < 12"
    with pytest.raises(SituationError, match="the bids total 11, below 12"):  # a score asked of a cancelled deal
        _ruling("eram-41", {"scores": [0, 0, 0, 0], "bids": [3, 3, 3, 2], "tricks": [3, 3, 3, 4],
                            "question": {"kind": "score"}})


def test_a_bids_value_stated_is_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """score.values changed in core (a bid of 5 worth 7): one seat's score change and the value the explanation
    states are rules.bid_value's."""
    raw = {"scores": [0, 0, 0, 0], "bids": [5, 3, 3, 2], "tricks": [6, 3, 3, 1], "question": {"kind": "score",
                                                                                             "seat": 0}}
    d = _ruling("card-kings-41", raw)
    assert d.answer["delta"] == 5 and "worth" not in str(d.math)
    old = R.bid_value
    monkeypatch.setattr(R, "bid_value", lambda r, bid: 7 if bid == 5 else old(r, bid))
    d = _ruling("card-kings-41", raw)
    assert d.answer["delta"] == 7 and "(a bid of 5 is worth 7)" in str(d.math)


# ------------------------------------------------------------------ tricks: the winning seat, the team's tricks


def test_the_trick_steps_are_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """play.winner changed in core (the leader always wins): in the transition's step of a whole trick
    (hand.legal_trick_winner), both paths follow it, the fast path refusing the played lines of a clean record and
    the replay reporting their trick winners; and so in the rule both of core's trick steps ask
    (rules.trick_winner)."""
    rules = load_rules("bsfyi-41")
    lines = _lines(_match(rules, 5, hands=6))
    assert all(_fast_takes(lines))
    old_play = H.legal_trick_winner

    def leader_wins(rules: Rules, hands: list[int], leader: int, cards: Any, trump: int) -> int:
        return leader if old_play(rules, hands, leader, cards, trump) >= 0 else -1

    for patch in ((H, "legal_trick_winner", leader_wins), (R, "trick_winner", lambda cards, trump: 0)):
        with monkeypatch.context() as mp:
            mp.setattr(*patch)
            assert not any(_fast_takes(lines))  # every played deal has a trick its leader does not win
            for fast in (True, False):
                divs = _divergences(lines, fast)
                assert divs and divs[0].field.endswith(".winner") and divs[0].clause == "play.winner", patch


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


# ------------------------------------------------------------------ the order of a hand is core's

# the hand steps the transition strings together (tarneeb.core.hand), by the phase of a hand each belongs to
HAND_STEPS: dict[str, frozenset[str]] = {
    "deal": frozenset({"deal_trump", "weak_seats", "weak_claimers"}),
    "bidding": frozenset({"auction_start", "auction_call", "bid_turn"}),
    "play": frozenset({"hand_leader", "trick_turn", "legal_trick_winner", "trick_winner_seat"}),
    "scoring": frozenset({"hand_deltas"}),
    "outcome": frozenset({"hand_outcome", "settle"}),
    "next dealer": frozenset({"next_dealer", "next_dealer_clause"}),
}
PHASE_OF = {name: phase for phase, names in HAND_STEPS.items() for name in names}
PHASE_STATES = frozenset({"Claiming", "Bidding", "Calling", "Naming", "Playing", "Over"})  # what only a step makes
MODEL = Path(tarneeb.__file__).resolve().parent
# the table builders of the vectorised batch self-play, which ask single steps for every dealer, card or auction
# state (its games are replayed through the transition state by state: tests/test_batch_twin.py)
TABLES = {("play/batch.py", "__init__"), ("play/batch.py", "_auction")}


def _functions() -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for path in sorted(MODEL.rglob("*.py")):
        rel = path.relative_to(MODEL).as_posix()
        if not rel.startswith("core/"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield rel, node


def _names(node: ast.AST) -> set[str]:
    return {n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(node)
            if isinstance(n, ast.Attribute | ast.Name)}


def test_no_function_outside_core_strings_hand_steps_together() -> None:
    """No function outside core asks the hand steps of two phases of a hand (the deal, the bidding, the play, the
    scoring, the outcome, the next dealer): that order is the transition's."""
    seen = 0
    for rel, fn in _functions():
        phases = {PHASE_OF[n] for n in _names(fn) if n in PHASE_OF}
        seen += bool(phases)
        assert len(phases) < 2 or (rel, fn.name) in TABLES, f"{rel}: {fn.name} strings {sorted(phases)} together"
    assert seen > 10  # (the referee, the vectors, the fuzzer, the hypotheses ask single steps)


def test_no_function_outside_core_builds_a_phase_state() -> None:
    """Only a step of the transition makes a state of a phase (claiming, bidding, an auction, naming trump, the
    play, the end of the match); outside core a state is stepped, or built from a Table (``Dealing``) or with
    ``dataclasses.replace`` of the fields a record claims."""
    for rel, fn in _functions():
        built = {n.func.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in PHASE_STATES}
        assert not built, f"{rel}: {fn.name} builds {sorted(built)}"


def test_the_verifier_asks_no_hand_step() -> None:
    """The verifier's reader, driver, fast path, replay and everything around them name no hand step: every hand
    line goes through the transition. Only the hypotheses of diagnose (one step each, under other rules) may."""
    for rel, fn in _functions():
        if rel.startswith("records/") and rel != "records/diagnose.py":
            steps = sorted(n for n in _names(fn) if n in PHASE_OF)
            assert not steps, f"{rel}: {fn.name} asks {steps}"


def test_every_hand_line_is_stepped_through_the_transition(monkeypatch: pytest.MonkeyPatch) -> None:
    """Verifying a record steps the transition for every hand line (its deal: ``step`` of a ``Deal``, or ``deal``),
    on both paths, clean or corrupted; and no hand step of core is called from the verifier's modules (only from
    core, or diagnose's hypotheses)."""
    rules = load_rules("card-kings-41")
    m = _cancelled_twice(rules)
    objs = [orjson.loads(x) for x in _lines(m)]
    bad = [dict(o) for o in objs]
    bad[3] = dict(bad[3], scores=[s + 1 for s in bad[3]["scores"]])  # the played deal claims other scores
    bad[1] = dict(bad[1], dealer=(bad[1]["dealer"] + 1) % 4)
    deals: list[str] = []
    step = T.step

    def counting(rules: Rules, state: Any, action: Any, *, force: bool = False) -> Any:
        if type(action) is Deal:
            deals.append(sys._getframe(1).f_globals["__name__"])
        return step(rules, state, action, force=force)

    deal = T.deal

    def dealing(rules: Rules, state: Any, deck: Any) -> Any:  # the transition's deal from a deck the fast path reads
        deals.append(sys._getframe(1).f_globals["__name__"])
        return deal(rules, state, deck)

    def guarded(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*a: Any, **k: Any) -> Any:
            caller = sys._getframe(1).f_globals["__name__"]
            assert not caller.startswith("tarneeb.records.") or caller == "tarneeb.records.diagnose", (name, caller)
            return fn(*a, **k)
        return call

    monkeypatch.setattr(T, "step", counting)
    monkeypatch.setattr(T, "deal", dealing)
    for name in PHASE_OF:
        monkeypatch.setattr(H, name, guarded(name, getattr(H, name)))
    for lines in ([orjson.dumps(o) for o in objs], [orjson.dumps(o) for o in bad]):
        for fast in (True, False):
            deals.clear()
            _, reps = verify_lines(lines, fast=fast)
            assert len(deals) >= len(lines) - 1 and set(deals) <= {"tarneeb.records.fastpath",
                                                                  "tarneeb.records.replay"}, deals
    assert any(isinstance(r, Divergence) for r in reps)


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
