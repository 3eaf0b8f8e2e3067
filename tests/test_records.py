"""Game records: round trip for every ruleset, and divergences found with the right clause."""

from __future__ import annotations

import copy
import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from tarneeb import load_rules, rulesets
from tarneeb.cli import main as cli_main
from tarneeb.core.actions import PASS, Deal
from tarneeb.core.cards import parse_card
from tarneeb.core.match import Match, Phase, random_deck
from tarneeb.play.bots import POLICIES
from tarneeb.play.simulate import play_match
from tarneeb.records import (
    Divergence,
    HandLine,
    MatchHeader,
    RecordProblem,
    match_dicts,
    match_lines,
    parse_line,
    read_records,
    verify_items,
    verify_lines,
    verify_match,
    verify_paths,
)

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "spec/records/schema-v1.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [(rid, {}) for rid in rulesets()] + [
    ("classic", {"egyptian": True, "must_trump": True}),
    ("classic", {"auction": "continuous", "all_pass": "dealer-forced", "play_on": 41}),
    ("classic", {"weak_redeal": True, "direction": "cw", "kaboot": "double", "bid13": "26", "scoring": "bid-only"}),
    ("bsfyi-41", {"trump_source": "revealed-suit", "rising_min_bid": True, "made_bid_wins": 10}),
    ("bsfyi-41", {"bid_total_min": 13}),
    ("tarneeb-400", {"target": 61}),
]


HASHED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


@cache
def matches(rid: str, opts_key: str, n: int = 4) -> tuple[Match, ...]:
    rules = load_rules(rid, json.loads(opts_key))
    return tuple(play_match(rules, "rec", i, "random" if i % 2 else "heuristic", 60).match for i in range(n))


def dicts_of(rid: str, opts: dict[str, Any] | None = None, i: int = 0) -> list[dict[str, Any]]:
    m = matches(rid, json.dumps(opts or {}, sort_keys=True))[i]
    return [copy.deepcopy(d) for d in match_dicts(m, f"{rid}:{i}")]


def verify_dicts(ds: list[dict[str, Any]]) -> tuple[list[Divergence], list[RecordProblem]]:
    raw = [orjson.dumps(d) for d in ds]
    s, reps = verify_lines(raw)
    s_slow, reps_slow = verify_lines(raw, fast=False)  # the step-by-step replay alone reports the same
    assert reps == reps_slow and s.to_json() == s_slow.to_json()
    divs = [r for r in reps if isinstance(r, Divergence)]
    errs = [r for r in reps if isinstance(r, RecordProblem)]
    assert s.divergences == len(divs)
    return divs, errs


# ------------------------------------------------------------------ round trip

@pytest.mark.parametrize(("rid", "opts"), OPTION_SETS, ids=[f"{r}-{json.dumps(o)}" for r, o in OPTION_SETS])
def test_round_trip(rid: str, opts: dict[str, Any]) -> None:
    for m in matches(rid, json.dumps(opts, sort_keys=True)):
        lines = list(match_lines(m, "m"))
        assert len(lines) == 1 + len(m.records)
        for ln in lines:
            errors = list(VALIDATOR.iter_errors(json.loads(ln)))
            assert not errors, errors[0].message
        items = [parse_line(ln, "f", i) for i, ln in enumerate(lines, 1)]
        head = items[0]
        assert isinstance(head, MatchHeader) and head.ruleset == rid and head.first_dealer == m.first_dealer
        for it, rec in zip(items[1:], m.records, strict=True):
            assert isinstance(it, HandLine), it
            assert it.deck == list(rec.deck) and it.dealer == rec.dealer and it.hand == rec.deal_no
            assert it.bids == rec.bids
            assert it.scores == rec.scores_after
            if rec.redeal is None:
                assert it.tricks is not None
                assert [(t.leader, t.cards, t.winner) for t in it.tricks] == [
                    (t.leader, t.cards, t.winner) for t in rec.tricks]
                assert it.deltas == rec.deltas and it.tricks_won == rec.tricks_won
                assert it.outcome_winner == (-1 if rec.outcome is None else rec.outcome)
            else:
                assert it.redeal == rec.redeal and it.tricks is None
        for fast in (True, False):
            s, reps = verify_lines(lines, fast=fast)
            assert reps == [] and s.divergences == 0 and s.errors == 0
            assert s.hands == len(m.records) == s.clean_hands


