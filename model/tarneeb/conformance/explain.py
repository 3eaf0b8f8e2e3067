"""One-line stories of a deal for failure messages (``vectors run``, ``fuzz``).

A message about a wrong ``deltas``, ``scores`` or ``winner`` is only useful with what the rules
decided from: the scores before the deal, who bid what, trump, who won each trick. These helpers
word that from a :class:`~tarneeb.core.match.HandRecord` of the reference engine, so that a failure
can be located without opening the vector file or replaying the match.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tarneeb.core.actions import Deal, parse_action
from tarneeb.core.cards import card_str, parse_card, per_player, per_team, player_name, strain_name, team_label
from tarneeb.core.match import HandRecord, Match
from tarneeb.core.sources import rule_words
from tarneeb.core.spec import Rules
from tarneeb.errors import TarneebError


def _bid_text(b: Any) -> str:
    return str(b).removeprefix("bid:")


def value_text(v: Any) -> str:
    """A value of the protocol as a failure message says it: four numbers by player, two by team, a dict as
    ``key value`` pairs, actions as ``play QD, play 7S``, nothing as ``none``; else its JSON (a card, a text)."""
    if v is None:
        return "none"
    if isinstance(v, str):
        return v
    if isinstance(v, list | tuple) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        if len(v) == 4:
            return per_player(v)
        if len(v) == 2:
            return per_team(v)
        return ", ".join(str(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {value_text(x)}" for k, x in v.items()) or "none"
    if isinstance(v, list | tuple) and all(isinstance(x, str) for x in v):  # actions: "play:QD" as "play QD"
        return ", ".join(x.replace(":", " ", 1) for x in v) or "none"
    return json.dumps(v)


def clause_text(clause: str, source: str) -> str:
    """The deciding clause of a failure: its name with its id, then where the documents say it (``source`` is
    :func:`tarneeb.core.clauses.cite`'s ``ID (CITATION)``)."""
    cited = source[len(clause) + 2:-1] if source.startswith(clause + " (") and source.endswith(")") else ""
    return rule_words(clause) + (f", from {cited}" if cited else "")


def deal_story(rec: HandRecord, scores_before: Sequence[int], tricks: bool = True) -> str:
    """``player 3 deals; scores before: player 1 0, ...; bids: player 4 5, ...; trump hearts; trick 1 led by
    player 4: AS 2S KS QS, won by player 2; ...; the rules give ...``: the deal in words, players counted 1 to 4."""
    parts = [f"{player_name(rec.dealer)} deals; scores before: {per_player(scores_before)}"]
    if rec.revealed is not None:
        parts.append(f"turned card {card_str(rec.revealed)}")
    if rec.bids:
        parts.append("bids: " + ", ".join(f"{player_name(s)} {_bid_text(b)}" for s, b in rec.bids))
    if rec.contract is not None:
        seat, n, strain = rec.contract
        parts.append(f"contract: {player_name(seat)} for {n}" + (f" in {strain_name(strain)}" if strain is not None
                                                                   and strain != rec.trump else ""))
    parts.append(f"trump {strain_name(rec.trump) if rec.trump is not None else 'none'}")
    if rec.redeal is not None:
        parts.append(f"cancelled by {rule_words(rec.redeal)}")
    elif tricks and rec.tricks:
        parts += [f"trick {i} led by {player_name(t.leader)}: {' '.join(card_str(c) for c in t.cards)}, won by "
                  f"{player_name(t.winner)}" for i, t in enumerate(rec.tricks, 1)]
    outcome = "no winner yet" if rec.outcome is None else f"{team_label(rec.outcome)} wins"
    parts.append(f"the rules give tricks taken: {per_player(rec.tricks_won)}; score changes: "
                 f"{value_text(list(rec.deltas))}; scores: {value_text(list(rec.scores_after))}; {outcome}")
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
