"""Sphinx configuration. Build: ``python -m sphinx -W -b html docs docs/_build/html``.

Every page under ``generated/`` is written by the local extension ``tarneeb_sphinx``
(from ``spec/`` and the engine) before sphinx reads its sources.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
# The package is normally installed (pip install -e .); this makes a bare checkout work too.
for extra in (HERE.parent / "model", HERE.parent / "proofs"):
    if extra.is_dir() and str(extra) not in sys.path:
        sys.path.append(str(extra))

project = "Tarneeb reference model"
author = "the Tarneeb reference model authors"
copyright = "the Tarneeb reference model authors"
extensions = ["sphinx.ext.autodoc", "tarneeb_sphinx"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["tarneeb.css"]
html_title = "Tarneeb reference model"
html_theme_options = {"navigation_with_keys": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
nitpicky = False
smartquotes = False  # show spec text exactly as written
