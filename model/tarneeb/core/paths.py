"""Where the spec is read from: the lowest layer of the core (it imports nothing of it)."""

from __future__ import annotations

import os
from functools import cache
from importlib.resources import files
from pathlib import Path


def spec_dir() -> Path:
    """The ``spec/`` folder the engine reads.

    In order: ``$TARNEEB_SPEC_DIR`` (an override); the copy a wheel carries as
    package data (``tarneeb/specdata``: the build maps the repository's
    top-level ``spec/`` there, see ``pyproject.toml``); the repository's own
    ``spec/`` (a source tree or an editable install).
    """
    env = os.environ.get("TARNEEB_SPEC_DIR")
    if env:
        return Path(env)
    return _default_spec_dir()


@cache
def _default_spec_dir() -> Path:
    packaged = files("tarneeb") / "specdata"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[3] / "spec"


def spec_is_packaged() -> bool:
    """Whether the spec read is the copy an installed wheel carries (``tarneeb/specdata``), not a source tree's
    ``spec/`` or ``$TARNEEB_SPEC_DIR``: commands that write spec files refuse to write into an installation."""
    return not os.environ.get("TARNEEB_SPEC_DIR") and _default_spec_dir().name == "specdata"
