"""Readings of the ambiguity register selected by ``--reading`` and a house file's ``[readings]``.

Each selectable reading changes what the engine scores (never a label only); the engine equals the encoding under
every reading at every input of the scoring domain; a record set written under a reading verifies clean when the
reading is selected (by its header or by ``--reading``), and without it the verifier names the reading; a variant no
document names is stated in a house file citing its own source, or refused."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarneeb.core import rules as R
from tarneeb.core.ambiguity import ambiguities, selectable_readings, taken_for, with_readings
from tarneeb.core.spec import get_ruleset, load_rules, rulesets
from tarneeb.errors import ConfigError, SpecError
from tarneeb.play.simulate import play_match
from tarneeb.records import verify_lines
from tarneeb.records.writer import match_dicts
from tarneeb_proofs.encode import Encoding

ROOT = Path(__file__).resolve().parents[1]
SCORING = list(itertools.product(("standard", "bid-only"), ("16", "26", "double", "none"), ("win", "26", "normal")))


def _domain() -> list[tuple[int, int, tuple[int, int]]]:
    return [(c, bt, (tb, 13 - tb) if bt == 0 else (13 - tb, tb)) for c in range(7, 14) for bt in (0, 1)
            for tb in range(14)]


_SCORING_AMBIGUITIES = {"defender-kaboot", "kaboot-double-defenders", "kaboot-bid-only", "bid13-vs-kaboot"}


def _selected() -> list[tuple[str, str]]:
    """The scoring readings classic can select (first-dealer has its own test below)."""
    return [(a.id, rid) for a in selectable_readings(get_ruleset("classic")) for rid in a.params
            if a.id in _SCORING_AMBIGUITIES]


def test_the_classic_scoring_readings_are_selectable_and_the_ruleset_takes_the_one_its_parameters_say() -> None:
    ids = {a.id for a in selectable_readings(get_ruleset("classic"))}
    assert ids == _SCORING_AMBIGUITIES | {"first-dealer", "forced-dealer-minimum", "egyptian-dealer-match",
                                          "play-on-count", "classic-deal-order", "weak-hand"}
    for a in ambiguities():
        taken = taken_for(a, get_ruleset("classic"))
        if a.selectable and taken is not None:  # selecting the reading a ruleset takes changes nothing
            assert with_readings(get_ruleset("classic"), {a.id: taken}).readings == {}


@pytest.mark.parametrize(("aid", "rid"), _selected())
def test_every_reading_is_the_encoding_at_every_input_and_a_non_default_one_changes_some_score(aid: str,
                                                                                                rid: str) -> None:
    rs = with_readings(get_ruleset("classic"), {aid: rid})
    changed = 0
    for style, kaboot, bid13 in SCORING:
        opts = {"scoring": style, "kaboot": kaboot, "bid13": bid13}
        rules, base = load_rules(rs, opts), load_rules("classic", opts)
        enc = Encoding(rules)
        for c, bt, tt in _domain():
            got = R.team_deltas(rules, c, bt, tt)
            assert enc.eval_team_deltas(c, bt, tt) == got, (aid, rid, opts, c, bt, tt)
            changed += got != R.team_deltas(base, c, bt, tt)
    taken = taken_for(next(a for a in ambiguities() if a.id == aid), get_ruleset("classic"))
    assert (changed > 0) == (rid != taken), (aid, rid, changed)


def test_the_variant_no_document_names_pays_the_defenders_double_on_a_failed_13_only(tmp_path: Path) -> None:
    f = tmp_path / "f13.toml"
    body = ('schema = 1\nid = "club-f13"\nextends = "classic"\nname = "Club"\nsummary = "A club."\n'
            '[params]\nscore.failed13_defenders = "double"\n')
    f.write_text(body)
    with pytest.raises(SpecError, match="no rule document names"):
        get_ruleset(str(f))
    g = tmp_path / "f13b.toml"
    g.write_text(body + '[[source]]\nid = "club-sheet-f13"\npublisher = "a club"\npublished = "its notice board"\n'
                 '[[clause]]\nid = "score.standard"\nheading = "Scoring"\ndoc = "club-sheet-f13"\n'
                 'text = "As classic; a failed bid of 13 pays the defenders twice their tricks."\n')
    rules = load_rules(get_ruleset(str(g)))
    assert R.team_deltas(rules, 13, 0, (10, 3)) == (-13, 6)
    assert R.team_deltas(rules, 12, 0, (10, 3)) == (-12, 3)
    assert R.team_deltas(rules, 13, 1, (3, 10)) == (6, -13)
    enc = Encoding(rules)
    assert all(enc.eval_team_deltas(c, bt, tt) == R.team_deltas(rules, c, bt, tt) for c, bt, tt in _domain())


# the records of one match of random play, by its rules, seed and starting scores: several tests read the same
# match (the weak seats' claims and the engine letting them keep their hands play the same 20 matches; the first
# seeds of those and of the deal in packets are the records of the readings' table below), and a match of random
# play is a function of its rules and seed, so each is played once for the module
_PLAYED: list[tuple[Any, int, tuple[int, ...] | None, list[bytes]]] = []


def _records(rules: Any, seeds: range, scores: list[int] | None = None) -> list[bytes]:
    """Records of random play; from ``scores`` when given (one hand each, seats bidding their lowest bid mostly)."""
    out: list[bytes] = []
    for seed in seeds:
        out += _played(rules, seed, scores)
    return out


def _played(rules: Any, seed: int, scores: list[int] | None) -> list[bytes]:
    """The records of the match of ``seed`` (:func:`_records`), played once for the module."""
    key = None if scores is None else tuple(scores)
    for r, s, k, lines in _PLAYED:
        if s == seed and k == key and r == rules:
            return lines
    if scores is None:
        m = play_match(rules, "rd", seed, "random", 400).match
    else:
        import random

        from tarneeb.core.actions import Bid, Deal
        from tarneeb.core.match import Match, Phase, random_deck
        from tarneeb.play.bots import POLICIES

        rng = random.Random(seed)
        m = Match(rules, seed % 4, scores)
        deals = 0
        while m.hands_played < 1 and m.phase is not Phase.OVER and deals < 20:
            if m.phase is Phase.DEAL:
                m.apply(Deal(random_deck(rng)))
                deals += 1
            elif m.phase is Phase.BIDDING:  # the lowest bid, now and then the highest (a total that plays)
                ns = [a.n for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None]
                m.apply(Bid(min(ns) if rng.random() < 0.7 else max(ns)))
            else:
                m.apply(POLICIES["random"](m, rng))
    out = [orjson.dumps(d) for d in match_dicts(m, f"rd:{seed}")]
    _PLAYED.append((rules, seed, key, out))
    return out


def _without_readings(lines: list[bytes]) -> list[bytes]:
    """The same records with the readings taken out of their headers (as an engine that does not say them)."""
    out = []
    for ln in lines:
        obj = orjson.loads(ln)
        obj.pop("readings", None)
        out.append(orjson.dumps(obj))
    return out


def test_records_of_a_bidders_only_engine_verify_clean_under_that_reading_and_name_it_otherwise() -> None:
    rules = load_rules(with_readings(get_ruleset("classic"), {"defender-kaboot": "bidders-only"}))
    lines = _records(rules, range(40))
    assert orjson.loads(lines[0])["readings"] == {"defender-kaboot": "bidders-only"}
    s, reps = verify_lines(lines)
    assert s.divergences == 0 and s.hands > 1000, reps[:3]  # the header's readings are followed
    plain = _without_readings(lines)
    s, reps = verify_lines(plain)
    assert s.divergences > 0 and {d.field for d in reps} == {"deltas"}, reps[:3]
    (row,) = s.diagnosis()
    assert row["status"] == "cause" and row["cause"] == "reading-bidders-only-of-defender-kaboot", row
    # the explanation names the reading; --reading is suggested only once tried on the files (records.suggest)
    assert "reading bidders-only of ambiguity defender-kaboot" in row["explanation"]
    assert "--reading" not in row["explanation"]
    # kaboot = none fits the same hands, but the clean hands where the bidders took 13 and scored 16 deny it
    assert [c["cause"] for c in row["contradicted"]] == ["scored-as-kaboot-none"], row
    s, reps = verify_lines(plain, readings={"defender-kaboot": "bidders-only"})
    assert s.divergences == 0, reps[:3]


def test_a_house_file_selects_a_reading_and_its_clause_says_which(tmp_path: Path) -> None:
    f = tmp_path / "bo.toml"
    f.write_text('schema = 1\nid = "club-bo"\nextends = "classic"\nname = "Club"\nsummary = "A club."\n'
                 '[readings]\ndefender-kaboot = "bidders-only"\n')
    rs = get_ruleset(str(f))
    assert rs.readings == {"defender-kaboot": "bidders-only"}
    assert "Read here with reading bidders-only of ambiguity defender-kaboot" in rs.clauses["score.kaboot"].text
    assert R.team_deltas(load_rules(rs), 7, 0, (0, 13)) == (-7, 13)
    bad = tmp_path / "bad.toml"
    bad.write_text('schema = 1\nid = "club-bad"\nextends = "classic"\nname = "Club"\nsummary = "A club."\n'
                   '[readings]\nrevoke-remedy = "replay-hand"\n')
    with pytest.raises(SpecError, match="the documents are silent and the engine rules nothing here"):
        get_ruleset(str(bad))


def test_a_reading_of_another_ruleset_or_a_reading_not_in_the_register_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="does not concern eram-41"):
        with_readings(get_ruleset("eram-41"), {"defender-kaboot": "bidders-only"})
    with pytest.raises(ConfigError, match=r"no such reading \(valid: either-team, bidders-only\)"):
        with_readings(get_ruleset("classic"), {"defender-kaboot": "both"})


@pytest.mark.parametrize(("arg", "said"), [
    ("defender-kaboot=nope", "--reading defender-kaboot=nope: no such reading (valid: either-team, bidders-only)"),
    ("junk", "--reading junk: a reading is written AMBIGUITY=READING"),
    ("revoke-remedy=replay-hand", "--reading revoke-remedy: no ruleset takes a reading of this ambiguity"),
])
def test_verify_refuses_a_bad_reading_in_one_line_with_exit_2(tmp_path: Path, arg: str, said: str) -> None:
    f = tmp_path / "r.jsonl"
    f.write_bytes(b"\n".join(_records(load_rules("classic"), range(1))) + b"\n")
    p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "verify", str(f), "--reading", arg],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert said in p.stderr


def test_an_engine_paying_the_defenders_double_on_a_failed_13_is_named_with_the_variant_no_document_names() -> None:
    from dataclasses import replace

    lines = _records(replace(load_rules("classic"), failed13_defenders="double"), range(30))
    s, reps = verify_lines(lines)
    assert s.divergences > 0 and {d.field for d in reps} == {"deltas"}, reps[:3]
    (row,) = s.diagnosis()
    assert row["status"] == "cause" and row["cause"] == "failed-13-pays-defenders-double", row
    assert "no rule document names" in row["explanation"]


def test_the_checks_under_readings_are_listed_by_the_encoding_whatever_the_engine_does() -> None:
    """An engine that ignores a reading must not make the checks that would catch it disappear from prove."""
    from tarneeb_proofs.engine_family import engine_checks
    from tarneeb_proofs.mutants import applied

    listed = {c.id for c in engine_checks(["classic"]) if c.readings}
    alone = [x for x in listed if "reading defender-kaboot=bidders-only" in x and x.count(";reading") == 1]
    with_others = [x for x in listed if "reading defender-kaboot=bidders-only" in x and x.count(";reading") > 1]
    assert len(alone) == 18 and len(with_others) == 16
    with applied("reading-bidders-only-ignored"):
        assert {c.id for c in engine_checks(["classic"]) if c.readings} == listed


# ------------------------------------------------------------------ the referee (ruling --reading, readings = {...})


def _ruling(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    """``tarneeb ruling ARGV --json``: the exit code and the report."""
    from tarneeb.cli import main

    capsys.readouterr()
    rc = main(["ruling", *argv, "--json"])
    return rc, orjson.loads(capsys.readouterr().out)


def test_ruling_follows_a_selected_reading(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the defenders take all 13 against a contract of 7: under either-team they score the kaboot (16), under
    # bidders-only their 13 tricks (13); the ruling says which reading it follows and marks it taken
    dispute = str(ROOT / "spec/disputes/defenders-kaboot.toml")
    rc, plain = _ruling(capsys, dispute)
    assert rc == 0 and plain["rulings"][0]["answer"]["deltas"] == [-7, 16, -7, 16]
    rc, chosen = _ruling(capsys, dispute, "--reading", "defender-kaboot=bidders-only")
    r = chosen["rulings"][0]
    assert rc == 0 and r["answer"]["deltas"] == [-7, 13, -7, 13]
    assert r["label"] == "classic [reading defender-kaboot=bidders-only]"
    flags = {x["id"]: {y["id"]: y["taken"] for y in x["readings"]} for x in r["ambiguities"]}
    assert flags["defender-kaboot"] == {"either-team": False, "bidders-only": True}
    # the same from the situation file itself
    text = (ROOT / "spec/disputes/defenders-kaboot.toml").read_text(encoding="utf-8")
    path = tmp_path / "chosen.toml"
    path.write_text('readings = { defender-kaboot = "bidders-only" }\n' + text, encoding="utf-8")
    rc, from_file = _ruling(capsys, str(path))
    assert rc == 0 and from_file["rulings"][0]["answer"] == r["answer"]


def test_ruling_refuses_a_reading_it_cannot_follow(capsys: pytest.CaptureFixture[str]) -> None:
    from tarneeb.cli import main

    dispute = str(ROOT / "spec/disputes/defenders-kaboot.toml")
    capsys.readouterr()
    assert main(["ruling", dispute, "--reading", "defender-kaboot=nope"]) == 2
    err = capsys.readouterr().err
    assert "readings.defender-kaboot" in err and "either-team, bidders-only" in err and "Traceback" not in err
    # an ambiguity none of the rulesets asked has among its selectable readings
    assert main(["ruling", dispute, "--ruleset", "eram-41", "--reading", "defender-kaboot=bidders-only"]) == 2
    assert "no ruleset asked has this ambiguity" in capsys.readouterr().err


def test_a_remedy_the_documents_are_silent_on_is_refused_saying_why(capsys: pytest.CaptureFixture[str]) -> None:
    """A table irregularity's remedy (no document states one, no ruleset takes one) is not a reading an engine can
    follow: ``ruling --reading`` says so, as ``verify --reading`` does, not that the rulesets asked lack it."""
    from tarneeb.cli import main

    capsys.readouterr()
    assert main(["ruling", "irregularity", "--irregularity", "revoke", "--reading", "revoke-remedy=transfer-tricks"]) == 2
    err = capsys.readouterr().err
    assert "readings.revoke-remedy" in err and "the documents are silent" in err and "Traceback" not in err


# ------------------------------------------------- readings about an option's meaning, the numbers, the direction

# (ruleset, ambiguity, reading, the options under which the reading matters, whether records of random play show it)
# (the thresholds: every seat starts at 30 or 40 and bids its lowest bid, 2 under "above", 3 or 4 under "at-least")
_AT_THRESHOLDS = [30, 40, 30, 40]
_OTHER_READINGS = [
    ("bsfyi-41", "turned-card-trump", "same-colour", {"trump_source": "revealed-same-colour"}, True),
    ("eram-41", "weakest-card", "lowest-rank", {}, False),  # only a timed-out turn shows it: no record of ours has one
    ("tarneeb-400", "400-numbers", "face-value", {}, True),
    ("tarneeb-400", "400-direction", "option", {"direction": "cw"}, True),
    ("tarneeb-400", "rising-min-threshold", "above", {}, True),
    ("bsfyi-41", "rising-min-threshold", "above", {"rising_min_bid": True}, True),
    ("classic", "classic-deal-order", "in-packets", {}, True),
    ("classic", "classic-deal-order", "in-packets", {"weak_redeal": True}, True),
    ("classic", "weak-hand", "claimed", {"weak_redeal": True}, True),
]


def test_every_reading_of_the_register_that_concerns_the_rules_engine_is_selectable_or_said_not_to_be() -> None:
    selectable = {a.id for a in ambiguities() if a.selectable}
    assert {aid for _, aid, _, _, _ in _OTHER_READINGS} <= selectable
    for rs_id, aid, rid, _opts, _ in _OTHER_READINGS:  # the reading the ruleset takes changes nothing
        a = next(x for x in ambiguities() if x.id == aid)
        rs = with_readings(get_ruleset(rs_id), {aid: rid})
        back = with_readings(rs, {aid: taken_for(a, get_ruleset(rs_id)) or ""})
        assert back.readings == {} and back.options == get_ruleset(rs_id).options, (aid, rid)
        assert load_rules(back).label() == load_rules(rs_id).label()


@pytest.mark.parametrize(("rs_id", "aid", "rid", "opts", "shows"), _OTHER_READINGS,
                         ids=[f"{x[0]}-{x[1]}={x[2]}" for x in _OTHER_READINGS])
def test_records_played_under_a_reading_verify_clean_under_it_and_diverge_without_it(
        rs_id: str, aid: str, rid: str, opts: dict[str, Any], shows: bool) -> None:
    rules = load_rules(with_readings(get_ruleset(rs_id), {aid: rid}), opts)
    # random play seldom ends a match: 4 matches are 1,600 hands (400 each); a hand each at the thresholds
    at = aid == "rising-min-threshold"
    lines = _records(rules, range(12) if at else range(4), _AT_THRESHOLDS if at else None)
    assert orjson.loads(lines[0])["readings"] == {aid: rid}
    s, reps = verify_lines(lines)
    assert s.divergences == 0 and s.hands >= 12, reps[:3]  # the header's reading is followed
    plain = _without_readings(lines)
    s, reps = verify_lines(plain, readings={aid: rid})
    assert s.divergences == 0, reps[:3]
    if shows:  # the same records under the ruleset's own reading: some line diverges, or the header is refused
        try:
            s, reps = verify_lines(plain)
        except ConfigError as e:
            assert "direction" in str(e), e
        else:
            assert s.divergences > 0 or s.errors > 0, (aid, rid)


def test_the_weakest_card_reading_is_what_the_turn_timer_plays() -> None:
    """No record of ours holds a timed-out turn, so the timer is asked directly at every turn of random play."""
    import random

    from tarneeb.core.actions import Deal, Play
    from tarneeb.core.match import Match, Phase, random_deck
    from tarneeb.play.bots import POLICIES

    base = load_rules("eram-41")
    other = load_rules(with_readings(get_ruleset("eram-41"), {"weakest-card": "lowest-rank"}))
    assert other.label() == "eram-41 [reading weakest-card=lowest-rank]"
    rng = random.Random(7)
    m, twin, differ = Match(base, 0), Match(other, 0), 0
    for _ in range(400):
        if m.phase is Phase.OVER:
            break
        if m.phase is Phase.PLAY:
            got = twin.timeout_action()
            assert isinstance(got, Play)
            legal = [a for a in m.legal_actions() if isinstance(a, Play)]
            assert got in legal and got.card % 13 == min(a.card % 13 for a in legal)
            differ += got != m.timeout_action()
        act = Deal(random_deck(rng)) if m.phase is Phase.DEAL else POLICIES["random"](m, rng)
        m.apply(act)
        twin.apply(act)
    assert differ > 0


def test_records_scored_at_face_value_in_the_400_mode_are_named_as_that_reading_not_as_another_ruleset() -> None:
    lines = _records(load_rules(with_readings(get_ruleset("tarneeb-400"), {"400-numbers": "face-value"})), range(6))
    plain = _without_readings(lines)
    s, reps = verify_lines(plain)
    assert s.divergences > 0, reps[:3]
    rows = s.diagnosis()
    causes = {row.get("cause") for row in rows}
    assert "reading-face-value-of-400-numbers" in causes and "values-of-another-ruleset" not in causes, rows
    assert any("reading face-value of ambiguity 400-numbers" in row.get("explanation", "") for row in rows), rows


def test_under_reading_seat0_the_first_seat_deals_first_everywhere_and_a_record_that_says_otherwise_diverges() -> None:
    from tarneeb.core.match import Match
    from tarneeb.errors import IllegalDeal
    from tarneeb.play.batch import run as batch_run

    rs = with_readings(get_ruleset("classic"), {"first-dealer": "seat0"})
    rules = load_rules(rs)
    assert {play_match(rules, "fd", i, "random", 3).first_dealer for i in range(12)} == {0}
    assert {play_match(load_rules("classic"), "fd", i, "random", 3).first_dealer for i in range(12)} == {0, 1, 2, 3}
    with pytest.raises(IllegalDeal, match="deal.first-dealer"):
        Match(rules, 2)
    assert set(batch_run(rules, 64, 5).first_dealer.tolist()) == {0}
    assert set(batch_run(load_rules("classic"), 64, 5).first_dealer.tolist()) == {0, 1, 2, 3}
    lines = _records(rules, range(3))
    s, reps = verify_lines(lines)
    assert s.divergences == 0 and s.errors == 0, reps[:3]
    moved = []  # the same records, the header saying seat 2 dealt first
    for ln in lines:
        obj = orjson.loads(ln)
        if obj.get("type") == "match":
            obj["first_dealer"] = 2
        moved.append(orjson.dumps(obj))
    s, reps = verify_lines(moved)
    assert s.divergences + s.errors > 0 and any(getattr(d, "clause", "") == "deal.first-dealer" for d in reps), reps[:3]


def test_under_reading_exactly_the_forced_dealer_bids_the_minimum_alone_and_the_encoding_agrees() -> None:
    """Classic with the dealer-forced option: three passes, then the dealer's calls, at every minimum."""
    from tarneeb.core.actions import Bid, Deal
    from tarneeb.core.match import Match, random_deck

    for min_bid in (7, 8):
        opts = {"all_pass": "dealer-forced", "min_bid": min_bid}
        for rid, want in (("at-least", list(range(min_bid, 14))), ("exactly", [min_bid])):
            rules = load_rules(with_readings(get_ruleset("classic"), {"forced-dealer-minimum": rid}), opts)
            m = Match(rules, 0)
            m.apply(Deal(random_deck(__import__("random").Random(1))))
            for _ in range(3):
                m.apply(Bid(None))
            calls = [a for a in m.legal_actions() if isinstance(a, Bid)]
            assert [a.n for a in calls] == want, (rid, min_bid)
            # before the three passes, nothing changes: the first to speak may bid any number
            first = Match(rules, 0)
            first.apply(Deal(random_deck(__import__("random").Random(1))))
            assert [a.n for a in first.legal_actions() if isinstance(a, Bid)] == [None, *range(min_bid, 14)]
            # the encoding's call_ok over the same state (the dealer to speak after three passes, no bid)
            import z3

            from tarneeb_proofs.encode_auction import AuctionState

            enc = Encoding(rules)
            st = AuctionState(z3.BoolVal(False), z3.IntVal(-1), z3.IntVal(-1), [z3.BoolVal(True)] * 4,
                              z3.IntVal(3), z3.IntVal(3), z3.IntVal(0))
            ok = [n for n in range(min_bid, 14)
                  if z3.is_true(z3.simplify(enc.call_ok(st, z3.IntVal(0), z3.IntVal(n), z3.IntVal(0))))]
            assert ok == want, (rid, min_bid, ok)


