"""Family ``tools``: the tools that check other engines take every rule from the proved core (issue 22, item 4).

The tools are run on records of whole matches (:func:`_matches`: the match stage's steered matches, which reach
every kind of transition of its coverage table, and :func:`match_records`'s random ones; written in the record
format of ``spec/records/README.md`` by :mod:`tarneeb.records.writer`) and compared with what the engine
(:class:`~tarneeb.core.match.Match`) did, with a table of the spec's clause ids written here, and with the
encoding (:mod:`tarneeb_proofs.encode`) for the outcome's clause. Stages, each one check per ruleset and option
variant:

* ``verify-fast``: the verifier's fast path (:func:`tarneeb.records.fastpath.fast_hand`) alone takes every line of
  a clean record, and ``verify`` (fast path first) reports nothing.
* ``verify-replay``: the step-by-step replay (``verify`` with the fast path off: every line through
  :class:`tarneeb.records.replay.HandReplay`) reports nothing on a clean record.
* ``vectors``: the conformance vectors' reference answers (:mod:`tarneeb.conformance.vector_ref`: play and bid
  legality, trick winners, the end of the bidding, scores, outcomes, deals, whole hands, runs of deals, perft
  counts) equal the engine's on states from those matches.
* ``referee``: the referee (:func:`tarneeb.ruling.decision.decide`) answers who wins, the score, whether the deal
  is played, who deals next, who wins a trick and who leads as the engine played it.
* ``corruption``: every single-field corruption of a line (:data:`CORRUPTIONS`: the dealer, the deck, the revealed
  card, trump, a bid's seat, an illegal bid, a call on a deal thrown in for a weak hand, the redeal cause, the
  contract, a trick's leader, a revoke, a trick's winner, the tricks won, a score change, the running scores, the
  outcome's winner, clause and match end; the header's first dealer and start scores) is reported on that line, on
  the corrupted field, with the clause the table gives; every other divergence on that line follows from an earlier
  one, and the next line (a correct one) reports nothing. Both paths: ``verify`` with the fast path, and without.

A failure is a counterexample naming the tool's function, the input (ruleset, match and seed, line, what was
changed), what the tool says and what the engine or the table says, and the clause with its source.
This is a bounded check (the matches played and the lines corrupted), not a proof: the engine family proves the
rule functions themselves, and this family shows the tools use them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import z3

from tarneeb.conformance import vector_ref as V
from tarneeb.conformance.protocol import PERFT_CLAUSE
from tarneeb.conformance.vectors import cite_clause as V_cite
from tarneeb.core import hand as H
from tarneeb.core import rules as R
from tarneeb.core.actions import Action, Bid, Deal, Play, parse_action
from tarneeb.core.cards import STRAINS, SUITS, card_str, cards_of, parse_card, strain_text
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import OptionValue, Rules, get_ruleset, load_rules, rulesets
from tarneeb.errors import IllegalAction
from tarneeb.records import Divergence, RecordProblem, Verifier, match_dicts
from tarneeb.records import fastpath as FP
from tarneeb.ruling import decision as DEC
from tarneeb.ruling import parse_situation
from tarneeb.ruling.situation import Missing, NotApplicable

from .encode import Encoding
from .evaluate import Ev
from .match_stage import MatchMismatch, steered_matches
from .mutants import MUTANTS, MutantError, applied, mutated_source, source_of
from .obligations import Check, Obligation
from .witness import Witness

FAMILY = "tools"
STAGES = ("verify-fast", "verify-replay", "vectors", "referee", "corruption")
CLAUSES = ("deal.first-dealer", "deal.rotation", "redeal.dealer", "deal.deck", "deal.weak-redeal", "trump.source",
           "bid.turn", "bid.no-pass", "bid.range", "bid.total", "auction.order", "auction.range", "auction.raise",
           "auction.dealer-privilege", "auction.continuous", "auction.all-pass", "auction.egyptian", "play.lead",
           "play.next-lead", "play.follow", "play.winner", "play.direction", "score.individual", "score.values",
           "score.standard", "score.bid-only", "score.kaboot", "score.bid13", "win.qualify", "win.target",
           "tie.both-qualify", "win.made-bid", "win.play-on", "hand.tricks")

# the option variants checked per ruleset (the default first): the ones that change what the tools must follow
VARIANTS: dict[str, list[dict[str, OptionValue]]] = {
    "classic": [{}, {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"},
                {"egyptian": True, "auction": "continuous", "all_pass": "dealer-forced", "bid13": "26",
                 "kaboot": "double", "min_bid": 8}],
    "bsfyi-41": [{}, {"rising_min_bid": True, "made_bid_wins": 10, "bid_total_min": 13,
                      "trump_source": "revealed-suit"}],
    "card-kings-41": [{}],
    "eram-41": [{}],
    "tarneeb-400": [{}, {"target": 61}],
}
MATCHES = 3  # matches per ruleset and variant
MAX_DEALS = 25  # a match still going after this many deals is recorded unfinished
SEED = 22


# ====================================================================== the records


def match_records(rules: Rules, n: int, seed: int) -> list[Match]:
    """``n`` seeded self-play matches under ``r``: random legal actions and decks, from scores near the target.

    Beside the match stage's steered matches (:func:`_matches`), this generator steers some deals simply: a run of
    cancelled deals at the start of a match (one, two or three in a row: every seat makes its lowest call, which cancels the deal when
    the ruleset allows it), a bid of 13 as the first call of the next deal, a weak hand after it (under
    ``weak_redeal``: a deck whose every fourth card is a ten or lower), and otherwise random calls that lean low;
    under play-on the match goes on past the first game won.
    """
    out = []
    for i in range(n):
        rng = random.Random(seed * 1000 + i)
        dealer = rng.randrange(4)
        lo, hi = rules.target - 8, rules.target - 1
        if i % 3 == 2:  # low scores (the lowest bids, which a rising minimum raises, can cancel a deal)
            scores = [rng.randint(-4, 12) for _ in range(4)]
            if not rules.individual:
                scores[2:] = scores[:2]
        elif rules.individual:
            scores = [rng.randint(lo, hi) if s % 2 == i % 2 else rng.randint(-4, 12) for s in range(4)]
        else:
            a, b = rng.randint(rules.target - 14, rules.target - 3), rng.randint(rules.target - 14, rules.target - 3)
            scores = [a, b, a, b]
        m = Match(rules, dealer, scores)
        cancel_run = (2, 1, 3)[i % 3]
        deals = 0
        plan = "cancel"
        while not m.is_over() and deals < MAX_DEALS:
            if m.phase is Phase.DEAL:
                deals += 1
                k = len(m.records)
                plan = "cancel" if k < cancel_run else ("weak" if rules.weak_redeal and k == cancel_run + 1 else
                                                        "bid13" if k == cancel_run else "play")
                m.apply(Deal(_deck(rng, plan == "weak")))
                continue
            legal = list(m.legal_actions())
            if m.phase is Phase.BIDDING and plan == "cancel":
                m.apply(legal[0])  # the lowest bid, or a pass
            elif m.phase is Phase.BIDDING and plan == "bid13":
                m.apply(legal[-1])  # the first call of the first played deal: 13 (Egyptian: 13 no trump)
                plan = "play"
            else:
                m.apply(_choose(m, legal, rng))
        out.append(m)
    return out


def _choose(m: Match, legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action; calls lean to a pass or one of the three lowest bids (so that bids are made and
    matches end), with now and then any legal call (a bid of 13)."""
    if m.phase is not Phase.BIDDING or rng.random() < 0.1:
        return rng.choice(legal)
    bids = [a for a in legal if isinstance(a, Bid) and a.n is not None]
    if not bids or (len(bids) < len(legal) and rng.random() < 0.45):
        return legal[0]  # a pass
    return rng.choice(bids[:3])


