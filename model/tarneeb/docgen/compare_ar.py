"""The comparison table in Arabic: the same rows as :data:`tarneeb.docgen.rulebook.COMPARE_ROWS`.

Every value is computed from the resolved :class:`~tarneeb.core.spec.Rules`, as the English
table is; only the wording differs. Row titles come from ``spec/i18n/ar_pages.toml``
(``[compare]``), option values from ``spec/i18n/ar.toml`` (``[values]``). A row of the English
table without an Arabic wording here is an error (:func:`comparison_ar` raises).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.docgen import rulebook as docgen
from tarneeb.docgen.pages_i18n import page_text
from tarneeb.errors import SpecError

SUITS_AR = ("السباتي", "الديناري", "الكبّة", "البستوني")  # the order of tarneeb.core.cards.SUIT_NAMES


def _v(value: object) -> str:
    return docgen.value_text(value, "ar")


def _trump(r: Rules) -> str:
    if r.trump_source == "fixed":
        return f"{SUITS_AR[r.fixed_suit]} دائمًا"
    if r.trump_source == "revealed-same-colour":
        return "النقش الآخر من نفس حُمرة أو سواد آخر ورقة للموزّع (كبّة مع ديناري، بستوني مع سباتي)"
    if r.trump_source == "revealed-suit":
        return "نقش آخر ورقة للموزّع"
    return "يسمّيه صاحب الطلب الفائز" + (" (نقش الطلب الفائز)" if r.egyptian else "")


def _bid_range(r: Rules) -> str:
    if r.individual:
        out = f"من {r.bid_min} إلى {r.bid_max}، كل لاعب لنفسه"
        if r.bid_excluded:
            out += "، ما عدا " + " و".join(str(b) for b in sorted(r.bid_excluded))
        if r.rising_min:
            out += "؛ أدنى طلب يرتفع: " + "، ".join(f"{m} من {t} نقطة" for t, m in r.rising_table)
        return out
    kind = "برقم ونقش أو «بلا طرنيب»" if r.egyptian else "بالرقم فقط"
    return f"من {r.min_bid} إلى 13، مزايدة بين الفريقين ({_v(r.auction_style)}؛ {kind})"


def _bid_values(r: Rules) -> str:
    if not r.individual:
        return {"standard": "الطلب المحقَّق: كل لمّات الفريق الطالب؛ وإلا ناقص الطلب، والفريق المدافع يكسب لمّاته",
                "bid-only": "الطلب المحقَّق: زائد الطلب؛ وإلا ناقص الطلب؛ والفريق المدافع لا يكسب أبدًا"}[r.score_style]
    legal = [b for b in range(r.bid_min, r.bid_max + 1) if b not in r.bid_excluded]
    if all(r.values[b] == b for b in legal):
        return "قيمة الطلب رقمه (طلب n يساوي n)"
    return "، ".join(f"{b} بـ{r.values[b]}" for b in legal)


def _redeal_when(r: Rules) -> str:
    if r.individual:
        return f"مجموع الطلبات أقل من {r.total_min}"
    out = "إذا قال الأربعة باص" if r.all_pass == "redeal-next" else "لا إلغاء بالباص (الموزّع مُلزَم بالطلب)"
    if r.weak_redeal:
        out += "؛ أو إذا لم يكن مع أحد اللاعبين ورقة أعلى من العشرة"
    return out


def _score_extra(r: Rules) -> str:
    if r.individual:
        return "اللمّات فوق الطلب لا قيمة لها؛ النتيجة لكل لاعب"
    return f"الكبّوت: {_v(r.kaboot)}؛ طلب 13: {_v(r.bid13)}؛ النتيجة لكل فريق"


def _win(r: Rules) -> str:
    if r.individual:
        out = "أحد الشريكين عند الهدف أو فوقه والآخر فوق الصفر"
        if r.made_bid_wins:
            out += f"؛ وطلب {r.made_bid_wins} المحقَّق يربح اللعبة فورًا"
        return out
    out = "نتيجة الفريق عند الهدف أو فوقه"
    if r.play_on_raise:
        out += f"؛ ثم مواصلة المباراة حتى هدف أعلى بـ{r.play_on_raise}"
    return out


def _tie(r: Rules) -> str:
    return {"combined": "المجموع الأعلى للفريق؛ وعند التساوي تُلعب يد أخرى",
            "top": "أعلى نتيجة فردية؛ وعند التساوي تُلعب يد أخرى",
            "bidding-team": "يربح الفريق الطالب"}[r.tie_rule]


def _timer(r: Rules) -> str:
    if not r.auto_bid and not r.auto_play:
        return "لا شيء مذكور"
    parts = []
    if r.auto_bid:
        parts.append(f"يطلب {r.auto_bid}")
    if r.auto_play:
        parts.append(f"يلعب أضعف ورقة مسموحة ({_v(r.auto_play)})")
    return "؛ ".join(parts)


VALUES_AR: dict[str, Callable[[Rules], str]] = {
    "family": lambda r: "طلبات فردية" if r.individual else "مزايدة بين الفريقين",
    "direction": lambda r: "عكس عقارب الساعة (إلى اليمين)" if r.step == 1 else "مع عقارب الساعة",
    "first-dealer": lambda r: "بالقرعة",
    "trump": _trump,
    "bid-range": _bid_range,
    "bid-values": _bid_values,
    "redeal-threshold": _redeal_when,
    "redeal-dealer": lambda r: "الموزّع نفسه" if r.redeal_same_dealer else "الموزّع التالي",
    "first-lead": lambda r: "اللاعب الذي على يمين الموزّع (أول من يطلب)" if r.individual else "صاحب الطلب الفائز",
    "must-trump": lambda r: "نعم" if (not r.individual and r.must_trump) else "لا",
    "scoring": _score_extra,
    "target": lambda r: str(r.target),
    "win": _win,
    "tie": _tie,
    "timer": _timer,
}


def comparison_ar(ruleset_ids: Sequence[str] | None = None) -> list[docgen.CompareRow]:
    """The rows of :func:`tarneeb.docgen.rulebook.comparison`, worded in Arabic."""
    ids = list(ruleset_ids) if ruleset_ids is not None else list(rulesets())
    resolved = {rid: load_rules(rid) for rid in ids}
    rows = []
    for key, _title, params, _fn in docgen.COMPARE_ROWS:
        fn = VALUES_AR.get(key)
        title = page_text("compare", key)
        if fn is None or not title:
            raise SpecError("i18n/ar_pages.toml", f"compare.{key}", "no Arabic wording for this comparison row")
        values: dict[str, str] = {}
        for rid, r in resolved.items():
            text = fn(r)
            opts = [o for o in r.ruleset.options if o.param in params]
            if opts:
                shown = []
                for o in opts:
                    allowed = (docgen.label("ar", "int_range").format(lo=o.range[0], hi=o.range[1])
                               if o.range is not None else "، ".join(_v(v) for v in o.allowed))
                    shown.append(f"الخيار {o.name}: {allowed}")
                text += " [" + "؛ ".join(shown) + "]"
            values[rid] = text
        rows.append(docgen.CompareRow(key, title, params, values))
    return rows