def test_under_reading_partner_positive_a_made_10_wins_only_with_the_partner_above_zero() -> None:
    import z3

    opts = {"made_bid_wins": 10}
    outright = load_rules("bsfyi-41", opts)
    positive = load_rules(with_readings(get_ruleset("bsfyi-41"), {"bid10-partner": "partner-positive"}), opts)
    bids, tricks = [10, 2, 2, 2], [10, 1, 1, 1]
    for partner_score, wins in ((-4, False), (0, False), (1, True), (30, True)):
        after = [20, 5, partner_score, 5]
        assert R.individual_outcome(outright, after, bids, tricks) == (0, "win.made-bid")
        got = R.individual_outcome(positive, after, bids, tricks)
        assert (got == (0, "win.made-bid")) == wins, (partner_score, got)
        assert R.made_bid_winner(positive, bids, tricks, after) == (0 if wins else None)
        o = Encoding(positive).individual_outcome([z3.IntVal(x) for x in after], [z3.IntVal(x) for x in bids],
                                                  [z3.IntVal(x) for x in tricks])
        made = Encoding(positive).made_bid_win([z3.IntVal(x) for x in bids], [z3.IntVal(x) for x in tricks],
                                               [z3.IntVal(x) for x in after])
        assert z3.is_true(z3.simplify(made[0])) == wins
        assert z3.is_true(z3.simplify(o.team0)) == (got[0] == 0)
    assert R.made_bid_winner(positive, bids, tricks) is None  # without the scores after the hand: no win


