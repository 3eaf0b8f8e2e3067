"""Game records for the mini engine, in format version 1 of ``spec/records/README.md``.

Written from that document only (the mini engine shares no code with ``tarneeb``):
a match header line, then one line per deal, cancelled deals included. A match started
part-way carries its starting scores in the header (``start_scores``).
"""

from __future__ import annotations

import json
from typing import Any


def _bid(b: Any) -> str:
    return str(b.text())[4:]  # "bid:8H" -> "8H", "bid:pass" -> "pass"


def write_match(out: Any, ruleset: str, options: dict[str, Any], first_dealer: int, deals: list[Any],
                match_id: str, start_scores: list[int] | None = None) -> None:
    head: dict[str, Any] = {"type": "match", "format": "tarneeb-record", "version": 1, "match": match_id,
                            "ruleset": ruleset, "options": options, "first_dealer": first_dealer,
                            "meta": {"generator": "mini_engine"}}
    if start_scores is not None and any(start_scores):
        head["start_scores"] = list(start_scores)  # a match recorded part-way
    out.write(json.dumps(head) + "\n")
    for i, h in enumerate(deals):
        line: dict[str, Any] = {"type": "hand", "match": match_id, "hand": i, "dealer": h.dealer,
                                "deck": "".join(h.deck)}
        if h.revealed is not None:
            line["revealed"] = h.revealed
        line["trump"] = None if h.trump is None else "CDHSN"[h.trump]
        line["bids"] = [[s, _bid(b)] for s, b in h.said]
        if h.redeal:
            line["redeal"] = "deal.weak-redeal" if not h.said else (
                "bid.total" if h.cfg["family"] == "41" else "auction.all-pass")
        else:
            line["redeal"] = None
        if h.cfg["family"] == "auction":
            line["contract"] = None if h.top is None or h.redeal else {"seat": h.holder, "bid": _bid(h.top)}
        if not h.redeal:
            tricks = []
            for t in range(13):
                cards = h.plays[4 * t:4 * t + 4]
                leader = h.first_leader if t == 0 else h.winners[t - 1]
                tricks.append({"leader": leader, "cards": cards, "winner": h.winners[t]})
            line["tricks"] = tricks
            line["tricks_won"] = h.tricks
            line["deltas"] = h.deltas
        line["scores"] = h.scores
        if not h.redeal:
            line["outcome"] = {"winner": h.winner, "match_over": h.winner is not None and i == len(deals) - 1}
        out.write(json.dumps(line) + "\n")
