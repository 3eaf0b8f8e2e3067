"""The one catalogue of engine mutants: realistic bugs written as edits of the engine's source.

A :class:`Mutant` is one edit of one module of the engine (``old`` -> ``new``, ``old`` occurring exactly once in
the module's source): a special case at one value, card, seat or trick, a boundary slip, a wrong transition, a
slip in a tool that checks other engines. Two ways to run one:

* :func:`applied` patches it into the running process: the module's edited source is compiled and executed as a
  fresh module, and its functions (and the methods of its classes) replace the live ones, on the module itself
  and wherever another loaded module of ``tarneeb`` holds the same function under a name; restored on exit.
  ``tarneeb prove``'s mutant checks and the tests use this.
* :func:`patched_tree` writes a copy of a source tree with the edit made in the file itself, so that the real
  ``tarneeb prove`` can be run on it in a fresh process (``tools/prove_mutants.py``, the published figures).

``stage`` names what must catch the mutant: a prove family and stage, e.g. ``engine.play``; or bounded tests,
``test.match`` (the steered matches of the match machine, ``tests/test_match_steered_mutants.py``) and
``test.tools`` (the tools on recorded matches, ``tests/test_tools_mutants.py``), which ``tarneeb prove`` does not
run; ``ruleset`` and ``options`` where the bug shows; ``in_manifest``: also a mutant check of ``tarneeb prove`` in
"all" rulesets, every ruleset of its "kind" (individual or auction family), its "own" ruleset only, or "" (run by
the tests and ``tools/prove_mutants.py`` only); it means nothing for a ``test.*`` stage, which prove does not run.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import shutil
import sys
import tomllib
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.core.spec import OptionValue


@dataclass(frozen=True)
class Mutant:
    id: str
    module: str  # e.g. "tarneeb.core.rules"
    old: str  # exact text, occurring once in the module's source
    new: str
    text: str  # the bug in words
    stage: str  # the prove family[.stage] that must catch it
    kind: str  # special-case | boundary | transition | tool
    ruleset: str  # a ruleset where the bug shows
    options: dict[str, OptionValue] = field(default_factory=dict)
    in_manifest: str = ""  # "all" | "kind" | "own" | ""
    readings: dict[str, str] = field(default_factory=dict)  # readings of the register under which the bug shows
    held_out: bool = False  # of the held-out set (held_out.toml): run only through the whole real prove

    @property
    def fn(self) -> str:
        """The function (or Class.method) the edit is in."""
        return function_at(self)


class MutantError(ValueError):
    """A mutant whose ``old`` text does not occur exactly once in its module (the catalogue is stale)."""


def source_of(module: str) -> str:
    mod = importlib.import_module(module)
    return inspect.getsource(mod)


def mutated_source(m: Mutant) -> str:
    src = source_of(m.module)
    n = src.count(m.old)
    if n != 1:
        raise MutantError(f"mutant {m.id}: the text to replace occurs {n} times in {m.module}, not once")
    return src.replace(m.old, m.new)


def function_at(m: Mutant) -> str:
    """The def around the edit that the module exposes (``Class.method`` or ``function``; a function nested in
    another is named by the outer one), read from the module's source."""
    src = source_of(m.module)
    line = src[:src.index(m.old)].count("\n") + 1
    best = ""

    def walk(node: ast.AST, prefix: str) -> None:
        nonlocal best
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                end = ch.end_lineno or ch.lineno
                if ch.lineno <= line <= end:
                    name = prefix + ch.name
                    if isinstance(ch, ast.ClassDef):
                        walk(ch, name + ".")
                    else:
                        best = name

    walk(ast.parse(src), "")
    return best or "<module>"


@contextmanager
def applied(mutant: str | Mutant | None) -> Iterator[None]:
    """The engine with ``mutant`` (an id of :data:`MUTANTS` or a :class:`Mutant`) patched in; nothing when None."""
    if mutant is None:
        yield
        return
    m = MUTANTS[mutant] if isinstance(mutant, str) else mutant
    live = importlib.import_module(m.module)
    fresh = types.ModuleType(m.module)
    fresh.__dict__.update({"__file__": live.__file__, "__package__": live.__package__, "__name__": m.module})
    code = compile(mutated_source(m), f"<mutant {m.id} of {live.__file__}>", "exec")
    exec(code, fresh.__dict__)  # noqa: S102 - the engine's own source, one edit made
    undo: list[tuple[Any, str, Any]] = []
    todo: list[tuple[Any, str, Any]] = []  # (object, attribute, the edited module's value)
    swaps: dict[int, Any] = {}  # id(old function) -> new function
    for name, new in list(fresh.__dict__.items()):
        old = live.__dict__.get(name)
        if isinstance(new, types.FunctionType) and new.__module__ == m.module and isinstance(old, types.FunctionType):
            new = _in_module(new, live)
            undo.append((live, name, old))
            todo.append((live, name, new))
            swaps[id(old)] = new
        elif isinstance(new, type) and isinstance(old, type) and new.__module__ == m.module:
            for attr, value in vars(new).items():
                if isinstance(value, (types.FunctionType, property, classmethod, staticmethod)):
                    undo.append((old, attr, vars(old).get(attr)))
                    todo.append((old, attr, _in_module(value, live)))
            fresh.__dict__[name] = old  # the edited functions use the live class (with the edited methods)
        elif isinstance(new, enum.Enum) and isinstance(old, enum.Enum) and new.name == old.name:
            fresh.__dict__[name] = old  # a module constant naming an enum member (``_PLAY = Phase.PLAY``)
    try:
        for obj, name, value in todo:
            setattr(obj, name, value)
        # a module that took the function by name at import (``from tarneeb.core.rules import bid_key``) gets it too
        for modname, mod in list(sys.modules.items()):
            if mod is None or mod is live or not (modname == "tarneeb" or modname.startswith("tarneeb.")):
                continue
            for name, value in list(vars(mod).items()):
                if isinstance(value, types.FunctionType) and id(value) in swaps:
                    undo.append((mod, name, value))
                    setattr(mod, name, swaps[id(value)])
        yield
    finally:
        for obj, name, old_value in reversed(undo):
            if old_value is None:
                delattr(obj, name)
            else:
                setattr(obj, name, old_value)


def _in_module(obj: Any, live: types.ModuleType) -> Any:
    """An edited function (or a method's function, wrapped as it was) that looks its names up in the live module,
    as the function it replaces does: a name the proofs stand in there (a summary) or another mutant's edit is seen
    by the edited code too."""
    if isinstance(obj, types.FunctionType):
        f = types.FunctionType(obj.__code__, live.__dict__, obj.__name__, obj.__defaults__, obj.__closure__)
        f.__kwdefaults__, f.__qualname__, f.__doc__ = obj.__kwdefaults__, obj.__qualname__, obj.__doc__
        f.__module__ = obj.__module__
        f.__dict__.update(obj.__dict__)
        return f
    if isinstance(obj, (classmethod, staticmethod)):
        return type(obj)(_in_module(obj.__func__, live))
    if isinstance(obj, property):
        fget, fset, fdel = (None if x is None else _in_module(x, live) for x in (obj.fget, obj.fset, obj.fdel))
        return property(fget, fset, fdel, obj.__doc__)
    return obj


