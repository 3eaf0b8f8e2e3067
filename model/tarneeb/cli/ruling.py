"""``tarneeb ruling``: settle a table argument from a situation file, a game record, or a few flags."""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from tarneeb.errors import SituationError

_KINDS_HELP = ("card-legal, trick-winner, bid-legal, redeal, score, winner, next-dealer, trump, who-leads, "
               "whose-turn, irregularity")

EPILOG = """\
Which ruleset: --ruleset beats the situation's own `ruleset`, which beats the club default: $TARNEEB_RULESET
(ids separated by commas, or "all"), else ./tarneeb.toml, else $XDG_CONFIG_HOME/tarneeb/config.toml
(~/.config/tarneeb/config.toml), each holding e.g. `ruleset = "card-kings-41"`; with none of them, every ruleset.

Players 1 to 4: every flag you type and every answer you read counts players 1 to 4 in the order of play
(partners 1 and 3, 2 and 4): --dealer, --seat, --contract PLAYER:..., --hand-cards PLAYER:..., --void PLAYER:...,
--trick LEADER:..., --history LEADER:..., and the four values of --scores, --bids, --tricks in order. Seats 0 to 3
are for machines only: situation files and dispute files, game records, the protocol and --json count seats 0
to 3, so seat 0 is player 1. Examples:
  tarneeb ruling winner --scores 41,50,10,1 --ruleset card-kings-41
  tarneeb ruling card-legal --dealer 1 --seat 3 --card AS --ruleset card-kings-41
  tarneeb ruling card-legal --trick 2:KD --seat 3 --card 3C --void 3:D --trump S
  tarneeb ruling who-leads --dealer 2 --ruleset bsfyi-41
  tarneeb ruling who-leads --dealer 1 --auction 7,8,pass,8 --ruleset classic
  tarneeb ruling next-dealer --dealer 3 --deals cancelled,cancelled
  tarneeb ruling irregularity --irregularity revoke
  tarneeb ruling spec/disputes/tie-equal-combined.toml --explain
  tarneeb ruling games.jsonl --match club-7 --hand 3 --question winner
"""


def _build(args: argparse.Namespace) -> Any:
    from tarneeb.ruling import KINDS, parse_situation
    from tarneeb.ruling.inputs import situation_from_flags, situation_from_record, with_rulesets
    from tarneeb.ruling.situation import read_raw, unknown_kind

    target = args.target
    rulesets = None
    if args.ruleset:
        ids = [x.strip() for item in args.ruleset for x in item.split(",") if x.strip()]
        rulesets = "all" if ids == ["all"] else ids
    options: dict[str, dict[str, Any]] = {}
    if args.option:
        from tarneeb.cli.common import option_args

        opts = option_args(args.option)
        if not isinstance(rulesets, list) or len(rulesets) != 1:
            raise SituationError("(flags)", ["--option"], "--option needs exactly one --ruleset")
        options[rulesets[0]] = dict(opts)
    if target in KINDS and not Path(target).exists():
        raw = situation_from_flags(target, vars(args))
        name = "(flags)"
    elif args.match is not None or args.hand is not None or target.endswith((".jsonl", ".ndjson")):
        if args.hand is None:
            raise SituationError(target, ["--hand"], "name the hand of the record: --hand N")
        raw = situation_from_record(target, args.match, args.hand, args.question)
        name = target
    else:
        if not Path(target).exists() and Path(target).suffix.lower() not in (".toml", ".json"):
            # neither a question kind nor a file: say both, and the kind meant when it is close
            raise SituationError("(command line)", ["TARGET"], unknown_kind(target, file_too=True))
        raw = read_raw(target)
        name = target
        if args.question:
            raise SituationError(target, ["--question"], "a situation file states its own question")
    if args.reading:
        from tarneeb.cli.common import reading_args

        raw = {**raw, "readings": {**raw.get("readings", {}), **reading_args(args.reading)}}
    return parse_situation(with_rulesets(raw, rulesets, options), name)


