"""The engine's state machine: deal, bidding, redeal, play, scoring, outcome."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarneeb import (
    Bid,
    Deal,
    IllegalBid,
    IllegalDeal,
    IllegalPlay,
    IllegalTrump,
    Match,
    NameTrump,
    Phase,
    Play,
    WrongPhase,
    load_rules,
    parse_action,
    parse_card,
    random_deck,
)
from tarneeb.core import rules as R
from tarneeb.core.cards import SUIT_MASKS, card_str, cards_of
from tarneeb.play.bots import POLICIES
from tarneeb.play.simulate import play_match

RULESETS = ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"]
CLASSIC_VARIANTS: list[dict[str, object]] = [
    {}, {"auction": "continuous"}, {"egyptian": True}, {"must_trump": True}, {"all_pass": "dealer-forced"},
    {"direction": "cw"}, {"scoring": "bid-only", "kaboot": "double", "bid13": "26"}, {"weak_redeal": True},
    {"play_on": 41, "target": 31}, {"min_bid": 8, "auction": "continuous", "egyptian": True},
]


def deck_from(seed: int) -> tuple[int, ...]:
    d = list(range(52))
    random.Random(seed).shuffle(d)
    return tuple(d)


def phase(m: Match) -> Phase:
    """The phase, read through a call so type checkers do not pin it across ``apply``."""
    return m.phase


def at_bidding(rid: str, dealer: int = 0, seed: int = 0, **opts: object) -> Match:
    m = Match(load_rules(rid, opts), first_dealer=dealer)
    m.apply(Deal(deck_from(seed)))
    return m


# ----------------------------------------------------------------- deal
@pytest.mark.parametrize("dealer", range(4))
def test_deal_goes_from_dealers_right_and_dealer_gets_last(dealer: int) -> None:
    rules = load_rules("eram-41")
    deck = deck_from(dealer)
    hands = R.deal_hands(rules, dealer, deck)
    assert hands[(dealer + 1) % 4] >> deck[0] & 1
    assert hands[(dealer + 2) % 4] >> deck[1] & 1
    assert hands[dealer] >> deck[51] & 1
    assert all(h.bit_count() == 13 for h in hands)


def test_revealed_card_is_dealers_13th_and_stays_in_hand() -> None:
    m = at_bidding("card-kings-41", dealer=2, seed=5)
    rec = m.record
    assert rec is not None and rec.revealed == rec.deck[51]
    assert m.hands[2] >> rec.revealed & 1
    assert m.trump == {0: 3, 1: 2, 2: 1, 3: 0}[rec.revealed // 13]


@pytest.mark.parametrize("bad", [tuple(range(51)), tuple(range(51)) + (0,), tuple(range(1, 53)), (-1,) + tuple(range(1, 52))])
def test_bad_deals_are_refused(bad: tuple[int, ...]) -> None:
    m = Match(load_rules("bsfyi-41"))
    with pytest.raises(IllegalDeal) as e:
        m.apply(Deal(bad))
    assert e.value.rule == "deal.deck"
    assert m.phase is Phase.DEAL and not m.history


# -------------------------------------------------------------- bidding
def test_bid_six_refused_only_in_card_kings() -> None:
    m = at_bidding("card-kings-41")
    with pytest.raises(IllegalBid) as e:
        m.apply(Bid(6))
    assert e.value.rule == "bid.excluded" and "seat 1" in str(e.value) and "bid:6" in str(e.value)
    for rid in ("bsfyi-41", "eram-41", "tarneeb-400"):
        m = at_bidding(rid)
        m.apply(Bid(6))
        assert m.to_move == 2


@pytest.mark.parametrize("rid", ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400"])
def test_no_pass_in_the_41_family(rid: str) -> None:
    m = at_bidding(rid)
    assert Bid(None) not in m.legal_actions()
    with pytest.raises(IllegalBid) as e:
        m.apply(Bid(None))
    assert e.value.rule == "bid.no-pass"


def test_card_during_bidding_is_wrong_phase() -> None:
    m = at_bidding("eram-41")
    with pytest.raises(WrongPhase):
        m.apply(Play(cards_of(m.hands[1])[0]))


@pytest.mark.parametrize(("rid", "same"), [("card-kings-41", True), ("bsfyi-41", False), ("eram-41", False), ("tarneeb-400", False)])
def test_low_total_redeals_with_the_ruleset_dealer(rid: str, same: bool) -> None:
    m = at_bidding(rid, dealer=1)
    for _ in range(4):
        m.apply(Bid(2))
    assert m.phase is Phase.DEAL and m.redeals == 1
    assert m.records[-1].redeal == "bid.total"
    assert m.dealer == (1 if same else 2)
    assert m.scores == [0, 0, 0, 0]


def test_threshold_exactly_met_is_played_and_first_bidder_leads() -> None:
    m = at_bidding("eram-41", dealer=3)
    for b in (3, 3, 3, 2):
        m.apply(Bid(b))
    assert m.phase is Phase.PLAY and m.to_move == 0


def test_events_word_the_shown_card_the_contract_and_the_notes() -> None:
    """HandRecord.events is worded on demand from the record: the same sentences, in the same order."""
    m = at_bidding("card-kings-41", dealer=1)
    deck = deck_from(0)
    for _ in range(4):
        m.apply(Bid(2))
    assert m.records[-1].events == [f"trump.source: the dealer, player 2, shows {card_str(deck[51])}",
                                    "bid.total: bids total 8, below 11; hand cancelled"]
    m = at_bidding("classic", dealer=0)
    m.apply(Bid(None))
    m.apply(Bid(8))
    m.apply(Bid(None))
    m.apply(Bid(None))
    m.apply(NameTrump(2))
    rec = m.record
    assert rec is not None and rec.events == ["contract bid:8 by player 3"]


def test_rising_minimum_in_400() -> None:
    m = Match.at(load_rules("tarneeb-400"), 0, [0, 41, 0, 30])
    m.apply(Deal(deck_from(0)))
    assert [a.n for a in m.legal_actions() if isinstance(a, Bid)][0] == 4  # seat 1 at 41
    with pytest.raises(IllegalBid) as e:
        m.apply(Bid(3))
    assert e.value.rule == "bid.rising-min"


# ----------------------------------------------------------------- play
def _to_play(rid: str, seed: int = 3, **opts: object) -> Match:
    m = Match(load_rules(rid, opts), first_dealer=0)
    m.apply(Deal(deck_from(seed)))
    while m.phase is Phase.BIDDING:
        m.apply(Bid(4) if m.rules.individual else m.legal_actions()[-1])
    if m.phase is Phase.TRUMP_CHOICE:
        m.apply(NameTrump(0))
    return m


def test_must_follow_suit() -> None:
    m = _to_play("bsfyi-41")
    lead = cards_of(m.hands[m.to_move])[0]
    m.apply(Play(lead))
    hand = m.hands[m.to_move]
    follow = hand & SUIT_MASKS[lead // 13]
    other = hand & ~follow
    if follow and other:
        bad = cards_of(other)[0]
        with pytest.raises(IllegalPlay) as e:
            m.apply(Play(bad))
        assert e.value.rule == "play.follow" and "trick so far" in str(e.value)
        assert set(m.legal_actions()) == {Play(c) for c in cards_of(follow)}
    else:
        assert set(m.legal_actions()) == {Play(c) for c in cards_of(hand)}


def test_card_not_in_hand_is_refused() -> None:
    m = _to_play("eram-41")
    other_seat = (m.to_move + 1) % 4
    c = cards_of(m.hands[other_seat])[0]
    with pytest.raises(IllegalPlay):
        m.apply(Play(c))


@pytest.mark.parametrize("bad", [-1, 52, 99, "AS", 2.0])
def test_a_play_that_is_no_card_is_an_illegal_play(bad: Any) -> None:
    """A Play whose card is not a card number 0..51 is refused as IllegalPlay naming play.follow (it raised
    ValueError or showed a real card's name before)."""
    m = at_bidding("bsfyi-41", dealer=0)
    for b in (4, 4, 4, 4):
        m.apply(Bid(b))
    assert phase(m) is Phase.PLAY
    with pytest.raises(IllegalPlay, match=r"play:<card .*the card is not in the player's hand") as e:
        m.apply(Play(bad))
    assert e.value.rule == "play.follow"
    with pytest.raises(IllegalPlay):
        m.play_card(bad)


@pytest.mark.parametrize(("rid", "opts", "bad"), [
    ("bsfyi-41", {}, Bid(2.5)), ("bsfyi-41", {}, Bid("x")), ("bsfyi-41", {}, Bid(True)),  # type: ignore[arg-type]
    ("classic", {}, Bid(7.5)), ("classic", {}, Bid("x")),  # type: ignore[arg-type]
    ("classic", {"egyptian": True}, Bid(8, 2.0)), ("classic", {"egyptian": True}, Bid(8.0, 2)),  # type: ignore[arg-type]
])
def test_a_bid_that_is_no_whole_number_is_illegal(rid: str, opts: dict[str, object], bad: Bid) -> None:
    """A bid of a fractional, textual or boolean number of tricks (or strain) is refused as IllegalBid (bsfyi-41
    took 2.5 and classic 7.5 before; a text raised TypeError)."""
    m = at_bidding(rid, 0, 0, **opts)
    while phase(m) is Phase.DEAL:
        m.apply(Deal(deck_from(1)))
    with pytest.raises(IllegalBid):
        m.apply(bad)


@pytest.mark.parametrize("bad", [2.0, "S", -1, 4])
def test_a_trump_that_is_no_suit_is_illegal(bad: Any) -> None:
    m = at_bidding("classic", dealer=0)
    for b in (Bid(None), Bid(8), Bid(None), Bid(None)):
        m.apply(b)
    assert phase(m) is Phase.TRUMP_CHOICE
    with pytest.raises(IllegalTrump):
        m.apply(NameTrump(bad))


def test_must_trump_when_void() -> None:
    rules = load_rules("classic", {"must_trump": True})
    hand = (0x1FFF << 13) | 0b111  # all diamonds + 2,3,4 of clubs ... led spades: void in spades
    mask = R.legal_play_mask(rules, hand, 3, 0)
    assert mask == 0b111  # must trump with clubs
    r2 = load_rules("classic")
    assert R.legal_play_mask(r2, hand, 3, 0) == hand
    assert R.play_violation(rules, hand, 3, 0, 13) == ("play.must-trump",
                                                   "the player is void in the led suit, holds a trump and must trump")


def test_trick_winner_rules() -> None:
    c = parse_card
    assert R.trick_winner([c("2H"), c("AH"), c("KS"), c("3H")], trump=0) == 1
    assert R.trick_winner([c("2H"), c("AH"), c("2C"), c("3H")], trump=0) == 2
    assert R.trick_winner([c("2H"), c("AS"), c("KS"), c("3H")], trump=-1) == 3
    assert R.trick_winner([c("2H"), c("3C"), c("5C"), c("AS")], trump=0) == 2
    assert R.trick_winner([c("TD"), c("AS"), c("KS"), c("3H")], trump=4) == 0  # no trump


# ------------------------------------------------------ whole matches
@given(seed=st.integers(0, 10**6), rid=st.sampled_from(RULESETS), policy=st.sampled_from(["heuristic", "random"]))
def test_every_hand_is_13_tricks_of_every_card(seed: int, rid: str, policy: str) -> None:
    res = play_match(load_rules(rid), seed, policy=policy, max_hands=6)
    m = res.match
    for rec in m.records:
        if rec.redeal is not None:
            assert not rec.tricks and rec.deltas == [0, 0, 0, 0]
            continue
        assert len(rec.tricks) == 13
        played = [c for t in rec.tricks for c in t.cards]
        assert sorted(played) == list(range(52))
        assert sum(rec.tricks_won) == 13
        for i, t in enumerate(rec.tricks):
            if i:
                assert t.leader == rec.tricks[i - 1].winner
        # each seat's cards are exactly its dealt hand
        hands = R.deal_hands(m.rules, rec.dealer, rec.deck)
        for t in rec.tricks:
            for k, card in enumerate(t.cards):
                seat = (t.leader + m.rules.step * k) % 4
                assert hands[seat] >> card & 1


@given(seed=st.integers(0, 10**6), variant=st.sampled_from(range(len(CLASSIC_VARIANTS))))
def test_classic_variants_run_and_replay(seed: int, variant: int) -> None:
    rules = load_rules("classic", CLASSIC_VARIANTS[variant])
    res = play_match(rules, seed, policy="random", max_hands=4)
    m = res.match
    again = Match.replay(rules, m.first_dealer, m.history)
    assert again.scores == m.scores and again.phase == m.phase and again.redeals == m.redeals
    for rec in m.records:
        if rec.redeal is None:
            assert rec.contract is not None and rec.tricks[0].leader == rec.contract[0]
            assert rec.deltas[0] == rec.deltas[2] and rec.deltas[1] == rec.deltas[3]


def test_same_seed_same_match_and_text_actions_round_trip() -> None:
    rules = load_rules("bsfyi-41")
    a = play_match(rules, 42, policy="heuristic")
    b = play_match(rules, 42, policy="heuristic")
    assert a.to_json() == b.to_json()
    assert a.winner is not None
    texts = [str(x) for x in a.match.history]
    again = Match.replay(rules, a.first_dealer, [parse_action(t) for t in texts])
    assert again.scores == a.match.scores and again.winner == a.winner


def test_max_hands_reports_unfinished() -> None:
    res = play_match(load_rules("eram-41"), 1, policy="random", max_hands=3)
    assert res.hands == 3 and res.winner is None and res.to_json()["finished"] is False


@pytest.mark.parametrize("rid", RULESETS)
def test_heuristic_matches_finish(rid: str) -> None:
    for i in range(3):
        res = play_match(load_rules(rid), "finish", i)
        assert res.winner in (0, 1)
        t = res.final_scores
        if rid != "classic" and res.winner_rule == "win.qualify":
            w = res.winner
            assert (t[w] >= 41 and t[w + 2] > 0) or (t[w + 2] >= 41 and t[w] > 0)


def test_seat_view_hides_other_hands() -> None:
    m = at_bidding("card-kings-41", dealer=0, seed=9)
    for seat in range(4):
        v = m.view(seat)
        assert set(v.hand) == set(cards_of(m.hands[seat]))
        assert v.revealed == m.record.deck[51]  # type: ignore[union-attr]
        others = {c for s in range(4) if s != seat for c in cards_of(m.hands[s])}
        assert not others & set(v.hand)
        assert "hands" not in v.__slots__


# ------------------------------------------------------------ auction
def test_dealer_privilege_match_and_trump_choice() -> None:
    m = at_bidding("classic", dealer=3)
    for a in ("bid:7", "bid:pass", "bid:8", "bid:8"):
        m.apply(parse_action(a))
    assert m.phase is Phase.TRUMP_CHOICE and m.to_move == 3
    m.apply(NameTrump(2))
    assert phase(m) is Phase.PLAY and m.to_move == 3 and m.trump == 2


def test_continuous_auction_goes_round() -> None:
    m = at_bidding("classic", dealer=3, auction="continuous")
    for a in ("bid:7", "bid:pass", "bid:8", "bid:pass", "bid:9"):
        m.apply(parse_action(a))
    assert m.phase is Phase.BIDDING and m.to_move == 2
    m.apply(parse_action("bid:pass"))
    assert phase(m) is Phase.TRUMP_CHOICE and m.to_move == 0


def test_dealer_forced_after_three_passes() -> None:
    m = at_bidding("classic", dealer=3, all_pass="dealer-forced")
    for _ in range(3):
        m.apply(Bid(None))
    legal = m.legal_actions()
    assert Bid(None) not in legal and Bid(7) in legal
    with pytest.raises(IllegalBid) as e:
        m.apply(Bid(None))
    assert e.value.rule == "auction.all-pass"


def test_egyptian_no_trump_contract() -> None:
    m = at_bidding("classic", dealer=3, egyptian=True)
    for a in ("bid:8H", "bid:8N", "bid:pass", "bid:pass"):
        m.apply(parse_action(a))
    assert m.phase is Phase.PLAY and m.trump == 4 and m.to_move == 1
    with pytest.raises(IllegalBid):
        m2 = at_bidding("classic", dealer=3, egyptian=True)
        m2.apply(Bid(8))  # a bid without a strain


def test_weak_hand_redeal() -> None:
    rules = load_rules("classic", {"weak_redeal": True})
    # seat 1 gets all the 2s..5s except some: build a deck where seat 1 (first dealt) holds no J, Q, K, A
    low = [c for c in range(52) if c % 13 < 9]
    high = [c for c in range(52) if c % 13 >= 9]
    seat1 = low[:13]
    rest = low[13:] + high
    deck = []
    for i in range(13):
        deck += [seat1[i], rest[3 * i], rest[3 * i + 1], rest[3 * i + 2]]
    m = Match(rules, first_dealer=0)
    m.apply(Deal(tuple(deck)))
    assert m.phase is Phase.DEAL and m.records[-1].redeal == "deal.weak-redeal" and m.dealer == 1


def test_clockwise_direction() -> None:
    m = at_bidding("classic", dealer=0, direction="cw")
    assert m.to_move == 3
    m.apply(Bid(None))
    assert m.to_move == 2


# -------------------------------------------------------------- timer
def test_timer_plays_weakest_card_by_reading() -> None:
    m = _to_play("eram-41", seed=11)
    a = m.timeout_action()
    assert isinstance(a, Play)
    legal = cards_of(m.legal_play_mask())
    non_trump = [c for c in legal if c // 13 != m.trump] or legal
    assert a.card == min(non_trump, key=lambda c: (c % 13, c // 13))
    m2 = _to_play("eram-41", seed=11, timer_weakest="lowest-rank")
    b = m2.timeout_action()
    assert isinstance(b, Play) and b.card == min(legal, key=lambda c: (c % 13, c // 13))


def test_policies_only_play_legal_actions() -> None:
    for name, pol in POLICIES.items():
        for rid in RULESETS:
            m = Match(load_rules(rid), 0)
            rng = random.Random(name + rid)
            for _ in range(120):
                if m.phase is Phase.OVER:
                    break
                if m.phase is Phase.DEAL:
                    m.apply(Deal(deck_from(rng.randrange(1000))))
                    continue
                a = pol(m, rng)
                assert a in m.legal_actions()
                m.apply(a)


def test_match_can_start_from_given_scores() -> None:
    m = Match(load_rules("card-kings-41"), first_dealer=0, scores=[40, 0, 5, 0])
    m.apply(Deal(deck_from(1)))
    assert m.scores == [40, 0, 5, 0]
    assert m.copy().scores == [40, 0, 5, 0]
    with pytest.raises(IllegalDeal) as e:
        Match(load_rules("classic"), scores=[10, 0, 9, 0])
    assert e.value.rule == "seats.partners"
    m400 = Match(load_rules("tarneeb-400"), scores=[41, 0, 0, 0])
    m400.apply(Deal(deck_from(2)))
    m400.apply(Bid(2))  # seat 1 has 0 points
    m400.apply(Bid(2))  # seat 2
    m400.apply(Bid(2))  # seat 3
    with pytest.raises(IllegalBid):
        m400.apply(Bid(3))  # seat 0 (the dealer) is at 41: lowest bid 4


def _every_option_value() -> list[tuple[str, dict[str, object]]]:
    from tarneeb import rulesets

    out: list[tuple[str, dict[str, object]]] = []
    for rid, rs in rulesets().items():
        out.append((rid, {}))
        for o in rs.options:
            values = o.allowed if o.range is None else (o.range[0], 41)  # a raise of 1000 is a very long match
            for v in values:
                if v != o.default:
                    out.append((rid, {o.name: v}))
    return out


@pytest.mark.parametrize(("rid", "opts"), _every_option_value(), ids=lambda x: str(x))
def test_every_option_value_plays_end_to_end(rid: str, opts: dict[str, object]) -> None:
    """Every option value of every ruleset deals, bids, plays and scores whole hands; heuristic matches finish."""
    rules = load_rules(rid, opts)
    res = play_match(rules, "options", policy="heuristic", max_hands=300)
    assert res.winner in (0, 1), f"{rules.label()} did not finish in 300 hands"
    played = [rec for rec in res.match.records if rec.redeal is None]
    assert played and all(len(rec.tricks) == 13 for rec in played)
    rnd = play_match(rules, "options", policy="random", max_hands=3)
    assert rnd.hands == 3 or rnd.winner is not None


def test_match_at_builds_a_checked_state_part_way() -> None:
    classic = load_rules("classic", {"play_on": 41})
    m = Match.at(classic, 2, [30, 12, 30, 12], classic.target + classic.play_on_raise)
    assert (m.dealer, m.scores, m.games, m.phase) == (2, [30, 12, 30, 12], [0], Phase.DEAL)
    assert m.target == classic.target + classic.play_on_raise
    assert Match.at(classic, 0).target == classic.target and Match.at(classic, 0).games == []
    bad: list[tuple[dict[str, Any], str]] = [
        ({"dealer": 4}, "deal.first-dealer"),
        ({"scores": [1, 2, 3]}, "seats.partners"),
        ({"scores": [10, 0, 9, 0]}, "seats.partners"),  # partners disagree in a team game
        ({"scores": [1.5, 0, 1.5, 0]}, "seats.partners"),
        ({"target": classic.target + 1}, "win.play-on"),
        ({"target": classic.target, "games": [1]}, "win.play-on"),
        ({"games": [2]}, "win.play-on"),
    ]
    for kw, rule in bad:
        args: dict[str, Any] = {"dealer": 0, **kw}
        with pytest.raises(IllegalDeal) as e:
            Match.at(classic, **args)
        assert e.value.rule == rule, kw
    # a verifier may go on from a record whose partners' scores disagree (already reported)
    assert Match.at(classic, 1, [10, 0, 9, 0], partners_agree=False).scores == [10, 0, 9, 0]
    ind = load_rules("bsfyi-41")
    assert Match.at(ind, 3, [40, -5, 12, 7]).scores == [40, -5, 12, 7]


def test_copy_of_a_match_built_part_way_keeps_its_target_and_games() -> None:
    classic = load_rules("classic", {"play_on": 41})
    m = Match.at(classic, 1, [50, 10, 50, 10], classic.target + 41)
    m.apply(Deal(random_deck(random.Random(3))))
    c = m.copy()
    assert (c.target, c.games, c.scores, c.dealer, c.phase) == (m.target, m.games, m.scores, m.dealer, m.phase)
    assert c.history == m.history and c.legal_actions() == m.legal_actions()


@pytest.mark.parametrize("fn", ["legal_bids", "min_bid_for"])
def test_legal_bids_follow_a_patched_rule(monkeypatch: pytest.MonkeyPatch, fn: str) -> None:
    """Match keeps the legal bids per rules object and score; a rule replaced afterwards (as a proof's engine
    mutant is, e.g. engine-rising-min-strict on min_bid_for) gives its own answer, not the kept one."""
    rules = load_rules("tarneeb-400")

    def at_bidding() -> Match:
        m = Match.at(rules, 0, [30, 0, 0, 0])  # seat 1 bids first
        for seed in range(100):
            m2 = m.copy()
            m2.apply(Deal(random_deck(random.Random(seed))))
            if m2.phase is Phase.BIDDING:
                return m2
        raise AssertionError("no deal reached the bidding")

    m = at_bidding()
    before = list(m.legal_actions())  # the table is filled
    orig = getattr(R, fn)
    if fn == "min_bid_for":
        monkeypatch.setattr(R, fn, lambda rr, score: orig(rr, score) + 1)
    else:
        monkeypatch.setattr(R, fn, lambda rr, score: orig(rr, score)[1:])
    after = list(at_bidding().legal_actions())
    assert after == before[1:]


def test_every_error_with_its_own_fields_survives_pickle() -> None:
    """A proof worker's result, a Dask task: an error crossing a process must arrive whole. An IllegalAction that
    could not be unpickled broke prove's worker pool with a traceback (a held-out mutant's counterexample)."""
    import pickle

    from tarneeb import errors as E

    cases: list[Exception] = [
        E.IllegalPlay("play:AS", 2, "play.follow", "must follow", "state"), E.IllegalDeal("deal", None, "deal.deck", "x", "s"),
        E.SpecError("f.toml", "k", "bad"), E.ConfigError("classic", "k", "bad"),
        E.SituationError("s.toml", ["a", "b"], "bad"), E.EngineFailure("timeout", "node e.js", "silent"),
        E.EngineRejected({"cmd": "hello"}, "no")]
    for e in cases:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e) and vars(back) == vars(e), e
