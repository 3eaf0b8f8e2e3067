"""Statistics of seeded self-play under a ruleset: what a rule does to the game, before a rule writer adopts it.

Matches are played by the engine (:func:`tarneeb.play.simulate.play_match`, so every rule decision is the core's)
with a named bot policy (the figures assume the documented ``heuristic`` policy of :mod:`tarneeb.play.bots`
unless said otherwise). From the hand records it counts:

* match length: played hands per finished match (unfinished matches are counted apart);
* the cancelled-deal rate: deals cancelled (bid.total, auction.all-pass, deal.weak-redeal) per deal;
* bids: individual family, every seat's bid; auction family, every call (0 stands for a pass);
* contracts: individual family, the total of the four bids of a played hand; auction family, the contract's
  number of tricks; and how often the contract (auction) or a seat's bid (individual) was made;
* the dealer's team: how often it gained more points than the other team in a played hand, and how often the
  team of the first dealer won the match.

:func:`compare` plays the same seeds under two configurations (the ruleset as given, and with an option
changed), so the differences are the option's. Plots need matplotlib (the ``stats`` extra).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core.spec import Rules
from tarneeb.play.simulate import play_match


@dataclass(slots=True)
class Stats:
    """Counts over a set of matches under one configuration."""

    label: str
    policy: str
    individual: bool
    matches: int = 0
    finished: int = 0
    deals: int = 0
    cancelled: int = 0
    hands: int = 0
    length: Counter[int] = field(default_factory=Counter)  # played hands per finished match
    bids: Counter[int] = field(default_factory=Counter)  # individual: bids; auction: calls, 0 = pass
    contracts: Counter[int] = field(default_factory=Counter)  # individual: bid total; auction: contract
    made: int = 0  # contracts (auction) or seat bids (individual) made
    tried: int = 0
    dealer_team_hands: int = 0  # played hands the dealer's team gained more than the other team
    first_dealer_team_wins: int = 0
    max_hands: int = 0  # the cap of played hands per match (an unfinished match stopped there)
    cancel_reasons: Counter[str] = field(default_factory=Counter)

    def add_match(self, m: Any, first_dealer: int) -> None:
        """Count one finished or unfinished :class:`~tarneeb.core.match.Match` from its hand records."""
        self.matches += 1
        for rec in m.records:
            self.deals += 1
            for _, b in rec.bids:
                self.bids[0 if b.n is None else b.n] += 1
            if rec.redeal is not None:
                self.cancelled += 1
                self.cancel_reasons[rec.redeal] += 1
                continue
            self.hands += 1
            d = rec.deltas
            team_gain = (d[0] + d[2], d[1] + d[3]) if self.individual else (d[0], d[1])
            dt = core_rules.team_of(rec.dealer)
            if team_gain[dt] > team_gain[1 - dt]:
                self.dealer_team_hands += 1
            if self.individual:
                self.contracts[sum(b.n or 0 for _, b in rec.bids)] += 1
                for seat, b in rec.bids:
                    self.tried += 1
                    self.made += core_rules.bid_made(b.n or 0, rec.tricks_won[seat])
            elif rec.contract is not None:
                holder, n, _ = rec.contract
                self.contracts[n] += 1
                self.tried += 1
                team = core_rules.team_of(holder)
                self.made += core_rules.bid_made(n, rec.tricks_won[team] + rec.tricks_won[team + 2])
        if m.winner is not None:
            self.finished += 1
            self.length[m.hands_played] += 1
            self.first_dealer_team_wins += m.winner == core_rules.team_of(first_dealer)

    def call_name(self, call: int) -> str:
        """A call as the summary and the charts name it: ``pass`` for the auction family's 0, else the number."""
        return "pass" if call == 0 and not self.individual else str(call)

    def summary(self) -> dict[str, Any]:
        def mean(c: Counter[int]) -> float | None:
            n = sum(c.values())
            return round(sum(k * v for k, v in c.items()) / n, 3) if n else None

        return {
            "label": self.label, "policy": self.policy, "family": "individual" if self.individual else "auction",
            "matches": self.matches, "finished": self.finished, "stopped_at_cap": self.matches - self.finished,
            "max_hands": self.max_hands, "deals": self.deals, "hands": self.hands,
            "mean_match_hands": mean(self.length),
            "cancelled_rate": round(self.cancelled / self.deals, 4) if self.deals else None,
            "cancelled_by": dict(self.cancel_reasons),
            # a pass (counted as a call of 0 in the auction family) is keyed by name; mean_bid counts it as 0
            "bids": {self.call_name(k): v for k, v in sorted(self.bids.items())}, "mean_bid": mean(self.bids),
            "contracts": {str(k): v for k, v in sorted(self.contracts.items())}, "mean_contract": mean(self.contracts),
            "made_rate": round(self.made / self.tried, 4) if self.tried else None,
            "dealer_team_hand_rate": round(self.dealer_team_hands / self.hands, 4) if self.hands else None,
            "first_dealer_team_match_rate": (round(self.first_dealer_team_wins / self.finished, 4)
                                             if self.finished else None),
            "length": {str(k): v for k, v in sorted(self.length.items())},
        }


def collect(rules: Rules, matches: int, seed: int | str = 0, policy: str = "heuristic", max_hands: int = 200,
            label: str | None = None, progress: Callable[[], None] | None = None) -> Stats:
    """Play ``matches`` seeded matches with the engine and count them."""
    st = Stats(label or rules.label(), policy, rules.individual, max_hands=max_hands)
    for i in range(matches):
        res = play_match(rules, seed, i, policy, max_hands)
        st.add_match(res.match, res.first_dealer)
        if progress is not None:
            progress()
    return st


