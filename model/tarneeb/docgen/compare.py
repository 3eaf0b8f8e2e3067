"""The comparison table: every variation point as a row, every ruleset (at its default options) as a column.

One set of value functions reads the resolved :class:`~tarneeb.core.spec.Rules` and words the value
through a table of phrases per language (:data:`WORDS`), so the English and the Arabic tables cannot
disagree on what a ruleset does: only the phrases differ. Row titles: English in :data:`WORDS`, Arabic
from ``spec/i18n/ar_pages.toml`` (``[compare]``); option values in Arabic from ``spec/i18n/ar.toml``
(``[values]``). A row without a wording in the language asked is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tarneeb.core.cards import SUIT_NAMES
from tarneeb.core.spec import Option, Rules, load_rules, rulesets
from tarneeb.docgen.rulebook import CompareRow, _fmt_value, label, value_text
from tarneeb.errors import SpecError

W = dict[str, Any]

WORDS: dict[str, W] = {
    "en": {
        "sep": ", ", "semi": "; ", "and": ", ", "suits": SUIT_NAMES,
        "individual": "individual bids", "auction": "team auction",
        "ccw": "counter-clockwise (to the right)", "cw": "clockwise", "by-chance": "chosen by chance",
        "trump.fixed": "always {suit}", "trump.same-colour": "other suit of the colour of the dealer's last card",
        "trump.revealed": "suit of the dealer's last card", "trump.contract": "named by the contract holder",
        "trump.egyptian": " (the winning bid's strain)",
        "bids.individual": "{lo}–{hi}, each player alone", "bids.never": ", never {bids}",
        "bids.rising": "; minimum rises: {steps}", "bids.step": "{m} from {t}",
        "bids.auction": "{lo}–13, team auction ({style}; {kind})", "bids.egyptian": "with suit or no trump",
        "bids.number": "number only",
        "values.standard": "contract made: all tricks taken; failed: minus the bid, defenders score their tricks",
        "values.bid-only": "contract made: plus the bid; failed: minus the bid; defenders never score",
        "values.face": "face value (a bid of 5 is worth 5)", "values.entry": "{b}→{v}",
        "redeal.total": "bid total below {n}", "redeal.all-pass": "all four pass",
        "redeal.forced": "never on passes (the dealer must bid)", "redeal.weak": "; a player holds no card above 10",
        "same-dealer": "the same dealer", "next-dealer": "the next dealer",
        "lead.individual": "the player on the dealer's right (first bidder)", "lead.auction": "the contract holder",
        "yes": "yes", "no": "no",
        "scoring.individual": "tricks beyond the bid: nothing; scores kept per player",
        "scoring.auction": "kaboot: {kaboot}; bid of 13: {bid13}; scores kept per team",
        "win.individual": "one partner at or above the target and the other above zero",
        "win.made-bid": "; a made bid of {n} wins at once", "win.auction": "team score at or above the target",
        "win.play-on": "; then play on to a target {n} higher",
        "tie.combined": "higher combined team score; equal: play another hand",
        "tie.top": "higher single top score; equal: play another hand", "tie.bidding-team": "the bidding team wins",
        "timer.none": "none stated", "timer.bid": "bid {n}", "timer.play": "play the weakest legal card ({how})",
        "option": "option {name}: {allowed}",
        "titles": {
            "family": "Bidding family", "direction": "Direction of play", "first-dealer": "First dealer",
            "trump": "Trump", "bid-range": "Bid range", "bid-values": "Bid values", "redeal-threshold": "Redeal when",
            "redeal-dealer": "Dealer after a redeal", "first-lead": "First lead", "must-trump": "Must trump when void",
            "scoring": "Scoring", "target": "Target", "win": "Win condition", "tie": "Both teams qualify",
            "timer": "Turn timer defaults",
        },
    },
    "ar": {
        "sep": "، ", "semi": "؛ ", "and": " و", "suits": ("السباتي", "الديناري", "الكبّة", "البستوني"),
        "individual": "طلبات فردية", "auction": "مزايدة بين الفريقين",
        "ccw": "عكس عقارب الساعة (إلى اليمين)", "cw": "مع عقارب الساعة", "by-chance": "بالقرعة",
        "trump.fixed": "{suit} دائمًا",
        "trump.same-colour": "النقش الآخر من نفس لون آخر ورقة للموزّع (كبّة مع ديناري، بستوني مع سباتي)",
        "trump.revealed": "نقش آخر ورقة للموزّع", "trump.contract": "يسمّيه صاحب الطلب الفائز",
        "trump.egyptian": " (نقش الطلب الفائز)",
        "bids.individual": "من {lo} إلى {hi}، كل لاعب لنفسه", "bids.never": "، ما عدا {bids}",
        "bids.rising": "؛ أدنى طلب يرتفع: {steps}", "bids.step": "{m} ابتداءً من {t} نقطة",
        "bids.auction": "من {lo} إلى 13، مزايدة بين الفريقين ({style}؛ {kind})",
        "bids.egyptian": "الطلب رقم ونقش أو «بلا طرنيب»", "bids.number": "الطلب رقم بلا نقش",
        "values.standard": "إذا جاب الفريق الطالب طلبه كسب كل لمّاته؛ وإلا خسر قيمة طلبه وكسب الفريق المدافع لمّاته",
        "values.bid-only": "إذا جاب الفريق الطالب طلبه كسب قيمة الطلب، وإلا خسرها؛ والفريق المدافع لا يكسب أبدًا",
        "values.face": "قيمة الطلب رقمه (طلب 5 يساوي 5)", "values.entry": "{b} بـ{v}",
        "redeal.total": "مجموع الطلبات أقل من {n}", "redeal.all-pass": "إذا قال الأربعة باص",
        "redeal.forced": "لا تُلغى اليد بالباص (الموزّع مُلزَم بالطلب)",
        "redeal.weak": "؛ أو إذا لم يكن مع أحد اللاعبين ورقة أعلى من العشرة",
        "same-dealer": "الموزّع نفسه", "next-dealer": "الموزّع التالي",
        "lead.individual": "اللاعب الذي على يمين الموزّع (أول من يطلب)", "lead.auction": "صاحب الطلب الفائز",
        "yes": "نعم", "no": "لا",
        "scoring.individual": "اللمّات فوق الطلب لا قيمة لها؛ النتيجة لكل لاعب",
        "scoring.auction": "الكبّوت: {kaboot}؛ طلب 13 المحقَّق: {bid13}؛ النتيجة لكل فريق",
        "win.individual": "أحد الشريكين عند الهدف أو فوقه والآخر فوق الصفر",
        "win.made-bid": "؛ وطلب {n} المحقَّق يربح اللعبة فورًا", "win.auction": "نتيجة الفريق عند الهدف أو فوقه",
        "win.play-on": "؛ ثم مواصلة المباراة حتى هدف أعلى بـ{n}",
        "tie.combined": "المجموع الأعلى للفريق؛ وعند التساوي تُلعب يد أخرى",
        "tie.top": "أعلى نتيجة فردية؛ وعند التساوي تُلعب يد أخرى", "tie.bidding-team": "يربح الفريق الطالب",
        "timer.none": "لا مؤقّت في الوثيقة", "timer.bid": "يطلب {n}", "timer.play": "يلعب أضعف ورقة مسموحة ({how})",
        "option": "الخيار {name}: {allowed}",
        "titles": None,  # from spec/i18n/ar_pages.toml [compare]
    },
}


def _value(v: object, lang: str) -> str:
    return str(v) if lang == "en" else value_text(v, lang)


def _said(v: object, lang: str) -> str:
    """An option's value inside a sentence: the value itself in English; in Arabic its Arabic word alone (the value
    as typed, ``win (ربح اللعبة)``, is for the option lists in brackets)."""
    raw = _fmt_value(v)
    if lang == "en" or raw.lstrip("-").isdigit():
        return raw
    return value_text(v, lang).removeprefix(f"{raw} (").removesuffix(")")


def _trump(rules: Rules, w: W, lang: str) -> str:
    if rules.trump_source == "fixed":
        return str(w["trump.fixed"]).format(suit=w["suits"][rules.fixed_suit])
    if rules.trump_source == "revealed-same-colour":
        return str(w["trump.same-colour"])
    if rules.trump_source == "revealed-suit":
        return str(w["trump.revealed"])
    return str(w["trump.contract"]) + (str(w["trump.egyptian"]) if rules.egyptian else "")


def _bid_range(rules: Rules, w: W, lang: str) -> str:
    if rules.individual:
        out = str(w["bids.individual"]).format(lo=rules.bid_min, hi=rules.bid_max)
        if rules.bid_excluded:
            out += str(w["bids.never"]).format(bids=w["and"].join(str(b) for b in sorted(rules.bid_excluded)))
        if rules.rising_min:
            steps = w["sep"].join(str(w["bids.step"]).format(m=m, t=t) for t, m in rules.rising_table)
            out += str(w["bids.rising"]).format(steps=steps)
        return out
    kind = w["bids.egyptian"] if rules.egyptian else w["bids.number"]
    return str(w["bids.auction"]).format(lo=rules.min_bid, style=_said(rules.auction_style, lang), kind=kind)


def _bid_values(rules: Rules, w: W, lang: str) -> str:
    if not rules.individual:
        return str(w[f"values.{rules.score_style}"])
    legal = [b for b in range(rules.bid_min, rules.bid_max + 1) if b not in rules.bid_excluded]
    if all(rules.values[b] == b for b in legal):
        return str(w["values.face"])
    return str(w["sep"]).join(str(w["values.entry"]).format(b=b, v=rules.values[b]) for b in legal)


def _redeal_when(rules: Rules, w: W, lang: str) -> str:
    if rules.individual:
        return str(w["redeal.total"]).format(n=rules.total_min)
    out = str(w["redeal.all-pass"] if rules.all_pass == "redeal-next" else w["redeal.forced"])
    if rules.weak_redeal:
        out += str(w["redeal.weak"])
    return out


def _score_extra(rules: Rules, w: W, lang: str) -> str:
    if rules.individual:
        return str(w["scoring.individual"])
    return str(w["scoring.auction"]).format(kaboot=_said(rules.kaboot, lang), bid13=_said(rules.bid13, lang))


def _win(rules: Rules, w: W, lang: str) -> str:
    if rules.individual:
        out = str(w["win.individual"])
        if rules.made_bid_wins:
            out += str(w["win.made-bid"]).format(n=rules.made_bid_wins)
        return out
    out = str(w["win.auction"])
    if rules.play_on_raise:
        out += str(w["win.play-on"]).format(n=rules.play_on_raise)
    return out


def _timer(rules: Rules, w: W, lang: str) -> str:
    if not rules.auto_bid and not rules.auto_play:
        return str(w["timer.none"])
    parts = []
    if rules.auto_bid:
        parts.append(str(w["timer.bid"]).format(n=rules.auto_bid))
    if rules.auto_play:
        parts.append(str(w["timer.play"]).format(how=_said(rules.auto_play, lang)))
    return str(w["semi"]).join(parts)


Value = Callable[[Rules, W, str], str]

# (key, the spec parameters behind the row (option values are shown beside them), value function)
ROWS: tuple[tuple[str, tuple[str, ...], Value], ...] = (
    ("family", ("family",), lambda rules, words, _: str(words["individual" if rules.individual else "auction"])),
    ("direction", ("direction",), lambda rules, words, _: str(words["ccw" if rules.step == 1 else "cw"])),
    ("first-dealer", ("first_dealer",), lambda rules, words, _: str(words["by-chance"])),
    ("trump", ("trump.source", "trump.fixed_suit", "auction.egyptian"), _trump),
    ("bid-range", ("bid.min", "bid.max", "bid.excluded", "bid.rising_min", "bid.rising_table",
                   "auction.min_bid", "auction.style", "auction.egyptian"), _bid_range),
    ("bid-values", ("score.values", "score.style"), _bid_values),
    ("redeal-threshold", ("bid.total_min", "auction.all_pass", "deal.weak_redeal"), _redeal_when),
    ("redeal-dealer", ("redeal.dealer",),
     lambda rules, words, _: str(words["same-dealer" if rules.redeal_same_dealer else "next-dealer"])),
    ("first-lead", ("family",), lambda rules, words, _: str(words["lead.individual" if rules.individual else "lead.auction"])),
    ("must-trump", ("play.must_trump",),
     lambda rules, words, _: str(words["yes" if (not rules.individual and rules.must_trump) else "no"])),
    ("scoring", ("score.kaboot", "score.bid13", "score.style"), _score_extra),
    ("target", ("win.target",), lambda rules, words, _: str(rules.target)),
    ("win", ("win.made_bid_wins", "win.play_on_raise"), _win),
    ("tie", ("tie.rule",), lambda rules, words, _: str(words[f"tie.{rules.tie_rule}"])),
    ("timer", ("timer.auto_bid", "timer.auto_play"), _timer),
)


def _title(key: str, lang: str) -> str:
    titles = WORDS[lang]["titles"]
    if titles is not None:
        return str(titles[key])
    from tarneeb.docgen.pages_i18n import page_text

    title = page_text("compare", key)
    if not title:
        raise SpecError(f"i18n/{lang}_pages.toml", f"compare.{key}", "no wording for this comparison row")
    return title


def _allowed(o: Option, lang: str) -> str:
    if lang == "en":
        return o.valid_text()
    if o.range is not None:
        return label(lang, "int_range").format(lo=o.range[0], hi=o.range[1])
    return str(WORDS[lang]["sep"]).join(value_text(v, lang) for v in o.allowed)


def comparison(ruleset_ids: Sequence[str] | None = None, lang: str = "en") -> list[CompareRow]:
    """The rows, each value followed by ``[option NAME: allowed values]`` where an option can change it."""
    if lang not in WORDS:
        raise SpecError("docgen.compare", lang, f"unknown language; valid: {', '.join(WORDS)}")
    w = WORDS[lang]
    ids = list(ruleset_ids) if ruleset_ids is not None else list(rulesets())
    resolved = {rid: load_rules(rid) for rid in ids}
    rows = []
    for key, params, fn in ROWS:
        values: dict[str, str] = {}
        for rid, r in resolved.items():
            text = fn(r, w, lang)
            opts = [o for o in r.ruleset.options if o.param in params]
            if opts:
                text += " [" + str(w["semi"]).join(
                    str(w["option"]).format(name=o.name, allowed=_allowed(o, lang)) for o in opts) + "]"
            values[rid] = text
        rows.append(CompareRow(key, _title(key, lang), params, values))
    return rows


def grouped(values: dict[str, str], ids: Sequence[str]) -> list[tuple[list[str], str]]:
    """The rulesets of one row grouped by value, in the order of ``ids`` (a value's group where it first occurs):
    the comparison pages show every ruleset under each variation point, those that agree on one line."""
    out: dict[str, list[str]] = {}
    for rid in ids:
        out.setdefault(values[rid], []).append(rid)
    return [(rids, v) for v, rids in out.items()]
