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

``stage`` names the prove family (and stage) that must catch the mutant, e.g. ``engine.play``, ``match``,
``tools``; ``ruleset`` and ``options`` where the bug shows; ``in_manifest``: also a mutant check of
``tarneeb prove`` in "all" rulesets, every ruleset of its "kind" (individual or auction family), its "own"
ruleset only, or "" (run by the tests and ``tools/prove_mutants.py`` only).
"""

from __future__ import annotations

import importlib
import inspect
import shutil
import sys
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
    """The innermost def (``Class.method`` or ``function``) around the edit, read from the module's source."""
    import ast

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
                    if not isinstance(ch, ast.ClassDef):
                        best = name
                    walk(ch, name + ".")

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
    swaps: dict[int, Any] = {}  # id(old function) -> new function
    for name, new in list(fresh.__dict__.items()):
        old = live.__dict__.get(name)
        if isinstance(new, types.FunctionType) and new.__module__ == m.module and isinstance(old, types.FunctionType):
            undo.append((live, name, old))
            swaps[id(old)] = new
        elif isinstance(new, type) and isinstance(old, type) and new.__module__ == m.module:
            for attr, value in vars(new).items():
                if isinstance(value, (types.FunctionType, property, classmethod, staticmethod)):
                    undo.append((old, attr, vars(old).get(attr)))
    try:
        for obj, name, _ in undo:
            value = fresh.__dict__[name] if obj is live else vars(getattr(fresh, obj.__name__))[name]
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
       options: dict[str, OptionValue] | None = None, in_manifest: str = "") -> Mutant:
    return Mutant(id, module, old, new, text, stage, kind, ruleset, dict(options or {}), in_manifest)


RULES = "tarneeb.core.rules"
HAND = "tarneeb.core.hand"
MATCH = "tarneeb.core.match"

# ------------------------------------------------------------------ the catalogue
_ALL: list[Mutant] = [
    _m("rules-lone-led-card-need-not-follow", RULES,
       "    follow = hand & SUIT_MASKS[led]\n    if follow:\n",
       "    follow = hand & SUIT_MASKS[led]\n    if follow and follow & (follow - 1):\n",
       "a player holding a single card of the led suit need not follow with it", "engine.play", "special-case",
       "classic"),
]

FAST = "tarneeb.records.fastpath"
REPLAY = "tarneeb.records.replay"
VREF = "tarneeb.conformance.vector_ref"
RULING = "tarneeb.ruling.decision"

