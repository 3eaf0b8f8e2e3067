"""The page generators without sphinx: comparison values, illustrated hands, witness links."""

from __future__ import annotations

from typing import Any

import pytest

from tarneeb.core import rules as R
from tarneeb.core.spec import load_rules, rulesets
from tarneeb.docgen import compare
from tarneeb.docgen import site as docsite
from tarneeb.play.simulate import play_match


def test_comparison_has_every_ruleset_and_follows_the_rules() -> None:
    rows = {r.key: r for r in compare.comparison()}
    assert [k for k, *_ in compare.ROWS] == list(rows)
    for rid in rulesets():
        rules = load_rules(rid)
        for row in rows.values():
            assert row.values[rid].strip(), (row.key, rid)
        assert rows["target"].values[rid].startswith(str(rules.target))
        assert rows["redeal-dealer"].values[rid].startswith("the same" if rules.redeal_same_dealer else "the next")
        for o in rules.ruleset.options:  # every option shows up on some row it changes
            assert any(f"option {o.name}:" in row.values[rid] for row in rows.values()), (rid, o.name)
    # rows differ where the rulesets differ
    assert len(set(rows["trump"].values.values())) > 1
    assert len(set(rows["tie"].values.values())) == 3


@pytest.mark.parametrize("rid", list(rulesets()))
def test_illustrated_hands_are_the_dealt_hands(rid: str) -> None:
    rules = load_rules(rid)
    res = play_match(rules, docsite.HAND_SEED, 0, "heuristic", 3)
    played = [rec for rec in res.match.records if rec.redeal is None and len(rec.tricks) == 13]
    assert played
    for rec in played:
        assert docsite._hand_rows(rec, rules) == R.deal_hands(rules, rec.dealer, rec.deck)


def test_hands_page_shows_each_ruleset() -> None:
    page = docsite.hands_page()
    for rid in rulesets():
        assert f"{rid}: deal 1" in page
    assert page.count("   * - trick") == page.count("Each trick, the winning card in bold")


def test_witnesses_are_linked_from_their_rows() -> None:
    page = docsite.comparison_page({"bid-legal": {"card-kings-41 vs bsfyi-41": "a bid of 6"}, "trump": {}})
    assert ":ref:`bid-legal <witness-bid-legal>`" in page
    assert ".. _witness-bid-legal:" in page
    assert "witness-trump" not in page  # an empty witness set is not linked
    assert "No witness data" in docsite.comparison_page(None)


def test_house_page_shows_what_each_house_file_changes() -> None:
    """Every example house file, its base, every changed parameter with both values, and every clause whose
    statement differs from its base's (here: the file's own clause and the base clause its total rewords)."""
    from tarneeb.core.spec import get_ruleset
    from tarneeb.docgen import house_page

    files = house_page.house_files()
    assert len(files) >= 3
    for lang in ("en", "ar"):
        page = house_page.house_page(lang)
        for p in files:
            rs = get_ruleset(str(p))
            assert rs.id in page and f"/generated/{lang}/{rs.extends}>" in page
            assert rs.changed
            for k in rs.changed:
                assert k in page, (lang, rs.id, k)
            for cid, text, _src in house_page.changed_clauses(rs, lang):
                assert cid in page and text.split()[0] in page, (lang, rs.id, cid)
    ck = get_ruleset(str(next(p for p in files if p.stem == "card-kings-total-13")))
    got = {cid for cid, *_ in house_page.changed_clauses(ck, "en")}
    assert got == {"bid.total", "win.made-bid"}  # bid.total: "less than 13" where Card Kings says 11
    assert "house" in docsite.AR_PAGES and "house.rst" in docsite.site_pages() and "ar/house.rst" in docsite.site_pages()


