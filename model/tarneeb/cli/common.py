"""Helpers shared by the command modules: JSON lines, the console, argument types, self-play arguments."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tarneeb.core.ambiguity import with_readings
from tarneeb.core.cards import n_of, per_player, per_team, player_name, team_label
from tarneeb.core.sources import rule_words
from tarneeb.core.spec import Rules, get_ruleset, load_rules, parse_option_args
from tarneeb.errors import ConfigError, echo

CommandFn = Callable[[argparse.Namespace], int]


def print_json(obj: Any) -> None:
    """One JSON value on one line of standard output (non-ASCII kept as is)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def console(stderr: bool = False) -> Any:
    """A rich console (imported late: rich is slow to import).

    On a terminal it wraps to the terminal's width; piped to a file or another
    program it does not wrap at all (rich would otherwise assume 80 columns).
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=100_000, soft_wrap=True)


def progress_bar(stream: Any = None, show: bool = True) -> Any:
    """The progress of a long command: a rich display on standard error (``stream``), shown only when it is a
    terminal (and ``show``) and gone when done, so that piped output and ``--json`` are what they are without it.
    Each task shows its description, a bar, how many of how many, and the time elapsed, redrawn by a thread ten
    times a second: a long step still shows the time passing. Standard output is left alone (rich would send what
    is printed there meanwhile to the display's stream). Not for a command that forks worker processes while it
    runs (a thread that holds a lock at the fork leaves the child that lock held): ``verify`` refreshes its own
    bar, and ``prove`` keeps its own line."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    stream = sys.stderr if stream is None else stream
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=Console(file=stream), transient=True, redirect_stdout=False,
                    disable=not (show and stream.isatty()))


def count_arg(lowest: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``lowest``."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{echo(text)} is not a whole number") from None
        if n < lowest:
            raise argparse.ArgumentTypeError(f"{n} is below the lowest allowed value, {lowest}")
        return n

    return parse


def add_selfplay_args(s: argparse.ArgumentParser, *, positional: bool = False, matches: int = 10) -> None:
    """The arguments shared by every command that plays seeded matches (simulate, record, stats: ``positional``
    takes the ruleset as the first argument instead of ``--ruleset``)."""
    ruleset_help = "ruleset id (see `tarneeb rulesets`) or the path of a ruleset file (house rules)"
    if positional:
        s.add_argument("ruleset", help=ruleset_help)
    else:
        s.add_argument("--ruleset", required=True, help=ruleset_help)
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a ruleset option (repeatable, once per option; see `tarneeb show RULESET`)")
    add_reading_arg(s)
    s.add_argument("--matches", type=count_arg(1), default=matches, help=f"how many matches to play (default {matches})")
    s.add_argument("--seed", default="0", help="seed text; the same seed gives the same matches (default 0)")
    s.add_argument("--policy", choices=("heuristic", "random"), default="heuristic",
                   help="how the four bots choose: the documented heuristic or uniformly at random among legal actions")
    s.add_argument("--max-hands", type=count_arg(1), default=200, help="stop a match unfinished after this many played hands")


def add_reading_arg(s: argparse.ArgumentParser) -> None:
    """``--reading AMBIGUITY=READING`` (repeatable): follow another reading of the ambiguity register."""
    s.add_argument("--reading", action="append", metavar="AMBIGUITY=READING",
                   help="follow this reading of an ambiguity of spec/ambiguities.toml instead of the ruleset's "
                        "(repeatable; `tarneeb show RULESET` lists the selectable ones)")


def reading_args(items: Sequence[str] | None) -> dict[str, str]:
    """Repeated ``--reading AMBIGUITY=READING`` arguments (or none) as a dict; a malformed one is a ConfigError."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise ConfigError("(command line)", f"--reading {item}", "a reading is written AMBIGUITY=READING")
        k, v = (x.strip() for x in item.split("=", 1))
        if k in out:
            raise ConfigError("(command line)", f"--reading {k}", f"given twice ({echo(out[k])} and {echo(v)}); give it once")
        out[k] = v
    return out


def option_args(items: Sequence[str] | None) -> dict[str, str]:
    """Repeated ``--option NAME=VALUE`` arguments (or none) as a dict; a malformed one is a ConfigError."""
    return parse_option_args(list(items or []))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The validated rules named by ``args.ruleset`` with ``args.option`` and ``args.reading`` applied."""
    rs = with_readings(get_ruleset(args.ruleset), reading_args(getattr(args, "reading", None)))
    return load_rules(rs, option_args(args.option))


def jobs_arg(text: str) -> int:
    """An argparse type for ``--jobs``: a whole number of worker processes, at least 1."""
    return count_arg(1)(text)


def counts_text(counts: Mapping[str, int] | None, one: str, many: str | None = None) -> str:
    """How often each clause decided (``{"win.target": 20, "tie.both-qualify": 1}``) as people read it, counting
    ``one`` (``many``): ``20 matches by the target rule (win.target), 1 match by the both-qualify tie rule
    (tie.both-qualify)`` (``none`` when empty)."""
    return ", ".join(f"{n_of(v, one, many)} by {rule_words(k)}" for k, v in (counts or {}).items()) or "none"


def print_summary(label: str, policy: str, s: dict[str, Any], results: Sequence[Any], teams: bool = False) -> None:
    """The human summary of a batch of self-play matches (simulate, demo), with each match when few; ``teams``:
    the scores are the two teams' (the auction family's), each held by both partners."""
    from rich.markup import escape

    con = console()
    head = "[bold yellow]interrupted[/bold yellow] after " if s.get("interrupted") else ""
    con.print(f"{head}[bold]{escape(label)}[/bold] ({policy} policy): {n_of(s['matches'], 'match', 'matches')}, "
              f"{team_label(0)} won {s['team0_wins']}, {team_label(1)} won {s['team1_wins']}, unfinished {s['unfinished']}; "
              f"{n_of(s['hands'], 'hand')} played ({s['mean_hands']} per match), {n_of(s['redeals'], 'redeal')}; "
              f"decided: {escape(counts_text(s['decided_by'], 'match', 'matches'))}", highlight=False)
    if len(results) <= 5:
        for r in results:
            con.print(f"  seed {r.seed}: first dealer {player_name(r.first_dealer)}, {n_of(r.hands, 'hand')}, "
                      f"{n_of(r.redeals, 'redeal')}, "
                      f"final scores {_scores_text(r.final_scores, teams)}, winner "
                      f"{team_label(r.winner) if r.winner is not None else 'none (unfinished)'}"
                      f"{' by ' + rule_words(r.winner_rule) if r.winner_rule else ''}", highlight=False)


def _scores_text(scores: Sequence[int], teams: bool) -> str:
    """Four scores by player, or (``teams``) the two teams' scores, in words."""
    return per_team([scores[0], scores[1]]) if teams or len(scores) == 2 else per_player(scores)