def test_the_engine_runs_under_every_selectable_reading() -> None:
    """Each selectable reading of every ruleset it concerns is checked by some engine stage of prove, or by the
    steered matches of the match machine (tests/test_match_steered_engine.py: the timer's weakest card is read there
    only)."""
    from tests.steered.variants import MATCH_READINGS, match_configs

    from tarneeb_proofs.engine_family import READING_STAGES, engine_checks

    checked = {rd for c in engine_checks() for rd in c.readings}
    steered = {rd for rid in rulesets() for _, rds in match_configs(rid) for rd in rds}
    for rid in ("card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"):
        rs = get_ruleset(rid)
        for a in selectable_readings(rs):
            assert a.id in READING_STAGES or a.id in _SCORING_AMBIGUITIES or a.id in MATCH_READINGS, a.id
            for reading in a.params:
                if reading != taken_for(a, rs):
                    assert (a.id, reading) in checked | steered, (rid, a.id, reading)


def test_under_reading_same_number_any_strain_the_dealer_takes_the_top_number_in_any_strain() -> None:
    """Classic with Egyptian bids and the dealer's privilege: 8 spades bid, two passes, then the dealer's calls."""
    import random

    import z3

    from tarneeb.core.actions import Bid, Deal
    from tarneeb.core.match import Match, random_deck
    from tarneeb_proofs.encode_auction import AuctionState

    opts = {"egyptian": True, "auction": "dealer-privilege"}
    for rid, extra in (("exact-bid", []), ("same-number-any-strain", [(8, 0), (8, 1), (8, 2)])):
        rules = load_rules(with_readings(get_ruleset("classic"), {"egyptian-dealer-match": rid}), opts)
        m = Match(rules, 0)
        m.apply(Deal(random_deck(random.Random(3))))
        m.apply(Bid(8, 3))
        m.apply(Bid(None))
        m.apply(Bid(None))
        got = {(a.n, a.strain) for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None}
        want = {(n, s) for n in range(8, 14) for s in range(5) if n * 5 + s >= 8 * 5 + 3} | set(extra)
        assert got == want, (rid, sorted(got ^ want))
        # another seat than the dealer never matches: seat 2 after seat 1's 8 spades
        other = Match(rules, 0)
        other.apply(Deal(random_deck(random.Random(3))))
        other.apply(Bid(8, 3))
        assert (8, 3) not in {(a.n, a.strain) for a in other.legal_actions() if isinstance(a, Bid)}
        enc = Encoding(rules)  # the encoding's call_ok over the dealer's state
        st = AuctionState(z3.BoolVal(False), z3.IntVal(8 * 5 + 3), z3.IntVal(1), [z3.BoolVal(True)] * 4,
                          z3.IntVal(2), z3.IntVal(3), z3.IntVal(0))
        ok = {(n, s) for n in range(7, 14) for s in range(5)
              if z3.is_true(z3.simplify(enc.call_ok(st, z3.IntVal(0), z3.IntVal(n), z3.IntVal(s))))}
        assert ok == want, (rid, sorted(ok ^ want))


