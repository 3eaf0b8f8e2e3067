"""Friendlier records: the reader and the JSON Schema agree (what the reader takes beyond the schema is a located
warning), bids listed by seat are seen and said once, declared forms (bids by seat, team trick counts, a deal in
blocks) are read, and a field meaningless under the ruleset is a warning, not a divergence."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from tarneeb import load_rules
from tarneeb.play.simulate import play_match
from tarneeb.records import Divergence, RecordProblem, match_dicts, verify_lines

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "spec/records/schema-v1.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _dicts(rid: str, seed: int = 0, policy: str = "heuristic") -> list[dict[str, Any]]:
    m = play_match(load_rules(rid), "forms", seed, policy, 40).match
    return [copy.deepcopy(d) for d in match_dicts(m, f"{rid}:{seed}")]


def _run(ds: list[dict[str, Any]]) -> tuple[list[Divergence], list[RecordProblem]]:
    _, reps = verify_lines([orjson.dumps(d) for d in ds])
    return ([r for r in reps if isinstance(r, Divergence)], [r for r in reps if isinstance(r, RecordProblem)])


def _played(ds: list[dict[str, Any]]) -> int:
    return next(i for i, d in enumerate(ds) if i and d.get("redeal") is None)


def _upper(v: Any) -> Any:
    return v.lower() if isinstance(v, str) else v


# each: a change to one played hand line of eram-41 (a canonical, schema-valid line to begin with)
VARIANTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "no type": lambda d: d.pop("type"),
    "redeal false": lambda d: d.update(redeal=False),
    "integer bid": lambda d: d["bids"][0].__setitem__(1, int(d["bids"][0][1])),
    "bare bids": lambda d: d.update(bids=[b for _, b in d["bids"]]),
    "lower-case card": lambda d: d["tricks"][0]["cards"].__setitem__(0, d["tricks"][0]["cards"][0].lower()),
    "ten as 10": lambda d: d.update(deck=d["deck"].replace("T", "10")),
    "spaced deck": lambda d: d.update(deck=" ".join(d["deck"][i:i + 2] for i in range(0, 104, 2))),
    "trump lower case": lambda d: d.update(trump=d["trump"].lower()),
    "trick as a list": lambda d: d["tricks"].__setitem__(0, d["tricks"][0]["cards"]),
    "null dealer": lambda d: d.update(dealer=None),
    "leader null": lambda d: d["tricks"][3].update(leader=None),
    "bid P": lambda d: d["bids"][1].__setitem__(1, "P"),
    "team scores": lambda d: d.update(scores=d["scores"][:2]),
    "three scores": lambda d: d.update(scores=d["scores"][:3]),
    "extension field": lambda d: d.update({"x-engine": {"v": 1}}),
    "meta": lambda d: d.update(meta={"t": 3}),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_reader_and_schema_agree(name: str) -> None:
    ds = _dicts("eram-41")
    i = _played(ds)
    assert VALIDATOR.is_valid(ds[i])
    VARIANTS[name](ds[i])
    valid = VALIDATOR.is_valid(ds[i])
    _, probs = _run(ds)
    beyond = [p for p in probs if p.severity == "warning" and "beyond the schema" in p.message]
    errors = [p for p in probs if p.severity == "error"]
    if name == "team scores":  # the schema cannot know the ruleset: two team scores are only for the auction family
        assert valid and [p.message for p in errors] == ["an individual ruleset needs four scores"]
    elif valid:
        assert not beyond and not errors, [p.text() for p in probs]
    else:  # refused (an error) or taken with one located warning
        assert (len(beyond) == 1 and beyond[0].line == i + 1) or errors, [p.text() for p in probs]
        assert not (beyond and errors)


def test_lenient_warnings_are_said_once_per_match() -> None:
    ds = _dicts("eram-41")
    for d in ds[1:]:
        d["redeal"] = False if d.get("redeal") is None else d["redeal"]
    divs, probs = _run(ds)
    assert not divs and len(probs) == 1 and "once per match" in probs[0].message, [p.text() for p in probs]


def test_bids_listed_by_seat_are_seen_and_said_once() -> None:
    ds = _dicts("bsfyi-41")
    moved = 0
    for d in ds[1:]:
        if [s for s, _ in d["bids"]] != [0, 1, 2, 3]:
            moved += 1
        d["bids"] = sorted(d["bids"])
    assert moved > 2
    divs, probs = _run(ds)
    assert divs == [] and len(probs) == 1 and probs[0].field == "bids" and "by seat" in probs[0].message
    # declared in the header: read as such, silently, and still checked (a wrong bid is found)
    ds[0]["bids_by_seat"] = True
    assert VALIDATOR.is_valid(ds[0])
    assert _run(ds) == ([], [])
    i = _played(ds)
    ds[i]["bids"][2][1] = "pass"
    divs, _ = _run(ds)
    assert [d.clause for d in divs if d.line == i + 1][:1] == ["bid.no-pass"]


def test_revealed_card_under_fixed_trump_is_a_warning() -> None:
    ds = _dicts("bsfyi-41")  # hearts always trump: no card is shown
    for d in ds[1:]:
        d["revealed"] = d["deck"][-2:]
    divs, probs = _run(ds)
    assert divs == [] and len(probs) == 1 and probs[0].severity == "warning" and probs[0].field == "revealed"


def test_declared_team_tricks_and_block_deal() -> None:
    ds = _dicts("card-kings-41")
    for d in ds[1:]:
        if "tricks_won" in d:
            t = d["tricks_won"]
            d["tricks_won"] = [t[0] + t[2], t[1] + t[3]]
    _, probs = _run(ds)
    assert probs and all(p.field == "tricks_won" and p.severity == "error" for p in probs)
    ds[0]["tricks_won_by_team"] = True
    assert _run(ds) == ([], [])
    i = _played(ds)
    ds[i]["tricks_won"][0] += 1
    ds[i]["tricks_won"][1] -= 1
    divs, _ = _run(ds)
    assert [d.field for d in divs] == ["tricks_won"]
    # a deck listed in blocks of 13 (the seat after the dealer first, the dealer last)
    ds = _dicts("eram-41")
    for d in ds[1:]:
        deck = [d["deck"][j:j + 2] for j in range(0, 104, 2)]
        d["deck"] = "".join(deck[4 * i + k] for k in range(4) for i in range(13))
    divs, _ = _run(ds)
    assert divs  # read one card at a time, the hands are wrong
    ds[0]["deal_order"] = "blocks"
    assert VALIDATOR.is_valid(ds[0])
    assert _run(ds) == ([], [])


def test_hands_beside_a_deck_are_checked_against_the_hands_it_deals() -> None:
    from tarneeb.core import rules as R
    from tarneeb.core.cards import card_str, cards_of

    ds = _dicts("eram-41")
    i = _played(ds)
    rules = load_rules("eram-41")
    deck = [ds[i]["deck"][k:k + 2] for k in range(0, 104, 2)]
    from tarneeb.core.cards import parse_card

    hands = R.deal_hands(rules, ds[i]["dealer"], [parse_card(c) for c in deck])
    ds[i]["hands"] = [[card_str(c) for c in cards_of(h)] for h in hands]
    divs, probs = _run(ds)
    assert divs == [] and probs == []  # the hands the deck deals: nothing to say
    ds[i]["hands"] = ds[i]["hands"][1:] + ds[i]["hands"][:1]  # each seat given its neighbour's cards
    divs, _ = _run(ds)
    assert [(d.field, d.clause) for d in divs if d.follows_line is None] == [("hands", "deal.order")], divs[:3]
