"""Gaps the mutation run (tools/mutation.py, proofs/MUTATION.md) found in the tests of the rule code.

Each test names the surviving mutant it kills; it is the first file of the mutation kill command.
"""

from __future__ import annotations

import random

import pytest

from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.actions import PASS, Bid, Deal, NameTrump, Play
from tarneeb.core.cards import SAME_COLOUR
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import load_rules
from tarneeb.errors import IllegalBid, IllegalDeal, IllegalTrump, WrongPhase


def test_bid_key_orders_a_pass_below_every_bid_as_documented() -> None:
    # rules.bid_key: "a pass is -1" (mutant: a pass keyed 0). Callers outside the engine (tests/strategies.py, the
    # auction differential test) rely on the documented -1 for "no top bid yet".
    assert R.bid_key(None, None) == -1
    assert R.bid_key(None, 3) == -1
    keys = [R.bid_key(n, s) for n in range(1, 14) for s in (None, 0, 1, 2, 3, 4)]
    assert all(R.bid_key(None, None) < k for k in keys)
    # more tricks first, then the strain C < D < H < S < no trump
    assert R.bid_key(7, 4) < R.bid_key(8, 0) and R.bid_key(7, 0) < R.bid_key(7, 1) < R.bid_key(7, 4)
    assert R.bid_key(7, None) == R.bid_key(7, 0)


@pytest.mark.parametrize("rid", ["bsfyi-41", "classic"])
def test_trump_from_reveal_refuses_a_source_without_a_revealed_card(rid: str) -> None:
    # rules.trump_from_reveal under trump.source "fixed" (bsfyi-41) or "contract" (classic): no card is revealed, so
    # the function must refuse (mutant: `==` -> `<=` sends "contract" and "fixed" to the same-colour branch).
    rules = load_rules(rid)
    assert rules.trump_source in ("fixed", "contract")
    with pytest.raises(ValueError, match="does not use a revealed card"):
        R.trump_from_reveal(rules, 0)


def test_auction_holder_is_minus_one_until_the_first_bid() -> None:
    # hand.Auction.holder defaults to -1 ("no holder"), which Match.auction_holder shows (mutant: default 0, i.e.
    # seat 0 holds a bid nobody made). Rule results do not read it before a bid; the public property does.
    m = Match(load_rules("classic"), first_dealer=1)
    m.apply(Deal(tuple(range(52))))
    assert m.phase is Phase.BIDDING and m.auction_holder == -1
    seat = m.to_move
    bid = next(a for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None)
    m.apply(bid)
    assert m.auction_holder == seat


