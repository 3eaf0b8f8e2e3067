"""Arabic output: the vocabulary of ``spec/i18n/terms.toml`` and right-to-left layout.

Two jobs, both data-driven:

* :func:`vocabulary_problems` / :func:`banned_hits` check an Arabic text against the
  vocabulary (one word per idea, words not to use);
* :func:`isolate` wraps every left-to-right run (clause ids, option names and values,
  card codes, publishers) in a directional isolate, :func:`rtl_line` makes a plain-text
  line start right-to-left, :func:`arabic_punct` turns Latin ``; , ?`` between Arabic
  words into ``؛ ، ؟``, and :func:`paragraph_direction` tells how a viewer following the
  Unicode bidirectional algorithm (rules P2/P3) lays a line out.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from tarneeb.core import cards
from tarneeb.core.spec import spec_dir
from tarneeb.errors import SpecError, os_error_words

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
RLM, LRM = "\u200f", "\u200e"
_ISOLATE_OPEN = (LRI, RLI, FSI)

# A left-to-right run: starts with a Latin letter or a digit (or with the dashes of a command-line option,
# --ruleset), contains no Arabic letter, no Arabic punctuation, no guillemet, bracket or newline, and holds a
# Latin letter.
_RUN = re.compile(r"(?:--?(?=[A-Za-z]))?[A-Za-z0-9][^\u0600-\u06FF«»()\[\]\n\u2066-\u2069\u200e\u200f`*|]*")
_LATIN = re.compile(r"[A-Za-z]")
_TRAIL = " .,;:"


_SIGNED = re.compile(r"(?<![0-9A-Za-z])[+\-]\d+")  # +10, -7: the sign stays on the left of the number


def _letter_runs(text: str) -> Iterator[tuple[int, int]]:
    i = 0
    while True:
        m = _RUN.search(text, i)
        if m is None:
            return
        start, end = m.span()
        while end > start and text[end - 1] in _TRAIL:
            end -= 1
        # a run must not swallow a leading number joined to Arabic ("13 لمّة"): it needs a letter
        if _LATIN.search(text, start, end) and (start == 0 or not text[start - 1].isalnum()):
            yield start, end
        i = max(m.end(), start + 1)


def ltr_runs(text: str) -> Iterator[tuple[int, int]]:
    """Spans of the left-to-right runs of ``text``: those holding a Latin letter, and signed numbers."""
    last = 0
    spans = sorted([*_letter_runs(text), *(m.span() for m in _SIGNED.finditer(text))])
    for start, end in spans:
        if start >= last:
            yield start, end
            last = end


def isolate(text: str, wrap: Callable[[str], str] | None = None) -> str:
    """Every left-to-right run of an Arabic ``text`` wrapped by ``wrap`` (default: LRI ... PDI)."""
    w = wrap or (lambda s: f"{LRI}{s}{PDI}")
    out: list[str] = []
    last = 0
    for start, end in ltr_runs(text):
        out += [text[last:start], w(text[start:end])]
        last = end
    out.append(text[last:])
    return "".join(out)


def arabic_punct(text: str) -> str:
    """Latin ``;`` ``,`` ``?`` outside left-to-right runs become ``؛`` ``،`` ``؟``."""
    table = str.maketrans({";": "؛", ",": "،", "?": "؟"})
    out: list[str] = []
    last = 0
    for start, end in ltr_runs(text):
        out += [text[last:start].translate(table), text[start:end]]
        last = end
    out.append(text[last:].translate(table))
    return "".join(out)


def rtl_line(line: str) -> str:
    """A plain-text line that any bidi-aware viewer lays out right-to-left."""
    return line if not line.strip() or line.startswith(RLM) else RLM + line


def _strong(ch: str) -> str | None:
    bidi = unicodedata.bidirectional(ch)
    if bidi in ("R", "AL"):
        return "R"
    if bidi == "L":
        return "L"
    return None


def _outside_isolates(line: str) -> Iterator[str]:
    """The characters of ``line`` outside its directional isolates (and not the isolates' own marks)."""
    depth = 0
    for ch in line:
        if ch in _ISOLATE_OPEN:
            depth += 1
        elif ch == PDI:
            depth = max(0, depth - 1)
        elif depth == 0:
            yield ch


def paragraph_direction(line: str) -> str | None:
    """``"R"``, ``"L"`` or ``None``: the first strong character, skipping isolated runs (UBA P2)."""
    for ch in _outside_isolates(line):
        d = _strong(ch)
        if d:
            return d
    return None


def unclosed_isolates(line: str) -> bool:
    """True when an isolate opened on ``line`` is not closed on it (a run split across lines)."""
    depth = 0
    for ch in line:
        if ch in _ISOLATE_OPEN:
            depth += 1
        elif ch == PDI:
            if depth == 0:
                return True
            depth -= 1
    return depth != 0


def latin_punct_outside_runs(line: str) -> list[str]:
    """Latin ``; , ?`` in the Arabic (non-isolated, non-run) parts of ``line``."""
    text = "".join(_outside_isolates(line))
    bad: list[str] = []
    last = 0
    for start, end in ltr_runs(text):
        bad += [c for c in text[last:start] if c in ";,?"]
        last = end
    bad += [c for c in text[last:] if c in ";,?"]
    return bad


# ---------------------------------------------------------------- vocabulary

_MARKS = re.compile(r"[\u064B-\u0652\u0670\u0640]")  # harakat, shadda, sukun, dagger alif, tatweel


def strip_marks(text: str) -> str:
    return _MARKS.sub("", text)


@dataclass(frozen=True, slots=True)
class Word:
    concept: str
    ar: tuple[str, ...]
    en: re.Pattern[str]
    only_with_en: re.Pattern[str] | None
    definition: str


@dataclass(frozen=True, slots=True)
class Banned:
    term: str
    pattern: re.Pattern[str] | None
    use: str
    why: str

    def found(self, text: str) -> bool:
        if self.pattern is not None:
            return bool(self.pattern.search(text))
        return self.term in text or strip_marks(self.term) in strip_marks(text)


@cache
def _terms_raw(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise SpecError(path, "(file)", f"cannot read the Arabic vocabulary: {os_error_words(e)}") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecError(path, "(toml)", str(e)) from None


def terms() -> dict[str, Any]:
    """The raw ``spec/i18n/terms.toml``."""
    return _terms_raw(str(spec_dir() / "i18n" / "terms.toml"))


def words() -> list[Word]:
    out = []
    for w in terms().get("word", []):
        out.append(Word(w["concept"], tuple(w["ar"]), re.compile(w["en"], re.I),
                        re.compile(w.get("en_any", w["en"]), re.I) if w.get("only_with_en") else None,
                        w.get("definition", "")))
    return out


def banned() -> list[Banned]:
    return [Banned(b.get("term", ""), re.compile(b["pattern"]) if "pattern" in b else None, b["use"], b["why"])
            for b in terms().get("banned", [])]


def banned_hits(text: str) -> list[str]:
    """Each banned term found in ``text``, as ``term (use ...)``."""
    return [f"{b.term or (b.pattern.pattern if b.pattern else '')} (use {b.use})"
            for b in banned() if b.found(text)]


def vocabulary_problems(en: str, ar: str) -> list[str]:
    """Where the Arabic ``ar`` of the English ``en`` breaks the one-word-per-idea rule."""
    out = []
    for w in words():
        if w.en.search(en) and not any(a in ar for a in w.ar):
            out.append(f"{w.concept}: the English says {w.en.search(en).group(0)!r}, "  # type: ignore[union-attr]
                       f"the Arabic lacks {' / '.join(w.ar)}")
        if w.only_with_en is not None and any(a in ar for a in w.ar) and not w.only_with_en.search(en):
            out.append(f"{w.concept}: the Arabic says {w.ar[0]} where the English does not")
    return out


def seat_convention(lang: str) -> str:
    seats = terms().get("seats", {})
    return str(seats.get("convention_ar" if lang == "ar" else "convention_en", ""))


def player_name(seat: int, lang: str = "ar") -> str:
    """Seat 0..3 as players name it: ``اللاعب 1`` .. ``اللاعب 4`` (English ``player 1``..)."""
    if lang == "ar":
        return str(terms().get("seats", {}).get("player", "اللاعب {n}")).format(n=seat + 1)
    return cards.player_name(seat)


def team_name(team: int, lang: str = "ar") -> str:
    if lang == "ar":
        names = terms().get("seats", {}).get("team", ["الفريق الأول", "الفريق الثاني"])
        return str(names[team])
    return cards.team_label(team)
