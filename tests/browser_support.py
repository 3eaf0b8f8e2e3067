"""Debian's Chromium as the browser tests launch it (through Playwright): where it is, its flags, and what a test
module does when it is missing (skipped with the reason; under CI, where ``.ci/run`` installs it, a failure)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

CHROMIUM = os.environ.get("TARNEEB_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
HAVE_CHROMIUM = Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is not None
PHONE: ViewportSize = {"width": 390, "height": 844}  # the window sizes pages are checked and screenshotted at
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
SERVE_ARTIFACTS = Path(os.environ.get("TARNEEB_ARTIFACTS", Path(__file__).resolve().parent / "artifacts" / "serve"))


def skip_module_without_chromium() -> None:
    """At a module's top: skip the whole module where Chromium is missing, except under CI (then each test that
    launches it fails, through :func:`launched`)."""
    if not HAVE_CHROMIUM and not os.environ.get("CI"):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def need_chromium() -> None:
    """In a test: skip it where Chromium is missing, fail it under CI."""
    if HAVE_CHROMIUM:
        return
    if os.environ.get("CI"):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: .ci/run installs it (apt-get install chromium)")
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")


def launched() -> Iterator[Any]:
    """Chromium launched headless for a module's tests (a fixture's body: ``yield from launched()``)."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
