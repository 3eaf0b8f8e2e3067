"""House rulesets (a file that extends a built-in): loading, validation, templates, and the whole toolchain.

The baseline ``tests/data/clause_texts_baseline.json`` holds every built-in clause statement (English and
Arabic) as it read before the statements became templates; regenerate it only when a wording is changed on
purpose (e.g. after rewording ``spec/i18n/ar.toml``)::

    .venv/bin/python -c "import json; from tarneeb.core.spec import rulesets; \
from tarneeb.i18n.tables import clause_text as t; json.dump({r: {c: {l: t(rs, c, l) for l in ('en', 'ar')} \
for c in rs.clauses} for r, rs in rulesets().items()}, open('tests/data/clause_texts_baseline.json', 'w'), \
ensure_ascii=False, indent=1, sort_keys=True)"
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tarneeb import load_rules
from tarneeb.cli import main
from tarneeb.core.prose import CLAUSE_PARAMS, placeholders, render
from tarneeb.core.sources import cite
from tarneeb.core.spec import get_ruleset, resolve_ruleset, rulesets
from tarneeb.docgen.rulebook import render as render_doc
from tarneeb.docgen.rulebook import ruleset_doc
from tarneeb.errors import ConfigError, SpecError
from tarneeb.i18n import tables
from tarneeb.i18n.tables import clause_text
from tarneeb.play.simulate import simulate
from tarneeb.ruling import resolve_file

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "spec" / "house-rules").glob("*.toml"))
BASELINE = json.loads((ROOT / "tests" / "data" / "clause_texts_baseline.json").read_text(encoding="utf-8"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


HEAD = 'schema = 1\nid = "{id}"\nextends = "{base}"\nname = "n"\nsummary = "s"\n'


# ------------------------------------------------------------------ built-ins: same text through templates

@pytest.mark.parametrize("rid", list(BASELINE))
def test_builtin_statements_render_exactly_as_before(rid: str) -> None:
    rs = get_ruleset(rid)
    assert set(rs.clauses) == set(BASELINE[rid])
    for cid in rs.clauses:
        for lang in ("en", "ar"):
            assert clause_text(rs, cid, lang) == BASELINE[rid][cid][lang], (rid, cid, lang)


def test_builtins_use_templates_for_the_numbers_they_state() -> None:
    """Every built-in clause that states a bid range, total, target or timer bid does it through a template."""
    used = {p for rs in rulesets().values() for c in rs.clauses.values() for p in placeholders(c.template)}
    assert {"bid.min", "bid.max", "bid.total_min", "win.target", "bid.excluded", "timer.auto_bid"} <= used
    ck = get_ruleset("card-kings-41")
    changed = replace(ck, params={**ck.params, "win.target": 77, "bid.total_min": 9})
    assert "77" in render(ck.clauses["win.target"].template, changed.effective_params(), "f", "k")
    assert "9" in render(ck.clauses["bid.total"].template, changed.effective_params(), "f", "k")


def test_a_template_naming_no_parameter_is_refused(tmp_path: Path) -> None:
    p = write(tmp_path, "c.toml", HEAD.format(id="c1", base="card-kings-41")
              + '[[clause]]\nid = "x.note"\nheading = "h"\ntext = "Play to {win.targt}."\n')
    with pytest.raises(SpecError, match=r"win.targt.*valid: .*win.target"):
        resolve_ruleset(str(p))



def test_a_template_may_name_every_parameter_of_its_ruleset(tmp_path: Path) -> None:
    """Parameter names with digits too (score.bid13): each a ruleset has, but an empty list, which no words state."""
    for rid, rs in rulesets().items():
        text = " ".join("{" + k + "}" for k, v in rs.effective_params().items() if v != [])
        p = write(tmp_path, f"{rid}.toml", HEAD.format(id=f"all-of-{rid}", base=rid)
                  + f'[[clause]]\nid = "x.all"\nheading = "h"\ntext = "{text}"\n')
        assert str(rs.effective_params()["win.target"]) in resolve_ruleset(str(p)).clauses["x.all"].text

# ------------------------------------------------------------------ the rule writer's path ("done when")

CLAUSE = ('\n[[clause]]\nid = "etiquette.talk"\nheading = "Table manners"\n'
          'text = "No table talk during the auction; the target of {win.target} is announced before the deal."\n'
          'text_ar = "لا كلام على الطاولة أثناء الطلب؛ ويُعلن الهدف {win.target} قبل التوزيع."\n')


@pytest.fixture
def club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """new-ruleset from card-kings-41, two numbers changed, one clause added: no code change."""
    rc, out, _ = run(capsys, "new-ruleset", "--from", "card-kings-41", "--id", "river-club")
    assert rc == 0
    assert "win.target = 41" in out and "bid.total_min = 11" in out and "# the lowest bid; allowed:" in out
    text = out.replace("win.target = 41", "win.target = 61").replace("bid.total_min = 11", "bid.total_min = 12")
    return write(tmp_path, "club.toml", text + CLAUSE)


def test_the_scaffold_loads_unchanged_and_plays_as_its_base(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for base in rulesets():
        rc, out, _ = run(capsys, "new-ruleset", "--from", base, "--id", f"copy-of-{base}")
        assert rc == 0
        rs = resolve_ruleset(str(write(tmp_path, f"{base}.toml", out)))
        assert rs.changed == {} and rs.extends == base
        assert rs.effective_params() == get_ruleset(base).effective_params()
        assert [o.name for o in rs.options] == [o.name for o in get_ruleset(base).options]


def test_the_arabic_sheet_never_shows_the_english_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """new-ruleset writes the Arabic name and summary given (--name-ar, --summary-ar), or leaves them blank and marked
    in the file; a blank one is marked missing on the Arabic sheet, in Arabic, not replaced by the English one."""
    rc, out, _ = run(capsys, "new-ruleset", "--from", "eram-41", "--id", "blank-club")
    assert rc == 0 and 'name_ar = ""' in out and 'summary_ar = ""' in out and out.count("TO WRITE") == 2
    rs = resolve_ruleset(str(write(tmp_path, "blank.toml", out)))
    d = ruleset_doc(str(tmp_path / "blank.toml"), "ar")
    assert d.name == tables.tr("ar", "labels", "no_name") and d.summary == tables.tr("ar", "labels", "no_summary")
    assert rs.name not in render_doc(d, "txt") and rs.summary.split(":")[0] not in render_doc(d, "txt")
    rc, out, _ = run(capsys, "new-ruleset", "--from", "eram-41", "--id", "named-club", "--name-ar", "طرنيب نادينا",
                     "--summary-ar", "متل إيرام كاردز بس الهدف {win.target}.")
    assert rc == 0 and "TO WRITE" not in out
    d = ruleset_doc(str(write(tmp_path, "named.toml", out)), "ar")
    assert (d.name, d.summary) == ("طرنيب نادينا", "متل إيرام كاردز بس الهدف 41.")


def test_club_sheets_state_the_new_numbers(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rs = resolve_ruleset(str(club))
    assert rs.changed == {"win.target": (41, 61), "bid.total_min": (11, 12)}
    for lang in ("en", "ar"):
        for fmt in ("md", "html", "rst", "txt"):
            rc, out, _ = run(capsys, "rules", str(club), "--format", fmt, "--lang", lang)
            assert rc == 0
            assert "etiquette.talk" in out
            d = ruleset_doc(str(club), lang)
            texts = {c.id: c.text for s in d.sections for c in s.clauses}
            assert "61" in texts["win.target"] and "41" not in texts["win.target"]
            assert "12" in texts["bid.total"] and "11" not in texts["bid.total"]
            assert "61" in texts["etiquette.talk"]
    assert 'dir="rtl"' in render_doc(ruleset_doc(str(club), "ar"), "html")
    # the club's own sheet is cited as a document people can find
    assert cite(rs.clauses["etiquette.talk"].doc, "Table manners") == 'Our club, "House rules", section "Table manners"'


@pytest.mark.slow
def test_club_proof_report(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "prove", "--ruleset", str(club), "--json")
    assert out, err
    data = json.loads(out)
    assert rc == 0, data["summary"]["problems"]
    s = data["summary"]
    assert s["proofs"] >= 10 and s["proved"] == s["proofs"] and s["mutants_caught"] == s["mutants"] > 0
    assert {r["invariant"] for r in data["results"]} >= {"config", "scoring", "outcome", "bids", "engine"}


def test_club_diff_lists_changes_with_engine_checked_witnesses(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "diff", "card-kings-41", str(club), "--json")
    assert rc == 0
    data = json.loads(out)
    found = {w["check"]: w for w in data["checks"] if w["status"] == "difference"}
    assert {"redeal", "winner"} <= set(found), data
    assert all(w["engine_confirmed"] for w in found.values())


def test_club_simulates_records_verifies_and_rules(club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules(str(club))
    results = list(simulate(rules, matches=4, seed="3"))
    assert all(x.winner is not None for x in results)
    assert any(max(x.final_scores) >= 61 for x in results)  # played to the new target
    rec = tmp_path / "games.jsonl"
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "record", "--ruleset", "./club.toml", "--matches", "3", "--seed", "5", "--out", str(rec))[0] == 0
    header = json.loads(rec.read_text(encoding="utf-8").splitlines()[0])
    assert header["ruleset"] == "./club.toml"
    # the header names the file (relative to the record); verify finds it from another folder, in a fresh process
    monkeypatch.chdir(ROOT)
    from tarneeb.core.context import fresh

    fresh()  # an empty catalog, as a fresh process has
    rc, out, _ = run(capsys, "verify", str(rec), "--jobs", "1")
    assert rc == 0, out
    # the same records against the base ruleset diverge (target 41, total 11)
    rc, out, _ = run(capsys, "verify", str(rec), "--ruleset", "card-kings-41", "--jobs", "1")
    assert rc == 1
    sit = write(tmp_path, "low-total.toml", 'schema = 1\ntitle = "t"\ndescription = "d"\nsources = []\n'
                f'ruleset = ["card-kings-41", "{club.name}"]\ndealer = 0\n'
                'bids = { 0 = 2, 1 = 3, 2 = 2, 3 = 4 }\n[question]\nkind = "redeal"\n')
    rep = resolve_file(str(sit))
    answers = {x.ruleset: x.answer for x in rep.rulings}
    assert answers["card-kings-41"]["redeal"] is False
    assert answers[club.name]["redeal"] is True


# ------------------------------------------------------------------ validation

@pytest.mark.parametrize(("body", "key", "why"), [
    ("colour = 1\n", "colour", "unknown key; valid:"),
    ("[params]\nwin.targt = 61\n", "params.win.targt", "unknown parameter; valid:"),
    ('[params]\nredeal.dealer = "left"\n', "params.redeal.dealer", "'same', 'next'"),
    ('[params]\nfamily = "auction"\n', "params.family", "keeps its base's family"),
    ("[params]\nauction.min_bid = 7\n", "params.auction.min_bid", "not a parameter of family individual"),
    ("[defaults]\nx = 1\n", "defaults.x", "unknown option"),
    ('[[clause]]\nid = "win.target"\ntext = "t"\n', "clause[0].heading", "missing"),
    ('remove_clauses = ["bid.total"]\n', "remove_clauses", "cited by the engine"),
    ("[params]\nwin.made_bid_wins = 10\n", "params.win.made_bid_wins", 'id = "win.made-bid"'),
    ("[params]\nbid.excluded = []\n", "clause bid.excluded.text", "remove it"),
    ("[params]\nwin.made_bid_wins = 6\n[[clause]]\nid = \"win.made-bid\"\nheading = \"h\"\ntext = \"{win.made_bid_wins}\"\n",
     "params.win.made_bid_wins", "legal bids: 2, 3, 4, 5, 7"),
])
def test_bad_files_are_refused_with_file_key_and_reason(tmp_path: Path, body: str, key: str, why: str) -> None:
    p = write(tmp_path, "bad.toml", HEAD.format(id="bad", base="card-kings-41") + body)
    with pytest.raises(SpecError) as e:
        resolve_ruleset(str(p))
    assert e.value.file == str(p) and e.value.key == key, str(e.value)
    assert why in str(e.value)


@pytest.mark.parametrize(("body", "key", "line"), [
    ("colour = 1\n", "colour", 6),
    ("\n[params]\nwin.targt = 61\n", "params.win.targt", 8),
    ('# a comment\n[params.redeal]\ndealer = "left"\n', "params.redeal.dealer", 8),
    ('[[clause]]\nid = "a.b"\nheading = "h"\ntext = "t"\n\n[[clause]]\nid = "win.target"\ntext = "t"\n',
     "clause[1].heading", 11),  # missing: the line of the table that lacks it
    ("[defaults]\nx = 1\n", "defaults.x", 7),
    ("[params]\nbid.total_table = [\n  [20, 12],\n  [35, 14]\n]\nwin.targt = 61\n", "params.win.targt", 11),
    ("[params]\nwin.made_bid_wins = 6\n[[clause]]\nid = \"win.made-bid\"\nheading = \"h\"\ntext = \"{win.made_bid_wins}\"\n",
     "params.win.made_bid_wins", 7),
])
def test_a_house_file_error_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, key: str,
                                           line: int) -> None:
    p = write(tmp_path, "bad.toml", HEAD.format(id="bad", base="card-kings-41") + body)
    with pytest.raises(SpecError) as e:
        resolve_ruleset(str(p))
    assert (e.value.key, e.value.line) == (key, line), str(e.value)
    rc, out, err = run(capsys, "simulate", "--ruleset", str(p))
    assert rc == 2 and err.startswith(f"tarneeb: error: {p}:{line}: {key}: ") and err.count("\n") == 1, err


F13 = HEAD.format(id="club-f13", base="classic") + '\n[params]\nscore.failed13_defenders = "double"\n'  # on line 8
SHEET = '\n[[source]]\nid = "club-sheet"\npublisher = "our club"\npublished = "the notice board"\n'


def test_a_club_stating_the_failed_13_variant_is_told_every_missing_part_at_once(tmp_path: Path) -> None:
    """A club whose failed 13 pays the defenders double: the [params] line alone is refused, naming its line, the
    [[source]] to declare and the [[clause]] to add with each of its keys; the clause it then writes may cite the
    source as ``source``, the word the message uses, and the file loads."""
    p = write(tmp_path, "f13.toml", F13)
    with pytest.raises(SpecError) as e:
        resolve_ruleset(str(p))
    assert (e.value.key, e.value.line) == ("params.score.failed13_defenders", 8)
    assert "declare your club's rule sheet in a [[source]] table with id, publisher and published" in e.value.reason
    assert ('add a [[clause]] with id = "score.standard", heading, text (your words for the rule) and source = the id '
            "of that [[source]]") in e.value.reason
    clause = '\n[[clause]]\nid = "score.standard"\nheading = "Scoring"\ntext = "As classic, but a failed 13 pays double."\n'
    p = write(tmp_path, "f13b.toml", F13 + clause)  # the clause without its source: it cites the base's document
    with pytest.raises(SpecError) as e:
        resolve_ruleset(str(p))
    assert e.value.line == 8 and "its [[clause]] score.standard cites 002_" in e.value.reason, e.value.reason
    assert "give it source = the id of that [[source]]" in e.value.reason
    p = write(tmp_path, "f13c.toml", F13 + SHEET + clause + 'source = "club-sheet"\n')
    rules = load_rules(get_ruleset(str(p)))
    assert rules.failed13_defenders == "double" and rules.ruleset.clauses["score.standard"].doc == "club-sheet"
    p = write(tmp_path, "f13d.toml", F13 + SHEET + clause + 'doc = "club-sheet"\n')  # the older word still works
    assert load_rules(get_ruleset(str(p))).failed13_defenders == "double"
    p = write(tmp_path, "f13e.toml", F13 + SHEET + clause + 'source = "club-sheet"\ndoc = "other"\n')
    with pytest.raises(SpecError) as e:
        resolve_ruleset(str(p))
    assert (e.value.key, e.value.line) == ("clause[0].source", 19) and "give one" in e.value.reason


def test_a_house_clause_without_its_arabic_statement_names_the_file(tmp_path: Path) -> None:
    p = write(tmp_path, "n.toml", HEAD.format(id="n1", base="card-kings-41")
              + '[[clause]]\nid = "x.note"\nheading = "h"\ntext = "No table talk."\n')
    assert "No table talk." in render_doc(ruleset_doc(str(p), "en"), "md")
    with pytest.raises(SpecError) as e:
        ruleset_doc(str(p), "ar")
    assert (e.value.file, e.value.key) == (str(p), "clause x.note.text_ar")


def test_bad_option_default_names_the_valid_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "bad.toml", HEAD.format(id="bad2", base="classic") + "[defaults]\ntarget = 50\n")
    rc, out, err = run(capsys, "simulate", "--ruleset", str(p))
    assert rc == 2 and "Traceback" not in err
    line = err.strip()
    assert "\n" not in line and str(p) in line and "defaults.target" in line and "valid: 31, 41, 61" in line


def test_an_inherited_clause_stating_a_changed_number_in_fixed_words_is_refused(tmp_path: Path) -> None:
    body = "[params]\nbid.rising_table = [[20, 3], [35, 4]]\n"
    p = write(tmp_path, "r.toml", HEAD.format(id="r1", base="tarneeb-400") + body)
    with pytest.raises(SpecError, match=r"clause bid.rising-min.*bid.rising_table") as e:
        resolve_ruleset(str(p))
    assert e.value.key == "clause bid.rising-min"
    ok = body + '[[clause]]\nid = "bid.rising-min"\nheading = "h"\ntext = "At least 3 from 20 points, 4 from 35."\n'
    p = write(tmp_path, "r2.toml", HEAD.format(id="r2", base="tarneeb-400") + ok)
    assert resolve_ruleset(str(p)).changed == {"bid.rising_table": ([[30, 3], [40, 4]], [[20, 3], [35, 4]])}


def test_an_arabic_statement_in_fixed_words_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant of the Arabic table: bid.total back to a fixed 11; the house changes the total."""
    p = write(tmp_path, "t.toml", HEAD.format(id="t1", base="card-kings-41") + "[params]\nbid.total_min = 12\n")
    assert "12" in clause_text(resolve_ruleset(str(p)), "bid.total", "ar")
    real = tables.tr

    def fixed(lang: str, *keys: str) -> str:
        if keys == ("clause", "card-kings-41", "bid.total"):
            return "إذا كان مجموع الطلبات الأربعة أقل من 11 تُلغى اليد ويُعاد التوزيع."
        return real(lang, *keys)

    monkeypatch.setattr(tables, "tr", fixed)
    with pytest.raises(SpecError, match=r"clause bid.total \(its ar statement\).*bid.total_min") as e:
        ruleset_doc(str(p), "ar")
    assert e.value.key == "clause.card-kings-41.bid.total"


