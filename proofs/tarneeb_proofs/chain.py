"""The chain ``prove`` concludes from, per ruleset: which families it rests on and whether each was proved.

The engine's rule functions equal their encodings (family ``engine``); the engine's transition equals the
specification's transition with those functions as unknowns (family ``transition``), so it is the specification's
transition with the encodings; the design's invariants are inductive on that transition (families ``tricks``,
``invariants``, and for the auction ``bids``). When every link of a ruleset was run and proved, each invariant
holds in every state the engine can reach from :func:`tarneeb.core.transition.start`; otherwise nothing is
concluded, and the chain says which link is missing or failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# (family, stage or "" for all of the family, what the link says, individual family, auction family)
LINKS: tuple[tuple[str, str, str, bool, bool], ...] = (
    ("engine", "", "the engine's rule functions equal their encodings", True, True),
    ("transition", "", "the engine's transition equals the specification's, for every state and action", True, True),
    ("invariants", "follow", "legal follow-suit, inductive (and the transition's play step is the encoding's)",
     True, True),
    ("tricks", "", "a hand is 13 tricks, inductive", True, True),
    ("invariants", "bids", "bids within the clauses and the bid-total redeal, inductive", True, False),
    ("bids", "", "the auction ends in one contract, the top bid, inductive", False, True),
    ("invariants", "outcome", "win qualification, ties and play-on, inductive", True, True),
)
INVARIANT_NAMES = ("13 tricks per hand", "legal follow-suit", "bids and the bid-total redeal"
                   " (individual) or the contract (auction)", "win qualification and ties")


@dataclass
class Link:
    """One link of a ruleset's chain: its family (and stage), what it says, and how many of its proofs proved."""
    family: str
    stage: str
    says: str
    proved: int
    total: int

    @property
    def holds(self) -> bool:
        """Every proof of the link ran here and proved."""
        return self.total > 0 and self.proved == self.total

    def to_json(self) -> dict[str, Any]:
        """The link as ``prove --json`` gives it under ``summary.chain``."""
        return {"family": self.family + (f".{self.stage}" if self.stage else ""), "says": self.says,
                "proved": self.proved, "proofs": self.total, "holds": self.holds}


def chain(results: Sequence[Any], ruleset: str, individual: bool) -> list[Link]:
    """The links of ``ruleset``'s chain with how many of their proofs (unmutated checks) in ``results`` proved."""
    out = []
    for fam, stage, says, ind, auc in LINKS:
        if not (ind if individual else auc):
            continue
        rs = [r for r in results if r.check.ruleset == ruleset and r.check.mutant is None
              and r.check.invariant == fam and (not stage or r.check.stage == stage)]
        out.append(Link(fam, stage, says, sum(r.status == "proved" for r in rs), len(rs)))
    return out


def conclusion(links: Sequence[Link]) -> str:
    """What the chain concludes, in words."""
    missing = [lk for lk in links if lk.total == 0]
    failed = [lk for lk in links if lk.total and not lk.holds]
    if failed:
        return "nothing concluded: " + ", ".join(f"{lk.family}{'.' + lk.stage if lk.stage else ''} "
                                                 f"({lk.proved}/{lk.total} proved)" for lk in failed)
    if missing:
        return "nothing concluded: not run here: " + ", ".join(
            lk.family + (f".{lk.stage}" if lk.stage else "") for lk in missing)
    return ("proved: " + ", ".join(INVARIANT_NAMES) + " hold in every state the engine's transition can reach "
            "from a match's start")


__all__ = ["LINKS", "Link", "chain", "conclusion"]
