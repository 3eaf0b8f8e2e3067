"""One-line stories of a deal for failure messages (``vectors run``, ``fuzz``).

A message about a wrong ``deltas``, ``scores`` or ``winner`` is only useful with what the rules
decided from: the scores before the deal, who bid what, trump, who won each trick. These helpers
word that from a :class:`~tarneeb.core.match.HandRecord` of the reference engine, so that a failure
can be located without opening the vector file or replaying the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tarneeb.core.actions import Deal, parse_action
from tarneeb.core.cards import card_str, parse_card, strain_text
from tarneeb.core.match import HandRecord, Match
from tarneeb.core.spec import Rules
from tarneeb.errors import TarneebError


def _bid_text(b: Any) -> str:
    return str(b).removeprefix("bid:")


def deal_story(rec: HandRecord, scores_before: Sequence[int], tricks: bool = True) -> str:
    """``dealer 2, scores before [..]; bids 3:5 0:4 ...; trump H; tricks 3:AS 2S KS QS>1 ...; result ...``."""
    parts = [f"dealer {rec.dealer}, scores before {list(scores_before)}"]
    if rec.revealed is not None:
        parts.append(f"revealed {card_str(rec.revealed)}")
    if rec.bids:
        parts.append("bids (seat:bid) " + " ".join(f"{s}:{_bid_text(b)}" for s, b in rec.bids))
    if rec.contract is not None:
        seat, n, strain = rec.contract
        parts.append(f"contract seat {seat} {n}{strain_text(strain) or ''}")
    parts.append(f"trump {strain_text(rec.trump)}")
    if rec.redeal is not None:
        parts.append(f"cancelled ({rec.redeal})")
    elif tricks and rec.tricks:
        parts.append("tricks (leader:cards>winner) " + " ".join(
            f"{t.leader}:{' '.join(card_str(c) for c in t.cards)}>{t.winner}" for t in rec.tricks))
    parts.append(f"the rules give tricks_won {rec.tricks_won}, deltas {rec.deltas}, scores {rec.scores_after}, "
                 f"winner {'null' if rec.outcome is None else rec.outcome}")
    return "; ".join(parts)


def replay_story(rules: Rules, dealer: int, scores: Sequence[int], target: int | None, deck: Sequence[str],
                 actions: Sequence[str]) -> str:
    """:func:`deal_story` of a deal given as a vector gives it (text cards and actions)."""
    try:
        m = Match.at(rules, dealer, scores, target)
        m.apply(Deal(tuple(parse_card(c) for c in deck)))
        for a in actions:
            m.apply(parse_action(a))
        rec = m.record if m.record is not None else m.records[-1]
    except TarneebError as e:
        return f"(the deal cannot be replayed: {e})"
    return deal_story(rec, scores)
