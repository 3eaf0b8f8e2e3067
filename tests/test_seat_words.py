"""One seat convention in human output: the engine's own error texts, a deal's event texts and a
record check's reports count players 1 to 4 (and teams 1 and 2), each with the seat number the data holds where
data is quoted; records and JSON keep seats 0..3."""

from __future__ import annotations

import random
import re

import pytest
from tests.test_records import dicts_of, first_played, only_clause, verify_dicts

from tarneeb.core.actions import Bid, Deal, NameTrump
from tarneeb.core.match import Match
from tarneeb.core.spec import load_rules
from tarneeb.errors import IllegalBid, WrongPhase


def _bare_seat(text: str) -> list[str]:
    """Places where a text names a seat by its number alone ("seat 2" not inside "(seat 2)")."""
    return re.findall(r"(?<!\()\bseat \d\b", text)


def test_an_illegal_action_names_the_player_and_the_seat() -> None:
    m = Match(load_rules("eram-41"), first_dealer=1)  # player 3 (seat 2) bids first
    m.apply(Deal(tuple(random.Random(1).sample(range(52), 52))))
    with pytest.raises(WrongPhase) as e:
        m.apply(NameTrump(0))
    text = str(e.value)
    assert "by player 3 (seat 2)" in text and "player 3 (seat 2) to move" in text, text
    assert "dealer player 2 (seat 1)" in text and not _bare_seat(text), text
    assert e.value.seat == 2  # the data keeps the seat


def test_an_illegal_bid_of_the_first_seat() -> None:
    m = Match(load_rules("bsfyi-41"), first_dealer=3)  # seat 0 bids first
    m.apply(Deal(tuple(range(52))))
    with pytest.raises(IllegalBid) as e:
        m.apply(Bid(1))
    assert str(e.value).startswith("illegal bid:1 by player 1 (seat 0): "), str(e.value)


def test_a_deals_events_count_players_and_teams() -> None:
    m = Match(load_rules("card-kings-41"), first_dealer=1)
    m.apply(Deal(tuple(range(52))))
    rec = m.record
    assert rec is not None
    assert rec.events[0].startswith("trump.source: the dealer, player 2, shows "), rec.events
    rec.notes.append("win.play-on: team 0 wins the game; target rises to 82")  # as Match words a game won
    assert rec.events[-1] == "win.play-on: team 1 wins the game; target rises to 82", rec.events
    assert not any(_bare_seat(e) for e in rec.events)


def test_a_bid_by_the_wrong_seat_is_reported_by_player() -> None:
    """'bids[0].seat: record claims 2, the rules give 0' named seats by their bare numbers; the report names the
    players, each with the record's seat number."""
    ds = dicts_of("bsfyi-41")
    i = first_played(ds)
    right = ds[i]["bids"][0][0]
    ds[i]["bids"][0][0] = (right + 2) % 4
    divs, _ = verify_dicts(ds)
    d = only_clause(divs, "bid.turn", "bids[0].seat")
    wrong = (right + 2) % 4
    assert d.claimed == f"player {wrong + 1} (seat {wrong})" and d.expected == f"player {right + 1} (seat {right})"
    assert f"the record says player {wrong + 1} (seat {wrong}), the rules give player {right + 1}" in d.text()
