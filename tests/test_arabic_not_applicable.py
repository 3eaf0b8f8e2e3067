"""A ruleset that cannot rule on a situation of the other bidding family says why in Arabic, as the English does
(«ما بتنطبق: ...» with the reason, not one sentence for every case)."""

from __future__ import annotations

import json

import pytest

from tarneeb.cli import main
from tarneeb.i18n.tables import i18n

CASES = [  # (the flags, a word of the reason the Arabic must give)
    (["score", "--contract", "1:8", "--tricks", "5,1,5,2", "--ruleset", "bsfyi-41"], "مزايدة"),
    (["winner", "--scores", "20,35", "--ruleset", "bsfyi-41"], "لكل فريق"),
    (["redeal", "--dealer", "1", "--bids", "4,3,3,3", "--ruleset", "classic"], "طلب كل لاعب"),
    (["winner", "--scores", "41,50,10,1", "--ruleset", "classic"], "الشريكين"),
]


@pytest.mark.parametrize(("args", "word"), CASES, ids=lambda a: " ".join(a) if isinstance(a, list) else a)
def test_not_applicable_says_why_in_arabic(args: list[str], word: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", *args, "--lang", "ar", "--json"]) == 0
    (r,) = json.loads(capsys.readouterr().out)["rulings"]
    assert r["status"] == "not-applicable"
    generic = i18n("ar")["ruling"]["status"]["not-applicable"]
    assert r["ruling_ar"] != generic and r["ruling_ar"].startswith("ما بتنطبق: "), r["ruling_ar"]
    assert word in r["ruling_ar"], (r["ruling"], r["ruling_ar"])


def test_every_arabic_reason_answers_an_english_one() -> None:
    """Each Arabic reason is keyed by an English ruling the referee writes (a reworded English one would
    otherwise fall back to the generic sentence unnoticed)."""
    import inspect

    from tarneeb.ruling import facts

    source = " ".join(inspect.getsource(facts).split())
    for en in i18n("ar")["ruling"]["not-applicable"]:
        reason = en.removeprefix("Not applicable: ").removesuffix(".")
        assert all(part.strip() in source.replace('" "', "") for part in reason.split(";")), en
