"""Score sheets (spec/sheets/, :mod:`tarneeb.sheet`, ``tarneeb score``): a sheet written from a match core played with
cards replays to that match's dealers, score changes, running scores, games and outcome; every impossible entry kind
is reported at its hand, field and clause; the sheet follows a rule changed in core."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from tests.pyodide_like import WITHOUT_EXTRAS
from tests.sheet_support import EXAMPLE_MATCHES, EXAMPLES, PLAYERS, example_match, sheet_of_match

from tarneeb import Match, load_rules
from tarneeb.cli import main
from tarneeb.core import rules as R
from tarneeb.core.sources import rule_words
from tarneeb.play.simulate import play_match
from tarneeb.sheet import score_sheet, sheet_from_data

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "spec" / "sheets" / "schema-v1.json").read_text(encoding="utf-8"))


def _score(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str, str]:
    rc = main(["score", str(path), *extra])
    out, err = capsys.readouterr()
    return rc, out, err


def _write(tmp_path: Path, sheet: dict[str, Any], name: str = "sheet.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(sheet), encoding="utf-8")
    return p


def _assert_engine(m: Match, got: dict[str, Any]) -> None:
    """What ``tarneeb score --json`` says of a sheet of ``m`` is what core's match recorded, deal by deal."""
    recs = m.records
    assert [h["hand"] for h in got["hands"]] == list(range(1, len(recs) + 1)) and got["error"] is None
    for h, rec, nxt in zip(got["hands"], recs, [*recs[1:], None], strict=True):
        assert h["dealer"] == rec.dealer
        assert h["redeal"] == rec.redeal
        assert h["scores"] == rec.scores_after
        assert h["deltas"] == (rec.deltas if rec.redeal is None else [0, 0, 0, 0])
        if rec.redeal is None:
            assert h["tricks_won"] is not None and R.team_tricks(h["tricks_won"]) == R.team_tricks(rec.tricks_won)
            if m.rules.individual:
                assert h["tricks_won"] == rec.tricks_won
            else:
                assert h["contract"]["seat"] == rec.contract[0]  # type: ignore[index]
        assert h["next_dealer"] == (nxt.dealer if nxt is not None else (None if m.is_over() else m.dealer))
        assert h["outcome"]["match_over"] == (nxt is None and m.is_over())
    games = [h["outcome"]["game_won"] for h in got["hands"] if h["outcome"]["game_won"] is not None]
    assert games + ([m.winner] if m.is_over() else []) == m.games  # the games before play-on, then the match's
    assert got["outcome"] == {"winner": m.winner, "clause": m.winner_rule or None, "match_over": m.is_over()}
    assert got["scores"] == m.scores


# ------------------------------------------------------------------ the examples


@pytest.mark.parametrize("name", sorted(EXAMPLE_MATCHES))
def test_each_example_is_its_seeded_match_and_valid(name: str) -> None:
    path = EXAMPLES / f"{name}.json"
    _, sheet = example_match(name)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written == sheet, "write the examples again: python tests/sheet_support.py"
    jsonschema.validate(written, SCHEMA)


