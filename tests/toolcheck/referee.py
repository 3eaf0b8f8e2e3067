"""The referee (:func:`tarneeb.ruling.decision.decide`) answers who wins, the score, whether the deal is played, who
deals next, who wins a trick and who leads as the engine played the recorded matches."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import orjson

from tarneeb.conformance import vector_ref as V
from tarneeb.core.actions import Bid
from tarneeb.core.cards import STRAINS, SUITS
from tarneeb.core.match import HandRecord
from tarneeb.core.spec import OptionValue, Rules
from tarneeb.errors import TarneebError
from tarneeb.ruling import decision as DEC
from tarneeb.ruling import parse_situation
from tarneeb.ruling.situation import Missing, NotApplicable

from .failure import Failure, changed, where
from .records import Recorded, bids_of


def referee(rules: Rules, recs: Sequence[Recorded]) -> Failure | None:
    """The first question about a deal of the records the referee answers otherwise than the engine played."""
    opts = {k: v for k, v in rules.options if k in changed(rules)}
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
                    raw = {"dealer": hr.dealer, "bids": bids_of(hr), "question": {"kind": "redeal"}}
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
                except (Missing, NotApplicable, TarneebError) as e:  # a refusal, or facts called a contradiction
                    got: Any = f"{type(e).__name__}: {e}"
                else:
                    got = {key: d.answer.get(key) for key in want}
                if got != want:
                    return Failure(_referee_function(rules, raw, opts),
                                   f"{where(rules, rec)}, deal {k}: {orjson.dumps(raw).decode()}", repr(got),
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
    except (Missing, NotApplicable, TarneebError):
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
        base: dict[str, Any] = {"scores": scores, "bids": bids_of(hr), "tricks": tw}
        win: dict[str, Any] = {"winner": hr.outcome}
        if hr.outcome_rule == "win.made-bid":
            win["bidder"] = next(s for s in range(4) if bids_of(hr)[s] == rules.made_bid_wins
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

