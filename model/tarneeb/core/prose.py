"""Clause wording that follows the numbers: templates over the ruleset parameters.

A clause text (English in a ruleset file, Arabic in ``spec/i18n/ar.toml`` or a
clause's ``text_ar``) may name a parameter in braces, ``{win.target}``; it is
rendered with the values the engine runs, so a rule page cannot state another
number than the engine uses. :data:`CLAUSE_PARAMS` says which parameters a
clause's meaning depends on even where its wording is fixed ("face value"); a
house ruleset that changes such a parameter without a template naming it, and
without replacing the clause, is refused (:func:`stale_clauses`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tarneeb.errors import SpecError

if TYPE_CHECKING:
    from tarneeb.core.model import Ruleset

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NAME = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")  # a parameter's name: score.bid13, win.target

# clause id -> the parameters its statement depends on (besides those its template names)
CLAUSE_PARAMS: dict[str, tuple[str, ...]] = {
    "bid.range": ("bid.min", "bid.max"),
    "bid.excluded": ("bid.excluded",),
    "bid.total": ("bid.total_min", "bid.total_table"),
    "bid.rising-min": ("bid.rising_table",),
    "redeal.dealer": ("redeal.dealer",),
    "trump.source": ("trump.source", "trump.fixed_suit"),
    "play.direction": ("direction",),
    "deal.rotation": ("direction",),
    "deal.order": ("deal.packets",),
    "deal.weak-redeal": ("deal.weak_claim",),
    "score.values": ("score.values",),
    "win.target": ("win.target",),
    "win.made-bid": ("win.made_bid_wins", "win.made_bid_partner"),
    "tie.both-qualify": ("tie.rule",),
    "timer.auto-bid": ("timer.auto_bid",),
    "timer.auto-play": ("timer.auto_play",),
    "auction.range": ("auction.min_bid",),
    "auction.all-pass": ("auction.all_pass", "auction.forced_bid"),
    "auction.dealer-privilege": ("auction.dealer_match",),
    "deal.first-dealer": ("first_dealer",),
    "score.kaboot": ("score.kaboot", "score.defender_kaboot", "score.kaboot_double_defenders",
                     "score.bid_only_kaboot", "score.bid13_kaboot"),
    "score.bid13": ("score.bid13", "score.bid13_kaboot"),
    "score.standard": ("score.failed13_defenders",),
    "win.play-on": ("win.play_on_raise", "win.play_on_count"),
}

_OR = {"en": " or ", "ar": " أو "}


def placeholders(template: str) -> list[str]:
    """The parameter names a template uses, in order."""
    return PLACEHOLDER.findall(template)


def depends_on(cid: str, template: str) -> set[str]:
    """Every parameter the meaning of clause ``cid`` depends on."""
    return set(CLAUSE_PARAMS.get(cid, ())) | set(placeholders(template))


def _value_text(value: Any, lang: str) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        if not value:
            return None
        if all(isinstance(v, list | tuple) and len(v) == 2 for v in value):  # a table of (threshold, value) pairs
            return ", ".join(f"{a} -> {b}" for a, b in value)
        items = [_value_text(v, lang) or "" for v in value]
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + _OR.get(lang, _OR["en"]) + items[-1]
    return str(value)


def check_template(template: str, known: Mapping[str, Any], file: str, key: str) -> None:
    """Refuse a placeholder that names no parameter of this ruleset (with the valid names)."""
    for name in placeholders(template):
        if not _NAME.match(name) or name not in known:
            raise SpecError(file, key, f"{{{name}}} names no parameter of this ruleset; valid: "
                                       + ", ".join(sorted(known)))


def render(template: str, params: Mapping[str, Any], file: str, key: str, lang: str = "en") -> str:
    """The template with every ``{param}`` replaced by its value (a list joined with "or")."""
    check_template(template, params, file, key)

    def sub(m: re.Match[str]) -> str:
        text = _value_text(params[m.group(1)], lang)
        if text is None:
            raise SpecError(file, key, f"{{{m.group(1)}}} is empty in this ruleset, so this clause cannot be "
                                       "stated: remove it (remove_clauses) or replace it")
        return text

    return PLACEHOLDER.sub(sub, template)


def stale_clauses(template: str, cid: str, changed: Mapping[str, tuple[Any, Any]]) -> list[str]:
    """The changed parameters clause ``cid`` depends on but states in fixed words (not as a placeholder)."""
    named = set(placeholders(template))
    return sorted(p for p in depends_on(cid, template) if p in changed and p not in named)


def stale_message(cid: str, stale: list[str], changed: Mapping[str, tuple[Any, Any]], base: str,
                  lang: str = "en") -> str:
    what = "; ".join(f"{p} from {_value_text(changed[p][0], 'en') or 'none'} to "
                     f"{_value_text(changed[p][1], 'en') or 'none'}" for p in stale)
    where = "" if lang == "en" else f" (its {lang} statement)"
    return (f"clause {cid}{where} inherited from {base} states {', '.join(stale)} in fixed words, but this file "
            f"changes {what}: replace the clause (a [[clause]] with id = \"{cid}\", heading and text), or word it as a template "
            f"naming {', '.join('{' + p + '}' for p in stale)}")


def render_clause(rs: Ruleset, cid: str, template: str, lang: str, file: str, key: str) -> str:
    """A clause statement in ``lang`` from its template; an inherited statement that keeps a number the
    ruleset changed in fixed words is refused (naming the clause, the entry and the parameter)."""
    if not template:
        return ""
    c = rs.clauses[cid]
    if rs.changed and c.origin != rs.id:
        stale = stale_clauses(template, cid, rs.changed)
        if stale:
            raise SpecError(file, key, stale_message(cid, stale, rs.changed, c.origin, lang))
    return render(template, rs.effective_params(), file, key, lang)
