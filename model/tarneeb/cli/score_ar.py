"""``tarneeb score FILE --lang ar``: a replayed score sheet in Arabic, as players at the table say it.

Every sentence is built from the replay's own facts (:class:`tarneeb.sheet.Reason` ``facts``, the hands' scores and
dealers), with the templates of ``spec/i18n/ar-sheet.toml`` ([sheet], and [rule_names] for the rule that decides
each line): the same numbers, players and rules as the English sheet, the players by the names on the sheet, the
rule ids only in one technical line at the end. Each line is a right-to-left isolate; a name, a file and a formula
sit in isolates of their own, so that the running-score table keeps its columns in a bidi-aware terminal.
"""

from __future__ import annotations

from typing import Any

from tarneeb.core.cards import STRAINS
from tarneeb.core.rules import team_of
from tarneeb.i18n.arabic import FSI, LRI, PDI, RLI
from tarneeb.i18n.tables import i18n
from tarneeb.ruling.arabic_words import ltr, rtl_isolated, ruleset_ar


def _t(key: str, **kw: object) -> str:
    text = str(i18n("ar").get("sheet", {}).get(key, ""))
    if not text:
        raise KeyError(f"spec/i18n/ar-sheet.toml: [sheet] has no {key!r}")
    return text.format(**kw)


def rule_name_ar(clause: str) -> str:
    """A rule as players name it, ``قاعدة الهدف`` (``[rule_names]``); a club's own clause, unnamed there, is «a
    rule of this table» (its id is in the technical line)."""
    return str(i18n("ar").get("rule_names", {}).get(clause, "")) or _t("rule_unnamed")


def _name(name: str) -> str:
    """A player's name as the sheet writes it, in a first-strong isolate (a Latin or an Arabic name alike)."""
    return f"{FSI}{name}{PDI}"


def _num(n: int) -> str:
    return ltr(n) if n < 0 else str(n)


def _delta(d: int) -> str:
    return ltr(f"+{d}" if d > 0 else str(d))


def _change(before: int, d: int, after: int) -> str:
    """A score change as a formula, as the English sheet writes it: ``0 - 4 = -4``."""
    return f"{before} {'+' if d >= 0 else '-'} {abs(d)} = {after}"


def _strain(strain: int) -> str:
    return str(i18n("ar")["ruling"]["strains"][STRAINS[strain]])


def _team(names: list[str], team: int) -> str:
    a, b = (names[s] for s in range(4) if team_of(s) == team)
    return _t("team", a=_name(a), b=_name(b))


def _plain(text: str) -> str:
    """``text`` without its isolates: what a reader sees of it, for the table's widths."""
    return "".join(ch for ch in text if ch not in (FSI, LRI, RLI, PDI))


def _row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c + " " * (w - len(_plain(c))) for c, w in zip(cells, widths, strict=True)).rstrip()


def _table(res: Any, names: list[str], cols: list[tuple[str, int]]) -> list[str]:
    """The running scores, a row a hand (the hand, its dealer, each column's score, what the hand ended in)."""
    head = [_t("hand"), _t("dealer"), *(h for h, _ in cols)]
    rows = []
    for h in res.hands:
        note = (_t("row_redeal") if h.redeal else _t("row_match", team=_team(names, h.winner)) if h.winner is not None
                else _t("row_game", team=_team(names, h.game_won)) if h.game_won is not None else "")
        rows.append([str(h.number), _name(names[h.dealer]), *(_num(h.scores[s]) for _, s in cols), note])
    widths = [max(len(_plain(r[i])) for r in [head + [""], *rows]) for i in range(len(head) + 1)]
    return [_row(head + [""], widths), *(_row(r, widths) for r in rows)]


