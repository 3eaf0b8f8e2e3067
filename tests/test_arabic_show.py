"""``tarneeb show RULESET --lang ar``: a source is cited once, above the clauses it covers (as the rule pages and
``tarneeb rules`` do), not under every clause: on a phone-wide terminal the citations outgrew the rules."""

from __future__ import annotations

import re

import pytest

from tarneeb.cli import main
from tarneeb.core.sources import cite
from tarneeb.core.spec import get_ruleset, rulesets


@pytest.mark.parametrize("rid", list(rulesets()))
def test_arabic_show_cites_each_source_once_above_its_clauses(rid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", rid, "--lang", "ar"]) == 0
    out = re.sub("[\u2066-\u2069\u200e\u200f]", "", capsys.readouterr().out)
    rules = out.split("\n\n")[1]  # the clauses, before the options
    clauses = list(get_ruleset(rid).clauses.values())
    runs = [c for i, c in enumerate(clauses)
            if i == 0 or cite(c.doc, c.heading, "ar") != cite(clauses[i - 1].doc, clauses[i - 1].heading, "ar")]
    assert rules.count("(المصدر:") == len(runs) < len(clauses)
    # each citation stands just above the first clause of its run
    lines = rules.splitlines()
    for c in runs:
        at = lines.index(f"[{c.id}]")
        above = next(ln for ln in reversed(lines[:at]) if not ln.startswith(" "))
        assert not above.startswith("["), c.id  # a citation line (or the heading), not the clause before
