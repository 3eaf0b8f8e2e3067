"""Naming the cause of a divergence: common implementation bugs, each recognised by re-computing the claim.

Each recogniser takes what a record claims and the facts of the hand, and tries a short list of bug
hypotheses. A hypothesis is a way of computing the value wrongly, built from the rule core itself
(:mod:`tarneeb.core.hand`, :mod:`tarneeb.core.rules`): the same function with another parameter
(``dataclasses.replace`` of :class:`~tarneeb.core.spec.Rules`), or with its inputs bent the way the bug bends
them (the team's tricks given to each partner, a failed bid's value added to the opponents). A pattern is
named only when its hypothesis gives exactly the claimed value and the rules do not; text is never matched. For
an illegal bid or card the claimed value is that it was legal: the hypothesis's rule accepts it (a pass taken as a
bid of 0 must also give the deal's bid total and the passing seat's score change).

Each recogniser returns every :data:`Cause` ``(name, explanation, clause)`` whose hypothesis reproduces the claim
exactly ([] when none does). ``clause`` is the clause that explains the difference (the verifier cites it through
``Ruleset.cite``). One hand may fit several hypotheses by chance: the verifier names a cause only when the
evidence of every diverging hand agrees (:meth:`tarneeb.records.verify.Summary.diagnosis`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import TypeVar

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.ambiguity import ambiguity, rules_under, selectable_readings, taken_for
from tarneeb.core.cards import SUIT_MASKS, card_str, team_label
from tarneeb.core.spec import Rules, load_rules, rulesets
from tarneeb.errors import TarneebError

Cause = tuple[str, str, str]
Contract = tuple[int, int, int | None] | None


def _all(tries: Sequence[tuple[Callable[[], object], Cause]], claimed: object) -> list[Cause]:
    """Every hypothesis of ``tries`` that gives exactly ``claimed``, in order, each name once."""
    out: list[Cause] = []
    for hyp, cause in tries:
        try:
            if hyp() == claimed and all(c[0] != cause[0] for c in out):
                out.append(cause)
        except (IndexError, KeyError, ValueError):  # a hypothesis that cannot be computed for this hand
            continue
    return out


@cache
def _other_value_tables(rid: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The individual-bid value tables of the other rulesets (a table copied from another document)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    mine = load_rules(rid).values
    for other in rulesets():
        try:
            rules = load_rules(other)
        except TarneebError:  # pragma: no cover - the shipped rulesets load
            continue
        if rules.individual and rules.values != mine and all(v != rules.values for _, v in out):
            out.append((other, rules.values))
    return tuple(out)


@cache
def _score_thresholds() -> tuple[int, ...]:
    """The scores at which a rule of some ruleset changes with the player's own score (the thresholds of the
    rising minimum bid, bid.rising-min): where a table that depends on the score is tried to change."""
    out: set[int] = set()
    for rid in rulesets():
        try:
            out.update(t for t, _ in load_rules(rid).rising_table)
        except TarneebError:  # pragma: no cover - the shipped rulesets load
            continue
    return tuple(sorted(out))


def named_cause(causes: Sequence[Cause] | None) -> Cause | None:
    """The hypothesis a divergence names as fitting its hand alone: the only one that does (None when none or
    several fit). The divergence still cites the rules' own clause (what ``fuzz`` names for the same difference);
    a hypothesis's clause is cited where the evidence of every hand names it
    (:meth:`tarneeb.records.verify.Summary.diagnosis`)."""
    return causes[0] if causes and len(causes) == 1 else None


def fits_clause(causes: Sequence[Cause] | None, clause: str) -> str:
    """The clause a divergence cites: the one clause every hypothesis that reproduces its claim breaks (each cause
    has one clause, cited for every divergence it explains, in ``verify``, ``fuzz`` and the summary, whatever the
    seats), else ``clause``, the rules' own for the field (none fits, or the fits break different clauses)."""
    if causes:
        first = causes[0][2]
        if all(c[2] == first for c in causes):
            return first
    return clause


# ------------------------------------------------------------------ scoring


Made = TypeVar("Made")


def _per_rules(what: tuple[object, ...], rules: Rules, make: Callable[[], Made]) -> Made:
    """What ``make`` makes from ``rules`` alone (``what`` names it), made once per rules object and kept on it
    (``rules.derived``): the variants and readings a hypothesis computes with and the lists of hypotheses, which
    the hand changes only the inputs of."""
    return rules.derived.get(("diagnose", *what), (), make)