@pytest.mark.parametrize("name", sorted(EXAMPLE_MATCHES))
def test_the_cli_on_each_example_equals_the_engine(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    m, _ = example_match(name)
    assert m.is_over()  # a whole match each
    rc, out, err = _score(capsys, EXAMPLES / f"{name}.json", "--json")
    assert rc == 0 and err == ""
    _assert_engine(m, json.loads(out))


def test_the_examples_show_what_they_are_for() -> None:
    """A cancelled deal and a tie settled by the tie rule (card-kings-41), a cancelled deal (tarneeb-400), weak-hand
    redeals, play-on and contracts written alone (classic)."""
    kings = example_match("card-kings-41")[0]
    assert "bid.total" in [r.redeal for r in kings.records] and kings.winner_rule == "tie.both-qualify"
    assert "bid.total" in [r.redeal for r in example_match("tarneeb-400")[0].records]
    classic, sheet = example_match("classic")
    assert "deal.weak-redeal" in [r.redeal for r in classic.records] and len(classic.games) == 2
    assert any("contract" in h for h in sheet["hands"]) and any("calls" in h for h in sheet["hands"])


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize(("rid", "options", "reading"), [
    ("bsfyi-41", {}, {}), ("eram-41", {}, {}), ("card-kings-41", {}, {}), ("bsfyi-41", {"made_bid_wins": 10}, {}),
    ("tarneeb-400", {"target": 61}, {}),
    ("classic", {"egyptian": True, "kaboot": "double", "bid13": "26"}, {}),
    ("classic", {"auction": "continuous", "scoring": "bid-only", "min_bid": 8}, {}),
    ("classic", {"weak_redeal": True}, {"weak-hand": "claimed"}),
])
def test_sheets_of_seeded_matches_replay_to_the_engine(rid: str, options: dict[str, Any], reading: dict[str, str],
                                                       policy: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Seeded self-play matches with cards (the random policy bids 13, makes a kaboot now and then, redeals a weak
    hand on a claim), written as sheets, replay to the match core played: the CLI's JSON, deal by deal."""
    from tarneeb.core.ambiguity import with_readings
    from tarneeb.core.spec import get_ruleset

    rules = load_rules(with_readings(get_ruleset(rid), reading), options)
    for seed in range(3):
        m = play_match(rules, f"sheet-test-{seed}", policy=policy, max_hands=40).match
        sheet = sheet_of_match(m, contract_every=2)
        sheet["options"], sheet["readings"] = options, reading
        jsonschema.validate(sheet, SCHEMA)
        rc, out, _ = _score(capsys, _write(tmp_path, sheet), "--json")
        assert rc == 0
        _assert_engine(m, json.loads(out))


# ------------------------------------------------------------------ the words


def test_the_human_output_names_players_and_says_the_arithmetic(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _score(capsys, EXAMPLES / "card-kings-41.json")
    assert rc == 0 and err == ""
    m = example_match("card-kings-41")[0]
    first = m.records[0]
    hala_bid = next(b.n for s, b in first.bids if s == 1)
    assert f"Hand 1, dealt by {PLAYERS[first.dealer]}:" in out
    assert re.search(rf"Hala bid {hala_bid} and took {first.tricks_won[1]}: (made|failed), [+-]?\d+, "
                     r"by the individual-scoring rule \(score\.individual\)\.", out)
    assert f"Rami 0 {'+' if first.deltas[0] >= 0 else '-'} {abs(first.deltas[0])} = {first.scores_after[0]}" in out
    assert "The deal is thrown in: bids total" in out and "by the bid-total rule (bid.total)." in out \
        and "deals again, by the redeal-dealer rule (redeal.dealer)" in out
    assert out.rstrip().endswith(f"win the match by the both-qualify tie rule (tie.both-qualify); final scores Rami {m.scores[0]}, "
                                 f"Hala {m.scores[1]}, Sami {m.scores[2]}, Dina {m.scores[3]}.")
    assert not re.search(r"seat \d|\[|\{|Bid\(|None", out)
    said = re.findall(r"bid (\d+)(?: \(a bid of \d+ is worth (\d+)\))? and took (\d+): (made|failed), ([+-]?\d+)", out)
    assert len(said) > 40 and all((word == "made") == (int(d) > 0) and abs(int(d)) == int(worth or bid)
                                  for bid, worth, _, word, d in said)
    rc, out, _ = _score(capsys, EXAMPLES / "classic.json")
    sheet = example_match("classic")[1]
    said = re.findall(r"won the auction with (\d+)[^;]*; \w+ and \w+ took (\d+) of 13: (made|failed)\.", out)
    assert [int(took) for _, took, _ in said] == [h["bidding_team_tricks"] for h in sheet["hands"]
                                                  if "bidding_team_tricks" in h]
    assert all((word == "made") == (int(took) >= int(bid)) for bid, took, word in said)
    assert "Rami & Sami" in out and "win a game; play goes on to 82, by " in out and "(win.play-on)." in out
    assert "The deal is thrown in: a player held no card above 10; no score changes, by " in out


# ------------------------------------------------------------------ impossible entries


def _sheet(rid: str, hands: list[dict[str, Any]], **head: Any) -> dict[str, Any]:
    return {"format": "tarneeb-score-sheet", "version": 1, "ruleset": rid, "players": PLAYERS, "first_dealer": 0,
            "hands": hands, **head}


@pytest.mark.parametrize(("rid", "hands", "line"), [
    # an illegal bid: card-kings-41 leaves out the bid of 6
    ("card-kings-41", [{"bids": [4, 6, 2, 2], "tricks_won": [3, 3, 3, 4]}],
     "hand 1: bids: the second bid, Sami's 6: "),
    # the tricks do not make 13
    ("card-kings-41", [{"bids": [4, 3, 2, 2], "tricks_won": [3, 3, 3, 3]}],
     "hand 1: tricks_won: the tricks taken, 3 + 3 + 3 + 3 = 12, must make the 13 tricks of a hand (hand.tricks)"),
    # tricks written for a deal its bids throw in (the same dealer deals again)
    ("card-kings-41", [{"bids": [2, 2, 2, 2], "tricks_won": [3, 3, 3, 4]}],
     "hand 1: tricks_won: the deal was thrown in (bids total 8, below 11): no tricks are taken (bid.total)"),
    # no tricks for a played deal
    ("tarneeb-400", [{"bids": [4, 3, 2, 2]}], "hand 1: tricks_won: the hand is played: the tricks each player took "
                                              "are needed (hand.tricks)"),
    # three bids: the dealer is still to bid
    ("bsfyi-41", [{"bids": [4, 3, 2], "tricks_won": [3, 3, 3, 4]}],
     "hand 1: bids: the bidding is not over: Rami is still to bid (bid.turn)"),
    # a contract no auction can end in (below the lowest bid)
    ("classic", [{"contract": {"seat": 1, "bid": "6"}, "bidding_team_tricks": 7}],
     "hand 1: contract: Hala's contract of 6: bids run from 7 to 13 (auction.range)"),
    # more calls than the auction takes
    ("classic", [{"calls": ["7", "pass", "pass", "pass", "8"], "bidding_team_tricks": 7}],
     "hand 1: calls: the bidding was over after the fourth call; 5 are written (auction.order)"),
    # the contract's team took more than 13
    ("classic", [{"calls": ["7", "pass", "pass", "pass"], "bidding_team_tricks": 14}],
     "hand 1: bidding_team_tricks: the contract's team took 14 of the 13 tricks: a number from 0 to 13 is needed "
     "(hand.tricks)"),
    # a weak-hand redeal where the ruleset plays such a hand
    ("classic", [{"redeal": "deal.weak-redeal"}], "hand 1: redeal: this ruleset plays a hand with no card above 10; "
                                                  "the deal is not thrown in (deal.weak-redeal)"),
])
def test_an_impossible_entry_is_reported_at_its_hand_field_and_clause(
        rid: str, hands: list[dict[str, Any]], line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, _sheet(rid, hands))
    rc, _, err = _score(capsys, path)
    assert rc == 1 and err.startswith(f"{path}: {line}"), err
    assert re.fullmatch(rf"{re.escape(str(path))}: hand \d+: [a-z_]+: .+ \([a-z0-9.-]+\)\n", err), err


def test_an_illegal_bid_cites_the_clause_core_refuses_it_by(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, _sheet("card-kings-41", [{"bids": [4, 6, 2, 2], "tricks_won": [3, 3, 3, 4]}]))
    _, _, err = _score(capsys, path)
    assert err.endswith("(bid.excluded)\n")
    path = _write(tmp_path, _sheet("classic", [{"contract": {"seat": 1, "bid": "6"}, "bidding_team_tricks": 7}]))
    _, _, err = _score(capsys, path)
    assert err.endswith("(auction.range)\n")


def test_a_trump_other_than_the_egyptian_contracts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [{"contract": {"seat": 1, "bid": "8H"}, "trump": "S", "bidding_team_tricks": 8}]
    path = _write(tmp_path, _sheet("classic", hands, options={"egyptian": True}))
    rc, _, err = _score(capsys, path)
    assert rc == 1 and err == f"{path}: hand 1: trump: the contract names hearts as trump, not spades (auction.egyptian)\n"
    hands[0]["trump"] = "H"
    rc, _, _ = _score(capsys, _write(tmp_path, _sheet("classic", hands, options={"egyptian": True})))
    assert rc == 0


def test_a_first_dealer_the_rules_refuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Under reading seat0 of ambiguity first-dealer only seat 0 deals first: the head's entry, its line alone."""
    path = _write(tmp_path, _sheet("bsfyi-41", [], first_dealer=2, readings={"first-dealer": "seat0"}))
    rc, out, err = _score(capsys, path)
    assert rc == 1 and out == "" and err == f"{path}: first_dealer: under reading seat0 of ambiguity first-dealer " \
                                            "seat 0 deals the first hand (deal.first-dealer)\n"
    rc, out, _ = _score(capsys, _write(tmp_path, _sheet("bsfyi-41", [], readings={"first-dealer": "seat0"})))
    assert rc == 0 and out.rstrip().endswith("no winner yet; scores Rami 0, Hala 0, Sami 0, Dina 0; Rami deals hand 1.")


def test_a_hand_after_the_match_ended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m, sheet = example_match("tarneeb-400")
    n = len(sheet["hands"])
    sheet["hands"].append({"bids": [2, 2, 3, 4], "tricks_won": [3, 3, 3, 4]})
    path = _write(tmp_path, sheet)
    rc, out, err = _score(capsys, path)
    team = " and ".join(PLAYERS[s] for s in range(4) if R.team_of(s) == m.winner)
    assert rc == 1 and err == f"{path}: hand {n + 1}: hand: the match was over after hand {n}: {team} won it " \
                              f"({m.winner_rule})\n"
    assert f"{team} win the match by {rule_words(m.winner_rule)}" in out  # the hands before are still shown
    rc, out, _ = _score(capsys, path, "--json")
    got = json.loads(out)
    assert rc == 1 and len(got["hands"]) == n and got["error"] == {
        "hand": n + 1, "field": "hand", "clause": m.winner_rule,
        "message": f"the match was over after hand {n}: {team} won it"}


@pytest.mark.parametrize(("change", "words"), [
    ({"ruleset": "card-kings-42"}, ": ruleset: unknown ruleset; did you mean "),
    ({"version": 2}, ": version: this tarneeb reads version 1 of the score sheet, not 2"),
    ({"format": "tarneeb-record"}, ": format: 'tarneeb-score-sheet' is needed, not 'tarneeb-record'"),
    ({"players": ["Rami", "Hala", "Sami"]}, ": players: the four players' names are needed, in seat order"),
    ({"options": {"target": 40}}, ": options: "),
    ({"hands": [{"bids": [4, 3, 2, 2], "calls": ["pass"]}]}, ": hand 1: give one of bids"),
    ({"hands": [{"calls": ["7", "pass", "pass", "pass"], "bidding_team_tricks": 7}]},
     ": hand 1: calls: card-kings-41 is played with individual bids: write bids and tricks_won"),
    ({"hands": [{"bids": ["six"]}]}, ': hand 1: bids: "six" is no bid'),
    ({"hands": [{"bids": [4, 3, 2, 2], "tricks_won": [3, 3, 3, 4], "bidding_team_tricks": 6}]},
     ": hand 1: give the tricks once"),
    ({"extra": 1}, ": extra: unknown field"),
])
def test_a_sheet_that_cannot_be_used_is_exit_2(change: dict[str, Any], words: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    sheet = {**_sheet("card-kings-41", []), **change}
    path = _write(tmp_path, sheet)
    rc, out, err = _score(capsys, path)
    assert rc == 2 and out == "" and err.startswith(f"tarneeb: error: {path}{words}"), err
    assert "Traceback" not in err and err.count("\n") == 1
    # the schema refuses the same shapes (a ruleset, its options and the family of its hands are not its to say)
    shape = not ({"ruleset", "options"} & set(change)) and "individual bids" not in words
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(sheet) is not shape, change


def test_a_file_that_is_not_json_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sheet.json"
    path.write_text('{"format": "tarneeb-score-sheet",\n "version": 1,,}', encoding="utf-8")
    rc, _, err = _score(capsys, path)
    assert rc == 2 and err == f"tarneeb: error: {path}: line 2: not JSON: Expecting property name enclosed in " \
                              "double quotes\n"
    rc, _, err = _score(capsys, tmp_path / "none.json")
    assert rc == 2 and err.startswith(f"tarneeb: error: {tmp_path / 'none.json'}: (file): ")


def test_a_house_ruleset_file_beside_the_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = ROOT / "spec" / "house-rules" / "card-kings-total-13.toml"
    (tmp_path / "house.toml").write_text(house.read_text(encoding="utf-8"), encoding="utf-8")
    # bids totalling 12 are played under card-kings-41 and thrown in under the house rule (bid.total of 13)
    hands = [{"bids": [4, 3, 3, 2], "tricks_won": [3, 3, 3, 4]}]
    rc, out, _ = _score(capsys, _write(tmp_path, _sheet("card-kings-41", hands)), "--json")
    assert rc == 0 and json.loads(out)["hands"][0]["redeal"] is None
    rc, _, err = _score(capsys, _write(tmp_path, _sheet("house.toml", hands)))
    assert rc == 1 and err.endswith("no tricks are taken (bid.total)\n"), err


# ------------------------------------------------------------------ the rules are core's


def test_the_sheet_follows_a_rule_changed_in_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """redeal.dealer, score.values and win.qualify changed in core: the sheet's next dealer after a cancelled deal,
    its score changes and its outcome follow (nothing of them is worked out outside core)."""
    sheet = sheet_from_data(_sheet("card-kings-41", [{"bids": [2, 2, 2, 2]},
                                                     {"bids": [5, 3, 3, 2], "tricks_won": [6, 3, 2, 2]}]))
    before = score_sheet(sheet)
    assert [h.dealer for h in before.hands] == [0, 0] and before.hands[0].next_dealer == 0
    assert before.hands[1].deltas == (2, -5, -3, -3)
    old_value = R.bid_value
    monkeypatch.setattr(R, "dealer_after_redeal", lambda r, dealer: R.next_seat(r, dealer))
    monkeypatch.setattr(R, "bid_value", lambda r, bid: 7 if bid == 5 else old_value(r, bid))
    after = score_sheet(sheet)
    assert [h.dealer for h in after.hands] == [0, 1] and after.hands[0].next_dealer == 1
    assert after.hands[1].deltas[2] == -7  # the bid of 5 (Sami's, dealt by Hala) now worth 7
    assert any(r.clause == "score.values" and "worth 7" in r.text for r in after.hands[1].reasons)


def _referee(rid: str, options: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    from tarneeb.ruling import parse_situation
    from tarneeb.ruling.decision import decide

    s = parse_situation({"ruleset": rid, **({"options": {rid: options}} if options else {}), **raw})
    return dict(decide(s.question.kind, load_rules(rid, options), s).answer)


@pytest.mark.parametrize(("rid", "options", "hands", "ends"), [
    # a kaboot (16 under the default), then a bid of 13 made: the game is won on the spot (score.bid13)
    ("classic", {}, [{"contract": {"seat": 1, "bid": "8"}, "bidding_team_tricks": 13},
                     {"calls": ["pass", "pass", "13", "pass"], "trump": "H", "bidding_team_tricks": 13}], "score.bid13"),
    # kaboot doubled; a failed 13 under bid13 = 26 (-16); the defenders' kaboot
    ("classic", {"kaboot": "double", "bid13": "26", "egyptian": True},
     [{"calls": ["8H", "pass", "pass", "pass"], "bidding_team_tricks": 13},
      {"contract": {"seat": 3, "bid": "13N"}, "bidding_team_tricks": 12},
      {"contract": {"seat": 0, "bid": "7S"}, "bidding_team_tricks": 0}], None),
    # a made bid of 10 wins at once (win.made-bid)
    ("bsfyi-41", {"made_bid_wins": 10}, [{"bids": [2, 3, 2, 10], "tricks_won": [1, 1, 1, 10]}], "win.made-bid"),
    # 400: a bid's value from the table (a bid of 5 is worth 10)
    ("tarneeb-400", {}, [{"bids": [5, 2, 2, 4], "tricks_won": [4, 5, 2, 2]}], None),
])
def test_kaboot_bid13_and_a_made_bid_agree_with_the_referee(rid: str, options: dict[str, Any],
                                                           hands: list[dict[str, Any]], ends: str | None) -> None:
    """Each hand's score changes are what ``tarneeb ruling`` answers to the question ``score`` (the hand stepped
    with cards it completes), at the scores before it; the outcome is its answer to ``winner``."""
    res = score_sheet(sheet_from_data(_sheet(rid, hands, first_dealer=3, options=options)))
    assert res.error is None and len(res.hands) == len(hands)
    before = res.start_scores
    for h in res.hands:
        assert h.tricks_won is not None
        raw: dict[str, Any] = {"dealer": h.dealer, "tricks": list(h.tricks_won)}
        if h.contract is None:
            raw |= {"scores": list(before), "bids": {str(s): b.n for s, b in h.calls}}
        else:
            raw |= {"scores": [before[0], before[1]], "contract": {"seat": h.contract[0], "bid": h.contract[1]}
                    | ({} if h.contract[2] is None else {"trump": "CDHSN"[h.contract[2]]})}
        score = _referee(rid, options, {**raw, "question": {"kind": "score"}})
        assert tuple(score["deltas"]) == h.deltas, (h.number, score)
        won = _referee(rid, options, {**raw, "question": {"kind": "winner"}})
        assert (won["winner"], won["clause"]) == (h.winner, h.outcome_clause) or \
            (h.winner is None and won["winner"] is None), (h.number, won)
        before = h.scores
    assert res.over == (ends is not None) and res.winner_clause == (ends or "")


def test_the_sheet_replays_without_orjson_rich_or_starlette() -> None:
    """The future score sheet page runs the same Python under Pyodide: tarneeb.sheet reads and replays a sheet in a
    Python without orjson, z3, rich or Starlette, to the same result."""
    import os
    import subprocess
    import sys

    code = WITHOUT_EXTRAS + r'''
from tarneeb.sheet import result_dict, score_sheet, sheet_from_data
print(json.dumps(result_dict(score_sheet(sheet_from_data(json.loads(sys.argv[1]))))))
'''
    text = (EXAMPLES / "classic.json").read_text(encoding="utf-8")
    p = subprocess.run([sys.executable, "-c", code, text], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "model")})
    assert p.returncode == 0, p.stderr[-3000:]
    from tarneeb.sheet import result_dict

    assert json.loads(p.stdout) == result_dict(score_sheet(sheet_from_data(json.loads(text))))
