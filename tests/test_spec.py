"""Loading and validating rulesets: errors name the file, key and valid choices."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from tarneeb import ConfigError, SpecError, load_rules, rulesets
from tarneeb.core.ambiguity import ambiguities
from tarneeb.core.spec import CLAUSES_AUCTION, CLAUSES_COMMON, CLAUSES_INDIVIDUAL, load_ruleset_file, spec_dir

RULESET_IDS = ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"]


def test_all_five_rulesets_load() -> None:
    assert sorted(rulesets()) == sorted(RULESET_IDS)


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_every_clause_cites_a_document_and_heading(rid: str) -> None:
    rs = rulesets()[rid]
    books = Path(spec_dir()).parent.parent / "shared" / "rulebooks"
    for c in rs.clauses.values():
        assert c.text and c.heading and c.doc.endswith(".txt")
        if books.is_dir():
            text = (books / c.doc).read_text(encoding="utf-8")
            heading = c.heading.split(". ", 1)[-1] if c.heading[0].isdigit() else c.heading
            assert heading in text, f"{rid}/{c.id}: heading {c.heading!r} not found in {c.doc}"
    needed = CLAUSES_COMMON + (CLAUSES_INDIVIDUAL if rs.params["family"] == "individual" else CLAUSES_AUCTION)
    assert set(needed) <= set(rs.clauses)


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_every_option_combination_loads(rid: str) -> None:
    """Every combination of enumerated option values is a sound configuration."""
    rs = rulesets()[rid]
    choices = [o.allowed if o.range is None else (o.range[0], 41) for o in rs.options]
    n = 0
    for combo in itertools.product(*choices):
        load_rules(rid, dict(zip([o.name for o in rs.options], combo, strict=True)))
        n += 1
    assert n >= 1


def test_unknown_option_lists_valid_ones() -> None:
    with pytest.raises(ConfigError) as e:
        load_rules("classic", {"kabot": "16"})
    msg = str(e.value)
    assert "kabot" in msg and "kaboot" in msg and "must_trump" in msg


def test_bad_option_value_lists_valid_choices() -> None:
    with pytest.raises(ConfigError) as e:
        load_rules("classic", {"kaboot": "32"})
    assert "16, 26, double, none" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_rules("bsfyi-41", {"bid_total_min": "twelve"})
    assert "not an integer" in str(e.value) and "11, 12, 13" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_rules("classic", {"play_on": "-5"})
    assert "0 to 1000" in str(e.value)


def test_unknown_ruleset_lists_valid_ones() -> None:
    with pytest.raises(ConfigError) as e:
        load_rules("tarneeb-41")
    assert "card-kings-41" in str(e.value)


def _copy_spec(tmp_path: Path) -> Path:
    dst = tmp_path / "spec"
    shutil.copytree(spec_dir(), dst)
    return dst


def test_malformed_ruleset_names_file_and_key(tmp_path: Path) -> None:
    d = _copy_spec(tmp_path)
    p = d / "rulesets" / "eram-41.toml"
    p.write_text(p.read_text().replace("bid.total_min = 11", "bid.total_min = \"eleven\""))
    with pytest.raises(SpecError) as e:
        load_ruleset_file(p)
    assert "eram-41.toml" in str(e.value) and "params.bid.total_min" in str(e.value)
    p.write_text(p.read_text().replace('bid.total_min = "eleven"', "bid.totl_min = 11"))
    with pytest.raises(SpecError) as e:
        load_ruleset_file(p)
    assert "bid.totl_min" in str(e.value) and "bid.total_min" in str(e.value)


def test_missing_clause_is_refused(tmp_path: Path) -> None:
    d = _copy_spec(tmp_path)
    p = d / "rulesets" / "eram-41.toml"
    p.write_text(p.read_text().replace('id = "tie.both-qualify"', 'id = "tie.both"'))
    with pytest.raises(SpecError) as e:
        load_ruleset_file(p)
    assert "tie.both-qualify" in str(e.value)


def test_toml_syntax_error_is_located(tmp_path: Path) -> None:
    d = _copy_spec(tmp_path)
    p = d / "rulesets" / "classic.toml"
    p.write_text(p.read_text() + "\n[[clause]\n")
    with pytest.raises(SpecError) as e:
        load_ruleset_file(p)
    assert "classic.toml" in str(e.value) and "line" in str(e.value)


@pytest.mark.parametrize(
    ("ruleset", "mutation", "key", "needles"),
    [
        ("eram-41", "bid.excluded = []", "bid.excluded = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]", ("no legal bid",)),
        ("eram-41", "bid.total_min = 11", "bid.total_min = 53", ("bid.total_min",)),
        ("eram-41", "win.target = 41", "win.target = 0", ("win.target",)),
        ("eram-41", "score.values = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]",
         "score.values = [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]", ("score.values",)),
        # rising minimum bids with the higher bids excluded: a player at 40 points has no legal bid
        ("tarneeb-400", "bid.excluded = []", "bid.excluded = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]", ("no legal bid", "40")),
    ],
)
def test_stuck_configurations_are_refused(tmp_path: Path, ruleset: str, mutation: str, key: str,
                                          needles: tuple[str, ...]) -> None:
    """A ruleset that could get stuck (no legal bid, unreachable total, undecidable target) does not load."""
    d = _copy_spec(tmp_path)
    p = d / "rulesets" / f"{ruleset}.toml"
    text = p.read_text()
    assert mutation in text
    p.write_text(text.replace(mutation, key))
    rs = load_ruleset_file(p)
    with pytest.raises(ConfigError) as e:
        load_rules(rs)
    assert "configuration refused" in str(e.value)
    for needle in needles:
        assert needle in str(e.value)


def test_ambiguity_register_is_consistent() -> None:
    amb = ambiguities()
    assert len(amb) >= 10
    ids = {a.id for a in amb}
    for needed in ("raised-total", "weakest-card", "defender-kaboot", "first-dealer"):
        assert needed in ids
    for a in amb:
        for rid, reading in a.taken.items():
            assert rid in rulesets()
            assert reading in dict(a.readings)
        if a.option:  # the option it names exists (in the ruleset a reading adds it from, when one does)
            for rid in a.option_from.values() or a.taken:
                rulesets()[rid].option(a.option)
