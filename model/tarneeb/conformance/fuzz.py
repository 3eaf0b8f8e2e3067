"""Differential fuzzing: an external engine and ours in lockstep over seeded matches.

For every deal of a seeded match, the external engine is started on the same
deck, dealer, scores and target (protocol command ``start``), and every action
is applied to both. After every step the two are compared: the hands dealt,
the revealed card and trump, whose turn it is, the set of legal actions, trick
winners, and at the end of the deal the redeal decision, tricks, score
changes, scores, winner and next dealer. The first difference stops the run.

Matches do not all start from zero: a seeded share of them (``part_way``)
start part-way, from score states where the rules are easiest to get wrong
(:func:`interesting_scores`): a partner close to the target while the other
is around zero, both teams close to the target, equal team totals, zero and
negative scores, the rising minimum bid's thresholds. The scores go to the
external engine with every ``start`` command, as they do for later deals.

The first divergence is then shrunk: the shortest tail of the match that
still shows a difference for the same clause is kept, started part-way from
the scores before its first deal, so a reproducer is usually the divergent
deal alone. The reproducer is a game record (``spec/records/``) whose header
carries those ``start_scores``: our deals before the divergent one, if any
(on which both engines agree), then the divergent deal as the external engine
played and scored it, so that ``tarneeb verify`` on it points at the same
clause.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

import orjson

from tarneeb.conformance.explain import clause_text, deal_story, value_text
from tarneeb.conformance.protocol import Engine
from tarneeb.conformance.vector_ref import hand_result
from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Action, Bid, Deal, NameTrump, Play, Redeal, parse_action
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.cards import CARD_TEXT, STRAINS, card_str, cards_of, parse_card, strain_text, team_label
from tarneeb.core.match import HandRecord, Match, Phase, random_deck
from tarneeb.core.spec import Rules, get_ruleset, load_rules, rulesets
from tarneeb.errors import BadInput, ConfigError, EngineRejected, IllegalDeal, TarneebError
from tarneeb.play.bots import heuristic_policy
from tarneeb.records import diagnose, hand_dict, header_dict


@dataclass
class FuzzDivergence:
    match_seed: str
    hand: int  # deal number in the match
    step: int | None  # index of the action in the deal, None at the deal or its end
    trick: int | None
    field: str
    ours: Any
    theirs: Any
    clause: str
    source: str
    detail: str = ""

    def text(self) -> str:
        """One line: where (match, deal, trick, action), the field, the engine's value and the rules', and the clause."""
        where = f"match {self.match_seed} deal {self.hand}"
        if self.trick is not None:
            where += f" trick {self.trick}"
        if self.step is not None:
            where += f" action {self.step}"
        extra = f" ({self.detail})" if self.detail else ""
        return (f"{where}: {self.field}: the engine says {value_text(self.theirs)}, the rules give "
                f"{value_text(self.ours)}{extra} [{clause_text(self.clause, self.source)}]")

    def to_json(self) -> dict[str, Any]:
        """The divergence as a JSON object (the fields of :meth:`text`, ``null`` where not known)."""
        return {"match": self.match_seed, "hand": self.hand, "step": self.step, "trick": self.trick,
                "field": self.field, "ours": self.ours, "theirs": self.theirs, "clause": self.clause,
                "source": self.source, "detail": self.detail}


def _answer_text(fld: str, v: Any) -> str:
    """A field of the engine's answer in words (a winning team 0/1 as people count it)."""
    if fld == "winner" and type(v) is int:
        return team_label(v)
    return value_text(v)


@dataclass
class DealTrace:
    """One deal as driven: its inputs, the actions applied, and what the external engine claimed."""

    dealer: int
    scores: list[int]
    target: int
    deck: tuple[int, ...]
    actions: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)  # who made each action (the engine's to_move)
    start: dict[str, Any] = field(default_factory=dict)
    winners: list[int] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)


class _Stop(Exception):
    def __init__(self, d: FuzzDivergence) -> None:
        self.d = d


Chooser = Callable[[Match, list[Action], int], Action | None]


def random_chooser(rng: random.Random, skill: float = 0.8) -> Chooser:
    """Mostly the heuristic bot (so that matches reach the target), else random legal actions with low
    bids favoured (so that redeals happen)."""

    def choose(m: Match, legal: list[Action], step: int) -> Action:
        if rng.random() < skill:
            return heuristic_policy(m, rng)
        if m.phase is Phase.BIDDING:
            if m.rules.individual and rng.random() < 0.45:
                return legal[0]
            if not m.rules.individual and Bid(None) in legal and rng.random() < 0.6:
                return Bid(None)
        return rng.choice(legal)

    return choose