def _deck(rng: random.Random, weak: bool) -> tuple[int, ...]:
    deck = list(range(52))
    rng.shuffle(deck)
    if weak:  # cards 0, 4, 8, ... (one seat's hand) all ten or lower: ranks 2..10 are 0..8 of each suit
        low = [c for c in deck if c % 13 <= 8]
        rest = [c for c in deck if c not in low[:13]]
        deck = [low[j // 4] if j % 4 == 0 else rest.pop() for j in range(52)]
    return tuple(deck)


@dataclass
class Recorded:
    """One match as the engine played it and as its record lines (header first)."""

    name: str  # "match i (seed s)"
    m: Match
    lines: list[bytes]
    objs: list[dict[str, Any]]
    before: list[tuple[list[int], int]]  # the scores and the target in force before each deal
    actions: list[list[Action]]  # each deal's actions after its Deal


def _matches(rules: Rules) -> list[tuple[str, Match]]:
    """The matches the tools are run on: the match stage's steered matches (every kind of transition of its
    coverage table; those that start part-way into a match, with games already won or a target raised by play on,
    are left out: a record's header gives start scores, not those), then :func:`match_records`'s random ones.
    Raises :class:`~tarneeb_proofs.match_stage.MatchMismatch` when the engine disagrees with the encoding there."""
    out = [(f"steered match '{s.scenario}'", s.match) for s in steered_matches(rules, SEED)
           if s.start.target is None and not s.start.games]
    out += [(f"match {i} (seed {SEED * 1000 + i})", m) for i, m in enumerate(match_records(rules, MATCHES, SEED))]
    return out


@functools.cache
def _recorded(rid: str, opts: tuple[tuple[str, OptionValue], ...]) -> tuple[Recorded, ...]:
    rules = load_rules(rid, dict(opts))
    out = []
    for i, (name, m) in enumerate(_matches(rules)):
        # a record starts at the first game (its header can give start scores, not games already won)
        assert not m.start_games, "the tools' matches start at the first game"
        objs = list(match_dicts(m, f"{rid}-{i}"))
        before: list[tuple[list[int], int]] = []
        scores, target = list(m.start_scores), rules.target
        for rec in m.records:
            before.append((scores, target))
            scores = list(rec.scores_after)
            if any(n.startswith("win.play-on") for n in rec.notes):
                target = rules.target + rules.play_on_raise
        acts: list[list[Action]] = []
        for a in m.history:
            if isinstance(a, Deal):
                acts.append([])
            else:
                acts[-1].append(a)
        out.append(Recorded(name, m, [orjson.dumps(o) for o in objs], objs, before, acts))
    return tuple(out)


# ====================================================================== counterexamples


@dataclass
class Failure:
    fn: str  # the tool's function
    inputs: str
    tool: str  # what the tool says
    want: str  # what the engine or the table says
    clause: str
    title: str = "a tool disagrees with the engine or the table of clauses"

    def witness(self, rules: Rules) -> Witness:
        w = Witness(title=self.title)
        w.add("tool function", self.fn)
        w.add("input", self.inputs)
        w.add("tool says", self.tool)
        w.add("expected", self.want)
        w.add("clause", clause_text(rules, self.clause))
        w.clauses = [self.clause]
        return w


def clause_text(rules: Rules, cid: str) -> str:
    """A clause with its source, as the conformance vectors cite it (a clause of the ruleset, or the protocol's
    definition of the perft count); one this family names that the ruleset lacks is said so."""
    if cid in rules.ruleset.clauses or cid.startswith("protocol."):
        return V_cite(rules.ruleset.id, cid)
    return f"{cid} (named by this family; not a clause of {rules.id})"


def _where(rules: Rules, rec: Recorded) -> str:
    opts = ",".join(f"{k}={v}" for k, v in rules.options if k in _changed(rules)) or "default"
    return f"{rules.id} ({opts}), {rec.name}"


def _changed(rules: Rules) -> set[str]:
    return {k for k, v in rules.options if rules.ruleset.option(k).default != v}


def _div_text(d: Divergence) -> str:
    f = "" if d.follows_line is None else f", follows line {d.follows_line} {d.follows_field}"
    return f"line {d.line} {d.field}: claims {d.claimed}, expects {d.expected} [{d.clause}{f}]"


_CHECK_HAND = ("tarneeb.records.verify.Verifier.check_hand (the dealer and the end of the match, as the line before "
               "left them: tarneeb.records.replay.HandReplay)")


def _report_fn(d: Divergence | RecordProblem) -> str:
    if isinstance(d, Divergence) and d.field in ("dealer", "hand"):
        return _CHECK_HAND
    return "tarneeb.records.replay.HandReplay"


# ====================================================================== stage: clean records


def _fast_clean(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    for rec in recs:
        v = Verifier()
        v.feed_line(rec.lines[0], len(rec.lines[0]), "record", 1)
        for i, obj in enumerate(rec.objs[1:], start=2):
            st = v.state
            if st is None or not FP.fast_hand(st, dict(obj)):  # (by the module: a mutant patches it there)
                k = i - 2
                hr = rec.m.records[k]
                scores, target = rec.before[k]
                # what the state the fast path left differs in from the engine's, if anything
                if st is not None and st.dealer != hr.dealer:
                    why, clause = f"it expects seat {st.dealer} to deal, the engine's dealer is seat {hr.dealer}", \
                        _dealer_clause(Line(rules, hr, rec.m.records[k - 1] if k else None, obj, k, "",
                                            lambda c, t: 0))[0]
                elif st is not None and list(st.table.scores) != scores:
                    why, clause = f"it holds the scores {list(st.table.scores)}, the engine's are {scores}", \
                        _kind_clause(rules, rec.m.records[k - 1]) if k else "score.individual"
                elif st is not None and st.table.target != target:
                    why, clause = f"it holds the target {st.table.target}, the engine's is {target}", "win.play-on"
                else:
                    why, clause = "", _kind_clause(rules, hr)
                return Failure("tarneeb.records.fastpath.fast_hand",
                               f"{_where(rules, rec)}, line {i} (deal {k}, {_kind(hr)}) of a clean record",
                               "refuses the line (it is handed to the replay)" + (f": {why}" if why else ""),
                               "takes it: the engine wrote it", clause)
        reps = _verify(rec.lines, True)
        if reps:
            d = reps[0]
            return Failure(_report_fn(d), f"{_where(rules, rec)}, a clean record", _rep_text(d), "no report",
                           d.clause if isinstance(d, Divergence) else "hand.tricks")
    return None


def _replay_clean(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    for rec in recs:
        reps = _verify(rec.lines, False)
        if reps:
            d = reps[0]
            return Failure(_report_fn(d), f"{_where(rules, rec)}, line {d.line} of a clean record (fast path off)",
                           _rep_text(d), "no report: the engine wrote the line",
                           d.clause if isinstance(d, Divergence) else "hand.tricks")
        # the same record with each deal given as the four hands, each sorted as an engine may write them (the
        # format's other form of a deal: the verifier rebuilds the deck, the revealed card the dealer's last)
        reps = _verify([rec.lines[0], *(orjson.dumps(_as_hands(rules, o)) for o in rec.objs[1:])], True)
        if reps:
            d = reps[0]
            return Failure(_report_fn(d), f"{_where(rules, rec)}, line {d.line} of a clean record, its deal given as "
                           "hands", _rep_text(d), "no report: the engine dealt those hands",
                           d.clause if isinstance(d, Divergence) else "deal.deck")
    return None


def _as_hands(rules: Rules, obj: dict[str, Any]) -> dict[str, Any]:
    """A deal line with ``hands`` (by seat, each sorted) in place of ``deck``; other lines as they are."""
    if "deck" not in obj:
        return obj
    text = obj["deck"]
    deck = [parse_card(text[i:i + 2]) for i in range(0, len(text), 2)]
    hands = [[card_str(c) for c in sorted(cards_of(h))] for h in R.deal_hands(rules, obj["dealer"], deck)]
    out = {k: v for k, v in obj.items() if k != "deck"}
    out["hands"] = hands
    return out


def _verify(lines: Sequence[bytes], fast: bool, v: Verifier | None = None, first: int = 1
            ) -> list[Divergence | RecordProblem]:
    v = v or Verifier(fast=fast)
    out: list[Divergence | RecordProblem] = []
    for i, ln in enumerate(lines, start=first):
        out += v.feed_line(ln, len(ln), "record", i)
    return out


def _rep_text(d: Divergence | RecordProblem) -> str:
    if isinstance(d, Divergence):
        return _div_text(d)
    return f"line {d.line} {d.field}: {d.message} ({d.severity})"


def _kind(rec: HandRecord) -> str:
    return "a played deal" if rec.redeal is None else f"a deal cancelled by {rec.redeal}"


def _kind_clause(rules: Rules, rec: HandRecord) -> str:
    return rec.redeal or ("score.individual" if rules.individual else "score.standard")


# ====================================================================== stage: corruptions

# The table: for each field a record line has, how it is corrupted and the clause (a clause id of the spec,
# spec/records/README.md's "clause(s) cited when it disagrees") the verifier must cite for it. Written from the
# spec, not from the verifier's code.


@dataclass
class Line:
    """A hand line to corrupt and what the table needs to know of it."""

    r: Rules
    rec: HandRecord
    prev: HandRecord | None  # the deal before, None for the first
    obj: dict[str, Any]
    k: int  # deal number
    outcome_clause: str  # the encoding's deciding clause of this deal's outcome (played deals)
    winner_index: Callable[[Sequence[int], int], int]  # the encoding's trick winner (index in play order)
    header: dict[str, Any] = dataclasses.field(default_factory=dict)  # the match header line


# the corrupted line and what was changed (None: not this line), and the exact field reported when not ``report``
Change = Callable[[Line], tuple[dict[str, Any], str] | None]
Expect = Callable[[Line], tuple[str, ...]]  # the clause ids the verifier may cite


@dataclass(frozen=True)
class Corruption:
    name: str
    report: str  # the field the divergence is expected on ("tricks[": the one the change names first)
    change: Change
    clauses: Expect
    same_line: frozenset[str] = frozenset()  # fields that may also diverge independently on the line (by design)
    header: bool = False  # a header field: the report lands on the first hand line


def _dealer_clause(x: Line) -> tuple[str, ...]:
    """deal.first-dealer for the first deal; after a played deal deal.rotation; after a cancelled one the clause
    naming the next dealer: redeal.dealer after a low bid total, else the clause that cancelled it."""
    if x.prev is None:
        return ("deal.first-dealer",)
    if x.prev.redeal is None:
        return ("deal.rotation",)
    return ("redeal.dealer",) if x.prev.redeal == "bid.total" else (x.prev.redeal,)


def _turn_clause(rules: Rules) -> str:
    """Whose turn to bid: bid.turn (individual bids), auction.order (one round), auction.continuous."""
    if rules.individual:
        return "bid.turn"
    return "auction.continuous" if rules.auction_style == "continuous" else "auction.order"


def _score_clause(x: Line) -> tuple[str, ...]:
    """A played deal's score: score.individual (individual bids); in the auction, score.bid13 for a contract of 13
    under a bid-13 rule, score.kaboot when a team took all 13 tricks, else score.standard or score.bid-only."""
    r, rec = x.r, x.rec
    if r.individual:
        return ("score.individual",)
    assert rec.contract is not None
    if rec.contract[1] == 13 and r.bid13 != "normal":
        return ("score.bid13",)
    tw = rec.tricks_won
    if 13 in (tw[0] + tw[2], tw[1] + tw[3]):
        return ("score.kaboot",)
    return ("score.standard",) if r.score_style == "standard" else ("score.bid-only",)


def _delta_clause(x: Line) -> tuple[str, ...]:
    """A wrong change of seat 0 (made 100 more): individual bids cite score.values when the sign is still right
    (a made bid), score.individual when it is not (a failed bid now gains); the auction its scoring clause."""
    if x.r.individual:
        return ("score.values",) if x.rec.deltas[0] > 0 else ("score.individual",)
    return _score_clause(x)


def _trump_clause(rules: Rules) -> str:
    return "auction.egyptian" if rules.egyptian else "trump.source"


def _set(x: Line, **kw: Any) -> dict[str, Any]:
    return {**x.obj, **kw}


def _ch_dealer(x: Line) -> tuple[dict[str, Any], str] | None:
    d = x.obj["dealer"]
    return _set(x, dealer=(d + 1) % 4), f"dealer {d} -> {(d + 1) % 4}"


def _ch_deck(x: Line) -> tuple[dict[str, Any], str] | None:
    deck = x.obj["deck"]
    return _set(x, deck=deck[2:4] + deck[2:]), f"deck: card 0 {deck[:2]} replaced by card 1 {deck[2:4]} (twice)"


def _ch_revealed(x: Line) -> tuple[dict[str, Any], str] | None:
    if "revealed" not in x.obj:
        return None
    other = x.obj["deck"][:2]
    return _set(x, revealed=other), f"revealed {x.obj['revealed']} -> {other}"


def _ch_trump(x: Line) -> tuple[dict[str, Any], str] | None:
    r, t = x.r, x.obj.get("trump")
    if x.rec.redeal is None and not r.individual and not r.egyptian:
        return None  # the contract holder names trump: any suit named is the trump
    if t is None:
        return _set(x, trump="S"), "trump null -> S (no trump is known in this deal)"
    other = "S" if t != "S" else "H"
    return _set(x, trump=other), f"trump {t} -> {other}"


def _ch_bid_seat(x: Line) -> tuple[dict[str, Any], str] | None:
    bids = x.obj.get("bids") or []
    if not bids:
        return None
    for step in (1, 2, 3):
        new = [[(bids[0][0] + step) % 4, bids[0][1]]] + [list(b) for b in bids[1:]]
        if [b[0] for b in new] != [0, 1, 2, 3]:  # (seats 0, 1, 2, 3 would read as bids listed by seat)
            return _set(x, bids=new), f"bids[0] seat {bids[0][0]} -> {new[0][0]}"
    return None


def _ch_bid_illegal(x: Line) -> tuple[dict[str, Any], str] | None:
    bids = x.obj.get("bids") or []
    if not bids:
        return None
    if x.r.individual:
        bad = "pass"
    else:
        bad = f"{x.r.min_bid - 1}" + ("C" if x.r.egyptian else "")
    return _set(x, bids=[[bids[0][0], bad]] + [list(b) for b in bids[1:]]), f"bids[0] {bids[0][1]} -> {bad}"


def _bid_illegal_clause(x: Line) -> tuple[str, ...]:
    """No pass among individual bids (bid.no-pass); a call below the lowest bid (auction.range)."""
    return ("bid.no-pass",) if x.r.individual else ("auction.range",)


def _ch_weak_bids(x: Line) -> tuple[dict[str, Any], str] | None:
    """A call written on a deal thrown in for a weak hand, before any call could be made."""
    if x.rec.redeal != "deal.weak-redeal":
        return None
    seat = (x.obj["dealer"] + 1) % 4
    return _set(x, bids=[[seat, "pass"]]), f"bids [] -> [[{seat}, \"pass\"]] (a call on a deal thrown in)"


def _ch_redeal(x: Line) -> tuple[dict[str, Any], str] | None:
    if x.rec.redeal is None:
        claim = "bid.total" if x.r.individual else "auction.all-pass"
        return _set(x, redeal=claim), f"redeal null -> {claim} (a played deal claimed cancelled)"
    return _set(x, redeal=None), f"redeal {x.rec.redeal} -> null (a cancelled deal claimed played)"


def _redeal_clause(x: Line) -> tuple[str, ...]:
    """A played deal claimed cancelled: the clause that would cancel it (bid.total, auction.all-pass); a cancelled
    one claimed played, or cancelled by another cause: the clause that cancelled it."""
    if x.rec.redeal is None:
        return ("bid.total",) if x.r.individual else ("auction.all-pass",)
    return (x.rec.redeal,)


def _ch_redeal_cause(x: Line) -> tuple[dict[str, Any], str] | None:
    if x.rec.redeal is None:
        return None
    other = "bid.total" if x.rec.redeal != "bid.total" else "auction.all-pass"
    return _set(x, redeal=other), f"redeal {x.rec.redeal} -> {other}"


def _ch_contract(x: Line) -> tuple[dict[str, Any], str] | None:
    if x.r.individual:
        return None
    c = x.obj.get("contract")
    if c is None:
        new = {"seat": x.obj["dealer"], "bid": str(x.r.min_bid) + ("S" if x.r.egyptian else "")}
        return _set(x, contract=new), f"contract null -> {new} (all passed)"
    new = {"seat": (c["seat"] + 1) % 4, "bid": c["bid"]}
    return _set(x, contract=new), f"contract seat {c['seat']} -> {new['seat']}"


def _contract_clause(x: Line) -> tuple[str, ...]:
    """The auction decides the contract: auction.all-pass when all passed, deal.weak-redeal when the deal was thrown
    in before the bidding, else the auction's style."""
    if x.rec.contract is None:
        return ("deal.weak-redeal",) if x.rec.redeal == "deal.weak-redeal" else ("auction.all-pass",)
    return ("auction.continuous",) if x.r.auction_style == "continuous" else ("auction.dealer-privilege",)


def _tricks(x: Line) -> list[dict[str, Any]] | None:
    t = x.obj.get("tricks")
    return None if t is None else [dict(tr, cards=list(tr["cards"])) for tr in t]


def _ch_leader(x: Line) -> tuple[dict[str, Any], str] | None:
    """The first trick's leader moved one seat on (odd deals: a later trick, given the leader of the trick before
    it, as a writer that records the leader before the winner would)."""
    t = _tricks(x)
    if t is None:
        return None
    k = _later_lead(t) if x.k % 2 else 0
    old = t[k]["leader"]
    t[k]["leader"] = t[k - 1]["leader"] if k else (old + 1) % 4
    return _set(x, tricks=t), f"tricks[{k}].leader {old} -> {t[k]['leader']}"


def _later_lead(t: list[dict[str, Any]]) -> int:
    """A trick from the 8th on (else any) whose leader is not the previous trick's (0: none is)."""
    return next((k for k in (*range(7, 13), *range(1, 7)) if t[k]["leader"] != t[k - 1]["leader"]), 0)


def _leader_clause(x: Line) -> tuple[str, ...]:
    """The first trick's leader: play.lead; a later one: play.next-lead (the winner of the trick before)."""
    t = x.obj.get("tricks") or []
    return ("play.next-lead",) if x.k % 2 and t and _later_lead(t) else ("play.lead",)


def _ch_revoke(x: Line) -> tuple[dict[str, Any], str] | None:
    """A revoke: a seat that followed suit in trick k plays there instead its card of a later trick, of another
    suit, which it held then; that later trick gets the followed card, and still has its winner (by the
    encoding's trick winner), so that only the revoke is wrong there."""
    t = _tricks(x)
    if t is None:
        return None
    codes = {card_str(c): c for c in range(52)}
    trump = 4 if x.rec.trump is None or x.rec.trump < 0 else x.rec.trump
    for k in range(12):
        led = codes[t[k]["cards"][0]] // 13
        for j in range(1, 4):
            c = t[k]["cards"][j]
            if codes[c] // 13 != led:
                continue
            seat = _seat_at(x, t, k, j)
            for k2 in range(k + 1, 13):
                j2 = next(jj for jj in range(4) if _seat_at(x, t, k2, jj) == seat)
                c2 = t[k2]["cards"][j2]
                if codes[c2] // 13 == led:
                    continue
                later = [codes[y] for y in t[k2]["cards"]]
                later[j2] = codes[c]
                if (t[k2]["leader"] + x.winner_index(later, trump) * x.r.step) % 4 != t[k2]["winner"]:
                    continue
                t[k]["cards"][j], t[k2]["cards"][j2] = c2, c
                return _set(x, tricks=t), f"tricks[{k}].cards[{j}] {c} <-> tricks[{k2}].cards[{j2}] {c2}"
    return None


def _seat_at(x: Line, t: list[dict[str, Any]], k: int, j: int) -> int:
    """The seat that played the j-th card of trick k, by the direction of play of the resolved rules."""
    return int((t[k]["leader"] + j * x.r.step) % 4)


def _ch_winner(x: Line) -> tuple[dict[str, Any], str] | None:
    t = _tricks(x)
    if t is None:
        return None
    k = 12 if x.k % 2 else 4
    old = t[k]["winner"]
    t[k]["winner"] = (old + 1) % 4
    return _set(x, tricks=t), f"tricks[{k}].winner {old} -> {t[k]['winner']}"


def _ch_tricks_won(x: Line) -> tuple[dict[str, Any], str] | None:
    tw = x.obj.get("tricks_won")
    if tw is None:
        return None
    a = next(s for s in range(4) if tw[s] > 0)
    new = list(tw)
    new[a] -= 1
    new[(a + 1) % 4] += 1
    return _set(x, tricks_won=new), f"tricks_won {tw} -> {new}"


def _seat0(x: Line, v: list[int], d: int) -> list[int]:
    """``v`` with seat 0 changed by ``d`` (in the auction family seat 2 too: partners carry the team score)."""
    out = list(v)
    out[0] += d
    if not x.r.individual:
        out[2] += d
    return out


def _ch_deltas(x: Line) -> tuple[dict[str, Any], str] | None:
    dl = x.obj.get("deltas")
    if dl is None:
        return None
    return _set(x, deltas=_seat0(x, dl, 100)), f"deltas {dl} -> {_seat0(x, dl, 100)}"


def _ch_scores(x: Line) -> tuple[dict[str, Any], str] | None:
    sc = x.obj["scores"]
    return _set(x, scores=_seat0(x, sc, -100)), f"scores {sc} -> {_seat0(x, sc, -100)}"


def _scores_clause(x: Line) -> tuple[str, ...]:
    """The running scores: the scoring clause of a played deal; a cancelled deal leaves them alone (its clause)."""
    return _score_clause(x) if x.rec.redeal is None else (x.rec.redeal,)


def _ch_winner_team(x: Line) -> tuple[dict[str, Any], str] | None:
    out = x.obj.get("outcome")
    if out is None:
        return None
    w = out["winner"]
    new = 1 if w is None else None
    return _set(x, outcome=dict(out, winner=new)), f"outcome.winner {w} -> {new}"


def _ch_outcome_clause(x: Line) -> tuple[dict[str, Any], str] | None:
    out = x.obj.get("outcome")
    if out is None or out["winner"] is None:
        return None
    other = "win.made-bid" if out["clause"] != "win.made-bid" else "win.qualify"
    return _set(x, outcome=dict(out, clause=other)), f"outcome.clause {out['clause']} -> {other}"


def _ch_match_over(x: Line) -> tuple[dict[str, Any], str] | None:
    out = x.obj.get("outcome")
    if out is None:
        return None
    return (_set(x, outcome=dict(out, match_over=not out["match_over"])),
            f"outcome.match_over {out['match_over']} -> {not out['match_over']}")


def _match_over_clause(x: Line) -> tuple[str, ...]:
    """Whether the match is over: win.play-on when the ruleset plays on after a game, else the outcome's clause."""
    return ("win.play-on",) if x.r.play_on_raise > 0 else (x.outcome_clause,)


def _ch_first_dealer(x: Line) -> tuple[dict[str, Any], str] | None:
    d = x.header["first_dealer"]
    return {**x.header, "first_dealer": (d + 1) % 4}, f"header first_dealer {d} -> {(d + 1) % 4}"


def _ch_start_scores(x: Line) -> tuple[dict[str, Any], str] | None:
    sc = x.header.get("start_scores")
    if sc is None:
        return None
    return {**x.header, "start_scores": _seat0(x, sc, -100)}, f"header start_scores {sc} -> {_seat0(x, sc, -100)}"


CORRUPTIONS: tuple[Corruption, ...] = (
    Corruption("dealer", "dealer", _ch_dealer, _dealer_clause),
    Corruption("deck", "deck", _ch_deck, lambda x: ("deal.deck",)),
    Corruption("revealed", "revealed", _ch_revealed, lambda x: ("trump.source",)),
    Corruption("trump", "trump", _ch_trump, lambda x: (_trump_clause(x.r),)),
    Corruption("bid seat", "bids[0].seat", _ch_bid_seat, lambda x: (_turn_clause(x.r),)),
    Corruption("illegal bid", "bids[0]", _ch_bid_illegal, _bid_illegal_clause),
    Corruption("bids on a weak hand", "bids", _ch_weak_bids, lambda x: ("deal.weak-redeal",)),
    Corruption("redeal", "redeal", _ch_redeal, _redeal_clause),
    Corruption("redeal cause", "redeal", _ch_redeal_cause, _redeal_clause),
    Corruption("contract", "contract", _ch_contract, _contract_clause),
    Corruption("trick leader", "tricks[", _ch_leader, _leader_clause),
    Corruption("revoke", "tricks[", _ch_revoke, lambda x: ("play.follow",)),
    # a wrong winner may be the seat that wins the other way round the table (a recognised cause: play.direction)
    Corruption("trick winner", "tricks[", _ch_winner, lambda x: ("play.winner", "play.direction")),
    Corruption("tricks won", "tricks_won", _ch_tricks_won, lambda x: ("play.winner",)),
    Corruption("deltas", "deltas", _ch_deltas, _delta_clause),
    # the outcome is judged on the record's own scores (spec/records/README.md): it may diverge with them
    Corruption("scores", "scores", _ch_scores, _scores_clause,
               frozenset({"outcome.winner", "outcome.clause", "outcome.match_over"})),
    Corruption("outcome winner", "outcome.winner", _ch_winner_team, lambda x: (x.outcome_clause,)),
    Corruption("outcome clause", "outcome.clause", _ch_outcome_clause, lambda x: (x.outcome_clause,)),
    Corruption("match over", "outcome.match_over", _ch_match_over, _match_over_clause),
    # header fields: reported on the first hand line, which they decide
    Corruption("first dealer", "dealer", _ch_first_dealer, lambda x: ("deal.first-dealer",), header=True),
    Corruption("start scores", "scores", _ch_start_scores, _scores_clause,
               frozenset({"outcome.winner", "outcome.clause", "outcome.match_over"}), header=True),
)


def _lines_to_corrupt(recs: Sequence[Recorded]) -> list[tuple[int, int]]:
    """(match, deal) of the lines corrupted: per kind of line (played, cancelled by each cause, a game won, the
    match's last line) its first few, so that every kind the matches reach is corrupted."""
    seen: dict[str, int] = {}
    out = []
    for mi, rec in enumerate(recs):
        n = len(rec.m.records)
        for k, hr in enumerate(rec.m.records):
            kind = hr.redeal or ("won" if hr.outcome is not None else "played")
            if k == n - 1:
                kind += "-last"
            if k >= 1 and rec.m.records[k - 1].redeal is not None:
                kind += "-after-" + str(rec.m.records[k - 1].redeal)
            if seen.get(kind, 0) < 2:
                seen[kind] = seen.get(kind, 0) + 1
                out.append((mi, k))
    return out


class _Outcomes:
    """The encoding's deciding clause of a hand's outcome (``Encoding.individual_outcome``, ``auction_outcome``)
    and its trick winner (``Encoding.trick_winner``)."""

    def __init__(self, enc: Encoding) -> None:
        i = [z3.Int(f"tc{k}") for k in range(12)]
        self.r = enc.r
        b = [z3.BitVec(f"tw{k}", 6) for k in range(5)]
        self._winner = Ev(b, [enc.trick_winner(b[:4], b[4])])
        if enc.r.individual:
            o = enc.individual_outcome(i[:4], i[4:8], i[8:12])
            self.ev = Ev(i, [o.clause])
        else:
            bt, b13 = z3.Int("tbt"), z3.Bool("tb13")
            self.b13 = Ev(i[:2], [enc.bid13_wins(i[0], i[1])])
            a = enc.auction_outcome(i[:2], i[2], bt, b13)
            self.ev = Ev([*i[:3], bt, b13], [a.clause])

    def winner(self, cards: Sequence[int], trump: int) -> int:
        return int(self._winner(*cards, trump)[0])

    def clause(self, rec: HandRecord, target: int) -> str:
        s, tw = rec.scores_after, rec.tricks_won
        if self.r.individual:
            bids = [0, 0, 0, 0]
            for seat, b in rec.bids:
                bids[seat] = b.n or 0
            return str(self.ev(*s, *bids, *tw)[0])
        assert rec.contract is not None
        bt = rec.contract[0] % 2
        b13 = bool(self.b13(rec.contract[1], tw[bt] + tw[bt + 2])[0])
        return str(self.ev(s[0], s[1], target, bt, b13)[0])


def _snapshots(rec: Recorded, fast: bool) -> list[Any]:
    """The verifier's match state before each hand line of a clean record (copies), on one path."""
    v = Verifier(fast=fast)
    v.feed_line(rec.lines[0], len(rec.lines[0]), "record", 1)
    out = []
    for i, ln in enumerate(rec.lines[1:], start=2):
        out.append(_copy_state(v.state))
        v.feed_line(ln, len(ln), "record", i)
    return out


def _copy_state(st: Any) -> Any:
    return None if st is None else dataclasses.replace(st, lost=list(st.lost), said=set(st.said))  # (its Table: a value)


def _corruption(rules: Rules, enc: Encoding, recs: Sequence[Recorded]) -> Failure | None:
    outcomes = _Outcomes(enc)
    snaps = {(mi, fast): _snapshots(rec, fast) for mi, rec in enumerate(recs) for fast in (True, False)}
    for mi, k in _lines_to_corrupt(recs):
        rec = recs[mi]
        hr = rec.m.records[k]
        x = Line(rules, hr, rec.m.records[k - 1] if k else None, rec.objs[k + 1], k,
                 "" if hr.redeal is not None else outcomes.clause(hr, rec.before[k][1]), outcomes.winner,
                 rec.objs[0])
        for cor in CORRUPTIONS:
            if cor.header and k != 0:
                continue
            got = cor.change(x)
            if got is None:
                continue
            obj, what = got
            line = k + 2

            def reports(fast: bool, obj: dict[str, Any] = obj, cor: Corruption = cor, mi: int = mi, k: int = k
                        ) -> list[Divergence | RecordProblem]:
                rec = recs[mi]
                if cor.header:  # the header changed: the match is read again from it, its first lines judged
                    return _verify([orjson.dumps(obj), *rec.lines[1:3]], fast)
                v = Verifier(fast=fast)
                v.state = _copy_state(snaps[(mi, fast)][k])
                return _verify([orjson.dumps(obj), *rec.lines[k + 2:k + 3]], fast, v, k + 2)

            for fast in (True, False):
                bad = _judge(rules, cor, x, line, what, reports(fast))
                if bad is not None:
                    tool, want, clause = bad
                    # the fast path's fault when the replay alone reports the corruption as the table says
                    fn = "tarneeb.records.fastpath.fast_hand" if fast and _judge(
                        rules, cor, x, line, what, reports(False)) is None else _report_fn_for(cor)
                    return Failure(fn, f"{_where(rules, rec)}, line {line} (deal {k}, {_kind(hr)}): {what}"
                                   f"{'' if fast else ' (fast path off)'}", tool, want, clause,
                                   "verify does not report a corrupted field as the table says")
    return None


def _report_fn_for(cor: Corruption) -> str:
    return _CHECK_HAND if cor.report == "dealer" else "tarneeb.records.replay.HandReplay"


def _judge(rules: Rules, cor: Corruption, x: Line, line: int, what: str, reps: Sequence[Divergence | RecordProblem]
           ) -> tuple[str, str, str] | None:
    """None when the reports are as the table says, else (what verify says, what the table says, the clause)."""
    want = cor.clauses(x)
    here = [d for d in reps if isinstance(d, Divergence) and d.line == line]
    shown = "; ".join(_rep_text(d) for d in reps[:4]) or "no report"
    fld = what.split(" ", 1)[0] if cor.report == "tricks[" else cor.report  # "tricks[3].leader 1 -> 2": tricks[3]...
    hit = [d for d in here if d.field == fld and d.clause in want]
    expect = f"a divergence on line {line} at {fld}, clause {' or '.join(want)}"
    if not hit:
        return shown, expect, want[0]
    first = hit[0]
    for d in here:
        if d is first or d.follows_line == line or d.field in cor.same_line:
            continue
        return (_rep_text(d), f"{expect}, and nothing else on that line but what follows from it", d.clause)
    later = [d for d in reps if d.line != line]
    if later:
        e = later[0]
        return (_rep_text(e), f"no report on line {e.line}, a correct line after the corrupted one",
                e.clause if isinstance(e, Divergence) else want[0])
    return None


# ====================================================================== stage: the vector reference


def _engine_at(rules: Rules, rec: Recorded, k: int, n_actions: int, more: Sequence[Action] = ()) -> Match:
    """The engine at deal ``k`` of a recorded match after the deal's first ``n_actions`` actions (and ``more``)."""
    scores, target = rec.before[k]
    m = Match.at(rules, rec.m.records[k].dealer, scores, target)
    m.apply(Deal(rec.m.records[k].deck))
    for a in (*rec.actions[k][:n_actions], *more):
        m.apply(a)
    return m


def _engine_perft(rules: Rules, rec: Recorded, k: int, n: int, depth: int, more: tuple[Action, ...] = ()) -> int:
    """Card sequences of ``depth`` from the engine's state, rebuilt for each move: 1 when no card is to be
    played (or at depth 0); a sequence that ends the deal is one leaf."""
    m = _engine_at(rules, rec, k, n, more)
    if depth == 0 or m.phase is not Phase.PLAY:
        return 1
    acts = list(m.legal_actions())
    if depth == 1:
        return len(acts)
    return sum(_engine_perft(rules, rec, k, n, depth - 1, (*more, a)) for a in acts)


def _texts(acts: Sequence[Action]) -> list[str]:
    return [str(a) for a in acts]


def _bid_candidates(rules: Rules) -> list[str]:
    if rules.individual:
        return ["bid:pass"] + [f"bid:{n}" for n in range(0, 15)]
    if rules.egyptian:
        return ["bid:pass"] + [f"bid:{n}{s}" for n in range(rules.min_bid - 1, 14) for s in STRAINS]
    return ["bid:pass"] + [f"bid:{n}" for n in range(rules.min_bid - 1, 15)]


def _contract_in(rec: HandRecord) -> dict[str, Any] | None:
    if rec.contract is None:
        return None
    seat, n, strain = rec.contract
    return {"seat": seat, "n": n, "strain": None if strain is None else STRAINS[strain]}


def _bids_of(rec: HandRecord) -> list[int]:
    bids = [0, 0, 0, 0]
    for seat, b in rec.bids:
        bids[seat] = b.n or 0
    return bids


def _vectors(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    for rec in recs:
        bad = _vectors_one(rules, rec)
        if bad is not None:
            return bad
    return None


def _vf(fn: str, rules: Rules, rec: Recorded, k: int, inp: dict[str, Any], got: Any, want: Any, clause: str) -> Failure:
    return Failure(f"tarneeb.conformance.vector_ref.{fn}", f"{_where(rules, rec)}, deal {k}: {orjson.dumps(inp).decode()}",
                   repr(got), f"{want!r} (the engine)", clause, "the vector reference disagrees with the engine")


def _vectors_one(rules: Rules, rec: Recorded) -> Failure | None:
    recs = rec.m.records
    score_cl = "score.individual" if rules.individual else "score.standard"
    for k, hr in enumerate(recs):
        scores, target = rec.before[k]
        base = {"dealer": hr.dealer, "scores": scores, "target": target, "deck": V.cs(hr.deck)}
        # the deal: hands, revealed card, trump, a weak hand
        eng = _engine_at(rules, rec, k, 0)
        inp = dict(base)
        got, _ = V.ref_deal(rules, inp)
        want = {"hands": [V.cs(cards_of(h)) for h in eng.hands] if eng.phase is not Phase.DEAL else got["hands"],
                "revealed": None if hr.revealed is None else card_str(hr.revealed),
                "trump": strain_text(eng.trump if eng.trump >= 0 else None), "redeal": eng.phase is Phase.DEAL}
        if got != want:
            return _vf("ref_deal", rules, rec, k, inp, got, want, "deal.order")
        # the whole hand through start/apply
        inp = {**base, "actions": _texts(rec.actions[k])}
        got, _, _ = V.ref_hand(rules, inp)
        want = {"trump": strain_text(hr.trump), "redeal": hr.redeal is not None, "trick_winners": list(hr.winners),
                "tricks_won": list(hr.tricks_won), "deltas": list(hr.deltas), "scores": list(hr.scores_after),
                "winner": hr.outcome, "next_dealer": got["next_dealer"]}
        # the deal after: the engine's next deal, or after the match's last deal the rotation (core's proved step)
        want["next_dealer"] = recs[k + 1].dealer if k + 1 < len(recs) else H.next_dealer(rules, hr.dealer, hr.redeal)
        if got != want:
            return _vf("ref_hand", rules, rec, k, inp, got, want, hr.redeal or score_cl)
        if hr.redeal == "deal.weak-redeal":
            continue
        # the end of the bidding
        calls = [b for _, b in hr.bids]
        inp = {"dealer": hr.dealer, "scores": scores, "bids": _texts(calls)}
        got, _, _ = V.ref_bidding_end(rules, inp)
        want = {"redeal": hr.redeal is not None,
                "next_dealer": (recs[k + 1].dealer if k + 1 < len(recs) else got["next_dealer"]) if hr.redeal
                else None}
        if got != want:
            return _vf("ref_bidding_end", rules, rec, k, inp, got, want, hr.redeal or
                       ("bid.total" if rules.individual else "auction.all-pass"))
        # bid legality after every prefix of the calls (deals 0 and 1 of the match)
        if k < 2:
            for n in range(len(calls)):
                eng = _engine_at(rules, rec, k, n)
                legal = set(_texts(eng.legal_actions()))
                for b in _bid_candidates(rules):
                    inp = {"dealer": hr.dealer, "scores": scores, "bids": _texts(calls[:n]), "bid": b}
                    got_l, clause = V.ref_bid_legal(rules, inp)
                    if got_l["legal"] != (b in legal):
                        return _vf("ref_bid_legal", rules, rec, k, inp, got_l, {"legal": b in legal}, clause)
                    if not got_l["legal"]:
                        try:
                            eng.copy().apply(parse_action(b))
                        except IllegalAction as e:
                            if clause != e.rule:
                                return _vf("ref_bid_legal", rules, rec, k, inp, clause, e.rule, e.rule)
        if hr.redeal is not None:
            continue
        # scoring and outcome
        inp = {"tricks": list(hr.tricks_won), "bids": _bids_of(hr), "contract": _contract_in(hr)}
        if rules.individual:
            del inp["contract"]
        got, _ = V.ref_score(rules, inp)
        if got != {"deltas": list(hr.deltas)}:
            return _vf("ref_score", rules, rec, k, inp, got, {"deltas": list(hr.deltas)}, score_cl)
        inp = {**inp, "scores": list(hr.scores_after), "target": target}
        got_o, clause = V.ref_outcome(rules, inp)
        if got_o != {"winner": hr.outcome} or clause != hr.outcome_rule:
            return _vf("ref_outcome", rules, rec, k, inp, (got_o, clause), ({"winner": hr.outcome}, hr.outcome_rule),
                       hr.outcome_rule)
        # each trick's winner
        trump = STRAINS[hr.trump if hr.trump is not None and hr.trump >= 0 else 4]
        for t in hr.tricks:
            inp = {"leader": t.leader, "trick": V.cs(t.cards), "trump": trump}
            got_w, _ = V.ref_trick_winner(rules, inp)
            if got_w != {"winner": t.winner}:
                return _vf("ref_trick_winner", rules, rec, k, inp, got_w, {"winner": t.winner}, "play.winner")
        # play legality at every play of the first played deal
        first_play = len(calls) + (0 if rules.individual or rules.egyptian else 1)
        if k == _first_played(recs):
            for n in range(first_play, len(rec.actions[k])):
                eng = _engine_at(rules, rec, k, n)
                playable = {a.card for a in eng.legal_actions() if isinstance(a, Play)}
                hand = eng.hands[eng.to_move]
                for c in range(52):
                    inp = {"hand": V.cs(cards_of(hand)), "trick": V.cs(eng.trick),
                           "trump": STRAINS[eng.trump] if eng.trump >= 0 else None, "card": card_str(c)}
                    got_p, _ = V.ref_play_legal(rules, inp)
                    if got_p != {"legal": c in playable}:
                        return _vf("ref_play_legal", rules, rec, k, inp, got_p, {"legal": c in playable}, "play.follow")
            # perft: at the bidding (no card to play), in the middle of the play, and from the last trick to past
            # the end of the deal
            # (the second card of the first trick with depth 4: into the second trick, led by the first's winner;
            # the last card of trick 10 with depth 7: trick 11 whole, its winner found from its own leader, who
            # then leads trick 12, whose two first cards depend on who holds what)
            for n, depth in ((0, 2), (first_play + 1, 4), (first_play + 9, 2), (len(rec.actions[k]) - 13, 7),
                             (len(rec.actions[k]) - 3, 4)):
                inp = {**base, "actions": _texts(rec.actions[k][:n]), "depth": depth}
                got_n, _ = V.ref_perft(rules, inp)
                want_n = _engine_perft(rules, rec, k, n, depth)
                if got_n != {"nodes": want_n}:
                    return _vf("ref_perft", rules, rec, k, inp, got_n, {"nodes": want_n}, PERFT_CLAUSE)
    # runs of deals from part-way: every window of three deals that the match finishes
    for k in range(0, max(0, len(recs) - 3) + 1):
        window = recs[k:k + 3]
        if len(window) < 3 and rec.m.is_over():
            break
        scores, target = rec.before[k]
        inp = {"dealer": window[0].dealer, "scores": scores, "target": target,
               "deals": [{"deck": V.cs(h.deck), "actions": _texts(rec.actions[k + j])} for j, h in enumerate(window)]}
        got, _ = V.ref_match(rules, inp)
        deals = [{"trump": strain_text(h.trump), "redeal": h.redeal is not None, "trick_winners": list(h.winners),
                 "tricks_won": list(h.tricks_won), "deltas": list(h.deltas), "scores": list(h.scores_after),
                 "winner": h.outcome, "next_dealer": recs[k + j + 1].dealer if k + j + 1 < len(recs)
                 else got["deals"][j]["next_dealer"]} for j, h in enumerate(window)]
        if got != {"deals": deals}:
            return _vf("ref_match", rules, rec, k, {"dealer": inp["dealer"], "deals": len(window)}, got, {"deals": deals},
                       "deal.rotation")
    return None


def _first_played(recs: Sequence[HandRecord]) -> int:
    return next((k for k, h in enumerate(recs) if h.redeal is None), -1)


# ====================================================================== stage: the referee


def _referee(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    opts = {k: v for k, v in rules.options if k in _changed(rules)}
    for rec in recs:
        hrs = rec.m.records
        for k, hr in enumerate(hrs):
            scores, target = rec.before[k]
            if target != rules.target:
                continue  # the referee rules on a first game
            nxt = hrs[k + 1].dealer if k + 1 < len(hrs) else None
            asks: list[tuple[dict[str, Any], dict[str, Any], str]] = []
            if hr.redeal != "deal.weak-redeal":
                if rules.individual:
                    raw = {"dealer": hr.dealer, "bids": _bids_of(hr), "question": {"kind": "redeal"}}
                    want: dict[str, Any] = {"redeal": hr.redeal is not None}
                else:
                    raw = {"dealer": hr.dealer, "auction": [_bid_word(b) for _, b in hr.bids],
                           "question": {"kind": "redeal"}}
                    want = {"redeal": hr.redeal is not None}
                if nxt is not None:
                    want["dealer"] = nxt
                asks.append((raw, want, hr.redeal or ("bid.total" if rules.individual else "auction.all-pass")))
            if nxt is not None:
                raw = {"dealer": hr.dealer, "hand": "played" if hr.redeal is None else "cancelled",
                       "question": {"kind": "next-dealer"}}
                asks.append((raw, {"dealer": nxt}, "deal.rotation" if hr.redeal is None else "redeal.dealer"))
            if hr.redeal is None:
                asks += _played_asks(rules, hr, scores)
            for raw, want, clause in asks:
                try:
                    s = parse_situation({"ruleset": rules.id, **({"options": {rules.id: opts}} if opts else {}), **raw})
                    d = DEC.decide(s.question.kind, rules, s)
                except (Missing, NotApplicable) as e:
                    got: Any = f"{type(e).__name__}: {e}"
                else:
                    got = {key: d.answer.get(key) for key in want}
                if got != want:
                    return Failure(_referee_function(rules, raw, opts),
                                   f"{_where(rules, rec)}, deal {k}: {orjson.dumps(raw).decode()}", repr(got),
                                   f"{want!r} (the engine)", clause, "the referee disagrees with the engine")
    return None


def _referee_function(rules: Rules, raw: dict[str, Any], opts: dict[str, OptionValue]) -> str:
    """The referee's function and the modules of the referee it ruled through on ``raw`` (``decide`` is split over
    the modules of :mod:`tarneeb.ruling`, by what is decided), seen by running it again under a profile hook."""
    through: list[str] = []

    def seen(frame: Any, event: str, arg: Any) -> None:
        name = str(frame.f_globals.get("__name__", ""))
        if event == "call" and name.startswith("tarneeb.ruling.") and name != DEC.__name__ and name not in through:
            through.append(name)

    s = parse_situation({"ruleset": rules.id, **({"options": {rules.id: opts}} if opts else {}), **raw})
    sys.setprofile(seen)
    try:
        DEC.decide(s.question.kind, rules, s)
    except (Missing, NotApplicable):
        pass
    finally:
        sys.setprofile(None)
    return f"{DEC.__name__}.decide" + (f" (through {', '.join(through)})" if through else "")


def _bid_word(b: Bid) -> str:
    return "pass" if b.n is None else f"{b.n}{'' if b.strain is None else STRAINS[b.strain]}"


def _played_asks(rules: Rules, hr: HandRecord, scores: list[int]) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
    out: list[tuple[dict[str, Any], dict[str, Any], str]] = []
    tw = list(hr.tricks_won)
    trump = "N" if hr.trump == 4 else SUITS[hr.trump or 0]
    if rules.individual:
        base: dict[str, Any] = {"scores": scores, "bids": _bids_of(hr), "tricks": tw}
        win: dict[str, Any] = {"winner": hr.outcome}
        if hr.outcome_rule == "win.made-bid":
            win["bidder"] = next(s for s in range(4) if _bids_of(hr)[s] == rules.made_bid_wins
                                 and tw[s] >= rules.made_bid_wins)
        out.append(({**base, "question": {"kind": "score"}}, {"deltas": list(hr.deltas)}, "score.individual"))
        out.append(({**base, "question": {"kind": "winner"}}, win, hr.outcome_rule))
        lead: dict[str, Any] = {"dealer": hr.dealer}
    else:
        assert hr.contract is not None
        seat, n, _ = hr.contract
        base = {"scores": [scores[0], scores[1]], "contract": {"seat": seat, "bid": n, "trump": trump}, "tricks": tw}
        out.append(({**base, "question": {"kind": "score"}}, {"deltas": list(hr.deltas)}, "score.standard"))
        out.append(({**base, "question": {"kind": "winner"}}, {"winner": hr.outcome}, hr.outcome_rule))
        lead = {"dealer": hr.dealer, "contract": {"seat": seat, "bid": n, "trump": trump}}
    out.append(({**lead, "question": {"kind": "who-leads"}}, {"leader": hr.leaders[0]}, "play.lead"))
    for j in (0, 5, 12):
        t = hr.tricks[j]
        raw = {"trick": {"leader": t.leader, "cards": V.cs(t.cards)}, "trump": trump,
               "question": {"kind": "trick-winner"}}
        out.append((raw, {"winner": t.winner}, "play.winner"))
        if j:
            hist = [{"leader": x.leader, "cards": V.cs(x.cards)} for x in hr.tricks[:j]]
            ask: dict[str, Any] = {**lead, "history": hist, "trump": trump, "question": {"kind": "who-leads"}}
            out.append((ask, {"leader": t.leader}, "play.next-lead"))
    return out


# ====================================================================== checks

_RUN: dict[str, Callable[[Rules, Encoding, Sequence[Recorded]], Failure | None]] = {
    "verify-fast": lambda r, enc, recs: _fast_clean(r, recs),
    "verify-replay": lambda r, enc, recs: _replay_clean(r, recs),
    "vectors": lambda r, enc, recs: _vectors(r, recs),
    "referee": lambda r, enc, recs: _referee(r, recs),
    "corruption": _corruption,
}
_WHAT = {
    "verify-fast": "the fast path takes every line of clean records; verify reports nothing",
    "verify-replay": "the replay reports nothing on clean records",
    "vectors": "the vector reference equals the engine on states of the matches",
    "referee": "the referee rules as the engine played",
    "corruption": "every single-field corruption is reported as the table says, and nothing on correct lines",
}


def _applying(mutant: str | None) -> contextlib.AbstractContextManager[None]:
    """``applied(mutant)``; nothing to do when the source already carries that very edit (a copy of the tree with
    the mutant written into its file, where ``tarneeb prove`` runs the mutant checks of the manifest too)."""
    if mutant is not None and _carried(mutant):
        return contextlib.nullcontext()
    return applied(mutant)


def _carried(mutant: str) -> bool:
    """The source already carries the mutant's edit (a patched copy of the tree)."""
    m = MUTANTS[mutant]
    src = source_of(m.module)
    return m.old not in src and m.new in src


def build(stages: Sequence[str], mutant: str | None, enc: Encoding) -> list[Obligation]:
    """One obligation per stage, discharged by running the tools (under ``mutant``) on the recorded matches."""
    if mutant is not None and not _carried(mutant):
        try:
            mutated_source(MUTANTS[mutant])
        except MutantError as e:  # a stale entry (its text edited away) fails its check as vacuous: no crash
            return [Obligation(f"stale mutant, it no longer applies: {e}", [z3.BoolVal(False)], z3.BoolVal(True))]
    r = enc.r
    out = []
    for stage in stages:
        def run(stage: str = stage) -> Witness | None:
            try:
                recs = _recorded(r.ruleset.name_ref, r.options)
            except MatchMismatch as e:  # the engine itself is wrong there: the match stage's counterexample
                return e.cx.witness(r)
            with _applying(mutant):
                bad = _RUN[stage](r, enc, recs)
            return None if bad is None else bad.witness(r)
        out.append(Obligation(f"tools {stage}: {_WHAT[stage]}", [], z3.BoolVal(True), run=run))
    return out


def tools_checks(refs: list[str] | None = None) -> list[Check]:
    """Every tools stage x ruleset x option variant, and the tools mutants of the manifest (``refs``: these
    rulesets only, also ruleset files: those get the default options and the mutants of their family kind)."""
    out: list[Check] = []
    for rid in refs if refs is not None else list(rulesets()):
        rs = get_ruleset(rid)
        builtin = rs.id in rulesets() and rid == rs.id
        clauses = tuple(c for c in CLAUSES if c in rs.clauses)
        vs = [tuple(sorted(v.items())) for v in (VARIANTS.get(rid, [{}]) if builtin else [{}])]
        for v in vs:
            for stage in STAGES:
                out.append(Check(FAMILY, rid, v, None, clauses, functools.partial(build, (stage,), None), stage))
        individual = rs.params.get("family") == "individual"
        for m in MUTANTS.values():
            if m.stage != FAMILY or not m.in_manifest:
                continue
            same_kind = (rulesets()[m.ruleset].params.get("family") == "individual") == individual
            if not {"all": True, "kind": same_kind, "own": m.ruleset == rid}[m.in_manifest]:
                continue
            opts = dict(vs[0])
            opts.update({k: x for k, x in m.options.items() if any(o.name == k for o in rs.options)})
            out.append(Check(FAMILY, rid, tuple(sorted(opts.items())), m.id, clauses,
                             functools.partial(build, STAGES, m.id)))
    return out


def tools_failure(rid: str, options: dict[str, OptionValue], stages: Sequence[str] = STAGES) -> Witness | None:
    """The first counterexample of the tools stages under the live code (the tests apply a mutant around it)."""
    rules = load_rules(rid, dict(options))
    enc = Encoding(rules)
    try:
        recs = _recorded(rid, rules.options)
    except MatchMismatch as e:
        return e.cx.witness(rules)
    for stage in stages:
        bad = _RUN[stage](rules, enc, recs)
        if bad is not None:
            return bad.witness(rules)
    return None


__all__ = ["CORRUPTIONS", "FAMILY", "clause_text", "STAGES", "VARIANTS", "Corruption", "match_records", "tools_checks",
           "tools_failure"]
