"""The verifier's two paths on clean records: the fast path takes every line and ``verify`` reports nothing; the
step-by-step replay reports nothing, also on the record with each deal given as the four hands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from tarneeb.core import rules as R
from tarneeb.core.cards import card_str, cards_of, parse_card
from tarneeb.core.spec import Rules
from tarneeb.records import Divergence, Verifier
from tarneeb.records import fastpath as FP

from .corruptions import Line, dealer_clause
from .failure import Failure, kind_clause, kind_text, rep_text, report_fn, verify_lines, where
from .records import Recorded


def fast_clean(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    """The first line of a clean record the fast path refuses, or a report of ``verify`` on it."""
    for rec in recs:
        v = Verifier()
        v.feed_line(rec.lines[0], len(rec.lines[0]), "record", 1)
        for i, obj in enumerate(rec.objs[1:], start=2):
            st = v.state
            if st is None or not FP.fast_hand(st, dict(obj)):  # (by the module: a mutant patches it there)
                k = i - 2
                hr = rec.m.records[k]
                scores, target = rec.before[k]
                # what the state the fast path left differs in from the engine's, if anything
                if st is not None and st.dealer != hr.dealer:
                    why, clause = f"it expects seat {st.dealer} to deal, the engine's dealer is seat {hr.dealer}", \
                        dealer_clause(Line(rules, hr, rec.m.records[k - 1] if k else None, obj, k, "",
                                            lambda c, t: 0))[0]
                elif st is not None and list(st.table.scores) != scores:
                    why, clause = f"it holds the scores {list(st.table.scores)}, the engine's are {scores}", \
                        kind_clause(rules, rec.m.records[k - 1]) if k else "score.individual"
                elif st is not None and st.table.target != target:
                    why, clause = f"it holds the target {st.table.target}, the engine's is {target}", "win.play-on"
                else:
                    why, clause = "", kind_clause(rules, hr)
                return Failure("tarneeb.records.fastpath.fast_hand",
                               f"{where(rules, rec)}, line {i} (deal {k}, {kind_text(hr)}) of a clean record",
                               "refuses the line (it is handed to the replay)" + (f": {why}" if why else ""),
                               "takes it: the engine wrote it", clause)
        reps = verify_lines(rec.lines, True)
        if reps:
            d = reps[0]
            return Failure(report_fn(d), f"{where(rules, rec)}, a clean record", rep_text(d), "no report",
                           d.clause if isinstance(d, Divergence) else "hand.tricks")
    return None


def replay_clean(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    """The first report of the replay (fast path off) on a clean record, also with its deals given as hands."""
    for rec in recs:
        reps = verify_lines(rec.lines, False)
        if reps:
            d = reps[0]
            return Failure(report_fn(d), f"{where(rules, rec)}, line {d.line} of a clean record (fast path off)",
                           rep_text(d), "no report: the engine wrote the line",
                           d.clause if isinstance(d, Divergence) else "hand.tricks")
        # the same record with each deal given as the four hands, each sorted as an engine may write them (the
        # format's other form of a deal: the verifier rebuilds the deck, the revealed card the dealer's last)
        reps = verify_lines([rec.lines[0], *(orjson.dumps(_as_hands(rules, o)) for o in rec.objs[1:])], True)
        if reps:
            d = reps[0]
            return Failure(report_fn(d), f"{where(rules, rec)}, line {d.line} of a clean record, its deal given as "
                           "hands", rep_text(d), "no report: the engine dealt those hands",
                           d.clause if isinstance(d, Divergence) else "deal.deck")
    return None


def _as_hands(rules: Rules, obj: dict[str, Any]) -> dict[str, Any]:
    """A deal line with ``hands`` (by seat, each sorted) in place of ``deck``; other lines as they are."""
    if "deck" not in obj:
        return obj
    text = obj["deck"]
    deck = [parse_card(text[i:i + 2]) for i in range(0, len(text), 2)]
    hands = [[card_str(c) for c in sorted(cards_of(h))] for h in R.deal_hands(rules, obj["dealer"], deck)]
    out = {k: v for k, v in obj.items() if k != "deck"}
    out["hands"] = hands
    return out

