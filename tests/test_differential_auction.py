"""The auction and the one-play trick relation: the engine's functions against the encodings, call by call."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

z3 = pytest.importorskip("z3")

from tarneeb.core import rules as R  # noqa: E402
from tarneeb.core.spec import Rules, load_rules  # noqa: E402
from tarneeb_proofs.encode import Encoding, evaluate  # noqa: E402

AUCTIONS = [{"auction": a, "all_pass": p, "egyptian": e, "direction": d, "min_bid": mb}
            for a in ("dealer-privilege", "continuous") for p in ("redeal-next", "dealer-forced")
            for e in (False, True) for d in ("ccw", "cw") for mb in (7, 8)]


@cache
def enc(i: int) -> tuple[Rules, Encoding]:
    r = load_rules("classic", dict(AUCTIONS[i]))
    return r, Encoding(r)


@settings(max_examples=60, deadline=None)
@given(i=st.integers(0, len(AUCTIONS) - 1), dealer=st.integers(0, 3), picks=st.lists(st.integers(0, 10**6), max_size=40))
def test_auction_call_by_call(i: int, dealer: int, picks: list[int]) -> None:
    """Every call: the legal calls (auction_bid_violation) and the next seat / end (auction_next) agree."""
    r, e = enc(i)
    strains = range(5) if r.egyptian else (None,)
    calls = [(None, None)] + [(n, s) for n in range(r.min_bid, 14) for s in strains]
    st_ = e.auction_start(z3.IntVal(dealer))
    seat, spoken, passes, active, top, holder = R.next_seat(r, dealer), 0, 0, [True] * 4, None, -1
    for p in picks + [0] * 60:  # then passes until the auction ends
        oks = evaluate([], [e.call_ok(st_, z3.IntVal(dealer), z3.IntVal(n or 0), z3.IntVal(s or 0))
                            for n, s in calls] + [st_.ended, st_.to_move])
        assert not z3.is_true(oks[-2])
        assert oks[-1].as_long() == seat
        legal = [c for c in calls if R.auction_bid_violation(r, dealer, seat, top, passes, c[0], c[1]) is None]
        assert legal == [c for c, v in zip(calls, oks, strict=False) if z3.is_true(v)]
        n, s = legal[0] if p % 3 == 0 and legal[0][0] is None else legal[p % len(legal)]
        st_ = e.auction_step(st_, z3.IntVal(n or 0), z3.IntVal(s or 0))
        spoken += 1
        if n is None:
            passes += 1
            active[seat] = False
        else:
            top, holder = (n, s), seat
        nxt = R.auction_next(r, seat, spoken, active, top is not None, holder)
        ended, etop, eholder = evaluate([], [st_.ended, st_.top, st_.holder])
        assert z3.is_true(ended) == (nxt is None)
        if top is not None:
            assert eholder.as_long() == holder
            assert etop.as_long() == z3.simplify(e.key(z3.IntVal(top[0]), z3.IntVal(top[1] or 0))).as_long()
        else:
            assert etop.as_long() == -1
        if nxt is None:
            return
        seat = nxt
    raise AssertionError("the auction did not end")


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_trick_relation(data: st.DataObject) -> None:
    """A whole trick played through the encoding's trick relation equals the engine's legality, hands and winner."""
    rid = data.draw(st.sampled_from(["classic", "bsfyi-41", "card-kings-41"]))
    opts = {"must_trump": data.draw(st.booleans()), "direction": data.draw(st.sampled_from(["ccw", "cw"]))} \
        if rid == "classic" else {}
    r = load_rules(rid, opts)
    e = Encoding(r)
    deck = data.draw(st.permutations(range(52)))
    hands = [sum(1 << c for c in deck[13 * j:13 * j + 13]) for j in range(4)]
    leader, trump = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    cur, led, seat, cards = list(hands), -1, leader, []
    for _ in range(4):
        mask = R.legal_play_mask(r, cur[seat], led, trump)
        legal = [c for c in range(52) if mask >> c & 1]
        c = data.draw(st.sampled_from(legal))
        cards.append(c)
        cur[seat] &= ~(1 << c)
        led = c // 13 if led < 0 else led
        seat = R.next_seat(r, seat)
    H = [z3.BitVec(f"H{j}", 52) for j in range(4)]
    C = [z3.BitVec(f"c{i}", 6) for i in range(4)]
    ok, hist, seats, win, _ = e.play_trick(H, z3.BitVecVal(leader, 2), z3.BitVecVal(trump, 6), C)
    eqs = [h == v for h, v in zip(H, hands, strict=True)] + [x == v for x, v in zip(C, cards, strict=True)]
    vals = evaluate(eqs, [ok, win, *hist[4], *seats])
    assert z3.is_true(vals[0])
    idx = R.trick_winner(cards, trump)
    assert vals[1].as_long() == (leader + r.step * idx) % 4
    assert [v.as_long() for v in vals[2:6]] == cur
    assert [v.as_long() for v in vals[6:]] == [(leader + r.step * i) % 4 for i in range(4)]
    # an illegal card (one not held, when the hand holds the led suit) is refused by the relation
    other = next(x for x in range(52) if not hands[leader] >> x & 1)
    bad = evaluate([h == v for h, v in zip(H, hands, strict=True)] + [C[0] == other] +
                   [x == v for x, v in zip(C[1:], cards[1:], strict=True)], [ok])
    assert not z3.is_true(bad[0])


def test_trick_relation_is_the_proofs_play_step() -> None:
    """``play_trick`` is four ``play_step`` (the 13-trick proofs' relation): a next-lead bug there shows here."""
    r = load_rules("classic", {})
    hands = [sum(1 << c for c in range(13 * j, 13 * j + 13)) for j in range(4)]  # seat j holds suit j
    leader, trump = 1, 3
    cards = [13 * ((leader + r.step * i) % 4) for i in range(4)]  # each seat its 2: 2D led, discards, 2S trumps
    want = (leader + r.step * R.trick_winner(cards, trump)) % 4
    H = [z3.BitVec(f"H{j}", 52) for j in range(4)]
    C = [z3.BitVec(f"c{i}", 6) for i in range(4)]
    eqs = [h == v for h, v in zip(H, hands, strict=True)] + [x == v for x, v in zip(C, cards, strict=True)]
    for mutant, same in ((None, True), ("next-lead-after-winner", False), ("winner-ignores-trump", False)):
        e = Encoding(r, mutant)
        ok, _, _, nxt, _ = e.play_trick(H, z3.BitVecVal(leader, 2), z3.BitVecVal(trump, 6), C)
        vals = evaluate(eqs, [ok, nxt])
        assert z3.is_true(vals[0])
        assert (vals[1].as_long() == want) == same, mutant
        # the proofs' single step, fourth card: the same next leader
        st = e.play_step(H, z3.BitVecVal(leader, 2), z3.BitVecVal(3, 2), C[:3], z3.BitVecVal(trump, 6), C[3])
        assert evaluate(eqs, [st.leader])[0].as_long() == vals[1].as_long()


@pytest.mark.parametrize("rid,opts", [("classic", {"direction": "ccw"}), ("classic", {"direction": "cw"}),
                                      ("bsfyi-41", {}), ("card-kings-41", {}), ("eram-41", {}), ("tarneeb-400", {})])
def test_first_leader(rid: str, opts: dict[str, object]) -> None:
    """play.lead: the encoding's first leader (the 13-trick proofs' deal) is the engine's ``hand_leader``."""
    from tarneeb.core.hand import hand_leader

    r = load_rules(rid, opts)
    for mutant, same in ((None, True), ("lead-by-dealer", False)):
        e = Encoding(r, mutant)
        got = []
        for dealer in range(4):
            for holder in range(4):
                lead = evaluate([], [e.first_leader(z3.BitVecVal(dealer, 2), z3.BitVecVal(holder, 2))])[0]
                want = hand_leader(r, dealer, None if r.individual else (holder, 7, None))
                got.append(lead.as_long() == want)
        assert all(got) if same else not all(got)
