"""The sphinx site: built once per test run (tests/docs_support.py), then checked page by page."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from tests.docs_support import built_site, copy_docs, sphinx

from tarneeb.conformance.examples import load_examples
from tarneeb.core.ambiguity import ambiguities
from tarneeb.core.spec import rulesets, spec_dir
from tarneeb.docgen import compare
from tarneeb.docgen import rulebook as docgen
from tarneeb.i18n import tables

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def site() -> Path:
    out, failed, elapsed = built_site()
    assert failed is None, failed
    print(f"docs build: {elapsed:.1f}s")
    return out


def _page(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def _text(page: str) -> str:
    """Visible text, roughly: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("rid", list(rulesets()))
def test_every_clause_id_on_its_english_page(site: Path, rid: str) -> None:
    page = _page(site, f"generated/en/{rid}.html")
    text = _text(page)
    rs = rulesets()[rid]
    for cid, clause in rs.clauses.items():
        assert f'id="{docgen.clause_anchor(rid, cid, "en")}"' in page, cid
        assert cid in text, cid
        assert " ".join(clause.text.split()) in " ".join(text.split()), cid
        assert clause.heading in text, cid
    for o in rs.options:
        assert o.name in text
    # the order of a hand: section titles appear in SECTIONS order
    titles = [t for k, t in docgen.SECTIONS if any(docgen.section_of(c) == k for c in rs.clauses)]
    body = page.split('role="main"', 1)[1].split('class="sphinxsidebar"', 1)[0]
    headings = [_text(h).replace("¶", "").strip() for h in re.findall(r"<h3>(.*?)</h3>", body, re.S)]
    assert headings == titles


@pytest.mark.parametrize("rid", list(rulesets()))
def test_arabic_pages_are_rtl_and_complete(site: Path, rid: str) -> None:
    page = _page(site, f"generated/ar/{rid}.html")
    m = re.search(r'<div class="tarneeb-rtl" dir="rtl" lang="ar">(.*)</div>', page, re.S)
    assert m, "Arabic page body is not wrapped right-to-left"
    body = _text(m.group(1))
    rs = rulesets()[rid]
    for cid in rs.clauses:
        ar = tables.clause_text(rs, cid, "ar")
        assert cid in body
        assert " ".join(ar.split()) in " ".join(body.split()), cid
        assert rs.clauses[cid].text not in body, f"{cid}: English text on the Arabic page"
    for key, _ in docgen.SECTIONS:
        if any(docgen.section_of(c) == key for c in rs.clauses):
            assert docgen.section_title("ar", key) in body
    for a in ambiguities():
        if rid in a.taken:
            assert a.id in body
            assert a.question not in body, f"{a.id}: English question on the Arabic page"


def test_comparison_rows_link_to_witnesses(site: Path) -> None:
    pytest.importorskip("tarneeb_proofs.diff")
    page = _page(site, "generated/comparison.html")
    text = _text(page)
    pairs = [(a, b) for i, a in enumerate(rulesets()) for b in list(rulesets())[i + 1:]]
    for a, b in pairs:
        assert f"{a} vs {b}" in text
    for key in ("trump", "bid-legal", "redeal-dealer", "tie-rule", "score"):
        assert f'href="#witness-{key}"' in page, key
    # the re-check is said once for the page, not after every witness; rulings are joined without ".;"
    assert "The engine itself was run on every situation shown" in text
    assert "re-checked: the engine rules the same way" not in text and ".;" not in text
    # the witnesses count players 1 to 4 as their rulings do, and say "no difference" without the solver's word
    assert "Player 2, on 0 points, bids 6" in text
    assert not re.search(r"\b[Ss]eat \d|\bunsat\b", text)


def test_comparison_page_shows_every_ruleset_under_every_point(site: Path) -> None:
    """No table wider than a phone: each variation point is a heading with a list, every ruleset named once under
    it (those that agree on one line), in both languages."""
    for lang, page in (("en", "generated/comparison.html"), ("ar", "generated/ar/comparison.html")):
        doc = _page(site, page)
        assert "<table" not in doc.split('role="main"', 1)[1].split('class="sphinxsidebar"', 1)[0], lang
        points = re.split(r'<p class="tarneeb-point rubric">', doc)[1:]
        rows = compare.comparison(lang=lang)
        assert len(points) == len(rows) == len(compare.ROWS), lang
        for row, part in zip(rows, points, strict=True):
            part = part.split("</ul>", 1)[0]
            assert _text(part.split("</p>", 1)[0]).strip() == row.title, (lang, row.title)
            named = re.findall(r'<span class="doc">([\w-]+)</span>', part)
            assert sorted(named) == sorted(rulesets()), (lang, row.title, named)
            for _rids, value in compare.grouped(row.values, list(rulesets())):
                assert value.split("[")[0].strip()[:20] in _text(part), (lang, row.title, value)


