"""``tarneeb fuzz``: differential fuzzing of an external engine (spec/protocol/) against ours, in lockstep.

Exit codes: 0 no divergence; 1 a divergence was found (its shrunk reproducer
is printed, and written with ``--out``); 2 bad input, an engine whose ``hello``
lists rulesets without this one (nothing is run, as ``vectors run`` skips
them), or an engine that timed out, crashed, went silent or wrote garbage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tarneeb.cli.common import add_reading_arg, progress_bar, rules_from_args
from tarneeb.conformance.protocol import Engine
from tarneeb.core.cards import n_of
from tarneeb.errors import BadInput, os_error_words


def register(subparsers: Any) -> None:
    f = subparsers.add_parser("fuzz", help="differential fuzzing of an external engine against ours, in lockstep")
    f.add_argument("--engine", required=True, metavar="CMD", help="command line that starts the engine (spec/protocol)")
    f.add_argument("--ruleset", required=True,
                   help="ruleset id (see `tarneeb rulesets`) or the path of a ruleset file (house rules)")
    f.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a ruleset option (repeatable, once each)")
    add_reading_arg(f)
    f.add_argument("--hands", type=int, default=200, help="deals to play (cancelled deals count)")
    f.add_argument("--seed", default="0", help="seed of the matches (the same seed plays the same matches)")
    f.add_argument("--part-way", type=float, default=0.5, metavar="SHARE",
                   help="share of the deals played in matches started part-way, from near-target score states "
                        "(default 0.5: the end-of-game rules only decide near the target; 0: every match from zero)")
    f.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each answer")
    f.add_argument("--out", default=None, help="also write the reproducer (game record) to this file")
    f.add_argument("--batch", action="store_true",
                   help="one exchange per deal (protocol command 'deal') instead of one per action; the same "
                        "deals, divergence and reproducer, much faster")
    f.add_argument("--json", action="store_true", help="one JSON object instead of text")
    f.set_defaults(func=cmd_fuzz)


def cmd_fuzz(args: argparse.Namespace) -> int:
    from tarneeb.conformance.fuzz import NoBatch, fuzz

    if args.hands < 1:
        raise BadInput(f"--hands: {args.hands} must be at least 1")
    rules = rules_from_args(args)
    from tarneeb.conformance.fuzz import wire_rules

    wire = wire_rules(rules)["ruleset"]  # the built-in id the engine is told
    with Engine(args.engine, timeout=args.timeout) as eng:
        listed = eng.hello.get("rulesets")
        if isinstance(listed, list) and wire not in listed:  # as `vectors run` does: not run, and said so
            if args.json:
                print(json.dumps({"deals": 0, "divergence": None, "skipped": wire, "engine_rulesets": listed}))
            else:
                print(f"skipped: ruleset {wire} is not among the rulesets the engine's hello lists "
                      f"({', '.join(str(x) for x in listed) or 'none'})")
                print("nothing was run: the engine does not support this ruleset")
            return 2
        try:
            with progress_bar() as bar:
                task = bar.add_task(f"fuzz {rules.label()}: deals", total=args.hands)
                res = fuzz(eng, rules, args.hands, str(args.seed), part_way=args.part_way, batch=args.batch,
                           on_progress=lambda n: bar.advance(task, n))
        except NoBatch as e:
            raise BadInput(f"--batch: the engine does not serve the batched 'deal' command ({e}); see "
                           "spec/protocol/README.md, or run without --batch") from None
    if args.out and res.reproducer:
        try:
            with open(args.out, "wb") as f:
                f.writelines(res.reproducer)
        except OSError as e:
            raise BadInput(f"--out {args.out}: cannot write: {os_error_words(e)}") from None
    if args.json:
        print(json.dumps(res.to_json()))
    elif res.divergence is None:
        print(f"no divergence in {n_of(res.deals, 'deal')} ({n_of(res.matches, 'match', 'matches')}) under "
              f"{rules.words()}")
    else:
        print(f"divergence after {res.deals} deals: {res.divergence.text()}")
        if res.shrunk is not None:
            print(f"shrunk to {n_of(res.reproducer_deals, 'deal')}: {res.shrunk.text()}")
        print("reproducer (game record; check it with `tarneeb verify`):")
        for line in res.reproducer:
            sys.stdout.write(line.decode())
    return 1 if res.divergence is not None else 0
