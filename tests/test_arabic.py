"""Arabic as a first language: every text present, the vocabulary of spec/i18n/terms.toml kept,
and every generated Arabic line laid out right-to-left.

The right-to-left check follows the Unicode bidirectional algorithm's rule P2: a line's direction
is that of its first strong character, skipping isolated runs (LRI ... PDI). A line with no strong
character (a rule of dashes, a Markdown table separator) has no direction of its own.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tarneeb.cli import main
from tarneeb.cli.show import show_data, show_lines_rtl
from tarneeb.core.ambiguity import ambiguities
from tarneeb.core.sources import cite, cite_ref
from tarneeb.core.spec import rulesets, spec_dir
from tarneeb.docgen import rulebook as docgen
from tarneeb.docgen import site as docsite
from tarneeb.docgen import site_ar
from tarneeb.errors import SpecError
from tarneeb.i18n import arabic as AR
from tarneeb.i18n import tables

RIDS = list(rulesets())


def _pairs() -> Iterator[tuple[str, str, str]]:
    """(where, English, Arabic) for every translated text of ar.toml."""
    for rs in rulesets().values():
        for cid, c in rs.clauses.items():
            yield f"clause.{rs.id}.{cid}", c.text, tables.clause_text(rs, cid, "ar")
        for o in rs.options:
            yield f"option.{rs.id}.{o.name}", o.meaning, tables.tr("ar", "option", rs.id, o.name)
        yield f"ruleset.{rs.id}.summary", rs.summary, tables.tr("ar", "ruleset", rs.id, "summary")
    for a in ambiguities():
        yield f"ambiguity.{a.id}.question", a.question, tables.tr("ar", "ambiguity", a.id, "question")
        for r, t in a.readings:
            yield f"ambiguity.{a.id}.{r}", t, tables.tr("ar", "ambiguity", a.id, r)


def _all_arabic_strings() -> Iterator[tuple[str, str]]:
    """Every Arabic string we write: ar.toml, ar_pages.toml, ar-ruling.toml (the referee), ar-sheet.toml (the score
    sheet), the example house rulesets, the web referee's own words, the glossary's Arabic meanings."""
    def walk(node: object, where: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, f"{where}[{i}]")
        elif isinstance(node, str) and re.search(r"[\u0600-\u06FF]", node):
            yield where, node

    for name in ("ar.toml", "ar_pages.toml", "ar-ruling.toml", "ar-sheet.toml"):
        with open(spec_dir() / "i18n" / name, "rb") as f:
            yield from walk(tomllib.load(f), name)
    for path in sorted((spec_dir() / "house-rules").glob("*.toml")):
        with open(path, "rb") as f:
            yield from walk(tomllib.load(f), path.name)
    try:
        from tarneeb.serve.strings import STRINGS
    except ImportError:  # the serve extra is not installed
        pass
    else:
        yield from walk(STRINGS["ar"], "serve.strings.ar")
    for i, t in enumerate(docsite.glossary_data()["term"]):
        yield f"glossary.term[{i}].meaning_ar", t["meaning_ar"]
    yield from _arabic_literals()


# modules that write Arabic of their own, in string literals (a record check's details, the card's words' fallback)
ARABIC_MODULES = ("tarneeb/serve/records_words.py", "tarneeb/ruling/arabic.py")


def _arabic_literals() -> Iterator[tuple[str, str]]:
    """Every string literal holding an Arabic letter in :data:`ARABIC_MODULES` (the parts of an f-string too)."""
    import ast

    import tarneeb

    root = Path(tarneeb.__file__).parent.parent
    for name in ARABIC_MODULES:
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"[\u0600-\u06FF]",
                                                                                              node.value):
                yield f"{name}:{node.lineno}", node.value


# ---------------------------------------------------------------- 1. nothing missing

def test_every_arabic_output_has_its_texts() -> None:
    """Each Arabic output is built; a missing text (clause, option value, heading, page text) raises."""
    assert docgen.missing_texts("ar") == []
    for rid in RIDS:
        d = docgen.ruleset_doc(rid, "ar")
        for fmt in docgen.FORMATS:
            docgen.render(d, fmt)
        show_lines_rtl(show_data(rid, "ar"))
    for page in (site_ar.comparison_page(), site_ar.examples_page(), site_ar.disputes_page(),
                 site_ar.glossary_page(docsite.glossary_data())):
        assert page.strip()


def test_every_cited_heading_has_an_arabic_rendering() -> None:
    refs = [(c.doc, c.heading) for rs in rulesets().values() for c in rs.clauses.values()]
    refs += [(o.doc, o.heading) for rs in rulesets().values() for o in rs.options]
    for doc, heading in refs:
        ar = cite(doc, heading, "ar")
        # the heading in Arabic words (the document's own words are the English citation's), no Latin letter
        assert "قسم «" in ar and heading not in ar and not re.search("[A-Za-z]", ar), ar
    for a in ambiguities():
        for s in a.sources:
            assert "قسم «" in cite_ref(s, "ar") and not re.search("[A-Za-z]", cite_ref(s, "ar")), s


@pytest.mark.parametrize(("table", "line_start"), [
    ("ar_pages.toml", "[dispute.void-discard]"),
    ("ar.toml", 'lowest-rank = "أدنى رتبة"'),
    ("ar.toml", '"Scoring a hand" ='),
    ("ar_pages.toml", '"002-egyptian-order" ='),
])
def test_a_missing_arabic_text_is_a_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  table: str, line_start: str) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    path = spec / "i18n" / table
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(n for n, ln in enumerate(lines) if ln.startswith(line_start))
    drop = [i] if not line_start.startswith("[") else [i, i + 1, i + 2]
    path.write_text("\n".join(ln for n, ln in enumerate(lines) if n not in drop) + "\n", encoding="utf-8")
    monkeypatch.setenv("TARNEEB_SPEC_DIR", str(spec))
    tables.load_table.cache_clear()
    from tarneeb.core import sources

    sources._translations.cache_clear()
    try:
        with pytest.raises(SpecError):
            test_every_arabic_output_has_its_texts()
    finally:
        tables.load_table.cache_clear()
        sources._translations.cache_clear()


# ---------------------------------------------------------------- 2. one vocabulary, no banned word

def test_no_banned_term_in_any_arabic_text() -> None:
    hits = [f"{where}: {h}" for where, text in _all_arabic_strings() for h in AR.banned_hits(text)]
    assert hits == []


def test_one_word_per_idea() -> None:
    problems = [f"{where}: {p}" for where, en, ar in _pairs() for p in AR.vocabulary_problems(en, ar)]
    assert problems == []


@pytest.mark.parametrize(("text", "term"), [
    ("ومن ليس معه يلعب أي ورقة، ولا يُلزم أبدًا بالتطريب.", "تطريب"),
    ("فلهم أن يطرّبوا أو يرموا أي ورقة", "طرّب"),
    ("قاعدة منزلية (الخيار rising_min_bid)", "منزلية"),
    ("آخذ اللمّة يبدأ اللمّة التي تليها.", "آخذ اللمّة"),
    ("الطرنيب هو النقش الآخر من لونها", "لونها"),
    ("المقعدان 0 و2 في مواجهة المقعدين 1 و3", "في مواجهة"),
    ("وبلا طرنيب تفوز أعلى ورقة", "بلا طرنيب"),
    # the web referee's words before its second reading
    ("تناقض: الموقف يخالف هذه المجموعة في الطرنيب.", "مجموع"),
    ("اسأل عن مجموعات قوانين أقل", "مجموع"),
    ("نداءات المزاد (رقم، أو pass لـ«باص»)", "مزاد"),
    ("النداء 2 من نداءات المزاد", "نداء"),
    ("طرنيب العقد", "عقد"),
    ("الطرنيب (العقد، أو الموزّع والورقة المكشوفة)", "عقد"),
    ("الورقة التي كشفها الموزِّع", "وز"),
    ("من يوزِّع التالي؟", "وز"),
    ("من رصيد 31 أدنى طلب 3", "رصيد"),
    ("افتتاح أو لعب في غير الدور", "افتت"),
    ("واللاعب الذي افتتح وورقته", "افتت"),
    ("نقاط الفريق (1 و3) 20", "الفريق"),
    ("الفريق 1 (winner 0)", "الفريق"),
    ("اللاعب المسؤول عنه", "المسؤول"),
    ("الورقة المسؤول عنها", "المسؤول"),
    ("غموض: القراءات تحكم بشكل مختلف", "غموض"),
])
def test_banned_terms_are_caught(text: str, term: str) -> None:
    assert any(term in h for h in AR.banned_hits(text))


@pytest.mark.parametrize("text", ["مجموع نقاط الفريقين متساوٍ", "مزايدة الفرق: الطلب الفائز، أو طلبات المزايدة",
                                  "طرنيب الطلب الفائز", "الورقة التي كشفها الموزّع", "أدنى طلب افتتاحي.",
                                  "البدء باللمّة أو اللعب في غير الدور", "الفريق الأول (1 و3)", "ومعقد", "من نقاط 31"])
def test_the_words_that_replace_them_pass(text: str) -> None:
    assert AR.banned_hits(text) == []


# Words of written Modern Standard Arabic that a player's rule sheet says otherwise (the register notes: short,
# spoken-leaning sentences, the player as subject): relative pronouns (اللي), the conditional and negation particles
# (إذا، ما، مش), obligation (لازم), and the marked passive (بتنلغى، بينوزّع).
_WRITTEN_REGISTER = re.compile(r"(?<![^\s(«])[وف]?(?:الذي|التي|الذين|إن|لم|ليس|يجب|لا يجوز|[يت]\u064f[^\s،؛.:)»]+)"
                               r"(?=[\s،؛.:)»]|$)")


def written_register(text: str) -> list[str]:
    """The words of ``text`` that belong to written Modern Standard Arabic rather than the table's register."""
    return [m.group(0) for m in _WRITTEN_REGISTER.finditer(text)]


