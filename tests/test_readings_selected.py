"""Readings of the ambiguity register selected by ``--reading`` and a house file's ``[readings]`` (issue 23, item 3).

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
from tarneeb.core.spec import get_ruleset, load_rules
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


def _selected() -> list[tuple[str, str]]:
    return [(a.id, rid) for a in selectable_readings(get_ruleset("classic")) for rid in a.params]


def test_the_classic_scoring_readings_are_selectable_and_the_ruleset_takes_the_one_its_parameters_say() -> None:
    ids = {a.id for a in selectable_readings(get_ruleset("classic"))}
    assert ids == {"defender-kaboot", "kaboot-double-defenders", "kaboot-bid-only", "bid13-vs-kaboot"}
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
        r, base = load_rules(rs, opts), load_rules("classic", opts)
        enc = Encoding(r)
        for c, bt, tt in _domain():
            got = R.team_deltas(r, c, bt, tt)
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
    r = load_rules(get_ruleset(str(g)))
    assert R.team_deltas(r, 13, 0, (10, 3)) == (-13, 6)
    assert R.team_deltas(r, 12, 0, (10, 3)) == (-12, 3)
    assert R.team_deltas(r, 13, 1, (3, 10)) == (6, -13)
    enc = Encoding(r)
    assert all(enc.eval_team_deltas(c, bt, tt) == R.team_deltas(r, c, bt, tt) for c, bt, tt in _domain())


def _records(rules: Any, seeds: range) -> list[bytes]:
    out: list[bytes] = []
    for seed in seeds:
        m = play_match(rules, "rd", seed, "random", 400).match
        out += [orjson.dumps(d) for d in match_dicts(m, f"rd:{seed}")]
    return out


def test_records_of_a_bidders_only_engine_verify_clean_under_that_reading_and_name_it_otherwise() -> None:
    r = load_rules(with_readings(get_ruleset("classic"), {"defender-kaboot": "bidders-only"}))
    lines = _records(r, range(40))
    assert orjson.loads(lines[0])["readings"] == {"defender-kaboot": "bidders-only"}
    s, reps = verify_lines(lines)
    assert s.divergences == 0 and s.hands > 1000, reps[:3]  # the header's readings are followed
    plain = []
    for ln in lines:
        obj = orjson.loads(ln)
        obj.pop("readings", None)
        plain.append(orjson.dumps(obj))
    s, reps = verify_lines(plain)
    assert s.divergences > 0 and {d.field for d in reps} == {"deltas"}, reps[:3]
    (row,) = s.diagnosis()
    assert row["status"] == "cause" and row["cause"] == "reading-bidders-only-of-defender-kaboot", row
    assert "pass --reading defender-kaboot=bidders-only" in row["explanation"]
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
                   '[readings]\nweak-hand = "claimed"\n')
    with pytest.raises(SpecError, match="follows one reading of this ambiguity only"):
        get_ruleset(str(bad))


def test_a_reading_of_another_ruleset_or_a_reading_not_in_the_register_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="does not concern eram-41"):
        with_readings(get_ruleset("eram-41"), {"defender-kaboot": "bidders-only"})
    with pytest.raises(ConfigError, match="no such reading; valid: either-team, bidders-only"):
        with_readings(get_ruleset("classic"), {"defender-kaboot": "both"})


@pytest.mark.parametrize(("arg", "said"), [
    ("defender-kaboot=nope", "--reading defender-kaboot=nope: no such reading; valid: either-team, bidders-only"),
    ("junk", "--reading junk: a reading is written AMBIGUITY=READING"),
    ("weak-hand=claimed", "--reading weak-hand: the engine follows one reading of this ambiguity only"),
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
    assert sum("reading defender-kaboot=bidders-only" in x for x in listed) == 18
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
