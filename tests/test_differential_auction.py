"""The auction and the one-play trick relation: the engine's functions against the encodings, call by call.

Calls are steered to the auction's edges (``strategies.call_picks``): a pass, the top bid matched, one key
above it, the minimum, 13. At every call the engine's whole set of legal calls is compared with the
encoding's (``call_ok``), and the transition (next seat, end, top bid, holder) with ``auction_step``.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

z3 = pytest.importorskip("z3")

from tests.strategies import Opts, call_picks, configs, pick_call, rules_of, volume  # noqa: E402

from tarneeb.core import rules as R  # noqa: E402
from tarneeb.core.spec import Rules, load_rules  # noqa: E402
from tarneeb_proofs.encode import Encoding  # noqa: E402
from tarneeb_proofs.evaluate import Ev  # noqa: E402

AUCTIONS = configs("auction", "all_pass", "egyptian", "direction", "min_bid")
AUCTIONS = [c for c in AUCTIONS if not rules_of(*c).individual]
TRICKS = configs("must_trump", "direction")


@cache
def fast(rid: str, opts: Opts) -> tuple[Rules, Encoding]:
    r = rules_of(rid, opts)
    return r, Encoding(r)


def auction_calls(rules: Rules) -> list[tuple[int | None, int | None]]:
    strains = range(5) if rules.egyptian else (None,)
    return [(None, None)] + [(n, s) for n in range(rules.min_bid, 14) for s in strains]


@volume()
@given(data=st.data())
def test_auction_call_by_call(data: st.DataObject) -> None:
    """Every call: the legal calls (auction_bid_violation) and the next seat / end (auction_next) agree."""
    r, f = fast(*data.draw(st.sampled_from(AUCTIONS)))
    dealer, picks = data.draw(st.integers(0, 3)), data.draw(call_picks())
    calls = auction_calls(r)
    state = f.eval_auction_start(dealer)
    seat, spoken, passes, active, top, holder = R.next_seat(r, dealer), 0, 0, [True] * 4, None, -1
    for kind, k in picks + [("pass", 0)] * 60:  # then passes until the auction ends
        ended, _, _, _, _, _, _, _, _, to_move = state
        assert not ended
        assert to_move == seat
        legal = [c for c in calls if R.auction_bid_violation(r, dealer, seat, top, passes, c[0], c[1]) is None]
        assert legal == [c for c in calls if f.eval_call_ok(state, dealer, c[0] or 0, c[1] or 0)]
        n, s = pick_call(kind, k, legal, -1 if top is None else R.bid_key(*top))
        state = f.eval_auction_step(state, n or 0, s or 0)
        spoken += 1
        if n is None:
            passes += 1
            active[seat] = False
        else:
            top, holder = (n, s), seat
        nxt = R.auction_next(r, seat, spoken, active, top is not None, holder)
        ended, etop, eholder = state[0], state[1], state[2]
        assert ended == (nxt is None)
        assert list(state[3:7]) == active
        if top is not None:
            assert eholder == holder
            assert etop == f.eval_key(top[0], top[1] or 0)
        else:
            assert etop == -1
        if nxt is None:
            return
        seat = nxt
    raise AssertionError("the auction did not end")


@volume()
@given(data=st.data())
def test_trick_relation(data: st.DataObject) -> None:
    """A whole trick played through the encoding's trick relation equals the engine's legality, hands and winner."""
    r, f = fast(*data.draw(st.sampled_from(TRICKS)))
    deck = data.draw(st.permutations(range(52)))
    hands = [sum(1 << c for c in deck[13 * j:13 * j + 13]) for j in range(4)]
    leader, trump = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 4))
    cur, led, seat, cards = list(hands), -1, leader, []
    for _ in range(4):
        mask = R.legal_play_mask(r, cur[seat], led, trump)
        legal = [c for c in range(52) if mask >> c & 1]
        c = data.draw(st.sampled_from(legal))
        cards.append(c)
        cur[seat] &= ~(1 << c)
        led = c // 13 if led < 0 else led
        seat = R.next_seat(r, seat)
    ok, after, seats, win = f.eval_play_trick(hands, leader, trump, cards)
    assert ok
    idx = R.trick_winner(cards, trump)
    assert win == (leader + r.step * idx) % 4
    assert after == cur
    assert seats == [(leader + r.step * i) % 4 for i in range(4)]
    # an illegal card (one not held, when the hand holds the led suit) is refused by the relation
    other = next(x for x in range(52) if not hands[leader] >> x & 1)
    assert not f.eval_play_trick(hands, leader, trump, [other, *cards[1:]])[0]


def test_trick_relation_is_the_proofs_play_step() -> None:
    """``play_trick`` is four ``play_step`` (the 13-trick proofs' relation): a next-lead bug there shows here."""
    rules = load_rules("classic", {})
    hands = [sum(1 << c for c in range(13 * j, 13 * j + 13)) for j in range(4)]  # seat j holds suit j
    leader, trump = 1, 3
    cards = [13 * ((leader + rules.step * i) % 4) for i in range(4)]  # each seat its 2: 2D led, discards, 2S trumps
    want = (leader + rules.step * R.trick_winner(cards, trump)) % 4
    H = [z3.BitVec(f"H{j}", 52) for j in range(4)]
    C = [z3.BitVec(f"c{i}", 6) for i in range(4)]
    for mutant, same in ((None, True), ("next-lead-after-winner", False), ("winner-ignores-trump", False)):
        e = Encoding(rules, mutant)
        ok, _, _, nxt, _ = e.play_trick(H, z3.BitVecVal(leader, 2), z3.BitVecVal(trump, 6), C)
        # the proofs' single step, fourth card: the same next leader
        st = e.play_step(H, z3.BitVecVal(leader, 2), z3.BitVecVal(3, 2), C[:3], z3.BitVecVal(trump, 6), C[3])
        legal, lead, step_lead = Ev([*H, *C], [ok, nxt, st.leader])(*hands, *cards)
        assert legal is True
        assert (lead == want) == same, mutant
        assert step_lead == lead


@pytest.mark.parametrize("rid,opts", [("classic", {"direction": "ccw"}), ("classic", {"direction": "cw"}),
                                      ("bsfyi-41", {}), ("card-kings-41", {}), ("eram-41", {}), ("tarneeb-400", {})])
def test_first_leader(rid: str, opts: dict[str, object]) -> None:
    """play.lead: the encoding's first leader (the 13-trick proofs' deal) is the engine's ``hand_leader``."""
    from tarneeb.core.hand import hand_leader

    rules = load_rules(rid, opts)
    for mutant, same in ((None, True), ("lead-by-dealer", False)):
        e = Encoding(rules, mutant)
        got = []
        for dealer in range(4):
            for holder in range(4):
                want = hand_leader(rules, dealer, None if rules.individual else (holder, 7, None))
                got.append(e.eval_first_leader(dealer, holder) == want)
        assert all(got) if same else not all(got)


def test_auction_next_answers_in_every_state_even_unreachable_ones() -> None:
    """auction_next is total: for every seat, count of calls, set of seats still in and top-bid holder (reachable or
    not: a referee builds states from what a person types) it answers at once, with None or a seat still in."""
    import itertools
    import signal

    def too_slow(signum: int, frame: object) -> None:
        raise TimeoutError("auction_next did not answer within 2 s")

    for rid, opts in AUCTIONS:
        r = rules_of(rid, opts)
        old = signal.signal(signal.SIGALRM, too_slow)
        signal.alarm(2)
        try:
            for active in itertools.product((False, True), repeat=4):
                for seat, holder, spoken, has_top in itertools.product(range(4), range(4), (1, 4, 9), (False, True)):
                    nxt = R.auction_next(r, seat, spoken, list(active), has_top, holder)
                    assert nxt is None or 0 <= nxt <= 3, (rid, opts, active, seat, holder)
                    if r.auction_style == "continuous":
                        assert nxt is None or active[nxt], (rid, opts, active, seat, holder)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