def _variant(rules: Rules, attr: str, v: object) -> Rules:
    """``rules`` with one parameter changed (a bug hypothesis), made once per rules object."""
    return _per_rules(("variant", attr, v), rules, lambda: replace(rules, **{attr: v}))  # type: ignore[arg-type]


def deltas_causes(rules: Rules, bids: Sequence[int], contract: Contract, tricks: Sequence[int],
                  claimed: Sequence[int], scores: Sequence[int] | None = None) -> list[Cause]:
    """Every hypothesis that gives exactly the claimed score changes of a played hand (``bids``, ``tricks`` by
    seat; ``scores``: each seat's score before the deal, None when unknown), the narrowest first; [] when none
    does."""
    want = list(claimed)
    if contract is None:
        return _individual_deltas_causes(rules, bids, tricks, want, scores)
    out: list[Cause] = []
    for cause, changes in _auction_hypotheses(rules, bids, contract, tricks):
        if changes == want and all(c[0] != cause[0] for c in out):
            out.append(cause)
    return out


def refuted_causes(rules: Rules, contract: tuple[int, int, int | None], tricks: Sequence[int],
                   claimed: Sequence[int]) -> list[str]:
    """The auction scoring hypotheses a clean hand contradicts: those that would have scored it otherwise than
    the record did (and the rules do)."""
    want = list(claimed)
    return list(dict.fromkeys(c[0] for c, changes in _auction_hypotheses(rules, [0, 0, 0, 0], contract, tricks)
                              if changes != want))


def _auction_hypotheses(rules: Rules, bids: Sequence[int], contract: tuple[int, int, int | None],
                        tricks: Sequence[int]) -> list[tuple[Cause, list[int] | None]]:
    """Each auction scoring hypothesis with the changes it gives this hand (None when it cannot be computed):
    another value of a scoring option, another reading of the register, the defenders left unscored."""
    deltas = core_hand.hand_deltas

    def run(rv: Rules) -> list[int] | None:
        try:
            return deltas(rv, bids, contract, tricks)
        except (IndexError, KeyError, ValueError):  # a hypothesis that cannot be computed for this hand
            return None

    out: list[tuple[Cause, list[int] | None]] = [(cause, run(rv)) for cause, rv in _auction_plan(rules)]
    bt = core_rules.team_of(contract[0])
    d = run(rules)
    if d is not None:
        team = core_rules.team_tricks(tricks)
        out.append((("defenders-not-scored", f"the defending team's {team[1 - bt]} tricks are not scored",
                     "score.standard"), [d[s] if core_rules.team_of(s) == bt else 0 for s in range(4)]))
    return out


def _auction_plan(rules: Rules) -> list[tuple[Cause, Rules]]:
    """The auction scoring hypotheses bar the one that depends on the hand (the defenders left unscored), each with
    the rules it scores with: another value of a scoring option, another reading of the register."""
    def make() -> list[tuple[Cause, Rules]]:
        out: list[tuple[Cause, Rules]] = []
        for name, values, clause in _AUCTION_SCORING:
            attr = "score_style" if name == "scoring" else name
            mine = getattr(rules, attr)
            for v in values:
                if v != mine:
                    out.append(((f"scored-as-{name}-{v}", f"the claimed changes are what {name} = {v} gives; this "
                                 f"ruleset scores with {name} = {mine}",
                                 clause if clause in rules.ruleset.clauses else "score.standard"),
                                _variant(rules, attr, v)))
        for aid, rid, text, rv, taken, clauses in _reading_facts(rules):
            out.append((_reading_cause(rules, aid, rid, text, taken, clauses[0] if clauses else "score.standard"),
                        rv))
        if rules.failed13_defenders == "usual":  # a variant no rule document names (a house file can state it)
            out.append((("failed-13-pays-defenders-double", "a failed bid of 13 pays the defenders twice their "
                         "tricks, a variant no rule document names (a house file can state it: params "
                         "score.failed13_defenders = \"double\")", "score.standard"),
                        _variant(rules, "failed13_defenders", "double")))
        return out

    return _per_rules(("auction hypotheses",), rules, make)


def _other_readings(rules: Rules) -> list[tuple[str, str, str, Rules]]:
    """(ambiguity, reading, its text, ``rules`` following it) for each selectable reading ``rules`` does not follow."""
    def make() -> list[tuple[str, str, str, Rules]]:
        out = []
        for a in selectable_readings(rules.ruleset):
            taken = taken_for(a, rules.ruleset)
            for rid in a.params:
                if rid == taken:
                    continue
                try:
                    rv = rules_under(rules, {a.id: rid})
                except TarneebError:  # a reading this configuration refuses
                    continue
                if any(getattr(rv, f) != getattr(rules, f) for f in rules.value_fields() if f not in ("ruleset",)):
                    out.append((a.id, rid, a.reading_text(rid), rv))
        return out

    return _per_rules(("other readings",), rules, make)


