"""``tarneeb show RULESET --lang ar``: a source is cited once, above the clauses it covers (as the rule pages and
``tarneeb rules`` do), not under every clause: on a phone-wide terminal the citations outgrew the rules."""

from __future__ import annotations

import re

import pytest

from tarneeb.cli import main
from tarneeb.cli.show import show_data
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
    texts = {c["id"]: c["text"] for c in show_data(rid, "ar")["clauses"]}
    for c in runs:  # a clause is a bullet of its Arabic statement (its id is the technical line's)
        at = next(i for i, ln in enumerate(lines) if ln.startswith("  • ") and texts[c.id].startswith(ln[4:24]))
        k = at - 1  # the citation just above (it may wrap to a second line), not the clause before
        while not lines[k].startswith("(المصدر:"):
            assert not lines[k].startswith("  "), c.id
            k -= 1
