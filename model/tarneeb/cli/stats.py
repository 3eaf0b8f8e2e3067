"""``tarneeb stats RULESET``: what a ruleset (and a changed option) does to the game, from seeded self-play."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tarneeb.cli.common import add_selfplay_args, console, counts_text, option_args, print_json, progress_bar, reading_args
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.cards import JSON_NUMBERING
from tarneeb.core.spec import get_ruleset, load_rules
from tarneeb.errors import BadInput


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("stats", help="statistics of seeded self-play: match length, cancelled deals, bids, "
                                            "contracts, the dealer's team; how an option changes them; plots")
    add_selfplay_args(s, positional=True, matches=200)
    s.add_argument("--compare", action="append", metavar="NAME=VALUE",
                   help="also play the same seeds with this option changed and show the difference (repeatable)")
    s.add_argument("--batch", action="store_true",
                   help="play the matches in lock-step with numpy (tarneeb.play.batch; random policy only, "
                        "about 10x faster; a configuration it does not cover is played by the engine, as said)")
    s.add_argument("--plot", metavar="FILE.png", help="save the figures there (needs matplotlib: the stats extra)")
    s.add_argument("--json", action="store_true", help="one JSON object: each configuration's summary and the change")
    s.set_defaults(func=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    from tarneeb.stats import collect, collect_batch, compare, plot, text_bars

    opts = option_args(args.option)
    rs = with_readings(get_ruleset(args.ruleset), reading_args(args.reading))
    rules = load_rules(rs, opts)
    configs = [rules]
    if args.compare:
        changed = option_args(args.compare)
        configs.append(load_rules(rs, {**opts, **changed}))
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise BadInput("--plot needs matplotlib: pip install 'tarneeb[stats]'") from None
    if args.batch:
        try:
            from tarneeb.play.batch import unsupported
        except ImportError:
            raise BadInput("--batch needs numpy 2: pip install 'tarneeb[stats]'") from None

        if args.policy != "random":
            raise BadInput("--batch plays the random policy only: add --policy random")
        for r in configs:
            why = unsupported(r)
            if why is not None:
                console(stderr=True).print(f"--batch does not cover {r.label()} ({why}): its matches are played by "
                                           "the engine", highlight=False, markup=False)
        seed = int.from_bytes(str(args.seed).encode()[:8].ljust(8, b"\0"), "little")
    results = []
    with progress_bar() as bar:  # on standard error, on a terminal only: the output is the same without it
        for r in configs:
            task = bar.add_task(f"{r.label()}: matches done", total=args.matches)

            def over(done: int, task: Any = task) -> None:
                bar.update(task, completed=done)

            def one_more(task: Any = task) -> None:
                bar.advance(task)

            if args.batch:
                results.append(collect_batch(r, args.matches, seed, args.max_hands, progress=over))
            else:
                results.append(collect(r, args.matches, args.seed, args.policy, args.max_hands, progress=one_more))
    out: dict[str, Any] = {"numbering": JSON_NUMBERING, "ruleset": args.ruleset, "policy": args.policy,
                           "matches": args.matches,
                           "seed": args.seed, "configurations": [s.summary() for s in results]}
    if len(results) == 2:
        out["change"] = compare(results[0], results[1])
    if args.plot:
        out["plot"] = str(plot(results, Path(args.plot)))
    if args.json:
        print_json(out)
        return 0
    from rich.markup import escape

    con = console()
    other = results[1] if len(results) == 2 else None
    for r, s in zip(configs, results, strict=True):
        sm = s.summary()
        capped = sm["stopped_at_cap"]
        stop = (f" ({capped} stopped at the cap of {sm['max_hands']} hands"
                + ("; random play rarely ends an individual game: the heuristic policy without --batch plays them"
                   " out" if capped == sm["matches"] and sm["family"] == "individual" else "") + ")") if capped else ""
        con.print(f"[bold]{escape(r.words())}[/bold] ({sm['policy']} policy): {sm['matches']} matches, "
                  f"{sm['finished']} finished{stop}, {sm['hands']} hands played, {sm['deals']} deals")
        why = f", {escape(counts_text(sm['cancelled_by'], 'deal'))}" if sm["cancelled_by"] else ""
        length = "n/a (no match finished)" if sm["mean_match_hands"] is None else f"{sm['mean_match_hands']} hands"
        con.print(f"  mean match length {length}; cancelled deals {_pct(sm['cancelled_rate'])}"
                  f"{why}; made {_pct(sm['made_rate'])}; dealer's team wins the hand "
                  f"{_pct(sm['dealer_team_hand_rate'])}; first dealer's team wins the match "
                  f"{_pct(sm['first_dealer_team_match_rate'])}", highlight=False)

    def chart(title: str, a: Counter[int], b: Counter[int] | None, name: Callable[[int], str] = str) -> None:
        legend = escape(f" (# {results[0].label}, = {results[1].label})") if b is not None else ""
        con.print(f"[bold]{title}[/bold]{legend}", highlight=False)
        if not a and not b:  # a heading with nothing under it read as a fault: say why it is empty
            con.print("  none (no match finished)" if "match" in title else "  none", highlight=False)
        for line in text_bars(a, other=b, name=name):
            con.print("  " + line, highlight=False, markup=False)

    base = results[0]
    chart("match length (hands)", base.length, other.length if other else None)
    chart("bids" if base.individual else "calls", base.bids, other.bids if other else None, base.call_name)
    chart("total of the bids" if base.individual else "contracts", base.contracts, other.contracts if other else None)
    if "change" in out:
        con.print("change: " + ", ".join(_change_text(k, v) for k, v in out["change"].items()), highlight=False)
    if args.plot:
        con.print(f"figures: {out['plot']}", highlight=False)
    return 0


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


_CHANGE_WORDS = {"mean_match_hands": ("hands per match", False), "cancelled_rate": ("deals cancelled", True),
                 "mean_bid": ("mean bid", False), "mean_contract": ("mean contract", False),
                 "made_rate": ("bids made", True), "dealer_team_hand_rate": ("dealer's team wins the hand", True),
                 "first_dealer_team_match_rate": ("first dealer's team wins the match", True)}


def _change_text(key: str, value: float) -> str:
    """One change of ``--compare`` in words: a share in percentage points, a mean as a signed number."""
    words, share = _CHANGE_WORDS.get(key, (key, False))
    return f"{words} {100 * value:+.1f} points" if share else f"{words} {value:+}"
