"""The reader's shortcut for canonical trick cards: a card not written canonically is still located exactly."""

from __future__ import annotations

import json

from tarneeb import load_rules
from tarneeb.play.simulate import simulate
from tarneeb.records import match_dicts, parse_line
from tarneeb.records.format import HandLine, RecordProblem


def _hand_line() -> dict[str, object]:
    res = next(iter(simulate(load_rules("classic"), 1, "fastread", "heuristic", 200)))
    return next(d for d in match_dicts(res.match, "m") if d.get("type") == "hand" and d.get("tricks"))


def test_a_lenient_trick_card_is_located() -> None:
    d = _hand_line()
    tricks = d["tricks"]
    assert isinstance(tricks, list)
    card = tricks[2]["cards"][1]
    tricks[2]["cards"][1] = card.lower() if card[0] != "T" else "10" + card[1]
    it = parse_line(json.dumps(d), "f", 2)
    assert isinstance(it, HandLine)
    assert [(k, f) for k, f, _ in it.lenient] == [("card", "tricks[2].cards[1]")]
    clean = parse_line(json.dumps(_hand_line()), "f", 2)
    assert isinstance(clean, HandLine) and clean.tricks is not None and it.tricks is not None
    assert it.tricks[2].cards == clean.tricks[2].cards  # read as the same card


def test_a_bad_trick_card_is_located() -> None:
    d = _hand_line()
    tricks = d["tricks"]
    assert isinstance(tricks, list)
    tricks[5]["cards"][3] = "XX"
    it = parse_line(json.dumps(d), "f", 2)
    assert isinstance(it, RecordProblem) and it.field == "tricks[5].cards[3]", it


def test_a_bad_trick_leader_is_located() -> None:
    d = _hand_line()
    tricks = d["tricks"]
    assert isinstance(tricks, list)
    tricks[4]["leader"] = 7
    it = parse_line(json.dumps(d), "f", 2)
    assert isinstance(it, RecordProblem) and it.field == "tricks[4].leader", it


def test_a_lenient_deck_card_is_located() -> None:
    d = _hand_line()
    deck = d["deck"]
    assert isinstance(deck, str)
    d["deck"] = deck[:6] + deck[6:8].lower() + deck[8:]
    it = parse_line(json.dumps(d), "f", 2)
    clean = parse_line(json.dumps(_hand_line()), "f", 2)
    assert isinstance(it, HandLine) and isinstance(clean, HandLine)
    assert it.deck == clean.deck
    assert [(k, f) for k, f, _ in it.lenient] == ([("card", "deck[3]")] if deck[6:8].lower() != deck[6:8] else [])
