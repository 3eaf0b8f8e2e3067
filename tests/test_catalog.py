"""Ruleset files live in an explicit catalog (tarneeb.core.context), not in a registry of the process:
two configurations coexist in one process, and nothing one loads is seen by the other."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tarneeb.core import sources
from tarneeb.core.context import Catalog, current, using
from tarneeb.core.spec import builtin_rulesets_only, get_ruleset, load_rules
from tarneeb.errors import ConfigError

HEAD = 'schema = 1\nid = "club"\nextends = "card-kings-41"\nname = "Club"\nsummary = "A club."\n'
OWN = ('[[source]]\nid = "club-sheet"\npublisher = "a club"\npublished = "its notice board"\n[[clause]]\n'
       'id = "win.target"\nheading = "Winning"\ndoc = "club-sheet"\ntext = "The first team to {win.target} wins."\n')


def test_two_catalogs_hold_two_rulesets_of_the_same_id_side_by_side(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(HEAD + "[params]\nwin.target = 31\n" + OWN)
    b.write_text(HEAD + "[params]\nwin.target = 61\n" + OWN.replace("club-sheet", "club-sheet-b"))
    one, two = Catalog(), Catalog()
    assert load_rules(str(a), catalog=one).target == 31
    assert load_rules(str(b), catalog=two).target == 61
    # each knows its file by the id too, and the sources its file declares; neither sees the other's
    assert get_ruleset("club", one).path == str(a) and get_ruleset("club", two).path == str(b)
    assert set(one.sources) == {"club-sheet"} and set(two.sources) == {"club-sheet-b"}
    with pytest.raises(ConfigError, match="unknown ruleset"):
        get_ruleset("club", Catalog())
    # the current catalog is the one a block names: cite finds the sources of its files only
    with using(two):
        assert "club-sheet-b" in sources.sources() and "club-sheet" not in sources.sources()
        assert get_ruleset("club").path == str(b)
    with using(one):
        assert get_ruleset("club").cite("win.target").startswith("win.target (a club")


def test_a_thread_starts_with_an_empty_catalog_of_its_own(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text(HEAD + OWN)
    get_ruleset(str(f))
    assert "club" in current().rulesets
    seen: list[bool] = []
    worker = threading.Thread(target=lambda: seen.append("club" in current().rulesets))
    worker.start()
    worker.join()
    assert seen == [False]


def test_builtin_rulesets_only_is_a_fresh_catalog_that_opens_no_file(tmp_path: Path) -> None:
    f = tmp_path / "d.toml"
    f.write_text(HEAD + OWN)
    get_ruleset(str(f))
    with builtin_rulesets_only() as catalog:
        assert not catalog.files_allowed and catalog.rulesets == {}
        for name in ("club", str(f)):  # neither what the process loaded before nor a file by its path
            with pytest.raises(ConfigError, match="unknown ruleset"):
                get_ruleset(name)
    assert get_ruleset("club").path == str(f)  # the block's end gives the catalog back
