"""The verifier's one driver: a record's hand line replayed through the transition of a match.

:class:`MatchState` is what the verifier knows of a match between two hand lines: a core
:class:`~tarneeb.core.state.Table` (the dealer, scores, target and games the next deal starts from), and what only a
verifier keeps (whether the dealer and scores are known, the alternatives an earlier claim left, the warnings said,
the lines lost).

:class:`Driver` replays one hand line from ``Dealing(table)``: the state says what it waits for, and the line gives it
-- the deck (``Deal``), a weak seat's claim (``Redeal``), a bid or call (``Bid``), the trump named (``NameTrump``),
the tricks (:func:`~tarneeb.core.transition.play_trick`) -- each stepped through :mod:`tarneeb.core.transition`, whose
events the line's claims are checked against. :meth:`Driver.drive` is the whole order: it dispatches on the type of the
state the last step gave, so which phase comes next, how a deal ends, who deals next, are the transition's. Two kinds
of line drive it: the fast path (:class:`tarneeb.records.fastpath.FastLine`: a canonical line, cheap checks, given
up at the first disagreement) and the replay (:class:`tarneeb.records.replay.HandReplay`: every divergence reported,
and the line gone on with from what it claims, by ``step(..., force=True)`` and by states built from its claims).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tarneeb.core.spec import Rules
from tarneeb.core.state import Bidding, Calling, Claiming, Dealing, Naming, Playing, State, Table
from tarneeb.records.format import MatchHeader


@dataclass(slots=True)
class MatchState:
    """What the verifier knows of a match between two hand lines."""

    header: MatchHeader
    rules: Rules
    # the match as the next deal starts from it, as the rules left it on the record's claims (the claimed running
    # scores, a claimed winner's target): its dealer is the one expected of the next line when ``dealer_known``
    table: Table
    dealer_known: bool = True  # False: the next dealer is not known (a line lost or not replayed): not checked
    dealer_clause: str = "deal.first-dealer"  # the clause that names the expected dealer
    next_hand: int = 0
    over_rule: str | None = None  # set once the match is over
    over_reported: bool = False
    scores_known: bool = True  # False after an unreadable line: the next hand's own claims give its scores
    lost: list[tuple[str, int, int | None]] = field(default_factory=list)  # unreadable (file, line, deal number)
    last_dealer: int | None = None  # dealer of the previous deal (to name a wrong next dealer's cause)
    last_redeal: str | None = None  # the clause that cancelled the previous deal, None when it was played
    # where the previous line claimed another dealer or other scores than the rules gave: what the rules gave (the
    # next dealer from the rules' dealer, the scores by the rules), which the next line may go on from instead
    alt_dealer: int | None = None
    alt_scores: list[int] | None = None
    alt_target: tuple[int, list[int]] | None = None  # (target, games won) as the rules' winner left them
    said: set[str] = field(default_factory=set)  # warnings given once per match
    # a clean auction hand the scoring hypotheses can be weighed on (a bid of 13, or all 13 tricks to a team):
    # (contract, tricks by seat, the changes claimed, which are the rules' own); the verifier takes it
    # (Summary.refuted)
    weigh: tuple[tuple[int, int, int | None], list[int], list[int]] | None = None
    # a deal of the individual family whose bid total the record settled as the rules do, which the threshold
    # hypotheses are weighed on: (the bids, the scores before the deal, whether it was played)
    weigh_total: tuple[list[int], list[int], bool] | None = None

    @property
    def dealer(self) -> int | None:
        """The dealer expected of the next line; None when it is not known (not checked)."""
        return self.table.dealer if self.dealer_known else None


class Driver:
    """One hand line through the transition. A subclass reads its line and checks its claims in the hooks, one per
    kind of state: each steps the transition with the line's next action (or actions) for that state and returns the
    state it gives (or one built from the line's claims, with only the fields they name replaced), or None when the
    line cannot be followed any further."""

    __slots__ = ()

    def drive(self, state: Dealing) -> State | None:
        """The state the deal ends in (Dealing, or Over) after the line's actions from ``state``; None when the line
        could not be followed to the end of its deal."""
        now = self.deal(state)
        while now is not None:
            if type(now) is Playing:
                now = self.trick(now)
            elif type(now) is Bidding or type(now) is Calling:
                now = self.call(now)
            elif type(now) is Claiming:
                now = self.claim(now)
            elif type(now) is Naming:
                now = self.name(now)
            else:  # Dealing or Over: the deal has ended, as the step that ended it said
                return now
        return None

    def deal(self, state: Dealing) -> State | None:
        """Step the line's deck (``Deal``)."""
        raise NotImplementedError

    def claim(self, state: Claiming) -> State | None:
        """Step the claim of the weak seat to choose (``Redeal``)."""
        raise NotImplementedError

    def call(self, state: Bidding | Calling) -> State | None:
        """Step the line's next bid or auction call (``Bid``)."""
        raise NotImplementedError

    def name(self, state: Naming) -> State | None:
        """Step the trump the line names (``NameTrump``)."""
        raise NotImplementedError

    def trick(self, state: Playing) -> State | None:
        """Step the line's next trick (or its tricks from here)."""
        raise NotImplementedError


__all__ = ["Driver", "MatchState"]
