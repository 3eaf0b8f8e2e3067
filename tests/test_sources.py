"""Citations people can follow: every document the spec cites is in spec/sources.toml, and no
human-facing output names a document by its hashed file name (JSON keeps it as the machine id)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tarneeb.core.ambiguity import ambiguities
from tarneeb.core.sources import cite, cite_ref, sources
from tarneeb.core.spec import rulesets, spec_dir
from tarneeb.errors import SpecError

HASHED = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def test_every_cited_document_is_in_the_table() -> None:
    # the table itself (house ruleset files loaded earlier in the session register their own sheets beside it)
    known = {s["id"] for s in tomllib.loads((spec_dir() / "sources.toml").read_text(encoding="utf-8"))["source"]}
    assert len(known) == 4 and known <= set(sources())
    for rs in rulesets().values():
        assert rs.document in known, rs.id
        assert {c.doc for c in rs.clauses.values()} <= known, rs.id
        assert {o.doc for o in rs.options} <= known, rs.id
    for a in ambiguities():
        for ref in a.sources:
            assert ref.partition(": ")[0] in known, (a.id, ref)
    ex = tomllib.loads((spec_dir() / "examples.toml").read_text(encoding="utf-8"))
    assert {e["doc"] for e in ex["example"]} <= known


def test_cite_reads_like_a_reference() -> None:
    assert cite("001_ca76ade5eedc2a7c.txt", "Scoring") == 'bs.fyi, "How to Play Tarneeb 41", section "Scoring"'
    assert cite("000_2bd9936ea71faec4.txt", "Bidding").startswith("Card Kings, ")
    assert not HASHED.search(cite_ref("003_d3b0f84db4710d16.txt: What you need"))
    with pytest.raises(SpecError, match="not in the sources table"):
        cite("999_0000000000000000.txt", "x")


@pytest.mark.parametrize("argv", [
    ["rulesets"], ["show", "classic"], ["show", "card-kings-41"],
    ["rules", "eram-41", "--format", "txt"], ["rules", "bsfyi-41", "--format", "md"],
    ["rules", "classic", "--format", "rst", "--lang", "ar"],
    ["ruling", "spec/disputes/partner-negative.toml"],
])
def test_human_output_has_no_hashed_file_name(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from tarneeb.cli import main

    root = Path(__file__).resolve().parents[1]
    argv = [str(root / a) if a.startswith("spec/") else a for a in argv]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.strip()
    assert not HASHED.search(out), HASHED.search(out)


def test_every_clause_and_ambiguity_has_a_name_and_is_shown_beside_it() -> None:
    from tarneeb.core.ambiguity import ambiguities
    from tarneeb.core.sources import rule_name, rule_words, topic_words
    from tarneeb.core.spec import rulesets

    for rs in rulesets().values():
        for cid in rs.clauses:
            assert not rule_name(cid).startswith("rule "), f"{cid} has no name in spec/names.toml"
            assert rule_words(cid) == f"{rule_name(cid)} ({cid})"
    for a in ambiguities():
        assert topic_words(a.id).endswith(f" ({a.id})") and not topic_words(a.id).startswith("the question "), a.id
    assert rule_words("play.follow") == "the follow-suit rule (play.follow)"
    assert rule_words("club.own-rule") == "rule club.own-rule"  # a club's own clause, not yet named