def test_every_ruleset_speaks_the_players_register() -> None:
    """Each ruleset's clauses, option meanings and summary, and each ambiguity's question and readings (a ruling
    lists them to the table), are said as a player says them, in every ruleset alike."""
    hits = [f"{where}: {w}" for where, _, ar in _pairs() for w in written_register(ar)]
    assert hits == []


@pytest.mark.parametrize(("text", "words"), [
    ("يوزّع الموزّع الورق كله ورقة ورقة، بادئًا باللاعب الذي على يمينه", ["الذي"]),
    ("إذا كان مجموع الطلبات الأربعة أقل من 11 تُلغى اليد ويُعاد التوزيع.", ["تُلغى", "ويُعاد"]),
    ("على اللاعبين أن يلعبوا من النقش المطلوب إن استطاعوا", ["إن"]),
    ("وإذا لم تُلعب في اللمّة ورقة طرنيب", ["لم", "تُلعب"]),
    ("اللي بياخد اللمّة بيبلّش اللي بعدها؛ وإذا ما انلعب طرنيب باللمّة", []),
])
def test_the_register_check_sees_written_arabic(text: str, words: list[str]) -> None:
    assert written_register(text) == words


def test_game_and_match_are_kept_apart() -> None:
    en = "A bid of 13 made wins the game at once by default."
    assert AR.vocabulary_problems(en, "طلب 13 إذا تحقّق يربح اللعبة فورًا افتراضيًا.") == []
    wrong = AR.vocabulary_problems(en, "طلب 13 إذا تحقّق يربح المباراة فورًا افتراضيًا.")
    assert any("game" in p for p in wrong) and any("match" in p for p in wrong)
    assert AR.vocabulary_problems("No player may pass.", "لا يجوز لأي لاعب أن يمرّر.")


# ---------------------------------------------------------------- 3. right-to-left layout

def _bad_lines(text: str, fmt: str) -> list[str]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or re.fullmatch(r"\s*</?div[^>]*>\s*", line) or re.fullmatch(r"[|\-\s]+", line):
            continue
        if fmt == "md":  # a raw HTML line (the folded technical block) is laid out by its text, not its tags
            line = re.sub(r"<[^>]+>", "", re.sub(r"^\s*(#+ |- |\| )", "", line))
        direction = AR.paragraph_direction(line)
        if direction == "L":
            out.append(f"{n}: renders left-to-right: {line!r}")
        elif direction is None and any(AR.paragraph_direction(ch) for ch in line):
            # only isolated left-to-right text (an id on its own line): a viewer's default direction decides
            out.append(f"{n}: no right-to-left mark: {line!r}")
        if AR.unclosed_isolates(line):
            out.append(f"{n}: isolate not closed on its line: {line!r}")
        if AR.latin_punct_outside_runs(line):
            out.append(f"{n}: Latin punctuation in Arabic: {line!r}")
    return out


