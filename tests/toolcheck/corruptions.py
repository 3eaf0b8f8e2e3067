"""The table of single-field corruptions of a record line: for each field a line has, how it is corrupted and the
clause (a clause id of the spec, ``spec/records/README.md``'s "clause(s) cited when it disagrees") the verifier must
cite for it. Written from the spec, not from the verifier's code."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.core.cards import card_str
from tarneeb.core.match import HandRecord
from tarneeb.core.spec import Rules

from .records import Recorded


@dataclass
class Line:
    """A hand line to corrupt and what the table needs to know of it."""

    rules: Rules
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
    """One row of the table: the field corrupted, how, and the clauses the verifier may cite for it."""

    name: str
    report: str  # the field the divergence is expected on ("tricks[": the one the change names first)
    change: Change
    clauses: Expect
    same_line: frozenset[str] = frozenset()  # fields that may also diverge independently on the line (by design)
    header: bool = False  # a header field: the report lands on the first hand line


def dealer_clause(x: Line) -> tuple[str, ...]:
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
    r, rec = x.rules, x.rec
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
    if x.rules.individual:
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
    r, t = x.rules, x.obj.get("trump")
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
    if x.rules.individual:
        bad = "pass"
    else:
        bad = f"{x.rules.min_bid - 1}" + ("C" if x.rules.egyptian else "")
    return _set(x, bids=[[bids[0][0], bad]] + [list(b) for b in bids[1:]]), f"bids[0] {bids[0][1]} -> {bad}"


def _bid_illegal_clause(x: Line) -> tuple[str, ...]:
    """No pass among individual bids (bid.no-pass); a call below the lowest bid (auction.range)."""
    return ("bid.no-pass",) if x.rules.individual else ("auction.range",)


def _ch_weak_bids(x: Line) -> tuple[dict[str, Any], str] | None:
    """A call written on a deal thrown in for a weak hand, before any call could be made."""
    if x.rec.redeal != "deal.weak-redeal":
        return None
    seat = (x.obj["dealer"] + 1) % 4
    return _set(x, bids=[[seat, "pass"]]), f"bids [] -> [[{seat}, \"pass\"]] (a call on a deal thrown in)"


def _ch_redeal(x: Line) -> tuple[dict[str, Any], str] | None:
    if x.rec.redeal is None:
        claim = "bid.total" if x.rules.individual else "auction.all-pass"
        return _set(x, redeal=claim), f"redeal null -> {claim} (a played deal claimed cancelled)"
    return _set(x, redeal=None), f"redeal {x.rec.redeal} -> null (a cancelled deal claimed played)"


def _redeal_clause(x: Line) -> tuple[str, ...]:
    """A played deal claimed cancelled: the clause that would cancel it (bid.total, auction.all-pass); a cancelled
    one claimed played, or cancelled by another cause: the clause that cancelled it."""
    if x.rec.redeal is None:
        return ("bid.total",) if x.rules.individual else ("auction.all-pass",)
    return (x.rec.redeal,)


def _ch_redeal_cause(x: Line) -> tuple[dict[str, Any], str] | None:
    if x.rec.redeal is None:
        return None
    other = "bid.total" if x.rec.redeal != "bid.total" else "auction.all-pass"
    return _set(x, redeal=other), f"redeal {x.rec.redeal} -> {other}"


def _ch_contract(x: Line) -> tuple[dict[str, Any], str] | None:
    if x.rules.individual:
        return None
    c = x.obj.get("contract")
    if c is None:
        new = {"seat": x.obj["dealer"], "bid": str(x.rules.min_bid) + ("S" if x.rules.egyptian else "")}
        return _set(x, contract=new), f"contract null -> {new} (all passed)"
    new = {"seat": (c["seat"] + 1) % 4, "bid": c["bid"]}
    return _set(x, contract=new), f"contract seat {c['seat']} -> {new['seat']}"


def _contract_clause(x: Line) -> tuple[str, ...]:
    """The auction decides the contract: auction.all-pass when all passed, deal.weak-redeal when the deal was thrown
    in before the bidding, else the auction's style."""
    if x.rec.contract is None:
        return ("deal.weak-redeal",) if x.rec.redeal == "deal.weak-redeal" else ("auction.all-pass",)
    return ("auction.continuous",) if x.rules.auction_style == "continuous" else ("auction.dealer-privilege",)


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
                if (t[k2]["leader"] + x.winner_index(later, trump) * x.rules.step) % 4 != t[k2]["winner"]:
                    continue
                t[k]["cards"][j], t[k2]["cards"][j2] = c2, c
                return _set(x, tricks=t), f"tricks[{k}].cards[{j}] {c} <-> tricks[{k2}].cards[{j2}] {c2}"
    return None


def _seat_at(x: Line, t: list[dict[str, Any]], k: int, j: int) -> int:
    """The seat that played the j-th card of trick k, by the direction of play of the resolved rules."""
    return int((t[k]["leader"] + j * x.rules.step) % 4)


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
    if not x.rules.individual:
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
    return ("win.play-on",) if x.rules.play_on_raise > 0 else (x.outcome_clause,)


def _ch_first_dealer(x: Line) -> tuple[dict[str, Any], str] | None:
    d = x.header["first_dealer"]
    return {**x.header, "first_dealer": (d + 1) % 4}, f"header first_dealer {d} -> {(d + 1) % 4}"


def _ch_start_scores(x: Line) -> tuple[dict[str, Any], str] | None:
    sc = x.header.get("start_scores")
    if sc is None:
        return None
    return {**x.header, "start_scores": _seat0(x, sc, -100)}, f"header start_scores {sc} -> {_seat0(x, sc, -100)}"


CORRUPTIONS: tuple[Corruption, ...] = (
    Corruption("dealer", "dealer", _ch_dealer, dealer_clause),
    Corruption("deck", "deck", _ch_deck, lambda x: ("deal.deck",)),
    Corruption("revealed", "revealed", _ch_revealed, lambda x: ("trump.source",)),
    Corruption("trump", "trump", _ch_trump, lambda x: (_trump_clause(x.rules),)),
    Corruption("bid seat", "bids[0].seat", _ch_bid_seat, lambda x: (_turn_clause(x.rules),)),
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


def lines_to_corrupt(recs: Sequence[Recorded]) -> list[tuple[int, int]]:
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