def _reason(r: Any, names: list[str]) -> str:
    """One reason of a hand, from its facts, with the rule that decides it."""
    f = r.facts
    if r.kind == "deal":
        key = f"redeal.{r.clause}" if f"redeal.{r.clause}" in i18n("ar").get("sheet", {}) else "redeal.other"
        text = _t("redeal", why=_t(key, **f))
    elif r.kind == "score" and "seat" in f:
        worth = "" if f["value"] == f["bid"] else _t("worth", bid=f["bid"], value=f["value"])
        text = _t("seat_bid", name=_name(names[f["seat"]]), bid=f["bid"], worth=worth, took=f["took"],
                  made=_t("made" if f["made"] else "failed"), delta=_delta(f["delta"]))
    elif r.kind == "score":
        bid = f"{f['bid']}" + ("" if f["strain"] < 0 else f" {_strain(f['strain'])}")
        text = _t("contract", holder=_name(names[f["holder"]]), bid=bid,
                  trump="" if f["trump"] < 0 else _t("named_trump", trump=_strain(f["trump"])),
                  team=_team(names, f["team"]), took=f["took"], made=_t("made" if f["made"] else "failed"),
                  team0=_team(names, 0), d0=_delta(f["delta0"]), team1=_team(names, 1), d1=_delta(f["delta1"]))
    elif r.kind == "outcome" and "target" in f:
        text = _t("game", team=_team(names, f["team"]), target=f["target"])
    elif r.kind == "outcome":
        text = _t("match", team=_team(names, f["team"]))
    else:
        text = _t("again" if f["again"] else "next_dealer", name=_name(names[f["dealer"]]))
    return "  " + _t("by", text=text, rule=rule_name_ar(r.clause))


def text_ar(file: str, res: Any, cols: list[tuple[str, int]]) -> str:
    """The replayed sheet ``res`` in Arabic: the head, the running scores, each hand's reasons and scores, the
    outcome, then one technical line (the file's ruleset label and every rule cited, by id). ``cols``: the
    columns of the English table, (heading, the seat whose score it shows)."""
    names = list(res.sheet.players)
    rules = res.rules
    cols = [(_name(names[s]) if rules.individual else _team(names, s), s) for _, s in cols]
    cited: list[str] = []
    players = "، ".join(_t("player", name=_name(n), n=s + 1) for s, n in enumerate(names))
    out = [_t("title", file=ltr(file), ruleset=ruleset_ar(rules.label(), rules.id), target=res.first_target),
           _t("players", players=players, team0=_team(names, 0), team1=_team(names, 1),
              first=_name(names[res.sheet.first_dealer])), "", *_table(res, names, cols), ""]
    before = res.start_scores
    for h in res.hands:
        out.append(_t("hand_head", n=h.number, dealer=_name(names[h.dealer])))
        if h.redeal and h.calls:
            calls = "، ".join(f"{_name(names[s])} {_t('pass') if b.n is None else b.n}"
                              + ("" if b.strain is None else f" {_strain(b.strain)}") for s, b in h.calls)
            out.append("  " + _t("bids" if rules.individual else "calls", calls=calls))
        for kinds in (("deal", "score"), ("outcome", "dealer")):
            for r in (r for r in h.reasons if r.kind in kinds):
                out.append(_reason(r, names))
                cited.append(r.clause)
            if kinds[0] == "deal" and not h.redeal:
                parts = "؛ ".join(f"{head} {ltr(_change(before[s], h.deltas[s], h.scores[s]))}" for head, s in cols)
                out.append("  " + _t("scores", parts=parts))
        before = h.scores
    out.append("")
    final = "، ".join(f"{head} {_num(res.scores[s])}" for head, s in cols)
    if res.over:
        cited.append(res.winner_clause)
        out.append(_t("outcome_over", team=_team(names, res.winner), rule=rule_name_ar(res.winner_clause),
                      scores=final))
    else:
        nxt = res.next_dealer
        more = "" if nxt is None else _t("outcome_next", n=len(res.hands) + 1, name=_name(names[nxt]))
        out.append(_t("outcome_open", scores=final, next=more))
    ids = f"{rules.label()} | {', '.join(dict.fromkeys(cited))}"
    out.append(_t("technical", ids=f"{FSI}{ids}{PDI}"))
    return "\n".join(rtl_isolated(ln) if ln else ln for ln in out) + "\n"

