"""Score sheets written from seeded self-play matches (cards and all), as players at the table would write them:
the bids, or the auction (its calls, or only its contract), and the tricks; a deal thrown in for a weak hand.

The example sheets of spec/sheets/examples/ are written by this module (``python tests/sheet_support.py``), each
from the seeded match its ``meta`` names; tests/test_sheet.py plays the match again and holds the sheet, and what
``tarneeb score`` makes of it, to the match core played.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tarneeb import Match, load_rules
from tarneeb.core import rules as R
from tarneeb.core.cards import STRAINS
from tarneeb.play.simulate import play_match

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "spec" / "sheets" / "examples"
PLAYERS = ["Rami", "Hala", "Sami", "Dina"]

# name -> (ruleset, options, seed, hands written as their contract alone: every k-th played one, 0 for none)
EXAMPLE_MATCHES: dict[str, tuple[str, dict[str, Any], str, int]] = {
    "card-kings-41": ("card-kings-41", {}, "sheet-7", 0),
    "tarneeb-400": ("tarneeb-400", {}, "sheet-4", 0),
    "classic": ("classic", {"weak_redeal": True, "play_on": 41}, "sheet-4", 3),
}


def _bid(b: Any) -> str:
    return "pass" if b.n is None else f"{b.n}" + ("" if b.strain is None else STRAINS[b.strain])


def sheet_of_match(m: Match, contract_every: int = 0, players: list[str] | None = None) -> dict[str, Any]:
    """The sheet of ``m``'s deals: individual bids in bidding order and the tricks by seat; an auction as its calls,
    or (every ``contract_every``-th played deal) its contract alone, with the trump named where the holder names it,
    and the contract team's tricks."""
    rules = m.rules
    hands: list[dict[str, Any]] = []
    played = 0
    for rec in m.records:
        if rec.redeal == "deal.weak-redeal":
            hands.append({"redeal": "deal.weak-redeal"})
            continue
        if rules.individual:
            h: dict[str, Any] = {"bids": [b.n for _, b in rec.bids]}
            if rec.redeal is None:
                h["tricks_won"] = list(rec.tricks_won)
            hands.append(h)
            continue
        if rec.redeal is None and contract_every and played % contract_every == contract_every - 1:
            seat, n, strain = rec.contract  # type: ignore[misc]
            h = {"contract": {"seat": seat, "bid": f"{n}" + ("" if strain is None else STRAINS[strain])}}
        else:
            h = {"calls": [_bid(b) for _, b in rec.bids]}
        if rec.redeal is None:
            played += 1
            if not rules.egyptian:
                h["trump"] = STRAINS[rec.trump]  # type: ignore[index]
            h["bidding_team_tricks"] = R.team_tricks(rec.tricks_won)[R.team_of(rec.contract[0])]  # type: ignore[index]
        hands.append(h)
    return {"format": "tarneeb-score-sheet", "version": 1, "ruleset": rules.id, "options": dict(rules.option_map),
            "players": players or PLAYERS, "first_dealer": m.first_dealer, "hands": hands}


def example_match(name: str) -> tuple[Match, dict[str, Any]]:
    """The seeded match an example sheet is written from, and the sheet (with its ``meta``)."""
    rid, options, seed, every = EXAMPLE_MATCHES[name]
    m = play_match(load_rules(rid, options), seed).match
    sheet = sheet_of_match(m, every)
    sheet["options"] = options
    sheet["meta"] = {"written from": f"the seeded self-play match {seed!r} of tests/sheet_support.py"}
    return m, sheet


def write_examples() -> None:
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    for name in EXAMPLE_MATCHES:
        _, sheet = example_match(name)
        (EXAMPLES / f"{name}.json").write_text(dump(sheet), encoding="utf-8")


def dump(sheet: dict[str, Any]) -> str:
    """A sheet as the examples are written: the head one field a line, then one line a hand."""
    head = {k: v for k, v in sheet.items() if k != "hands"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    rows = ",\n".join(f"    {json.dumps(h, ensure_ascii=False)}" for h in sheet["hands"])
    return "{\n" + "\n".join(lines) + '\n  "hands": [\n' + rows + "\n  ]\n}\n"


if __name__ == "__main__":
    write_examples()
    sys.exit(0)