_RECORD_TITLE = re.compile(r"^match (?P<match>.*), hand (?P<hand>\d+) \((?P<where>.*)\)$")


def _title_ar(args: argparse.Namespace, rep: Any) -> str:
    """What the ruling is about, in Arabic: a dispute of spec/disputes/ by its Arabic title (ar_pages.toml
    [dispute.NAME]), a hand of a record by its match and hand, the quick flags as such; a situation file of one's
    own keeps the title it was given (left-to-right if it has no Arabic letter)."""
    from tarneeb.core.spec import spec_dir
    from tarneeb.docgen.pages_i18n import page_text
    from tarneeb.i18n.tables import i18n
    from tarneeb.ruling import KINDS
    from tarneeb.ruling.arabic import ltr

    labels = i18n("ar").get("ruling", {}).get("labels", {})
    target = str(args.target)
    if target in KINDS and not Path(target).exists():
        return str(labels["from_flags"])
    m = _RECORD_TITLE.match(rep.title)
    if m and (args.match is not None or args.hand is not None or target.endswith((".jsonl", ".ndjson"))):
        return str(labels["record_title"]).format(match=ltr(m["match"]), hand=m["hand"], where=ltr(m["where"]))
    stem = Path(target).stem
    dispute = spec_dir() / "disputes" / f"{stem}.toml"
    title_ar = page_text("dispute", stem, "title")
    if title_ar and dispute.is_file():
        with dispute.open("rb") as fh:
            if tomllib.load(fh).get("title") == rep.title:
                return title_ar
    return rep.title if re.search("[\u0600-\u06ff]", rep.title) else ltr(rep.title)


def _text_ar(args: argparse.Namespace, rep: Any) -> str:
    """The Arabic report, headed by what it rules on (as the English one names its title)."""
    from tarneeb.ruling.arabic import report_text_ar, rtl_isolated

    head = _title_ar(args, rep)  # with --explain, the file is named in the technical line
    return rtl_isolated(head) + "\n" + report_text_ar(rep, args.explain)


