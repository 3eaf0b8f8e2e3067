"""The strict writer: the canonical record lines of a :class:`~tarneeb.core.match.Match`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import IO, Any

try:
    import orjson
except ModuleNotFoundError:  # Pyodide (the offline site): the standard library's json, same values
    from tarneeb import purejson as orjson  # type: ignore[no-redef]

from tarneeb.core.actions import Bid
from tarneeb.core.cards import strain_text
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.errors import BadInput
from tarneeb.records.format import _CARD_TEXT, FORMAT, VERSION, bid_text

# ------------------------------------------------------------------ writer

def header_dict(rules: Rules, first_dealer: int, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None, start_scores: Sequence[int] | None = None) -> dict[str, Any]:
    """The canonical header line of a match, as a dict.

    ``start_scores`` (four, by seat) records a match from part-way: the
    scores before its first hand line. Omitted when ``None`` or all zero.
    """
    d: dict[str, Any] = {
        "type": "match", "format": FORMAT, "version": VERSION, "match": match_id, "ruleset": rules.ruleset.name_ref,
        "options": dict(rules.options), "first_dealer": first_dealer,
    }
    if rules.ruleset.readings:
        d["readings"] = dict(rules.ruleset.readings)
    if start_scores is not None and any(start_scores):
        if len(start_scores) != 4:
            raise BadInput(f"match {match_id}: start_scores: four seat scores are needed")
        d["start_scores"] = [int(x) for x in start_scores]
    if seats is not None:
        if len(seats) != 4:
            raise BadInput(f"match {match_id}: seats: four names are needed, got {len(seats)}")
        d["seats"] = list(seats)
    if meta:
        d["meta"] = meta
    return d


def hand_dict(rules: Rules, rec: HandRecord, match_id: str, match_over: bool = False) -> dict[str, Any]:
    """The canonical line of one deal (played or cancelled), as a dict."""
    d: dict[str, Any] = {
        "type": "hand", "match": match_id, "hand": rec.deal_no, "dealer": rec.dealer,
        "deck": "".join([_CARD_TEXT[c] for c in rec.deck]),
    }
    if rec.revealed is not None:
        d["revealed"] = _CARD_TEXT[rec.revealed]
    d["trump"] = strain_text(rec.trump)
    if rec.claims:  # weak seats asking for a redeal or keeping their hands (ambiguity weak-hand, reading claimed)
        d["claims"] = [[s, "ask" if ask else "keep"] for s, ask in rec.claims]
    d["bids"] = [[s, bid_text(b)] for s, b in rec.bids]
    d["redeal"] = rec.redeal
    if not rules.individual:
        c = rec.contract
        d["contract"] = None if c is None else {"seat": c[0], "bid": bid_text(Bid(c[1], c[2]))}
    if rec.redeal is None:
        d["tricks"] = [{"leader": t.leader, "cards": [_CARD_TEXT[c] for c in t.cards], "winner": t.winner}
                       for t in rec.tricks]
        d["tricks_won"] = list(rec.tricks_won)
        d["deltas"] = list(rec.deltas)
    d["scores"] = list(rec.scores_after)
    if rec.redeal is None:
        d["outcome"] = {"winner": rec.outcome, "clause": rec.outcome_rule, "match_over": match_over}
    return d


def match_dicts(m: Match, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Header then one dict per deal of ``m`` (only whole deals: a deal in progress is left out)."""
    start = getattr(m, "start_scores", None)
    yield header_dict(m.rules, m.first_dealer, match_id, seats=seats, meta=meta,
                      start_scores=None if start is None else list(start))
    n = len(m.records)
    for i, rec in enumerate(m.records):
        yield hand_dict(m.rules, rec, match_id, match_over=(i == n - 1 and m.phase is Phase.OVER))


def match_lines(m: Match, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None) -> Iterator[bytes]:
    """The match as JSON Lines (UTF-8 bytes, each ending in a newline)."""
    for d in match_dicts(m, match_id, seats=seats, meta=meta):
        yield orjson.dumps(d, option=orjson.OPT_APPEND_NEWLINE)


def write_match(out: IO[bytes], m: Match, match_id: str, *, seats: Sequence[str] | None = None,
                meta: dict[str, Any] | None = None) -> int:
    """Write one match to a binary stream; returns the number of lines written."""
    n = 0
    for line in match_lines(m, match_id, seats=seats, meta=meta):
        out.write(line)
        n += 1
    return n

