"""The conformance vectors' reference answers (:mod:`tarneeb.conformance.vector_ref`: the deal, whole hands, runs of
deals, the end of the bidding, bid and play legality, scores, outcomes, trick winners, perft counts) equal the
engine's on states of the recorded matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from tarneeb.conformance import vector_ref as V
from tarneeb.conformance.protocol import PERFT_CLAUSE
from tarneeb.core import hand as H
from tarneeb.core import transition
from tarneeb.core.actions import Action, Deal, Play, parse_action
from tarneeb.core.cards import STRAINS, card_str, cards_of, strain_text
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import Rules
from tarneeb.core.state import State
from tarneeb.errors import IllegalAction

from .failure import Failure, where
from .records import Recorded, bids_of


def engine_at(rules: Rules, rec: Recorded, k: int, n_actions: int) -> Match:
    """The engine at deal ``k`` of a recorded match after the deal's first ``n_actions`` actions."""
    scores, target = rec.before[k]
    m = Match.at(rules, rec.m.records[k].dealer, scores, target)
    m.apply(Deal(rec.m.records[k].deck))
    for a in rec.actions[k][:n_actions]:
        m.apply(a)
    return m


def _engine_perft(rules: Rules, rec: Recorded, k: int, n: int, depth: int) -> int:
    """Card sequences of ``depth`` from the engine's state after the deal's first ``n`` actions, stepped by core's
    transition: 1 when no card is to be played (or at depth 0); a sequence that ends the deal is one leaf."""
    return _perft(rules, engine_at(rules, rec, k, n).state, depth)


def _perft(rules: Rules, state: State, depth: int) -> int:
    if depth == 0 or state.phase is not Phase.PLAY:
        return 1
    acts = transition.legal_actions(rules, state)
    if depth == 1:
        return len(acts)
    return sum(_perft(rules, transition.step(rules, state, a)[0], depth - 1) for a in acts)


def texts(acts: Sequence[Action]) -> list[str]:
    """The actions in their text form."""
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