def test_under_reading_repeated_every_game_won_raises_the_target_again() -> None:
    import z3

    from tarneeb.core import hand as H
    from tarneeb.core.match import Match

    opts = {"play_on": 10}
    once = load_rules("classic", opts)
    rep = load_rules(with_readings(get_ruleset("classic"), {"play-on-count": "repeated"}), opts)
    assert [R.target_in_force(once, k) for k in range(4)] == [41, 51, 51, 51]
    assert [R.target_in_force(rep, k) for k in range(4)] == [41, 51, 61, 71]
    enc = Encoding(rep)
    assert [z3.simplify(enc.target_in_force(z3.IntVal(k))).as_long() for k in range(4)] == [41, 51, 61, 71]
    # a second game won: the match ends under once, goes on at 61 under repeated
    assert H.settle(once, 1, 51, [0]) == (1, 51, (0, 1), 1)
    assert H.settle(rep, 1, 51, [0]) == (None, 61, (0, 1), 1)
    # a match part-way at the third game's target: its games are inferred under repeated, refused under once
    assert Match.at(rep, 0, [0, 0, 0, 0], 71).games == [0, 0, 0]
    with pytest.raises(Exception, match="win.play-on"):
        Match.at(once, 0, [0, 0, 0, 0], 71)


def test_an_ambiguity_a_ruleset_takes_is_selectable_or_the_register_says_why_not(tmp_path: Path) -> None:
    fixed = {a.id: a.fixed_because for a in ambiguities() if a.taken and not a.selectable}
    assert fixed == {}, fixed  # every reading a ruleset takes of the register can be selected
    # a register entry that leaves a reading fixed without saying why is refused on loading
    from tarneeb.core import ambiguity as A

    text = (ROOT / "spec/ambiguities.toml").read_text(encoding="utf-8")
    bad = tmp_path / "ambiguities.toml"
    bad.write_text(text + '\n[[ambiguity]]\nid = "x-fixed"\nquestion = "?"\nsources = []\nreadings = [\n'
                   '  { id = "a", text = "A." },\n  { id = "b", text = "B." },\n]\ntaken = { classic = "a" }\n',
                   encoding="utf-8")
    with pytest.raises(SpecError, match="fixed_because"):
        A._load(str(bad))