def _reading_cause(rules: Rules, aid: str, rid: str, text: str, taken: str | None, clause: str) -> Cause:
    """The cause "the claimed changes follow reading ``rid`` of ambiguity ``aid``", with how to select it."""
    what = {"bid.total": "whether the deal is played follows",
            "deal.weak-redeal": "a deal played though a seat holds no card above 10 follows"}.get(
        clause, "the claimed changes follow")
    return (f"reading-{rid}-of-{aid}", f"{what} reading {rid} of ambiguity {aid} ({text}); "
            f"{rules.id} takes reading {taken}", clause)  # --reading is suggested once tried (records.suggest)


def _reading_facts(rules: Rules) -> list[tuple[str, str, str, Rules, str | None, tuple[str, ...]]]:
    """:func:`_other_readings` with, for each, the reading ``rules`` takes instead and the ambiguity's clauses: what a
    hypothesis's explanation says, looked up once per rules object (the ambiguities are read from the spec)."""
    def make() -> list[tuple[str, str, str, Rules, str | None, tuple[str, ...]]]:
        out = []
        for aid, rid, text, rv in _other_readings(rules):
            a = ambiguity(aid)
            out.append((aid, rid, text, rv, taken_for(a, rules.ruleset), tuple(a.clauses)))
        return out

    return _per_rules(("reading facts",), rules, make)


def house_change(name: str) -> tuple[str, object] | None:
    """The parameter, and its value, that a house file sets for the rules to do what hypothesis ``name`` says the
    records do: another value of a scoring option, another bid-total threshold, the failed 13 paying the defenders
    double (None for a bug no rule states, or a reading: ``--reading`` selects it, records.suggest)."""
    if name == "failed-13-pays-defenders-double":
        return ("score.failed13_defenders", "double")
    if name.startswith("bid-total-threshold-") and name.rpartition("-")[2].isdigit():
        return ("bid.total_min", int(name.rpartition("-")[2]))
    for option, values, _ in _AUCTION_SCORING:
        for v in values:
            if name == f"scored-as-{option}-{v}":
                return (_SCORING_PARAMS[option], v)
    return None


_SCORING_PARAMS = {"scoring": "score.style", "kaboot": "score.kaboot", "bid13": "score.bid13"}
_AUCTION_SCORING = (("scoring", ("standard", "bid-only"), "score.standard"),
                    ("kaboot", ("16", "26", "double", "none"), "score.kaboot"),
                    ("bid13", ("win", "26", "normal"), "score.bid13"))


def _individual_deltas_causes(rules: Rules, bids: Sequence[int], tricks: Sequence[int], want: list[int],
                              scores: Sequence[int] | None = None) -> list[Cause]:
    """Individual bids: a slip in computing each seat's change (a *base*), a slip in settling a failed bid (a
    *post* step), or one of each at once (two bugs in the same hand are named together). ``scores``: each seat's
    score before the deal (the tables that depend on the score are tried only when it is known)."""
    computed: list[tuple[list[int], Cause | None]] = []
    deltas, d = core_hand.hand_deltas, core_rules.individual_delta
    own: list[int] | None = None  # the rules' own changes, once computed
    try:  # each seat's change by core_rules.individual_delta, which three of the slips start from
        each: list[int] | None = [d(rules, bids[s], tricks[s]) for s in range(4)]
    except (IndexError, KeyError, ValueError):  # a slip that needs it cannot be computed either
        each = None
    for kind, cause, rv, t in _individual_plan(rules, scores is not None):
        try:
            if kind == "rules":
                got = own = deltas(rules, bids, None, tricks)
            elif kind == "team-tricks":
                team = core_rules.team_tricks(tricks)
                got = deltas(rules, bids, None, [team[core_rules.team_of(s)] for s in range(4)])
            elif kind == "extra-counted":  # a made bid scores the tricks taken, not the bid
                got = [d(rules, tricks[s], tricks[s]) if tricks[s] >= bids[s]
                       else d(rules, bids[s], tricks[s]) if each is None else each[s] for s in range(4)]
            elif kind in ("extra-plus-one", "exactly-fails"):
                if each is None:  # a seat's own change cannot be computed: nor can these
                    continue
                got = ([each[s] + (tricks[s] - bids[s] if tricks[s] >= bids[s] else 0) for s in range(4)]
                       if kind == "extra-plus-one" else  # a made bid earns one more point per extra trick
                       [each[s] if tricks[s] != bids[s] else -each[s] for s in range(4)])
            elif kind == "table" and rv is not None:
                got = deltas(rv, bids, None, tricks)
            elif kind == "from-score" and rv is not None:  # the other table from a score of t on
                if own is None or scores is None:  # the rules' own changes or the scores are not known
                    continue
                theirs = deltas(rv, bids, None, tricks)
                got = [theirs[s] if scores[s] >= t else own[s] for s in range(4)]
            else:
                raise RuntimeError(f"the scoring hypothesis {kind!r} is not known")
        except (IndexError, KeyError, ValueError):  # a hypothesis that cannot be computed for this hand
            continue
        computed.append((got, cause))
    return _one_or_two_slips(computed, _individual_posts(rules, want), want)