def cmd_ruling(args: argparse.Namespace) -> int:
    from tarneeb.ruling import report_json, report_text, resolve

    if args.target is None:
        raise SituationError("(flags)", ["TARGET"], f"give a situation file, a record file, or a question: {_KINDS_HELP}")
    rep = resolve(_build(args))
    if args.json:
        out = report_json(rep)
        if args.lang == "ar":
            from tarneeb.ruling.arabic import add_sentences, headline_ar

            out["headline"] = headline_ar(rep)  # in Arabic, as the web referee's rule_dict gives it
            out["title_ar"] = _title_ar(args, rep)
            out["text_ar"] = _text_ar(args, rep)
            add_sentences(out, rep)
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    elif args.lang == "ar":
        sys.stdout.write(_text_ar(args, rep))
    else:
        sys.stdout.write(report_text(rep, args.explain))
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "ruling", help="rule on a situation (who wins, is it legal, whose turn, ...) with the deciding clauses",
        description="Give the ruling under each ruleset asked, with the clause that decides it, its source, the "
                    "arithmetic, and any ambiguity of the documents. The situation is a file (TOML or JSON; "
                    "schema spec/disputes/schema.json), one hand of a game record (--match, --hand), or a "
                    "question kind with flags. The flags and the ruling count players 1 to 4, as players do; situation "
                    "files, records and --json count seats 0 to 3 (seat 0 is player 1).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("target", nargs="?", metavar="TARGET",
                   help=f"a situation file (.toml/.json), a record file (.jsonl), or a question kind: {_KINDS_HELP}")
    s.add_argument("--json", action="store_true", help="machine-readable output (the whole report)")
    s.add_argument("--explain", action="store_true",
                   help="the whole chain: every deciding clause with its wording and source, every reading")
    s.add_argument("--lang", choices=("en", "ar"), default="en",
                   help="language of the output; ar writes Arabic, right-to-left")
    s.add_argument("--ruleset", action="append", metavar="ID[,ID]",
                   help="ruleset(s) to ask, or all (repeatable; beats the file's and the club default)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set an option of the one --ruleset (repeatable)")
    s.add_argument("--reading", action="append", metavar="AMBIGUITY=READING",
                   help="rule with this reading of an ambiguity of spec/ambiguities.toml, for every ruleset asked "
                        "that has it (repeatable; a situation file may say readings = { AMBIGUITY = READING })")
    rec = s.add_argument_group("a game record as the situation")
    rec.add_argument("--match", metavar="M", help="match id in the record file (needed when it holds several)")
    rec.add_argument("--hand", type=int, metavar="N",
                     help="hand number within the match, counted from 1 as verify counts it (the record's hand "
                          "field + 1)")
    rec.add_argument("--question", metavar="KIND",
                     help=f"the question about that hand (default: score, or redeal for a hand thrown in): "
                          f"{_KINDS_HELP}")
    q = s.add_argument_group("quick input (with a question kind as TARGET; players 1 to 4)")
    q.add_argument("--dealer", type=int, metavar="PLAYER", help="the dealer, player 1 to 4")
    q.add_argument("--scores", metavar="S1,S2,S3,S4",
                   help="scores before the hand: 4, players 1 to 4 in order ('-' unknown), or 2 team scores")
    q.add_argument("--scores-after", dest="scores_after", metavar="S1,S2,S3,S4", help="scores after the hand")
    q.add_argument("--bids", metavar="B1,B2,B3,B4", help="individual bids, players 1 to 4 in order, '-' for not yet bid")
    q.add_argument("--tricks", metavar="T1,T2,T3,T4", help="tricks taken, players 1 to 4 in order, '-' for unknown")
    q.add_argument("--contract", metavar="PLAYER:BID[:TRUMP]",
                   help="the contract (auction family): its player, bid and trump, e.g. 2:8:S")
    q.add_argument("--auction", metavar="CALL,CALL", help="calls in order from the player after the dealer, e.g. pass,8")
    q.add_argument("--trump", metavar="SUIT", help="trump, stated directly (C, D, H, S or N); checked against the ruleset")
    q.add_argument("--revealed", metavar="CARD", help="the dealer's turned card, e.g. QH")
    q.add_argument("--hand-cards", dest="hand_cards", action="append", metavar="PLAYER:CARDS",
                   help="cards a player holds, e.g. 3:3C,5S,7H (repeatable)")
    q.add_argument("--void", action="append", metavar="PLAYER:SUITS",
                   help="suits a player is void in, e.g. 3:D (repeatable)")
    q.add_argument("--trick", metavar="LEADER:CARDS",
                   help="the trick in progress: its leader, then the cards in order, e.g. 2:KD,2D (2: for none yet)")
    q.add_argument("--led", metavar="SUIT", help="the suit led, without its card (with --trick LEADER:)")
    q.add_argument("--history", action="append", metavar="LEADER:C1,C2,C3,C4",
                   help="a finished trick of this hand: its leader, then the cards in order, e.g. 1:2H,KH,3H,4S "
                        "(repeatable)")
    q.add_argument("--deals", metavar="RESULT,RESULT",
                   help="earlier deals in order, each played or cancelled, the first dealt by --dealer (next-dealer)")
    q.add_argument("--result", choices=("played", "cancelled"), help="what became of the hand (next-dealer)")
    q.add_argument("--seat", type=int, metavar="PLAYER", help="the player the question is about, 1 to 4")
    q.add_argument("--card", help="the card asked about, e.g. AS")
    q.add_argument("--bid", help="the bid asked about: a number, pass, or e.g. 8H")
    q.add_argument("--irregularity",
                   choices=("revoke", "bid-out-of-turn", "lead-out-of-turn", "exposed-card", "misdeal",
                            "wrong-card-count"), help="the irregularity asked about")
    s.set_defaults(func=cmd_ruling)