def scripted_chooser(actions: list[str]) -> Chooser:
    """A chooser playing ``actions`` (action texts) in order; None when they run out or the next is not legal."""
    def choose(m: Match, legal: list[Action], step: int) -> Action | None:
        if step >= len(actions):
            return None
        a = parse_action(actions[step])
        return a if a in legal else None

    return choose


def _replay_chooser(actions: list[Action]) -> Chooser:
    """:func:`scripted_chooser` of ``[str(a) for a in actions]``, without reading the texts back."""
    def choose(m: Match, legal: list[Action], step: int) -> Action | None:
        if step >= len(actions):
            return None
        a = actions[step]
        return a if a in legal else None

    return choose


# ------------------------------------------------------------------ one deal in lockstep

def _same_hands(theirs: list[Any], ours: list[list[str]]) -> bool:
    """The engine's hands are ours written canonically, in any order within a hand (each card once): then
    reading them card by card gives ours; anything else is read card by card (and may differ)."""
    if len(theirs) != 4:
        return False
    try:
        for h, mine in zip(theirs, ours, strict=True):
            if type(h) is not list or len(h) != len(mine) or set(h) != set(mine):
                return False
    except TypeError:  # a card that is no string (unhashable)
        return False
    return True


def lockstep_deal(eng: Engine, rules: Rules, m: Match, deck: tuple[int, ...], choose: Chooser, seed: str,
                  trace: DealTrace) -> FuzzDivergence | None:
    """Drive one deal on both engines. ``m`` waits in DEAL; on return it has finished the deal."""
    drive = _Lockstep(eng, rules, m, seed, trace)
    try:
        drive.start(deck)
        drive.play(choose)
        drive.result()
    except _Stop as s:
        return s.d
    return None