def _individual_plan(rules: Rules, with_scores: bool) -> list[tuple[str, Cause | None, Rules | None, int]]:
    """The ways of computing each seat's change of an individual hand, the rules' own first: each a kind, the cause
    it would be (a base slip), the rules it computes with and the score it starts from (the value tables of the
    register's readings and of the other rulesets among them; those that depend on the score only
    ``with_scores``), made once per rules object."""
    def make() -> list[tuple[str, Cause | None, Rules | None, int]]:
        bases: list[tuple[str, Cause | None, Rules | None, int]] = [
            ("rules", None, None, 0),
            ("team-tricks", ("team-tricks-to-each-partner", "each player is scored on the tricks of the whole team, "
                             "not on the tricks they took themselves", "score.individual"), None, 0),
            ("extra-counted", ("extra-tricks-scored", "a made bid scores the tricks taken instead of the bid; extra "
                               "tricks earn nothing", "score.extra"), None, 0),
            ("extra-plus-one", ("extra-tricks-scored", "each extra trick over a made bid earns a point; extra tricks "
                                "earn nothing", "score.extra"), None, 0),
            ("exactly-fails", ("made-exactly-counts-as-failed", "a bid made exactly is scored as failed; taking the "
                               "number bid is enough", "score.individual"), None, 0),
        ]
        tables = []  # a reading of the register that sets another value table: named as that reading
        for aid, rid, text, rv, taken, _ in _reading_facts(rules):
            if rv.values != rules.values:
                tables.append(rv.values)
                bases.append(("table", _reading_cause(rules, aid, rid, text, taken, "score.values"), rv, 0))
        for other, values in _other_value_tables(rules.id):
            if values in tables:  # the same table: the reading names it
                continue
            rv = _variant(rules, "values", values)
            bases.append(("table", ("values-of-another-ruleset", f"the bid values are those of {other}, not of "
                                    f"{rules.id}", "score.values"), rv, 0))
            if not with_scores:
                continue
            for t in _score_thresholds():
                bases.append(("from-score", (f"values-of-another-ruleset-from-{t}", f"a player with {t} points or "
                                             f"more before the deal is scored with the bid values of {other}, one "
                                             f"with fewer with those of {rules.id}; {rules.id}'s values do not "
                                             "depend on the score", "score.values"), rv, t))
        return bases

    return _per_rules(("individual bases", with_scores), rules, make)


