"""Where a situation comes from besides a situation file: command-line flags, a game record, a club default.

* :func:`club_default` -- the club's default ruleset: ``$TARNEEB_RULESET``, else ``./tarneeb.toml``, else
  ``$XDG_CONFIG_HOME/tarneeb/config.toml`` (``~/.config`` when unset); ``None`` when none is set.
  A ruleset named on the command line beats the situation file's, which beats this default.
* :func:`situation_from_flags` -- the common questions from short flags (``--scores 41,50,10,1``).
* :func:`situation_from_record` -- one hand of a game record (``spec/records/``, read by
  :mod:`tarneeb.records.reader`) as the situation.

Each returns the raw table :func:`~tarneeb.ruling.situation.parse_situation` reads, so every check of a
situation file applies to them too.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core.cards import STRAINS, card_str
from tarneeb.errors import SituationError, echo, os_error_words
from tarneeb.records.format import HandLine, MatchHeader, RecordProblem, bid_text
from tarneeb.records.reader import read_records

CONFIG_NAME = "tarneeb.toml"
ENV = "TARNEEB_RULESET"


def _config_paths(cwd: Path, env: Mapping[str, str]) -> list[Path]:
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", str(Path.home()))) / ".config")
    return [cwd / CONFIG_NAME, Path(base) / "tarneeb" / "config.toml"]


def club_default(cwd: Path | None = None, env: Mapping[str, str] | None = None) -> tuple[Any, dict[str, Any], str] | None:
    """(ruleset spec, options by ruleset id, where it came from) of the club's default, or None.

    ``TARNEEB_RULESET`` holds ids separated by commas (or ``all``); a config file holds ``ruleset = "id"``
    (or a list, or ``"all"``) and optionally ``[options.ID]`` tables, at the top level or under ``[ruling]``.
    """
    env = os.environ if env is None else env
    value = env.get(ENV, "").strip()
    if value:
        ids = [x.strip() for x in value.split(",") if x.strip()]
        return ("all" if ids == ["all"] else (ids[0] if len(ids) == 1 else ids)), {}, f"${ENV}"
    for p in _config_paths(cwd or Path.cwd(), env):
        if not p.is_file():
            continue
        try:
            raw = tomllib.loads(p.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise SituationError(str(p), ["(toml)"], str(e)) from None
        except (OSError, UnicodeDecodeError) as e:
            raise SituationError(str(p), [], f"cannot read: {os_error_words(e)}") from None
        table = raw.get("ruling", raw)
        if "ruleset" not in table:
            continue
        opts = table.get("options", {})
        if not isinstance(opts, dict):
            raise SituationError(str(p), ["options"], "should be a table: ruleset id -> option values")
        return table["ruleset"], opts, str(p)
    return None


# ------------------------------------------------------------------ flags


def _split(text: str) -> list[str]:
    return [x.strip() for x in text.split(",")]


def _ints(flag: str, text: str, unknown_ok: bool = False) -> list[int | None]:
    out: list[int | None] = []
    for x in _split(text):
        if unknown_ok and x in ("", "-", "?"):
            out.append(None)
            continue
        try:
            out.append(int(x))
        except ValueError:
            raise SituationError("(flags)", [flag], f"{echo(x)} is not a whole number (write e.g. 41,50,10,1)") from None
    return out


PLAYERS_WORDS = "players are counted 1 to 4 (partners 1 and 3, 2 and 4)"


def player_seat(flag: str, value: object) -> int:
    """The seat (0..3, as situation files and records count) of the player a person typed (1..4)."""
    text = str(value).strip()
    if not text.lstrip("+-").isdigit():
        raise SituationError("(flags)", [flag], f"{echo(text)} is not a player: {PLAYERS_WORDS}")
    n = int(text)
    if not 1 <= n <= 4:
        raise SituationError("(flags)", [flag], f"there is no player {n}: {PLAYERS_WORDS}")
    return n - 1


def _seat_list(flag: str, text: str, example: str) -> tuple[int, list[str]]:
    """``PLAYER:A,B,C`` -> (seat, [A, B, C]), the player counted 1..4 and the seat 0..3."""
    player, sep, rest = text.partition(":")
    if not sep or not player.strip().lstrip("+-").isdigit():
        raise SituationError("(flags)", [flag], f"{echo(text)}: write PLAYER:ITEMS, e.g. {example} ({PLAYERS_WORDS})")
    return player_seat(flag, player), [x for x in _split(rest) if x]


def situation_from_flags(kind: str, f: Mapping[str, Any]) -> dict[str, Any]:
    """A raw situation from the values of the quick-input flags (``None`` = not given); see ``tarneeb ruling
    --help`` for each flag. The flags count players 1 to 4, as a person does (``--dealer 1`` is the first player);
    the situation they give counts seats 0 to 3, as files, records and the JSON do."""
    raw: dict[str, Any] = {"title": "from the command line", "question": {"kind": kind}}
    q = raw["question"]
    if f.get("seat") is not None:
        q["seat"] = player_seat("--seat", f["seat"])
    for key in ("card", "bid", "irregularity"):
        if f.get(key) is not None:
            q[key] = f[key]
    if f.get("dealer") is not None:
        raw["dealer"] = player_seat("--dealer", f["dealer"])
    for key, flag in (("scores", "--scores"), ("scores_after", "--scores-after")):
        if f.get(key):
            vals = _ints(flag, f[key], unknown_ok=True)
            if None in vals:
                raw[key] = {str(i): v for i, v in enumerate(vals) if v is not None}
                if key == "scores_after":
                    raise SituationError("(flags)", [flag], "give all four scores after the hand")
            else:
                raw[key] = vals
    for key, flag in (("bids", "--bids"), ("tricks", "--tricks")):
        if f.get(key):
            vals = _ints(flag, f[key], unknown_ok=True)
            if len(vals) != 4:
                raise SituationError("(flags)", [flag], "give four values, players 1 to 4 in order, '-' for unknown "
                                                        "(e.g. 3,-,-,4)")
            raw[key] = {str(i): v for i, v in enumerate(vals) if v is not None}
    if f.get("contract"):
        parts = f["contract"].split(":")
        if len(parts) not in (2, 3) or not all(p.strip().lstrip("-").isdigit() for p in parts[:2]):
            raise SituationError("(flags)", ["--contract"], f"{echo(f['contract'])}: write PLAYER:BID or PLAYER:BID:TRUMP, "
                                                            f"e.g. 2:8:S ({PLAYERS_WORDS})")
        raw["contract"] = {"seat": player_seat("--contract", parts[0]), "bid": int(parts[1])}
        if len(parts) == 3:
            raw["contract"]["trump"] = parts[2]
    if f.get("auction") is not None:
        raw["auction"] = [x for x in _split(f["auction"]) if x]
    for key in ("trump", "revealed", "result"):
        if f.get(key):
            raw["hand" if key == "result" else key] = f[key]
    if f.get("hand_cards"):
        raw["hands"] = {}
        for item in f["hand_cards"]:
            seat, cards = _seat_list("--hand-cards", item, "3:3C,5S,7H")
            raw["hands"][str(seat)] = cards
    if f.get("void"):
        raw["voids"] = {}
        for item in f["void"]:
            seat, suits = _seat_list("--void", item, "3:D")
            raw["voids"].setdefault(str(seat), []).extend(suits)
    if f.get("trick") is not None:
        leader, cards = _seat_list("--trick", f["trick"], "2:KD,2D")
        raw["trick"] = {"leader": leader, "cards": cards}
        if f.get("led"):
            raw["trick"]["led"] = f["led"]
    elif f.get("led"):
        raise SituationError("(flags)", ["--led"], "give the trick's leader too: --trick LEADER: --led D")
    if f.get("history"):
        raw["history"] = []
        for item in f["history"]:
            leader, cards = _seat_list("--history", item, "1:2H,KH,3H,4S")
            raw["history"].append({"leader": leader, "cards": cards})
    if f.get("deals"):
        raw["deals"] = [{"hand": x} for x in _split(f["deals"])]
    return raw


# ------------------------------------------------------------------ records


def situation_from_record(path: str, match: str | None, hand: int, kind: str | None = None) -> dict[str, Any]:
    """Hand ``hand`` of match ``match`` (the only match when None) of a record file as a raw situation: the
    dealer, the scores before the hand, the turned card and trump, the bids or the auction and contract, every
    trick with its leader, the tricks taken, and the scores after; the question defaults to the hand's score
    (``redeal`` for a hand thrown in). ``hand`` counts from 1, as verify's and the web referee's human output do:
    hand N is the line whose ``hand`` field is N - 1."""
    headers: dict[str, MatchHeader] = {}
    lines: dict[str, list[HandLine]] = {}
    try:
        for it in read_records(path):
            if isinstance(it, MatchHeader):
                headers[it.match] = it
                lines.setdefault(it.match, [])
            elif isinstance(it, HandLine):
                lines.setdefault(it.match or "", []).append(it)
            elif isinstance(it, RecordProblem) and it.severity == "error" and (match is None or it.match == match):
                raise SituationError(path, [f"line {it.line}", it.field], it.message)
    except OSError as e:
        raise SituationError(path, [], f"cannot read: {os_error_words(e)}") from None
    if match is None:
        if len(headers) != 1:
            raise SituationError(path, ["--match"], f"the file holds {len(headers)} matches; name one: "
                                                    + ", ".join(list(headers)[:10]))
        match = next(iter(headers))
    if match not in headers:
        raise SituationError(path, ["--match"], f"no match {echo(match)}; valid: {', '.join(list(headers)[:10])}")
    head = headers[match]
    hands = lines.get(match, [])
    field = hand - 1  # the record's own hand field counts from 0
    pick = [h for h in hands if h.hand == field]
    if not pick:
        have = sorted(h.hand + 1 for h in hands if h.hand is not None)
        raise SituationError(path, ["--hand"], f"match {match} has no hand {hand}; hands: {have[0]}..{have[-1]} "
                             "(counted from 1)" if have else f"match {match} has no hand lines")
    h = pick[0]
    where = f"{path}:{h.line}"
    earlier = [x for x in hands if x.hand is not None and x.hand < field and x.scores is not None]
    before = earlier[-1].scores if earlier else head.start_scores
    raw: dict[str, Any] = {"title": f"match {match}, hand {hand} ({where})"}
    if head.ruleset is not None:
        raw["ruleset"] = [{"id": head.ruleset, "options": dict(head.options)}] if head.options else head.ruleset
    if h.dealer is not None:
        raw["dealer"] = h.dealer
    raw["scores"] = list(before) if before is not None else [0, 0, 0, 0]
    if h.scores is not None:
        raw["scores_after"] = list(h.scores)
    revealed = h.revealed if h.revealed is not None and h.revealed >= 0 else (
        core_rules.revealed_card(h.deck) if h.deck is not None and len(h.deck) == 52 else None)
    if revealed is not None:
        raw["revealed"] = card_str(revealed)
    if h.trump is not None and h.trump >= 0:
        raw["trump"] = STRAINS[h.trump]
    individual = h.contract is None and not h.no_contract and h.bids is not None and all(
        b.strain is None and b.n is not None for _, b in h.bids) and len(h.bids) == 4
    if h.bids is not None:
        if individual:
            raw["bids"] = {str(seat): b.n for seat, b in h.bids if seat is not None}
        else:
            raw["auction"] = [bid_text(b) for _, b in h.bids]
    if h.contract is not None:
        seat, b = h.contract
        raw["contract"] = {"seat": seat, "bid": b.n}
        if h.trump is not None and h.trump >= 0:
            raw["contract"]["trump"] = STRAINS[h.trump]
        raw.pop("trump", None)
    if h.tricks:
        done = [t for t in h.tricks if len(t.cards) == 4 and t.leader is not None]
        raw["history"] = [{"leader": t.leader, "cards": [card_str(c) for c in t.cards]} for t in done]
    if h.tricks_won is not None:
        raw["tricks"] = list(h.tricks_won)
    cancelled = h.redeal not in (None, "")
    raw["question"] = {"kind": kind or ("redeal" if cancelled else "score")}
    return raw


def with_rulesets(raw: dict[str, Any], rulesets: str | Sequence[Any] | None,
                  options: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """``raw`` with the rulesets to ask set (``None`` keeps the situation's own, else the club default, else
    ``"all"``) and ``options`` (ruleset id -> option values) added."""
    out = dict(raw)
    if rulesets is not None:
        out["ruleset"] = rulesets if isinstance(rulesets, str) else list(rulesets)
    elif "ruleset" not in out:
        d = club_default()
        if d is not None:
            out["ruleset"], extra = d[0], d[1]
            out["options"] = {**extra, **out.get("options", {})}
        else:
            out["ruleset"] = "all"
    if options:
        merged = dict(out.get("options", {}))
        for rid, o in options.items():
            merged[rid] = {**merged.get(rid, {}), **o}
        out["options"] = merged
    return out


__all__ = ["CONFIG_NAME", "ENV", "PLAYERS_WORDS", "club_default", "player_seat", "situation_from_flags",
           "situation_from_record", "with_rulesets"]
