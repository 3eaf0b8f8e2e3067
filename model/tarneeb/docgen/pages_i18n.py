"""The Arabic texts of the site pages beyond the rulesets (``spec/i18n/ar_pages.toml``)."""

from __future__ import annotations

from typing import Any

from tarneeb.core.spec import spec_dir
from tarneeb.errors import SpecError
from tarneeb.i18n.tables import load_table

PAGES_FILE = "ar_pages.toml"


def pages_table() -> dict[str, Any]:
    return load_table(str(spec_dir() / "i18n" / PAGES_FILE))


def page_text(*keys: str) -> str:
    """A text of ``ar_pages.toml`` by its keys; ``""`` when missing."""
    node: Any = pages_table()
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            return ""
        node = node[k]
    return node if isinstance(node, str) else ""


def need(*keys: str) -> str:
    """Like :func:`page_text`, but a missing text is a located :class:`SpecError`."""
    text = page_text(*keys)
    if not text.strip():
        raise SpecError(str(spec_dir() / "i18n" / PAGES_FILE), ".".join(keys), "no Arabic text")
    return text


def need_list(key: str, n: int) -> list[str]:
    node = pages_table().get("pages", {}).get(key)
    if not isinstance(node, list) or len(node) != n or not all(isinstance(x, str) and x for x in node):
        raise SpecError(str(spec_dir() / "i18n" / PAGES_FILE), f"pages.{key}", f"needs a list of {n} Arabic texts")
    return [str(x) for x in node]