class _Lockstep:
    """One deal driven on both engines (:func:`lockstep_deal`): the deal, each action, the result, compared as they
    come; :meth:`stop` reports the first difference at the step and trick reached."""

    def __init__(self, eng: Engine, rules: Rules, m: Match, seed: str, trace: DealTrace) -> None:
        self.eng, self.rules, self.m, self.seed, self.trace = eng, rules, m, seed, trace
        self.deal_no = len(m.records)
        self.step: int | None = None
        self.trick: int | None = None

    def stop(self, fld: str, ours: Any, theirs: Any, clause: str, detail: str = "") -> NoReturn:
        """End the deal on a difference in ``fld`` (the clause that decides it, cited)."""
        raise _Stop(FuzzDivergence(self.seed, self.deal_no, self.step, self.trick, fld, ours, theirs, clause,
                                   core_clauses.cite(self.rules, clause), detail))

    def start(self, deck: tuple[int, ...]) -> None:
        """Deal ``deck`` on both: the hands, the revealed card and trump as the engine starts the deal."""
        rules, m, trace, deal_no = self.rules, self.m, self.trace, self.deal_no
        req = {"cmd": "start", **wire_rules(rules), "dealer": m.dealer,
               "scores": list(m.scores), "target": m.target, "deck": [CARD_TEXT[c] for c in deck]}
        try:
            st = self.eng.call(req)
        except EngineRejected as e:
            self.stop("start", "a deal to play", f"refused: {e.error}", "deal.deck")
        trace.start = st
        m.apply(Deal(deck))
        rec = m.record if m.record is not None else m.records[-1]
        ours_hands = [[CARD_TEXT[c] for c in cards_of(h)] for h in core_rules.deal_hands(rules, trace.dealer, deck)]
        theirs_hands = st.get("hands")
        if isinstance(theirs_hands, list) and not _same_hands(theirs_hands, ours_hands):
            try:
                theirs_hands = [[card_str(c) for c in sorted(parse_card(x) for x in h)] for h in theirs_hands]
            except (TarneebError, TypeError, AttributeError):
                pass
        elif isinstance(theirs_hands, list):
            theirs_hands = ours_hands
        if theirs_hands != ours_hands:
            acts = self.eng.call({"cmd": "legal"}).get("actions") if st.get("phase") != "over" else None
            if isinstance(acts, list) and acts:  # the deal as they play it from their hands, for the reproducer
                _finish_theirs(self.eng, trace, str(acts[0]))
            self.stop("hands", ours_hands, st.get("hands"), "deal.order")
        rev = None if rec.revealed is None else card_str(rec.revealed)
        if st.get("revealed") != rev:
            self.stop("revealed", rev, st.get("revealed"), "trump.source")
        redeal_now = len(m.records) > deal_no
        if not redeal_now and m.trump >= 0 and st.get("trump") != strain_text(m.trump):
            self.stop("trump", strain_text(m.trump), st.get("trump"), "trump.source")

    def play(self, choose: Chooser) -> None:
        """Each action of the deal, chosen by ``choose``, on both: whose turn, the legal actions, the trick won."""
        rules, m, trace, deal_no = self.rules, self.m, self.trace, self.deal_no
        step = 0
        while len(m.records) == deal_no:
            self.step = step
            if m.phase is Phase.PLAY:
                self.trick = len(m.record.winners) if m.record is not None else None
            theirs_st = self.eng.call({"cmd": "legal"})
            if theirs_st.get("seat") != m.to_move:
                self.stop("to_move", m.to_move, theirs_st.get("seat"), core_clauses.to_move_clause(rules, m))
            legal = m.legal_actions()
            ours = list(map(str, legal))
            theirs = theirs_st.get("actions")
            if not isinstance(theirs, list) or set(map(str, theirs)) != set(ours):
                th = [str(x) for x in theirs] if isinstance(theirs, list) else []
                extra = sorted(set(th) - set(ours))
                missing = sorted(set(ours) - set(th))
                detail = (f"the engine also allows {', '.join(extra)}" if extra else "") + (
                    ("; " if extra and missing else "") + (f"the engine forbids {', '.join(missing)}" if missing
                                                           else ""))
                clause = core_clauses.legal_clause(rules, m, extra, missing) if (extra or missing) else "hand.tricks"
                if extra:
                    _finish_theirs(self.eng, trace, extra[0])
                self.stop("legal actions", sorted(ours), sorted(th), clause, detail)
            a = choose(m, list(legal), step)
            if a is None:
                raise _Abandon()
            text = str(a)
            seat = m.to_move
            ntricks = len(m.record.winners) if m.record is not None else 0
            ans = self.eng.request({"cmd": "apply", "action": text})
            if not ans["ok"]:
                self.stop("apply", f"{text} accepted", f"refused: {ans.get('error')}",
                          core_clauses.legal_clause(rules, m, [], [text]))
            trace.actions.append(text)
            trace.seats.append(seat)
            m.apply(a)
            step += 1
            done = len(m.records) > deal_no
            rec = m.record if m.record is not None else m.records[-1]
            if len(rec.winners) > ntricks:
                w = rec.winners[-1]
                tw = ans.get("trick_winner")
                if isinstance(tw, int):
                    trace.winners.append(tw)
                if tw != w:
                    self.trick = ntricks
                    self.stop("trick winner", w, tw, "play.winner",
                              "cards " + " ".join(card_str(c) for c in rec.plays[-4:]))
            elif "trick_winner" in ans:
                self.stop("trick winner", None, ans.get("trick_winner"), "hand.tricks")
            if done:
                trace.final = ans
                break
            if ans.get("to_move") != m.to_move:
                self.stop("to_move", m.to_move, ans.get("to_move"), core_clauses.to_move_clause(rules, m))
            if m.phase is Phase.PLAY and m.trump >= 0 and ans.get("trump") != strain_text(m.trump):
                self.stop("trump", strain_text(m.trump), ans.get("trump"), core_clauses.trump_clause(rules))

    def result(self) -> None:
        """The engine's result of the finished deal against ours: the redeal, tricks, score changes, scores,
        winner and next dealer."""
        rules, m, trace = self.rules, self.m, self.trace
        if not trace.final:
            trace.final = self.eng.call({"cmd": "state"})
        fin = trace.final
        ours_res = hand_result(m)
        cl = core_clauses.result_clauses(rules, m.records[-1])
        if fin.get("phase") != "over":
            self.stop("phase", "over", fin.get("phase"), cl.get("redeal", "hand.tricks"))
        for k in ("redeal", "tricks_won", "deltas", "scores", "winner", "next_dealer"):
            if k == "tricks_won" and ours_res["redeal"]:
                continue
            if k in ("deltas", "winner") and ours_res["redeal"]:
                continue
            if fin.get(k) != ours_res[k]:
                clause = cl.get(k, "hand.tricks")
                theirs = fin.get(k)
                if k == "deltas" and type(theirs) is list and len(theirs) == 4 and all(type(x) is int for x in theirs):
                    rec = m.records[-1]  # the clause verify names for the same claim (core.clauses.deltas_clause)
                    clause = core_clauses.deltas_clause(rules, None if rules.individual else rec.contract, rec.tricks_won, theirs,
                                                        ours_res[k])
                    bids = [0, 0, 0, 0]  # each seat's bid (an individual deal; the auction is scored on its contract)
                    for seat, b in rec.bids:
                        bids[seat] = b.n or 0
                    before = [a - d for a, d in zip(rec.scores_after, rec.deltas, strict=True)]
                    contract = None if rules.individual else rec.contract
                    clause = diagnose.fits_clause(diagnose.deltas_causes(rules, bids, contract, rec.tricks_won, theirs,
                                                                         before), clause)  # one bug, one clause
                self.stop(k, ours_res[k], theirs, clause,
                          "the deal: " + deal_story(m.records[-1], trace.scores) + "; the engine answered "
                          + "; ".join(f"{f}: {_answer_text(f, fin.get(f))}"
                                      for f in ("tricks_won", "deltas", "scores", "winner")))