def test_deal_trump_of_a_contract_ruleset_is_minus_one() -> None:
    # hand.deal_trump: "trump 0..3 or -1 when the contract will name it" (mutant: -2). Match only tests trump < 0,
    # but the record fast path and the referee take the value as documented.
    assert H.deal_trump(load_rules("classic"), list(range(52))) == (None, -1)
    assert H.deal_trump(load_rules("bsfyi-41"), list(range(52))) == (None, load_rules("bsfyi-41").fixed_suit)
    card, trump = H.deal_trump(load_rules("eram-41"), list(range(52)))  # revealed-same-colour: spades -> clubs
    assert card == 51 and trump == SAME_COLOUR[51 // 13] == 0


@pytest.mark.parametrize("strain", [-1, 5])
def test_an_egyptian_bid_outside_the_five_strains_is_refused(strain: int) -> None:
    # rules.auction_bid_violation: strains are 0..4 (C D H S no trump); mutant: -1 <= strain accepts a strain of -1.
    # The encodings and the engine family enumerate the five strains only, so the bound itself was untested.
    rules = load_rules("classic", {"egyptian": True})
    bad = R.auction_bid_violation(rules, 0, 1, None, 0, 8, strain)
    # the reason names the ruleset's own bidding (mutant: the two reasons swapped)
    assert bad == ("auction.egyptian", "Egyptian bids name a suit or no trump")
    assert R.auction_bid_violation(rules, 0, 1, None, 0, 8, 0) is None and R.auction_bid_violation(rules, 0, 1, None, 0, 8, 4) is None


@pytest.mark.parametrize("strain", [-1, 5])
def test_match_refuses_an_egyptian_bid_outside_the_five_strains(strain: int) -> None:
    # Through Match.apply: IllegalBid (before main's 7b1af18, strain 5 raised IndexError from str(Bid)).
    m = Match(load_rules("classic", {"egyptian": True}), first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    with pytest.raises(IllegalBid):
        m.apply(Bid(8, strain))
    assert _phase(m) is Phase.BIDDING and len(m.history) == 1


# ---------------------------------------------------------------- match.py
def test_partners_share_a_score_in_a_team_ruleset() -> None:
    # Match.__init__: in the auction family partners carry one team score (mutant: start[0] > start[2] lets a
    # lower seat-0 score through).
    rules = load_rules("classic")
    for bad in ([0, 0, 5, 0], [5, 0, 0, 0], [0, 3, 0, 1], [0, 1, 0, 3]):  # either side of each pair (mutant: >)
        with pytest.raises(IllegalDeal):
            Match(rules, 0, bad)
    assert Match(rules, 0, [5, 3, 5, 3]).team_scores() == (5, 3)
    for few in ([0, 0, 0], [5, 3, 5]):  # four scores, not three, in either family (mutant: len(start) > 4)
        for rid in ("classic", "eram-41"):
            with pytest.raises(IllegalDeal):
                Match(load_rules(rid), 0, few)


def test_match_at_wants_four_scores_even_when_partners_may_disagree() -> None:
    # Match.at(partners_agree=False) skips only the partners check (mutant: len(start) > 4 lets three scores in).
    rules = load_rules("classic")
    for bad in ([1, 2, 3], [1, 2, 3, 4, 5]):  # (mutants: len(start) > 4, len(start) < 4)
        with pytest.raises(IllegalDeal):
            Match.at(rules, 0, bad, partners_agree=False)
    m = Match.at(rules, 0, [1, 2, 3, 4], partners_agree=False)
    assert m.scores == [1, 2, 3, 4]
    # Match.copy rebuilds such a match with partners_agree=False too (mutant: True, which refuses it)
    m.apply(Deal(tuple(range(52))))
    c = m.copy()
    assert c.scores == [1, 2, 3, 4] and c.history == m.history and c.phase is m.phase


def test_match_at_takes_a_game_won_by_either_team() -> None:
    # Match.at: games are won by team 0 or 1 (mutant: only team 0).
    rules = load_rules("classic", {"play_on": 41})
    m = Match.at(rules, 2, [10, 20, 10, 20], games=[1])
    assert m.games == [1] and m.target == rules.target + 41
    with pytest.raises(IllegalDeal):
        Match.at(rules, 2, games=[2])


def _phase(m: Match) -> Phase:
    """Read through a call, so mypy does not pin the phase across ``apply``."""
    return m.phase


def _at_trump_choice() -> Match:
    m = Match(load_rules("classic"), first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    m.apply(next(a for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None))
    while m.phase is Phase.BIDDING:
        m.apply(PASS)
    assert m.phase is Phase.TRUMP_CHOICE
    return m


def test_the_named_trump_is_one_of_the_four_suits() -> None:
    # Match._phase_trump_choice: 0 <= suit < 4 (mutant: 0 <= suit != 4 takes a suit 5). The refusal of suit 5
    # the trump is not taken (an IllegalTrump since NameTrump(5) prints without an IndexError).
    m = _at_trump_choice()
    for bad in (4, -1):
        with pytest.raises(IllegalTrump):
            m.apply(NameTrump(bad))
    with pytest.raises(IllegalTrump):
        m.apply(NameTrump(5))
    assert _phase(m) is Phase.TRUMP_CHOICE and m.trump == -1
    m.apply(NameTrump(3))
    assert _phase(m) is Phase.PLAY and m.trump == 3


def test_naming_trump_five_raises_illegal_trump() -> None:
    # was an IndexError: the IllegalTrump message called str(NameTrump(5)) -> STRAINS[5] (fixed in actions.py)
    m = _at_trump_choice()
    with pytest.raises(IllegalTrump):
        m.apply(NameTrump(5))


@pytest.mark.parametrize(("rid", "weakest"), [("eram-41", "lowest-non-trump"), ("eram-41", "lowest-rank"),
                                              ("bsfyi-41", "")])
def test_the_turn_timer_plays_the_weakest_legal_card(rid: str, weakest: str) -> None:
    # Match.timeout_action, clause timer.auto-play (eram-41, ambiguity weakest-card): the lowest rank among the legal
    # cards, outside trump when the option says so (mutants: the option test negated; a card's suit as c // 14).
    decisive = 0
    for seed in range(24):
        m = Match(load_rules(rid, {"timer_weakest": weakest} if weakest else {}), first_dealer=seed % 4)
        assert m.rules.auto_play == weakest  # "" (no option): the lowest rank whatever the suit
        m.apply(Deal(tuple(random.Random(seed).sample(range(52), 52))))
        while m.phase is Phase.BIDDING:
            m.apply(Bid(4))
        while m.phase is Phase.PLAY:
            legal = [a.card for a in m.legal_actions() if isinstance(a, Play)]
            pool = legal
            if weakest == "lowest-non-trump":
                pool = [c for c in legal if c // 13 != m.trump] or legal
            want = min(pool, key=lambda c: (c % 13, c // 13))
            decisive += want != min(legal, key=lambda c: (c % 13, c // 13))
            got = m.timeout_action()
            assert got == Play(want), (seed, legal, m.trump)
            m.apply(got)
        # Match.hands_played counts from 0 (mutants: from -1, from 1); in DEAL no seat is to move (mutant: seat 1)
        assert m.hands_played == 1 and m.redeals == 0 and _phase(m) is Phase.DEAL and m.to_move == -1
    if weakest == "lowest-non-trump":
        assert decisive > 0  # some turns had a trump as the lowest card: the option decided them


def test_team_scores_add_partners_in_the_individual_family() -> None:
    # Match.team_scores: seats 0 + 2 and 1 + 3 (mutant: seats 2 + 3 for team 1).
    assert Match(load_rules("eram-41"), 0, [1, 2, 3, 4]).team_scores() == (4, 6)


def test_wrong_phase_errors_name_seat_zero() -> None:
    # Match.apply: the error names the seat to move, seat 0 included (mutant: to_move > 0, so seat 0 -> None).
    m = Match(load_rules("eram-41"), first_dealer=3)
    m.apply(Deal(tuple(random.Random(1).sample(range(52), 52))))
    assert m.phase is Phase.BIDDING and m.to_move == 0
    with pytest.raises(WrongPhase) as e:
        m.apply(Play(m.hands[0].bit_length() - 1))
    assert e.value.seat == 0


def test_play_card_outside_play_is_a_wrong_phase() -> None:
    # Match.play_card: the fast path only in PLAY; elsewhere it is apply's WrongPhase (mutant: the test negated).
    m = Match(load_rules("eram-41"), first_dealer=3)
    m.apply(Deal(tuple(random.Random(1).sample(range(52), 52))))
    with pytest.raises(WrongPhase):
        m.play_card(m.hands[0].bit_length() - 1)
    assert _phase(m) is Phase.BIDDING and m.history == [m.history[0]]


def test_a_new_match_waits_for_its_deal_with_no_hand_state() -> None:
    # Match() / _reset_hand: before the first deal no seat holds cards, is to move or leads (mutants: a placeholder
    # hand of -1, seat 0 to move, seat 0 leading).
    for rid in ("eram-41", "classic"):
        m = Match(load_rules(rid), first_dealer=2)
        assert (m.phase, m.hands, m.to_move, m.trick_leader, m.led, m.trump) == (Phase.DEAL, [0, 0, 0, 0], -1, -1, -1, -1)
        with pytest.raises(IllegalDeal):
            Match(load_rules(rid), 0, [0, 0, 0, 0, 0])  # four scores, not five (mutant: len < 4)


def test_match_at_refuses_a_target_above_the_one_in_force() -> None:
    # Match.at: the target must be the one in force after the games given (mutant: only a lower one is refused).
    rules = load_rules("classic", {"play_on": 41})
    with pytest.raises(IllegalDeal):
        Match.at(rules, 0, target=rules.target + 41, games=[])
    assert Match.at(rules, 0, target=rules.target + 41).games == [0]


def test_name_trump_outside_trump_choice_is_a_wrong_phase() -> None:
    # Match.apply: NameTrump only in TRUMP_CHOICE (mutant: `and` -> `or` sends it to the trump choice in any phase).
    m = Match(load_rules("classic"), first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    with pytest.raises(WrongPhase):
        m.apply(NameTrump(0))
    assert _phase(m) is Phase.BIDDING and m.trump == -1


def test_an_illegal_auction_bid_gives_the_rules_clause_and_reason() -> None:
    # Match._auction_bid: IllegalBid carries (clause, reason) of rules.auction_bid_violation (mutant: the clause
    # id twice).
    rules = load_rules("classic")
    m = Match(rules, first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    with pytest.raises(IllegalBid) as e:
        m.apply(Bid(rules.min_bid - 1))
    want = R.auction_bid_violation(rules, 0, m.to_move, None, 0, rules.min_bid - 1, None)
    assert want is not None and (e.value.rule, e.value.reason) == want and want[0] != want[1]


def test_no_seat_is_to_move_after_a_redeal_or_at_the_end() -> None:
    # Match._phase_redeal and the end of the match: to_move is -1 (mutants: seat 1, seat 0).
    rules = load_rules("eram-41")
    m = Match(rules, first_dealer=0)
    m.apply(Deal(tuple(random.Random(5).sample(range(52), 52))))
    while _phase(m) is Phase.BIDDING:
        m.apply(Bid(rules.bid_min))  # four minimum bids total below bid.total
    assert 4 * rules.bid_min < rules.total_min and m.records[-1].redeal == "bid.total"
    assert _phase(m) is Phase.DEAL and m.to_move == -1
    m = Match.at(rules, 0, [100, 100, 100, 100])  # everyone past the target: the first hand that splits the teams ends it
    seed = 0
    while not m.is_over() and seed < 200:
        m.apply(Deal(tuple(random.Random(seed).sample(range(52), 52))))
        while _phase(m) is Phase.BIDDING:
            m.apply(Bid(4))
        while _phase(m) is Phase.PLAY:
            m.apply(m.timeout_action())
        seed += 1
    assert m.is_over() and m.to_move == -1


# ------------------------------------------------------------ gaps of the whole run of match.py (2026-12-01)


def test_a_deal_of_more_than_52_cards_is_refused() -> None:
    # Match._phase_deal: a deal orders exactly 52 cards (mutant: len(deck) >= 52, so a 53rd card was dealt past).
    for rid in ("eram-41", "classic"):
        m = Match(load_rules(rid), first_dealer=0)
        for deck in (tuple(range(52)) + (0,), tuple(range(52)) + (51, 51)):
            with pytest.raises(IllegalDeal) as e:
                m.apply(Deal(deck))
            assert e.value.rule == "deal.deck" and m.phase is Phase.DEAL and m.history == []


def test_an_illegal_individual_bid_gives_the_rules_clause_and_reason() -> None:
    # Match._phase_bidding: IllegalBid carries (clause, reason) of rules.bid_violation (mutant: the clause twice).
    rules = load_rules("eram-41")
    m = Match(rules, first_dealer=3)
    m.apply(Deal(tuple(random.Random(1).sample(range(52), 52))))
    seat = m.to_move
    for n in (0, 14):
        want = R.bid_violation(rules, m.scores[seat], n, None)
        assert want is not None
        with pytest.raises(IllegalBid) as e:
            m.apply(Bid(n))
        assert (e.value.seat, e.value.rule, e.value.reason) == (seat, want[0], want[1]) and want[0] != want[1]


def test_only_the_deal_is_a_chance_node() -> None:
    # Match.is_chance: True exactly while a deal is awaited (mutant: `is not`), as OpenSpiel's adapter reads it.
    m = Match(load_rules("classic"), first_dealer=0)
    assert m.is_chance()
    m.apply(Deal(tuple(range(52))))
    assert m.phase is Phase.BIDDING and not m.is_chance()


def test_a_wrong_phase_with_no_one_to_move_names_no_seat() -> None:
    # Match.apply: before the first deal nobody is to move: the error names no seat (mutant: to_move >= -1, so
    # "seat -1").
    m = Match(load_rules("eram-41"), first_dealer=1)
    with pytest.raises(WrongPhase) as e:
        m.apply(Bid(7))
    assert e.value.seat is None and "seat -1" not in str(e.value)


def test_match_at_names_the_targets_a_ruleset_can_have() -> None:
    # Match.at: a target no game count gives is refused with the targets the ruleset has (mutant: the search stops
    # at a target below, and the error names only the one in force).
    rules = load_rules("classic", {"play_on": 41})
    for bad in (rules.target - 1, rules.target + 1, rules.target + 100):
        with pytest.raises(IllegalDeal) as e:
            Match.at(rules, 0, target=bad)
        assert e.value.rule == "win.play-on" and f"{rules.target} and {rules.target + 41}" in e.value.reason, e.value.reason


def test_the_auction_holder_is_minus_one_before_any_deal() -> None:
    # Match: before the first deal (and in the individual family always) no auction is held: holder -1 (mutant:
    # the placeholder auction's holder -2).
    for rid in ("classic", "eram-41"):
        m = Match(load_rules(rid), first_dealer=0)
        assert m.auction_holder == -1 and m.active == [True, True, True, True] and m.passes == 0


def test_bad_start_scores_are_named_in_the_error() -> None:
    # Match(): the refused start scores are shown as given (mutant: `scores and []`, so "start scores []").
    with pytest.raises(IllegalDeal) as e:
        Match(load_rules("classic"), 0, [5, 6, 7, 8])
    assert e.value.action == "start scores [5, 6, 7, 8]" and e.value.rule == "seats.partners"


def test_a_wrong_phase_names_any_seat_to_move() -> None:
    # Match.apply: the seat to move is named whichever it is (mutant: to_move == 0, so seats 1-3 -> None).
    m = Match(load_rules("eram-41"), first_dealer=1)  # seat 2 bids first
    m.apply(Deal(tuple(random.Random(1).sample(range(52), 52))))
    assert m.to_move == 2
    with pytest.raises(WrongPhase) as e:
        m.apply(NameTrump(0))
    assert e.value.seat == 2


def test_a_contract_deal_has_no_trump_until_it_is_named() -> None:
    # Match._phase_trump_reveal: a contract ruleset reveals no trump: the record's trump stays None, unknown
    # (mutant: trump < -1, so -1 was written as if a suit).
    m = Match(load_rules("classic"), first_dealer=0)
    m.apply(Deal(tuple(range(52))))
    assert m.record is not None and m.record.trump is None and m.trump == -1


def test_the_turn_timer_bids_as_the_rules_say() -> None:
    # Match.timeout_action, clause timer.auto-bid: the declared bid when it is legal, else the first legal call
    # (mutants: the membership test negated; the last legal call).
    import dataclasses

    rules = load_rules("eram-41")
    assert rules.auto_bid == 2
    m = Match(rules, first_dealer=0)
    m.apply(Deal(tuple(random.Random(3).sample(range(52), 52))))
    assert m.timeout_action() == Bid(2) and Bid(2) in m.legal_actions()
    # a house ruleset may declare another bid (a parameter): 5 is legal here but not the first legal call
    m = Match(dataclasses.replace(rules, auto_bid=5), first_dealer=0)
    m.apply(Deal(tuple(random.Random(3).sample(range(52), 52))))
    assert m.timeout_action() == Bid(5) != m.legal_actions()[0]
    low = load_rules("classic")  # no declared bid: the first legal call
    m = Match(low, first_dealer=0)
    m.apply(Deal(tuple(random.Random(3).sample(range(52), 52))))
    legal = m.legal_actions()
    assert low.auto_bid == 0 and m.timeout_action() == legal[0] != legal[-1]


def test_the_turn_timer_names_the_first_legal_trump_and_refuses_when_no_one_is_to_move() -> None:
    # Match.timeout_action outside bidding and play: the first legal action (naming trump), and WrongPhase when
    # there is none (a deal awaited) (mutants: `if legal` for `if not legal`; the last legal action).
    rules = load_rules("classic")
    m = Match(rules, first_dealer=0)
    with pytest.raises(WrongPhase):
        m.timeout_action()
    m.apply(Deal(tuple(random.Random(5).sample(range(52), 52))))
    m.apply(Bid(7))
    while m.phase is Phase.BIDDING:
        m.apply(PASS)
    assert m.phase is Phase.TRUMP_CHOICE
    legal = m.legal_actions()
    assert m.timeout_action() == legal[0] != legal[-1]


# ------------------------------------------------------------------ rules.py (the whole run of 2026-12-01)


def test_deal_hands_refuses_a_card_no_byte_can_hold() -> None:
    # rules.deal_hands reads a list deck through bytes(): a negative card or one over 255 raises ValueError, as
    # its docstring says (mutant: the list taken as it is, where card -1 indexes the last bit and 256 is an
    # IndexError)
    rules = load_rules("classic")
    deck = list(range(52))
    for bad in (-1, 256):
        with pytest.raises(ValueError):
            R.deal_hands(rules, 0, [bad, *deck[1:]])


def test_a_card_outside_the_pack_gives_bit_52_whatever_its_number() -> None:
    # rules._CARD_BITS: every card 52..255 gives the one bit outside the pack (so the four masks no longer cover
    # the 52 cards); mutants: another bit (51, a card of the pack; 53), no bit at all, or a table one short
    rules = load_rules("classic")
    for out in (52, 200, 255):
        hands = R.deal_hands(rules, 0, [out, *range(51)])  # card 51 left out: bit 51 must stay empty
        assert sum(hands) & (1 << 52) and not sum(hands) >> 53, out
        assert hands[0] | hands[1] | hands[2] | hands[3] != (1 << 52) - 1


def test_must_trump_forces_nothing_before_trump_is_known() -> None:
    # rules.legal_play_mask with trump -1 (none known yet, as the referee may ask): a seat holding none of the suit led
    # is free to discard anything (mutant: -1 <= trump, where SUIT_MASKS[-1] forces a spade)
    rules = load_rules("classic", {"must_trump": True})
    hand = (1 << 13 * 3) | (1 << 13 * 2)  # the two of spades and the two of hearts; clubs led
    assert R.legal_play_mask(rules, hand, 0, -1) == hand
    assert R.legal_play_mask(rules, hand, 0, 3) == 1 << 13 * 3  # with spades trump: the spade only


def test_the_refused_call_s_reason_says_the_dealer_may_match_only_to_the_dealer() -> None:
    # rules.auction_bid_violation: "(the dealer may match it)" is said to the dealer under the privilege, not to
    # another seat (mutant: the words negated)
    rules = load_rules("classic")
    low = R.auction_bid_violation(rules, 0, 0, (8, None), 0, 7, None)  # the dealer, below the top
    other = R.auction_bid_violation(rules, 0, 1, (8, None), 0, 8, None)  # another seat, matching
    assert low is not None and low[1].endswith("(the dealer may match it)")
    assert other is not None and "dealer" not in other[1]