def vectors(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    """The first answer of the vector reference that differs from the engine's on the records."""
    for rec in recs:
        bad = _vectors_one(rules, rec)
        if bad is not None:
            return bad
    return None


def _vf(fn: str, rules: Rules, rec: Recorded, k: int, inp: dict[str, Any], got: Any, want: Any, clause: str) -> Failure:
    return Failure(f"tarneeb.conformance.vector_ref.{fn}", f"{where(rules, rec)}, deal {k}: {orjson.dumps(inp).decode()}",
                   repr(got), f"{want!r} (the engine)", clause, "the vector reference disagrees with the engine")


def _vectors_one(rules: Rules, rec: Recorded) -> Failure | None:
    """The vector reference against the engine on every deal of one recorded match, then on its runs of deals."""
    for k, hr in enumerate(rec.m.records):
        scores, target = rec.before[k]
        base = {"dealer": hr.dealer, "scores": scores, "target": target, "deck": V.cs(hr.deck)}
        bad = _deal_and_hand(rules, rec, k, base)
        if bad is None and hr.redeal != "deal.weak-redeal":
            bad = _bidding(rules, rec, k, scores)
            if bad is None and hr.redeal is None:
                bad = _played(rules, rec, k, target, base)
        if bad is not None:
            return bad
    return _windows(rules, rec)


def _deal_and_hand(rules: Rules, rec: Recorded, k: int, base: dict[str, Any]) -> Failure | None:
    """The deal (hands, revealed card, trump, a weak hand), then the whole hand through start/apply."""
    recs, hr = rec.m.records, rec.m.records[k]
    score_cl = "score.individual" if rules.individual else "score.standard"
    eng = engine_at(rules, rec, k, 0)
    inp = dict(base)
    got, _ = V.ref_deal(rules, inp)
    want = {"hands": [V.cs(cards_of(h)) for h in eng.hands] if eng.phase is not Phase.DEAL else got["hands"],
            "revealed": None if hr.revealed is None else card_str(hr.revealed),
            "trump": strain_text(eng.trump if eng.trump >= 0 else None), "redeal": eng.phase is Phase.DEAL}
    if got != want:
        return _vf("ref_deal", rules, rec, k, inp, got, want, "deal.order")
    inp = {**base, "actions": texts(rec.actions[k])}
    got, _, _ = V.ref_hand(rules, inp)
    want = {"trump": strain_text(hr.trump), "redeal": hr.redeal is not None, "trick_winners": list(hr.winners),
            "tricks_won": list(hr.tricks_won), "deltas": list(hr.deltas), "scores": list(hr.scores_after),
            "winner": hr.outcome, "next_dealer": got["next_dealer"]}
    # the deal after: the engine's next deal, or after the match's last deal the rotation (core's proved step)
    want["next_dealer"] = recs[k + 1].dealer if k + 1 < len(recs) else H.next_dealer(rules, hr.dealer, hr.redeal)
    if got != want:
        return _vf("ref_hand", rules, rec, k, inp, got, want, hr.redeal or score_cl)
    return None


def _bidding(rules: Rules, rec: Recorded, k: int, scores: list[int]) -> Failure | None:
    """The end of the bidding and the next dealer; bid legality after every prefix of the calls (deals 0 and 1),
    with the engine's refusal clause."""
    recs, hr = rec.m.records, rec.m.records[k]
    calls = [b for _, b in hr.bids]
    inp: dict[str, Any] = {"dealer": hr.dealer, "scores": scores, "bids": texts(calls)}
    got, _, _ = V.ref_bidding_end(rules, inp)
    want = {"redeal": hr.redeal is not None,
            "next_dealer": (recs[k + 1].dealer if k + 1 < len(recs) else got["next_dealer"]) if hr.redeal
            else None}
    if got != want:
        return _vf("ref_bidding_end", rules, rec, k, inp, got, want, hr.redeal or
                   ("bid.total" if rules.individual else "auction.all-pass"))
    if k >= 2:
        return None
    for n in range(len(calls)):
        eng = engine_at(rules, rec, k, n)
        legal = set(texts(eng.legal_actions()))
        for b in _bid_candidates(rules):
            inp = {"dealer": hr.dealer, "scores": scores, "bids": texts(calls[:n]), "bid": b}
            got_l, clause = V.ref_bid_legal(rules, inp)
            if got_l["legal"] != (b in legal):
                return _vf("ref_bid_legal", rules, rec, k, inp, got_l, {"legal": b in legal}, clause)
            if not got_l["legal"]:
                try:
                    eng.copy().apply(parse_action(b))
                except IllegalAction as e:
                    if clause != e.rule:
                        return _vf("ref_bid_legal", rules, rec, k, inp, clause, e.rule, e.rule)
    return None


def _played(rules: Rules, rec: Recorded, k: int, target: int, base: dict[str, Any]) -> Failure | None:
    """A played deal: its score, outcome (with the clause) and every trick's winner; on the match's first played
    deal the legality of all 52 cards at every play, and perft counts."""
    hr = rec.m.records[k]
    score_cl = "score.individual" if rules.individual else "score.standard"
    inp: dict[str, Any] = {"tricks": list(hr.tricks_won), "bids": bids_of(hr), "contract": _contract_in(hr)}
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
    trump = STRAINS[hr.trump if hr.trump is not None and hr.trump >= 0 else 4]
    for t in hr.tricks:
        inp = {"leader": t.leader, "trick": V.cs(t.cards), "trump": trump}
        got_w, _ = V.ref_trick_winner(rules, inp)
        if got_w != {"winner": t.winner}:
            return _vf("ref_trick_winner", rules, rec, k, inp, got_w, {"winner": t.winner}, "play.winner")
    if k != _first_played(rec.m.records):
        return None
    return _plays_and_perft(rules, rec, k, base)


def _plays_and_perft(rules: Rules, rec: Recorded, k: int, base: dict[str, Any]) -> Failure | None:
    """Play legality at every play of the deal, then perft counts from states of it."""
    calls = [b for _, b in rec.m.records[k].bids]
    first_play = len(calls) + (0 if rules.individual or rules.egyptian else 1)
    for n in range(first_play, len(rec.actions[k])):
        eng = engine_at(rules, rec, k, n)
        playable = {a.card for a in eng.legal_actions() if isinstance(a, Play)}
        hand = eng.hands[eng.to_move]
        for c in range(52):
            inp: dict[str, Any] = {"hand": V.cs(cards_of(hand)), "trick": V.cs(eng.trick),
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
        inp = {**base, "actions": texts(rec.actions[k][:n]), "depth": depth}
        got_n, _ = V.ref_perft(rules, inp)
        want_n = _engine_perft(rules, rec, k, n, depth)
        if got_n != {"nodes": want_n}:
            return _vf("ref_perft", rules, rec, k, inp, got_n, {"nodes": want_n}, PERFT_CLAUSE)
    return None


def _windows(rules: Rules, rec: Recorded) -> Failure | None:
    """Runs of deals from part-way: every window of three deals that the match finishes."""
    recs = rec.m.records
    for k in range(0, max(0, len(recs) - 3) + 1):
        window = recs[k:k + 3]
        if len(window) < 3 and rec.m.is_over():
            break
        scores, target = rec.before[k]
        inp = {"dealer": window[0].dealer, "scores": scores, "target": target,
               "deals": [{"deck": V.cs(h.deck), "actions": texts(rec.actions[k + j])} for j, h in enumerate(window)]}
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

