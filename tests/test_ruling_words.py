"""The referee's words for players (issue 24, item 4): a contradiction on an Arabic page names the facts in conflict
in Arabic words, not by their ids; a headline where rulesets agree says what they all agree on, not one ruleset's
reason; a disagreement is one sentence."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest

from tarneeb.core.spec import spec_dir
from tarneeb.ruling import rule_dict

# facts that contradict some rulesets and not others (so each is a "contradiction" ruling, not an error), each
# naming a field of a list, a part of a trick or one player's score
CONTRADICTIONS: dict[str, dict[str, Any]] = {
    "an auction call below the minimum": {
        "dealer": 0, "auction": ["7", "pass", "6", "pass"], "question": {"kind": "redeal"}},
    "a score change no hand can make": {
        "dealer": 0, "bids": {"0": 2, "1": 3, "2": 3, "3": 3}, "tricks": {"0": 2, "1": 3, "2": 4, "3": 4},
        "scores": [0, 0, 0, 0], "scores_after": [50, 3, 3, 3], "question": {"kind": "score"}},
    "a finished trick led by the wrong player": {
        "dealer": 0, "revealed": "2C", "question": {"kind": "who-leads"},
        "history": [{"leader": 1, "cards": ["AS", "KS", "QS", "JS"]}, {"leader": 2, "cards": ["AH", "KH", "QH", "JH"]}]},
}


@pytest.mark.parametrize("name", list(CONTRADICTIONS))
def test_an_arabic_contradiction_names_its_facts_in_words(name: str) -> None:
    out = rule_dict({"ruleset": "all", **CONTRADICTIONS[name]}, None, "ar")
    said = {r["label"]: (r["fields"], r["ruling_ar"]) for r in out["rulings"] if r["status"] == "contradiction"}
    assert said, out["rulings"]
    for label, (fields, sentence) in said.items():
        words = re.sub("[\u2066-\u2069]", "", sentence.replace(label, ""))
        assert not re.search(r"[A-Za-z]", words), (label, fields, sentence)
        assert len(fields) == 1 or "، " in sentence, sentence  # every field named


def _dispute(name: str) -> dict[str, Any]:
    with (spec_dir() / "disputes" / f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def test_a_stated_trump_all_agree_on_says_what_they_agree_on() -> None:
    """Card Kings and ERAM agree with the stated diamonds, classic lets its contract name them: the headline says
    trump is diamonds as stated, in both languages, and neither ruleset's reason ("that agrees with this ruleset",
    "the contract names it")."""
    en = rule_dict(_dispute("stated-trump"), None, "en")["headline"]
    assert en.startswith("Trump is diamonds, as stated: all 3 rulesets"), en
    ar = rule_dict(_dispute("stated-trump"), None, "ar")["headline"]
    assert ar.startswith("الطرنيب ديناري متل ما انقال.") and "(3)" in ar, ar
    assert "ماشي مع" not in ar and "بيسمّي" not in ar and "هذه المجموع" not in ar.split(".")[0], ar


def test_an_arabic_disagreement_is_one_sentence() -> None:
    """Each group's verdict runs on to the rulesets that give it («... عند الطرنيب الكلاسيكي»), by their Arabic
    names, no full stop between."""
    from tarneeb.ruling.arabic import ruleset_ar

    ar = rule_dict(_dispute("turned-card-trump"), None, "ar")["headline"]
    assert ar.startswith("القوانين مختلفة:") and ar.count(".") == 1 and ar.endswith("."), ar
    assert f"عند {ruleset_ar('classic')}" in ar and "classic" not in ar, ar


def test_a_list_by_seat_is_named_by_player() -> None:
    from tarneeb.ruling.arabic import fact

    assert fact("scores[1]") == fact("scores.1") == "نقاط اللاعب 2 قبل اليد"
    assert fact("history[1].leader") == "من بدأ اللمّة المنتهية 2"
    assert fact("trick.cards[0]") == "الورقة 1 من اللمّة الجارية"


@pytest.mark.parametrize(("form", "words"), [
    ({"kind": "trick-winner", "trick_leader": "1", "trick_cards": "KD KD 4D 5D"},
     ["الورقة 1 من اللمّة الجارية", "الورقة 2 من اللمّة الجارية"]),
    ({"kind": "score", "score0": "1", "score2": "3"}, ["نقاط اللاعب 2 قبل اليد", "نقاط اللاعب 4 قبل اليد"]),
])
def test_an_arabic_page_names_the_facts_of_an_error_in_arabic(form: dict[str, str], words: list[str]) -> None:
    """Bad input on an Arabic page: which facts to look at, in the form's words, before the referee's English line;
    the English page gives that line alone, and it counts players, not seats."""
    from tests.serve_support import app_client
    from tests.test_serve import error_of

    with app_client() as c:
        ar = error_of(c.post("/ar/ruling", data={"ruleset": "classic", **form}).text)
        en = error_of(c.post("/en/ruling", data={"ruleset": "classic", **form}).text)
    assert ar is not None and en is not None
    assert ar.startswith("لا يمكن استخدام هذا الإدخال: راجِع: " + "، ".join(words)), ar
    assert "راجِع" not in en and not re.search(r"\bseats? \d", en), en
