"""Conformance vectors: up to date, valid, big enough, and right on hand-checked edge cases."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb.conformance import vectors as V
from tarneeb.conformance.protocol import Engine
from tarneeb.core.actions import Deal
from tarneeb.core.cards import parse_card
from tarneeb.core.match import Match
from tarneeb.core.spec import load_rules

ROOT = V.default_dir()
MINI = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'examples/mini_engine/mini_engine.py'}"


@pytest.fixture(scope="module")
def fresh() -> dict[str, str]:
    return dict(V.generated_files())


def test_committed_vectors_match_a_fresh_generate(fresh: dict[str, str]) -> None:
    stale = [rel for rel, text in fresh.items() if not (ROOT / rel).exists() or (ROOT / rel).read_text() != text]
    assert stale == [], f"run `tarneeb vectors generate`: {stale}"


def test_size_and_counts(fresh: dict[str, str]) -> None:
    counts: dict[str, int] = {}
    for rel, text in fresh.items():
        counts[rel.split("/")[0]] = counts.get(rel.split("/")[0], 0) + sum(len(g["tests"]) for g in json.loads(text))
    assert set(counts) == {"card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"}
    assert all(n >= 1000 for n in counts.values()), counts
    assert sum(len(t) for t in fresh.values()) < 4_000_000


def test_files_follow_the_schema(fresh: dict[str, str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "schema.json").read_text())
    for text in fresh.values():
        jsonschema.validate(json.loads(text), schema)


def _find(rid: str, cat: str, desc: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    for g in json.loads((ROOT / rid / f"{cat}.json").read_text()):
        if g["options"] == (options or {}):
            for t in g["tests"]:
                if t["description"] == desc:
                    return t  # type: ignore[no-any-return]
    raise AssertionError(f"no vector {rid}/{cat}: {desc}")


# Hand-written expectations, read off the rule documents (file: heading), not computed by the engine.
HAND_CHECKED = [
    # 000 How the game ends: a partner at zero does not qualify
    ("card-kings-41", "outcome", "one partner at the target, the other at 0: not enough", {}, {"winner": None}),
    ("card-kings-41", "outcome", "one partner exactly at the target, the other at 1", {}, {"winner": 0}),
    ("card-kings-41", "outcome", "one below the target", {}, {"winner": None}),
    ("card-kings-41", "outcome", "the team sum reaches the target, no single player does", {}, {"winner": None}),
    # 000: ties by combined score, equal sums play on; 001: ties by the top score
    ("card-kings-41", "outcome", "both qualify; equal sums, team 0 has the higher top", {}, {"winner": None}),
    ("bsfyi-41", "outcome", "both qualify; equal sums, team 0 has the higher top", {}, {"winner": 0}),
    ("eram-41", "outcome", "both qualify; team 0 higher top, team 1 higher sum", {}, {"winner": 1}),
    ("tarneeb-400", "outcome", "both qualify; team 0 higher top, team 1 higher sum", {}, {"winner": 0}),
    ("bsfyi-41", "outcome", "both qualify; equal sums and equal tops", {}, {"winner": None}),
    # 001 house rule: a made bid of 10 wins at once
    ("bsfyi-41", "outcome", "a made bid of 10 wins at once", {"made_bid_wins": 10}, {"winner": 0}),
    # 000 Bidding: no 6, no pass; 001: 2..13
    ("card-kings-41", "bid-legality", "a bid of 6 at a score of 0", {}, {"legal": False}),
    ("bsfyi-41", "bid-legality", "a bid of 6 at a score of 0", {}, {"legal": True}),
    ("eram-41", "bid-legality", "the first bidder may not pass", {}, {"legal": False}),
    ("eram-41", "bid-legality", "a bid of 13 at a score of 0", {}, {"legal": True}),
    # 001 house rule: 3 from 30, 4 from 40 (tarneeb-400 always)
    ("tarneeb-400", "bid-legality", "a bid of 2 at a score of 30", {}, {"legal": False}),
    ("tarneeb-400", "bid-legality", "a bid of 3 at a score of 29", {}, {"legal": True}),
    ("tarneeb-400", "bid-legality", "a bid of 3 at a score of 40", {}, {"legal": False}),
    ("bsfyi-41", "bid-legality", "a bid of 2 at a score of 30", {}, {"legal": True}),
    # threshold: exactly 11 is played, 10 is redealt; 000 same dealer, 001/003 next dealer (ccw: +1)
    ("card-kings-41", "bidding-end", "bids total exactly 11 (dealer 0)", {}, {"redeal": False, "next_dealer": None}),
    ("card-kings-41", "bidding-end", "bids total 10, one below the threshold (dealer 2)", {},
     {"redeal": True, "next_dealer": 2}),
    ("eram-41", "bidding-end", "bids total 10, one below the threshold (dealer 3)", {},
     {"redeal": True, "next_dealer": 0}),
    ("bsfyi-41", "bidding-end", "bids total 12, one below the threshold (dealer 1)", {"bid_total_min": 13},
     {"redeal": True, "next_dealer": 2}),
    # 001 The scoring table: 5 = 10, 9 = 27, 13 = 39; 000/003 face value
    ("bsfyi-41", "hand-scoring", "bid 5 made exactly", {}, {"deltas": [10, 2, -2, -2]}),
    ("bsfyi-41", "hand-scoring", "bid 9 failed by one", {}, {"deltas": [-27, 2, -2, -2]}),
    ("bsfyi-41", "hand-scoring", "bid 13 made", {}, {"deltas": [39, -2, -2, -2]}),
    ("eram-41", "hand-scoring", "bid 5 made exactly", {}, {"deltas": [5, 2, -2, -2]}),
    ("card-kings-41", "hand-scoring", "extra tricks earn nothing", {}, {"deltas": [2, 2, -3, -4]}),
    # 002 Scoring a hand: 8 bid, 10 taken -> 10 and 0; kaboot 16 by default; failed 9 with 7 -> -9, defenders 6
    ("classic", "hand-scoring", "contract 8 by seat 0, bidders take 13", {}, {"deltas": [16, 0, 16, 0]}),
    ("classic", "hand-scoring", "contract 8 by seat 0, bidders take 7", {}, {"deltas": [-8, 6, -8, 6]}),
    ("classic", "hand-scoring", "contract 8 by seat 0, bidders take 13", {"kaboot": "26"}, {"deltas": [26, 0, 26, 0]}),
    ("classic", "hand-scoring", "contract 13 by seat 1, bidders take 12", {"bid13": "26"},
     {"deltas": [1, -16, 1, -16]}),
    ("classic", "hand-scoring", "contract 8 by seat 1, bidders take 8", {"scoring": "bid-only"},
     {"deltas": [0, 8, 0, 8]}),
    # 002 Winning the game: both reach -> bidding team; made 13 wins on the spot
    ("classic", "outcome", "both reach the target: the bidding team 1 wins", {}, {"winner": 1}),
    ("classic", "outcome", "team 0 exactly at the target", {}, {"winner": 0}),
    ("classic", "outcome", "bid 13 made, bidders still far from the target", {}, {"winner": 0}),
    ("classic", "outcome", "team 0 exactly at the target", {"target": 31}, {"winner": 0}),
    # 002 Playing the tricks: must trump when void (option); otherwise free
    ("classic", "play-legality", "void in clubs, trump H: a spade discard", {"must_trump": True}, {"legal": False}),
    ("classic", "play-legality", "void in clubs, trump H: a spade discard", {}, {"legal": True}),
    ("classic", "play-legality", "holding the led suit: another suit is illegal", {}, {"legal": False}),
    # 002 Bidding: the dealer may match under the privilege, not in a continuous auction
    ("classic", "bid-legality", "the dealer matching the top bid", {}, {"legal": True}),
    ("classic", "bid-legality", "the dealer matching the top bid", {"auction": "continuous"}, {"legal": False}),
    ("classic", "bid-legality", "the dealer passing after three passes", {"all_pass": "dealer-forced"},
     {"legal": False}),
    ("classic", "bid-legality", "an opening bid below the minimum", {"min_bid": 8}, {"legal": False}),
]


@pytest.mark.parametrize("rid,cat,desc,opts,want", HAND_CHECKED)
def test_edge_vectors_agree_with_the_documents(rid: str, cat: str, desc: str, opts: dict[str, Any],
                                               want: dict[str, Any]) -> None:
    assert _find(rid, cat, desc, opts)["expected"] == want


def test_perft_counts_agree_with_enumeration_by_the_match() -> None:
    from tarneeb.core.actions import parse_action
    from tarneeb.core.match import Phase

    for rid in ("classic", "eram-41"):
        g = json.loads((ROOT / rid / "perft.json").read_text())[0]
        t = next(x for x in g["tests"] if x["input"]["depth"] == 3)
        inp = t["input"]
        rules = load_rules(rid, g["options"])

        def count(m: Any, d: int) -> int:
            if d == 0 or m.phase is not Phase.PLAY:
                return 1
            return sum(count(_after(m, a), d - 1) for a in m.legal_actions())

        def _after(m: Any, a: Any) -> Any:
            c = m.copy()
            c.apply(a)
            return c

        m = Match.at(rules, inp["dealer"], inp["scores"], inp["target"])
        m.apply(Deal(tuple(parse_card(c) for c in inp["deck"])))
        for a in inp["actions"]:
            m.apply(parse_action(a))
        assert count(m, 3) == t["expected"]["nodes"]


def test_the_independent_mini_engine_passes_every_vector() -> None:
    with Engine(MINI) as eng:
        rep = V.run_vectors(eng, V.vector_paths(ROOT))
    assert rep.failed == 0, rep.to_json(5)
    assert rep.passed >= 5000


def test_a_failure_is_told_in_words_with_its_rule_by_name() -> None:
    f = V.Failure(ruleset="classic", options={"kaboot": 26}, category="hand", index=3, description="a kaboot",
                  clause="score.kaboot", field="deltas", expected=[26, 0, 26, 0], got=[16, 0, 16, 0],
                  source=V.cite_clause("classic", "score.kaboot"), file="classic/hand.json", line=4,
                  request='{"cmd":"start"}')
    head = f.text().splitlines()[0]
    assert head.startswith("classic/hand.json:4: hand under ruleset classic with kaboot=26 (a kaboot): "), head
    assert "deltas: expected player 1 26, player 2 0, player 3 26, player 4 0, engine gave player 1 16" in head, head
    assert head.endswith('[the kaboot rule (score.kaboot), from an online Tarneeb table (publisher not named), '
                         '"How to Play Tarneeb", section "Scoring a hand"]'), head
    assert "{" not in head and "[26" not in head, head
