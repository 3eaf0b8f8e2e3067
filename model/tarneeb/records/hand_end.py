"""The end of a hand line's replay, and the reports of every step: the record's tricks, score changes, scores and
outcome compared with the rules' end of the hand on the record's own claims (:func:`tarneeb.core.transition.end_hand`),
and the match going on from the claimed winner (:func:`tarneeb.core.transition.settle_match`).

:class:`HandEnd` is the part of :class:`tarneeb.records.replay.HandReplay` that runs once the play is over; the
replay's steps before it (the deal, the claims, the calls, the trump, the tricks) are in :mod:`tarneeb.records.replay`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

import tarneeb.records.diagnose as diagnose
from tarneeb.core import clauses as core_clauses
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.cards import team_label
from tarneeb.core.spec import Rules
from tarneeb.core.state import Contracted, Decided, Event, NextDealer, Over, Scored, State, Table
from tarneeb.records.driver import Driver, MatchState
from tarneeb.records.format import Divergence, HandLine, RecordProblem, Report, contract_text

Contract = tuple[int, int, int | None] | None


def fmt_list(v: list[int | None] | list[int]) -> str:
    """A per-seat list as text, ``?`` for a value not known."""
    return "[" + ", ".join("?" if x is None else str(x) for x in v) + "]"


def team_list(rules: Rules, v: list[int]) -> list[int] | None:
    """A claimed per-seat list; team form [a, b] is accepted in the auction family."""
    if len(v) == 4:
        return v
    if not rules.individual:
        return [v[core_rules.team_of(0)], v[core_rules.team_of(1)], v[core_rules.team_of(2)], v[core_rules.team_of(3)]]
    return None


def _plus(scores: list[int], changes: list[int]) -> list[int]:
    """``scores`` after ``changes``, seat by seat: how a record's running scores add up its own score changes."""
    return [scores[0] + changes[0], scores[1] + changes[1], scores[2] + changes[2], scores[3] + changes[3]]


def _four(v: list[int]) -> tuple[int, int, int, int]:
    return v[0], v[1], v[2], v[3]


def _table(table: Table, dealer: int, scores: tuple[int, int, int, int], target: int, games: tuple[int, ...]) -> Table:
    """``table`` with the dealer, scores, target and games a record's claims name (``dataclasses.replace`` of
    those fields, built directly: the replay builds several per hand)."""
    return Table(dealer, scores, target, games, table.deals, table.played, table.redeals)


class Cites(Protocol):
    """What a hand replay needs of the verifier that runs it (:class:`tarneeb.records.verify.Verifier`)."""

    def cite(self, rules: Rules, clause: str) -> str:
        """The citation of ``clause`` in the ruleset of ``rules``."""
        ...