def _sphinx_ext() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "_ext" / "tarneeb_sphinx.py"
    spec = importlib.util.spec_from_file_location("tarneeb_sphinx_under_test", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_witness_reads_as_sentences() -> None:
    """No ".;" where rulings ending in a full stop are joined, and no "(re-checked: the engine rules the same way)"
    after each one (it read like "no difference"; the page says once that every witness was re-checked): only a
    witness the engine does not confirm says so."""
    ext = _sphinx_ext()
    w = {"status": "difference", "summary": "the dealer's turned card is 2C",
         "rulings": {"bsfyi-41": "Trump is hearts whatever card is turned.",
                     "card-kings-41": "Trump is spades (the dealer's turned card is 2C)."},
         "engine_confirmed": True, "assumptions": ["tarneeb-400: bid.range (Assumption from bs.fyi: a bid is 2 to 13 tricks.)"],
         "readings": []}
    text = ext._witness_text(w)
    assert text == ("The dealer's turned card is 2C. bsfyi-41: Trump is hearts whatever card is turned; "
                    "card-kings-41: Trump is spades (the dealer's turned card is 2C). Rests on: tarneeb-400: "
                    "bid.range (Assumption from bs.fyi: a bid is 2 to 13 tricks.).")
    assert ".;" not in text and "re-checked" not in text
    assert "does NOT rule this way" in ext._witness_text({**w, "engine_confirmed": False})
    page = docsite.comparison_page({"trump": {"bsfyi-41 vs card-kings-41": text}})
    assert "The engine itself was run on every situation shown" in page


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_disputes_read_on_a_phone(lang: str) -> None:
    """The disputes pages lay out each dispute's rulings as a list, not a four-column table (at 390 px a word a
    line, the ambiguities column off the screen); each ambiguity is said once per dispute with the rulesets it
    concerns; readings are a list, not joined with ".;" or " | "; the Arabic page shows the facts as the file
    writes them too, and says when the documents are silent instead of "every reading rules the same"."""
    import re

    from tarneeb.core.spec import spec_dir
    from tarneeb.docgen import site_ar

    page = docsite.disputes_page() if lang == "en" else site_ar.disputes_page()
    files = sorted((spec_dir() / "disputes").glob("*.toml"))
    assert "list-table" not in page
    assert ".;" not in page and " | " not in page
    assert page.count(".. code-block:: toml") == len(files)
    sections = re.split(r"\n\.\. _dispute-(?:ar-)?", page)[1:]
    assert len(sections) == len(files)
    for section in sections:
        ambiguities = re.findall(r"^- ``([\w-]+)`` \(", section, re.M)
        assert len(ambiguities) == len(set(ambiguities)), section.splitlines()[0]
    silent = "the documents are silent" if lang == "en" else "القوانين ما بتقول شو بيصير هون"
    out_of_turn = next(s for s in sections if s.startswith("bid-out-of-turn-41"))
    assert silent in out_of_turn
    # where the club chooses, each reading is said in words, not only named by its id
    from tarneeb.core.ambiguity import ambiguity
    from tarneeb.i18n.tables import tr

    for rid, text in ambiguity("bid-out-of-turn").readings:
        said = text if lang == "en" else tr("ar", "ambiguity", "bid-out-of-turn", rid)
        assert said and " ".join(said.split()[:4]) in out_of_turn.replace("\\", ""), (rid, said)


def test_no_role_inside_bold_on_the_arabic_disputes_page() -> None:
    """reStructuredText parses no role inside ``**...**``: a bold Arabic line with left-to-right runs showed
    ``:ltr:`+10``` as text."""
    import re

    from tarneeb.docgen import site_ar

    assert not re.search(r"\*\*[^*\n]*:ltrw?:`", site_ar.disputes_page())


def test_an_arabic_page_links_back_and_on_to_arabic_pages_only() -> None:
    ext = _sphinx_ext()
    html = ('<div class="related-pages">\n  <a class="next-page" href="bsfyi-41.html"><div>x</div></a>\n'
            '  <a class="prev-page" href="../glossary.html">\n<div class="title">Glossary of Arabic terms</div>\n</a>\n'
            '</div>')
    out = ext.arabic_related_pages(html)
    assert 'href="bsfyi-41.html"' in out and "glossary" not in out and "Glossary" not in out


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_examples_cite_each_source_once_per_ruleset(lang: str) -> None:
    """The worked examples are one line each under their source, and a source is cited once per ruleset for all
    the examples it covers (the examples file lists some of a section's examples apart)."""
    import re

    from tarneeb.conformance.examples import load_examples
    from tarneeb.docgen import site_ar

    page = docsite.examples_page() if lang == "en" else site_ar.examples_page()
    assert "list-table" not in page
    by_rs: dict[str, set[tuple[str, str]]] = {}
    for ex in load_examples():
        by_rs.setdefault(ex.ruleset, set()).add((ex.doc, ex.heading))
        assert f"``{ex.id}``" in page, ex.id
    sections = re.split(r"\n-{3,}\n", page)[1:]  # each ruleset's section, after its heading's underline
    assert len(sections) == len(by_rs)
    for section, (rid, sources) in zip(sections, by_rs.items(), strict=True):
        assert section.count(".. container:: tarneeb-source") == len(sources), rid