def test_a_stuck_combination_is_refused_with_a_witness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "s.toml", HEAD.format(id="s1", base="tarneeb-400")
              + "[params]\nbid.rising_table = [[30, 3], [40, 14]]\n[[clause]]\nid = \"bid.rising-min\"\n"
                'heading = "h"\ntext = "From 40 points bid at least 14."\n')
    for argv in (("simulate", "--ruleset", str(p)), ("prove", "--ruleset", str(p)), ("rules", str(p))):
        rc, _, err = run(capsys, *argv)
        assert rc == 2, argv
        assert "no legal bid" in err and "witness: scores 40, 0, 0, 0 by player, player 1 to bid" in err and "bid.rising_table" in err


def test_a_combination_the_proofs_refuse_comes_with_a_witness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine's own checks let a total of 40 through; the config-soundness proof does not."""
    p = write(tmp_path, "t40.toml", HEAD.format(id="t40", base="card-kings-41") + "[params]\nbid.total_min = 40\n")
    rc, out, _ = run(capsys, "prove", "--ruleset", str(p), "--invariant", "config")
    assert rc == 1
    assert "refused" in out and "scores: [" in out and "bids tried" in out


def test_extends_cycle_and_unknown_base(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", HEAD.format(id="a1", base="./b.toml"))
    write(tmp_path, "b.toml", HEAD.format(id="b1", base="./a.toml"))
    with pytest.raises(SpecError, match="extends itself"):
        resolve_ruleset(str(tmp_path / "a.toml"))
    p = write(tmp_path, "u.toml", HEAD.format(id="u1", base="card-kings-42"))
    with pytest.raises(SpecError, match=r"extends: unknown ruleset; did you mean card-kings-41\? \(valid: .*card-kings-41"):
        resolve_ruleset(str(p))
    with pytest.raises(ConfigError, match="no such ruleset file"):
        resolve_ruleset("./missing.toml")


def test_a_house_file_can_extend_a_house_file(tmp_path: Path) -> None:
    write(tmp_path, "one.toml", HEAD.format(id="one", base="card-kings-41") + "[params]\nbid.total_min = 12\n")
    two = write(tmp_path, "two.toml", HEAD.format(id="two", base="./one.toml") + "[params]\nwin.target = 31\n")
    rs = resolve_ruleset(str(two))
    assert rs.lineage == ("two", "one", "card-kings-41")
    rules = load_rules(str(two))
    assert (rules.total_min, rules.target) == (12, 31)
    assert "31" in rs.clauses["win.target"].text and "12" in rs.clauses["bid.total"].text


# ------------------------------------------------------------------ the shipped examples

def test_three_examples_ship() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_is_sound_documented_and_played(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rs = resolve_ruleset(str(path))
    assert rs.extends in rulesets() and rs.changed
    # proved: configuration soundness and scoring (the whole report is run by test_club_proof_report and CI)
    for inv in ("config", "scoring"):
        rc, out, _ = run(capsys, "prove", "--ruleset", str(path), "--invariant", inv, "--json")
        s = json.loads(out)["summary"]
        assert rc == 0 and s["proved"] == s["proofs"] > 0, (inv, s)
    # documented: en + ar sheets state each changed number
    for lang in ("en", "ar"):
        d = ruleset_doc(str(path), lang)
        body = " ".join(c.text for s in d.sections for c in s.clauses) + " " + d.summary
        for p, (_, new) in rs.changed.items():
            if isinstance(new, int) and not isinstance(new, bool) and new:
                assert re.search(rf"(?<!\d){new}(?!\d)", body), (lang, p, new)
    # played: simulate, record + verify, a ruling
    results = list(simulate(load_rules(str(path)), matches=3, seed="1"))
    assert all(x.winner is not None for x in results)
    rec = tmp_path / "g.jsonl"
    assert run(capsys, "record", "--ruleset", str(path), "--matches", "2", "--seed", "2", "--out", str(rec))[0] == 0
    rc, out, _ = run(capsys, "verify", str(rec), "--jobs", "1")
    assert rc == 0, out
    sit = write(tmp_path, "sit.toml", 'schema = 1\ntitle = "t"\ndescription = "d"\nsources = []\n'
                f'ruleset = ["{path}", "{rs.extends}"]\ndealer = 0\nhand = "played"\n[question]\nkind = "next-dealer"\n')
    rep = resolve_file(str(sit))
    assert [x.status for x in rep.rulings] == ["ruled", "ruled"], [x.text for x in rep.rulings]


def test_example_rulings_differ_where_the_house_rule_bites(tmp_path: Path) -> None:
    bsfyi = EXAMPLES[[p.stem for p in EXAMPLES].index("bsfyi-raised")]
    sit = write(tmp_path, "ten.toml", 'schema = 1\ntitle = "t"\ndescription = "d"\nsources = []\n'
                f'ruleset = ["{bsfyi}", "bsfyi-41"]\ndealer = 0\nscores = [12, 5, 3, -5]\n'
                'bids = { 0 = 2, 1 = 10, 2 = 2, 3 = 2 }\ntricks = { 0 = 2, 1 = 10, 2 = 1, 3 = 0 }\n'
                '[question]\nkind = "winner"\n')
    rep = resolve_file(str(sit))
    by: dict[str, Any] = {x.ruleset: x for x in rep.rulings}
    assert by[str(bsfyi)].answer["winner"] == 1 and by["bsfyi-41"].answer["winner"] is None
    assert any(c.id == "win.made-bid" for c in by[str(bsfyi)].clauses)


def test_builtin_clause_params_table_names_real_clauses() -> None:
    ids = {cid for rs in rulesets().values() for cid in rs.clauses}
    assert set(CLAUSE_PARAMS) <= ids


def test_fuzz_tells_an_outside_engine_a_house_file_as_its_base_with_options() -> None:
    """A house file that only sets option defaults is sent as the built-in it extends with those options (the
    protocol names rules by id and options); one that changes what no option says is refused, naming it."""
    from tarneeb.conformance.fuzz import fuzz, wire_rules
    from tarneeb.conformance.protocol import Engine

    raised = load_rules(str(ROOT / "spec/house-rules/bsfyi-raised.toml"))
    assert wire_rules(raised) == {"ruleset": "bsfyi-41", "options": dict(raised.options)}
    assert dict(raised.options)["bid_total_min"] == 12
    with Engine(f"{sys.executable} {ROOT / 'examples/mini_engine/mini_engine.py'}", timeout=10) as eng:
        res = fuzz(eng, raised, 60, "house", part_way=0.5)
    assert res.divergence is None and res.deals >= 60  # with the base's defaults (total 11) it diverges
    with pytest.raises(ConfigError, match="bid.total_min"):
        wire_rules(load_rules(str(ROOT / "spec/house-rules/card-kings-total-13.toml")))