class HandEnd(Driver):
    """The reports of a hand line's replay and the end of its hand; :class:`tarneeb.records.replay.HandReplay` sets
    the fields below as it steps the line (their meaning is given there)."""

    v: Cites
    st: MatchState
    h: HandLine
    hand_no: int
    out: list[Report]
    taint: Divergence | None
    rules: Rules
    mid: str
    won_rules: list[int]
    scored: tuple[list[int], list[int] | None] | None
    dealer: int
    table: Table
    bids: list[int | None]
    start: Contracted | None
    rules_contract: Contract
    c_div: Divergence | None
    d_div: Divergence | None

    # -------------------------------------------------------------- reports
    def div(self, fld: str, claimed: object, expected: object, clause: str, trick: int | None = None,
            reason: str = "", follows: Divergence | None = None, causes: list[diagnose.Cause] | None = None,
            table: list[dict[str, Any]] | None = None) -> Divergence:
        """A divergence; ``causes``: the hypotheses that reproduce the claim of this hand (None: not diagnosed)."""
        h = self.h
        follows = follows or self.taint
        cause = diagnose.named_cause(causes)
        clause = diagnose.fits_clause(causes, clause)
        d = Divergence(h.file, h.line, self.mid, self.hand_no, trick, fld, str(claimed), str(expected), clause,
                       self.v.cite(self.rules, clause), reason,
                       None if follows is None else follows.line, None if follows is None else follows.field,
                       "" if cause is None else cause[0], "" if cause is None else cause[1], table,
                       self.rules.ruleset.id, None if causes is None else list(causes))
        self.out.append(d)
        return d

    def err(self, fld: str, msg: str, severity: str = "error") -> None:
        """Report a problem of this hand's line (an error unless ``severity`` says otherwise)."""
        self.out.append(RecordProblem(self.h.file, self.h.line, fld, msg, self.mid, self.hand_no, severity))

    def once(self, key: str, fld: str, msg: str) -> None:
        """A warning given once per match (the first place it applies)."""
        if key not in self.st.said:
            self.st.said.add(key)
            self.err(fld, msg + " (said once per match)", "warning")

    # -------------------------------------------------------------- the end of the hand
    def _end(self, contract: Contract, tricks: list[int], scores: list[int] | None = None,
             target: int | None = None, games: list[int] | None = None,
             rules: Rules | None = None) -> tuple[State, tuple[Event, ...]]:
        """The rules' end of the hand on the record's claims: its bids, ``contract`` and ``tricks`` won, played on the
        scores before it at ``target`` with ``games`` won (the table's when None); ``scores``, the scores after it
        claimed, on which the outcome is then judged."""
        start = self.start
        if start is None:
            raise RuntimeError("a hand ended before its play started")
        table = start.table
        if target is not None and games is not None and (target != table.target or tuple(games) != table.games):
            table = _table(table, table.dealer, table.scores, target, tuple(games))
        if contract != start.contract or table is not start.table:  # (a Contracted with these fields replaced)
            start = Contracted(table, start.trump, start.bids, contract)
        return transition.end_hand(rules or self.rules, start, tricks, scores=scores)

    def _scored_on(self, contract: Contract, tricks: list[int], rules: Rules | None = None) -> Scored:
        scored = self._end(contract, tricks, rules=rules)[1][0]
        if type(scored) is not Scored:
            raise RuntimeError("the end of a hand begins with its scoring")
        return scored

    def _decided(self, contract: Contract, tricks: list[int], scores: list[int], target: int,
                 games: list[int]) -> tuple[int | None, str]:
        """The rules' outcome (winning team or None, deciding clause) of the hand on ``contract`` and ``tricks``,
        judged on the claimed ``scores`` after it at ``target``."""
        decided = self._end(contract, tricks, scores, target, games)[1][1]
        if type(decided) is not Decided:
            raise RuntimeError("the end of a hand decides its outcome after its scoring")
        return decided.winner, decided.clause

    def _settled(self, scores: list[int], target: int, games: list[int], winner: int | None,
                 rule: str = "") -> tuple[State, tuple[Event, ...]]:
        """The match after the hand, going on from ``winner`` (the record's, or the rules') with the scores
        ``scores`` after it, at ``target`` with ``games`` won before it."""
        table = _table(self.table, self.table.dealer, _four(scores), target, tuple(games))
        return transition.settle_match(self.rules, table, winner, rule)

    def _scoring(self, won: list[int]) -> State:
        """Score the hand on the record's claims (its contract, its tricks); the contract the rules gave and the
        divergence that put the claimed one apart from it weigh the claims too. A claimed change or winner passes
        too when it is what the rules give on their own contract and tricks (the record only mislabelled the earlier
        fact), and otherwise follows from that earlier divergence. The match state is advanced."""
        st = self.st
        contract = self.start.contract if self.start is not None else None
        tricks, prior = self._tricks_claim(won, self.c_div)
        claimed_d, full, own = self._deltas_claim(contract, won, tricks, prior)
        self.scored = (list(tricks), claimed_d)
        before = list(st.table.scores)
        claimed_scores, s_div, s_rules = self._scores_claim(before, claimed_d, full, contract, tricks)
        if s_div is None and self.d_div is not None and full is not None and st.scores_known:
            s_rules = _plus(before, full)  # the scores the rules give: a winner they give follows the changes' slip
        return self._outcome(contract, tricks, own, before, claimed_d if claimed_d is not None else full,
                             claimed_scores, prior, s_div, s_rules)

    def _tricks_claim(self, won: list[int], prior: Divergence | None) -> tuple[list[int], Divergence | None]:
        """Compare the claimed tricks won; (the tricks the hand is scored on: the record's own counts where they
        differ and add up to 13, the divergence the scoring follows from)."""
        rules, h, st = self.rules, self.h, self.st
        tricks = won
        if h.tricks_won is not None:
            tw = team_list(rules, h.tricks_won) if len(h.tricks_won) == 4 else None
            if tw is None and not rules.individual:
                team = list(core_rules.team_tricks(won))
                if h.tricks_won != team:
                    self.div("tricks_won", fmt_list(h.tricks_won), f"{fmt_list(team)} (by team)", "play.winner")
            elif tw is None:
                team = list(core_rules.team_tricks(won))
                if st.header.team_tricks:
                    if h.tricks_won != team:
                        self.div("tricks_won", fmt_list(h.tricks_won), f"{fmt_list(team)} (by team)", "play.winner")
                else:
                    self.err("tricks_won", "an individual ruleset needs the tricks of all four seats (declare "
                             "\"tricks_won_by_team\": true in the match header to give two team counts)")
            elif tw != won and tw != self.won_rules:
                prior = prior or self.div("tricks_won", fmt_list(tw), fmt_list(won), "play.winner")
                if sum(tw) == 13:
                    tricks = list(tw)  # scored on the record's own counts
            elif tw != won:
                tricks = list(tw)
        return tricks, prior

    def _deltas_claim(self, contract: Contract, won: list[int], tricks: list[int], prior: Divergence | None
                      ) -> tuple[list[int] | None, list[int] | None, list[tuple[Contract, list[int]]]]:
        """Compare the claimed change of each seat's score with the rules' on the record's bids, contract and tricks
        (``won``: the tricks by the record's winners); (the claimed changes, the rules' changes (None when a bid is
        not legal), the contracts and trick counts of the rules' own that a claim may also be right on)."""
        rules, h, st = self.rules, self.h, self.st
        bids = self.bids
        # the rules' change of each seat's score, on the record's bids, contract and tricks
        ok_bids = [b if b is not None and 0 <= b < len(rules.values) else None for b in bids] if rules.individual else bids
        if rules.individual:
            scored = self._scored_on(contract, tricks).deltas
            rules_d: list[int | None] = [None if ok_bids[s] is None else scored[s] for s in range(4)]
        else:
            rules_d = list(self._scored_on(contract, tricks).deltas)
        full = None if None in rules_d else [x or 0 for x in rules_d]
        # the rules' changes on their own contract and trick counts, where the record claimed others
        own = [(c, t) for c in dict.fromkeys((self.rules_contract, contract)) for t in (won, self.won_rules)
               if (c, t) != (contract, tricks)] if prior is not None else []
        alts = [self._deltas_on(ok_bids, c, t) for c, t in own]
        claimed_d: list[int] | None = None
        if h.deltas is not None:
            claimed_d = team_list(rules, h.deltas)
            if claimed_d is None:
                self.err("deltas", "an individual ruleset needs the change of all four scores")
            else:
                bad = [s for s in range(4) if rules_d[s] is not None and claimed_d[s] != rules_d[s]]
                if (not bad and full is not None and contract is not None and prior is None
                        and (contract[1] == 13 or 13 in core_rules.team_tricks(tricks))):
                    st.weigh = (contract, list(tricks), full)  # a clean 13 the scoring hypotheses are weighed on
                if bad and claimed_d not in alts:
                    clause = core_clauses.deltas_clause(rules, None if rules.individual else contract, tricks, claimed_d, rules_d)
                    causes = None if full is None else diagnose.deltas_causes(rules, [b or 0 for b in bids], contract, tricks,
                                                                       claimed_d,
                                                                       list(st.table.scores) if st.scores_known else None)
                    table = [{"seat": s, "bid": self._bid_of(s, contract), "tricks": tricks[s],
                              "claimed": claimed_d[s], "rules": rules_d[s]} for s in range(4)]
                    self.d_div = self.div("deltas", fmt_list(claimed_d), fmt_list(rules_d), clause, causes=causes,
                                          table=table, follows=prior)
        return claimed_d, full, own

    def _scores_claim(self, before: list[int], claimed_d: list[int] | None, full: list[int] | None,
                      contract: Contract, tricks: list[int]) -> tuple[list[int] | None, Divergence | None, list[int] | None]:
        """Compare the claimed scores after the hand with ``before`` and the changes; (the claimed scores, their
        divergence, the scores the rules make them when they diverge)."""
        rules, h, st = self.rules, self.h, self.st
        sclause = core_clauses.score_clause(rules, contract, tricks)
        alt, st.alt_scores = st.alt_scores, None  # the rules' scores where the line before claimed others
        basis_d = claimed_d if claimed_d is not None else full
        claimed_scores: list[int] | None = None
        s_div: Divergence | None = None  # this line's scores diverge: what the rules make them, for the outcome
        s_rules: list[int] | None = None
        if h.scores is not None:
            claimed_scores = team_list(rules, h.scores)
            if claimed_scores is None:
                self.err("scores", "an individual ruleset needs four scores")
            elif st.scores_known:
                want = _plus(before, basis_d) if basis_d is not None else None
                by_rules = _plus(before, full) if full is not None else None
                ok = [want, by_rules]
                if alt is not None:  # the line goes on from the scores the rules gave the line before
                    ok += [_plus(alt, x) for x in (basis_d, full) if x is not None]
                if want is not None and claimed_scores not in ok:
                    s_div = self.div("scores", fmt_list(claimed_scores), fmt_list(want), sclause,
                                     reason=f"scores before the deal {fmt_list(before)}"
                                            + (", with the record's own deltas" if claimed_d is not None else ""))
                    st.alt_scores = by_rules if by_rules is not None else want
                    s_rules = want
        return claimed_scores, s_div, s_rules

    def _outcome(self, contract: Contract, tricks: list[int], own: list[tuple[Contract, list[int]]],
                 before: list[int], basis_d: list[int] | None, claimed_scores: list[int] | None,
                 prior: Divergence | None, s_div: Divergence | None, s_rules: list[int] | None) -> State:
        """Compare the claimed outcome (judged on the record's own scores, no cascade), then advance the match: its
        scores, games, target and next dealer, as the transition settles them from the record's winner."""
        rules, h, st = self.rules, self.h, self.st
        if claimed_scores is not None:
            basis = claimed_scores
        elif basis_d is not None:
            basis = _plus(before, basis_d)
        else:
            basis = before
        judged = st.scores_known or claimed_scores is not None
        bids0 = [b or 0 for b in self.bids]
        given = judged and h.outcome_winner is not None
        claim_w = None if h.outcome_winner is None or h.outcome_winner < 0 else h.outcome_winner
        # the target in force (and the games won): as the record's claims left them, or, where the line before
        # claimed another winner, as the rules left them; the first the line's claims agree with is gone on from
        options = [(st.table.target, list(st.table.games))] + ([st.alt_target] if st.alt_target is not None else [])
        st.alt_target = None
        for target, games in options:
            win, rule = self._decided(contract, tricks, basis, target, games)
            if given and claim_w != win:
                for c, t in own:  # the claimed winner is the rules' on their own contract and tricks: go on from it
                    got = self._decided(c, t, basis, target, games)
                    if got[0] == claim_w:
                        win, rule = got
                        break
            over = type(self._settled(basis, target, games, claim_w if given else win)[0]) is Over
            if (not given or claim_w == win) and (not judged or h.match_over is None or h.match_over == over):
                break
        else:
            target, games = options[0]
            win, rule = self._decided(contract, tricks, basis, target, games)
        w_div: Divergence | None = None
        upstream = prior or s_div  # the divergence of this hand the claimed winner follows from
        if given and claim_w != win and s_rules is not None:
            ruled_w, ruled_rule = self._decided(contract, tricks, s_rules, target, games)
            if ruled_w == claim_w and s_div is not None:
                # the claimed scores are the slip, reported once: a winner right on the scores the rules give is right
                win, rule = ruled_w, ruled_rule
            elif ruled_w == claim_w and upstream is None:
                # the winner the rules give on their own changes: the claimed changes are the slip, the winner
                # computed from them follows (no cause of its own from a fit the changes' slip explains)
                upstream = self.d_div
        settle_w = win
        if given:
            if claim_w != win:
                w_div = self.div("outcome.winner", "none" if claim_w is None else f"{team_label(claim_w)} (winner {claim_w})",
                         "none" if win is None else f"{team_label(win)} (winner {win})", rule, reason=f"scores {fmt_list(basis)}",
                         causes=None if upstream is not None and upstream is self.d_div else
                         diagnose.outcome_causes(rules, basis, target, bids0, contract, tricks, claim_w),
                         follows=upstream)
                settle_w = claim_w  # the match goes on from the record's winner (a game won: its target) ...
                ruled = self._settled(basis, target, games, win)[0].table
                st.alt_target = (ruled.target, list(ruled.games))  # ... or from the rules' (the next line's choice)
            elif win is not None and h.outcome_clause is not None and h.outcome_clause != rule:
                self.div("outcome.clause", h.outcome_clause, rule, rule)
        end, ev = self._settled(basis, target, games, settle_w, rule)
        over = type(end) is Over
        if judged and h.match_over is not None and h.match_over != over:
            self.div("outcome.match_over", str(h.match_over).lower(), str(over).lower(), core_clauses.match_over_clause(rules, rule),
                     follows=w_div)
        table = end.table
        if over and h.match_over is False:  # the record goes on (judged on: it says the match is not over): the
            on, ev = self._settled(basis, target, games, None)  # next dealer all the same
            table = replace(table, dealer=on.table.dealer)
        nxt = ev[-1]
        st.table, st.dealer_known = table, True
        st.scores_known = st.scores_known or claimed_scores is not None
        if type(nxt) is NextDealer:
            st.dealer_clause = nxt.clause
        st.last_dealer, st.last_redeal = self.dealer, None
        if over and h.match_over is not False:  # a record that goes on says the match is not over: it is judged on
            st.over_rule = rule
        return end

    def _deltas_on(self, ok_bids: list[int | None], contract: Contract, tricks: list[int]) -> list[int] | None:
        """The rules' change of every seat's score on these bids, contract and tricks (None: a bid is not legal)."""
        if not self.rules.individual:
            return list(self._scored_on(contract, tricks).deltas)
        if None in ok_bids:
            return None
        return list(self._scored_on(None, tricks).deltas)

    def _bid_of(self, seat: int, contract: Contract) -> str | None:
        if contract is None:
            b = self.bids[seat]
            return "pass" if b is None else str(b)
        return contract_text(contract) + (" (contract)" if seat == contract[0] else
                                          " (partner)" if seat == core_rules.partner(contract[0]) else "")


__all__ = ["Cites", "Contract", "HandEnd", "fmt_list", "team_list"]
