"""The verifier's one driver (tarneeb.records.driver): the fast path and the replay are the same driver of the
transition, so on a clean line they leave the very same match state, and each claim of a line is checked against the
event that decides it (a trick's winner against that trick's, the next dealer against the deal's NextDealer)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import orjson
import pytest

from tarneeb import Deal, Match, Phase, load_rules
from tarneeb.core.spec import Rules
from tarneeb.core.state import Table
from tarneeb.records import Divergence, Verifier, match_dicts, verify_lines
from tarneeb.records.driver import MatchState
from tarneeb.records.fastpath import fast_hand

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("card-kings-41", {}), ("bsfyi-41", {"rising_min_bid": True}), ("tarneeb-400", {}), ("eram-41", {}),
    ("classic", {}), ("classic", {"weak_redeal": True, "play_on": 10}), ("classic", {"egyptian": True}),
]


def _match(rules: Rules, seed: int, deals: int = 24) -> Match:
    """A seeded random match: its first two deals cancelled where the rules allow it (every call the lowest), then
    bids leaning low; odd seeds start near the target (games won)."""
    rng = random.Random(seed)
    start = [rules.target - rng.randint(1, 9) if seed % 2 else 0 for _ in range(4)]
    if not rules.individual:
        start[2:] = start[:2]
    m = Match(rules, rng.randrange(4), start)
    while not m.is_over() and (m.phase is not Phase.DEAL or len(m.records) < deals):
        if m.phase is Phase.DEAL:
            m.apply(Deal(tuple(rng.sample(range(52), 52))))
        else:
            legal = list(m.legal_actions())
            low = m.phase is Phase.BIDDING and (len(m.records) < 2 or rng.random() < 0.3)
            m.apply(legal[0] if low else rng.choice(legal))
    return m


def _state(st: MatchState) -> tuple[Any, ...]:
    """What a line leaves of the match state (the weighed hand aside: the verifier takes it at once)."""
    return (st.table, st.dealer_known, st.dealer_clause, st.next_hand, st.over_rule, st.scores_known,
            st.last_dealer, st.last_redeal, st.alt_dealer, st.alt_scores, st.alt_target)


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_both_paths_leave_the_same_match_state(rid: str, opts: dict[str, Any]) -> None:
    """Line by line of clean records, the fast path (which takes every line) and the replay (fast path off) leave
    the same state: the transition's table (dealer, scores, target, games), the clause naming the next dealer,
    the previous deal's dealer and cancellation, the end of the match."""
    rules = load_rules(rid, opts)
    kinds: set[str] = set()
    for seed in range(3):
        m = _match(rules, seed)
        lines = [orjson.dumps(d) for d in match_dicts(m, f"{rid}-{seed}")]
        fast, slow = Verifier(fast=True), Verifier(fast=False)
        for v in (fast, slow):
            assert v.feed_line(lines[0], len(lines[0]), "f", 1) == []
        for i, (ln, rec) in enumerate(zip(lines[1:], m.records, strict=True), start=2):
            assert fast.state is not None and slow.state is not None
            assert fast_hand(fast.state, orjson.loads(ln)), (rid, i)
            assert slow.feed_line(ln, len(ln), "f", i) == []
            assert _state(fast.state) == _state(slow.state), (rid, seed, i)
            kinds.add(rec.redeal or ("won" if rec.outcome is not None else "played"))
    assert {"played", "won"} <= kinds and len(kinds) >= 3, kinds


def test_the_next_dealer_is_the_cancelled_deals_own() -> None:
    """After a deal cancelled by a low bid total (card-kings-41: the same dealer deals again, redeal.dealer), both
    paths expect the dealer and cite the clause the NextDealer event names; a line dealt by another is reported
    with that clause, and the line after it goes on from either dealer."""
    rules = load_rules("card-kings-41")
    for seed in range(40):
        m = _match(rules, seed, 8)
        k = next((i for i, r in enumerate(m.records[:-1]) if r.redeal == "bid.total"), None)
        if k is not None:
            break
    else:
        raise AssertionError("no deal cancelled by the bid total")
    objs = [orjson.loads(orjson.dumps(x)) for x in match_dicts(m, "m")]
    nxt = objs[k + 2]
    assert nxt["dealer"] == objs[k + 1]["dealer"]  # redeal.dealer: the same dealer
    objs[k + 2] = dict(nxt, dealer=(nxt["dealer"] + 1) % 4)
    lines = [orjson.dumps(o) for o in objs]
    for fast in (True, False):
        _, reps = verify_lines(lines, fast=fast)
        divs = [d for d in reps if isinstance(d, Divergence) and d.follows_line is None]
        assert divs and (divs[0].line, divs[0].field, divs[0].clause) == (k + 3, "dealer", "redeal.dealer"), divs[:2]
        assert all(d.line == k + 3 for d in reps if isinstance(d, Divergence))


@pytest.mark.parametrize("rid", ["bsfyi-41", "classic"])
def test_each_trick_winner_is_checked_against_its_own_trick(rid: str) -> None:
    """A wrong winner claimed for trick k (its leader right, the cards those the rules' winner led after it) is
    reported at that trick alone, on both paths: never against another trick's winner."""
    rules = load_rules(rid)
    m = _match(rules, 4, 6)
    objs = [orjson.loads(orjson.dumps(x)) for x in match_dicts(m, "m")]
    i = next(j for j, o in enumerate(objs) if o.get("tricks"))
    for k in (0, 5, 12):
        bad = [dict(o) for o in objs]
        tricks = [dict(t) for t in bad[i]["tricks"]]
        tricks[k]["winner"] = (tricks[k]["winner"] + 1) % 4
        bad[i] = dict(bad[i], tricks=tricks)
        lines = [orjson.dumps(o) for o in bad[:i + 1]]
        for fast in (True, False):
            _, reps = verify_lines(lines, fast=fast)
            divs = [d for d in reps if isinstance(d, Divergence)]
            assert divs and divs[0].field == f"tricks[{k}].winner" and divs[0].trick == k, (k, fast, divs[:3])
            assert not [d for d in divs if d.field.startswith("tricks[") and d.field != f"tricks[{k}].winner"]


def test_the_match_state_holds_a_core_table() -> None:
    """The verifier's match state keeps what the rules say the match is as core's Table (a value: copying the
    state shares it safely), and only the verifier's own parts beside it."""
    names = {f.name for f in dataclasses.fields(MatchState)}
    assert "table" in names and not names & {"dealer", "scores", "target", "games"}
    assert [f.type for f in dataclasses.fields(MatchState) if f.name == "table"] == ["Table"]
    assert dataclasses.fields(Table)  # (core's)