def _rising_records(rules: Any) -> list[bytes]:
    """One match of bs.fyi from scores [40, 30, 35, 20]: a deal whose bids total 11 (3, 3, 3, 2), which a total
    rising to 13 at 40 cancels and a fixed total of 11 plays, then one whose bids total 13, played out at random."""
    import random

    from tarneeb.core.actions import Bid, Deal
    from tarneeb.core.match import Match, Phase, random_deck
    from tarneeb.play.bots import POLICIES

    rng = random.Random(5)
    m = Match(rules, 0, [40, 30, 35, 20])
    for bids in ([3, 3, 3, 2], [4, 4, 3, 2]):
        if m.phase is not Phase.DEAL:
            break
        m.apply(Deal(random_deck(rng)))
        for n in bids:
            m.apply(Bid(n))
    while m.phase is Phase.PLAY:
        m.apply(POLICIES["random"](m, rng))
    return [orjson.dumps(d) for d in match_dicts(m, "rising")]


def test_under_reading_rising_the_bid_total_rises_with_the_top_score_everywhere() -> None:
    import z3

    fixed = load_rules("bsfyi-41")
    rising = load_rules(with_readings(get_ruleset("bsfyi-41"), {"raised-total": "rising"}))
    assert rising.label() == "bsfyi-41 [reading raised-total=rising]"
    enc = Encoding(rising)
    for scores, need in (([0, 0, 0, 0], 11), ([29, 29, 29, 29], 11), ([30, 0, 0, 0], 12), ([0, 0, 39, -5], 12),
                         ([0, 40, 0, 0], 13), ([45, 30, 0, 0], 13), ([0, 0, 0, 30], 12),
                         ([0, 0, 0, 40], 13)):
        assert R.total_in_force(rising, scores) == need, scores
        assert R.total_in_force(fixed, scores) == 11
        assert z3.simplify(enc.total_needed([z3.IntVal(x) for x in scores])).as_long() == need
        for total_bids in ([3, 3, 3, 2], [3, 3, 3, 3], [4, 3, 3, 3]):
            assert R.hand_is_played(rising, total_bids, scores) == (sum(total_bids) >= need)
            assert enc.eval_hand_played(total_bids, scores) == (sum(total_bids) >= need)
    # with the house rule's fixed total of 12 the total still rises to 13 from 40, never below 12
    twelve = load_rules(with_readings(get_ruleset("bsfyi-41"), {"raised-total": "rising"}), {"bid_total_min": 12})
    assert [R.total_in_force(twelve, [s, 0, 0, 0]) for s in (0, 30, 40)] == [12, 12, 13]
    # the engine: a deal whose bids total 11 at a top score of 40 is cancelled, citing the total in force
    lines = _rising_records(rising)
    hands = [orjson.loads(x) for x in lines[1:]]
    assert hands[0]["redeal"] == "bid.total" and hands[1]["redeal"] is None, hands[:2]
    assert orjson.loads(lines[0])["readings"] == {"raised-total": "rising"}
    s, reps = verify_lines(lines)
    assert s.divergences == 0 and s.errors == 0 and s.hands == 2, reps[:3]
    plain = _without_readings(lines)
    s, reps = verify_lines(plain, readings={"raised-total": "rising"})
    assert s.divergences == 0 and s.errors == 0, reps[:3]
    s, reps = verify_lines(plain)  # under the ruleset's own reading the first deal is played
    assert s.divergences == 1 and reps[0].field == "redeal" and getattr(reps[0], "clause", "") == "bid.total", reps[:3]
    # the verifier finds the reading the records follow; one cancelled deal cannot tell it from a fixed total of 12
    # or 13 (the deal of 13 played rules out 14 and 15), so it names no cause
    (row,) = s.diagnosis()
    assert row["status"] == "ambiguous", row
    assert {f["cause"] for f in row["fits"] if f["hands"] == 1} == {
        "reading-rising-of-raised-total", "bid-total-threshold-12", "bid-total-threshold-13",
        "bid-total-threshold-14", "bid-total-threshold-15"}, row
    assert {c["cause"] for c in row["contradicted"]} == {"bid-total-threshold-14", "bid-total-threshold-15"}, row
    assert "reading rising of ambiguity raised-total" in s.fit_texts["reading-rising-of-raised-total"][0]
    # and an engine that keeps the fixed total is told apart under the rising reading
    s, reps = verify_lines([orjson.dumps(orjson.loads(x)) for x in _without_readings(_rising_records(fixed))],
                           readings={"raised-total": "rising"})
    assert s.divergences > 0, reps[:3]


