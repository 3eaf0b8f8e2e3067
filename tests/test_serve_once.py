"""The parts of a page the web app makes once a process (``tarneeb.serve.app.once``: the card picker, the list of
examples) are the bytes the template makes each time, whichever language asked first: the cache is keyed by all
they read, and holds nothing of a request."""

from __future__ import annotations

import pytest
from tests.serve_support import app_client


@pytest.mark.parametrize("first", ["en", "ar"])
def test_parts_made_once_are_the_parts_made_each_time(first: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tarneeb.serve import app

    def pages() -> dict[str, bytes]:
        with app_client() as c:
            return {lang: c.get(f"/{lang}/ruling?example=bid-out-of-turn-41").content
                    for lang in (first, "ar" if first == "en" else "en")}

    monkeypatch.setattr(app, "_ONCE", {})
    cached = pages()
    assert {k[:2] for k in app._ONCE} == {("picker", "en"), ("picker", "ar"), ("examples", "en"),
                                          ("examples", "ar")}
    each_time = {}
    for lang in cached:  # the cache emptied before every page: each part made for that page alone
        monkeypatch.setattr(app, "_ONCE", {})
        each_time[lang] = pages()[lang]
    assert cached == each_time
    assert 'id="picker"' in cached["en"].decode() and "examples" in cached["ar"].decode()
