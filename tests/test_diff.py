"""`tarneeb diff`: every Z3 witness is re-checked with the engine; "no difference" claims by enumeration."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("z3")

from tarneeb import load_rules  # noqa: E402
from tarneeb.cli import main  # noqa: E402
from tarneeb.core import rules as R  # noqa: E402
from tarneeb.ruling import KEY_FIELDS, parse_situation, resolve  # noqa: E402
from tarneeb_proofs.diff import ROWS, Comparison, Side, diff, find, parse_side, row_witnesses  # noqa: E402
from tarneeb_proofs.encode import Encoding, suit_of  # noqa: E402

CK, BS = "card-kings-41", "bsfyi-41"


@pytest.fixture(scope="module")
def ck_bs() -> dict[str, Comparison]:
    return {w.check: w for w in diff(CK, BS)}


def engine(w: Comparison) -> dict[str, dict[str, Any]]:
    """Rule on the witness situation with the engine, independently of diff's own check."""
    rep = resolve(parse_situation(dict(w.situation), "(witness)"))
    return {x.label: x.answer for x in rep.rulings if x.status == "ruled"}


def assert_engine_differs(w: Comparison) -> dict[str, dict[str, Any]]:
    assert w.status == "difference", w.summary
    got = engine(w)
    assert set(got) == {w.a, w.b}
    kind = w.situation["question"]["kind"]
    keys = KEY_FIELDS[kind]
    assert [got[w.a].get(k) for k in keys] != [got[w.b].get(k) for k in keys], (w.summary, got)
    for label, pred in w.predicted.items():  # and as the encoding predicted
        for k, v in pred.items():
            actual = got[label]["deltas"][int(k[-1])] if k.startswith("delta") else got[label].get(k)
            assert actual == v, (label, k, actual, v)
    assert w.engine_confirmed
    return got


def test_ck_vs_bsfyi_required_differences(ck_bs: dict[str, Comparison]) -> None:
    for check in ("trump", "bid-legal", "score", "redeal-dealer", "tie-rule"):
        assert_engine_differs(ck_bs[check])
    # bid 6 is the witness for bid legality
    assert ck_bs["bid-legal"].situation["question"]["bid"] == 6
    # redeal dealer: same dealer against next dealer
    got = engine(ck_bs["redeal-dealer"])
    d = ck_bs["redeal-dealer"].situation["dealer"]
    verdict = {label: {k: got[label][k] for k in ("redeal", "dealer")} for label in (CK, BS)}  # answers may add keys
    assert verdict[CK] == {"redeal": True, "dealer": d} and verdict[BS] == {"redeal": True, "dealer": (d + 1) % 4}
    assert got[CK]["same_dealer"] and not got[BS]["same_dealer"]
    # bid values: the witness bid is worth different amounts in the two tables
    bid = ck_bs["score"].situation["bids"][0]
    assert load_rules(CK).values[bid] != load_rules(BS).values[bid]
    # tie rule: both teams qualify after the hand in both rulesets, with the same scores
    sit = ck_bs["tie-rule"].situation
    for rid in (CK, BS):
        rules = load_rules(rid)
        after = [sit["scores"][k] + R.individual_delta(rules, sit["bids"][k], sit["tricks"][k]) for k in range(4)]
        assert R.team_qualifies(rules, after[0], after[2]) and R.team_qualifies(rules, after[1], after[3])


def test_ck_vs_bsfyi_other_checks(ck_bs: dict[str, Comparison]) -> None:
    for w in ck_bs.values():
        if w.status == "difference":
            assert_engine_differs(w)
    assert ck_bs["card-legal"].status == "no difference"  # neither forces a trump


def test_no_difference_claims_hold_by_enumeration() -> None:
    ws = {w.check: w for w in diff(CK, "eram-41", ["trump", "score", "bid-legal", "card-legal"])}
    assert ws["trump"].status == "no difference"
    a, b = load_rules(CK), load_rules("eram-41")
    assert all(R.trump_from_reveal(a, c) == R.trump_from_reveal(b, c) for c in range(52))
    assert ws["score"].status == "no difference"
    legal_both = [n for n in range(14) if n in R.legal_bids(a, 0) and n in R.legal_bids(b, 0)]
    assert all(R.individual_delta(a, n, t) == R.individual_delta(b, n, t) for n in legal_both for t in range(14))
    # and a real difference where one exists: eram allows 6
    assert_engine_differs(ws["bid-legal"])
    ws2 = {w.check: w for w in diff(BS, "tarneeb-400", ["bid-legal", "next-dealer"])}
    assert_engine_differs(ws2["bid-legal"])  # the rising minimum
    assert ws2["next-dealer"].status == "no difference"