def test_a_house_file_states_its_own_rising_total(tmp_path: Path) -> None:
    f = tmp_path / "club.toml"
    head = 'schema = 1\nid = "club-rise"\nextends = "bsfyi-41"\nname = "Club"\nsummary = "A club."\n'
    table = '[params]\nbid.total_table = [[20, 12], [35, 14]]\n'
    clause = ('[[clause]]\nid = "bid.total"\nheading = "Bidding"\ntext = "The bids must total 11, 12 once a player '
              'has 20 points, 14 once a player has 35; below that the hand is thrown in."\n')
    own = '[[source]]\nid = "club-sheet-rise"\npublisher = "a club"\npublished = "its notice board"\n'
    for body in (table, table + clause):  # thresholds no reading gives: the file's clause cites its own source
        f.write_text(head + body)
        with pytest.raises(SpecError, match="is a variant no rule document names, so this file states it in its own "
                                            r"words: .*(id = \"bid.total\"|\[\[clause\]\] bid.total cites 001_)"):
            get_ruleset(str(f))
    f.write_text(head + table + own + clause + 'doc = "club-sheet-rise"\n')
    rules = load_rules(get_ruleset(str(f)))
    assert [R.total_in_force(rules, [s, 0, 0, 0]) for s in (19, 20, 34, 35)] == [11, 12, 12, 14]
    # the reading's own thresholds, stated in [params], cite the document as the reading does; the inherited
    # clause, which states the fixed total, must be replaced
    g = tmp_path / "reading.toml"
    g.write_text(head.replace("club-rise", "club-reading") + '[params]\nbid.total_table = [[30, 12], [40, 13]]\n')
    with pytest.raises(SpecError, match=r"clause bid.total .* from none to 30 -> 12, 40 -> 13: replace the clause"):
        get_ruleset(str(g))
    g.write_text(head.replace("club-rise", "club-reading") + '[params]\nbid.total_table = [[30, 12], [40, 13]]\n'
                 + clause)
    assert load_rules(get_ruleset(str(g))).total_table == ((30, 12), (40, 13))
    bad = tmp_path / "bad.toml"
    bad.write_text(head.replace("club-rise", "club-bad") + '[params]\nbid.total_table = [[20, 60]]\n' + own
                   + clause + 'doc = "club-sheet-rise"\n')
    with pytest.raises((SpecError, ConfigError), match="bid.total_table"):
        load_rules(get_ruleset(str(bad)))