class _Abandon(Exception):
    """A scripted deal whose next action is no longer legal."""


# ------------------------------------------------------------------ one deal, batched

class NoBatch(Exception):
    """The engine does not serve the batched ``deal`` command."""


class _Answers:
    """The answers of one batched ``deal`` exchange, served one by one as the lockstep driver asks for them."""

    def __init__(self, ans: dict[str, Any]) -> None:
        self.start: dict[str, Any] = ans.get("start") or {}
        self.steps: list[dict[str, Any]] = [x for x in ans.get("steps") or [] if isinstance(x, dict)]
        self.refused: dict[str, Any] | None = ans.get("refused") if isinstance(ans.get("refused"), dict) else None
        self.i = 0
        self.last: dict[str, Any] = self.start

    def _legal(self) -> dict[str, Any]:
        if self.i < len(self.steps):
            v = self.steps[self.i].get("legal")
        elif self.refused is not None:
            v = self.refused.get("legal")
        else:
            v = {"ok": True, "seat": None, "actions": []}
        return v if isinstance(v, dict) else {}

    def call(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "start":
            if not self.start.get("ok", False):
                raise EngineRejected(req, str(self.start.get("error", "refused")))
            return self.start
        if cmd == "legal":
            return self._legal()
        return self.last  # state

    def request(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if self.i < len(self.steps):
            after = self.steps[self.i].get("after")
            self.i += 1
            self.last = after if isinstance(after, dict) else {}
            return {"ok": True, **self.last}
        err = self.refused.get("error") if self.refused is not None else "no answer for this action"
        return {"ok": False, "error": str(err)}


def batched_deal(eng: Engine, rules: Rules, m: Match, deck: tuple[int, ...], choose: Chooser, seed: str,
                 trace: DealTrace) -> tuple[FuzzDivergence | None, Match]:
    """One deal in one exchange: our engine plays it (the chooser as in lockstep), the external engine gets every
    action at once (protocol command ``deal``) and answers with what it would have said at each step; those
    answers are checked by :func:`lockstep_deal` itself. On a difference the deal is driven again in lockstep
    from the same state with the same actions, so the report (and the engine's own finish, for a reproducer)
    are exactly those of a lockstep run. Returns the divergence and the match to go on with."""
    n_hist = len(m.history)
    # our side of the deal, on a match at the same state (no history to copy: the choosers look at the state only)
    probe = Match.at(rules, m.dealer, m.scores, m.target, m.games, partners_agree=False)
    probe.apply(Deal(deck))
    texts: list[str] = []
    acts: list[Action] = []
    step = 0
    while not probe.records:
        a = choose(probe, list(probe.legal_actions()), step)
        if a is None:
            raise _Abandon()
        acts.append(a)
        texts.append(str(a))
        probe.apply(a)
        step += 1
    req = {"cmd": "deal", **wire_rules(rules), "dealer": m.dealer,
           "scores": list(m.scores), "target": m.target, "deck": [CARD_TEXT[c] for c in deck], "actions": texts}
    try:
        ans = eng.call(req)
    except EngineRejected as e:
        if "deal" in e.error and ("unknown" in e.error or "command" in e.error):
            raise NoBatch(e.error) from None
        ans = {"start": {"ok": False, "error": e.error}, "steps": []}
    d = lockstep_deal(_Answers(ans), rules, m, deck, _replay_chooser(acts), seed, trace)  # type: ignore[arg-type]
    if d is None:
        return None, m
    snapshot = Match.at(m.rules, m.first_dealer, m.start_scores, None, m.start_games, partners_agree=False)
    for a in m.history[:n_hist]:  # the match as it was before this deal
        snapshot.apply(a)
    again = DealTrace(trace.dealer, list(trace.scores), trace.target, trace.deck)
    d = lockstep_deal(eng, rules, snapshot, deck, scripted_chooser(texts), seed, again)
    trace.actions, trace.seats, trace.start, trace.winners, trace.final = (again.actions, again.seats, again.start,
                                                                          again.winners, again.final)
    return d, snapshot


def _finish_theirs(eng: Engine, trace: DealTrace, first: str) -> None:
    """Let the external engine play ``first`` (an action we refuse) and finish the deal its own way."""
    rng = random.Random(first)
    action = first
    for _ in range(200):
        seat = eng.call({"cmd": "legal"}).get("seat")
        ans = eng.request({"cmd": "apply", "action": action})
        if not ans["ok"]:
            return
        trace.actions.append(action)
        trace.seats.append(seat if isinstance(seat, int) else -1)
        if isinstance(ans.get("trick_winner"), int):
            trace.winners.append(ans["trick_winner"])
        if ans.get("phase") == "over":
            trace.final = ans
            return
        acts = eng.call({"cmd": "legal"}).get("actions")
        if not isinstance(acts, list) or not acts:
            return
        action = str(rng.choice(acts))


# ------------------------------------------------------------------ score states

PART_WAY_DEALS = 6  # deals of a match started part-way before the fuzzer moves on
SCORE_STATES = ("partner-near-target", "both-teams-close", "both-teams-waiting", "equal-totals", "zero-and-negative",
                "one-high-one-low")


def interesting_scores(rules: Rules, rng: random.Random, kind: str | None = None) -> list[int]:
    """Seat scores (partners equal in the auction family) for a match started part-way.

    No team has won yet under the rules (win.qualify / win.target): a partner at the target or
    above has a partner at zero or below, and an auction team stays below the target. ``kind`` is
    one of :data:`SCORE_STATES` (seeded choice when None).
    """
    t = core_rules.target_in_force(rules, 0)
    kind = kind if kind is not None else rng.choice(SCORE_STATES)
    if not rules.individual:
        if kind == "partner-near-target":
            a, b = t - rng.randint(1, 8), rng.randint(-12, t - 10)
        elif kind in ("both-teams-close", "both-teams-waiting"):
            a, b = t - rng.randint(1, 8), t - rng.randint(1, 8)
        elif kind == "equal-totals":
            a = b = t - rng.randint(1, 10)
        elif kind == "zero-and-negative":
            a, b = rng.choice((0, -rng.randint(1, 20))), rng.choice((0, -rng.randint(1, 20), t - rng.randint(1, 8)))
        else:
            a, b = t - rng.randint(1, 6), -rng.randint(1, 30)
        if rng.random() < 0.5:
            a, b = b, a
        return [a, b, a, b]
    near = t - 6, t + 4  # "35..45" at a target of 41

    def qualify_safe(hi: int, lo: int) -> tuple[int, int]:
        # a team that qualifies (win.qualify) would already have won: its low partner drops to zero
        return (hi, min(lo, 0)) if core_rules.team_qualifies(rules, hi, lo) else (hi, lo)

    teams: list[tuple[int, int]] = []
    if kind == "partner-near-target":
        teams = [qualify_safe(rng.randint(*near), rng.randint(-4, 4)),
                 (rng.randint(-10, t - 10), rng.randint(-10, t - 10))]
    elif kind == "both-teams-close":
        teams = [(t - rng.randint(1, 4), rng.randint(3, 12)) for _ in range(2)]
    elif kind == "both-teams-waiting":  # each team has a partner past the target and waits for the other
        teams = [(rng.randint(t + 1, t + 8), -rng.randint(0, 3)) for _ in range(2)]
    elif kind == "equal-totals":
        hi0, hi1 = t - rng.randint(1, 4), t - rng.randint(1, 4)
        lo0 = rng.randint(3, 10)
        lo1 = hi0 + lo0 - hi1
        if lo1 <= 0 or rules.tie_rule != "combined":  # the top-score tie: equal high partners
            hi1, lo1 = hi0, rng.randint(1, 10)
        teams = [(hi0, lo0), (hi1, lo1)]
    elif kind == "zero-and-negative":
        teams = [qualify_safe(rng.randint(*near), rng.choice((0, -rng.randint(1, 9)))),
                 (rng.choice((0, -rng.randint(1, 15))), rng.randint(-15, t - 1))]
    else:
        teams = [qualify_safe(rng.randint(*near), rng.randint(-4, 4)),
                 (t - rng.randint(1, 8), rng.randint(-4, 4))]
    rng.shuffle(teams)
    out = [0, 0, 0, 0]
    for team, (x, y) in enumerate(teams):
        if rng.random() < 0.5:
            x, y = y, x
        out[team], out[core_rules.partner(team)] = x, y
    return out


# ------------------------------------------------------------------ matches

@dataclass
class MatchRun:
    seed: str
    first_dealer: int
    traces: list[DealTrace]
    match: Match
    divergence: FuzzDivergence | None
    start_scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


def run_match(eng: Engine, rules: Rules, seed: str, choosers: Callable[[int], Chooser], first_dealer: int,
              decks: Callable[[int], tuple[int, ...]] | None, max_deals: int,
              start_scores: Sequence[int] | None = None, batch: bool = False) -> MatchRun:
    """Play one match on ``eng`` and on the reference side by side, deal by deal, until the match ends, ``max_deals``
    are played or a deal diverges; returns the deals' traces and the divergence, if any."""
    m = Match(rules, first_dealer, start_scores)
    start = list(m.scores)
    rng = random.Random(seed + ":deck")
    traces: list[DealTrace] = []
    while m.phase is not Phase.OVER and len(traces) < max_deals:
        i = len(traces)
        deck = decks(i) if decks is not None else random_deck(rng)
        t = DealTrace(m.dealer, list(m.scores), m.target, deck)
        traces.append(t)
        try:
            if batch:
                d, m = batched_deal(eng, rules, m, deck, choosers(i), seed, t)
            else:
                d = lockstep_deal(eng, rules, m, deck, choosers(i), seed, t)
        except _Abandon:
            return MatchRun(seed, first_dealer, traces[:-1], m, None, start)
        if d is not None:
            return MatchRun(seed, first_dealer, traces, m, d, start)
    return MatchRun(seed, first_dealer, traces, m, None, start)


def _script_of(tail: list[DealTrace]) -> Callable[[int], Chooser]:
    def f(i: int) -> Chooser:
        return scripted_chooser(tail[i].actions)

    return f


def _decks_of(tail: list[DealTrace]) -> Callable[[int], tuple[int, ...]]:
    def f(i: int) -> tuple[int, ...]:
        return tail[i].deck

    return f


def shrink(eng: Engine, rules: Rules, run: MatchRun) -> MatchRun:
    """The shortest tail of the match that still diverges on the same clause.

    A tail starts part-way, from the scores before its first deal. Only tails that start before any
    game of a play-on match was won are tried (a record cannot carry a raised target); for them the
    scores are the whole state, so the last deal alone normally reproduces.
    """
    if run.divergence is None:
        raise RuntimeError(f"fuzz seed {run.seed}: no divergence to shrink")
    k = len(run.traces) - 1
    clause = run.divergence.clause
    starts: list[int] = []
    gap = 1
    j = k
    while j > 0:
        starts.append(j)
        j = k - gap
        gap *= 2
    for j in starts:
        tail = run.traces[j:]
        if tail[0].target != core_rules.target_in_force(rules, 0):
            continue
        try:
            Match.at(rules, tail[0].dealer, tail[0].scores)  # a state a match can start from (partners agree)
        except IllegalDeal:
            continue
        cand = run_match(eng, rules, run.seed, _script_of(tail), tail[0].dealer, _decks_of(tail), len(tail),
                         tail[0].scores)
        if cand.divergence is not None and cand.divergence.clause == clause:
            return cand
    return run


# ------------------------------------------------------------------ reproducer as a game record

def reproducer_lines(eng: Engine | None, rules: Rules, run: MatchRun) -> list[bytes]:
    """Header, our agreed deals, then the divergent deal as the external engine claimed it."""
    if run.divergence is None:
        raise RuntimeError(f"fuzz seed {run.seed}: no divergence to reproduce")
    mid = f"fuzz-{run.seed}"
    out = [orjson.dumps(header_dict(rules, run.first_dealer, mid, meta={"generator": "tarneeb fuzz", "seed": run.seed},
                                    start_scores=run.start_scores))]
    m = run.match
    n = len(run.traces) - 1
    for rec in m.records[:n]:
        out.append(orjson.dumps(hand_dict(rules, rec, mid)))
    t = run.traces[-1]
    rec = _their_record(rules, n, t, m)
    last = hand_dict(rules, rec, mid, match_over=rec.outcome is not None)
    if "claims" not in last and core_hand.weak_claimers(rules, t.dealer, core_rules.deal_hands(rules, t.dealer, t.deck)):
        last["claims"] = []  # weak seats that should have chosen and did not (ambiguity weak-hand, reading claimed)
    if run.divergence.field == "hands" and isinstance(t.start.get("hands"), list):
        last["hands"] = t.start["hands"]  # the hands the engine dealt from the deck (deal.order), beside the deck
    out.append(orjson.dumps(last))
    nd = t.final.get("next_dealer")
    if run.divergence.field == "next_dealer" and isinstance(nd, int) and 0 <= nd < 4:
        # show where the engine deals next: one more deal by the dealer it chose, played by it
        nxt = DealTrace(nd, list(rec.scores_after), t.target, random_deck(random.Random(mid + ":next")))
        if _their_deal(eng, rules, nxt):
            out.append(orjson.dumps(hand_dict(rules, _their_record(rules, n + 1, nxt, None), mid)))
    return [x + b"\n" for x in out]


def _their_deal(eng: Engine | None, rules: Rules, t: DealTrace) -> bool:
    if eng is None:
        return False
    try:
        t.start = eng.call({"cmd": "start", **wire_rules(rules), "dealer": t.dealer,
                            "scores": t.scores, "target": t.target, "deck": [card_str(c) for c in t.deck]})
        if t.start.get("phase") == "over":
            t.final = t.start
            return True
        acts = eng.call({"cmd": "legal"}).get("actions")
        if not isinstance(acts, list) or not acts:
            return False
        _finish_theirs(eng, t, str(acts[0]))
        return bool(t.final)
    except TarneebError:
        return False


def _their_record(rules: Rules, deal_no: int, t: DealTrace, m: Match | None) -> HandRecord:
    st = t.start
    fin = t.final or (st if st.get("phase") == "over" else {})  # a deal they cancelled at once ends at the start
    rec = HandRecord(deal_no=deal_no, dealer=t.dealer, deck=t.deck)
    rv = st.get("revealed")
    rec.revealed = parse_card(rv) if isinstance(rv, str) else None
    tr = fin.get("trump", st.get("trump"))
    rec.trump = STRAINS.index(tr) if isinstance(tr, str) and tr in STRAINS else None
    plays: list[int] = []
    for seat, a in zip(t.seats, t.actions, strict=False):
        act = parse_action(a)
        if isinstance(act, Bid):
            rec.bids.append((seat, act))
        elif isinstance(act, Play):
            plays.append(act.card)
        elif isinstance(act, NameTrump):
            rec.trump = act.suit
        elif isinstance(act, Redeal):
            rec.claims.append((seat, act.ask))
    con = fin.get("contract")
    if isinstance(con, dict) and isinstance(con.get("seat"), int) and isinstance(con.get("n"), int):
        s = con.get("strain")
        rec.contract = (con["seat"], con["n"], STRAINS.index(s) if isinstance(s, str) else None)
    if fin.get("redeal"):
        ours = m.records[deal_no].redeal if m is not None and len(m.records) > deal_no else None
        # cancelled before any call: only a weak hand does that (deal.weak-redeal)
        at_once = not any(isinstance(parse_action(a), Bid) for a in t.actions) and core_hand.weak_seats(
            rules, core_rules.deal_hands(rules, t.dealer, t.deck))
        rec.redeal = ours or ("deal.weak-redeal" if at_once else core_clauses.redeal_clause(rules))
    lead = t.seats[len(t.seats) - len(plays)] if t.seats and plays else 0  # their first leader
    for i in range(0, len(plays) - len(plays) % 4, 4):  # each later trick led by the winner they reported
        w = t.winners[i // 4] if i // 4 < len(t.winners) else -1
        rec.plays += plays[i:i + 4]
        rec.leaders.append(lead)
        rec.winners.append(w)
        lead = w
    for k, attr in (("tricks_won", "tricks_won"), ("deltas", "deltas"), ("scores", "scores_after")):
        v = fin.get(k)
        if isinstance(v, list) and len(v) == 4 and all(isinstance(x, int) for x in v):
            setattr(rec, attr, list(v))
    if rec.redeal is not None:
        rec.scores_after = list(t.scores)
    ow = fin.get("winner")
    rec.outcome = ow if isinstance(ow, int) else None
    if m is not None and len(m.records) > deal_no:
        rec.outcome_rule = m.records[deal_no].outcome_rule
    return rec


# ------------------------------------------------------------------ the fuzz run

@dataclass
class FuzzResult:
    deals: int
    matches: int
    divergence: FuzzDivergence | None
    shrunk: FuzzDivergence | None
    reproducer: list[bytes]
    reproducer_deals: int

    def to_json(self) -> dict[str, Any]:
        """The run as a JSON object: counts, the divergence, its shrunk form and the reproducer's records."""
        return {"deals": self.deals, "matches": self.matches,
                "divergence": None if self.divergence is None else self.divergence.to_json(),
                "shrunk": None if self.shrunk is None else self.shrunk.to_json(),
                "reproducer_deals": self.reproducer_deals,
                "reproducer": [orjson.loads(x) for x in self.reproducer]}



def wire_rules(rules: Rules) -> dict[str, Any]:
    """The ``ruleset`` and ``options`` an outside engine is told (the protocol names rules by id and options).

    A built-in ruleset goes by its id. A house ruleset file goes as the built-in it extends with the
    file's option values, when those say exactly the same rules (every resolved field equal); a file that
    changes what no option of its base can say (a parameter, a clause the engine decides by) cannot be told
    to an outside engine, and is refused with the parameters it changes.
    """
    rs = rules.ruleset
    chosen = {"readings": dict(rs.readings)} if rs.readings else {}  # readings selected over the ruleset's
    if rs.id in rulesets():
        return {"ruleset": rules.id, "options": dict(rules.options), **chosen}
    # a house file is resolved once per rules object, not once per deal (kept on the rules: Rules.derived)
    return dict(rules.derived.get("wire rules", (), lambda: _house_wire(rules, chosen)))


def _house_wire(rules: Rules, chosen: dict[str, Any]) -> dict[str, Any]:
    """:func:`wire_rules` of a house ruleset file: its base and options, when they say exactly the same rules."""
    rs = rules.ruleset
    root = rs.lineage[-1] if rs.lineage else rs.id
    try:
        base = load_rules(with_readings(get_ruleset(root), rs.readings), dict(rules.options))
    except TarneebError:
        base = None
    same = base is not None and all(getattr(base, f) == getattr(rules, f) for f in rules.value_fields()
                                    if f not in ("ruleset", "options"))
    if not same:
        changed = ", ".join(rs.changed) or "its parameters"
        raise ConfigError(rs.name_ref, "ruleset", f"the protocol names rules by a built-in id and options, and "
                          f"this file changes what no option of {root} can say ({changed}): an outside engine "
                          f"cannot be fuzzed under it (check its records with `tarneeb verify`)")
    return {"ruleset": root, "options": dict(rules.options), **chosen}


def fuzz(eng: Engine, rules: Rules, hands: int, seed: str, max_deals: int = 200,
         on_progress: Callable[[int], None] | None = None, part_way: float = 0.5, batch: bool = False) -> FuzzResult:
    """Play seeded matches in lockstep until ``hands`` deals were played or a divergence is found.

    About a share ``part_way`` (0..1) of the deals are played in matches started part-way, from
    :func:`interesting_scores` (a seeded kind of state for each such match), the rest in matches
    started from zero. A match started part-way is cut after :data:`PART_WAY_DEALS` deals (its scores
    have left the interesting region by then), a match from zero after ``max_deals``.

    ``batch``: one exchange per deal (:func:`batched_deal`) instead of one per action; the same deals, choices,
    divergence, shrinking and reproducer as lockstep. An engine without the ``deal`` command raises
    :class:`NoBatch` on the first deal.
    """
    if not 0.0 <= part_way <= 1.0:
        raise BadInput(f"part_way: {part_way} is not a share between 0 and 1")
    deals = part_deals = 0
    mi = 0
    while deals < hands:
        ms = f"{seed}:{mi}"
        rng = random.Random(ms)
        seats = core_rules.first_dealers(rules)
        first = seats[rng.randrange(len(seats))]
        part = part_way > 0 and part_deals <= part_way * deals  # keep the share of deals played part-way
        start = interesting_scores(rules, rng) if part else None
        chooser = random_chooser(rng)

        def choosers(i: int, c: Chooser = chooser) -> Chooser:
            return c

        limit = max_deals if start is None else min(max_deals, PART_WAY_DEALS)
        run = run_match(eng, rules, ms, choosers, first, None, min(limit, hands - deals), start, batch)
        deals += len(run.traces)
        if start is not None:
            part_deals += len(run.traces)
        mi += 1
        if on_progress:
            on_progress(len(run.traces))
        if run.divergence is not None:
            small = shrink(eng, rules, run)
            lines = reproducer_lines(eng, rules, small)
            return FuzzResult(deals, mi, run.divergence, small.divergence, lines, len(small.traces))
    return FuzzResult(deals, mi, None, None, [], 0)
