"""The dispute resolver (`tarneeb ruling`) against hand-written rulings, errors and the engine."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarneeb import Match, load_rules
from tarneeb.cli import main
from tarneeb.core.actions import BIDS, Deal
from tarneeb.core.cards import card_str
from tarneeb.core.match import Phase
from tarneeb.ruling import SituationError, load_situation, matches_expected, parse_situation, resolve

DISPUTES = Path(__file__).resolve().parents[1] / "spec" / "disputes"
FILES = sorted(DISPUTES.glob("*.toml"))


def test_the_required_disputes_exist() -> None:
    names = {f.stem for f in FILES}
    for need in ("partner-negative", "tie-equal-combined", "bid-six", "cancelled-hand-dealer", "void-discard",
                 "turned-card-trump", "bid-ten-house-rule"):
        assert need in names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_dispute_matches_hand_written_ruling(path: Path) -> None:
    s = load_situation(path)
    rep = resolve(s)
    assert s.expected, "every dispute states its expected rulings"
    # every ruleset asked has an expected answer, and every expected answer holds
    labels = {x.label for x in rep.rulings}
    assert labels <= set(s.expected) | {x.ruleset for x in rep.rulings if x.ruleset in s.expected}
    assert matches_expected(rep, s.expected) == []
    for x in rep.rulings:
        if x.status == "ruled":
            # an exposed card breaks no clause of any document: its ruling cites the register entry instead,
            # whose sources name where the documents describe play
            silent = x.answer.get("breaks") == [] and x.answer.get("documents") == "silent"
            assert x.clauses or (silent and x.ambiguities and all(a.sources for a in x.ambiguities)), \
                f"{x.label}: a ruling cites at least one clause"
            assert all(c.doc.endswith(".txt") and c.heading for c in x.clauses)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_dispute_files_follow_the_schema(path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DISPUTES / "schema.json").read_text())
    jsonschema.validate(tomllib.loads(path.read_text()), schema)


def test_disagreement_line_names_the_split() -> None:
    rep = resolve(load_situation(DISPUTES / "tie-equal-combined.toml"))
    assert rep.agreement.startswith("The rulesets disagree")
    assert "team 1 wins under rulesets bsfyi-41 and tarneeb-400" in rep.agreement
    rep = resolve(load_situation(DISPUTES / "partner-negative.toml"))
    assert rep.agreement.startswith("All 4 rulesets")


def test_ambiguity_flag_carries_each_reading() -> None:
    rep = resolve(load_situation(DISPUTES / "bid-ten-house-rule.toml"))
    house = next(x for x in rep.rulings if x.label == "bsfyi-41 [made_bid_wins=10]")
    flag = next(a for a in house.ambiguities if a.id == "bid10-partner")
    assert flag.changes_ruling
    by_id = {r.id: r for r in flag.readings}
    assert by_id["outright"].taken and by_id["outright"].answer == house.answer
    assert by_id["partner-positive"].answer is not None and by_id["partner-positive"].answer["winner"] is None


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", str(DISPUTES / "bid-six.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ck = next(r for r in data["rulings"] if r["ruleset"] == "card-kings-41")
    assert ck["answer"]["legal"] is False and ck["clauses"][0]["id"] == "bid.excluded"
    assert ck["clauses"][0]["doc"] == "000_2bd9936ea71faec4.txt" and ck["clauses"][0]["heading"] == "Bidding"
    assert main(["ruling", str(DISPUTES / "bid-six.toml")]) == 0
    out = capsys.readouterr().out
    assert "bid.excluded" in out and "The rulesets disagree" in out


# ------------------------------------------------------------------ errors

BASE: dict[str, Any] = {"ruleset": "card-kings-41", "dealer": 0}

BAD: list[tuple[str, dict[str, Any], tuple[str, ...], str]] = [
    ("card in two hands", {"hands": {"0": ["AS"], "2": ["AS", "2C"]}, "question": {"kind": "trump"},
                           "revealed": "3C"}, ("hands.0[0]", "hands.2[0]"), "AS is in both places"),
    ("fourteen cards", {"hands": {"1": [f"{r}C" for r in "23456789TJQKA"] + ["2D"]}, "revealed": "3H",
                        "question": {"kind": "trump"}}, ("hands.1",), "14 cards listed"),
    ("trick holds a played card", {"played": ["KS", "2S", "3S", "4S"], "tricks": [1, 0, 0, 0],
                                   "trick": {"leader": 0, "cards": ["KS"]}, "revealed": "5D",
                                   "question": {"kind": "card-legal", "card": "AD"}},
     ("played[0]", "trick.cards[0]"), "KS is in both places"),
    ("odd change from face value", {"scores": [0, 0, 0, 0], "scores_after": [20, 2, 2, 2],
                                    "question": {"kind": "winner"}}, ("scores.0", "scores_after.0"),
     "+20"),
    ("change from the wrong table", {"ruleset": "bsfyi-41", "scores": [0, 0, 0, 0], "scores_after": [5, 2, 2, 2],
                                     "question": {"kind": "winner"}}, ("scores.0", "scores_after.0"), "+5"),
    ("illegal stated bid", {"bids": [6, 2, 2, 2], "tricks": [6, 3, 2, 2], "scores": [0, 0, 0, 0],
                            "question": {"kind": "score"}}, ("bids.0",), "bid.excluded"),
    ("tricks over 13", {"bids": [2, 2, 2, 5], "tricks": [6, 3, 2, 3], "question": {"kind": "score"}},
     ("tricks",), "14 tricks"),
    ("tagged card out of order", {"trick": {"leader": 1, "cards": ["KD", {"seat": 3, "card": "2D"}]},
                                  "revealed": "9C", "question": {"kind": "card-legal", "seat": 2, "card": "3D"}},
     ("trick.cards[1].seat", "trick.leader"), "player 3's"),
    ("individual bids skip a seat", {"dealer": 0, "bids": {"1": 3, "3": 4},
                                     "question": {"kind": "bid-legal", "seat": 2, "bid": 4}},
     ("bids.3", "dealer"), "player 3 bids before it"),
    ("stated trump against the turned card", {"revealed": "9C", "trump": "C", "question": {"kind": "trump"}},
     ("trump", "revealed"), "9C makes it spades"),
    ("void contradicted", {"hands": {"2": ["3D"]}, "voids": {"2": ["D"]}, "question": {"kind": "trump"},
                           "revealed": "2C"}, ("hands.2", "voids.2"), "void in diamonds"),
    ("turned card elsewhere", {"revealed": "QH", "hands": {"2": ["QH"]}, "question": {"kind": "trump"}},
     ("revealed", "hands.2"), "dealer's"),
    ("missing void knowledge", {"trick": {"leader": 1, "cards": ["KD"]}, "revealed": "9C",
                                "question": {"kind": "card-legal", "card": "3C"}}, ("hands.2",), "incomplete"),
    ("bad seat", {"dealer": 4, "question": {"kind": "trump"}}, ("dealer",), "not a seat"),
    ("unknown kind", {"question": {"kind": "who-cheated"}}, ("question.kind",), "the kinds:"),
    ("unknown ruleset", {"ruleset": "hearts", "question": {"kind": "trump"}}, ("ruleset",), "unknown ruleset"),
]


@pytest.mark.parametrize("name,facts,fields,words", BAD, ids=[b[0] for b in BAD])
def test_contradictions_are_located(name: str, facts: dict[str, Any], fields: tuple[str, ...], words: str) -> None:
    with pytest.raises(SituationError) as e:
        resolve(parse_situation({**BASE, **facts}, "case.toml"))
    assert e.value.file == "case.toml"
    for f in fields:
        assert f in e.value.fields, (e.value.fields, str(e.value))
    assert words in str(e.value)


def test_cli_error_exits_2_without_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bad.json"
    p.write_text(json.dumps({"ruleset": "all", "hands": {"0": ["AS"], "1": ["AS"]}, "question": {"kind": "trump"}}))
    assert main(["ruling", str(p)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "hands.0[0] / hands.1[0]" in err and "Traceback" not in err
    p.write_text("{not json")
    assert main(["ruling", str(p)]) == 2


# ---------------------------------------------------- against the state machine


def _dealt(rid: str, dealer: int, rnd: random.Random) -> Match:
    """A match of ``rid`` with ``dealer`` dealing a deck shuffled by ``rnd``, waiting for the first bid."""
    m = Match(load_rules(rid), dealer)
    deck = list(range(52))
    rnd.shuffle(deck)
    m.apply(Deal(tuple(deck)))
    return m


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400"]), st.integers(0, 3),
       st.randoms(use_true_random=False))
def test_redeal_ruling_agrees_with_match(rid: str, dealer: int, rnd: random.Random) -> None:
    m = _dealt(rid, dealer, rnd)
    bids = {}
    for _ in range(4):
        seat = m.to_move
        b = rnd.choice([2, 2, 3, 4, 5]) if rid != "card-kings-41" else rnd.choice([2, 3, 4, 5])
        bids[str(seat)] = b
        m.apply(BIDS[b])
    rep = resolve(parse_situation({"ruleset": rid, "dealer": dealer, "bids": bids, "question": {"kind": "redeal"}}))
    ans = rep.rulings[0].answer
    assert ans["redeal"] == (m.phase is Phase.DEAL)
    if ans["redeal"]:
        assert ans["dealer"] == m.dealer


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400"]), st.integers(0, 3),
       st.randoms(use_true_random=False))
def test_trick_and_card_rulings_agree_with_match(rid: str, dealer: int, rnd: random.Random) -> None:
    m = _dealt(rid, dealer, rnd)
    assert m.record is not None
    deck = m.record.deck
    for _ in range(4):
        m.apply(BIDS[4])
    assert m.phase is Phase.PLAY
    leader = m.to_move
    cards: list[int] = []
    for _ in range(4):
        seat = m.to_move
        hand = [card_str(c) for c in range(52) if m.hands[seat] >> c & 1]
        probe = rnd.randrange(52)
        if m.hands[seat] >> probe & 1:  # ask about a card the seat holds, with the whole hand known
            rep = resolve(parse_situation({
                "ruleset": rid, "dealer": dealer, "revealed": card_str(deck[51]), "hands": {str(seat): hand},
                "trick": {"leader": leader, "cards": [card_str(c) for c in cards]},
                "question": {"kind": "card-legal", "seat": seat, "card": card_str(probe)}}))
            assert rep.rulings[0].answer["legal"] == bool(m.legal_play_mask() >> probe & 1)
        c = rnd.choice([c for c in range(52) if m.legal_play_mask() >> c & 1])
        cards.append(c)
        m.play_card(c)
    rec = m.record if m.record is not None else m.records[-1]
    rep = resolve(parse_situation({
        "ruleset": rid, "dealer": dealer, "revealed": card_str(deck[51]),
        "trick": {"leader": leader, "cards": [card_str(c) for c in cards]}, "question": {"kind": "trick-winner"}}))
    assert rep.rulings[0].answer["winner"] == rec.tricks[0].winner