@pytest.mark.parametrize("a,b,checks", [
    ("classic", "classic:must_trump=true", ["card-legal"]),
    ("classic", "classic:all_pass=dealer-forced", ["bid-legal", "redeal"]),
    ("classic", "classic:scoring=bid-only,kaboot=double", ["score", "winner"]),
    ("classic", "classic:direction=cw", ["trick-winner", "next-dealer", "redeal"]),
    (BS, "bsfyi-41:made_bid_wins=10", ["winner"]),
    (BS, "bsfyi-41:trump_source=revealed-suit", ["trump", "trick-winner"]),
    ("tarneeb-400", "tarneeb-400:target=61", ["winner"]),
    ("eram-41", "classic", ["trump", "trick-winner"]),
])
def test_option_witnesses_are_confirmed_by_the_engine(a: str, b: str, checks: list[str]) -> None:
    for w in diff(a, b, checks):
        assert_engine_differs(w)


def test_families_not_comparable_and_bad_input() -> None:
    ws = {w.check: w for w in diff(CK, "classic", ["score"])}
    assert ws["score"].status == "not comparable"
    from tarneeb.errors import TarneebError

    with pytest.raises(TarneebError):
        parse_side("card-kings-41:nope=1")
    with pytest.raises(TarneebError):
        diff(CK, BS, ["who-cheated"])


def test_row_witnesses_for_docs() -> None:
    rows = row_witnesses(CK, BS, ["trump", "tie rule", "redeal dealer"])
    assert set(rows) == {"trump", "tie rule", "redeal dealer"}
    assert set(rows) <= set(ROWS)
    for w in rows.values():
        assert_engine_differs(w)
        assert json.loads(json.dumps(w.to_json()))["situation"]["question"]


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", CK, BS, "--question", "trump", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["checks"][0]["status"] == "difference" and data["checks"][0]["engine_confirmed"]
    assert main(["diff", CK, "eram-41", "--question", "card-legal"]) == 0
    assert "no difference" in capsys.readouterr().out
    assert main(["diff", CK, "nope-41"]) == 2


def test_made_bid_wins_for_any_bid() -> None:
    """The made-bid rule comes from the shared encoding for any N, not only 10: a bid of 9 against a bid of 10."""
    import dataclasses

    nine = dataclasses.replace(load_rules(BS), made_bid_wins=9)  # not an allowed option value: checked directly
    a, b = Side("bsfyi-41 (made 9 wins)", nine, {}), parse_side("bsfyi-41:made_bid_wins=10")
    assert a.label != b.label
    w = find(a, b, "winner")
    assert w.status == "difference", w.summary
    sit = w.situation
    outcomes = {}
    for side in (a, b):
        rules = side.rules
        after = [sit["scores"][k] + R.individual_delta(rules, sit["bids"][k], sit["tricks"][k]) for k in range(4)]
        outcomes[side.label] = R.individual_outcome(rules, after, sit["bids"], sit["tricks"])
        assert w.predicted[side.label] == {"winner": outcomes[side.label][0]}
    assert outcomes[a.label][0] != outcomes[b.label][0]
    made = [x for x in outcomes.values() if x[1] == "win.made-bid"]
    assert len(made) == 1  # exactly one side wins on the spot by its own made bid
    n = 9 if outcomes[a.label][1] == "win.made-bid" else 10
    assert any(sit["bids"][k] == n and sit["tricks"][k] >= n for k in range(4))


