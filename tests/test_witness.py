"""A prover's counterexample in words (tarneeb_proofs.witness): players counted 1 to 4, cards as every human text
writes them, suits and rules by name. Only the wording: what is checked is the proofs' own business."""

from __future__ import annotations

from tarneeb.core.cards import mask_of, parse_card
from tarneeb_proofs.witness import Witness, bids_text, card_text, hand_text, seat_text, suit_text


def test_a_seat_is_a_player_counted_from_1_with_its_seat_and_team() -> None:
    assert seat_text(0) == "player 1 (seat 0) of team 1"
    assert seat_text(3) == "player 4 (seat 3) of team 2"
    assert seat_text(7) == "no seat (the number 7)"
    assert bids_text([(2, 5), (3, 2)]) == "player 3 bids 5, player 4 bids 2"


def test_cards_hands_and_suits_are_written_as_every_human_text_writes_them() -> None:
    hand = mask_of(parse_card(c) for c in ("AS", "TS", "QH", "9C"))
    assert hand_text(hand) == "AS TS | QH | no diamonds | 9C"
    assert card_text(parse_card("TD")) == "TD" and card_text(60) == "no card (the number 60)"
    assert suit_text(0) == "clubs" and suit_text(4) == "no trump"


def test_the_clauses_of_a_counterexample_are_named() -> None:
    w = Witness("a player to follow", [("led suit", "clubs")], ["play.follow", "trump.source"])
    assert w.text().splitlines()[-1] == "  clauses: the follow-suit rule (play.follow), the trump rule (trump.source)"