def test_examples_page_shows_engine_results(site: Path) -> None:
    text = _text(_page(site, "generated/examples.html"))
    examples = load_examples()
    assert examples
    for ex in examples:
        assert ex.id in text
    assert text.count("✓") == len(examples)
    assert "✗" not in text


def test_hands_glossary_cli_api_disputes_pages(site: Path) -> None:
    hands = _text(_page(site, "generated/hands.html"))
    for rid in rulesets():
        assert f"{rid}: deal 1" in hands
    assert hands.count("won by") >= len(rulesets())
    gloss = _text(_page(site, "generated/glossary.html"))
    for word in ("طرنيب", "لمّة", "كبّة", "بستوني", "سباتي", "ديناري"):
        assert word in gloss
    cli = _text(_page(site, "generated/cli.html"))
    for cmd in ("rulesets", "show", "simulate", "demo", "rules"):
        assert f"tarneeb {cmd}" in cli
    assert "--lang" in cli
    api = _page(site, "generated/api.html")
    assert 'id="tarneeb.docgen.rulebook.ruleset_doc"' in api
    assert 'id="tarneeb.core.spec.load_rules"' in api
    disputes = _text(_page(site, "generated/disputes.html"))
    folder = spec_dir() / "disputes"
    for p in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        assert p.name in disputes