def test_round_trip_variants_are_read() -> None:
    """The lenient forms (hands as PBN, flat play, team scores, 10 for ten) verify as the canonical form."""
    for rid in ("classic", "bsfyi-41"):
        ds = dicts_of(rid)
        for d in ds[1:]:
            deck = [parse_card(d["deck"][i:i + 2]) for i in range(0, 104, 2)]
            dealer, step = d["dealer"], 1
            hands: list[list[int]] = [[], [], [], []]
            for i, c in enumerate(deck):
                hands[(dealer + step * (i % 4 + 1)) % 4].append(c)
            pbn = []
            for h in hands:
                groups = []
                for suit in (3, 2, 1, 0):
                    groups.append("".join("23456789TJQKA"[c % 13] for c in sorted(h, reverse=True) if c // 13 == suit))
                pbn.append(".".join(groups))
            del d["deck"]
            d["hands"] = pbn
            if "tricks" in d:
                d["play"] = "".join(c.replace("T", "10") for t in d.pop("tricks") for c in t["cards"])
            if rid == "classic":
                d["scores"] = d["scores"][:2]
                if "deltas" in d:
                    d["deltas"] = d["deltas"][:2]
        divs, errs = verify_dicts(ds)
        assert divs == [] and errs == [], (divs[:2], errs[:2])


def test_read_records_streams_a_file(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    with p.open("wb") as f:
        for i, m in enumerate(matches("classic", "{}")):
            f.writelines(match_lines(m, f"m{i}"))
    items = list(read_records(p))
    assert sum(isinstance(x, MatchHeader) for x in items) == 4
    assert all(not isinstance(x, RecordProblem) for x in items)
    assert [x.line for x in items] == list(range(1, len(items) + 1))
    s, reps = verify_items(read_records(p))
    assert reps == [] and s.matches == 4 and s.hands == s.clean_hands == len(items) - 4
    s, reps = verify_match(matches("classic", "{}")[0])
    assert reps == [] and s.hands == len(matches("classic", "{}")[0].records)


# ------------------------------------------------------------------ divergences

def first_played(ds: list[dict[str, Any]]) -> int:
    return next(i for i, d in enumerate(ds) if i > 0 and d.get("redeal") is None)


def only_clause(divs: list[Divergence], clause: str, field_prefix: str) -> Divergence:
    assert divs, "no divergence found"
    hit = [d for d in divs if d.clause == clause and d.field.startswith(field_prefix)]
    assert hit, [(d.field, d.clause) for d in divs]
    return hit[0]


@pytest.mark.parametrize("rid", ["classic", "eram-41"])
def test_wrong_trick_winner(rid: str) -> None:
    ds = dicts_of(rid)
    i = first_played(ds)
    t = ds[i]["tricks"][3]
    t["winner"] = (t["winner"] + 1) % 4
    divs, _ = verify_dicts(ds)
    d = only_clause(divs, "play.winner", "tricks[3].winner")
    assert d.line == i + 1 and d.trick == 3 and d.hand == ds[i]["hand"]
    assert d.source.startswith("play.winner (") and ', section "' in d.source and not HASHED_NAME.search(d.source)


@pytest.mark.parametrize(("rid", "clause"), [("classic", "score."), ("bsfyi-41", "score.")])
def test_wrong_score(rid: str, clause: str) -> None:
    ds = dicts_of(rid)
    i = first_played(ds)
    seats = (1, 3) if rid == "classic" else (1,)
    for s in seats:
        ds[i]["deltas"][s] += 1
        for later in ds[i:]:  # a consistent implementation carries its slip into the running scores
            later["scores"][s] += 1
    divs, errs = verify_dicts(ds)
    assert not errs
    # one report for one cause: the running scores agree with the record's own deltas, so only the deltas diverge
    # (the outcome of a later hand may differ when judged on the record's own, shifted, scores)
    score_divs = [d for d in divs if d.field in ("deltas", "scores")]
    assert [(d.field, d.line) for d in score_divs] == [("deltas", i + 1)], [d.text() for d in divs]
    d = score_divs[0]
    assert d.clause.startswith(clause) and d.table is not None and len(d.table) == 4
    assert [row["claimed"] for row in d.table] == (ds[i]["deltas"] * 2)[:4]
    # a running total that does not add up is its own cause
    ds[i]["scores"][0] += 5
    divs, _ = verify_dicts(ds)
    assert sorted(d.field for d in divs if d.line == i + 1) == ["deltas", "scores"]


def test_wrong_score_clause_individual() -> None:
    ds = dicts_of("card-kings-41")
    i = first_played(ds)
    ds[i]["deltas"][0] = -ds[i]["deltas"][0]
    divs, _ = verify_dicts(ds)
    assert only_clause(divs, "score.individual", "deltas")


def test_wrong_trump_fixed_and_revealed() -> None:
    ds = dicts_of("bsfyi-41")
    i = first_played(ds)
    real = ds[i]["trump"]
    ds[i]["trump"] = "H" if real != "H" else "C"
    divs, _ = verify_dicts(ds)
    assert only_clause(divs, "trump.source", "trump").claimed == ds[i]["trump"]
    opts = {"trump_source": "revealed-suit", "rising_min_bid": True, "made_bid_wins": 10}
    ds = dicts_of("bsfyi-41", opts)
    i = first_played(ds)
    card = ds[i]["revealed"]
    other = next(c for c in ("AS", "AH", "AD", "AC") if c[1] != card[1])
    ds[i]["revealed"] = other
    divs, _ = verify_dicts(ds)
    only_clause(divs, "trump.source", "revealed")


def test_wrong_trump_egyptian() -> None:
    ds = dicts_of("classic", {"egyptian": True, "must_trump": True})
    i = first_played(ds)
    ds[i]["trump"] = "N" if ds[i]["trump"] != "N" else "S"
    divs, _ = verify_dicts(ds)
    only_clause(divs, "auction.egyptian", "trump")


def _revoke(ds: list[dict[str, Any]], i: int) -> tuple[int, int] | None:
    """Swap two cards of one player so that an earlier trick fails to follow suit; (trick, position)."""
    tricks = ds[i]["tricks"]
    seat_cards: list[tuple[int, int, int, str]] = []  # (trick, pos, seat, card)
    step = 1
    for k, t in enumerate(tricks):
        for j, c in enumerate(t["cards"]):
            seat_cards.append((k, j, (t["leader"] + step * j) % 4, c))
    for k, j, seat, c in seat_cards:
        led = tricks[k]["cards"][0][1]
        if j == 0 or c[1] != led:
            continue
        for k2, j2, seat2, c2 in seat_cards:
            if k2 > k and seat2 == seat and c2[1] != led:
                tricks[k]["cards"][j], tricks[k2]["cards"][j2] = c2, c
                return k, j
    return None


@pytest.mark.parametrize("rid", ["classic", "tarneeb-400"])
def test_illegal_card(rid: str) -> None:
    ds = dicts_of(rid)
    for i in range(1, len(ds)):
        if ds[i].get("redeal") is None and (where := _revoke(ds, i)) is not None:
            break
    else:
        pytest.fail("no hand to revoke in")
    divs, _ = verify_dicts(ds)
    d = only_clause(divs, "play.follow", f"tricks[{where[0]}].cards[{where[1]}]")
    assert d.trick == where[0] and d.line == i + 1


def test_must_trump_enforced() -> None:
    """Under must_trump, a discard while holding a trump is refused with play.must-trump."""
    ds = dicts_of("classic", {"egyptian": True, "must_trump": True})
    found = False
    for i in range(1, len(ds)):
        d = ds[i]
        if d.get("redeal") is not None or d["trump"] in (None, "N"):
            continue
        trump = d["trump"]
        tricks = d["tricks"]
        plays = [(k, j, (t["leader"] + j) % 4, c) for k, t in enumerate(tricks) for j, c in enumerate(t["cards"])]
        for k, j, seat, c in plays:
            led = tricks[k]["cards"][0][1]
            if j == 0 or c[1] != trump or led == trump:
                continue
            # seat trumped (void in led suit); swap with a later non-trump, non-led card of the same seat
            for k2, j2, seat2, c2 in plays:
                if k2 > k and seat2 == seat and c2[1] not in (trump, led):
                    tricks[k]["cards"][j], tricks[k2]["cards"][j2] = c2, c
                    found = True
                    break
            if found:
                break
        if found:
            divs, _ = verify_dicts(ds)
            only_clause(divs, "play.must-trump", f"tricks[{k}].cards[{j}]")
            return
    pytest.skip("no trumping play with a later discard in these matches")


@pytest.mark.parametrize("rid", ["bsfyi-41", "card-kings-41", "eram-41", "tarneeb-400"])
def test_pass_in_41_family(rid: str) -> None:
    ds = dicts_of(rid)
    i = first_played(ds)
    ds[i]["bids"][2][1] = "pass"
    divs, _ = verify_dicts(ds)
    d = only_clause(divs, "bid.no-pass", "bids[2]")
    assert d.line == i + 1


def test_bid_out_of_turn() -> None:
    ds = dicts_of("bsfyi-41")
    i = first_played(ds)
    ds[i]["bids"][0][0] = (ds[i]["bids"][0][0] + 2) % 4
    divs, _ = verify_dicts(ds)
    only_clause(divs, "bid.turn", "bids[0].seat")


def _all_pass_match() -> list[dict[str, Any]]:
    """A classic match whose first deal is passed out, then one played deal."""
    rng = random.Random(3)
    m = Match(load_rules("classic"), 1)
    m.apply(Deal(random_deck(rng)))
    for _ in range(4):
        m.apply(PASS)
    m.apply(Deal(random_deck(rng)))
    while m.phase is not Phase.DEAL and not m.is_over():
        m.apply(POLICIES["random"](m, rng))
    return list(match_dicts(m, "allpass"))


def _with_redeal(rid: str, opts: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], int]:
    if rid == "classic":
        return _all_pass_match(), 1
    for n in range(4):
        ds = dicts_of(rid, opts, n)
        for i in range(1, len(ds) - 1):
            if ds[i].get("redeal") is not None:
                return ds, i
    raise AssertionError(f"no redeal in the sample matches of {rid}")


@pytest.mark.parametrize(("rid", "clause"), [("bsfyi-41", "redeal.dealer"), ("eram-41", "redeal.dealer"),
                                             ("classic", "auction.all-pass")])
def test_wrong_redeal_dealer(rid: str, clause: str) -> None:
    ds, i = _with_redeal(rid)
    rules = load_rules(rid)
    nxt = ds[i + 1]["dealer"]
    assert nxt == (ds[i]["dealer"] if rules.redeal_same_dealer else (ds[i]["dealer"] + rules.step) % 4)
    ds[i + 1]["dealer"] = (nxt + 1) % 4 if rules.redeal_same_dealer else ds[i]["dealer"]
    divs, _ = verify_dicts(ds)
    d = only_clause(divs, clause, "dealer")
    assert d.line == i + 2


def test_wrong_rotation_and_missed_redeal() -> None:
    ds = dicts_of("classic")
    i = first_played(ds)
    assert i + 1 < len(ds), "the seeded match has a hand after its first played one"
    ds[i + 1]["dealer"] = (ds[i + 1]["dealer"] + 2) % 4
    divs, _ = verify_dicts(ds)
    only_clause(divs, "deal.rotation", "dealer")
    ds, i = _with_redeal("bsfyi-41")
    ds[i]["redeal"] = None
    divs, _ = verify_dicts(ds)
    only_clause(divs, "bid.total", "redeal")


@pytest.mark.parametrize("rid", ["classic", "bsfyi-41", "tarneeb-400"])
def test_wrong_outcome(rid: str) -> None:
    ds = dicts_of(rid)
    last = ds[-1]
    assert last["outcome"]["match_over"] is True and last["outcome"]["winner"] in (0, 1)
    last["outcome"]["winner"] = 1 - last["outcome"]["winner"]
    divs, _ = verify_dicts(ds)
    d = only_clause(divs, last["outcome"]["clause"], "outcome.winner")
    assert d.line == len(ds)
    # a winner claimed too early
    ds = dicts_of(rid)
    i = first_played(ds)
    if ds[i]["outcome"]["winner"] is None:
        ds[i]["outcome"]["winner"] = 0
        divs, _ = verify_dicts(ds)
        assert any(d.field == "outcome.winner" and d.line == i + 1 for d in divs)


def test_hand_after_match_over() -> None:
    ds = dicts_of("classic")
    extra = copy.deepcopy(ds[-1])
    extra["hand"] += 1
    divs, _ = verify_dicts(ds + [extra])
    assert [d.field for d in divs] == ["hand"] and divs[0].line == len(ds) + 1


# ------------------------------------------------------------------ files, jobs, CLI

def write_file(path: Path, rid: str = "classic", n: int = 4, opts: dict[str, Any] | None = None) -> None:
    with path.open("wb") as f:
        for i, m in enumerate(matches(rid, json.dumps(opts or {}, sort_keys=True), n)):
            f.writelines(match_lines(m, f"{rid}:{i}"))


def test_jobs_give_the_same_reports(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    write_file(p, "bsfyi-41", 6)
    lines = p.read_bytes().splitlines(keepends=True)
    # break a few lines in distinct ways
    lines[3] = lines[3].replace(b'"winner":', b'"winner":9,"x":', 1)
    lines[7] = lines[7][:40] + b"\xff\xfe" + lines[7][40:]
    lines[-5] = lines[-5].replace(b'"pass"', b'"13"', 1) if b'"pass"' in lines[-5] else b"{broken\n"
    p.write_bytes(b"".join(lines))
    one: list[str] = []
    s1 = verify_paths([str(p)], jobs=1, on_report=lambda r: one.append(r.text()))
    two: list[str] = []
    s2 = verify_paths([str(p)], jobs=2, on_report=lambda r: two.append(r.text()), chunk_bytes=5000)
    assert one and one == two
    assert s1.to_json() == {**s2.to_json(), "files": s1.files}
    assert s1.hands == s2.hands and s1.errors >= 1


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.jsonl"
    assert cli_main(["record", "--ruleset", "eram-41", "--matches", "2", "--seed", "5", "--out", str(good)]) == 0
    assert cli_main(["verify", str(good), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "clean" in out and "0 divergence" in out
    lines = good.read_bytes().splitlines(keepends=True)
    d = orjson.loads(lines[1])
    if d.get("redeal") is None:
        d["tricks"][0]["winner"] = (d["tricks"][0]["winner"] + 1) % 4
    else:
        d["dealer"] = (d["dealer"] + 1) % 4
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(lines[0] + orjson.dumps(d) + b"\n" + b"".join(lines[2:]))
    assert cli_main(["verify", str(bad), "--json", "--jobs", "1"]) == 1
    objs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert objs[-1]["kind"] == "summary" and objs[-1]["divergences"] >= 1 and objs[-1]["exit"] == 1
    assert objs[0]["kind"] == "divergence" and objs[0]["line"] == 2
    trunc = tmp_path / "trunc.jsonl"
    trunc.write_bytes(good.read_bytes()[:-200])
    assert cli_main(["verify", str(trunc), "--jobs", "1"]) == 2
    out = capsys.readouterr().out
    assert "truncated" in out
    assert cli_main(["verify", str(tmp_path / "missing.jsonl")]) == 2
    assert cli_main(["verify", str(good), "--ruleset", "nope"]) == 2


def test_verify_counts_hands_and_tricks_from_1_in_words_as_the_web_page(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The human output locates a divergence as the web referee's records page does, hands and tricks counted from 1
    ("hand 3 trick 4" for the JSON's hand 2, trick 3); the JSON keeps them from 0."""
    good = tmp_path / "good.jsonl"
    assert cli_main(["record", "--ruleset", "card-kings-41", "--matches", "1", "--seed", "1", "--out", str(good)]) == 0
    lines = [orjson.loads(x) for x in good.read_bytes().splitlines()]
    played = [d for d in lines if d.get("type") == "hand" and d.get("tricks")]
    played[2]["tricks"][3]["winner"] = (played[2]["tricks"][3]["winner"] + 1) % 4
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in lines))
    assert cli_main(["verify", str(bad), "--json", "--jobs", "1"]) == 1
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["kind"] == "divergence" and first["field"] == "tricks[3].winner", first
    assert cli_main(["verify", str(bad), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    where = f":{first['line']}: match {first['match']} hand {first['hand'] + 1} trick {first['trick'] + 1}: tricks[3].winner:"
    assert where in out, out[:600]
