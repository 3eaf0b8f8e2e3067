"""Every value the steered matches compare with, from the encoding of one configuration (never from the engine)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import z3

from tarneeb_proofs.encode import SUIT_MASKS, Encoding, Term
from tarneeb_proofs.encode_auction import AuctionState
from tarneeb_proofs.evaluate import Ev

from .terms import (
    NO_LED,
    NO_TRUMP,
    PASS_CALL,
    Call,
    St,
    TermCache,
    canon,
    consts,
    ev,
    fill,
    pack_state,
    packed,
    unpack_state,
)

Built = tuple[list[Term], list[Term]]


class Expected:
    """Every value the steered matches compare with, from the encoding of one configuration (never from the engine).

    The terms are built once per distinct set of the parameters they read (``cache``, shared between the
    configurations of a test session) and evaluated by :class:`tarneeb_proofs.evaluate.Ev`."""

    def __init__(self, enc: Encoding, cache: TermCache | None = None) -> None:
        self.rules = enc.r
        self.enc = enc
        self.cache = cache if cache is not None else TermCache()
        seat = z3.Int("mx_seat")
        d2, h2 = z3.BitVec("mx_dealer2", 2), z3.BitVec("mx_holder2", 2)
        cs = [z3.BitVec(f"mx_card{i}", 6) for i in range(4)]
        t = z3.BitVec("mx_trump", 6)
        h, led = z3.BitVec("mx_hand", 52), z3.BitVec("mx_led", 6)
        rev, named = z3.BitVec("mx_revealed", 6), z3.BitVec("mx_named", 6)
        g = z3.Int("mx_games")
        E = self._ev
        self._next = E("next", lambda e: ev([seat], [e.next_seat(seat)]))
        self._redeal = E("redeal", lambda e: ev([seat], [e.dealer_after_redeal(seat)]))
        self._lead = E("lead", lambda e: ev([d2, h2], [e.first_leader(d2, h2)]))
        self._winner = E("winner", lambda e: ev([*cs, t], [e.trick_winner(cs, t)]))
        self._mask = E("mask", lambda e: ev([h, led, t], [e.legal_mask(h, led, t)]))
        self._weak = E("weak", lambda e: ev([h], [e.weak_hand(h)]))

        def trump(e: Encoding) -> Built:
            tr = e.trump_suit(rev, named)
            return ev([x for x in (rev, named) if x.get_id() in consts([tr])], [tr])

        self._trump = E("trump", trump)
        self._trump_ok = E("trump_ok", lambda e: ev([t], [packed([e.trump_ok(z3.BitVecVal(s, 6)) for s in range(5)])]))
        self._target = E("target", lambda e: ev([g], [e.target_in_force(g)]))
        self._weak_card = [bool(self._weak(1 << c)[0]) for c in range(52)]
        self.calls: list[Call] = []
        self.keys: dict[Call, int] = {}
        if self.rules.individual:
            self._individual()
        else:
            self._auction()

    def _ev(self, name: str, build: Callable[[Encoding], Built]) -> Ev:
        return Ev(*self.cache.get(self.enc, name, build))

    def _individual(self) -> None:
        """The individual family's terms: legal bids, whether a deal is played, the total, the change, the outcome."""
        E = self._ev
        sc = z3.Int("mx_score")
        b = [z3.Int(f"mx_bid{i}") for i in range(4)]
        tk = z3.Int("mx_tricks")
        self._bids = E("bids", lambda e: ev([sc], [packed([e.legal_bid(sc, z3.IntVal(x)) for x in range(15)])]))
        s4 = [z3.Int(f"mx_before{i}") for i in range(4)]
        self._played = E("played", lambda e: ev(b + s4, [e.hand_played(b, s4)]))
        self._total = E("total", lambda e: ev(s4, [e.total_needed(s4)]))
        self._delta = E("delta", lambda e: ev([b[0], tk], [e.individual_delta(b[0], tk)]))

        def outcome(e: Encoding) -> Built:
            e2 = Encoding(e.r, e.mutant)  # the outcome at the target in force: the encoding's target a variable
            target = z3.Int("mx_target")
            e2.target = target
            s = [z3.Int(f"mx_s{i}") for i in range(4)]
            tw = [z3.Int(f"mx_t{i}") for i in range(4)]
            o = e2.individual_outcome(s, b, tw)
            return ev([*s, *b, *tw, target], [o.winner(), o.clause])

        self._ind_out = E("ind_outcome", outcome)

    def _auction(self) -> None:
        """The auction family's terms: the legal calls, the auction's steps, the keys of the calls, the scores."""
        E = self._ev
        self.calls = [PASS_CALL] + [(n, s) for n in range(1, 15) for s in range(self.enc.strains())]
        fs = [z3.Bool("mx_ended"), z3.Int("mx_top"), z3.Int("mx_holder"), *[z3.Bool(f"mx_in{j}") for j in range(4)],
              z3.Int("mx_passes"), z3.Int("mx_spoken"), z3.Int("mx_to_move")]
        st = AuctionState(fs[0], fs[1], fs[2], fs[3:7], fs[7], fs[8], fs[9])
        dealer = z3.Int("mx_adealer")
        n_, s_ = z3.Int("mx_n"), z3.Int("mx_strain")
        calls = self.calls

        def ok(e: Encoding) -> Built:
            # call_ok with the call symbolic, then at every call of the universe (a substitution of constants)
            one = e.call_ok(st, dealer, n_, s_)
            term = packed([z3.substitute(one, (n_, z3.IntVal(n)), (s_, z3.IntVal(s))) for n, s in calls])
            return ev([fs[1], fs[7], fs[9], dealer], [term])  # top, passes, to_move: what call_ok reads

        self._ok = E("call_ok", ok)

        def step(e: Encoding) -> Built:
            st2 = e.auction_step(st, n_, s_)
            return ev([*fs, n_, s_], [pack_state([st2.ended, st2.top, st2.holder, *st2.active, st2.passes,
                                                  st2.spoken, st2.to_move])])

        self._step = E("step", step)

        def start(e: Encoding) -> Built:
            st0 = e.auction_start(dealer)
            return ev([dealer], [pack_state([st0.ended, st0.top, st0.holder, *st0.active, st0.passes,
                                             st0.spoken, st0.to_move])])

        self._start = E("start", start)
        key = E("key", lambda e: ev([n_, s_], [e.key(n_, s_)]))
        self.keys = {c: int(key(*c)[0]) for c in self.calls[1:]}
        self._of_key = {v: c for c, v in self.keys.items()}
        n, bt, tt = z3.Int("mx_contract"), z3.Int("mx_bteam"), z3.Int("mx_btricks")
        self._team = E("team_deltas", lambda e: ev([n, bt, tt], list(e.team_deltas(n, bt, tt))))
        self._b13 = E("bid13", lambda e: ev([n, tt], [e.bid13_wins(n, tt)]))
        s0, s1, target, b13 = z3.Int("mx_ts0"), z3.Int("mx_ts1"), z3.Int("mx_atarget"), z3.Bool("mx_b13")

        def aout(e: Encoding) -> Built:
            o = e.auction_outcome([s0, s1], target, bt, b13)
            return ev([s0, s1, target, bt, b13], [o.winner(), o.clause])

        self._auc_out = E("auc_outcome", aout)

    # ------------------------------------------------------------ seats and deal
    def next(self, s: int) -> int:
        """next_seat: the seat after ``s`` in the direction of play."""
        return int(self._next(s)[0])

    def order(self, first: int) -> list[int]:
        """Four seats in the direction of play from ``first``."""
        out = [first]
        for _ in range(3):
            out.append(self.next(out[-1]))
        return out

    def redeal_dealer(self, d: int) -> int:
        """dealer_after_redeal: who deals after a deal by ``d`` cancelled by the bid total."""
        return int(self._redeal(d)[0])

    def lead(self, dealer: int, holder: int) -> int:
        """first_leader: who leads the first trick (the contract holder ``holder``, -1 for none)."""
        return int(self._lead(dealer, max(holder, 0))[0])

    def hands(self, dealer: int, deck: Sequence[int]) -> list[int]:
        """deal.order: card i to the (i mod 4 + 1)-th seat after the dealer in the direction of play (or by the
        packets the encoding deals in: :meth:`Encoding.dealt_to`)."""
        seats = self.order(self.next(dealer))
        out = [0, 0, 0, 0]
        for i, c in enumerate(deck):
            out[seats[self.enc.dealt_to(i)[0]]] |= 1 << c
        return out

    def weak(self, hand: int) -> bool:
        """weak_hand, read card by card (lemma: a hand is weak iff each of its cards alone is)."""
        return all(self._weak_card[c] for c in range(52) if hand >> c & 1)

    def high(self, c: int) -> bool:
        """Whether the card ``c`` alone is no weak hand (a card above 10)."""
        return not self._weak_card[c]

    def trump(self, revealed: int, named: int) -> int:
        """trump_suit: the trump from the card turned up and the strain named."""
        vals = {"mx_revealed": revealed, "mx_named": named}
        return int(self._trump(*[vals[str(x)] for x in self._trump.xs])[0])

    def trump_ok(self) -> frozenset[int]:
        """trump_ok: the strains the contract holder may name."""
        bits = int(self._trump_ok(0)[0])
        return frozenset(s for s in range(5) if bits >> s & 1)

    def target(self, games: int) -> int:
        """target_in_force: the target after ``games`` games won (play on)."""
        return int(self._target(games)[0])

    # ------------------------------------------------------------ play
    def mask(self, hand: int, led: int, trump: int) -> int:
        """legal_mask, read at the hand with its suits filled up (lemma: the legal set is the hand masked by it)."""
        return hand & int(self._mask(fill(hand), NO_LED if led < 0 else led, NO_TRUMP if trump < 0 else trump)[0])

    def winner(self, cards: Sequence[int], trump: int) -> int:
        """trick_winner (index in play order), read at the trick's canonical form (lemma: which suits are equal, to
        each other and to trump, and the order within a suit decide)."""
        return int(self._winner(*canon(cards, NO_TRUMP if trump < 0 else trump))[0])

    # ------------------------------------------------------------ individual bids
    def timer_bid(self) -> int | None:
        """timer.auto-bid: the bid the turn timer declares (None: the ruleset has no timer)."""
        return self.rules.auto_bid if "timer.auto-bid" in self.rules.ruleset.clauses and self.rules.auto_bid else None

    def timer_card(self, legal: int, trump: int) -> int | None:
        """timer.auto-play, read as the ambiguity weakest-card's reading the option names: the lowest rank among the
        legal cards (lowest-non-trump: among those outside trump, when there is one), equal ranks in the order
        clubs, diamonds, hearts, spades. None: the ruleset has no timer."""
        if "timer.auto-play" not in self.rules.ruleset.clauses or not self.rules.auto_play:
            return None
        pool = legal
        if self.rules.auto_play == "lowest-non-trump" and 0 <= trump < 4 and legal & ~SUIT_MASKS[trump]:
            pool = legal & ~SUIT_MASKS[trump]
        return next(13 * suit + rank for rank in range(13) for suit in range(4) if pool >> (13 * suit + rank) & 1)

    def legal_bids(self, score: int) -> frozenset[int]:
        """legal_bid: the bids 0..14 a seat at ``score`` may make."""
        bits = int(self._bids(score)[0])
        return frozenset(b for b in range(15) if bits >> b & 1)

    def played(self, bids: Sequence[int], scores: Sequence[int]) -> bool:
        """bid.total: whether a deal played on ``scores`` with ``bids`` is played."""
        return bool(self._played(*bids, *scores)[0])

    def total(self, scores: Sequence[int]) -> int:
        """bid.total: the threshold of a deal played on ``scores`` (raised-total: it may rise with them)."""
        return int(self._total(*scores)[0])

    def delta(self, bid: int, tricks: int) -> int:
        """individual_delta: the score change of ``bid`` with ``tricks`` taken."""
        return int(self._delta(bid, tricks)[0])

    def ind_outcome(self, scores: Sequence[int], bids: Sequence[int], tricks: Sequence[int],
                    target: int) -> tuple[int | None, str]:
        """individual_outcome at the target in force: the winning team (None: none) and the deciding clause."""
        w, c = self._ind_out(*scores, *bids, *tricks, target)
        return (None if w < 0 else int(w)), str(c)

    # ------------------------------------------------------------ auction
    def start(self, dealer: int) -> St:
        """auction_start: the auction's first state under ``dealer``."""
        return unpack_state(int(self._start(dealer)[0]))

    def legal_calls(self, st: St, dealer: int) -> frozenset[Call]:
        """call_ok for every call, read at the fields of the state it reads (the result would not reduce to a
        value, and :func:`tarneeb_proofs.evaluate.py_value` would refuse it, if it read another one)."""
        bits = int(self._ok(st[1], st[7], st[9], dealer)[0])
        return frozenset(c for i, c in enumerate(self.calls) if bits >> i & 1)

    def step(self, st: St, call: Call) -> St:
        """auction_step: the auction state after ``call``."""
        return unpack_state(int(self._step(*st, *call)[0]))

    def decode(self, top: int) -> Call:
        """The call whose key is ``top``."""
        return self._of_key[top]

    def team_deltas(self, n: int, bt: int, tt: int) -> tuple[int, int]:
        """team_deltas: the two teams' changes for a contract of ``n`` by team ``bt`` taking ``tt`` tricks."""
        d0, d1 = self._team(n, bt, tt)
        return int(d0), int(d1)

    def bid13(self, n: int, tt: int) -> bool:
        """bid13_wins: whether a contract of ``n`` with ``tt`` tricks wins on the spot."""
        return bool(self._b13(n, tt)[0])

    def auc_outcome(self, s0: int, s1: int, target: int, bt: int, b13: bool) -> tuple[int | None, str]:
        """auction_outcome: the winning team (None: none) and the deciding clause."""
        w, c = self._auc_out(s0, s1, target, bt, b13)
        return (None if w < 0 else int(w)), str(c)