# How a failed bid's value reaches the opponents (a post step): each gives, from the value ``v`` the bidder lost, what
# the first opponent (the one who plays after the bidder) and the other get, and whether the bidder is charged.
_FAILED_SETTLEMENTS: tuple[tuple[str, str, Callable[[int], tuple[int, int]], bool], ...] = (
    ("failed-bid-paid-to-opponents", "a failed bid's value is also added to each opponent's score; only the bidder "
     "loses it", lambda v: (v, v), True),
    ("failed-bid-paid-to-opponents-bidder-not-charged", "a failed bid's value is added to each opponent's score "
     "and not taken off the bidder's; only the bidder loses it", lambda v: (v, v), False),
    ("failed-bid-split-between-opponents", "a failed bid's value is shared between the two opponents (half each, "
     "rounded down); only the bidder loses it", lambda v: (v // 2, v // 2), True),
    ("failed-bid-split-lower-half-first", "a failed bid's value is shared between the two opponents: the one who "
     "plays after the bidder gets the lower half, the other the rest; only the bidder loses it",
     lambda v: (v // 2, v - v // 2), True),
    ("failed-bid-split-upper-half-first", "a failed bid's value is shared between the two opponents: the one who "
     "plays after the bidder gets the upper half, the other the rest; only the bidder loses it",
     lambda v: (v - v // 2, v // 2), True),
)


def _failed_to_opponents(base: list[int], share: Callable[[int], tuple[int, int]], charged: bool,
                         opponents: Sequence[Sequence[int]]) -> list[int]:
    """``base`` with each failed bid's value given to the opponents (``opponents[s]``: seat s's opponents, the one
    who plays after it first) as ``share`` parts it, and taken off the bidder only when ``charged``."""
    out = list(base)
    for s, b in enumerate(base):
        if b < 0:
            first, other = share(-b)
            out[opponents[s][0]] += first
            out[opponents[s][1]] += other
            if not charged:
                out[s] -= b
    return out


def _failed_free(base: list[int]) -> list[int]:
    """A failed bid costing nothing."""
    return [max(0, x) for x in base]


def _individual_posts(rules: Rules, want: list[int]
                      ) -> list[tuple[Callable[[list[int]], bool] | None, Cause | None]]:
    """The slips in settling a failed bid, applied after the changes are computed (a post step), nothing first:
    each as whether it turns given changes into ``want``; not deducting a failed bid only when the claim has no
    negative change."""
    team = [core_rules.team_of(s) for s in range(4)]
    opponents = [[o for o in core_rules.seat_order(rules, s) if team[o] != team[s]] for s in range(4)]
    w0, w1, w2, w3 = want

    def to_opponents(share: Callable[[int], tuple[int, int]], charged: bool) -> Callable[[list[int]], bool]:
        def fits(base: list[int]) -> bool:  # it only adds to a change: a claim below it at some seat is out of reach
            return (w0 >= base[0] and w1 >= base[1] and w2 >= base[2] and w3 >= base[3]
                    and _failed_to_opponents(base, share, charged, opponents) == want)
        return fits

    def failed_free(base: list[int]) -> bool:
        return _failed_free(base) == want

    posts: list[tuple[Callable[[list[int]], bool] | None, Cause | None]] = [(None, None)]
    posts += [(to_opponents(share, charged), (name, text, "score.individual"))
              for name, text, share, charged in _FAILED_SETTLEMENTS]
    if min(want) >= 0:  # failed_free gives no negative change: it cannot give a claim with one
        posts.append((failed_free, ("failed-bid-not-deducted", "a failed bid costs nothing; its value is taken off "
                                     "the bidder's score", "score.individual")))
    return posts


def _one_or_two_slips(computed: list[tuple[list[int], Cause | None]],
                      posts: list[tuple[Callable[[list[int]], bool] | None, Cause | None]],
                      want: list[int]) -> list[Cause]:
    """The causes that give ``want``: every single slip (a base alone, a post step on the rules' changes, the
    first of ``computed``); two at once (a base and a post step) only when none fits alone."""
    out: list[Cause] = []

    def add(c: Cause) -> None:
        if all(x[0] != c[0] for x in out):
            out.append(c)

    for deltas, cause in computed[1:]:
        if deltas == want and cause is not None:
            add(cause)
    rules_d = computed[0][0]
    for post, pcause in posts[1:]:
        if post is not None and pcause is not None and post(rules_d):
            add(pcause)
    if out:
        return out
    tried = {tuple(rules_d)}  # changes whose post steps were all tried already: the same again gives nothing new
    for deltas, cause in computed[1:]:
        key = tuple(deltas)
        if key in tried:
            continue
        tried.add(key)
        for post, pcause in posts[1:]:
            if post is not None and cause is not None and pcause is not None and post(deltas):
                add((f"{cause[0]}+{pcause[0]}", f"two slips at once: {cause[1]}; and {pcause[1]}", cause[2]))
    return out




# ------------------------------------------------------------------ outcome


def outcome_causes(rules: Rules, scores: Sequence[int], target: int, bids: Sequence[int], contract: Contract,
                   tricks: Sequence[int], claimed: int | None) -> list[Cause]:
    """Every hypothesis that gives exactly the claimed winner after a hand (team, None: no winner yet)."""
    win, rule = core_hand.hand_outcome(rules, scores, target, bids, contract, tricks)
    rt = _variant(rules, "target", target)
    tries: list[tuple[Callable[[], object], Cause]] = []
    if contract is None:
        def team_sum() -> int | None:
            q = [scores[0] + scores[2] >= target, scores[1] + scores[3] >= target]
            if q[0] and q[1]:  # both: the rules' tie comparison, on scores all raised alike (every partner in)
                lift = 10 * abs(target) + 100
                return core_rules.individual_outcome(rt, [x + lift for x in scores], bids, tricks)[0]
            return 0 if q[0] else (1 if q[1] else None)

        def partner_at_zero() -> int | None:  # a partner at exactly 0 taken as above zero
            return core_rules.individual_outcome(rt, [x if x != 0 else 1 for x in scores], bids, tricks)[0]

        def first_seat() -> int | None:  # both teams qualify: the team of the first seat, 0 to 3, that qualifies
            if rule != "tie.both-qualify":
                raise ValueError("not both teams qualify")
            for s in range(4):
                at, partner_above, _, _ = core_rules.qualification(rt, scores[s], scores[core_rules.partner(s)])
                if at and partner_above:
                    return core_rules.team_of(s)
            raise ValueError("no seat qualifies")  # pragma: no cover - both teams qualify

        other_tie = "top" if rules.tie_rule == "combined" else "combined"
        tries += [  # the narrowest slip first: a partner at exactly 0 also fits a team sum at the target
            (partner_at_zero, ("partner-at-zero-qualifies", "a partner at exactly 0 is taken as qualifying; the "
                               "partner must be above zero", "win.qualify")),
            (team_sum, ("team-sum-instead-of-qualification", f"a team is taken to win when its two scores add up to "
                        f"{target}; the rules need one partner at {target} or more and the other above zero",
                        "win.qualify")),
            (lambda: core_rules.individual_outcome(_variant(rt, "tie_rule", other_tie), scores, bids, tricks)[0],
             ("tie-rule-of-another-ruleset", f"when both teams qualify the record compares the {other_tie} score; "
              f"this ruleset compares the {rules.tie_rule} score", "tie.both-qualify")),
            (first_seat, ("first-seat-to-qualify-wins", "when both teams qualify the match goes to the team of the "
                          "first player, counting players 1 to 4, whose own score qualifies it; this ruleset "
                          f"compares the {rules.tie_rule} score", "tie.both-qualify")),
        ]
    else:
        # the whole hand outcome at a target one higher (a made bid of 13 still wins where the rules say so)
        tries.append((lambda: core_hand.hand_outcome(rules, scores, target + 1, bids, contract, tricks)[0],
                      ("target-must-be-passed", f"a team is taken to win only above {target}; reaching it is enough",
                       "win.target")))
    if rule == "tie.both-qualify" and claimed is not None and claimed != win:  # named per team: team 0 or team 1
        tries.append((lambda: claimed, (f"tie-to-team-{claimed}", f"both teams qualify and the record gives the "
                                        f"match to {team_label(claimed)} without the comparison the tie rule makes",
                                        "tie.both-qualify")))
    return _all(tries, claimed)


# ------------------------------------------------------------------ bids and cards accepted against the rules


def bid_causes(rules: Rules, score: int, bid: int | None, strain: int | None = None) -> list[Cause]:
    """Why an illegal individual bid (by a player with ``score`` before the deal) was accepted: every hypothesis
    under which it is legal. A pass (or a bid of 0) is weighed on the whole deal instead (:func:`pass_causes`)."""
    tries: list[tuple[Callable[[], object], Cause]] = []
    if rules.bid_excluded:
        excluded = ", ".join(map(str, sorted(rules.bid_excluded)))
        tries.append((lambda: core_rules.bid_violation(_variant(rules, "bid_excluded", frozenset()), score, bid, strain),
                      ("excluded-bid-accepted", f"the bid of {bid} is accepted; {rules.id} does not allow a bid of "
                                                f"{excluded}", "bid.excluded")))
    return _all(tries, None)  # the claim: the bid was legal (no violation)


def pass_causes(rules: Rules, bids: Sequence[int | None], played: bool, tricks: Sequence[int] | None,
                claimed: Sequence[int] | None, scores: Sequence[int]) -> list[Cause]:
    """Whether the passes of an individual deal (``bids`` by seat, None for a pass; a bid of 0 is taken alike) were
    taken as bids of 0: counted 0 in the bid total (the deal ``played`` or cancelled as the record says) and, in
    a played deal, scored as bids of 0 (each passing seat's ``claimed`` change, on ``tricks``; either None: not
    claimed; ``scores``: the seats' scores before the deal). [] when the record's deal contradicts it."""
    zero = [0 if b is None else b for b in bids]
    passing = [s for s in range(4) if zero[s] == 0]

    def as_bids_of_0() -> tuple[bool, list[int] | None]:
        if not played or tricks is None or claimed is None:
            return core_rules.hand_is_played(rules, zero, scores), None
        d = core_hand.hand_deltas(rules, zero, None, tricks)
        return core_rules.hand_is_played(rules, zero, scores), [d[s] for s in passing]

    want = (played, None if not played or tricks is None or claimed is None else [claimed[s] for s in passing])
    return _all([(as_bids_of_0, ("pass-scored-as-a-bid", "a pass is accepted and taken as a bid of 0: it counts 0 "
                                 "towards the bid total and is scored as a bid of 0; every player must bid",
                                 "bid.no-pass"))], want)


# The bid totals tried as another threshold (bid.total): those within THRESHOLD_REACH of the ruleset's own.
THRESHOLD_REACH = 4


def _threshold_plan(rules: Rules) -> list[tuple[Cause, Rules]]:
    """The hypotheses "the deal is played from a bid total of T on" for each T within :data:`THRESHOLD_REACH` of
    the ruleset's threshold (not it), each with the rules it decides with (their ``total_min`` replaced; a total
    that rises with the scores still rises from it), made once per rules object."""
    def make() -> list[tuple[Cause, Rules]]:
        own = rules.total_min
        return [((f"bid-total-threshold-{t}", f"a deal is played when the four bids add up to {t} or more; "
                  f"{rules.id} plays it from {own}", "bid.total"), _variant(rules, "total_min", t))
                for t in range(max(1, own - THRESHOLD_REACH), own + THRESHOLD_REACH + 1) if t != own]

    return _per_rules(("threshold hypotheses",), rules, make)


def total_causes(rules: Rules, bids: Sequence[int], scores: Sequence[int], played: bool) -> list[Cause]:
    """Why an individual deal with ``bids``, played on ``scores``, was ``played`` (or cancelled) against the bid
    total in force: every reading of the register about the total (bid.total) under which it is, and every other
    threshold (within :data:`THRESHOLD_REACH` of the ruleset's) under which it is."""
    def under(rv: Rules) -> Callable[[], object]:
        return lambda: core_rules.hand_is_played(rv, bids, scores)

    tries = [(under(rv), _reading_cause(rules, aid, rid, text, taken, "bid.total"))
             for aid, rid, text, rv, taken, clauses in _reading_facts(rules) if "bid.total" in clauses]
    tries += [(under(rv), cause) for cause, rv in _threshold_plan(rules)]
    return _all(tries, played)


def refuted_total_causes(rules: Rules, bids: Sequence[int], scores: Sequence[int], played: bool) -> list[str]:
    """The threshold hypotheses (:func:`total_causes`) a deal the record ``played`` (or cancelled) as the rules do
    contradicts: those under which its bids would have decided it otherwise."""
    return [cause[0] for cause, rv in _threshold_plan(rules) if core_rules.hand_is_played(rv, bids, scores) != played]


def deal_causes(rules: Rules, dealer: int, deck: Sequence[int],
                plays: Sequence[tuple[int, int]]) -> list[tuple[Cause, list[int]]]:
    """Why the cards a record's tricks show played (``plays``: (seat, card) pairs) are not the ones ``deck`` deals
    each seat: every reading of the register about the deal order (deal.order) under which it deals each card
    played to its player, with the hands it deals."""
    out: list[tuple[Cause, list[int]]] = []
    for aid, rid, text, rv, taken, clauses in _reading_facts(rules):
        if "deal.order" in clauses:
            hands = core_rules.deal_hands(rv, dealer, deck)
            if all(hands[seat] >> card & 1 for seat, card in plays):
                out.append(((f"reading-{rid}-of-{aid}", f"the cards played are the hands of a deck dealt as reading "
                             f"{rid} of ambiguity {aid} deals it ({text}); {rules.id} takes reading {taken}",
                             "deal.order"),
                            hands))
    return out


def weak_causes(rules: Rules, dealer: int, hands: Sequence[int]) -> list[Cause]:
    """Why a deal in which a seat holds no card above 10 was played though the rules cancel it: every reading of the
    register about the weak-hand redeal (deal.weak-redeal) under which a weak seat may keep its hand."""
    return [_reading_cause(rules, aid, rid, text, taken, "deal.weak-redeal")
            for aid, rid, text, rv, taken, clauses in _reading_facts(rules)
            if "deal.weak-redeal" in clauses and core_hand.weak_claimers(rv, dealer, hands)]


def play_causes(rules: Rules, hand: int, led: int, trump: int, card: int) -> list[Cause]:
    """Why an illegal card was accepted from ``hand`` (the seat's cards before it) after ``led`` was led."""
    tries: list[tuple[Callable[[], object], Cause]] = []
    if led >= 0 and hand & SUIT_MASKS[led]:  # the seat holds the led suit
        tries.append((lambda: core_rules.legal_play_mask(rules, hand, -1, trump) >> card & 1,
                      ("follow-suit-not-enforced", "a player holding the led suit may play another card: the card is "
                                                   "accepted as if no suit had been led; a player must follow suit",
                       "play.follow")))
    return _all(tries, 1)


# ------------------------------------------------------------------ dealer, revealed card, trick winner


def dealer_causes(rules: Rules, last_dealer: int | None, redeal: str | None, claimed: int,
                 clause: str = "deal.rotation") -> list[Cause]:
    """Why the claimed dealer differs from the rules' next dealer after a deal by ``last_dealer`` (``clause``:
    the clause that names that dealer)."""
    if last_dealer is None:
        return []
    tries: list[tuple[Callable[[], object], Cause]] = []
    if redeal == "bid.total":
        swapped = _variant(rules, "redeal_same_dealer", not rules.redeal_same_dealer)
        record_does, rules_do = (("passes the deal on", "keeps it with the same dealer") if rules.redeal_same_dealer
                                 else ("keeps the same dealer", "passes it on"))
        tries.append((lambda: core_hand.next_dealer(swapped, last_dealer, redeal),
                      ("wrong-redeal-dealer", f"after a low bid total the record {record_does}; this ruleset "
                       f"{rules_do}", "redeal.dealer")))
    tries.append((lambda: core_hand.next_dealer(_variant(rules, "step", 4 - rules.step), last_dealer, redeal),
                  ("rotation-reversed", "the deal passes the other way round the table", clause)))
    tries.append((lambda: last_dealer, ("dealer-not-rotated", "the same player deals again", clause)))
    return _all(tries, claimed)


def reveal_causes(rules: Rules, deck: Sequence[int], dealer: int, claimed: int) -> list[Cause]:
    """Why the claimed revealed card differs from the dealer's last card dealt."""
    mask = core_rules.deal_hands(rules, dealer, deck)[dealer]
    last = core_rules.revealed_card(deck)
    tries: list[tuple[Callable[[], object], Cause]] = [
        (lambda: mask.bit_length() - 1, ("sorted-hand-reveal", "the card shown is the highest of the dealer's "
                                         f"sorted hand, not the last card dealt ({card_str(last)})", "trump.source")),
        (lambda: (mask & -mask).bit_length() - 1, ("sorted-hand-reveal", "the card shown is the lowest of the "
                                                   f"dealer's sorted hand, not the last card dealt ({card_str(last)})",
                                                   "trump.source")),
        (lambda: deck[core_rules.deal_order(rules, dealer).index(dealer)], (
            "first-card-revealed", f"the card shown is the dealer's first card, not the last card dealt "
                                   f"({card_str(last)})", "trump.source")),
    ]
    return _all(tries, claimed)


def winner_causes(rules: Rules, leader: int, cards: Sequence[int], trump: int, claimed: int) -> list[Cause]:
    """Why the claimed winner of a trick differs from the rules'."""
    def last_trump() -> int:
        idx = [i for i, c in enumerate(cards) if c // 13 == trump]
        if not idx:
            raise ValueError("no trump")
        return core_rules.seat_order(rules, leader)[idx[-1]]

    tries: list[tuple[Callable[[], object], Cause]] = [
        (lambda: core_hand.trick_winner_seat(rules, leader, cards, -1), ("trump-ignored", "the trick is given to the highest "
                                                                         "card of the suit led, as if there were no trump",
                                                                         "play.winner")),
        (last_trump, ("later-trump-wins", "a later trump takes the trick even when lower than an earlier one",
                      "play.winner")),
        (lambda: core_hand.trick_winner_seat(_variant(rules, "step", 4 - rules.step), leader, cards, trump),
         ("direction-reversed", "the cards are taken as played the other way round the table", "play.direction")),
        (lambda: core_rules.seat_order(rules, leader)[max(range(4), key=lambda i: cards[i] % 13 * 4 + i)],
         ("highest-rank-wins", "the trick goes to the highest rank whatever its suit", "play.winner")),
    ]
    return _all(tries, claimed)


__all__ = ["Cause", "bid_causes", "dealer_causes", "deltas_causes", "fits_clause", "house_change", "named_cause",
           "outcome_causes", "pass_causes",
           "deal_causes", "play_causes", "refuted_causes", "refuted_total_causes", "reveal_causes", "total_causes", "weak_causes",
           "winner_causes"]
