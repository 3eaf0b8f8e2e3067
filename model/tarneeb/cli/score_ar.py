"""``tarneeb score FILE --lang ar``: a replayed score sheet in Arabic, as players at the table say it.

Every sentence is built from the replay's own facts (:class:`tarneeb.sheet.Reason` ``facts``, the hands' scores and
dealers), with the templates of ``spec/i18n/ar-sheet.toml`` ([sheet], and [rule_names] for the rule that decides
each line); a reason, a team, a bid and a rule's name are :mod:`tarneeb.sheet.words_ar`'s, the words the score page
says them in too. The same numbers, players and rules as the English sheet, the players by the names on the sheet, the
rule ids only in one technical line at the end. Each line is a right-to-left isolate; a name, a file and a formula
sit in isolates of their own, so that the running-score table keeps its columns in a bidi-aware terminal.
"""

from __future__ import annotations

from typing import Any

from tarneeb.i18n.arabic import FSI, LRI, PDI, RLI
from tarneeb.ruling.arabic_words import ltr, rtl_isolated, ruleset_ar
from tarneeb.sheet.words_ar import SheetWords, rule_name
from tarneeb.sheet.words_ar import t as _t


def _num(n: int) -> str:
    return ltr(n) if n < 0 else str(n)


def _change(before: int, d: int, after: int) -> str:
    """A score change as a formula, as the English sheet writes it: ``0 - 4 = -4``."""
    return f"{before} {'+' if d >= 0 else '-'} {abs(d)} = {after}"


def _plain(text: str) -> str:
    """``text`` without its isolates: what a reader sees of it, for the table's widths."""
    return "".join(ch for ch in text if ch not in (FSI, LRI, RLI, PDI))


def _row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c + " " * (w - len(_plain(c))) for c, w in zip(cells, widths, strict=True)).rstrip()


def _table(res: Any, w: SheetWords, cols: list[tuple[str, int]]) -> list[str]:
    """The running scores, a row a hand (the hand, its dealer, each column's score, what the hand ended in)."""
    head = [_t("hand"), _t("dealer"), *(h for h, _ in cols)]
    rows = []
    for h in res.hands:
        note = (_t("row_redeal") if h.redeal else _t("row_match", team=w.team(h.winner)) if h.winner is not None
                else _t("row_game", team=w.team(h.game_won)) if h.game_won is not None else "")
        rows.append([str(h.number), w.names[h.dealer], *(_num(h.scores[s]) for _, s in cols), note])
    widths = [max(len(_plain(r[i])) for r in [head + [""], *rows]) for i in range(len(head) + 1)]
    return [_row(head + [""], widths), *(_row(r, widths) for r in rows)]


def text_ar(file: str, res: Any, cols: list[tuple[str, int]]) -> str:
    """The replayed sheet ``res`` in Arabic: the head, the running scores, each hand's reasons and scores, the
    outcome, then one technical line (the file's ruleset label and every rule cited, by id). ``cols``: the
    columns of the English table, (heading, the seat whose score it shows)."""
    w = SheetWords(res.sheet.players)
    rules = res.rules
    cols = [(w.names[s] if rules.individual else w.team(s), s) for _, s in cols]
    cited: list[str] = []
    players = "، ".join(_t("player", name=name, n=s + 1) for s, name in enumerate(w.names))
    out = [_t("title", file=ltr(file), ruleset=ruleset_ar(rules.label(), rules.id), target=res.first_target),
           _t("players", players=players, team0=w.team(0), team1=w.team(1), first=w.names[res.sheet.first_dealer]),
           "", *_table(res, w, cols), ""]
    before = res.start_scores
    for h in res.hands:
        out.append(_t("hand_head", n=h.number, dealer=w.names[h.dealer]))
        if h.redeal and h.calls:
            calls = "، ".join(f"{w.names[s]} {w.bid(b)}" for s, b in h.calls)
            out.append("  " + _t("bids" if rules.individual else "calls", calls=calls))
        for kinds in (("deal", "score"), ("outcome", "dealer")):
            for r in (r for r in h.reasons if r.kind in kinds):
                out.append("  " + w.by(w.reason(r), r.clause))
                cited.append(r.clause)
            if kinds[0] == "deal" and not h.redeal:
                parts = "؛ ".join(f"{head} {ltr(_change(before[s], h.deltas[s], h.scores[s]))}" for head, s in cols)
                out.append("  " + _t("scores", parts=parts))
        before = h.scores
    out.append("")
    final = "، ".join(f"{head} {_num(res.scores[s])}" for head, s in cols)
    if res.over:
        cited.append(res.winner_clause)
        out.append(_t("outcome_over", team=w.team(res.winner), rule=rule_name(res.winner_clause), scores=final))
    else:
        nxt = res.next_dealer
        more = "" if nxt is None else _t("outcome_next", n=len(res.hands) + 1, name=w.names[nxt])
        out.append(_t("outcome_open", none=w.no_winner().removesuffix("."), scores=final, next=more))
    ids = f"{rules.label()} | {', '.join(dict.fromkeys(cited))}"
    out.append(_t("technical", ids=f"{FSI}{ids}{PDI}"))
    return "\n".join(rtl_isolated(ln) if ln else ln for ln in out) + "\n"