@pytest.mark.parametrize("rid", RIDS)
@pytest.mark.parametrize("fmt", ["txt", "md"])
def test_generated_arabic_lines_render_right_to_left(rid: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", rid, "--lang", "ar", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert _bad_lines(out, fmt) == []
    if fmt == "md":
        assert out.startswith('<div dir="rtl" lang="ar">\n\n') and out.rstrip().endswith("</div>")
    # the ids on one technical line (txt: in a first-strong isolate; md, rst, html: a folded <details> block with
    # each part in a <bdi>), never in the Arabic lines the players read (anchors aside)
    tech = [ln for ln in out.splitlines() if AR.FSI in ln or "tarneeb-technical" in ln]
    assert len(tech) == 1, tech
    rest = re.sub(r"rule-ar-\S+", "", "\n".join(ln for ln in out.splitlines() if ln not in tech))
    for cid in rulesets()[rid].clauses:
        assert cid in tech[0] and not re.search(rf"(?<![\w.-]){re.escape(cid)}(?![\w-])", rest), cid
    if fmt == "txt":
        assert tech[0].count(AR.FSI) == 1 and tech[0].endswith(AR.PDI), tech
        assert not re.search("[A-Za-z]", rest), [ln for ln in rest.splitlines() if re.search("[A-Za-z]", ln)]


@pytest.mark.parametrize("rid", RIDS)
def test_show_in_arabic_renders_right_to_left(rid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", rid, "--lang", "ar"]) == 0
    out = capsys.readouterr().out
    assert _bad_lines(out, "txt") == []
    rs = rulesets()[rid]
    plain = re.sub(r"\s+", " ", re.sub("[\u200f\u2066-\u2069]", "", out))
    for cid in rs.clauses:
        assert " ".join(tables.clause_text(rs, cid, "ar").split()[:4]) in plain, cid


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_text_output_never_splits_an_id_at_a_hyphen(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    ids = {a.id for a in ambiguities()} | {c for rs in rulesets().values() for c in rs.clauses}
    hyphenated = {i for i in ids if "-" in i}
    for rid in RIDS:
        assert main(["rules", rid, "--lang", lang]) == 0
        lines = capsys.readouterr().out.splitlines()
        for a, b in zip(lines, lines[1:], strict=False):
            tail = re.search(r"([A-Za-z0-9.]+-)\W*$", a)
            head = re.match(r"[\s\u200f\u2066]*([A-Za-z0-9][A-Za-z0-9.\-]*)", b)
            if tail and head:
                assert tail.group(1) + head.group(1) not in hyphenated, (a, b)
    # and at a narrow width too, through the wrapper itself
    text = "(انظر الالتباس classic-deal-order) " * 6
    for width in range(20, 60):
        for ln in docgen._wrap_at(text, "", width, keep_runs=True):
            assert not ln.rstrip().endswith(("classic-", "classic-deal-")), (width, ln)


def test_the_direction_check_sees_what_a_viewer_sees() -> None:
    assert AR.paragraph_direction("[play.follow] من معه ورقة") == "L"
    assert AR.paragraph_direction(AR.RLM + "[play.follow] من معه ورقة") == "R"
    assert AR.paragraph_direction(f"{AR.LRI}play.follow{AR.PDI} من معه ورقة") == "R"
    assert AR.paragraph_direction("-----") is None
    assert AR.unclosed_isolates(f"{AR.LRI}What you")
    assert AR.latin_punct_outside_runs("الطلب من 2 إلى 13; قيمة الطلب") == [";"]
    assert AR.latin_punct_outside_runs(f"{AR.LRI}How to Play Tarneeb: Rules, Bidding{AR.PDI}") == []
    assert AR.arabic_punct("الطلب من 2 إلى 13; قيمة الطلب, رقمه?") == "الطلب من 2 إلى 13؛ قيمة الطلب، رقمه؟"
    assert AR.isolate("القاعدة bid.total، و-5") == f"القاعدة {AR.LRI}bid.total{AR.PDI}، و{AR.LRI}-5{AR.PDI}"


def test_players_are_counted_from_one() -> None:
    assert [AR.player_name(s) for s in range(4)] == ["اللاعب 1", "اللاعب 2", "اللاعب 3", "اللاعب 4"]
    assert "اللاعب 1 هو المقعد 0" in AR.seat_convention("ar")
    for rid in RIDS:
        text = tables.clause_text(rulesets()[rid], "seats.partners", "ar")
        assert re.search("اللاعب(?:ان|ين) 1 و3", text) and "0" not in text, text  # written or spoken dual


def test_glossary_has_the_regional_words() -> None:
    raw = docsite.glossary_data()
    by_word = {t["arabic"]: t.get("variants", {}) for t in raw["term"]}
    assert "أكلة" in by_word["لمّة"].get("gulf", "")
    assert by_word["سباتي"].get("gulf") == "سنك"
    assert by_word["طرنيب"].get("gulf") == "حكم"
    en = docsite.glossary_page()
    ar = site_ar.glossary_page(raw)
    for region in raw["regions"]:
        assert raw["region_names"][region]["en"] in en and raw["region_names"][region]["ar"] in ar
    assert "سنك" in en and "سنك" in ar


def test_arabic_ruling_cites_in_arabic(capsys: pytest.CaptureFixture[str]) -> None:
    """``ruling --lang ar`` names each deciding clause's section in Arabic, with the document's heading beside it."""
    from tarneeb.cli import main

    assert main(["ruling", "winner", "--scores", "41,50,10,1", "--lang", "ar", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "قسم «" in out and 'section "' not in out
    assert "(of " not in out


def test_arabic_disputes_page_words_rulings_as_the_referee_does() -> None:
    """The Arabic disputes page says each ruling in the referee's own Arabic (tarneeb.ruling.arabic), not a wording
    of its own: one source for how a ruling reads in Arabic."""
    import re as _re

    from tarneeb.ruling import resolve_file
    from tarneeb.ruling.arabic import sentence

    page = site_ar.disputes_page()
    rep = resolve_file(spec_dir() / "disputes" / "trick-winner-trump.toml")
    said = [_re.sub("[\u2066-\u2069\u200f]", "", sentence(rep.kind, x, rep.asked)) for x in rep.rulings]
    for s in said:
        plain = _re.split(r"[A-Za-z0-9]{2}", s)[0]  # Latin runs (card codes, field names) are marked up on the page
        assert len(plain) > 10 and plain in page, plain


def test_command_line_option_stays_whole_in_an_arabic_line() -> None:
    """``--ruleset FILE`` is one left-to-right run: its dashes must not be left outside, on the Arabic side."""
    text = "والأوامر تأخذ --ruleset FILE، والرقم -7 وكلمة non-trump"
    assert [text[a:b] for a, b in AR.ltr_runs(text)] == ["--ruleset FILE", "-7", "non-trump"]


# ---------------------------------------------------------------- 5. the Arabic verdict says what the English says

_ISOLATES = re.compile("[\u2066-\u2069\u200f]")
_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")
_SUITS_AR = {"clubs": "سباتي", "diamonds": "ديناري", "hearts": "كبّة", "spades": "بستوني"}


def english_facts(en: str, labels: list[str]) -> list[str]:
    """The numbers and card codes an English verdict states (players are counted 1..4 and teams 1..2 in both
    languages; ``team 1`` = players 1 and 3, named by the Arabic as its players' numbers or its own name); ruleset
    labels left out."""
    text = en
    for lab in sorted(labels, key=len, reverse=True):
        text = text.replace(lab, " ")
    want: list[str] = [c.replace("T", "10", 1) if c.startswith("T") else c for c in _CARD.findall(text)]
    text = _CARD.sub(" ", text)
    text = re.sub(r"\b[Tt]eam (\d) \(player \d+ and player \d+\)", lambda m: f"team {m[1]}", text)

    def team(m: re.Match[str]) -> str:  # team 1 = players 1 and 3, team 2 = players 2 and 4
        want.extend([str(int(m[1])), str(int(m[1]) + 2)])
        return " "

    text = re.sub(r"\b[Tt]eam (\d)\b", team, text)
    text = re.sub(r"\bplayer \d (?=[+-]?\d)", " ", text)  # "scores: player 1 14, ...": the label of a value by player
    want += re.findall(r"[+-]?\d+", text)
    return want


def _card_words() -> dict[str, str]:
    """Each card as the Arabic names it («آس البستوني», spec/i18n/terms.toml [cards]) -> its code."""
    cards = AR.terms()["cards"]
    codes = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    return {f"{rank} {suit}": f"{codes[i]}{letter}" for i, rank in enumerate(cards["ranks"])
            for letter, suit in cards["suits"].items()}


def _codes_for_card_words(text: str) -> str:
    for words, code in sorted(_card_words().items(), key=lambda kv: -len(kv[0])):
        text = text.replace(words, f" {code} ")
    return text


def arabic_facts(ar: str) -> list[str]:
    """The numbers and cards an Arabic verdict states; a card named in words («سبعة الديناري») counts as its code."""
    plain = _codes_for_card_words(_ISOLATES.sub("", ar))
    return _CARD.findall(plain) + re.findall(r"[+-]?\d+", _CARD.sub(" ", plain))


# (English reason, the Arabic reason it must come with), per question kind: each ruled verdict matches at least one
# English pattern of its kind, and for each it matches, the Arabic says the reason.
_LEADS = [(r"won the trick and leads the next", "فهو اللي بيبلّش اللي بعدها"), (r"leads trick \d+", "اللمّة رقم"),
          (r"the first bidder, after the dealer", "أول واحد بيطلب بعد الموزّع"),
          (r"the contract holder", "اللي أخد الطلب"), (r"won the last trick", "أخد آخر لمّة")]
REASONS: dict[str, list[tuple[str, str]]] = {
    "winner": [(r"bid \d+ and made it", "وجاب طلبه:"),
               (r"Both teams qualify;", "الفريقين طلعوا؛"),
               (r"higher top score", "أعلى نتيجة فيه أكبر"),
               (r"higher combined score", "مجموعه أعلى"),
               (r"equal combined scores", "ومجموع الفريقين متساوي"),
               (r"equal top scores", "وأعلى نتيجة بالفريقين متساوية"),
               (r"qualifies and wins", "واحد من الشريكين وصل"),
               (r"none has one partner at \d+ or more with the other above zero",
                "ما في فريق فيه شريك وصل"),
               (r"No team has reached", "ما في فريق وصل"), (r"reached \d+ and wins", "وربح اللعبة"),
               (r"Both teams reached", "الفريقين وصلوا"), (r"took every trick", "وأخد كل اللمّات"),
               (r"another hand is played", "بتنلعب يد تانية")],
    "redeal": [(r"The bids total \d+, below", "مجموع الطلبات"), (r", below \d+", "أقل من"),
               (r"at least \d+", "أو أكتر"), (r"the next dealer", "الموزّع اللي بعده"),
               (r"the same dealer", "نفس الموزّع"), (r"All four passed", "الأربعة قالوا باص"),
               (r"A contract was reached", "في حدا أخد الطلب")],
    "bid-legal": [(r"not legal now: it is player \d+'s turn", "الدور بالطلب للاعب"),
                  (r"order \d", "ترتيب الطلب"), (r"the lowest bid is", "فأقل طلب إله"),
                  (r"may bid \d+ or more", "أو أكتر"), (r"in turn \(the dealer is", "وهو بدوره"),
                  (r"bids run from", "الطلب من"), (r"is not allowed", "ما في طلب"),
                  (r"must bid the minimum", "لازم الموزّع يطلب الحد الأدنى"), (r"^A pass", "باص"),
                  (r"by player \d+ is legal\.$", "مسموح."),
                  (r"after \d+ calls? from the player after the dealer", "انقال لهلّق"),
                  (r"must be higher than the top bid", "أعلى من أعلى طلب")],
    "card-legal": [(r"holds no \w+, so may play any card", "ما معه"),
                   (r"trump or not", "طرنيب أو غيره"),
                   (r"may not lead", "يبلّش اللمّة"), (r"may not play now", "ما بيقدر يلعب"),
                   (r"the first bidder, after the dealer", "أول واحد بيطلب بعد الموزّع"),
                   (r"the contract holder", "اللي أخد الطلب"),
                   (r"a leader may play any card", "واللي بيبلّش بيلعب شو ما بدّه"),
                   (r"void in the led suit, holds a trump and must trump", "ومعه طرنيب، فلازم يقطع بطرنيب"),
                   (r"follows the led suit", "من النقش المطلوب"),
                   (r"holds the led suit and must follow", "ولازم يلعب منه")],
    "trick-winner": [(r"the highest trump", "أعلى طرنيب"),
                     (r"the highest (clubs?|diamonds?|hearts?|spades?)\b", "أعلى ورقة من النقش المطلوب")],
    "trump": [(r"the dealer's turned card is", "الورقة اللي كشفها الموزّع"),
              (r"whatever card is turned", "شو ما كانت الورقة المكشوفة"), (r"as stated", "متل ما انقال"),
              (r"lets the contract name it", "بيسمّي الطرنيب"),
              (r"that agrees with", "ماشي مع هالقوانين"),
              (r"the winner of the bidding names it", "اللي بياخد الطلب بيسمّيه"),
              (r"the turned card means nothing", "الورقة المكشوفة ما إلها معنى")],
    "next-dealer": [(r"After \d+ deal", "بعد التوزيعات المذكورة"), (r"The hand was played", "اليد انلعبت"),
                    (r"the deal passes to", "التوزيع بيروح"), (r"The hand was cancelled", "اليد انلغت"),
                    (r"the next dealer", "الموزّع اللي بعده"), (r"the same dealer", "نفس الموزّع")],
    "who-leads": _LEADS,
    "whose-turn": [(r"bids? made", "انطلب لهلّق"), (r"bids last", "بيطلب آخر واحد"),
                   (r"calls? made", "انقال لهلّق"), (r"All passed", "الكل قالوا باص"),
                   (r"plays next: card \d+ of the trick led by player", "بيلعب الورقة رقم"),
                   (r"counter-clockwise", "عكس عقارب الساعة"),
                   (r"(?<!counter-)clockwise", "مع عقارب الساعة"), *_LEADS],
    "score": [(r"bid \d+, took \d+", "وأخد"), (r"Contract \d+ by player", "أخد الطلب بـ"),
              (r"made, [+-]", "جاب طلبه"), (r"failed, ", "ما جاب طلبه"), (r"from -?\d+ to", "، من ")],
    "irregularity": [(r"revoked in trick", "غلط باللمّة"),
                     (r"silent on what happens next", "القوانين ما بتقول شو بيصير بعدها")],
}


def verdict_problems(kind: str, rulings: list[dict[str, Any]]) -> list[str]:
    """What an Arabic verdict (``ruling_ar``) leaves out of its English one (``ruling``): a number, a card, a suit,
    the reason; or an action code (``bid:6``) where a player reads a number."""
    labels = list(RIDS) + [r["label"] for r in rulings]
    out = []
    for r in rulings:
        if r["status"] != "ruled":
            continue
        en, ar = r["ruling"], r["ruling_ar"]
        missing = Counter(english_facts(en, labels)) - Counter(arabic_facts(ar))
        if missing:
            out.append(f"{r['label']}: {sorted(missing.elements())} missing from {ar!r} (English {en!r})")
        for suit, word in _SUITS_AR.items():
            if re.search(rf"\b{suit}\b|\bhighest {suit[:-1]}\b", en) and word not in ar:
                out.append(f"{r['label']}: {suit} ({word}) missing from {ar!r}")
        matched = [(pat, phrase) for pat, phrase in REASONS[kind] if re.search(pat, en)]
        if not matched:
            out.append(f"{r['label']}: no reason pattern of {kind} matches {en!r}")
        out += [f"{r['label']}: the reason {pat!r} ({phrase!r}) missing from {ar!r}" for pat, phrase in matched
                if phrase not in _ISOLATES.sub("", ar)]
        if "bid:" in ar:
            out.append(f"{r['label']}: an action code in {ar!r}")
    return out


DISPUTE_FILES = sorted((spec_dir() / "disputes").glob("*.toml"))


@pytest.mark.parametrize("path", DISPUTE_FILES, ids=lambda p: p.stem)
def test_arabic_verdict_states_the_english_facts_and_reason(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """For each dispute, every ruleset's Arabic verdict carries every number (scores, bids, totals, thresholds,
    trick counts; seats as players 1..4), card and suit the English verdict states, and its reason."""
    import json

    assert main(["ruling", str(path), "--lang", "ar", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert verdict_problems(out["kind"], out["rulings"]) == []


QUICK = [
    ["who-leads", "--dealer", "2", "--ruleset", "bsfyi-41"],
    ["who-leads", "--trick", "1:2H,KH,3H,4S", "--trump", "S", "--ruleset", "classic"],
    ["whose-turn", "--trick", "3:2H,KH", "--trump", "S", "--ruleset", "all"],
    ["whose-turn", "--dealer", "4", "--auction", "pass,8", "--ruleset", "classic"],
    ["who-leads", "--dealer", "1", "--auction", "7,8,pass,8", "--ruleset", "classic"],
    ["whose-turn", "--dealer", "1", "--auction", "7,8,pass,8", "--ruleset", "classic"],
    ["card-legal", "--trick", "1:2H", "--seat", "2", "--card", "5H", "--trump", "S", "--ruleset", "classic"],
    ["card-legal", "--trick", "1:2H", "--seat", "2", "--card", "5C", "--hand-cards", "2:5C,9H", "--trump", "S",
     "--ruleset", "classic"],
    ["card-legal", "--trick", "1:2H", "--seat", "3", "--card", "5C", "--trump", "S", "--ruleset", "classic"],
    ["trick-winner", "--trick", "1:2H,KH,3H,4C", "--trump", "S", "--ruleset", "classic"],
    ["winner", "--scores", "41,50,10,1", "--ruleset", "all"],
    ["winner", "--scores", "20,35", "--ruleset", "classic"],
    ["winner", "--scores", "31,20", "--contract", "1:8", "--tricks", "5,1,5,2", "--ruleset", "classic"],
    ["redeal", "--dealer", "1", "--bids", "4,3,3,3", "--ruleset", "bsfyi-41"],
    ["redeal", "--dealer", "1", "--auction", "pass,8,pass,pass", "--ruleset", "classic"],
    ["next-dealer", "--dealer", "3", "--result", "played", "--ruleset", "all"],
    ["next-dealer", "--dealer", "3", "--result", "cancelled", "--ruleset", "all"],
    ["bid-legal", "--dealer", "1", "--auction", "8", "--seat", "4", "--bid", "9", "--ruleset", "classic"],
    ["bid-legal", "--dealer", "1", "--auction", "8", "--bid", "7", "--ruleset", "classic"],
    ["score", "--seat", "2", "--bids=-,4,-,-", "--tricks=-,2,-,-", "--scores=-,12,-,-",
     "--ruleset", "bsfyi-41"],
    ["trump", "--trump", "H", "--ruleset", "bsfyi-41"],
]


@pytest.mark.parametrize("args", QUICK, ids=lambda a: " ".join(a[:3]))
def test_arabic_verdict_states_the_english_facts_beyond_the_disputes(args: list[str],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The same check on situations the disputes do not reach: every kind, both bidding families."""
    import json

    assert main(["ruling", *args, "--lang", "ar", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any(r["status"] == "ruled" for r in out["rulings"]), out["rulings"]
    assert verdict_problems(out["kind"], out["rulings"]) == []


@pytest.mark.parametrize("rid", ["bsfyi-41", "eram-41", "classic", "tarneeb-400", "card-kings-41"])
def test_arabic_markdown_tables_stay_tables(rid: str) -> None:
    # a right-to-left mark before the separator row (|---|) made Markdown show the option table as text
    from tarneeb.docgen.rulebook import render, ruleset_doc

    text = render(ruleset_doc(rid, "ar"), "md")
    rows = [ln for ln in text.splitlines() if ln.lstrip("\u200f").startswith("|")]
    seps = [ln for ln in rows if set(ln) <= set("|-: ")]
    assert all(not ln.startswith("\u200f|") or not set(ln[1:]) <= set("|-: ") for ln in rows), rows[:4]
    assert len(seps) >= (1 if any("|" in ln for ln in rows) else 0)


def test_disagreeing_arabic_rulings_are_one_sentence() -> None:
    # they were joined with " | ", a table's bar in the middle of prose
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "tarneeb.cli", "ruling", str(spec_dir() / "disputes" / "bid-six.toml"),
                          "--lang", "ar"], capture_output=True, text=True, check=True).stdout
    line = next(ln for ln in out.splitlines() if "القوانين مختلفة" in ln)
    assert " | " not in line and "؛ و" in line, line


# ---------------------------------------------------------------- 6. the arithmetic in Arabic

# situations beyond the disputes and QUICK whose arithmetic takes the shapes those do not reach
MATH_MORE = [
    ["next-dealer", "--dealer", "3", "--deals", "played,cancelled", "--ruleset", "all"],
    ["irregularity", "--irregularity", "lead-out-of-turn", "--trick", "3:2H", "--seat", "1", "--trump", "S",
     "--ruleset", "classic"],
    ["irregularity", "--irregularity", "lead-out-of-turn", "--history", "1:2H,KH,3H,4S", "--trump", "S", "--seat",
     "1", "--card", "5D", "--ruleset", "classic"],
    ["winner", "--scores", "45,20,10,5", "--ruleset", "card-kings-41"],
]
_CARD_CODE = re.compile(r"(?<![\w@.])(?:10|[2-9TJQKA])[CDHS](?![\w@])")


def _math_of(args: list[str], capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    """(shape, English line, Arabic) of each ruling's arithmetic: the shape as the Arabic renderer is handed it."""
    import json

    from tarneeb.ruling import arabic as ruling_ar

    shapes: dict[str, str] = {}  # the English line of each arithmetic rendered (a reading's too) -> its shape
    render = ruling_ar.math_ar

    def spy(m: Any) -> str:
        shapes[str(m)] = m.shape
        return render(m)

    monkeypatch.setattr(ruling_ar, "math_ar", spy)
    assert main(["ruling", *args, "--lang", "ar", "--json"]) in (0, 1)
    monkeypatch.setattr(ruling_ar, "math_ar", render)
    out = json.loads(capsys.readouterr().out)
    return [(shapes.get(r["math"], ""), r["math"], r["math_ar"]) for r in out["rulings"] if r["math"]]


def test_every_arithmetic_shape_reads_in_arabic(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ruling's arithmetic (tarneeb.ruling.arithmetic.Math, made by the deciding modules) has an Arabic
    rendering (``math_ar``), for every shape the referee makes: the same numbers and cards (in words) as the English
    line, no Latin letter left; and every shape is met here (a new shape needs its Arabic and a case here)."""
    from tarneeb.ruling.arabic import MATH_SHAPES

    seen: set[str] = set()
    cases = [[str(p)] for p in DISPUTE_FILES] + QUICK + MATH_MORE
    for args in cases:
        for shape, en, ar in _math_of(args, capsys, monkeypatch):
            assert shape in MATH_SHAPES and ar, f"{args}: no Arabic for the arithmetic {en!r}"
            seen.add(shape)
            plain = _codes_for_card_words(_ISOLATES.sub("", ar))  # cards in words, counted as their codes
            assert not re.search(r"[A-Za-z]", _ISOLATES.sub("", ar)), (en, ar)
            numbers = Counter(re.findall(r"\d+", _CARD_CODE.sub("", en)))
            assert not numbers - Counter(re.findall(r"\d+", _CARD_CODE.sub("", plain))), (en, ar)
            assert [c.replace("T", "10", 1) if c.startswith("T") else c for c in _CARD_CODE.findall(en)] \
                == _CARD_CODE.findall(plain), (en, ar)
    assert seen == set(MATH_SHAPES), sorted(set(MATH_SHAPES) - seen)


def test_an_arithmetic_is_of_a_known_shape_or_none() -> None:
    from tarneeb.ruling.arabic import math_ar, math_shape
    from tarneeb.ruling.arithmetic import NONE, math

    with pytest.raises(ValueError, match="unknown shape"):
        math("a new shape", a=3, b=2)
    assert math_shape(NONE) is None and math_ar(NONE) == "" and str(NONE) == ""


# ---------------------------------------------------------------- 7. the report's arithmetic; a missing fact; several

@pytest.mark.parametrize("explain", [False, True], ids=["short", "explain"])
def test_the_arabic_report_gives_the_arithmetic_as_the_page_does(explain: bool,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``tarneeb ruling FILE --lang ar`` gives each ruling's arithmetic in Arabic (``math_ar``, as the web page
    does): a worded one ("player 4 != player 3", "took 6 >= bid 5: +10") too, not only a bare formula, and in the
    short report (one line a ruleset) as the English one gives it."""
    import json

    for path in DISPUTE_FILES:
        assert main(["ruling", str(path), "--lang", "ar", "--json"]) in (0, 1)
        rulings = json.loads(capsys.readouterr().out)["rulings"]
        assert main(["ruling", str(path), "--lang", "ar", *(["--explain"] if explain else [])]) in (0, 1)
        text = capsys.readouterr().out
        for r in rulings:
            if r["status"] == "ruled" and r["math"]:
                assert r["math_ar"] and r["math_ar"] in text, (path.stem, r["label"], r["math"])


def test_an_undecided_ruling_words_the_missing_fact_in_arabic(capsys: pytest.CaptureFixture[str]) -> None:
    """A ruleset that cannot rule for want of a fact says which in Arabic words (those of the web form's field), not
    by the field's id ("contract.trump")."""
    import json

    assert main(["ruling", "trick-winner", "--trick", "2:KD,3H,4D,5D", "--ruleset", "all", "--lang", "ar",
                 "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    undecided = {r["label"]: r["ruling_ar"] for r in out["rulings"] if r["status"] == "undecided"}
    assert sorted(undecided) == ["card-kings-41", "classic", "eram-41"], undecided
    assert "طرنيب الطلب الفائز" in undecided["classic"]
    assert "الورقة التي كشفها الموزّع" in undecided["card-kings-41"]
    for said in undecided.values():
        assert not re.search(r"[A-Za-z]", said), said


def test_every_fact_the_referee_may_lack_has_arabic_words() -> None:
    """Each field the referee names when a fact is missing (``Missing(...)`` in tarneeb.ruling) reads in Arabic."""
    import tarneeb.ruling as ruling
    from tarneeb.ruling.arabic import fact

    folder = Path(ruling.__file__).parent
    fields = {f for name in ("decision.py", "verdict.py", "facts.py", "tricks.py", "bidding.py", "scoring.py", "turns.py")
              for f in re.findall(r'Missing\(f?"([^"]+)"', (folder / name).read_text(encoding="utf-8"))}
    assert {"contract.trump", "revealed", "dealer", "hands.{seat}"} <= fields, fields
    for f in sorted(fields):
        field = f.replace("{seat}", "2").replace("{d.index}", "1").replace("{e.field}", "hand")
        assert not re.search(r"[A-Za-z]", fact(field)), (f, fact(field))
    assert fact("deals[1].hand") == "هل لُعبت اليد أم أُلغيت في التوزيع 2" and fact("hands.2") == "أوراق اللاعب 3"
    assert fact("no.such") == "\u2066no.such\u2069"  # a field it does not know: its id, isolated


def test_the_rules_are_one_word_for_one_ruleset_and_for_several() -> None:
    """A sentence about the rules says «هالقوانين», as players say it, in one ruleset's line and in a headline said
    of several that rule alike: no «هذه المجموعة» (this set) on one line and «هذه المجموعات» on the other."""
    from tarneeb.ruling import load_situation, resolve
    from tarneeb.ruling.arabic import headline_ar, report_text_ar, ruleset_ar, several

    assert several("ما في قاعدة بهالقوانين بتحكي عنها.") == "ما في قاعدة بهالقوانين بتحكي عنها."
    rep = resolve(load_situation(spec_dir() / "disputes" / "exposed-card-before-bidding.toml"))
    head = headline_ar(rep)
    assert "هالقوانين" in head and "المجموعة" not in head and "المجموعات" not in head, head
    lines = report_text_ar(rep).splitlines()
    own = [ln for ln in lines if f"{ruleset_ar('classic')}:" in ln]
    assert own and all("هالقوانين" in ln and "المجموعة" not in ln for ln in own), own  # its own line: one ruleset


def test_a_disagreeing_headline_names_each_ruleset_once_in_arabic() -> None:
    """Where the rulesets disagree the Arabic headline names each ruleset once, by its Arabic name: no id, no Latin
    letter (the ids are the technical line's)."""
    from tarneeb.ruling import load_situation, resolve
    from tarneeb.ruling.arabic import headline_ar, ruleset_ar

    rep = resolve(load_situation(spec_dir() / "disputes" / "cancelled-hand-dealer.toml"))
    head = headline_ar(rep)
    assert not re.search("[A-Za-z]", head), head
    for rid in ("bsfyi-41", "card-kings-41", "eram-41", "tarneeb-400"):
        assert head.count(ruleset_ar(rid)) == 1, (rid, head)


# ---------------------------------------------------------------- 8. cards named as players name them

def test_a_card_is_named_in_words() -> None:
    """``card_ar``: the rank and the suit as players say them (the words of terms.toml [cards]), no code (players
    say the card; the code is the technical line's); every card of the pack its own name."""
    from tarneeb.core.cards import card_str
    from tarneeb.ruling.arabic_words import card_ar

    assert card_ar("AS") == "آس البستوني"
    assert card_ar("10H") == "عشرة الكبّة" and card_ar("TH") == "عشرة الكبّة"
    assert card_ar("2C") == "اثنين السباتي" and card_ar("QD") == "بنت الديناري"
    assert card_ar("KS").startswith("شايب ") and card_ar("JC").startswith("ولد ") and card_ar("9D").startswith("تسعة ")
    names = {card_ar(card_str(c)) for c in range(52)}
    assert len(names) == 52
    assert card_ar("ZZ") == "الورقة \u2066ZZ\u2069"  # not a card: its code, still a noun a sentence can take


@pytest.mark.parametrize(("args", "said"), [
    (["trick-winner", "--trick", "1:2H,KH,3H,4C", "--trump", "S", "--ruleset", "classic"],
     ["اللمّة بشايب الكبّة،"]),
    (["card-legal", "--trick", "1:2H", "--seat", "2", "--card", "5C", "--hand-cards", "2:5C,9H", "--trump", "S",
      "--ruleset", "classic"], ["يلعب خمسة السباتي:"]),
    ([str(spec_dir() / "disputes" / "revoke-found-later.toml"), "--ruleset", "classic"],
     ["لعب ثلاثة الكبّة وطلع معه سبعة الديناري. وهاد ممنوع بهالقوانين."]),
    ([str(spec_dir() / "disputes" / "turned-card-trump.toml"), "--ruleset", "eram-41"],
     ["الطرنيب ديناري، لأن الورقة اللي كشفها الموزّع بنت الكبّة."]),
])
def test_the_referee_names_cards_in_words(args: list[str], said: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The Arabic verdict names a card as a player does («بشايب الكبّة»), not by its code («بالورقة KH»);
    a revoke, told with its two cards, is not named a second time."""
    import json

    assert main(["ruling", *args, "--lang", "ar", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    verdicts = [_ISOLATES.sub("", r["ruling_ar"]) for r in out["rulings"] if r["status"] == "ruled"]
    assert verdicts and all(s in v for v in verdicts for s in said), verdicts
    assert not any(re.search(r"[A-Za-z]", v) for v in verdicts), verdicts
    named = tables.i18n("ar")["ruling"]["irregularities"]["revoke"]
    assert not any(named in v for v in verdicts), verdicts


# ---------------------------------------------------------------- 9. every fact of the English, in the Arabic
#
# For every dispute of spec/disputes/ (the referee's report, short and with --explain) and every ruleset's `show` and
# `rules`: the Arabic carries each number the English states (cards counted by their codes), each reading's ruling,
# each deciding clause once, no ruling cut short after a colon, and no Latin letter outside the one technical line.

_TECH = "للمطوّرين:"
_ID_LIKE = re.compile(r"\S*[A-Za-z]\S*")


def _plain_lines(text: str) -> list[str]:
    return [_ISOLATES.sub("", ln.replace("\u2067", "").replace("\u2068", "")) for ln in text.splitlines()]


def _numbers(text: str) -> set[str]:
    """The numbers a text states, ids (eram-41, play.follow) and card codes aside (a card counts as its code)."""
    cards = {c.replace("T", "10", 1) if c.startswith("T") else c for c in _CARD.findall(text)}
    text = _ID_LIKE.sub(" ", _CARD.sub(" ", text))
    return cards | set(re.findall(r"\d+", text))


def arabic_report_problems(en: str, ar: str, rep: Any) -> list[str]:
    """What the Arabic report ``ar`` of ``rep`` leaves out of the English ``en``, or says wrongly."""
    from dataclasses import replace

    from tarneeb.ruling.arabic import sentence

    out: list[str] = []
    lines = _plain_lines(ar)
    tech = [ln for ln in lines if ln.startswith(_TECH)]
    if len(tech) != 1 or lines[-1] != tech[0]:
        out.append(f"not one technical line, last: {tech}")
    body = [ln for ln in lines[1:] if not ln.startswith(_TECH)]  # the title aside (a dispute's title in words)
    text = "\n".join(body)
    out += [f"Latin outside the technical line: {ln!r}" for ln in body if re.search("[A-Za-z]", ln)]
    for i, ln in enumerate(body):  # a colon ends a line only above the list it announces
        if ln.rstrip().endswith(":") and not (i + 1 < len(body) and body[i + 1].startswith("  - ")):
            out.append(f"nothing after the colon: {ln!r}")
    missing = _numbers("\n".join(en.splitlines()[1:])) - _numbers(_codes_for_card_words(text))
    if missing:
        out.append(f"numbers of the English missing from the Arabic: {sorted(missing)}")
    seen_silent: set[str] = set()
    readings = 0
    for x in rep.rulings:
        for a in x.ambiguities:
            if all(r.answer is None and not r.taken for r in a.readings):
                readings += 0 if a.id in seen_silent else len(a.readings)
                seen_silent.add(a.id)
            elif a.changes_ruling:
                readings += len(a.readings)
                for r in a.readings:  # the ruling under each reading, as the English gives it
                    said = sentence(rep.kind, replace(x, answer=r.answer, status="ruled"), rep.asked)
                    if _ISOLATES.sub("", said) not in text:
                        out.append(f"{x.label}: no ruling under the reading {r.id} ({said!r})")
            elif any(r.taken for r in a.readings) and any(r.answer is None for r in a.readings):
                readings += sum(r.answer is None for r in a.readings)
    listed = sum(ln.startswith("  - ") for ln in body)
    if listed != readings:
        out.append(f"{listed} readings listed, the report has {readings}")
    rs_all = rulesets()
    for x in rep.rulings:
        for c in x.clauses[:1] if x.status == "ruled" else []:
            said = tables.clause_text(rs_all[x.ruleset], c.id, "ar") if x.ruleset in rs_all else c.text
            if text.count(said) != 1:
                out.append(f"{x.label}: the deciding clause {c.id} said {text.count(said)} times")
    return out


@pytest.mark.parametrize("explain", [False, True], ids=["short", "explain"])
@pytest.mark.parametrize("path", DISPUTE_FILES, ids=lambda p: p.stem)
def test_the_arabic_report_carries_every_fact_of_the_english(path: Path, explain: bool,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from tarneeb.ruling import load_situation, resolve

    more = ["--explain"] if explain else []
    assert main(["ruling", str(path), *more]) == 0
    en = capsys.readouterr().out
    assert main(["ruling", str(path), "--lang", "ar", *more]) == 0
    ar = capsys.readouterr().out
    assert arabic_report_problems(en, ar, resolve(load_situation(path))) == []


def test_the_arabic_report_check_sees_an_omission(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above on a report that drops the readings' rulings (as defenders-kaboot once printed «الحكم
    بيختلف حسب القراءة:» and nothing after it), a number, or says a clause twice."""
    from tarneeb.ruling import arabic as ruling_ar
    from tarneeb.ruling import load_situation, resolve

    path = spec_dir() / "disputes" / "defenders-kaboot.toml"
    rep = resolve(load_situation(path))
    assert main(["ruling", str(path)]) == 0
    en = capsys.readouterr().out
    good = ruling_ar.report_text_ar(rep)
    assert arabic_report_problems(en, good, rep) == []
    cut = "\n".join(ln for ln in good.splitlines() if not _ISOLATES.sub("", ln).lstrip("\u2067").startswith("  - "))
    assert any("nothing after the colon" in p for p in arabic_report_problems(en, cut, rep))
    assert any("numbers" in p for p in arabic_report_problems(en, good.replace("21", "22"), rep))  # 5 + 16 = 21
    lines = good.splitlines()
    clause = next(ln for ln in lines if "القاعدة اللي بتحسم" in ln)
    assert any("said 2 times" in p for p in arabic_report_problems(en, "\n".join([lines[0], clause, *lines[1:]]), rep))


def show_problems(rid: str, en: dict[str, Any], ar: dict[str, Any], printed: str) -> list[str]:
    """What the Arabic ``show`` of ``rid`` (its data ``ar`` and its printed text) leaves out of the English ``en``."""
    out: list[str] = []
    if [c["id"] for c in ar["clauses"]] != [c["id"] for c in en["clauses"]]:
        out.append("not the same clauses")
    if len(ar["options"]) != len(en["options"]) or len(ar["ambiguities"]) != len(en["ambiguities"]):
        out.append("not the same options or ambiguities")
    pairs = [(c["id"], c["text"], a["text"]) for c, a in zip(en["clauses"], ar["clauses"], strict=False)]
    pairs += [(o["name"], o["meaning"], a["meaning"]) for o, a in zip(en["options"], ar["options"], strict=False)]
    pairs += [("summary", en["summary"], ar["summary"])]
    for e, a in zip(en["ambiguities"], ar["ambiguities"], strict=False):
        pairs.append((e["id"], e["reading_text"], a["reading_text"]))
        if len(a["other_readings"]) != len(e["selectable"]):
            out.append(f"{e['id']}: {len(a['other_readings'])} other readings, the English {len(e['selectable'])}")
    for where, e_text, a_text in pairs:
        missing = _numbers(e_text) - _numbers(a_text)
        if missing:
            out.append(f"{rid} {where}: {sorted(missing)} missing from {a_text!r}")
    lines = _plain_lines(printed)
    tech = [ln for ln in lines if ln.startswith(_TECH)]
    if len(tech) != 1:
        out.append(f"{len(tech)} technical lines")
    out += [f"Latin outside the technical line: {ln!r}" for ln in lines
            if not ln.startswith(_TECH) and re.search("[A-Za-z]", ln)]
    plain = re.sub(r"\s+", " ", "\n".join(ln for ln in lines if not ln.startswith(_TECH)))
    for c in ar["clauses"]:
        if plain.count(" ".join(c["text"].split())) != 1:
            out.append(f"{c['id']}: its statement printed {plain.count(' '.join(c['text'].split()))} times")
    for a in ar["ambiguities"]:
        for r in a["other_readings"]:
            if " ".join(r["text"].split()) not in plain:
                out.append(f"{a['id']}: the reading {r['id']} not printed")
    return out


@pytest.mark.parametrize("rid", RIDS)
def test_arabic_show_and_rules_carry_every_fact_of_the_english(rid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", rid, "--lang", "ar"]) == 0
    printed = capsys.readouterr().out
    assert show_problems(rid, show_data(rid), show_data(rid, "ar"), printed) == []
    assert main(["rules", rid, "--lang", "ar"]) == 0
    lines = _plain_lines(capsys.readouterr().out)
    assert [ln for ln in lines if not ln.startswith(_TECH) and re.search("[A-Za-z]", ln)] == []
    d_en, d_ar = docgen.ruleset_doc(rid), docgen.ruleset_doc(rid, "ar")
    assert d_ar.clause_ids() == d_en.clause_ids() and len(d_ar.ambiguities) == len(d_en.ambiguities)


def test_the_show_check_sees_an_omission(capsys: pytest.CaptureFixture[str]) -> None:
    """The check above on a show that drops an option value's number, a reading, or prints an id."""
    rid = "classic"
    en, ar = show_data(rid), show_data(rid, "ar")
    assert main(["show", rid, "--lang", "ar"]) == 0
    printed = capsys.readouterr().out
    assert show_problems(rid, en, ar, printed) == []
    bad = {**ar, "clauses": [{**c, "text": c["text"].replace("13", "")} if c["id"] == "auction.range" else c
                             for c in ar["clauses"]]}
    assert any("auction.range" in p for p in show_problems(rid, en, bad, printed))
    dropped = {**ar, "ambiguities": [{**a, "other_readings": []} for a in ar["ambiguities"]]}
    assert any("other readings" in p for p in show_problems(rid, en, dropped, printed))
    assert any("Latin" in p for p in show_problems(rid, en, ar, printed.replace("القواعد", "[play.follow] القواعد", 1)))
