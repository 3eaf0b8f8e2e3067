"""Local sphinx extension: generate the rule pages from ``spec/`` and mark Arabic pages right-to-left.

On ``builder-inited`` it calls :func:`tarneeb.docsite.generate_site`, which writes
``generated/`` in the source folder (only changed files are rewritten). Any error
there (a missing translation, an example the engine contradicts) fails the build.
Pages under ``generated/ar/`` get ``dir="rtl" lang="ar"`` around their body.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

RTL_PREFIX = "generated/ar/"


def _witnesses() -> dict[str, dict[str, str]] | None:
    """Diff witnesses for the comparison page, when the formal layer provides them."""
    try:
        from tarneeb_proofs import diff  # type: ignore[import-not-found]
    except ImportError:
        return None
    fn = getattr(diff, "doc_witnesses", None)
    if fn is None:
        return None
    result: dict[str, dict[str, str]] = fn()
    return result


def _generate(app: Sphinx) -> None:
    from tarneeb.docsite import generate_site
    from tarneeb.errors import TarneebError

    t0 = time.perf_counter()
    try:
        changed = generate_site(Path(app.srcdir) / "generated", witnesses=_witnesses())
    except TarneebError as e:
        raise ExtensionError(f"tarneeb docs: {e}") from e
    logger.info("tarneeb: generated pages in %.2fs (%d rewritten)", time.perf_counter() - t0, len(changed))


def _rtl(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    if pagename.startswith(RTL_PREFIX) and "body" in context:
        context["body"] = f'<div class="tarneeb-rtl" dir="rtl" lang="ar">\n{context["body"]}\n</div>'


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _generate)
    app.connect("html-page-context", _rtl)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
