"""The referee's turn order, new question kinds, quick input, short answers, Arabic output and the register.

Each check compares with the state machine (:class:`tarneeb.Match`) or with hand-computed numbers, so that a
referee that ignores whose turn it is, or gets the arithmetic wrong, fails here.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarneeb import Match, load_rules
from tarneeb.cli import main
from tarneeb.core.actions import BIDS, Deal
from tarneeb.core.ambiguity import ambiguities
from tarneeb.core.cards import card_str
from tarneeb.core.match import Phase
from tarneeb.ruling import SituationError, load_situation, parse_situation, report_json, report_text, resolve, rule_dict
from tarneeb.ruling.arabic import LRI, PDI, RLI
from tarneeb.ruling.inputs import club_default

INDIVIDUAL = ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400"]
DISPUTES = Path(__file__).resolve().parents[1] / "spec" / "disputes"


def _rule(raw: dict[str, Any]) -> dict[str, Any]:
    rep = resolve(parse_situation(raw, "case.toml"))
    assert len(rep.rulings) == 1
    x = rep.rulings[0]
    assert x.status == "ruled", x.text
    return dict(x.answer, _text=x.text, _math=str(x.math), _clauses=[c.id for c in x.clauses])


def _dealt(rid: str, dealer: int, rnd: random.Random, **opts: Any) -> Match:
    m = Match(load_rules(rid, opts), dealer)
    deck = list(range(52))
    rnd.shuffle(deck)
    m.apply(Deal(tuple(deck)))
    return m


# ------------------------------------------------------------------ turn order against the state machine


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(INDIVIDUAL), st.integers(0, 3), st.integers(0, 3), st.randoms(use_true_random=False))
def test_bid_turn_agrees_with_match(rid: str, dealer: int, made: int, rnd: random.Random) -> None:
    m = _dealt(rid, dealer, rnd)
    bids: dict[str, int] = {}
    for _ in range(made):
        bids[str(m.to_move)] = 4
        m.apply(BIDS[4])
    for seat in range(4):
        if str(seat) in bids:
            continue
        ans = _rule({"ruleset": rid, "dealer": dealer, "bids": bids, "scores": [0, 0, 0, 0],
                     "question": {"kind": "bid-legal", "seat": seat, "bid": 4}})
        assert ans["legal"] == (seat == m.to_move), (seat, m.to_move, ans["_text"])
        if seat != m.to_move:
            assert ans["turn"] == m.to_move and ans["clause"] == "bid.turn"
    turn = _rule({"ruleset": rid, "dealer": dealer, "bids": bids, "question": {"kind": "whose-turn"}})
    assert turn["seat"] == m.to_move and turn["phase"] == "bidding"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.lists(st.sampled_from(["pass", "7", "8", "9"]), max_size=3),
       st.randoms(use_true_random=False))
def test_auction_turn_agrees_with_match(dealer: int, calls: list[str], rnd: random.Random) -> None:
    m = _dealt("classic", dealer, rnd)
    made: list[str] = []
    for c in calls:
        b = BIDS[0] if c == "pass" else BIDS[int(c)]
        probe = m.copy()
        try:
            probe.apply(b if c != "pass" else BIDS[0].__class__(None))
        except Exception:
            break
        m = probe
        made.append(c)
    if m.phase is not Phase.BIDDING:
        return
    for seat in range(4):
        ans = _rule({"ruleset": "classic", "dealer": dealer, "auction": made,
                     "question": {"kind": "bid-legal", "seat": seat, "bid": 13}})
        assert ans["legal"] == (seat == m.to_move), (made, seat, m.to_move)
    turn = _rule({"ruleset": "classic", "dealer": dealer, "auction": made, "question": {"kind": "whose-turn"}})
    assert turn["seat"] == m.to_move


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.lists(st.sampled_from(["pass", "7", "8", "9", "10"]), min_size=4, max_size=8),
       st.randoms(use_true_random=False))
def test_an_auction_settles_who_leads_as_match_does(dealer: int, calls: list[str], rnd: random.Random) -> None:
    """Classic's who-leads and whose-turn take the auction alone (no contract stated): the contract it ends with,
    as the state machine makes it, names trump and leads (the dealer's match of the top bid takes the contract)."""
    from tarneeb.core.actions import NameTrump

    m = _dealt("classic", dealer, rnd)
    made: list[str] = []
    for c in calls:
        if m.phase is not Phase.BIDDING:
            break
        b = BIDS[0].__class__(None) if c == "pass" else BIDS[int(c)]
        probe = m.copy()
        try:
            probe.apply(b)
        except Exception:
            continue
        m = probe
        made.append(c)
    if m.phase is not Phase.TRUMP_CHOICE:
        return
    base = {"ruleset": "classic", "dealer": dealer, "auction": made}
    turn = _rule({**base, "question": {"kind": "whose-turn"}})
    assert (turn["seat"], turn["phase"]) == (m.to_move, "trump"), (made, turn["_text"])
    assert turn["contract"]["seat"] == m.auction_holder, (made, turn["_text"])
    m.apply(next(a for a in m.legal_actions() if isinstance(a, NameTrump)))
    who = _rule({**base, "question": {"kind": "who-leads"}})
    assert who["leader"] == m.to_move and who["trick"] == 1, (made, who["_text"])
    assert "auction.dealer-privilege" in who["_clauses"]


def test_the_dealers_match_takes_the_contract_and_the_lead(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule document 002, "Bidding for tricks": the dealer who says the top bid's number takes the contract. Player 1
    deals; players 2 and 3 bid 7 and 8, player 4 passes, the dealer says 8: player 1 holds the contract and leads."""
    args = ["ruling", "who-leads", "--ruleset", "classic", "--dealer", "1", "--auction", "7,8,pass,8"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Player 1 leads trick 1: the auction ends with player 1's bid of 8 as the contract" in out, out
    assert main([*args[:-1], "7,8,pass,pass"]) == 0
    assert "Player 3 leads trick 1" in capsys.readouterr().out
    assert main(["ruling", "whose-turn", "--ruleset", "classic", "--dealer", "1", "--auction", "7,8,pass,8"]) == 0
    assert "Player 1 names trump next" in capsys.readouterr().out
    assert main([*args[:-1], "7,8"]) == 2  # not over: no contract yet
    assert "the auction is not over: player 4 calls next" in capsys.readouterr().err


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(INDIVIDUAL), st.integers(0, 3), st.integers(0, 5), st.randoms(use_true_random=False))
def test_leads_agree_with_match(rid: str, dealer: int, n_tricks: int, rnd: random.Random) -> None:
    m = _dealt(rid, dealer, rnd)
    assert m.record is not None
    deck = m.record.deck
    for _ in range(4):
        m.apply(BIDS[4])
    history = []
    for _ in range(n_tricks):
        leader, cards = m.to_move, []
        for _ in range(4):
            c = rnd.choice([c for c in range(52) if m.legal_play_mask() >> c & 1])
            cards.append(card_str(c))
            m.play_card(c)
        history.append({"leader": leader, "cards": cards})
    base = {"ruleset": rid, "dealer": dealer, "revealed": card_str(deck[51]), "history": history}
    who = _rule({**base, "question": {"kind": "who-leads"}})
    assert who["leader"] == m.to_move
    hand = [card_str(c) for c in range(52) if m.hands[m.to_move] >> c & 1]
    for seat in range(4):
        card = hand[0] if seat == m.to_move else None
        if card is None:
            continue
        ans = _rule({**base, "hands": {str(seat): hand}, "question": {"kind": "card-legal", "seat": seat,
                                                                       "card": card}})
        assert ans["legal"] is True
    other = (m.to_move + 1) % 4
    ans = _rule({**base, "question": {"kind": "card-legal", "seat": other, "card": hand[0]}})
    assert ans["legal"] is False and ans["turn"] == m.to_move
    assert ans["clause"] == ("play.lead" if n_tricks == 0 else "play.next-lead")
    if n_tricks >= 2:  # a later trick led by the wrong seat contradicts the facts
        bad = json.loads(json.dumps(history))
        bad[-1]["leader"] = (bad[-1]["leader"] + 1) % 4
        with pytest.raises(SituationError, match="play.next-lead"):
            resolve(parse_situation({**base, "history": bad, "question": {"kind": "who-leads"}}, "case.toml"))


def test_the_issue_example_first_lead() -> None:
    """Dealer 1, no trick played, seat 3 leads: the first bidder (seat 2) leads under play.lead."""
    ans = _rule({"ruleset": "card-kings-41", "dealer": 1, "question": {"kind": "card-legal", "seat": 3,
                                                                        "card": "AS"}})
    assert ans["legal"] is False and ans["turn"] == 2 and ans["_clauses"][0] == "play.lead"
    ok = _rule({"ruleset": "card-kings-41", "dealer": 1, "question": {"kind": "card-legal", "seat": 2, "card": "AS"}})
    assert ok["legal"] is True


def test_play_out_of_turn_mid_trick() -> None:
    ans = _rule({"ruleset": "card-kings-41", "trick": {"leader": 1, "cards": ["KD"]}, "revealed": "9C",
                 "question": {"kind": "card-legal", "seat": 3, "card": "2D"}})
    assert ans["legal"] is False and ans["turn"] == 2 and ans["clause"] == "play.direction"
    cw = _rule({"ruleset": {"id": "classic", "options": {"direction": "cw"}}, "contract": {"seat": 1, "bid": 7,
                "trump": "S"}, "trick": {"leader": 1, "cards": ["KD"]},
                "question": {"kind": "whose-turn"}})
    assert cw["seat"] == 0


def test_led_suit_without_a_card() -> None:
    base = {"ruleset": "card-kings-41", "revealed": "9C", "trick": {"leader": 1, "led": "D"}}
    no = _rule({**base, "hands": {"2": ["3C", "4D"]}, "question": {"kind": "card-legal", "seat": 2, "card": "3C"}})
    assert no["legal"] is False and no["clause"] == "play.follow"
    yes = _rule({**base, "voids": {"2": ["D"]}, "question": {"kind": "card-legal", "seat": 2, "card": "3C"}})
    assert yes["legal"] is True


# ------------------------------------------------------------------ sequences, one seat, arithmetic


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(INDIVIDUAL), st.integers(0, 3), st.lists(st.booleans(), min_size=1, max_size=4),
       st.randoms(use_true_random=False))
def test_deal_sequence_agrees_with_match(rid: str, dealer: int, low: list[bool], rnd: random.Random) -> None:
    m = Match(load_rules(rid), dealer)
    deals = []
    for cancel in low:
        deck = list(range(52))
        rnd.shuffle(deck)
        m.apply(Deal(tuple(deck)))
        bids = {}
        for _ in range(4):
            b = 2 if cancel else 4
            bids[str(m.to_move)] = b
            m.apply(BIDS[b])
        deals.append({"bids": [bids[str(k)] for k in range(4)]})
        if not cancel:
            break
    # after a played deal the next dealer is the one after it; the match is in play, so compute from the rule
    ans = _rule({"ruleset": rid, "dealer": dealer, "deals": deals, "question": {"kind": "next-dealer"}})
    if all(low[:len(deals)]):
        assert m.phase is Phase.DEAL and ans["dealer"] == m.dealer
    else:
        assert ans["dealer"] == (m.dealer + 1) % 4


def test_one_seat_score_equals_the_whole_hand() -> None:
    for rid in INDIVIDUAL:
        whole = _rule({"ruleset": rid, "bids": [5, 2, 2, 2], "tricks": [6, 3, 2, 2], "scores": [20, 0, 0, 0],
                       "question": {"kind": "score"}})
        one = _rule({"ruleset": rid, "bids": {"0": 5}, "tricks": {"0": 6}, "scores": {"0": 20},
                     "question": {"kind": "score", "seat": 0}})
        assert one["delta"] == whole["deltas"][0] and one["score"] == whole["scores"][0]
        assert one["_math"].endswith(f"20 + {one['delta']} = {20 + one['delta']}")


def test_arithmetic_is_shown() -> None:
    tie = _rule({"ruleset": "card-kings-41", "scores": [41, 50, 10, 1], "question": {"kind": "winner"}})
    assert tie["winner"] is None and tie["_math"] == "combined 41+10 = 51, 50+1 = 51: 51 = 51"
    top = _rule({"ruleset": "bsfyi-41", "scores": [41, 50, 10, 1], "question": {"kind": "winner"}})
    assert top["winner"] == 1 and top["_math"] == "top score 41 (of 41, 10) < 50 (of 50, 1)"
    low = _rule({"ruleset": "card-kings-41", "dealer": 2, "bids": [2, 3, 2, 2], "question": {"kind": "redeal"}})
    assert low["_math"] == "2+3+2+2 = 9 < 11"
    team = _rule({"ruleset": "classic", "scores": [10, 5], "contract": {"seat": 0, "bid": 7},
                  "tricks": [5, 1, 3, 4], "question": {"kind": "score"}})
    assert team["_math"] == "team 1 took 8 >= 7; team 1 10 + 8 = 18, team 2 5 + 0 = 5"


# ------------------------------------------------------------------ the scores before and after the hand

# Both scores given, disagreeing on the winner: before the hand no team has won, after it one has. Classic: team 1
# bid 8 and fell short (-8), team 2 scored its 8 tricks; card-kings-41: bids 3, 2, 5, 2, each made.
BEFORE_AFTER: dict[str, tuple[list[int], list[int], int]] = {
    "classic": ([35, 38, 35, 38], [27, 46, 27, 46], 1),
    "card-kings-41": ([38, 10, 5, 5], [41, 12, 10, 7], 0),
}


@pytest.mark.parametrize("rid", list(BEFORE_AFTER))
@pytest.mark.parametrize("by_seat", [False, True], ids=["list", "table"])
def test_who_has_won_is_judged_on_the_scores_after_the_hand(rid: str, by_seat: bool) -> None:
    """``scores`` and ``scores_after`` both given and disagreeing on the winner: the winner is judged on the scores
    after the hand, given as a list or as a table by seat (which was dropped without a word, so the scores before
    were judged), in English and in Arabic."""
    before, after, winner = BEFORE_AFTER[rid]
    on_before = _rule({"ruleset": rid, "scores": before, "question": {"kind": "winner"}})
    assert on_before["winner"] is None
    stated: Any = {str(k): v for k, v in enumerate(after)} if by_seat else after
    raw = {"ruleset": rid, "scores": before, "scores_after": stated, "question": {"kind": "winner"}}
    got = _rule(raw)
    assert got["winner"] == winner and got["scores"][:2] == after[:2], got["_text"]
    ar = rule_dict(raw, lang="ar")["rulings"][0]
    said = ar["ruling_ar"]
    assert all(str(v) in said for v in after) and str(before[0]) not in said, said


def test_scores_after_by_seat_must_name_every_seat() -> None:
    """A table of scores after the hand that leaves a seat out is refused, naming the seats missing (counted
    from 1 in words), not judged on the scores before."""
    with pytest.raises(SituationError, match="missing: player 3, player 4") as e:
        parse_situation({"ruleset": "classic", "scores": [30, 38], "scores_after": {"0": 41, "1": 38},
                         "question": {"kind": "winner"}}, "case.toml")
    assert e.value.file == "case.toml" and e.value.fields == ("scores_after.2", "scores_after.3")


def test_scores_after_of_the_other_family_are_not_applicable() -> None:
    """Partners with different scores after the hand, and none given before it, are of the individual family: the
    team game does not judge them (it judged team 1 on player 1's score alone), as with the same scores given
    before the hand."""
    for key in ("scores", "scores_after"):
        rep = resolve(parse_situation({"ruleset": "all", key: [41, 5, 30, 5], "question": {"kind": "winner"}}))
        by = {x.ruleset: x for x in rep.rulings}
        assert by["classic"].status == "not-applicable", (key, by["classic"].text)
        assert by["card-kings-41"].status == "ruled"


def test_partners_scores_after_a_team_hand_change_alike() -> None:
    """The team game, each player's score given before and after the hand: a change of team 1 a hand can make
    (a kaboot's +16) with player 3 moved by less is a contradiction, not a win judged on player 1's score."""
    raw = {"ruleset": "classic", "scores": [30, 5, 30, 5], "scores_after": [46, 5, 40, 5], "question": {"kind": "winner"}}
    with pytest.raises(SituationError, match=r"players 1 to 4 change by \(\+16, 0, \+10, 0\).*\(\+16, 0, \+16, 0\)") as e:
        resolve(parse_situation(raw, "case.toml"))
    assert e.value.fields == ("scores", "scores_after")
    assert _rule({**raw, "scores_after": [46, 5, 46, 5]})["winner"] == 0


# ------------------------------------------------------------------ contradictions per ruleset


def test_one_rulesets_contradiction_leaves_the_others() -> None:
    rep = resolve(parse_situation({"ruleset": "all", "dealer": 0, "revealed": "QH", "trump": "D",
                                   "question": {"kind": "trump"}}, "case.toml"))
    by = {x.ruleset: x for x in rep.rulings}
    assert by["bsfyi-41"].status == "contradiction" and "trump" in by["bsfyi-41"].fields
    assert by["card-kings-41"].status == "ruled" and by["card-kings-41"].answer["trump"] == "D"
    with pytest.raises(SituationError, match="hearts is always trump"):
        resolve(parse_situation({"ruleset": "bsfyi-41", "trump": "D", "question": {"kind": "trump"}}, "c.toml"))


# ------------------------------------------------------------------ irregularities and the register


def test_register_has_no_single_reading_entry() -> None:
    for a in ambiguities():
        assert len(a.readings) >= 2, a.id
    ids = {a.id for a in ambiguities()}
    assert {"forced-dealer-minimum", "revoke-remedy", "bid-out-of-turn", "lead-out-of-turn", "exposed-card",
            "misdeal", "wrong-card-count"} <= ids


@pytest.mark.parametrize("irr", ["revoke", "bid-out-of-turn", "lead-out-of-turn", "exposed-card", "misdeal",
                                 "wrong-card-count"])
def test_irregularities_say_the_documents_are_silent(irr: str) -> None:
    rep = resolve(parse_situation({"ruleset": "all", "question": {"kind": "irregularity", "irregularity": irr}},
                                  "c.toml"))
    for x in rep.rulings:
        assert x.status == "ruled"
        assert "silent" in x.text and x.answer["remedy"] is None
        flag = next(a for a in x.ambiguities if a.id in (irr, "revoke-remedy"))
        assert len(flag.readings) >= 2 and not any(r.taken for r in flag.readings)
        if irr == "exposed-card":
            assert x.answer["breaks"] == [] and not x.clauses  # no clause is invented
        else:
            assert x.answer["breaks"] and [c.id for c in x.clauses] == x.answer["breaks"]


def test_revoke_needs_proof() -> None:
    base: dict[str, Any] = {"ruleset": "card-kings-41", "dealer": 0, "revealed": "2S",
                            "question": {"kind": "irregularity", "irregularity": "revoke", "seat": 2}}
    hist = [{"leader": 1, "cards": ["KD", "3H", "4D", "5D"]}, {"leader": 1, "cards": ["AH", "4H", "5H", "6H"]}]
    clean = _rule({**base, "history": hist})
    assert clean["revoke"] is False
    proved = _rule({**base, "history": hist, "hands": {"2": ["7D"]}})
    assert proved["revoke"] is True and proved["trick"] == 1 and proved["proof"] == "7D"


@pytest.mark.parametrize("rid", ["eram-41", "classic"])
def test_out_of_turn_is_checked_against_whose_turn_it_is(rid: str) -> None:
    """A bid or a lead called out of turn is one only when the facts put another player in turn: the player in
    turn breaks nothing (and no remedy is offered); another breaks the turn clause, with who was in turn."""
    bids: dict[str, Any] = {"bids": [None] * 4} if rid == "eram-41" else {"auction": []}
    lead: dict[str, Any] = {} if rid == "eram-41" else {"contract": {"seat": 0, "bid": 7, "trump": "S"}}
    first_bidder, first_leader = 2, (2 if rid == "eram-41" else 0)  # the dealer is seat 1
    for irr, facts, in_turn in (("bid-out-of-turn", bids, first_bidder), ("lead-out-of-turn", lead, first_leader)):
        for seat in range(4):
            q = {"kind": "irregularity", "irregularity": irr, "seat": seat}
            rep = resolve(parse_situation({"ruleset": rid, "dealer": 1, **facts, "question": q}, "t.toml"))
            x = rep.rulings[0]
            assert x.answer["out_of_turn"] is (seat != in_turn) and x.answer["turn"] == in_turn, (irr, seat, x.answer)
            if seat == in_turn:
                assert x.answer["breaks"] == [] and x.text.startswith("No ")
                assert not any(a.id in (irr, "revoke-remedy") for a in x.ambiguities)
            else:
                assert x.answer["breaks"] and any(a.id == irr for a in x.ambiguities)


# ------------------------------------------------------------------ command line, defaults, records


def test_quick_flags_short_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", "winner", "--scores", "41,50,10,1", "--ruleset", "card-kings-41"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert 2 <= len(out) <= 4  # the question, then one to three lines
    text = "\n".join(out)
    assert "51 equals 51" in text and "tie.both-qualify" in text and "Card Kings" in text
    assert main(["ruling", "winner", "--scores", "41,50,10,1", "--ruleset", "all"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 + 5 + 1 and lines[-1].startswith("The rulesets disagree")


def test_quick_flags_count_players_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Every seat flag a person types counts players 1 to 4, as the answer does; the JSON keeps seats 0 to 3."""
    assert main(["ruling", "card-legal", "--dealer", "1", "--seat", "3", "--card", "AS", "--ruleset",
                 "card-kings-41"]) == 0
    out = capsys.readouterr().out
    assert "Player 3 may not lead: it is player 2's turn" in out and "dealer (player 1)" in out, out
    assert main(["ruling", "card-legal", "--dealer", "1", "--seat", "3", "--card", "AS", "--ruleset",
                 "card-kings-41", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["rulings"][0]["answer"]
    assert (answer["dealer"], answer["seat"], answer["turn"]) == (0, 2, 1)
    # each PLAYER:... flag: the player typed is the seat before it in the situation
    flags = {"--contract": "2:8:S", "--hand-cards": "3:5C,9H", "--void": "4:D", "--trick": "2:KD", "--history":
             "1:2H,KH,3H,4S"}
    from tarneeb.ruling.inputs import situation_from_flags

    raw = situation_from_flags("card-legal", {"contract": flags["--contract"], "hand_cards": [flags["--hand-cards"]],
                                              "void": [flags["--void"]], "trick": flags["--trick"],
                                              "history": [flags["--history"]], "seat": 3, "dealer": 4})
    assert raw["contract"]["seat"] == 1 and list(raw["hands"]) == ["2"] and list(raw["voids"]) == ["3"]
    assert raw["trick"]["leader"] == 1 and raw["history"][0]["leader"] == 0
    assert raw["question"]["seat"] == 2 and raw["dealer"] == 3
    # no player 0 or 5, on any of them
    for flag, value in [("--dealer", "0"), ("--dealer", "5"), ("--seat", "0"), ("--seat", "5"),
                        *((f, "0" + v[1:]) for f, v in flags.items()), *((f, "5" + v[1:]) for f, v in flags.items())]:
        assert main(["ruling", "card-legal", "--card", "AS", "--ruleset", "classic", flag, value]) == 2, (flag, value)
        err = capsys.readouterr().err
        assert flag in err and "players are counted 1 to 4" in err and "Traceback" not in err, (flag, value, err)


def test_explain_is_the_long_form(capsys: pytest.CaptureFixture[str]) -> None:
    f = str(DISPUTES / "tie-equal-combined.toml")
    main(["ruling", f])
    short = capsys.readouterr().out
    main(["ruling", f, "--explain"])
    long = capsys.readouterr().out
    assert "Decided by:" in long and "Decided by:" not in short
    assert len(short.split()) < len(long.split()) / 2


def test_bad_flag_is_located(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", "winner", "--scores", "41,x"]) == 2
    err = capsys.readouterr().err
    assert "--scores" in err and "Traceback" not in err


def test_club_default_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TARNEEB_RULESET", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert club_default() is None
    (tmp_path / "xdg" / "tarneeb").mkdir(parents=True)
    (tmp_path / "xdg" / "tarneeb" / "config.toml").write_text('ruleset = "eram-41"\n')
    assert club_default() is not None and club_default()[0] == "eram-41"  # type: ignore[index]
    (tmp_path / "tarneeb.toml").write_text('[ruling]\nruleset = "bsfyi-41"\n')
    assert club_default()[0] == "bsfyi-41"  # type: ignore[index]
    monkeypatch.setenv("TARNEEB_RULESET", "card-kings-41")
    assert club_default()[0] == "card-kings-41"  # type: ignore[index]
    main(["ruling", "winner", "--scores", "41,50,10,1", "--json"])
    assert [r["ruleset"] for r in json.loads(capsys.readouterr().out)["rulings"]] == ["card-kings-41"]
    main(["ruling", "winner", "--scores", "41,50,10,1", "--json", "--ruleset", "bsfyi-41"])
    assert [r["ruleset"] for r in json.loads(capsys.readouterr().out)["rulings"]] == ["bsfyi-41"]


def test_record_hand_as_situation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    assert main(["record", "--ruleset", "bsfyi-41", "--matches", "1", "--seed", "3", "--out", str(out)]) == 0
    capsys.readouterr()
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    match = lines[0]["match"]
    played = [h for h in lines[1:] if h.get("redeal") is None][0]
    # --hand counts from 1, as verify's human output does (the record's hand field + 1)
    assert main(["ruling", str(out), "--match", match, "--hand", str(played["hand"] + 1), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["rulings"][0]["answer"]["deltas"] == played["deltas"]
    assert f"hand {played['hand'] + 1} (" in json.dumps(rep, ensure_ascii=False)
    assert main(["ruling", str(out), "--hand", str(played["hand"] + 1), "--question", "winner", "--json"]) == 0
    win = json.loads(capsys.readouterr().out)["rulings"][0]
    assert win["status"] == "ruled" and win["answer"]["winner"] == (played["outcome"] or {}).get("winner")
    # the record states hearts as trump: a ruleset whose turned card gives another suit is contradicted
    other = {"H": "D", "D": "H", "S": "C", "C": "S"}
    seen = set()
    for h in lines[1:6]:
        contradicted = other[h["deck"][-1]] != "H"
        seen.add(contradicted)
        assert main(["ruling", str(out), "--hand", str(h["hand"] + 1), "--ruleset", "card-kings-41,bsfyi-41",
                     "--json"]) == 0
        by = {r["ruleset"]: r for r in json.loads(capsys.readouterr().out)["rulings"]}
        assert by["bsfyi-41"]["status"] == "ruled"
        assert (by["card-kings-41"]["status"] == "contradiction") == contradicted, h["hand"]
    assert seen == {True, False}
    assert main(["ruling", str(out), "--match", "nope", "--hand", "1"]) == 2
    assert "no match" in capsys.readouterr().err
    assert main(["ruling", str(out), "--hand", "0"]) == 2  # hands count from 1
    assert "no hand 0" in capsys.readouterr().err


# ------------------------------------------------------------------ Arabic, the program interface


def test_arabic_output_is_isolated_and_counts_seats_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", "card-legal", "--dealer", "2", "--seat", "4", "--card", "AS", "--ruleset",
                 "card-kings-41", "--lang", "ar"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for line in lines:
        assert line.startswith(RLI) and line.endswith(PDI)
    # no Latin word in the players' lines (the card in words, the ruleset by its Arabic name); the ids are on the
    # last line, the technical one, in a first-strong isolate
    assert not [ln for ln in lines[:-1] if re.search(r"[A-Za-z]", re.sub(f"{LRI}[^{PDI}]*{PDI}", "", ln))], lines
    assert lines[-1].startswith(f"{RLI}للمطوّرين: \u2068") and "play.lead" in lines[-1]
    assert "للاعب 4" in out and "للاعب 3" in out  # seat 3 leads out of turn, seat 2's turn: players 4 and 3
    assert "آس البستوني" in out


def test_arabic_json_gives_each_rulings_arabic_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """``ruling --lang ar --json`` and ``rule_dict(lang="ar")`` (the web page) give every ruling the referee's Arabic
    sentence, ``ruling_ar``; the English JSON has none."""
    from tarneeb.ruling.arabic import sentence

    path = str(DISPUTES / "cancelled-hand-dealer.toml")
    rep = resolve(load_situation(path))
    want = [sentence(rep.kind, x, rep.asked) for x in rep.rulings]
    assert main(["ruling", path, "--lang", "ar", "--json"]) == 0
    assert [r["ruling_ar"] for r in json.loads(capsys.readouterr().out)["rulings"]] == want
    import tomllib

    raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    assert [r["ruling_ar"] for r in rule_dict(raw, lang="ar")["rulings"]] == want
    assert main(["ruling", path, "--json"]) == 0
    assert all("ruling_ar" not in r for r in json.loads(capsys.readouterr().out)["rulings"])
    assert "اليد بتنلغى" in want[0]


def test_rule_dict_is_a_superset_of_report_json() -> None:
    d = rule_dict({"scores": [41, 50, 10, 1], "question": {"kind": "winner"}}, ["card-kings-41", "bsfyi-41"],
                  lang="ar")
    old = {"file", "title", "kind", "question", "agreement", "rulings"}
    assert old <= set(d) and d["lang"] == "ar" and RLI in d["text"]
    for x in d["rulings"]:
        assert {"ruleset", "label", "name", "status", "answer", "ruling", "clauses", "ambiguities"} <= set(x)
        assert x["short"][0] == x["ruling"]
    rep = resolve(parse_situation({"ruleset": "card-kings-41", "scores": [41, 50, 10, 1],
                                   "question": {"kind": "winner"}}))
    assert report_json(rep)["rulings"][0]["math"] == "combined 41+10 = 51, 50+1 = 51: 51 = 51"
    assert "51 equals 51" in report_text(rep) and report_json(rep)["rulings"][0]["math_words"].endswith("51 equals 51")