def patched_tree(m: Mutant, src_root: Path, dest: Path) -> Path:
    """A copy of the source tree ``src_root`` (model/, proofs/, spec/) at ``dest`` with ``m``'s edit made in its file."""
    for part in ("model", "proofs", "spec"):
        shutil.copytree(src_root / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    rel = Path("model", *m.module.split(".")).with_suffix(".py")
    path = dest / rel
    text = path.read_text(encoding="utf-8")
    if text.count(m.old) != 1:
        raise MutantError(f"mutant {m.id}: the text to replace occurs {text.count(m.old)} times in {rel}, not once")
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")
    return dest


def _m(id: str, module: str, old: str, new: str, text: str, stage: str, kind: str, ruleset: str,
       options: dict[str, OptionValue] | None = None, in_manifest: str = "",
       readings: dict[str, str] | None = None) -> Mutant:
    return Mutant(id, module, old, new, text, stage, kind, ruleset, dict(options or {}), in_manifest,
                  readings=dict(readings or {}))


RULES = "tarneeb.core.rules"
HAND = "tarneeb.core.hand"
MATCH = "tarneeb.core.match"
TRANSITION = "tarneeb.core.transition"

# ------------------------------------------------------------------ the catalogue
_ALL: list[Mutant] = [
    _m("rules-lone-led-card-need-not-follow", RULES,
       "    follow = hand & SUIT_MASKS[led]\n    if follow:\n",
       "    follow = hand & SUIT_MASKS[led]\n    if follow and follow & (follow - 1):\n",
       "a player holding a single card of the led suit need not follow with it", "engine.play", "special-case",
       "classic"),
]

# ------------------------------------------------------------------ the rule functions (tarneeb.core.rules)
# The engine family's mutants (formerly function replacements in bridge_mutants.py, same ids: the manifest's check
# ids carry them) and the differential tests' boundary bugs (formerly tests/engine_mutants.py; where one was the
# same bug as an engine mutant, that entry serves both), each now a few-line edit of the function it breaks.
_R_W4 = """        c0, c1, c2, c3 = cards
        best, best_card, best_suit = 0, c0, c0 // 13
        s = c1 // 13
        if s == best_suit:
            if c1 > best_card:
                best, best_card = 1, c1
        elif s == trump:
            best, best_card, best_suit = 1, c1, s
        s = c2 // 13
        if s == best_suit:
            if c2 > best_card:
                best, best_card = 2, c2
        elif s == trump:
            best, best_card, best_suit = 2, c2, s
        s = c3 // 13
        if (s == best_suit and c3 > best_card) or (s != best_suit and s == trump):
            best = 3
"""  # trick_winner's unrolled four-card path, the one the engine, the verifier and the prove stages call
_R_W4_NO_TRUMP = """        c0, c1, c2, c3 = cards
        best, best_card, best_suit = 0, c0, c0 // 13
        s = c1 // 13
        if s == best_suit:
            if c1 > best_card:
                best, best_card = 1, c1
        s = c2 // 13
        if s == best_suit:
            if c2 > best_card:
                best, best_card = 2, c2
        s = c3 // 13
        if s == best_suit and c3 > best_card:
            best = 3
"""
_R_FOLLOW = "    if follow:\n        return follow\n"
_R_PRIVILEGE = '        dealer_privilege = seat == dealer and rules.auction_style == "dealer-privilege"\n'
_R_NEXT = "    return (seat + rules.step) % 4\n"
_R_REDEAL = "    return dealer if rules.redeal_same_dealer else next_seat(rules, dealer)\n"
_R_REDEAL_SWAPPED = "    return next_seat(rules, dealer) if rules.redeal_same_dealer else dealer\n"
_R_RAISED = ("    if rules.play_on_raise > 0 and games_won >= 1:\n        if rules.play_on_count == \"repeated\":\n"
             "            return rules.target + rules.play_on_raise * games_won\n        return rules.target + rules.play_on_raise\n")
_R_C = "classic"

_RULES: list[Mutant] = [
    # ---- play
    _m("engine-trick-winner-ignores-trump", RULES, _R_W4, _R_W4_NO_TRUMP,
       "the four-card path of trick_winner leaves out the trump tests: a trump never beats the led suit",
       "engine.play", "special-case", "bsfyi-41", {}, "all"),
    _m("engine-trick-winner-no-overtrump", RULES, _R_W4, _R_W4.replace(
        "            if c1 > best_card:", "            if c1 > best_card and best_suit != trump:").replace(
        "            if c2 > best_card:", "            if c2 > best_card and best_suit != trump:").replace(
        "(s == best_suit and c3 > best_card)", "(s == best_suit and c3 > best_card and s != trump)"),
       "a higher trump does not overtrump: once a trump is best (or trump was led) no later card beats it",
       "engine.play", "special-case", _R_C),
    _m("engine-trick-winner-highest-rank", RULES, _R_W4, _R_W4.replace(
        "        if s == best_suit:\n            if c1 > best_card:",
        "        if s == best_suit or (s != trump and best_suit != trump):\n            if c1 % 13 > best_card % 13:").replace(
        "        if s == best_suit:\n            if c2 > best_card:",
        "        if s == best_suit or (s != trump and best_suit != trump):\n            if c2 % 13 > best_card % 13:").replace(
        "(s == best_suit and c3 > best_card)",
        "((s == best_suit or (s != trump and best_suit != trump)) and c3 % 13 > best_card % 13)"),
       "cards compare by rank across suits: the highest rank wins the trick whatever its suit (trumps aside)",
       "engine.play", "special-case", "eram-41"),
    _m("engine-follow-not-enforced", RULES, "    if led < 0:\n        return hand\n    follow",
       "    if led < 4:\n        return hand\n    follow",
       "'nothing led yet' is tested against 4 (the no-trump value), not 0: every card of the hand is legal",
       "engine.play", "boundary", _R_C),
    _m("engine-must-trump-ignored", RULES, "        trumps = hand & SUIT_MASKS[trump]\n",
       "        trumps = hand & SUIT_MASKS[led]\n",
       "the must-trump test reads the led suit's mask (the player is void in it): a void player may discard "
       "holding a trump", "engine.play", "special-case", _R_C, {"must_trump": True}, "own"),
    _m("engine-must-trump-over-follow", RULES, _R_FOLLOW,
       "    if follow:\n        return follow | (hand & SUIT_MASKS[trump] if rules.must_trump and 0 <= trump < 4 else 0)\n",
       "under must-trump a trump may be played while holding the led suit", "engine.play", "special-case", _R_C,
       {"must_trump": True}),
    _m("engine-violation-void-free", RULES,
       "    if legal_play_mask(rules, hand, led, trump) >> card & 1:\n",
       "    if legal_play_mask(rules, hand, led, trump) >> card & 1 or not hand & SUIT_MASKS[led]:\n",
       "play_violation never refuses a held card from a player void in the led suit (must-trump not enforced "
       "there)", "engine.play", "special-case", _R_C, {"must_trump": True}),
    _m("engine-violation-lead-any-card", RULES,
       "    if type(card) is not int or not 0 <= card < 52 or not hand >> card & 1:\n",
       "    if led < 0:\n        return None  # any card may be led\n"
       "    if type(card) is not int or not 0 <= card < 52 or not hand >> card & 1:\n",
       "a lead is accepted before the card is looked up in the hand: a leader may lead a card not held",
       "engine.play", "special-case", "card-kings-41"),
    _m("engine-reveal-suit", RULES, "        return SAME_COLOUR[suit]\n", "        return suit\n",
       "under revealed-same-colour the revealed card's own suit is trump", "engine.play", "special-case",
       "card-kings-41", {}, "own"),
    _m("engine-weak-counts-ten", RULES,
       "    return mask & _HIGH_CARDS == 0\n\n\n_HIGH_CARDS = sum(0b1111000000000 << (13 * s) for s in range(4))",
       "    return mask & _HIGH_CARDS == 0\n\n\n_HIGH_CARDS = sum(0b1111100000000 << (13 * s) for s in range(4))",
       "is_weak_hand's table of high cards starts at the 10: a hand whose best card is a 10 is not weak",
       "engine.play", "boundary", _R_C, {}, "own"),
    _m("engine-weak-ignores-aces", RULES,
       "    return mask & _HIGH_CARDS == 0\n\n\n_HIGH_CARDS = sum(0b1111000000000 << (13 * s) for s in range(4))",
       "    return mask & _HIGH_CARDS == 0\n\n\n_HIGH_CARDS = sum(0b0111000000000 << (13 * s) for s in range(4))",
       "is_weak_hand's table of high cards leaves out the aces: a hand whose only high cards are aces is weak",
       "engine.play", "special-case", _R_C),
    _m("engine-lower-trump-overtakes-last", RULES,
       "        if (s == best_suit and c3 > best_card) or (s != best_suit and s == trump):\n",
       "        if (s == best_suit and c3 > best_card) or s == trump:\n",
       "a trump played fourth always wins: a later lower trump beats an earlier higher one",
       "engine.play", "special-case", "bsfyi-41"),
    # ---- individual bids
    _m("engine-next-seat-backwards", RULES, _R_NEXT, "    return (seat - rules.step) % 4\n",
       "the turn passes the wrong way", "engine.bids", "transition", "tarneeb-400"),
    _m("engine-rising-min-strict", RULES, "            if score >= threshold:\n",
       "            if score > threshold:\n",
       "the rising minimum applies above its threshold, not at it ('>' for '>=')", "engine.bids", "boundary",
       "tarneeb-400", {}, "own"),
    _m("engine-bid-below-min", RULES,
       "    if type(bid) is not int or not rules.bid_min <= bid <= rules.bid_max:  # a whole number of tricks in the range\n"
       "        return \"bid.range\", f\"bids run from {rules.bid_min} to {rules.bid_max}\"\n"
       "    if bid in rules.bid_excluded:\n"
       "        return \"bid.excluded\", f\"a bid of {bid} is not allowed\"\n"
       "    lo = min_bid_for(rules, score)\n"
       "    if bid < lo:\n",
       "    if type(bid) is not int or not rules.bid_min - 1 <= bid <= rules.bid_max:  # a whole number of tricks in the range\n"
       "        return \"bid.range\", f\"bids run from {rules.bid_min} to {rules.bid_max}\"\n"
       "    if bid in rules.bid_excluded:\n"
       "        return \"bid.excluded\", f\"a bid of {bid} is not allowed\"\n"
       "    lo = min_bid_for(rules, score)\n"
       "    if bid < lo - 1:\n",
       "bid_violation's lower bounds (the range's and the rising minimum's) are one too low: a bid one below the "
       "minimum is accepted", "engine.bids",
       "boundary", "eram-41", {}, "kind"),
    _m("engine-bid-pass-allowed", RULES, "        return \"bid.no-pass\", \"passing is not allowed\"\n",
       "        return None  # a pass\n", "a pass is accepted where the rules allow none", "engine.bids",
       "special-case", "bsfyi-41"),
    _m("engine-legal-bids-no-13", RULES, "    return [b for b in range(lo, rules.bid_max + 1) if b not in rules.bid_excluded]\n",
       "    return [b for b in range(lo, rules.bid_max) if b not in rules.bid_excluded]\n",
       "the range of legal bids stops one short: 13 is missing", "engine.bids", "boundary", "eram-41"),
    _m("engine-legal-bids-excluded", RULES,
       "    return [b for b in range(lo, rules.bid_max + 1) if b not in rules.bid_excluded]\n",
       "    return list(range(lo, rules.bid_max + 1))\n", "the excluded bid is listed among the legal bids",
       "engine.bids", "special-case", "card-kings-41", {}, "own"),
    _m("engine-hand-played-strict", RULES, "    return total >= threshold\n",
       "    return total > threshold\n",
       "the bids must exceed the threshold total, not reach it ('>' for '>=')", "engine.bids", "boundary",
       "bsfyi-41"),
    _m("engine-hand-played-three-bids", RULES, "    return sum(bids), total_in_force(rules, scores)\n",
       "    return sum(bids[:3]), total_in_force(rules, scores)\n", "the fourth bid is left out of the total", "engine.bids",
       "special-case", "eram-41"),
    _m("engine-redeal-dealer-swapped", RULES, _R_REDEAL, _R_REDEAL_SWAPPED,
       "after a cancelled deal the same and the next dealer are swapped", "engine.bids", "transition",
       "card-kings-41"),
    # ---- the team auction
    _m("engine-redeal-dealer-swapped-auction", RULES, _R_REDEAL, _R_REDEAL_SWAPPED,
       "after a cancelled deal the same and the next dealer are swapped", "engine.turn", "transition", _R_C),
    _m("engine-anyone-may-match", RULES, _R_PRIVILEGE, '        dealer_privilege = rules.auction_style == "dealer-privilege"\n',
       "the dealer's privilege is given to every seat: any seat may match the top bid", "engine.auction",
       "special-case", _R_C, {}, "own"),
    _m("engine-dealer-may-pass-forced", RULES,
       "    if n is None:\n        if dealer_forced(rules, dealer, seat, top, passes):\n"
       "            return \"auction.all-pass\", \"the dealer must bid the minimum after three passes\"\n"
       "        return None\n",
       "    if n is None:\n        return None\n",
       "a pass is always accepted: under dealer-forced the dealer may pass after three passes",
       "engine.auction", "special-case", _R_C, {"all_pass": "dealer-forced"}),
    _m("engine-strain-before-tricks", RULES, "        k, tk = bid_key(n, strain), bid_key(*top)\n",
       "        k, tk = (strain, n), (top[1], top[0])\n",
       "bids compare strain first, then tricks: a higher strain beats more tricks", "engine.auction",
       "special-case", _R_C, {"egyptian": True}),
    _m("engine-auction-min-off-by-one", RULES, "    if type(n) is not int or not rules.min_bid <= n <= 13:",
       "    if type(n) is not int or not rules.min_bid - 1 <= n <= 13:",
       "the auction's range starts one below the minimum: an opening bid one below it is accepted",
       "engine.auction", "boundary", _R_C),
    _m("engine-dealer-may-not-match", RULES,
       "        if (k < tk or (k == tk and not dealer_privilege)) and not any_strain:\n",
       "        if k <= tk and not any_strain:\n", "the dealer may not take the top bid at the same number (no dealer's privilege)",
       "engine.auction", "special-case", _R_C),
    _m("engine-passed-may-reenter", RULES, "    while not active[nxt]:\n        nxt = next_seat(rules, nxt)\n", "",
       "the continuous auction does not skip the seats that passed: a seat that passed speaks again",
       "engine.turn", "transition", _R_C, {"auction": "continuous"}, "own"),
    _m("engine-round-of-five", RULES, "        return None if spoken >= 4 else next_seat(rules, seat)\n",
       "        return None if spoken >= 5 else next_seat(rules, seat)\n", "the one-round auction takes five calls",
       "engine.turn", "boundary", _R_C),
    _m("engine-next-seat-backwards-auction", RULES, _R_NEXT, "    return (seat - rules.step) % 4\n",
       "the turn passes the wrong way", "engine.turn", "transition", _R_C),
    _m("engine-continuous-ends-early", RULES,
       "    if (not has_top and n_active == 0) or (has_top and n_active == 1 and active[holder]):\n",
       "    if (not has_top and n_active == 0) or (has_top and n_active <= 2 and active[holder]):\n",
       "the continuous auction is over while one opponent of the holder is still in", "engine.turn", "boundary",
       _R_C, {"auction": "continuous"}),
    # ---- scoring
    _m("engine-extra-tricks-count", RULES, "    return v if bid_made(bid, tricks) else -v\n",
       "    return v + tricks - bid if bid_made(bid, tricks) else -v\n", "each trick above the bid scores one",
       "engine.scoring", "special-case", "bsfyi-41", {}, "kind"),
    _m("engine-failed-bid-scores", RULES, "    return v if bid_made(bid, tricks) else -v\n",
       "    return v if bid_made(bid, tricks) else v\n", "a failed bid earns its value (the minus sign lost)",
       "engine.scoring", "special-case", "eram-41"),
    _m("engine-made-exactly-fails", RULES, "    return v if bid_made(bid, tricks) else -v\n",
       "    return v if tricks > bid else -v\n", "a bid made exactly counts as failed ('>' for '>=')",
       "engine.scoring", "boundary", "eram-41"),
    _m("engine-kaboot-ignored", RULES,
       "    elif kaboot_bt:\n        d_bt = _kaboot(rules, d_bt)\n"
       "    if tricks[dt] == 13 and rules.score_style == \"standard\" and rules.defender_kaboot == \"either-team\" \\\n"
       "            and not (rules.kaboot == \"double\" and rules.kaboot_double_defenders == \"usual\"):\n"
       "        d_dt = _kaboot(rules, d_dt)\n", "",
       "team_deltas leaves out the kaboot rule: all 13 tricks score as usual", "engine.scoring", "special-case",
       _R_C, {}, "own"),
    _m("engine-defenders-score-on-made", RULES, "        d_dt = 0 if made else tricks[dt]\n",
       "        d_dt = tricks[dt]\n", "the defenders score their tricks on a made contract", "engine.scoring",
       "special-case", _R_C),
    _m("engine-deltas-team1-swapped", RULES, "    return (d_bt, d_dt) if bt == 0 else (d_dt, d_bt)\n",
       "    return (d_bt, d_dt) if bt == 0 or made else (d_dt, d_bt)\n",
       "team 1's made contract is credited to team 0", "engine.scoring", "special-case", _R_C),
    _m("engine-bid13-twelve", RULES, "    return rules.bid13 == \"win\" and contract == 13 and team_tricks == 13\n",
       "    return rules.bid13 == \"win\" and contract == 13 and team_tricks >= 12\n",
       "a bid of 13 wins the game with 12 tricks", "engine.scoring", "boundary", _R_C),
    # ---- outcome
    _m("engine-partner-at-zero", RULES, "    return a >= rules.target, b > 0, b >= rules.target, a > 0\n",
       "    return a >= rules.target, b >= 0, b >= rules.target, a >= 0\n",
       "a partner at exactly 0 qualifies ('>=' for '>')", "engine.outcome", "boundary", "eram-41", {}, "kind"),
    _m("engine-target-strict", RULES, "    return a >= rules.target, b > 0, b >= rules.target, a > 0\n",
       "    return a > rules.target, b > 0, b > rules.target, a > 0\n",
       "the target must be passed, not reached ('>' for '>=')", "engine.outcome", "boundary", "bsfyi-41"),
    _m("engine-tie-to-team-0", RULES,
       "        if a == b:\n            return None, \"tie.both-qualify\"\n"
       "        return (0 if a > b else 1), \"tie.both-qualify\"\n",
       "        return (0 if a >= b else 1), \"tie.both-qualify\"\n",
       "an exact tie of the keys goes to team 0", "engine.outcome", "special-case", "tarneeb-400", {}, "kind"),
    _m("engine-tie-always-combined", RULES,
       "    return max(scores[0], scores[2]), max(scores[1], scores[3])\n",
       "    return scores[0] + scores[2], scores[1] + scores[3]\n",
       "the tie is decided by the combined score under the top-score rule", "engine.outcome", "special-case",
       "bsfyi-41"),
    _m("engine-made-bid-unmade", RULES,
       "            if bids[seat] == rules.made_bid_wins and bid_made(bids[seat], tricks[seat]) and (",
       "            if bids[seat] == rules.made_bid_wins and (", "bidding the winning bid wins, made or not",
       "engine.outcome", "special-case", "bsfyi-41", {"made_bid_wins": 10}),
    _m("engine-tie-to-defenders", RULES, "        return bidding_team, \"tie.both-qualify\"\n",
       "        return 1 - bidding_team, \"tie.both-qualify\"\n",
       "both teams at the target: the defenders win", "engine.outcome", "special-case", _R_C, {}, "own"),
    _m("engine-auction-tie-to-team-0", RULES, "        return bidding_team, \"tie.both-qualify\"\n",
       "        return 0, \"tie.both-qualify\"\n",
       "both teams at the target: team 0 wins, not the bidders", "engine.outcome", "special-case", _R_C),
    _m("engine-auction-target-strict", RULES,
       "    return team_scores[0] >= target, team_scores[1] >= target\n",
       "    return team_scores[0] > target, team_scores[1] > target\n",
       "the target must be passed, not reached ('>' for '>=')", "engine.outcome", "boundary", _R_C),
    _m("engine-play-on-not-raised", RULES, _R_RAISED,
       "    if rules.play_on_raise > 0 and games_won >= 1:\n        return rules.target\n",  # under either reading
       "the target never rises: the raise is not added", "engine.outcome", "transition", _R_C, {"play_on": 10}),
    _m("engine-play-on-raised-twice", RULES, _R_RAISED,
       "    if rules.play_on_raise > 0 and games_won >= 1:\n        return rules.target + rules.play_on_raise * games_won\n",
       "the target rises again after every game (reading repeated of play-on-count, not the reading classic takes)",
       "engine.outcome", "transition", _R_C, {"play_on": 10}),
    _m("engine-play-on-late", RULES, _R_RAISED, _R_RAISED.replace("games_won >= 1", "games_won >= 2"),
       "the target rises only after the second game won", "engine.outcome", "boundary", _R_C, {"play_on": 10}),
    # ---- the engine under a reading of the register it can select (issue 23): each shows under that reading only
    _m("engine-first-dealers-ignore-seat0", RULES,
       '    return (0,) if rules.first_dealer == "seat0" else (0, 1, 2, 3)\n', "    return (0, 1, 2, 3)\n",
       "under reading seat0 of first-dealer any seat may still deal first", "engine.bids", "transition",
       "bsfyi-41", readings={"first-dealer": "seat0"}),
    _m("engine-forced-dealer-exact-off-by-one", RULES,
       'and rules.forced_bid == "exactly" and n != rules.min_bid:', 'and rules.forced_bid == "exactly" and n > rules.min_bid + 1:',
       "under reading exactly of forced-dealer-minimum the forced dealer may still bid one above the minimum",
       "engine.auction", "boundary", _R_C, {"all_pass": "dealer-forced"},
       readings={"forced-dealer-minimum": "exactly"}),
    _m("engine-dealer-match-reading-misspelt", RULES,
       'any_strain = rules.dealer_match == "same-number-any-strain" and',
       'any_strain = rules.dealer_match == "same-number" and',
       "the reading same-number-any-strain of egyptian-dealer-match is misspelt: the dealer matches the exact bid only",
       "engine.auction", "special-case", _R_C, {"egyptian": True, "auction": "dealer-privilege"},
       readings={"egyptian-dealer-match": "same-number-any-strain"}),
    _m("engine-made-bid-partner-unchecked", RULES,
       "(scores is not None and scores[partner(seat)] > 0)", "scores is not None",
       "under reading partner-positive of bid10-partner a made 10 wins whatever the partner's score",
       "engine.outcome", "special-case", "bsfyi-41", {"made_bid_wins": 10},
       readings={"bid10-partner": "partner-positive"}),
    _m("engine-play-on-repeated-one-behind", RULES,
       "            return rules.target + rules.play_on_raise * games_won\n",
       "            return rules.target + rules.play_on_raise * max(1, games_won - 1)\n",
       "under reading repeated of play-on-count the target rises only from the third game on (one raise behind)",
       "engine.outcome", "boundary", _R_C, {"play_on": 10}, readings={"play-on-count": "repeated"}),
    _m("engine-total-rising-ignores-seat-3", RULES,
       "                             or scores[3] >= threshold):",
       "                             or False):",
       "under reading rising of raised-total the fourth seat's score never raises the bid total",
       "engine.bids", "special-case", "bsfyi-41", readings={"raised-total": "rising"}),
    _m("engine-total-rising-above-threshold", RULES,
       "        if total > need and (scores[0] >= threshold or",
       "        if total > need and (scores[0] > threshold or",
       "under reading rising of raised-total the first seat raises the total only above a threshold, not at it",
       "engine.bids", "boundary", "bsfyi-41", readings={"raised-total": "rising"}),
    _m("engine-packets-go-round-backwards", RULES,
       "        for k in range(4):\n            places[k] += range(at, at + size)\n",
       "        for k in (0, 3, 2, 1):\n            places[k] += range(at, at + size)\n",
       "under reading in-packets of classic-deal-order the packets go round the table the other way after the first",
       "engine.play", "transition", "classic", readings={"classic-deal-order": "in-packets"}),
    _m("engine-deck-of-hands-singly-in-packets", RULES,
       "            deck[4 * i + k if places is None else places[k][i]] = c\n",
       "            deck[4 * i + k] = c\n",
       "under reading in-packets of classic-deal-order the deck made from four hands deals them one card at a time",
       "engine.play", "special-case", "classic", readings={"classic-deal-order": "in-packets"}),
    _m("engine-weak-claimers-in-seat-order", HAND,
       "    return tuple(s for s in bidding_order(rules, dealer) if s in weak)\n",
       "    return tuple(weak)\n",
       "under reading claimed of weak-hand the weak seats choose in seat order, not in bidding order",
       "engine.play", "special-case", "classic", {"weak_redeal": True}, readings={"weak-hand": "claimed"}),
    _m("match-first-weak-keep-starts-the-bidding", TRANSITION,
       "    rest = state.claimers[1:]\n",
       "    rest = ()\n",
       "under reading claimed of weak-hand the bidding starts once the first weak seat keeps its hand, though a "
       "second weak seat has not chosen", "test.match", "transition", "classic",
       readings={"weak-hand": "claimed"}),
    _m("match-bid-total-on-zero-scores", TRANSITION,
       "    if not core_rules.hand_is_played(rules, bids, table.scores):\n",
       "    if not core_rules.hand_is_played(rules, bids, (0, 0, 0, 0)):\n",
       "the match machine weighs the bid total as if every score were 0 (a rising total never rises)",
       "test.match", "transition", "bsfyi-41", readings={"raised-total": "rising"}),
    # ---- whole matches (the steered-match tests replay them through the encoded steps)
    _m("engine-match-winner-ignores-trump", RULES, _R_W4, _R_W4_NO_TRUMP,
       "the four-card path of trick_winner leaves out the trump tests (seen in whole matches)", "test.match",
       "special-case", "eram-41", {}, "all"),
    _m("engine-match-turn-backwards", RULES, _R_NEXT, "    return (seat - rules.step) % 4\n",
       "the deal and the bidding turn pass the wrong way (seen in whole matches)", "test.match", "transition",
       "card-kings-41"),
]
_ALL += _RULES

# ------------------------------------------------------------------ the match machine (stage test.match)
# Bugs of core/match.py and core/hand.py in transitions a random self-play match rarely or never reaches; the
# steered-match tests (tests/steered, tests/test_match_steered_mutants.py) steer into each of them.
_MATCH: list[Mutant] = [
    # the clause cited for a refused action (the engine's IllegalAction.rule, what verify and the referee name):
    # the rule functions' proofs compare legality; the steered matches compare the clause of every refusal
    _m("match-continuous-dealer-match-cites-raise", RULES,
       '                rule = "auction.continuous"\n',
       '                rule = "auction.raise"\n',
       "the dealer matching the top bid in a continuous auction is refused citing auction.raise, not the clause "
       "that takes away the dealer's right to match", "test.match", "special-case", "classic",
       {"auction": "continuous"}),
    _m("match-excluded-bid-cites-range", RULES,
       '        return "bid.excluded", f"a bid of {bid} is not allowed"\n',
       '        return "bid.range", f"a bid of {bid} is not allowed"\n',
       "the excluded bid is refused citing the range of bids, not the clause that excludes it", "test.match",
       "special-case", "card-kings-41"),
    # the turn timer (timer.auto-play, read as the ambiguity weakest-card's reading the option names)
    _m("match-timer-lowest-code", TRANSITION,
       "        return PLAYS[min(cards, key=lambda c: (c % 13, c // 13))]\n",
       "        return PLAYS[min(cards)]\n",
       "the turn timer plays the lowest card of the first suit held (clubs first), not the lowest rank",
       "test.match", "special-case", "eram-41"),
    _m("match-timer-non-trump-only-following", TRANSITION,
       '        if rules.auto_play == "lowest-non-trump":\n',
       '        if rules.auto_play == "lowest-non-trump" and state.trick:\n',
       "the turn timer prefers a card outside trump only when following, not at the lead", "test.match",
       "special-case", "eram-41"),
    # part-way starts (Match(), Match.at): the state a verifier, the vectors and the referee build a match from
    _m("match-start-team1-partners-unchecked", TRANSITION,
       "(at[0] != at[2] or at[1] != at[3])",
       "(at[0] != at[2])",
       "a start where team 1's partners carry different scores is accepted (team 0's are checked)",
       "test.match", "special-case", "classic"),
    _m("match-at-higher-target-accepted", TRANSITION,
       "    if target is not None and target != in_force:\n",
       "    if target is not None and target < in_force:\n",
       "Match.at accepts a target above the one in force for the games won", "test.match", "special-case",
       "classic", {"play_on": 10}),
    _m("match-first-dealer-four", TRANSITION,
       "    if first_dealer not in (core_rules.first_dealers(rules) if scores is None else range(4)):",
       "    if first_dealer not in (core_rules.first_dealers(rules) if scores is None else range(5)):",
       "a first dealer 4 (no seat) is accepted", "test.match", "special-case", "eram-41"),
    _m("match-deck-repeated-card-accepted", TRANSITION,
       "    if hands is None or hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:",
       "    if hands is None or not hands[0] | hands[1] | hands[2] | hands[3]:",
       "a deck of 52 cards with a card twice (one missing) is dealt", "test.match", "special-case",
       "card-kings-41"),
    _m("match-card-during-bidding-played", TRANSITION,
       "    if kind is Play and type(state) is Playing:\n",
       "    if kind is Play and type(state) in (Playing, Bidding):\n",
       "a card played during the bidding is taken as a play", "test.match", "transition", "bsfyi-41"),
    _m("match-over-cites-target", TRANSITION,
       '    rule = (state.rule if type(state) is Over else',
       '    rule = ("win.target" if type(state) is Over else',
       "an action after the match is over is refused citing win.target even when another clause (the made-bid "
       "win, a tie rule, qualifying) decided it", "test.match", "special-case", "bsfyi-41"),
    _m("match-play-on-ignored-at-61", HAND,
       "    nxt = core_rules.target_in_force(rules, len(games) + 1)\n    if nxt != target:\n",
       "    nxt = core_rules.target_in_force(rules, len(games) + 1)\n    if nxt != target and target != 61:\n",
       "play-on is ignored at target 61: the first game won there ends the match", "test.match", "special-case",
       "classic", {"target": 61, "play_on": 10}),
    _m("match-second-redeal-next-seat", TRANSITION,
       "    dealer = core_hand.next_dealer(rules, table.dealer, clause)\n",
       "    dealer = core_rules.next_seat(rules, table.dealer) if table.redeals else "
       "core_hand.next_dealer(rules, table.dealer, clause)\n",
       "from the second cancelled deal of a match on, the next seat deals (not the redeal.dealer rule)", "test.match",
       "transition", "card-kings-41"),
    _m("match-weak-redeal-same-dealer", HAND,
       '    if redeal == "bid.total":\n        return core_rules.dealer_after_redeal(rules, dealer)\n',
       '    if redeal == "bid.total":\n        return core_rules.dealer_after_redeal(rules, dealer)\n'
       '    if redeal == "deal.weak-redeal":\n        return dealer\n',
       "after a weak-hand redeal the same dealer deals again", "test.match", "transition", "classic",
       {"weak_redeal": True}),
    _m("match-bid13-holder-tricks-only", HAND,
       "core_rules.bid13_wins(rules, contract[1], core_rules.team_tricks(tricks_won)[bt])",
       "core_rules.bid13_wins(rules, contract[1], tricks_won[contract[0]])",
       "a bid of 13 wins on the spot only if the contract holder alone took the 13 tricks (the partner's are left out)",
       "test.match", "special-case", "classic"),
    _m("match-follow-drops-lowest", TRANSITION,
       "            return _PLAYS_OF_SUIT[led][mask >> _SHIFT[led]]\n",
       "            held = mask >> _SHIFT[led]\n            return _PLAYS_OF_SUIT[led][held & (held - 1) or held]\n",
       "legal_actions drops the lowest card when following suit (but a lone card)", "test.match", "special-case",
       "eram-41"),
    _m("match-fourth-bid-unchecked-at-total", TRANSITION,
       "    bad = core_rules.bid_violation(rules, table.scores[seat], bid.n, bid.strain)\n",
       "    exact = state.spoken == 3 and type(bid.n) is int and sum(state.bids) + bid.n == rules.total_min\n"
       "    bad = None if exact else core_rules.bid_violation(rules, table.scores[seat], bid.n, bid.strain)\n",
       "the fourth individual bid is not checked when it makes the total exactly the threshold", "test.match",
       "special-case", "bsfyi-41"),
    _m("match-leader-stale-from-trick-7", TRANSITION,
       "    after = Playing(start, hands, winner, winner, (), won)\n",
       "    lead = winner if sum(won) < 7 else state.leader\n    after = Playing(start, hands, lead, lead, (), won)\n",
       "from trick 7 on a trick's leader is the previous leader, not the winner", "test.match", "special-case",
       "tarneeb-400"),
    _m("match-weak-test-skips-seat-3", HAND,
       "    return [s for s in range(4) if core_rules.is_weak_hand(hands[s])]",
       "    return [s for s in range(3) if core_rules.is_weak_hand(hands[s])]",
       "the weak-hand test never looks at seat 3", "test.match", "special-case", "classic", {"weak_redeal": True}),
    _m("match-made-bid-never-passed", HAND,
       "        return core_rules.individual_outcome(rules, scores, bids, tricks_won)",
       "        return core_rules.individual_outcome(rules, scores)",
       "the hand's outcome is decided without the bids and tricks: the made-bid win never happens", "test.match",
       "transition", "bsfyi-41", {"made_bid_wins": 10}),
    _m("match-revealed-suit-unknown", HAND,
       '    if rules.trump_source.startswith("revealed"):',
       '    if rules.trump_source == "revealed-same-colour":',
       "only the same-colour rule reads the dealer's card: under revealed-suit the hand is played without trump",
       "test.match", "special-case", "bsfyi-41", {"trump_source": "revealed-suit"}),
    _m("match-contract-to-last-speaker", TRANSITION,
       "    contract = (a.holder, n, top.strain)\n",
       "    contract = (seat, n, top.strain)\n",
       "the contract goes to the last seat that spoke, not to the seat holding the top bid", "test.match",
       "transition", "classic"),
    _m("match-no-trump-as-clubs", TRANSITION,
       "Contracted(table, strain, _NO_BIDS, contract)",
       "Contracted(table, strain % 4, _NO_BIDS, contract)",
       "an Egyptian no-trump contract is played with clubs as trump", "test.match", "special-case", "classic",
       {"egyptian": True}),
    _m("match-lead-misses-ace-of-clubs", TRANSITION,
       "        return _P0[mask & 0x1FFF] + _P1",
       "        return _P0[mask & 0xFFF] + _P1",
       "legal_actions leaves out the ace of clubs when the player may play any suit", "test.match", "special-case",
       "card-kings-41"),
    _m("match-fourth-card-unchecked", TRANSITION,
       "        legal = (mask >> card) & 1\n",
       "        legal = (hand >> card) & 1 if len(trick) == 3 else (mask >> card) & 1\n",
       "the fourth player of a trick may play any card held (follow-suit not checked)", "test.match",
       "special-case", "classic", {"must_trump": True}),
    _m("match-at-ignores-target", TRANSITION,
       "    return Dealing(Table(dealer, (s0, s1, s2, s3), in_force, tuple(games)))\n",
       "    return Dealing(Table(dealer, (s0, s1, s2, s3), rules.target, tuple(games)))\n",
       "Match.at starts at the ruleset's target, not the target in force after the games given", "test.match",
       "transition", "classic", {"play_on": 10}),
    _m("match-play-on-resets-scores", TRANSITION,
       "        events = (*events, GameWon(win, settled.target))\n",
       "        events = (*events, GameWon(win, settled.target))\n        scores = (0, 0, 0, 0)\n",
       "the scores are reset after a game won before play-on (they carry over)", "test.match", "transition",
       "classic", {"play_on": 10}),
    _m("match-play-on-dealer-stays", TRANSITION,
       "    dealer = core_hand.next_dealer(rules, table.dealer, None)\n",
       "    dealer = core_hand.next_dealer(rules, table.dealer, None) if settled.game_won is None else table.dealer\n",
       "after a game won before play-on the same dealer deals again", "test.match", "transition", "classic",
       {"play_on": 10}),
    _m("match-bid13-scored-holder-only", HAND,
       "    d0, d1 = core_rules.team_deltas(rules, contract[1], core_rules.team_of(contract[0]), core_rules.team_tricks(tricks_won))",
       "    bt = core_rules.team_of(contract[0])\n"
       "    team = core_rules.team_tricks(tricks_won)\n"
       "    if contract[1] == 13:  # the holder's own tricks\n"
       "        own = tricks_won[contract[0]]\n"
       "        team = (own, 13 - own) if bt == 0 else (13 - own, own)\n"
       "    d0, d1 = core_rules.team_deltas(rules, contract[1], bt, team)",
       "a contract of 13 is scored on the holder's own tricks, not the team's", "test.match", "special-case",
       "classic", {"bid13": "26"}),
    _m("match-bids-of-dealer-score", TRANSITION,
       "        return legal_bids(rules, state.table.scores[state.to_move])\n",
       "        return legal_bids(rules, state.table.scores[state.table.dealer])\n",
       "legal_actions offers the bids allowed at the dealer's score, not the bidder's (rising minimum)",
       "test.match", "special-case", "tarneeb-400"),
    _m("match-target-rises-every-game", HAND,
       "    nxt = core_rules.target_in_force(rules, len(games) + 1)\n",
       "    nxt = target + rules.play_on_raise\n",
       "the target rises after every game won (play on once)", "test.match", "transition", "classic",
       {"play_on": 10}),
    _m("match-third-deal-played-anyway", TRANSITION,
       "    if not core_rules.hand_is_played(rules, bids, table.scores):\n",
       "    if not core_rules.hand_is_played(rules, bids, table.scores) and table.redeals < 2:\n",
       "after two cancelled deals in a match the next ones are played whatever the bid total", "test.match", "transition",
       "eram-41"),
    _m("match-pass-keeps-seat-in", HAND,
       "        a.passes += 1\n        a.active[seat] = False\n",
       "        a.passes += 1\n        if a.top is None:\n            a.active[seat] = False\n",
       "in the continuous auction a pass after a bid does not take the seat out", "test.match", "transition",
       "classic", {"auction": "continuous"}),
    _m("match-two-weak-hands-played", TRANSITION,
       "    if weak:\n",
       "    if len(weak) == 1:\n",
       "a deal with two weak hands is played (only one weak hand cancels it)", "test.match", "special-case",
       "classic", {"weak_redeal": True}),
    _m("match-call-table-without-dealer", TRANSITION,
       "    key = (dealer, state.to_move, state.top, state.passes)\n",
       "    key = (state.to_move, state.top, state.passes)\n",
       "the table of legal calls is kept without the dealer: a call allowed to the dealer is offered to others",
       "test.match", "transition", "classic"),
    _m("match-random-deck-53", MATCH,
       "    deck = list(range(52))\n",
       "    deck = list(range(53))\n",
       "the shuffled deck of a simulation or fuzz run holds a 53rd card (every seeded match fails to deal)",
       "test.match", "boundary", "card-kings-41"),
    _m("match-random-deck-51", MATCH,
       "    deck = list(range(52))\n",
       "    deck = list(range(51))\n",
       "the shuffled deck leaves out the ace of spades", "test.match", "boundary", "eram-41"),
    _m("match-deal-53-cards-accepted", TRANSITION,
       "if len(deck) == 52 else None",
       "if len(deck) >= 52 else None",
       "a deal of 53 cards is accepted when its first 52 are the pack: one seat is given a 14th card",
       "test.match", "boundary", "bsfyi-41"),
    _m("match-copy-partners-must-agree", MATCH,
       "self.start_games, partners_agree=False)",
       "self.start_games, partners_agree=True)",
       "a copy of a match a verifier started from a record's differing partners' scores is refused",
       "test.match", "transition", "classic"),
]
_ALL += _MATCH

FAST = "tarneeb.records.fastpath"
REPLAY = "tarneeb.records.replay"
VREF = "tarneeb.conformance.vector_ref"
RULING_FACTS = "tarneeb.ruling.facts"
RULING_SCORING = "tarneeb.ruling.scoring"

# ------------------------------------------------------------------ the tools (stage test.tools: tests/toolcheck,
# tests/test_tools_mutants.py; "ruling": the referee restating a rule core decides, caught by
# tests/test_no_rule_outside_core.py when core changes)
_TOOLS: list[Mutant] = [
    _m("fast-second-cancel-next-seat", FAST,
       "        st.table = now.table\n",
       "        st.table = now.table if st.last_redeal is None "
       "else __import__(\"dataclasses\").replace(now.table, dealer=core_rules.next_seat(self.rules, dealer))\n",
       "after the second cancelled deal in a row the fast path expects the next seat to deal", "test.tools", "tool",
       "card-kings-41", in_manifest="own"),
    _m("fast-trick-led-by-previous-leader", FAST,
       "            for t, taken in zip(tricks, ev[4:65:5], strict=True):\n"
       "                trick = taken.trick  # type: ignore[union-attr]\n",
       "            prev = state.leader\n            for t, taken in zip(tricks, ev[4:65:5], strict=True):\n"
       "                trick = taken.trick  # type: ignore[union-attr]\n"
       "                if t.get(\"leader\") == prev != trick.leader:  # the leader written before the winner was known\n"
       "                    t = {**t, \"leader\": trick.leader}\n                prev = trick.leader\n",
       "the fast path accepts a trick led by the previous trick's leader", "test.tools", "tool", "bsfyi-41"),
    _m("fast-running-scores-unchecked", FAST,
       "                and _ints_are(obj.get(\"scores\"), list(scored.scores))):",
       "                and type(obj.get(\"scores\")) is list):",
       "the fast path checks a played deal's score changes but not the running scores", "test.tools", "tool",
       "eram-41", in_manifest="own"),
    _m("fast-revealed-card-unchecked", FAST,
       "    elif obj.get(\"revealed\") != _CARD_TEXT[revealed]:",
       "    elif \"revealed\" not in obj:",
       "the fast path takes any revealed card the line names", "test.tools", "tool", "card-kings-41"),
    _m("fast-match-over-unchecked", FAST,
       "out.get(\"match_over\") is not over",
       "type(out.get(\"match_over\")) is not bool",
       "the fast path takes whatever a line says about the end of the match", "test.tools", "tool", "tarneeb-400"),
    _m("fast-target-not-raised", FAST,
       "        st.table = end.table\n",
       "        st.table = __import__(\"dataclasses\").replace(end.table, target=st.table.target)\n",
       "after a game won before play-on the fast path keeps judging the next deals at the old target", "test.tools",
       "tool", "classic", {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"},
       in_manifest="own"),
    _m("fast-call-out-of-turn", FAST,
       "if type(e) is not Called or x[0] is not e.seat:",
       "if type(e) is not Called:",
       "the fast path takes a call made by a seat whose turn it is not (the auction is replayed by the seat to speak)",
       "test.tools", "tool", "classic"),
    # reached only by the steered matches (a weak hand after a cancelled deal), or caught only by
    # the corruption "bids on a weak hand"
    _m("fast-weak-after-cancel-unseen", FAST,
       "        if type(now) is Dealing:  # a weak hand",
       "        if type(now) is Dealing and self.st.last_redeal is None:  # a weak hand",
       "the fast path misses a weak hand dealt right after a cancelled deal (and reads the deal as bid)", "test.tools",
       "tool", "classic", {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"}),
    _m("fast-weak-hand-bids-taken", FAST,
       'return self._cancelled(now, ev, []) if "revealed" not in obj else None',
       'return self._cancelled(now, ev, None) if "revealed" not in obj else None',
       "the fast path takes calls written on a deal thrown in for a weak hand", "test.tools", "tool", "classic",
       {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"}),
    _m("replay-weak-hand-bids-unreported", REPLAY,
       "        if h.bids:  # thrown in before the bidding",
       "        if h.bids and len(h.bids) > 4:  # thrown in before the bidding",
       "the replay reports calls on a deal thrown in for a weak hand only when there are more than four", "test.tools",
       "tool", "classic", {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"}),
    _m("replay-second-cancel-next-seat", REPLAY,
       "        table = now.table  # the next dealer by the clause that cancelled the deal\n",
       "        table = now.table if st.last_redeal is None "
       "else replace(now.table, dealer=core_rules.next_seat(rules, self.dealer))\n",
       "from the second cancelled deal in a row on, the replay expects the next seat to deal", "test.tools", "tool",
       "card-kings-41"),
    _m("replay-bid13-ordinary", REPLAY,
       "            rules_d = list(self._scored_on(contract, tricks).deltas)",
       "            rules_d = list(self._scored_on(contract, tricks, replace(rules, bid13=\"normal\")).deltas)",
       "the replay scores a contract of 13 as an ordinary contract", "test.tools", "tool", "classic",
       {"egyptian": True, "auction": "continuous", "all_pass": "dealer-forced", "bid13": "26", "kaboot": "double",
        "min_bid": 8}),
    _m("replay-rules-winner-forgotten", REPLAY,
       "        self.alt_leader = w\n",
       "",
       "after a trick whose winner the record names wrongly, the replay does not let the rules' winner lead the "
       "next trick", "test.tools", "tool", "tarneeb-400"),
    _m("replay-first-seat-change-unchecked", REPLAY,
       "bad = [s for s in range(4) if rules_d[s] is not None",
       "bad = [s for s in range(1, 4) if rules_d[s] is not None",
       "the replay compares every seat's score change but the first seat's", "test.tools", "tool", "bsfyi-41"),
    _m("replay-cancelled-scores-unchecked", REPLAY,
       "                if st.scores_known and sc != before and sc != alt:",
       "                if st.scores_known and sc != before and sc != alt and h.tricks is not None:",
       "the replay checks a cancelled deal's running scores only on a line that gives tricks (never, for a "
       "cancelled deal)", "test.tools", "tool", "tarneeb-400"),
    _m("replay-match-end-clause", REPLAY,
       "core_clauses.match_over_clause(rules, rule),",
       "rule,",
       "the replay cites the outcome's clause for a wrong end of the match, play-on or not", "test.tools", "tool",
       "classic", {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"}),
    _m("replay-every-lead-first-lead", REPLAY,
       "core_clauses.lead_clause(k), k,",
       "core_clauses.lead_clause(0), k,",
       "the replay cites the first lead's clause for a wrong leader of any trick", "test.tools", "tool", "eram-41"),
    _m("vref-perft-no-card-zero", VREF,
       "        return {\"nodes\": 1}, PERFT_CLAUSE",
       "        return {\"nodes\": 0}, PERFT_CLAUSE",
       "the vector reference counts 0 instead of 1 when no card can be played", "test.tools", "tool", "classic",
       in_manifest="all"),
    _m("vref-perft-end-of-deal-uncounted", VREF,
       "            else:\n                total += 1\n",
       "            else:\n                total += 0\n",
       "the vector reference does not count a sequence of plays that ends the deal", "test.tools", "tool", "bsfyi-41"),
    _m("vref-bidding-end-same-dealer", VREF,
       "\"next_dealer\": m.dealer if redeal else None",
       "\"next_dealer\": inp[\"dealer\"] if redeal else None",
       "the vector reference has the same dealer deal again after every cancelled deal", "test.tools", "tool",
       "eram-41"),
    _m("vref-hand-next-dealer-as-played", VREF,
       "\"next_dealer\": H.next_dealer(m.rules, rec.dealer, rec.redeal)",
       "\"next_dealer\": H.next_dealer(m.rules, rec.dealer, None)",
       "the vector reference's next dealer after a cancelled deal is the one after a played deal", "test.tools", "tool",
       "card-kings-41"),
    _m("vref-led-suit-last-card", VREF,
       "    led = parse_card(trick[0]) // 13 if trick else -1",
       "    led = parse_card(trick[-1]) // 13 if trick else -1",
       "the vector reference takes the led suit from the last card played to the trick", "test.tools", "tool",
       "classic"),
    _m("vref-trick-winner-index", VREF,
       "    return {\"winner\": H.trick_winner_seat(rules, inp[\"leader\"], cards, strain_value(inp[\"trump\"]))}",
       "    return {\"winner\": R.trick_winner(cards, strain_value(inp[\"trump\"]))}",
       "the vector reference gives the winning card's place in the trick, not the winning seat", "test.tools", "tool",
       "tarneeb-400"),
    _m("ruling-team-tricks-to-each-partner", RULING_SCORING,
       "    return bids, Hand(steps.hand_end(rules, state.start, tricks))",
       "    return bids, Hand(steps.hand_end(rules, state.start, [tricks[0] + tricks[2], tricks[1] + tricks[3]] * 2))",
       "the referee scores each player on the tricks of the whole team", "test.tools", "tool", "eram-41"),
    _m("ruling-dealer-leads", RULING_FACTS,
       "        seat = steps.first_leader(rules, situation.dealer, None)\n",
       "        seat = situation.dealer\n",
       "the referee has the dealer lead the first trick of individual bids", "test.tools", "tool", "bsfyi-41"),
    # the referee restating a rule: the same words until the rule changes in core
    _m("ruling-restates-qualification", RULING_SCORING,
       "        a_at, b_above, b_at, a_above = core_rules.qualification(rules, a, b)",
       "        a_at, b_above, b_at, a_above = a >= rules.target, b > 0, b >= rules.target, a > 0",
       "the referee's explanation compares the partners with the target itself", "ruling", "tool", "bsfyi-41"),
    _m("ruling-restates-bid-total", RULING_SCORING,
       "        total, minimum = core_rules.bid_total(rules, bids, scores)\n        raise situation.err(",
       "        total, minimum = sum(bids), rules.total_min\n        raise situation.err(",
       "the referee's explanation adds the bids and states the threshold itself", "ruling", "tool", "eram-41"),
    _m("ruling-restates-tie-keys", RULING_SCORING,
       "        a, b = core_rules.tie_keys(rules, sc)",
       "        a, b = (sc[0] + sc[2], sc[1] + sc[3]) if rules.tie_rule == \"combined\" else (max(sc[0], sc[2]), "
       "max(sc[1], sc[3]))",
       "the referee's explanation works out the tie keys itself", "ruling", "tool", "card-kings-41"),
]
_ALL += _TOOLS

# ------------------------------------------------------------------ special cases (the engine family, symbolically)
# Bugs that live at one value, one card, one seat, one trick, while 13 cards are held, after n redeals: exactly where
# a proof that runs the engine at a few points per region could not look. Each is in a function (or hand step) the
# engine family proves for every input of its domain.
_SPECIAL: list[Mutant] = [
    _m("special-any-card-while-13-held", RULES,
       "    if led < 0:\n        return hand\n    follow = hand & SUIT_MASKS[led]\n",
       "    if led < 0 or hand.bit_count() == 13:\n        return hand\n    follow = hand & SUIT_MASKS[led]\n",
       "any card may be played while 13 are held (a first-trick exception as in Hearts)", "engine.play",
       "special-case", "eram-41"),
    _m("special-seven-of-hearts-wins", RULES,
       "        if (s == best_suit and c3 > best_card) or (s != best_suit and s == trump):\n",
       "        if (s == best_suit and c3 > best_card) or (s != best_suit and s == trump) or c3 == 31:\n",
       "the seven of hearts played fourth wins the trick, whatever was led", "engine.play", "special-case", "classic"),
    _m("special-weak-hand-ignores-jack-of-spades", RULES,
       "    return mask & _HIGH_CARDS == 0\n",
       "    return mask & _HIGH_CARDS & ~(1 << 48) == 0\n",
       "a hand whose only high card is the jack of spades counts as weak", "engine.play", "special-case", "classic",
       {"weak_redeal": True}),
    _m("special-min-bid-at-1234", RULES,
       "            if score >= threshold:\n                lo = max(lo, m)\n    return lo\n",
       "            if score >= threshold:\n                lo = max(lo, m)\n    return lo + (score == 1234)\n",
       "a player on exactly 1234 points must bid one more", "engine.bids", "special-case", "tarneeb-400"),
    _m("special-qualify-refuses-57", RULES,
       "    return (a_at and b_above) or (b_at and a_above)\n",
       "    return (a_at and b_above and b != 57) or (b_at and a_above and a != 57)\n",
       "a partner on exactly 57 does not count as above zero", "engine.outcome", "special-case", "eram-41"),
    _m("special-tie-at-combined-100", RULES,
       "        if a == b:\n",
       "        if a == b or a + b == 100:\n",
       "two qualifying teams whose keys add up to exactly 100 play on", "engine.outcome", "special-case", "bsfyi-41"),
    _m("special-bid-nine-made-exactly-loses", RULES,
       "    v = bid_value(rules, bid)\n    return v if bid_made(bid, tricks) else -v\n",
       "    v = bid_value(rules, bid)\n    return v if bid_made(bid, tricks) and (bid, tricks) != (9, 9) else -v\n",
       "a bid of 9 made with exactly 9 tricks loses its value", "engine.scoring", "special-case", "bsfyi-41"),
    _m("special-bidders-twelve-tricks-bonus", RULES,
       "    if tricks[dt] == 13 and rules.score_style == \"standard\" and rules.defender_kaboot == \"either-team\" \\\n",
       "    if tricks[bt] == 12:\n        d_bt += 1\n"
       "    if tricks[dt] == 13 and rules.score_style == \"standard\" and rules.defender_kaboot == \"either-team\" \\\n",
       "the bidding team taking exactly 12 tricks scores one more", "engine.scoring", "special-case", "classic"),
    Mutant("reading-bidders-only-ignored", RULES,
           "    if tricks[dt] == 13 and rules.score_style == \"standard\" and rules.defender_kaboot == \"either-team\" \\\n",
           "    if tricks[dt] == 13 and rules.score_style == \"standard\" \\\n",
           "the reading bidders-only of defender-kaboot is ignored: the defenders' 13 tricks still score the kaboot",
           "engine.scoring", "special-case", "classic", {}, "", {"defender-kaboot": "bidders-only"}),
    Mutant("reading-kaboot-first-inverted", RULES,
           "not (made and kaboot_bt and rules.bid13_kaboot == \"kaboot-first\")",
           "not (made and kaboot_bt and rules.bid13_kaboot != \"kaboot-first\")",
           "the reading of bid13-vs-kaboot is inverted: a made 13 takes the kaboot value under bid13-first",
           "engine.scoring", "special-case", "classic", {"bid13": "26"}, "", {"bid13-vs-kaboot": "kaboot-first"}),
    _m("special-total-exactly-20-redealt", RULES,
       "    total, threshold = bid_total(rules, bids, scores)\n    return total >= threshold\n",
       "    total, threshold = bid_total(rules, bids, scores)\n    return total >= threshold and total != 20\n",
       "a deal whose bids total exactly 20 is thrown in", "engine.bids", "boundary", "card-kings-41"),
    _m("special-dealer-3-may-not-match", RULES,
       "        dealer_privilege = seat == dealer and rules.auction_style == \"dealer-privilege\"\n",
       "        dealer_privilege = seat == dealer and rules.auction_style == \"dealer-privilege\" and dealer != 3\n",
       "the dealer's privilege of matching the top bid is lost when seat 3 deals", "engine.auction", "special-case",
       "classic"),
    _m("special-second-game-no-raise", RULES,
       "    if rules.play_on_raise > 0 and games_won >= 1:\n",
       "    if rules.play_on_raise > 0 and games_won >= 1 and games_won != 2:\n",
       "the raised target falls back after exactly two games won", "engine.outcome", "special-case", "classic",
       {"play_on": 10}),
    _m("special-no-trump-below-spades", RULES,
       "    return -1 if n is None else n * 5 + (strain or 0)\n",
       "    return -1 if n is None else n * 5 + (3 if strain == 4 else strain or 0)\n",
       "a no-trump bid ranks with spades at the same level", "engine.auction", "special-case", "classic",
       {"egyptian": True}),
    _m("special-forced-after-two-passes", RULES,
       "    return rules.all_pass == \"dealer-forced\" and seat == dealer and top is None and passes == 3\n",
       "    return rules.all_pass == \"dealer-forced\" and seat == dealer and top is None and passes >= 2\n",
       "under dealer-forced the dealer may not pass after two passes already", "engine.auction", "boundary",
       "classic", {"all_pass": "dealer-forced"}),
    _m("special-partner-of-seat-3", RULES,
       "    return seat ^ 2\n",
       "    return seat ^ 2 if seat != 3 else 0\n",
       "seat 3's partner is taken to be seat 0", "engine.play", "special-case", "classic"),
    _m("special-made-bid-last-seat-first", RULES,
       "        for seat in range(4):\n            if bids[seat] == rules.made_bid_wins",
       "        for seat in (3, 2, 1, 0):\n            if bids[seat] == rules.made_bid_wins",
       "when two seats made the winning bid, the last seat is named, not the first", "engine.outcome",
       "special-case", "bsfyi-41", {"made_bid_wins": 10}),
    _m("special-revealed-ace-of-diamonds", RULES,
       "    suit = card // 13\n",
       "    suit = card // 13 if card != 25 else 0\n",
       "the ace of diamonds, turned up, is taken for a club", "engine.play", "special-case", "bsfyi-41",
       {"trump_source": "revealed-suit"}),
    _m("special-deal-last-card-to-partner", RULES,
       "    hands[s3] = sum(map(bit, cards[3::4]))\n",
       "    hands[s3] = sum(map(bit, cards[3:51:4]))\n    hands[s1] += bit(cards[51])\n",
       "the dealer's last card goes to the dealer's partner", "engine.play", "special-case", "classic"),
    _m("special-weak-seats-skips-seat-2", HAND,
       "    return [s for s in range(4) if core_rules.is_weak_hand(hands[s])]\n",
       "    return [s for s in (0, 1, 3) if core_rules.is_weak_hand(hands[s])]\n",
       "seat 2's weak hand is never seen", "engine.play", "special-case", "classic", {"weak_redeal": True}),
    _m("special-trick-legal-fourth-free-on-trump-lead", HAND,
       "            and legal(rules, hands[s2], led, trump) >> c2 & 1 and legal(rules, hands[s3], led, trump) >> c3 & 1):\n",
       "            and legal(rules, hands[s2], led, trump) >> c2 & 1"
       " and (led == trump or legal(rules, hands[s3], led, trump) >> c3 & 1)):\n",
       "when trump is led, the fourth card of the trick is not checked", "engine.play", "special-case", "classic"),
    _m("special-seat-3-bid-13-worth-26", HAND,
       "                d(rules, bids[3], tricks_won[3])]\n",
       "                d(rules, bids[3], tricks_won[3]) if bids[3] != 13 else 26]\n",
       "seat 3's bid of 13 always scores 26", "engine.scoring", "special-case", "eram-41"),
    _m("special-settle-ends-after-second-game", HAND,
       "    nxt = core_rules.target_in_force(rules, len(games) + 1)\n    if nxt != target:\n",
       "    nxt = core_rules.target_in_force(rules, len(games) + 1)\n    if nxt != target and len(games) < 1:\n",
       "a game won after one game already won never raises the target", "engine.outcome", "transition", "classic",
       {"play_on": 10}),
]
_ALL += _SPECIAL



def _held_out() -> list[Mutant]:
    """The held-out set: bugs written as an outside reviewer would, without reading the entries above
    (``held_out.toml``), each a realistic single bug anywhere prove claims to see one. Their stage is
    ``held-out``: no family is named in advance, ``tools/prove_mutants.py`` runs the whole ``tarneeb prove`` on
    each, and the tests do not run them in the process (only that each still applies)."""
    data = tomllib.loads((Path(__file__).parent / "held_out.toml").read_text(encoding="utf-8"))
    return [Mutant(e["id"], e["module"], e["old"], e["new"], e["text"], "held-out", e["kind"], e["ruleset"],
                   dict(e.get("options", {})), held_out=True) for e in data["mutant"]]


_ALL += _held_out()

MUTANTS: dict[str, Mutant] = {m.id: m for m in _ALL}