def test_a_wrong_example_fails_the_build(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    ex = (spec / "examples.toml").read_text(encoding="utf-8")
    broken = ex.replace('expect = { trump = "D" }', 'expect = { trump = "S" }', 1)
    assert broken != ex
    (spec / "examples.toml").write_text(broken, encoding="utf-8")
    src = copy_docs(tmp_path)
    proc = sphinx(src, tmp_path / "html", {"TARNEEB_SPEC_DIR": str(spec), "TARNEEB_DOCS_WITNESSES": "off"})
    assert proc.returncode != 0
    assert "000-trump-hearts" in proc.stdout + proc.stderr


def test_arabic_pages_are_whole_page_rtl(site: Path) -> None:
    """Every Arabic page is right-to-left as a whole (navigation too): ``lang="ar" dir="rtl"`` on ``<html>``;
    ids and codes inside keep their own left-to-right order; English pages stay left-to-right."""
    from tarneeb.docgen.site import AR_PAGES

    ar_pages = sorted((site / "generated" / "ar").glob("*.html"))
    names = {p.stem for p in ar_pages}
    assert names >= {"index", *rulesets(), *AR_PAGES}
    for p in ar_pages:
        page = p.read_text(encoding="utf-8")
        tag = re.search(r"<html\b[^>]*>", page)
        assert tag, p.name
        assert 'lang="ar"' in tag.group(0) and 'dir="rtl"' in tag.group(0), (p.name, tag.group(0))
        assert tag.group(0).count("lang=") == 1, tag.group(0)
        body = page.split('<div class="tarneeb-rtl" dir="rtl" lang="ar">', 1)
        assert len(body) == 2, f"{p.name}: body not wrapped right-to-left"
        assert '<code class="docutils literal' not in body[1], f"{p.name}: a code span without dir=ltr"
        assert not re.search(r'<span class="ltrw?">', body[1]), f"{p.name}: an ltr span without dir=ltr"
    classic = (site / "generated" / "ar" / "classic.html").read_text(encoding="utf-8")
    # the ids are in the one folded technical block, each line of it a left-to-right isolate; none in the text
    assert classic.count('<details class="tarneeb-technical">') == 1 and '<bdi dir="ltr">' in classic
    assert '<code dir="ltr" class="docutils literal' not in classic
    assert '<span class="ltr" dir="ltr">' in classic
    for p in (site / "generated" / "en").glob("*.html"):
        tag = re.search(r"<html\b[^>]*>", p.read_text(encoding="utf-8"))
        assert tag and 'dir="rtl"' not in tag.group(0) and 'lang="en"' in tag.group(0), p.name
    for _key, title in docgen.SECTIONS[:1]:
        assert title not in _text(classic.split('<div class="tarneeb-rtl"', 1)[1]), "English section title"

@pytest.mark.parametrize("rid", list(rulesets()))
def test_every_ruleset_page_shows_its_stats_figure(site: Path, rid: str) -> None:
    """The statistics section (tarneeb.docgen.stats_figures) with its PNG, in both languages."""
    pytest.importorskip("matplotlib")
    for lang in ("en", "ar"):
        page = _page(site, f"generated/{lang}/{rid}.html")
        assert f'src="../../_images/{rid}.png"' in page, lang
        assert ("heuristic policy" if lang == "en" else "قواعد لعب بسيطة") in _text(page), lang  # the bots' policy
    png = site / "_images" / f"{rid}.png"
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 10_000


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_source_is_cited_once_above_the_clauses_that_share_it(site: Path, lang: str) -> None:
    from tarneeb.core.sources import cite

    for rid in rulesets():
        page = _page(site, f"generated/{lang}/{rid}.html")
        doc = docgen.ruleset_doc(rid, lang)
        blocks = re.findall(r'<div class="(tarneeb-source|tarneeb-clause)[^"]*"[^>]*>(.*?)</div>', page, re.S)
        shown = [_text(b).strip() for kind, b in blocks if kind == "tarneeb-source"]
        runs = []
        for s in doc.sections:
            for i, c in enumerate(s.clauses):
                src = cite(c.doc, c.heading, lang)
                if i == 0 or src != cite(s.clauses[i - 1].doc, s.clauses[i - 1].heading, lang):
                    runs.append(src)
        for i, o in enumerate(doc.options):  # the options too: a source once above the options it covers
            src = cite(o.doc, o.heading, lang)
            if i == 0 or src != cite(doc.options[i - 1].doc, doc.options[i - 1].heading, lang):
                runs.append(src)
        items = sum(len(s.clauses) for s in doc.sections) + len(doc.options)
        assert len(shown) == len(runs) < items, rid
        assert all(src in text for src, text in zip(runs, shown, strict=True)), rid
        assert not any("tarneeb-source" in b for kind, b in blocks if kind == "tarneeb-clause")


def test_a_dispute_shows_its_facts_as_its_file_writes_them(site: Path) -> None:
    import tomllib

    page = _page(site, "generated/disputes.html")
    blocks = re.findall(r'<div class="highlight-toml notranslate"><div class="highlight"><pre>(.*?)</pre>', page, re.S)
    files = sorted((ROOT / "spec/disputes").glob("*.toml"))
    assert len(blocks) == len(files) > 10
    for text, path in zip(blocks, files, strict=True):
        facts = tomllib.loads(_text(text))
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert facts == {k: v for k, v in data.items() if k not in ("title", "description", "expected", "schema",
                                                                       "sources")}, path.name
    assert '"0": 5' not in _text(page)  # no TOML table shown as JSON


def test_arabic_pages_keep_the_arabic_navigation_and_title(site: Path) -> None:
    for p in (site / "generated" / "ar").glob("*.html"):
        page = p.read_text(encoding="utf-8")
        captions = re.findall(r'<span class="caption-text">([^<]*)</span>', page)
        assert captions == ["العربية (Arabic)"], (p.name, captions)
        assert "Tarneeb reference model" not in page, p.name
        assert "نموذج الطرنيب المرجعي" in page
        # "previous" and "next" lead to Arabic pages only (the first led to the English glossary)
        related = re.findall(r'<a class="(?:next|prev)-page" href="([^"]*)"', page)
        assert all(not h.startswith("../") for h in related), (p.name, related)
    index = _page(site, "generated/ar/index.html")
    assert re.findall(r'<a class="(next|prev)-page"', index) == ["next"]
    english = _page(site, "generated/en/classic.html")
    assert re.findall(r'<span class="caption-text">([^<]*)</span>', english) == ["Rules", "العربية (Arabic)",
                                                                                 "Reference"]


def test_the_index_lists_the_pages_not_every_section(site: Path) -> None:
    body = _page(site, "index.html").split('role="main"', 1)[1].split('class="related', 1)[0]
    main = body.split("<footer", 1)[0]
    links = re.findall(r'<a class="reference internal" href="[^"]+">', main.split("toctree-wrapper", 1)[1])
    assert 8 <= len(links) <= 14, len(links)
