"""A record check's details in the page's language: what a record claims and what the rules give, and why.

The verifier words each divergence in English in the JSON (``claimed``, ``expected``, ``reason``: "player 3
(seat 2) plays QD", "a legal card (the player holds the led suit and must follow it)", "scores before the deal
[7, 13, 7, 3]"); an English page says them as the command line does (:func:`tarneeb.records.format.claim_words`:
"scores before the deal: player 1 7, ..."). An Arabic page says the same in Arabic: each shape the verifier writes
(:mod:`tarneeb.records.replay`, :mod:`tarneeb.records.verify`, the reasons of :mod:`tarneeb.core.rules`) is read
back into its parts and worded again, the data it quotes (cards, bids, lists of numbers, ``null``) kept as written
in left-to-right isolates. This restates no rule: it translates the verifier's own sentence, part for part. A text
of no shape known here is shown as the verifier wrote it, in English.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tarneeb.records.format import claim_words
from tarneeb.ruling.arabic_words import team

LRI, PDI, NBSP = "\u2066", "\u2069", "\u00a0"
_PLAYER = r"player (\d) \(seat (\d)\)"


def _ltr(text: str) -> str:
    """Data in a left-to-right isolate, its spaces no-break ones: the page sets such a run apart whole
    (``serve.app.with_isolates``), so "[7, 13, 7, 3]" is not read right to left."""
    return f"{LRI}{text.replace(' ', NBSP)}{PDI}"


def _player(m: re.Match[str], at: int = 1) -> str:
    return f"اللاعب {m[at]} (المقعد {m[at + 1]})"


def _bid(text: str) -> str:
    return "باص" if text == "pass" else _ltr(text)


# the reasons the rules give for an illegal bid or card (tarneeb.core.rules, tarneeb.core.hand)
_REASONS: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (r"the card is not in the player's hand", lambda m: "الورقة ليست في يد اللاعب"),
    (r"the player holds the led suit and must follow it", lambda m: "مع اللاعب من النقش المطلوب، فعليه أن يلعب منه"),
    (r"the player is void in the led suit, holds a trump and must trump",
     lambda m: "ليس مع اللاعب من النقش المطلوب ومعه طرنيب، فعليه أن يقطع بطرنيب"),
    (r"a bid here is a number of tricks without a suit", lambda m: "الطلب هنا عدد لمّات بلا نقش"),
    (r"passing is not allowed", lambda m: "لا يجوز قول باص"),
    (r"bids run from (\d+) to (\d+)", lambda m: f"الطلبات من {m[1]} إلى {m[2]}"),
    (r"a bid of (\d+) is not allowed", lambda m: f"لا يُسمح بطلب {m[1]}"),
    (r"with a score of (-?\d+) the lowest bid is (\d+)", lambda m: f"من نقاط {_ltr(m[1])} أدنى طلب {m[2]}"),
    (r"the dealer must bid the minimum after three passes",
     lambda m: "بعد ثلاث مرات باص يجب على الموزّع أن يطلب الحد الأدنى"),
    (r"Egyptian bids name a suit or no trump", lambda m: "الطلب المصري يسمّي نقشًا أو «بلا طرنيب»"),
    (r"bids here name no suit", lambda m: "الطلب هنا لا يسمّي نقشًا"),
    (r"a bid must be higher than the top bid \(the dealer may match it\)",
     lambda m: "يجب أن يكون الطلب أعلى من أعلى طلب حتى الآن (وللموزّع أن يساويه)"),
    (r"a bid must be higher than the top bid", lambda m: "يجب أن يكون الطلب أعلى من أعلى طلب حتى الآن"),
    (r"the auction is over", lambda m: "انتهت المزايدة"),
    (r"the contract holder names one of the four suits", lambda m: "يسمّي صاحب الطلب الفائز أحد النقوش الأربعة"),
    (r"a deal must order all 52 distinct cards 0\.\.51", lambda m: "على التوزيع أن يرتّب أوراق الشدّة الـ52 كلها"),
]

_LIST = r"(\[[-\d, ?]*\])"
_CARD = r"((?:10|[2-9TJQKA])[CDHS])"

# what a record claims or the rules give, and the reasons the verifier adds (tarneeb.records.replay, verify)
_SHAPES: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (_PLAYER, _player),
    (_PLAYER + r" bids (\S+)", lambda m: f"{_player(m)} يطلب {_bid(m[3])}"),
    (_PLAYER + r" plays " + _CARD, lambda m: f"{_player(m)} يلعب {_ltr(m[3])}"),
    (_PLAYER + r" still to bid", lambda m: f"{_player(m)} لم يطلب بعد"),
    (r"a legal bid \((.+)\)", lambda m: f"طلب مسموح ({reason_ar(m[1]) or _ltr(m[1])})"),
    (r"a legal card \((.+)\)", lambda m: f"ورقة مسموحة ({reason_ar(m[1]) or _ltr(m[1])})"),
    (r"no further bid: the bidding is over", lambda m: "لا طلب بعد ذلك: انتهى الطلب"),
    (r"(\d+) bids, then the bidding ends", lambda m: f"عدد الطلبات {m[1]}، ثم ينتهي الطلب"),
    (r"(\d+) calls", lambda m: f"عدد الطلبات في المزايدة {m[1]}"),
    (r"(none|null): the deal is thrown in before the bidding", lambda m: f"{_ltr(m[1])}: تُلغى اليد قبل الطلب"),
    (r"null \(the deal is played\)", lambda m: f"{_ltr('null')} (تُلعب اليد)"),
    (r"null: the deal is played", lambda m: f"{_ltr('null')}: تُلعب اليد"),
    (r"no cancellation: the bidding is not over", lambda m: "لا إلغاء: الطلب لم ينتهِ"),
    (r"one of the four suits", lambda m: "أحد النقوش الأربعة"),
    (r"null \(not yet known\)", lambda m: f"{_ltr('null')} (غير معروف بعد)"),
    (_CARD + r" \(the dealer's last card\)", lambda m: f"{_ltr(m[1])} (آخر ورقة للموزّع)"),
    (r"a card of the dealer's hand \(the last card dealt\)", lambda m: "ورقة من يد الموزّع (آخر ورقة وُزّعت)"),
    (r"(\d+) tricks", lambda m: f"عدد اللمّات {m[1]}"),
    (_LIST + r" \(by team\)", lambda m: f"{_ltr(m[1])} (لكل فريق)"),
    (_LIST + r" \(unchanged by a cancelled deal\)", lambda m: f"{_ltr(m[1])} (لا تغيّرها يد ملغاة)"),
    (r"a deal of (\d+) distinct cards", lambda m: f"توزيع من {m[1]} ورقة مختلفة"),
    (r"(\d+) distinct cards", lambda m: f"{m[1]} ورقة مختلفة"),
    (r"(\d+) cards \((\d+) distinct\)", lambda m: f"{m[1]} ورقة ({m[2]} مختلفة)"),
    (r"hands sharing a card", lambda m: "أيدٍ تشترك في ورقة"),
    (r"the 52 cards of the pack, each once", lambda m: "أوراق الشدّة الـ52، كل ورقة مرة واحدة"),
    (r"team ([12]) \(winner ([01])\)", lambda m: team(m[2])),  # «الفريق الأول (1 و3)», as the referee names it
    (r"none", lambda m: "لا أحد"),
    (r"a further deal", lambda m: "يد أخرى"),
    (r"none: the match was already over", lambda m: "لا شيء: كانت المباراة قد انتهت"),
    (r"cards ((?:\S+ ?){1,4}) led by " + _PLAYER, lambda m: f"الأوراق {_ltr(m[1])}، بدأها {_player(m, 2)}"),
    (r"scores before the deal " + _LIST + r", with the record's own deltas",
     lambda m: f"النقاط قبل اليد {_ltr(m[1])}، مع فروق النقاط كما يذكرها السجل"),
    (r"scores before the deal " + _LIST, lambda m: f"النقاط قبل اليد {_ltr(m[1])}"),
    (r"scores " + _LIST, lambda m: f"النقاط {_ltr(m[1])}"),
    # a cause of the summary's table: a divergence no recognised bug explains, or one that follows from another
    (r"unexplained \((.+)\)", lambda m: f"بلا تفسير ({_ltr(m[1])})"),
    (r"follow-on \((.+)\)", lambda m: f"ناتج عن اختلاف سابق ({_ltr(m[1])})"),
]
_COMPILED = [(re.compile(p), f) for p, f in _SHAPES]
_COMPILED_REASONS = [(re.compile(p), f) for p, f in _REASONS]


def reason_ar(text: str) -> str:
    """A reason the rules give, in Arabic; "" when it is not one known here."""
    for pat, word in _COMPILED_REASONS:
        if (m := pat.fullmatch(text)) is not None:
            return word(m)
    return ""


def said(text: str, lang: str) -> tuple[str, str]:
    """(``text`` as the page shows it, the language it is in): on an Arabic page, the verifier's English worded in
    Arabic where its shape is known, data in left-to-right isolates, else as written; on another page, in the
    words of ``tarneeb verify`` (numbers by player or team, not a list; a clause id beside its rule's name)."""
    if lang != "ar" or not text:
        return claim_words(text), "en"
    for pat, word in _COMPILED:
        if (m := pat.fullmatch(text)) is not None:
            return word(m), "ar"
    if (r := reason_ar(text)):
        return r, "ar"
    return text, "en"
