"""The disputes of ``spec/disputes/`` as the site's pages read them, shared by the English page
(:func:`tarneeb.docgen.site.disputes_page`) and the Arabic one (:func:`tarneeb.docgen.site_ar.disputes_page`): the
situation files and their facts and question as each file writes them.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from tarneeb.core.spec import spec_dir
from tarneeb.errors import DocsBuildError, SpecError

SHOWN_APART = ("title", "description", "expected", "schema", "sources")  # a dispute's keys the page shows itself


def disputes_dir() -> Path:
    """The folder of the situation files (``spec/disputes/``)."""
    return spec_dir() / "disputes"


def situation_files() -> list[Path]:
    """The situation files of :func:`disputes_dir` (TOML or JSON, the schema aside), sorted; none without the folder."""
    folder = disputes_dir()
    return sorted(p for p in folder.glob("*") if p.suffix in (".toml", ".json") and p.stem != "schema") \
        if folder.is_dir() else []


def load_situation(p: Path) -> dict[str, Any]:
    """A situation file's table (a located :class:`SpecError` when it does not parse)."""
    text = p.read_text(encoding="utf-8")
    try:
        data: dict[str, Any] = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise SpecError(str(p), "(file)", str(e)) from None
    return data


def json_block(value: dict[str, Any], indent: str = "   ") -> list[str]:
    """A JSON object with one top-level key per line (compact values)."""
    items = [f"{indent}  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()]
    return [indent + "{"] + [ln + ("," if i < len(items) - 1 else "") for i, ln in enumerate(items)] + [indent + "}"]


def facts_block(path: Path, data: dict[str, Any]) -> list[str]:
    """A dispute's facts and question as its own file writes them (TOML stays TOML, JSON stays JSON), without the
    keys the page shows apart (title, description, sources, the expected rulings) and without comments. The text
    shown is read back and must give the file's facts exactly (a build error otherwise)."""
    facts = {k: v for k, v in data.items() if k not in SHOWN_APART}
    if path.suffix == ".json":
        return [".. code-block:: json", ""] + json_block(facts)
    kept: list[str] = []
    skipping = False
    for line in path.read_text(encoding="utf-8").splitlines():
        bare = line.strip()
        if bare.startswith("["):
            skipping = bare.strip("[]").strip() in SHOWN_APART
        if skipping or bare.startswith("#") or bare.split("=", 1)[0].strip() in SHOWN_APART:
            continue
        kept.append(line)
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(ln.rstrip() for ln in kept).strip("\n"))
    if tomllib.loads(text) != facts:
        raise DocsBuildError(f"{path.name}: the facts shown do not read back as the file's facts")
    return [".. code-block:: toml", ""] + ["   " + ln if ln else "" for ln in text.splitlines()]
