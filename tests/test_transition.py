"""The one transition of a match (tarneeb.core.transition): its shortcut for whole tricks, what it promises of
states (never changed in place) and errors (nothing changes on a refused action), and what it gives a verifier going
on from a record's claims: ``force`` (the same step on a legal action; an illegal one taken as made, reported), and
the start of the play, the end of a hand, the match after an outcome and a cancelled deal from states built from
claims (the same as the steps that reach them)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from tests.walks import random_walk

from tarneeb.core import rules as R
from tarneeb.core import runs as U
from tarneeb.core import transition as T
from tarneeb.core.actions import PASS, PLAYS, Bid, Deal, NameTrump, Play
from tarneeb.core.cards import cards_of
from tarneeb.core.match import random_deck
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Called,
    Calling,
    Cancelled,
    Dealing,
    Event,
    Naming,
    NextDealer,
    Over,
    Played,
    Playing,
    PlayStarted,
    Scored,
    State,
    TrickTaken,
    TrumpNamed,
    Violation,
)
from tarneeb.errors import IllegalAction, IllegalDeal, WrongPhase


def _states(rid: str, seed: int, n: int) -> list[tuple[Playing, Rules]]:
    """(state, rules) at the lead of every trick of ``n`` seeded random matches."""
    rules = load_rules(rid)
    rng = random.Random(seed)
    out: list[tuple[Playing, Rules]] = []
    for _ in range(n):
        out += [(state, rules) for state, _, _, _ in random_walk(rules, rng, 0, 400)
                if type(state) is Playing and not state.trick]
    return out


def _four(rules: Rules, state: State, cards: list[int]) -> object:
    """Four steps, or the error the first illegal one raises (type, clause, text)."""
    events: tuple[object, ...] = ()
    try:
        for c in cards:
            state, ev = T.step(rules, state, PLAYS[c])
            events += ev
    except IllegalAction as e:
        return type(e), e.rule, str(e)
    return state, events


def _trick(rules: Rules, state: State, cards: list[int]) -> object:
    try:
        return T.play_trick(rules, state, cards)
    except IllegalAction as e:
        return type(e), e.rule, str(e)


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_a_whole_trick_at_once_is_four_plays(rid: str) -> None:
    """play_trick gives the state and events of four steps: on the tricks random play makes, the last of a hand
    (scoring, outcome, next dealer) included, and on tricks with an illegal card (the same error)."""
    rng = random.Random(rid)
    checked = illegal = last = 0
    for state, rules in _states(rid, 1, 6):
        # the trick random play would make from here, then a few with a card swapped for another held one
        s: State = state
        cards: list[int] = []
        for _ in range(4):
            legal = T.legal_actions(rules, s)
            act = legal[rng.randrange(len(legal))]
            assert isinstance(act, Play)
            cards.append(act.card)
            s, _ = T.step(rules, s, act)
        seats = R.seat_order(rules, state.leader)
        tries = [cards] + [[*cards[:k], rng.choice(cards_of(state.hands[seats[k]])), *cards[k + 1:]] for k in (1, 2, 3)]
        for t in tries:
            want, got = _four(rules, state, t), _trick(rules, state, t)
            assert got == want, (rid, t)
            checked += 1
            illegal += type(want) is tuple and len(want) == 3 and isinstance(want[0], type)
            last += sum(state.won) == 12
    assert checked > 100 and illegal > 10 and last > 10, (checked, illegal, last)


def test_a_step_changes_no_state_it_is_given() -> None:
    """States are values: stepping one leaves it as it was, a refused action included."""
    rules = load_rules("classic")
    rng = random.Random(3)
    state: State = T.start(rules, 0)
    for _ in range(300):
        before = repr(state)
        if type(state) is Dealing:
            nxt, _ = T.step(rules, state, Deal(random_deck(rng)))
        else:
            legal = T.legal_actions(rules, state)
            if not legal:
                break
            with pytest.raises(IllegalAction):
                T.step(rules, state, Deal(tuple(range(52))))
            nxt, _ = T.step(rules, state, legal[rng.randrange(len(legal))])
        assert repr(state) == before
        state = nxt


# ---------------------------------------------------------------------- a verifier going on from a record's claims


def _walk(rid: str, seed: int, n: int, options: dict[str, object] | None = None
          ) -> list[tuple[Rules, State, object, State, tuple[Event, ...]]]:
    """(rules, state, action, the state after it, its events) of every step of ``n`` seeded random matches."""
    rules = load_rules(rid, options or {})
    rng = random.Random(seed)
    out: list[tuple[Rules, State, object, State, tuple[Event, ...]]] = []
    for _ in range(n):
        out += [(rules, *step) for step in random_walk(rules, rng, rng.randrange(4), 600)]
    return out


CONFIGS: list[tuple[str, dict[str, object]]] = [(rid, {}) for rid in sorted(rulesets())] + [
    ("classic", {"weak_redeal": True, "play_on": 10, "must_trump": True}), ("classic", {"egyptian": True}),
    ("classic", {"egyptian": True, "auction": "continuous", "all_pass": "dealer-forced"})]


@pytest.mark.parametrize(("rid", "options"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_force_is_the_step_itself_on_every_legal_action(rid: str, options: dict[str, object]) -> None:
    """``step(..., force=True)`` gives the very state and events of ``step`` on every legal action of random matches
    (deals, claims, bids, calls, trump, cards), and ``play_trick(..., force=True)`` those of ``play_trick`` on every
    trick they play."""
    kinds: set[str] = set()
    for rules, state, action, after, events in _walk(rid, 7, 4, options):
        assert T.step(rules, state, action, force=True) == (after, events), (rid, action)  # type: ignore[arg-type]
        kinds.add(type(action).__name__)
        if type(state) is Playing and not state.trick:
            s: State = state
            cards: list[int] = []
            while type(s) is Playing and len(cards) < 4:
                legal = T.legal_actions(rules, s)
                cards.append(legal[len(cards) % len(legal)].card)  # type: ignore[union-attr]
                s, _ = T.step(rules, s, PLAYS[cards[-1]])
            if len(cards) == 4:
                assert T.play_trick(rules, state, cards, force=True) == T.play_trick(rules, state, cards)
    assert {"Deal", "Bid", "Play"} <= kinds, kinds


def _first(rules: Rules, kind: type, seed: int = 3) -> State:
    return next(s for r, s, _, _, _ in _walk(rules.id, seed, 2, dict(rules.options)) if type(s) is kind)


def test_force_takes_an_illegal_card_as_played() -> None:
    """An illegal card (a revoke, a card not held) under force: a Violation with the clause step raises with first,
    then the events of a play; the card leaves the hand it was in, and the trick goes on."""
    rules = load_rules("eram-41")
    for _, state, _, _, _ in _walk("eram-41", 5, 2):
        if type(state) is Playing and state.trick:
            hand = state.hands[state.to_move]
            bad = [c for c in range(52) if not T.legal_play_mask(rules, state) >> c & 1]
            for c in bad[:6]:
                with pytest.raises(IllegalAction) as e:
                    T.step(rules, state, PLAYS[c])
                after, events = T.step(rules, state, PLAYS[c], force=True)
                v = events[0]
                assert type(v) is Violation and (v.seat, v.clause, v.why) == (state.to_move, e.value.rule, e.value.reason)
                assert events[1] == Played(state.to_move, c)
                if type(after) is Playing and after.trick:
                    assert after.hands[state.to_move] == hand & ~(1 << c) and after.trick[-1] == c
            break
    state = _first(rules, Playing)
    for bad_action in (Play(52), Play(-1), Deal(tuple(range(52))), PASS):
        with pytest.raises(IllegalAction):
            T.step(rules, state, bad_action, force=True)  # not a card of the pack, or another phase's action


def test_force_takes_an_illegal_bid_or_call_as_made() -> None:
    """An illegal individual bid counts (a pass as a bid of nothing); an illegal auction call is made (who speaks
    after it follows); no trump named by the contract holder is taken; a bad deck still raises."""
    rules = load_rules("bsfyi-41")
    state = _first(rules, Bidding)
    assert isinstance(state, Bidding)
    after, events = T.step(rules, state, PASS, force=True)
    assert [type(e) for e in events] == [Violation, Called] and events[0].clause == "bid.no-pass"
    assert isinstance(after, Bidding) and after.bids[state.to_move] == 0 and after.spoken == 1
    after, events = T.step(rules, state, Bid(14), force=True)
    assert events[0].clause == "bid.range" and after.bids[state.to_move] == 14  # type: ignore[union-attr]
    with pytest.raises(IllegalDeal):
        T.step(rules, Dealing(state.table), Deal((0,) * 52), force=True)
    classic = load_rules("classic")
    call = _first(classic, Calling)
    assert isinstance(call, Calling)
    after, events = T.step(classic, call, Bid(classic.min_bid - 1), force=True)
    assert type(events[0]) is Violation and events[0].clause == "auction.range" and isinstance(after, Calling)
    assert after.top == Bid(classic.min_bid - 1) and after.holder == call.to_move
    naming = _first(classic, Naming)
    assert isinstance(naming, Naming)
    with pytest.raises(IllegalAction):
        T.step(classic, naming, NameTrump(4))
    after, events = T.step(classic, naming, NameTrump(4), force=True)
    assert [type(e) for e in events] == [Violation, TrumpNamed, PlayStarted] and isinstance(after, Playing)
    assert after.start.trump == 4
    with pytest.raises(IllegalAction):
        T.step(classic, naming, NameTrump(5), force=True)  # no strain at all
    with pytest.raises(WrongPhase):
        T.step(classic, naming, PLAYS[0], force=True)


@pytest.mark.parametrize(("rid", "options"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_the_ends_a_verifier_builds_are_the_steps_that_reach_them(rid: str, options: dict[str, object]) -> None:
    """start_play, end_hand, settle_match and cancel from the states the steps leave give what the steps give: the
    play as the step that ends the bidding starts it, the end of a hand as its thirteenth trick's step (and, given
    the scores after it, the outcome judged on them), the match after an outcome, a cancelled deal."""
    seen: set[str] = set()
    for rules, state, _, after, events in _walk(rid, 11, 4, options):
        kinds = [type(e) for e in events]
        if PlayStarted in kinds:
            assert type(after) is Playing
            assert T.start_play(rules, after.start, after.hands) == (after, events[kinds.index(PlayStarted):])
            seen.add("start")
        if Scored in kinds:
            assert type(state) is Playing
            won = events[kinds.index(Scored)].tricks_won  # type: ignore[union-attr]
            tail = events[kinds.index(Scored):]
            assert T.end_hand(rules, state.start, won) == (after, tail)
            sc = tail[0].scores  # type: ignore[union-attr]
            assert T.end_hand(rules, state.start, won, scores=list(sc)) == (after, tail)
            decided = tail[1]
            table = replace(state.start.table, scores=sc)
            assert T.settle_match(rules, table, decided.winner, decided.clause) == (after, tail[2:])  # type: ignore[union-attr]
            seen.add("over" if type(after) is Over else "end")
            # judged on other scores: the outcome on those, the scoring itself unchanged
            other = [x + 100 for x in sc]
            end, ev = T.end_hand(rules, state.start, won, scores=other)
            assert ev[0] == replace(tail[0], scores=tuple(other)) and end.table.scores == tuple(other)  # type: ignore[arg-type]
        if Cancelled in kinds:
            c = events[kinds.index(Cancelled)]
            table = state.table
            assert T.cancel(rules, table, c.clause, c.why) == (after, events[kinds.index(Cancelled):])  # type: ignore[union-attr]
            assert type(events[-1]) is NextDealer
            seen.add(c.clause)
    assert {"start", "end"} <= seen, seen


@pytest.mark.parametrize(("rid", "options"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_a_hand_without_cards_is_the_hand_with_them(rid: str, options: dict[str, object]) -> None:
    """open_unseen and tricks_taken (a score sheet's hand) from the states the steps leave: the bidding opens for
    the seat the deal's step opens it for; the hand's end from its tricks (by seat, or the contract team's count) is
    the thirteenth trick's step from its scoring on: the same score changes, scores, outcome, play-on and next
    dealer; a weak hand thrown in is the cancelled deal's step."""
    seen: set[str] = set()
    for rules, state, _, after, events in _walk(rid, 13, 4, options):
        kinds = [type(e) for e in events]
        if type(state) is Dealing and BiddingOpened in kinds:
            opened, ev = T.open_unseen(rules, state)
            assert type(opened) is type(after) and opened.to_move == after.to_move
            assert ev[0].to_move == events[kinds.index(BiddingOpened)].to_move  # type: ignore[union-attr]
            seen.add("open")
        if type(state) is Dealing and Cancelled in kinds and events[kinds.index(Cancelled)].clause == "deal.weak-redeal":
            got, ev = T.open_unseen(rules, state, weak=True)
            assert got == after and ev[-1] == events[-1]
            seen.add("weak")
        if Scored in kinds:
            assert type(state) is Playing
            start, _ = T.start_play(rules, state.start, state.hands)
            tail = events[kinds.index(Scored):]
            won = tail[0].tricks_won  # type: ignore[union-attr]
            assert T.tricks_taken(rules, start, won) == (after, tail)
            contract = state.start.contract
            if contract is not None:
                team = R.team_tricks(won)[R.team_of(contract[0])]
                end, ev = T.tricks_taken(rules, start, team)
                assert end == after and ev[1:] == tail[1:]
                assert (ev[0].deltas, ev[0].scores) == (tail[0].deltas, tail[0].scores)  # type: ignore[union-attr]
            seen.add("end")
    assert {"open", "end"} <= seen, seen


def test_a_hand_without_cards_refuses_what_no_hand_can_be() -> None:
    """tricks_taken refuses tricks that do not make 13 (hand.tricks) and a call at the wrong time; open_unseen a
    weak hand's redeal where the ruleset plays such a hand, and any deal once the match is over (its clause)."""
    rules = load_rules("card-kings-41")
    st, _ = T.open_unseen(rules, T.start(rules, 0))
    with pytest.raises(WrongPhase):
        T.tricks_taken(rules, st, [3, 3, 3, 4])
    with pytest.raises(WrongPhase):
        T.open_unseen(rules, st)
    for b in (5, 3, 3, 2):
        st, _ = T.step(rules, st, Bid(b))
    for won, why in (([3, 3, 3, 3], r"3 \+ 3 \+ 3 \+ 3 = 12"), ([14, 0, 0, -1], "none below 0"), (13, "four counts")):
        with pytest.raises(IllegalAction, match=why) as e:
            T.tricks_taken(rules, st, won)
        assert e.value.rule == "hand.tricks"
    with pytest.raises(IllegalDeal) as d:
        T.open_unseen(rules, T.start(rules, 0), weak=True)
    assert d.value.rule == "deal.weak-redeal"
    classic = load_rules("classic")
    st, _ = T.open_unseen(classic, T.part_way(classic, 0, [40, 0, 40, 0]))
    for call in (PASS, Bid(7), PASS, PASS):  # player 3 (seat 2) wins the auction
        st, _ = T.step(classic, st, call)
    with pytest.raises(IllegalAction, match="from 0 to 13"):
        T.tricks_taken(classic, st, 14)
    over, _ = T.tricks_taken(classic, st, 7)  # the contract holder has not named trump: it changes no score
    assert type(over) is Over
    with pytest.raises(WrongPhase) as w:
        T.open_unseen(classic, over)
    assert w.value.rule == over.rule == "win.target"


def _stepped(rules: Rules, state: State, actions: Sequence[Any], one: Callable[..., Any]) -> Any:
    """Each action in turn by ``one`` (the state and all events), or the error the first refused one raises."""
    events: tuple[Event, ...] = ()
    try:
        for a in actions:
            state, ev = one(rules, state, a)
            events += ev
    except IllegalAction as e:
        return type(e), e.rule, str(e)
    return state, events


def _at_once(fn: Callable[..., Any], rules: Rules, state: State, actions: Sequence[Any]) -> Any:
    try:
        return fn(rules, state, actions)
    except IllegalAction as e:
        return type(e), e.rule, str(e)


@pytest.mark.parametrize(("rid", "options"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_runs_at_once_are_their_steps(rid: str, options: dict[str, object]) -> None:
    """call_all and play_tricks give the state and events of a step (a play_trick) of each in turn: on the runs
    random matches make from every bidding and play state, cut short or run past the end of the phase, and with a
    call, bid or card changed for an illegal one (the same error)."""
    rng = random.Random(rid + str(options))
    bidding = playing = illegal = 0
    walk = _walk(rid, 13, 3, options)
    for i, (rules, state, _, _, _) in enumerate(walk):
        if type(state) in (Bidding, Calling) and (type(walk[i - 1][1]) is not type(state) if i else True):
            calls = [a for _, s, a, _, _ in walk[i:i + 12] if isinstance(a, Bid)]
            for n in {0, 1, 2, len(calls) // 2, len(calls), len(calls) + 1}:
                run = (calls + [PASS])[:n]
                tries = [run] + ([[*run[:-1], rng.choice([PASS, Bid(0), Bid(14), Bid(7, 2), Bid(13)])]] if run else [])
                for t in tries:
                    want, got = _stepped(rules, state, t, T.step), _at_once(U.call_all, rules, state, t)
                    assert got == want, (rid, t)
                    # again (an auction's run as kept on the rules), and with equal calls that are other objects
                    assert _at_once(U.call_all, rules, state, t) == want, (rid, t)
                    assert _at_once(U.call_all, rules, state, [Bid(b.n, b.strain) for b in t]) == want, (rid, t)
                    bidding += 1
                    illegal += isinstance(want, tuple) and len(want) == 3 and isinstance(want[0], type)
        if type(state) is Playing and not state.trick and sum(state.won) in (0, 5, 11):
            plays = [a.card for _, s, a, _, _ in walk[i:i + 60] if isinstance(a, Play)]
            tricks = [plays[j:j + 4] for j in range(0, len(plays) - len(plays) % 4, 4)]
            left = 13 - sum(state.won)
            for cut in (tricks[:left], tricks[:left][:3], tricks[:left + 1], [tricks[0][:3]]):
                bad = [list(x) for x in cut]
                if bad and bad[-1]:
                    bad[-1][-1] = (bad[-1][-1] + 13) % 52
                for cards in (cut, bad):
                    want = _stepped(rules, state, cards, T.play_trick)
                    assert _at_once(U.play_tricks, rules, state, cards) == want, (rid, cards)
                    assert U.trick_winners(rules, state, cards) == _bare(state, cards, want), (rid, cards)
                    playing += 1
    assert bidding > 20 and playing > 20 and illegal > 5, (bidding, playing, illegal)


def _bare(state: State, cards: Sequence[Sequence[int]], want: object) -> object:
    """What trick_winners must give for ``cards`` from ``state`` when their steps give ``want``: None unless every
    trick was played whole (no error, a TrickTaken each); else the state, the first leader and each trick's winner
    from the TrickTaken events, and the events after the last of them."""
    if not isinstance(want, tuple) or len(want) != 2 or not isinstance(state, Playing):
        return None
    after, events = want
    taken = [i for i, e in enumerate(events) if type(e) is TrickTaken]
    if len(taken) != len(cards) or not cards or (type(after) is Playing and after.trick):
        return None
    return after, [state.leader] + [events[i].trick.winner for i in taken], events[taken[-1] + 1:]


def test_trick_winners_are_none_off_the_start_of_a_trick_or_past_the_hand() -> None:
    """trick_winners gives nothing where play_tricks would not play every trick whole: from a trick in progress,
    from another phase, with a trick of three cards, one illegal card, or one trick more than the hand has."""
    rules = load_rules("classic")
    walk = _walk("classic", 5, 2)
    for i, (_, state, _, _, _) in enumerate(walk):
        if type(state) is Playing and not state.trick and sum(state.won) == 0:
            plays = [a.card for _, s, a, _, _ in walk[i:i + 52] if isinstance(a, Play)]
            tricks = [plays[j:j + 4] for j in range(0, 52, 4)]
            got = U.trick_winners(rules, state, tricks)
            assert got is not None and type(got[0]) is not Playing and len(got[1]) == 14
            assert U.trick_winners(rules, state, [*tricks, tricks[0]]) is None  # a 14th trick
            assert U.trick_winners(rules, state, [tricks[0][:3]]) is None
            assert U.trick_winners(rules, state, [[tricks[0][0], tricks[0][1], tricks[0][2], tricks[0][1]]]) is None
            assert U.trick_winners(rules, T.play_trick(rules, state, tricks[0][:1])[0], tricks[1:]) is None
            assert U.trick_winners(rules, Dealing(state.table), tricks) is None
            return
    raise AssertionError("no hand played")


@pytest.mark.parametrize(("rid", "options"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_a_deal_from_any_sequence_is_the_step_of_its_deck(rid: str, options: dict[str, object]) -> None:
    """deal(rules, state, deck) gives the state and events of step(rules, state, Deal(tuple(deck))) for the deck as
    bytes, a list or a tuple; and the same error for a deck that deals no whole pack or from another phase."""
    rng = random.Random(rid)
    seen = 0
    for rules, state, action, after, events in _walk(rid, 17, 3, options):
        if type(action) is Deal:
            deck = action.deck
            for given in (bytes(deck), list(deck), tuple(deck)):
                assert T.deal(rules, state, given) == (after, events), rid
            seen += 1
            bad = list(deck)
            i, j = rng.sample(range(52), 2)
            bad[i] = bad[j]  # a card twice, one missing
            for wrong in (bad, deck[:51], [*deck[:51], 52], [*deck[:51], -1]):
                want = _stepped(rules, state, [Deal(tuple(wrong))], T.step)
                assert _stepped(rules, state, [wrong], T.deal) == want and isinstance(want, tuple) and len(want) == 3
        elif type(state) is not Dealing and seen:
            want = _stepped(rules, state, [Deal(tuple(range(52)))], T.step)
            assert _stepped(rules, state, [range(52)], T.deal) == want
    assert seen > 5, seen


def test_an_auction_run_kept_on_the_rules_follows_a_changed_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """call_all keeps auction runs on the rules object, under the rule functions that decided them: when one is
    replaced (as the proofs' mutants replace them), a run is decided afresh, never given as the old function had
    it."""
    rules = load_rules("classic")
    state = _first(rules, Calling)
    calls = [PASS, Bid(rules.min_bid), PASS]  # the auction goes on after the first two, which are kept
    want = _stepped(rules, state, calls, T.step)
    assert isinstance(want, tuple) and len(want) == 2 and _at_once(U.call_all, rules, state, calls) == want
    real = R.auction_bid_violation

    def no_passes(rules: Rules, dealer: int, seat: int, top: Any, passes: int, n: int | None, strain: int | None
                  ) -> tuple[str, str] | None:
        return ("auction.order", "no passes today") if n is None else real(rules, dealer, seat, top, passes, n, strain)

    monkeypatch.setattr(R, "auction_bid_violation", no_passes)
    changed = _stepped(rules, state, calls, T.step)
    assert changed != want and _at_once(U.call_all, rules, state, calls) == changed


@pytest.mark.parametrize("options", [{}, {"all_pass": "dealer-forced"}, {"auction": "continuous"},
                                     {"egyptian": True, "auction": "continuous"}])
def test_an_auction_run_is_kept_under_every_field_of_the_auction(options: dict[str, object]) -> None:
    """A run kept on the rules is given again only from an auction equal in every field (the seat to speak, the top
    bid and its holder, the passes, the calls so far, the seats still in, the dealer): call_all from auctions that
    differ in one field, reachable or not (a verifier builds them from a record's claims), is their steps. (Not a
    top bid without its holder, a seat to speak that is out, nor a holder that passes with the others, in the
    continuous auction: no call reaches them, and the rules would seek the next seat to speak forever.)"""
    rules = load_rules("classic", options)
    state = _first(rules, Calling)
    assert isinstance(state, Calling)
    top = Bid(rules.min_bid, 2 if rules.egyptian else None)
    variants = [replace(state, to_move=s) for s in range(4)] + [replace(state, passes=p) for p in (1, 2)] + [
        replace(state, spoken=n) for n in (1, 2, 3)] + [replace(state, table=replace(state.table, dealer=d))
                                                       for d in range(4)] + [
        replace(state, top=top, holder=h) for h in range(4)] + [replace(state, top=top, holder=0, to_move=1)] + [
        replace(state, top=top, holder=h) for h in ((-1,) if rules.auction_style != "continuous" else ())] + [
        replace(state, top=top, holder=2, table=replace(state.table, dealer=d)) for d in range(4)] + [
        replace(state, active=(0 != (state.to_move + k) % 4, 1 != (state.to_move + k) % 4,
                               2 != (state.to_move + k) % 4, 3 != (state.to_move + k) % 4)) for k in (1, 2, 3)]
    for calls in ([PASS, Bid(rules.min_bid + 1, 3 if rules.egyptian else None), PASS],
                  [PASS, PASS, Bid(13, 4 if rules.egyptian else None), PASS], [PASS, PASS, PASS], [top, PASS, PASS],
                  [PASS, PASS, PASS, PASS, PASS]):
        assert _at_once(U.call_all, rules, state, calls) == _stepped(rules, state, calls, T.step)
        if rules.auction_style == "continuous" and calls.count(PASS) > 3:
            # the holder passes too: with every seat out the rules would seek the next forever
            vs = [v for v in variants if v.top is None]
        else:
            vs = variants
        want = [_stepped(rules, v, calls, T.step) for v in vs]
        for first in vs:  # each auction met first, in a store of its own (a new rules object), then every other
            fresh = replace(rules)
            _at_once(U.call_all, fresh, first, calls)
            for v, w in zip(vs, want, strict=True):
                assert _at_once(U.call_all, fresh, v, calls) == w, (first, v, calls)


@pytest.mark.parametrize(("rid", "options"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_individual_bids_at_once_end_the_bidding_as_their_steps(rid: str, options: dict[str, object]) -> None:
    """call_all of individual bids, from each bidding of seeded matches: the four bids made, the lowest and the
    highest legal ones (the fourth starting the play, or cancelling the deal on the bid total), a run cut short
    or one past the bidding, and an illegal bid at each position 0..3 are the states, events and errors of their
    steps; the bids the rules give and equal bids that are other objects alike."""
    rules = load_rules(rid, options)
    walk = _walk(rid, 29, 3, options)
    ends: dict[str, int] = {"played": 0, "cancelled": 0, "illegal": 0}
    for i, (_, state, _, _, _) in enumerate(walk):
        if type(state) is not Bidding or state.spoken:
            continue
        made = [a for _, _, a, _, _ in walk[i:i + 4] if isinstance(a, Bid)]
        seats = [state.to_move]
        for _ in range(3):
            seats.append(R.next_seat(rules, seats[-1]))
        low = [T.legal_bids(rules, state.table.scores[s])[0] for s in seats]
        high = [T.legal_bids(rules, state.table.scores[s])[-1] for s in seats]
        runs: list[list[Bid]] = [made, low, high, low[:3], [*high, high[0]], [*low, PASS]]
        for p in range(4):
            for wrong in (PASS, Bid(rules.bid_max + 1), Bid(low[p].n, 2)):
                runs.append([*high[:p], wrong, *high[p + 1:]])
        for run in runs:
            for calls in (run, [Bid(b.n, b.strain) for b in run]):
                want = _stepped(rules, state, calls, T.step)
                assert _at_once(U.call_all, rules, state, calls) == want, (rid, calls)
            if len(want) == 3:
                ends["illegal"] += 1
            elif len(run) == 4 and any(type(e) is PlayStarted for e in want[1]):
                ends["played"] += 1
            elif len(run) == 4 and any(type(e) is Cancelled and e.clause == "bid.total" for e in want[1]):
                ends["cancelled"] += 1
    if not any(type(s) is Bidding for _, s, _, _, _ in walk):
        assert any(type(s) is Calling for _, s, _, _, _ in walk), rid
        return  # a ruleset of team auctions: no individual bids
    assert ends["played"] > 3 and ends["cancelled"] > 0 and ends["illegal"] >= 12, (rid, ends)


def test_a_refusal_says_the_state_in_words_when_read_and_through_pickle() -> None:
    """A refusal's words (the state described) are made when the message is first read, and are then the same
    whether read there or after a trip through pickle (a proof worker's or a Dask task's result)."""
    import pickle

    from tarneeb.errors import IllegalAction

    rules = load_rules("classic", {})
    state = T.start(rules)
    with pytest.raises(IllegalAction) as info:
        T.step(rules, state, Play(0))
    e = info.value
    assert e.rule == "hand.tricks" and e.seat is None
    text = str(e)
    assert text.endswith(f"(state: {T.describe(state)})") and "[rule hand.tricks]" in text
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is type(e) and str(again) == text and again.state == e.state
