"""The referee's words for players: a contradiction on an Arabic page names the facts in conflict
in Arabic words, not by their ids; a headline where rulesets agree says what they all agree on, not one ruleset's
reason; a disagreement is one sentence."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest

from tarneeb.core.sources import rule_words
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


_CODE_LIKE = re.compile(r"\[\s*-?\d|>=|<=|!=| < | > | = player|\bleader = |\w+\(player \d\)")


@pytest.mark.parametrize("path", sorted((spec_dir() / "disputes").glob("*.toml")), ids=lambda p: p.stem)
def test_the_english_answer_reads_as_sentences(path: Any) -> None:
    """The referee's English, short and explained, has no list in brackets ("scores [45, 20, 0, 10]") and no
    comparison signs ("45 >= 41 and 0 <= 0", "player 4 != player 3"): the arithmetic is in words, number for
    number; the JSON keeps ``math`` as programs read it, beside ``math_words``."""
    from tarneeb.ruling import load_situation, report_json, report_text, resolve

    rep = resolve(load_situation(path))
    for explain in (False, True):
        text = report_text(rep, explain)
        # clause sources and ruleset options are quoted as they are; the rulings and their arithmetic are checked
        said = [x.text for x in rep.rulings] + [ln for ln in text.splitlines() if "Arithmetic:" in ln]
        if not explain:
            said += [ln.split(")", 1)[-1] for ln in text.splitlines() if ln.startswith("  ") and "(" in ln]
        bad = [s for s in said if _CODE_LIKE.search(s)]
        assert not bad, bad
    for r in report_json(rep)["rulings"]:
        assert bool(r["math"]) == bool(r["math_words"]) and not _CODE_LIKE.search(r["math_words"]), r["math_words"]
        if r["status"] == "ruled" and r["clauses"]:  # its clause named as such, not a bare id heading the line
            assert r["short"][1].startswith(rule_words(r["clauses"][0]["id"]) + ", from "), r["short"]


def test_an_undecided_ruling_names_the_missing_fact_in_words() -> None:
    """"Undecided" says which fact is missing in words, players counted 1 to 4, the field beside them: not
    "hands.2 is not given (... add voids.2)"."""
    from tarneeb.ruling.readings import missing_words

    assert missing_words("hands.2") == "the cards player 3 holds"
    assert missing_words("voids.0") == "the suits player 1 has none of"
    assert missing_words("deals[1].hand") == "what became of the hand of deal 2"
    out = rule_dict({"trick": {"leader": 1, "cards": ["KD", "3H", "4D", "5D"]}, "question": {"kind": "trick-winner"}},
                    "all")
    undecided = {r["label"]: r["ruling"] for r in out["rulings"] if r["status"] == "undecided"}
    assert "for want of the dealer's turned card (revealed)" in undecided["card-kings-41"], undecided
    assert "for want of the contract's trump (contract.trump)" in undecided["classic"], undecided
    assert not any(" is not given" in u for u in undecided.values()), undecided
# ------------------------------------------------------------------ the English report: words, not Python or bare ids

_LIST = re.compile(r"\[-?\d+, |\{'|\['|'\]")  # a Python list of numbers, a dict, a quoted item


def _bare_ids(text: str) -> list[str]:
    """Clause and ambiguity ids shown alone: each must stand in brackets after its name."""
    from tarneeb.core.ambiguity import ambiguities
    from tarneeb.core.spec import rulesets

    ids = {c for rs in rulesets().values() for c in rs.clauses} | {a.id for a in ambiguities()}
    ids = {i for i in ids if "-" in i or "." in i}  # "misdeal" is also the English word
    # "(see ambiguity classic-deal-order)" in a clause's own wording names it by what it is: beside a word
    return sorted({i for i in ids for m in re.finditer(r"(?<![\w.-])(?<!ambiguity )" + re.escape(i) + r"(?![\w-]|\.toml)", text)
                   if text[m.start() - 1:m.start()] != "(" or text[m.end():m.end() + 1] != ")"})


def test_every_dispute_is_reported_in_words_with_ids_beside_their_names() -> None:
    from tarneeb.ruling import load_situation, report_text, resolve

    for p in sorted((spec_dir() / "disputes").glob("*.toml")):
        rep = resolve(load_situation(p))
        for explain in (False, True):
            text = report_text(rep, explain)
            # a reading's id stands before its own words ("replay-hand: The hand is thrown in"): not a bare id
            head = "\n".join(ln for ln in text.splitlines() if not re.match(r"\s+- [a-z0-9-]+( \(taken\))?: ", ln))
            assert not _LIST.search(text), (p.name, _LIST.search(text), text)
            assert not _bare_ids(head), (p.name, _bare_ids(head), text)


def test_the_quick_winner_question_says_the_scores_by_player_and_the_rule_by_name() -> None:
    from tarneeb.ruling import parse_situation, report_text, resolve

    rep = resolve(parse_situation({"title": "t", "ruleset": "card-kings-41", "scores": [41, 50, 10, 1],
                                   "question": {"kind": "winner"}}, "(flags)"))
    text = report_text(rep)
    assert "scores: player 1 41, player 2 50, player 3 10, player 4 1" in text, text
    assert "Tarneeb 41 (Card Kings), ruleset card-kings-41: " in text, text
    assert "the both-qualify tie rule (tie.both-qualify), from Card Kings" in text, text


def test_an_irregularity_names_the_rule_broken_and_what_the_documents_are_silent_on() -> None:
    from tarneeb.ruling import parse_situation, report_text, resolve

    rep = resolve(parse_situation({"title": "t", "ruleset": "all", "question": {"kind": "irregularity",
                                                                                 "irregularity": "revoke"}}, "(flags)"))
    text = report_text(rep)
    assert "breaks the follow-suit rule (play.follow)." in text, text
    assert "silent on what happens after a revoke (revoke-remedy)" in text, text
    assert "[the follow-suit rule (play.follow)]" not in text, text  # said once, not again in brackets


def test_the_json_says_its_numbering() -> None:
    from tarneeb.ruling import parse_situation, report_json, resolve

    out = report_json(resolve(parse_situation({"title": "t", "ruleset": "card-kings-41", "scores": [41, 50, 10, 1],
                                               "question": {"kind": "winner"}}, "(flags)")))
    assert out["numbering"].startswith("seats 0-3") and "teams 0-1" in out["numbering"], out