# ------------------------------------------------------------------ the tools (family "tools"; "ruling": the
# referee restating a rule core decides, caught by tests/test_no_rule_outside_core.py when core changes)
_TOOLS: list[Mutant] = [
    _m("fast-second-cancel-next-seat", FAST,
       "    st.dealer = H.next_dealer(r, dealer, clause)\n",
       "    st.dealer = H.next_dealer(r, dealer, clause) if st.last_redeal is None else R.next_seat(r, dealer)\n",
       "after the second cancelled deal in a row the fast path expects the next seat to deal", "tools", "tool",
       "card-kings-41", in_manifest="own"),
    _m("fast-trick-led-by-previous-leader", FAST,
       "    won = [0, 0, 0, 0]\n    try:\n        for t in tricks:\n",
       "    won = [0, 0, 0, 0]\n    prev = leader\n    try:\n        for t in tricks:\n"
       "            if t.get(\"leader\") == prev != leader:  # the leader written before the winner was known\n"
       "                t = {**t, \"leader\": leader}\n            prev = leader\n",
       "the fast path accepts a trick led by the previous trick's leader", "tools", "tool", "bsfyi-41"),
    _m("fast-running-scores-unchecked", FAST,
       "            and _ints_are(obj.get(\"scores\"), after)):",
       "            and type(obj.get(\"scores\")) is list):",
       "the fast path checks a played deal's score changes but not the running scores", "tools", "tool",
       "eram-41", in_manifest="own"),
    _m("fast-revealed-card-unchecked", FAST,
       "    elif obj.get(\"revealed\") != _CARD_TEXT[revealed]:",
       "    elif \"revealed\" not in obj:",
       "the fast path takes any revealed card the line names", "tools", "tool", "card-kings-41"),
    _m("fast-match-over-unchecked", FAST,
       "out.get(\"match_over\") is not over",
       "type(out.get(\"match_over\")) is not bool",
       "the fast path takes whatever a line says about the end of the match", "tools", "tool", "tarneeb-400"),
    _m("fast-target-not-raised", FAST,
       "    st.target = settled.target\n",
       "",
       "after a game won before play-on the fast path keeps judging the next deals at the old target", "tools",
       "tool", "classic", {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"},
       in_manifest="own"),
    _m("fast-call-out-of-turn", FAST,
       "if a.to_speak is None or seat != a.to_speak or b is None",
       "if a.to_speak is None or b is None",
       "the fast path takes a call made by a seat whose turn it is not (the auction is replayed by the seat to speak)",
       "tools", "tool", "classic"),
    _m("replay-second-cancel-next-seat", REPLAY,
       "        st.dealer = H.next_dealer(r, dealer, rule)\n",
       "        st.dealer = H.next_dealer(r, dealer, rule) if st.last_redeal is None else R.next_seat(r, dealer)\n",
       "from the second cancelled deal in a row on, the replay expects the next seat to deal", "tools", "tool",
       "card-kings-41"),
    _m("replay-bid13-ordinary", REPLAY,
       "            rules_d = list(H.hand_deltas(r, [0, 0, 0, 0], contract, tricks))",
       "            rules_d = list(H.hand_deltas(__import__(\"dataclasses\").replace(r, bid13=\"normal\"), [0, 0, 0, 0],"
       " contract, tricks))",
       "the replay scores a contract of 13 as an ordinary contract", "tools", "tool", "classic",
       {"egyptian": True, "auction": "continuous", "all_pass": "dealer-forced", "bid13": "26", "kaboot": "double",
        "min_bid": 8}),
    _m("replay-rules-winner-forgotten", REPLAY,
       "            alt_leader = w\n",
       "",
       "after a trick whose winner the record names wrongly, the replay does not let the rules' winner lead the "
       "next trick", "tools", "tool", "tarneeb-400"),
    _m("replay-first-seat-change-unchecked", REPLAY,
       "bad = [s for s in range(4) if rules_d[s] is not None",
       "bad = [s for s in range(1, 4) if rules_d[s] is not None",
       "the replay compares every seat's score change but the first seat's", "tools", "tool", "bsfyi-41"),
    _m("replay-cancelled-scores-unchecked", REPLAY,
       "                if st.scores_known and sc != st.scores and sc != alt:",
       "                if st.scores_known and sc != st.scores and sc != alt and h.tricks is not None:",
       "the replay checks a cancelled deal's running scores only on a line that gives tricks (never, for a "
       "cancelled deal)", "tools", "tool", "tarneeb-400"),
    _m("replay-match-end-clause", REPLAY,
       "C.match_over_clause(r, rule),",
       "rule,",
       "the replay cites the outcome's clause for a wrong end of the match, play-on or not", "tools", "tool",
       "classic", {"weak_redeal": True, "play_on": 10, "must_trump": True, "direction": "cw"}),
    _m("replay-every-lead-first-lead", REPLAY,
       "C.lead_clause(k), k,",
       "C.lead_clause(0), k,",
       "the replay cites the first lead's clause for a wrong leader of any trick", "tools", "tool", "eram-41"),
    _m("vref-perft-no-card-zero", VREF,
       "        return {\"nodes\": 1}, C.perft_clause(r)",
       "        return {\"nodes\": 0}, C.perft_clause(r)",
       "the vector reference counts 0 instead of 1 when no card can be played", "tools", "tool", "classic",
       in_manifest="all"),
    _m("vref-perft-end-of-deal-uncounted", VREF,
       "            else:\n                total += 1\n",
       "            else:\n                total += 0\n",
       "the vector reference does not count a sequence of plays that ends the deal", "tools", "tool", "bsfyi-41"),
    _m("vref-bidding-end-same-dealer", VREF,
       "\"next_dealer\": m.dealer if redeal else None",
       "\"next_dealer\": inp[\"dealer\"] if redeal else None",
       "the vector reference has the same dealer deal again after every cancelled deal", "tools", "tool",
       "eram-41"),
    _m("vref-hand-next-dealer-as-played", VREF,
       "\"next_dealer\": H.next_dealer(m.rules, rec.dealer, rec.redeal)",
       "\"next_dealer\": H.next_dealer(m.rules, rec.dealer, None)",
       "the vector reference's next dealer after a cancelled deal is the one after a played deal", "tools", "tool",
       "card-kings-41"),
    _m("vref-led-suit-last-card", VREF,
       "    led = parse_card(trick[0]) // 13 if trick else -1",
       "    led = parse_card(trick[-1]) // 13 if trick else -1",
       "the vector reference takes the led suit from the last card played to the trick", "tools", "tool",
       "classic"),
    _m("vref-trick-winner-index", VREF,
       "    return {\"winner\": H.trick_winner_seat(r, inp[\"leader\"], cards, strain_value(inp[\"trump\"]))}",
       "    return {\"winner\": R.trick_winner(cards, strain_value(inp[\"trump\"]))}",
       "the vector reference gives the winning card's place in the trick, not the winning seat", "tools", "tool",
       "tarneeb-400"),
    _m("ruling-team-tricks-to-each-partner", RULING,
       "    return bids, H.hand_deltas(r, bids, None, tricks)",
       "    return bids, H.hand_deltas(r, bids, None, [tricks[0] + tricks[2], tricks[1] + tricks[3]] * 2)",
       "the referee scores each player on the tricks of the whole team", "tools", "tool", "eram-41"),
    _m("ruling-dealer-leads", RULING,
       "        seat = H.hand_leader(r, s.dealer, None)\n",
       "        seat = s.dealer\n",
       "the referee has the dealer lead the first trick of individual bids", "tools", "tool", "bsfyi-41"),
    # the referee restating a rule: the same words until the rule changes in core
    _m("ruling-restates-qualification", RULING,
       "        a_at, b_above, b_at, a_above = R.qualification(r, a, b)",
       "        a_at, b_above, b_at, a_above = a >= r.target, b > 0, b >= r.target, a > 0",
       "the referee's explanation compares the partners with the target itself", "ruling", "tool", "bsfyi-41"),
    _m("ruling-restates-bid-total", RULING,
       "        total, minimum = R.bid_total(r, bids)\n        raise s.err(",
       "        total, minimum = sum(bids), r.total_min\n        raise s.err(",
       "the referee's explanation adds the bids and states the threshold itself", "ruling", "tool", "eram-41"),
    _m("ruling-restates-tie-keys", RULING,
       "        a, b = R.tie_keys(r, sc)",
       "        a, b = (sc[0] + sc[2], sc[1] + sc[3]) if r.tie_rule == \"combined\" else (max(sc[0], sc[2]), "
       "max(sc[1], sc[3]))",
       "the referee's explanation works out the tie keys itself", "ruling", "tool", "card-kings-41"),
]
_ALL += _TOOLS

MUTANTS: dict[str, Mutant] = {m.id: m for m in _ALL}
