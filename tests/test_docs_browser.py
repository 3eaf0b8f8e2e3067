"""The docs pages in a real browser (headless Chromium, as ``tests/test_serve_browser.py`` drives it): every page
of the site, English and Arabic, at a laptop's 1280 px and a phone's 390 px, shows its text without sideways
scrolling, neither of the page nor of a box inside it (a table wider than the screen hides its last columns
behind a scroll bar a reader may never find). Arabic text is set larger than the English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser  # noqa: E402
from tests.browser_support import launched, skip_module_without_chromium  # noqa: E402
from tests.docs_support import built_site  # noqa: E402

pytestmark = pytest.mark.slow

skip_module_without_chromium()

WIDTHS = (1280, 390)

# every box of the article wider than its own visible width (a scrolled table), or reaching past the screen
OVERFLOW_JS = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('article *')) {
    if (el.closest('pre, .highlight')) continue;  // code keeps its lines; a code box scrolls by design
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    const scrolls = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible';
    if (scrolls || r.right > vw + 1 || r.left < -1) {
      const id = el.closest('[id]');
      out.push(`${el.tagName.toLowerCase()}.${el.className} in #${id ? id.id : '?'}: ${Math.round(r.left)}..` +
               `${Math.round(r.right)} px, content ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
  }
  return [document.documentElement.scrollWidth, vw, out];
}"""


@pytest.fixture(scope="module")
def site() -> Path:
    out, failed, _ = built_site()
    assert failed is None, failed
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


def _pages(site: Path) -> list[str]:
    gen = sorted(str(p.relative_to(site)) for p in (site / "generated").rglob("*.html"))
    return ["index.html", *gen]


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_reads_without_sideways_scrolling(site: Path, browser: Browser, width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    problems: dict[str, list[str]] = {}
    pages = _pages(site)
    assert any("/ar/" in p for p in pages) and any("/en/" in p for p in pages)
    for rel in pages:
        page.goto((site / rel).as_uri())
        scroll, vw, boxes = page.evaluate(OVERFLOW_JS)
        if scroll > vw + 1 or boxes:
            problems[rel] = [f"page {scroll} px wide in {vw} px", *boxes[:4]] if scroll > vw + 1 else boxes[:4]
    ctx.close()
    assert problems == {}


def test_arabic_text_is_set_larger_than_english(site: Path, browser: Browser) -> None:
    """Arabic letters at the size of the Latin ones read smaller: the Arabic body is set a little larger."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    sizes = {}
    for lang in ("en", "ar"):
        page.goto((site / f"generated/{lang}/classic.html").as_uri())
        sizes[lang] = float(page.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                                          "'article div.tarneeb-clause p')).fontSize)"))
    page.close()
    assert sizes["ar"] >= 1.05 * sizes["en"], sizes