def test_under_reading_in_packets_the_deal_goes_in_rounds_of_packets_and_verify_names_the_reading() -> None:
    from tarneeb.core.cards import cards_of

    rules = load_rules(with_readings(get_ruleset("classic"), {"classic-deal-order": "in-packets"}))
    assert rules.deal_packets == (4, 4, 5) and rules.label() == "classic [reading classic-deal-order=in-packets]"
    deck = list(range(52))
    for dealer in range(4):
        order = R.deal_order(rules, dealer)
        hands = R.deal_hands(rules, dealer, deck)
        # the seat after the dealer takes places 0-3, 16-19 and 32-36; the dealer the last packet of each round
        assert cards_of(hands[order[0]]) == [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 36]
        assert cards_of(hands[dealer]) == [12, 13, 14, 15, 28, 29, 30, 31, 47, 48, 49, 50, 51]
        assert R.deck_of_hands(rules, dealer, [cards_of(x) for x in hands]) == deck
        assert Encoding(rules).dealt_to(36) == (0, 12) and Encoding(rules).dealt_to(37) == (1, 8)
    plain = _without_readings(_records(rules, range(4)))
    s, reps = verify_lines(plain)
    played = sum(1 for x in plain if b'"tricks"' in x)
    # one divergence per played deal, at its deck, naming the reading; no card reported as not held
    assert s.divergences == played and {(d.field, getattr(d, "clause", "")) for d in reps} == {("deck", "deal.order")}
    (row,) = s.diagnosis()
    assert row["status"] == "cause" and row["cause"] == "reading-in-packets-of-classic-deal-order", row
    assert "reading in-packets of ambiguity classic-deal-order" in row["explanation"]


def test_a_house_file_deals_in_its_own_packets_citing_its_own_source(tmp_path: Path) -> None:
    head = 'schema = 1\nid = "club-pk"\nextends = "classic"\nname = "Club"\nsummary = "A club."\n'
    clause = '[[clause]]\nid = "deal.order"\nheading = "The deal"\ntext = "Three cards each, then five, then five."\n'
    own = '[[source]]\nid = "club-sheet-pk"\npublisher = "a club"\npublished = "its notice board"\n'
    f = tmp_path / "pk.toml"
    f.write_text(head + '[params]\ndeal.packets = [3, 5, 5]\n' + clause)
    with pytest.raises(SpecError, match="is a variant no rule document names"):
        get_ruleset(str(f))
    g = tmp_path / "pk2.toml"
    g.write_text(head.replace("club-pk", "club-pk2") + '[params]\ndeal.packets = [3, 5, 5]\n' + own + clause
                 + 'doc = "club-sheet-pk"\n')
    rules = load_rules(get_ruleset(str(g)))
    assert [len(p) for p in R.deal_positions(rules)] == [13, 13, 13, 13]
    assert R.deal_positions(rules)[1][:4] == (3, 4, 5, 17)  # three cards, then five from place 12 on (seat 0 first)
    bad = tmp_path / "pk3.toml"
    bad.write_text(head.replace("club-pk", "club-pk3") + '[params]\ndeal.packets = [4, 4, 4]\n' + own + clause
                   + 'doc = "club-sheet-pk"\n')
    with pytest.raises((SpecError, ConfigError), match="deal.packets"):
        load_rules(get_ruleset(str(bad)))