@pytest.mark.parametrize("builder,mutant,pair,check", [
    # tie.both-qualify: always the combined score (bsfyi-41's top-score rule lost)
    ("tie_key", lambda self, a, b: a + b, (CK, BS), "tie-rule"),
    # redeal.dealer: always the next dealer (card-kings-41's same dealer lost)
    ("dealer_after_redeal", lambda self, d: self.next_seat(d), (CK, BS), "redeal-dealer"),
    # trump.source: the turned card's own suit (card-kings-41's same-colour partner lost)
    ("trump_from_reveal", lambda self, c: suit_of(c), (CK, "bsfyi-41:trump_source=revealed-suit"), "trump"),
    # play.winner, through encode's own mutant switch: the highest card of the led suit wins even when trumped
    ("m", lambda self, name: name == "winner-ignores-trump", (BS, "bsfyi-41:trump_source=revealed-suit"),
     "trick-winner"),
])
def test_a_wrong_shared_builder_changes_the_diff(monkeypatch: pytest.MonkeyPatch, builder: str,
                                                  mutant: Any, pair: tuple[str, str], check: str) -> None:
    """diff builds its rules from Encoding: a bug planted in one builder shows in the diff result."""
    assert diff(*pair, [check])[0].status == "difference"
    monkeypatch.setattr(Encoding, builder, mutant)
    w = diff(*pair, [check])[0]
    assert w.status == "no difference", w.summary


def test_witness_says_what_it_rests_on_and_avoids_the_rising_edge() -> None:
    w = find(parse_side("bsfyi-41:rising_min_bid=true"), parse_side("bsfyi-41"), "bid-legal")
    assert w.status == "difference" and w.engine_confirmed
    score = w.situation["scores"][1]
    assert score not in (30, 40), "a witness at a threshold rests on the 'from 30' reading"
    assert any("rising-min-threshold read as at-least" in r for r in w.readings)
    j = w.to_json()
    assert j["readings"] == w.readings and "assumptions" in j
    w4 = find(parse_side("bsfyi-41"), parse_side("tarneeb-400"), "bid-legal")
    assert w4.status == "difference" and w4.engine_confirmed
    assert any("tarneeb-400" in a and "Assumption" in a for a in w4.assumptions), w4.assumptions


def test_witnesses_count_players_from_one_as_their_rulings_do(ck_bs: dict[str, Comparison],
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A witness is read beside its rulings, which count players 1 to 4 and teams 1 and 2: the witness does too,
    and says what "no difference" means rather than the solver's word for it. The situation (JSON) keeps seats."""
    bid = ck_bs["bid-legal"]
    assert bid.situation["question"]["seat"] == 1  # the file's seat 1 ...
    assert bid.summary == f"player 2, on {bid.situation['scores'][1]} points, bids 6"  # ... is player 2
    assert all("by player 2" in text for text in bid.rulings.values())
    assert ck_bs["score"].summary.startswith("player 1 bids ")
    assert ck_bs["redeal"].summary.startswith("player 1 deals; ") and ck_bs["redeal"].situation["dealer"] == 0
    assert ck_bs["winner"].summary.startswith("players 1 to 4: scores before the hand [")
    assert ck_bs["trick-winner"].summary.startswith("the dealer, player 1, turned ")
    assert "player 2 leads" in ck_bs["trick-winner"].summary
    assert ck_bs["next-dealer"].summary.startswith("player 1 dealt; ")
    same = ck_bs["card-legal"]
    assert same.summary == "no difference: no situation of this form tells them apart (Z3 proved it)"
    team = {w.check: w for w in diff("classic", "classic:must_trump=true,scoring=bid-only",
                                     ["card-legal", "score", "winner"])}
    assert team["score"].summary.startswith("player 1 holds the contract at ")
    assert "; team 1 takes " in team["score"].summary and team["score"].situation["contract"]["seat"] == 0
    assert team["winner"].summary.startswith("before the hand team 1 has ")
    assert "player 2 leads " in team["card-legal"].summary and "player 3, next to play, holds" in team[
        "card-legal"].summary
    assert main(["diff", CK, BS]) == 0
    out = capsys.readouterr().out
    for text in (out, *(w.summary for w in (*ck_bs.values(), *team.values()))):
        assert not re.search(r"\bseat \d|\bteam 0\b|\bunsat\b", text), text
    assert main(["diff", CK, BS, "--question", "bid-legal", "--json"]) == 0
    j = json.loads(capsys.readouterr().out)["checks"][0]
    assert j["situation"]["question"]["seat"] == 1 and j["summary"].startswith("player 2, on ")