def collect_batch(rules: Rules, matches: int, seed: int = 0, max_hands: int = 200,
                  label: str | None = None, progress: Callable[[int], None] | None = None) -> Stats:
    """The same counts from the numpy batch path (:mod:`tarneeb.play.batch`, random policy only). A configuration
    the batch does not cover (:func:`tarneeb.play.batch.unsupported`) is played by the engine instead
    (:func:`collect`, random policy, the same seed). ``progress(done)`` is called after each deal the batch plays
    in lock-step (by the engine: after each match) with the number of matches over (finished, or stopped at the
    cap)."""
    from tarneeb.play import batch

    if not batch.supported(rules):
        done = 0

        def one_more() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done)

        return collect(rules, matches, seed, "random", max_hands, label, progress=one_more)
    res = batch.run(rules, matches, seed, max_hands,
                    on_round=None if progress is None else lambda _rounds, still_on: progress(matches - still_on))
    st = Stats(label or rules.label(), "random", rules.individual, max_hands=max_hands)
    st.matches = matches
    st.deals = int(res.deals.sum())
    st.hands = int(res.hands_played.sum())
    st.cancelled = st.deals - st.hands
    st.cancel_reasons.update(res.cancelled)
    fin = res.winner >= 0
    st.finished = int(fin.sum())
    st.length.update(int(h) for h in res.hands_played[fin])
    st.bids.update({k: int(v) for k, v in enumerate(res.bids) if v})
    st.contracts.update({k: int(v) for k, v in enumerate(res.contracts) if v})
    st.made, st.tried = res.made, res.tried
    st.dealer_team_hands = res.dealer_team_hands
    st.first_dealer_team_wins = int((fin & (res.winner == (res.first_dealer & 1))).sum())
    return st


def compare(base: Stats, other: Stats) -> dict[str, Any]:
    """The change of each rate and mean from ``base`` to ``other`` (other minus base)."""
    a, b = base.summary(), other.summary()
    out: dict[str, Any] = {}
    for k in ("mean_match_hands", "cancelled_rate", "mean_bid", "mean_contract", "made_rate",
              "dealer_team_hand_rate", "first_dealer_team_match_rate"):
        if a[k] is not None and b[k] is not None:
            out[k] = round(b[k] - a[k], 4)
    return out


# ---------------------------------------------------------------- terminal

def text_bars(counts: Counter[int], width: int = 40, other: Counter[int] | None = None,
              name: Callable[[int], str] = str) -> list[str]:
    """A horizontal bar chart of shares in plain text (``#``; a second series in ``=`` below each bar); ``name``
    says each key (``pass`` for a call of 0)."""
    keys = sorted(set(counts) | set(other or {}))
    tot_a = sum(counts.values()) or 1
    tot_b = sum((other or Counter()).values()) or 1
    top = max([counts[k] / tot_a for k in keys] + [(other or Counter())[k] / tot_b for k in keys] + [1e-9])
    lines = []
    for k in keys:
        share = counts[k] / tot_a
        lines.append(f"{name(k):>4} {'#' * round(width * share / top):<{width}} {100 * share:5.1f}%")
        if other is not None:
            share_b = other[k] / tot_b
            lines.append(f"{'':>4} {'=' * round(width * share_b / top):<{width}} {100 * share_b:5.1f}%")
    return lines


# ---------------------------------------------------------------- figures

def plot(stats: list[Stats], path: Path, title: str = "") -> Path:
    """Four panels (match length, bids, contracts, rates), one series per :class:`Stats`; saved as ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    width = 0.8 / max(1, len(stats))
    panels: list[tuple[Any, str, Callable[[Stats], Counter[int]], str]] = [
        (axes[0][0], "match length (played hands, finished matches)", lambda s: s.length, "hands"),
        (axes[0][1], "calls (0 = pass)" if not stats[0].individual else "bids", lambda s: s.bids, "tricks"),
        (axes[1][0], "contract" if not stats[0].individual else "total of the four bids (played hands)",
         lambda s: s.contracts, "tricks"),
    ]
    for ax, name, get, xlabel in panels:
        for i, s in enumerate(stats):
            c = get(s)
            tot = sum(c.values()) or 1
            xs = sorted(c)
            ax.bar([x + (i - (len(stats) - 1) / 2) * width for x in xs], [100 * c[x] / tot for x in xs],
                   width=width, label=s.label)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("% of all")
    ax = axes[1][1]
    names = ["cancelled deals", "made", "dealer's team\nwins the hand", "first dealer's\nteam wins"]
    for i, s in enumerate(stats):
        sm = s.summary()
        vals = [sm["cancelled_rate"], sm["made_rate"], sm["dealer_team_hand_rate"], sm["first_dealer_team_match_rate"]]
        ax.bar([k + (i - (len(stats) - 1) / 2) * width for k in range(4)], [100 * (v or 0) for v in vals],
               width=width, label=s.label)
    ax.set_xticks(range(4), names, fontsize=8)
    ax.set_ylabel("%")
    ax.set_title("rates", fontsize=10)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title or f"{stats[0].label}: {stats[0].matches} matches, {stats[0].policy} policy", fontsize=11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


__all__ = ["Stats", "collect", "collect_batch", "compare", "plot", "text_bars"]