def _weak_deck(r: Any, dealer: int, weak: tuple[int, ...]) -> tuple[int, ...]:
    """A deck dealing the ``weak`` seats no card above 10 and every other seat an ace."""
    low = [c for c in range(52) if c % 13 < 9]  # 2 to 10
    high = [c for c in range(52) if c % 13 >= 9]
    hands: list[list[int]] = [[], [], [], []]
    for s in range(4):
        if s not in weak:
            hands[s].append(high.pop())
    for s in weak:
        hands[s] += [low.pop() for _ in range(13)]
    rest = low + high
    for s in range(4):
        while len(hands[s]) < 13:
            hands[s].append(rest.pop())
    return tuple(R.deck_of_hands(r, dealer, hands))


def test_under_reading_claimed_each_weak_seat_in_turn_asks_for_a_redeal_or_keeps_its_hand() -> None:
    from tarneeb.core.actions import ASK, KEEP, Bid, Deal, parse_action
    from tarneeb.core.match import Match, Phase
    from tarneeb.errors import IllegalAction

    auto = load_rules("classic", {"weak_redeal": True})
    rules = load_rules(with_readings(get_ruleset("classic"), {"weak-hand": "claimed"}), {"weak_redeal": True})
    assert (parse_action("redeal:ask"), parse_action("redeal:keep"), str(ASK)) == (ASK, KEEP, "redeal:ask")
    # dealer 0, seats 1 and 3 weak: seat 1 chooses first (it bids first), then seat 3
    deck = _weak_deck(rules, 0, (1, 3))
    m = Match(auto, 0)
    m.apply(Deal(deck))
    assert m.phase is Phase.DEAL and m.records[-1].redeal == "deal.weak-redeal" and m.dealer == 1  # automatic
    m = Match(rules, 0)
    m.apply(Deal(deck))
    assert m.phase is Phase.WEAK_CLAIM and m.to_move == 1 and list(m.legal_actions()) == [ASK, KEEP]
    with pytest.raises(IllegalAction):
        m.apply(Bid(7))
    m.apply(KEEP)
    assert m.phase is Phase.WEAK_CLAIM and m.to_move == 3
    m.apply(ASK)
    assert (m.phase, m.dealer, m.records[-1].redeal) == (Phase.DEAL, 1, "deal.weak-redeal")
    assert m.records[-1].claims == [(1, False), (3, True)]
    # both keep: the bidding starts with the seat after the dealer
    m = Match(rules, 0)
    m.apply(Deal(deck))
    m.apply(KEEP)
    m.apply(KEEP)
    assert m.phase is Phase.BIDDING and m.to_move == 1
    # under the clockwise option the seats choose in that bidding order: seat 3 first
    cw = load_rules(with_readings(get_ruleset("classic"), {"weak-hand": "claimed"}),
                    {"weak_redeal": True, "direction": "cw"})
    m = Match(cw, 0)
    m.apply(Deal(_weak_deck(cw, 0, (1, 3))))
    assert m.to_move == 3
    # no weak seat: no choice, the bidding starts
    m = Match(rules, 0)
    m.apply(Deal(_weak_deck(rules, 0, ())))
    assert m.phase is Phase.BIDDING


def test_the_weak_seats_claims_are_checked_against_the_turn() -> None:
    rules = load_rules(with_readings(get_ruleset("classic"), {"weak-hand": "claimed"}), {"weak_redeal": True})
    lines = _records(rules, range(20))
    bad, done = [], False
    for ln in lines:  # the first deal where a weak seat asked, the claim given to its partner: not a weak seat
        obj = orjson.loads(ln)
        if not done and obj.get("claims") and obj["claims"][0][1] == "ask":
            obj["claims"][0][0] ^= 2
            done = True
        bad.append(orjson.dumps(obj))
    assert done
    s, reps = verify_lines(bad)
    assert s.divergences >= 1 and reps[0].field == "claims[0]" and getattr(reps[0], "clause", "") == "deal.weak-redeal"
    # records without the claims field are judged by their cancellations alone
    plain = [orjson.dumps({k: v for k, v in orjson.loads(x).items() if k != "claims"}) for x in lines]
    s, reps = verify_lines(plain)
    assert s.divergences == 0 and s.errors == 0, reps[:3]


def test_an_engine_letting_weak_seats_keep_their_hands_is_named_by_the_reading() -> None:
    rules = load_rules(with_readings(get_ruleset("classic"), {"weak-hand": "claimed"}), {"weak_redeal": True})
    plain = [orjson.dumps({k: v for k, v in orjson.loads(x).items() if k != "claims"})
             for x in _without_readings(_records(rules, range(20)))]
    s, reps = verify_lines(plain)
    assert s.divergences > 0
    (row,) = s.diagnosis()
    assert row["status"] == "cause" and row["cause"] == "reading-claimed-of-weak-hand", row
    assert "reading claimed of ambiguity weak-hand" in row["explanation"]


@pytest.mark.parametrize(("rs_id", "aid", "rid", "opts", "start"), [
    ("classic", "weak-hand", "claimed", {"weak_redeal": True}, None),
    ("classic", "classic-deal-order", "in-packets", {"weak_redeal": True}, None),
    ("bsfyi-41", "raised-total", "rising", {}, [35, 30, 38, 20]),
])
def test_the_batch_statistics_play_as_the_engine_under_the_readings(rs_id: str, aid: str, rid: str,
                                                                     opts: dict[str, Any], start: Any) -> None:
    from tarneeb.play.batch import replay_check, run

    rules = load_rules(with_readings(get_ruleset(rs_id), {aid: rid}), opts)
    res = run(rules, 200, 3, log_games=40, start_scores=start)
    assert replay_check(rules, res) > 1000  # every logged deal replayed through the engine alike
