"""The quickstart transcript of the line protocol (``spec/protocol/quickstart.md``), from the reference engine.

:class:`RefSession` answers the playing commands of the protocol (``start``, ``legal``, ``apply``,
``state``) from a :class:`~tarneeb.core.match.Match`, in the shapes ``spec/protocol/README.md``
documents. :func:`quickstart_text` plays one whole deal through it and writes every request and
answer, so the transcript is generated, not typed: ``tarneeb vectors generate`` writes it and
``tarneeb vectors check`` (and the tests) fail when it drifts; the tests also send its requests to
the independent example engines and compare their answers with it.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tarneeb.conformance.protocol import PROTOCOL_VERSION
from tarneeb.conformance.vector_ref import hand_result
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Deal, parse_action
from tarneeb.core.cards import card_str, cards_of, parse_card, strain_text
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import load_rules
from tarneeb.play.bots import heuristic_policy

QUICKSTART_RULESET = "card-kings-41"
QUICKSTART_SEED = "quickstart-1"
_PHASES = {Phase.BIDDING: "bidding", Phase.TRUMP_CHOICE: "trump", Phase.PLAY: "play", Phase.WEAK_CLAIM: "claim"}


class RefSession:
    """The reference engine behind the protocol's playing commands, one deal at a time."""

    def __init__(self) -> None:
        self.m: Match | None = None
        self.n0 = 0
        self.scores: list[int] = []

    def over(self) -> bool:
        """Whether the deal started by the last ``start`` request is finished."""
        return self.m is not None and len(self.m.records) > self.n0

    def state(self) -> dict[str, Any]:
        """The protocol's state object of the deal: phase, seat to move, trump, contract, and the result once over."""
        m = self.m
        if m is None:
            raise RuntimeError("the reference session's state asked before any start")
        rec = m.record if m.record is not None else m.records[-1]
        over = self.over()
        st: dict[str, Any] = {"phase": "over" if over else _PHASES[m.phase],
                              "to_move": None if over else m.to_move,
                              "trump": strain_text(rec.trump),
                              "revealed": None if rec.revealed is None else card_str(rec.revealed)}
        if rec.contract is not None and (over or m.phase is not Phase.BIDDING):
            seat, n, strain = rec.contract
            st["contract"] = {"seat": seat, "n": n, "strain": strain_text(strain)}
        if over:
            res = hand_result(m)
            st.update({k: res[k] for k in ("redeal", "tricks_won", "deltas", "scores", "winner", "next_dealer")})
        return st

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        """The reference engine's answer to one protocol request (``hello``, ``start``, ``legal``, ``apply``, ``state``)."""
        cmd = req["cmd"]
        if cmd == "hello":
            return {"ok": True, "protocol": PROTOCOL_VERSION, "name": "tarneeb reference", "rulesets": [QUICKSTART_RULESET]}
        if cmd == "start":
            rules = load_rules(req["ruleset"], req.get("options", {}))
            m = Match.at(rules, req["dealer"], req["scores"], req.get("target"))
            self.m, self.n0 = m, len(m.records)
            deck = tuple(parse_card(c) for c in req["deck"])
            hands = [[card_str(c) for c in cards_of(h)] for h in core_rules.deal_hands(rules, req["dealer"], deck)]
            m.apply(Deal(deck))
            return {"ok": True, "hands": hands, **self.state()}
        if self.m is None:
            raise RuntimeError(f"a {cmd!r} request to the reference session before any start")
        if cmd == "legal":
            if self.over():
                return {"ok": True, "seat": None, "actions": []}
            return {"ok": True, "seat": self.m.to_move, "actions": [str(a) for a in self.m.legal_actions()]}
        if cmd == "apply":
            rec = self.m.record
            before = len(rec.winners) if rec is not None else 0
            self.m.apply(parse_action(req["action"]))
            rec = self.m.record if self.m.record is not None else self.m.records[-1]
            out: dict[str, Any] = {"ok": True}
            if len(rec.winners) > before:
                out["trick_winner"] = rec.winners[-1]
            return {**out, **self.state()}
        if cmd == "state":
            return {"ok": True, **self.state()}
        raise ValueError(cmd)


def quickstart_session() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(request, answer) pairs of one whole deal under card-kings-41: hello, start, legal, every apply (with a
    legal before the first card), state."""
    rules = load_rules(QUICKSTART_RULESET)
    rng = random.Random(QUICKSTART_SEED)
    sess = RefSession()
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def send(req: dict[str, Any]) -> dict[str, Any]:
        ans = sess.handle(req)
        pairs.append((req, ans))
        return ans

    send({"cmd": "hello"})
    while True:  # a deal that is played (the bids reach the total), from running scores
        deck = list(range(52))
        rng.shuffle(deck)
        probe = Match.at(rules, 1, [12, 7, 9, 3])
        probe.apply(Deal(tuple(deck)))
        while probe.phase is Phase.BIDDING:
            probe.apply(heuristic_policy(probe, random.Random(0)))
        if probe.phase is Phase.PLAY:
            break
    send({"cmd": "start", "ruleset": rules.id, "options": {}, "dealer": 1, "scores": [12, 7, 9, 3], "target": 41,
          "deck": [card_str(c) for c in deck]})
    send({"cmd": "legal"})
    pick = random.Random(0)
    asked_play = False
    while not sess.over():
        if sess.m is None:
            raise RuntimeError("the transcript's session was not started")
        if sess.m.phase is Phase.PLAY and not asked_play:
            send({"cmd": "legal"})
            asked_play = True
        send({"cmd": "apply", "action": str(heuristic_policy(sess.m, pick))})
    send({"cmd": "state"})
    return pairs


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"))


def quickstart_text() -> str:
    """The quickstart transcript page (``spec/protocol/quickstart.md``): one whole deal, request by request."""
    pairs = quickstart_session()
    start = pairs[1][0]
    out = [
        "# Quickstart transcript: one whole deal",
        "",
        "<!-- Generated by `tarneeb vectors generate` from the reference engine "
        "(tarneeb.conformance.transcript); do not edit. -->",
        "",
        f"One deal of `{QUICKSTART_RULESET}` from running scores {start['scores']}, dealer {start['dealer']}, "
        "as an engine sees it: every request the driver sends (`>`) and the answer the reference engine gives "
        "(`<`), one JSON object a line. Your engine's answers must carry the same fields and values (the order of "
        "the cards in `hands` and of `actions` is free; `name` is yours). The tests send these requests to the "
        "example engines (`examples/mini_engine`, `examples/js_engine`) and compare their answers with these.",
        "",
        "Read it with the [protocol reference](README.md): `start` answers the hands and the state; `legal` the "
        "seat to move and its actions; each `apply` the new state, with `trick_winner` when the action completed "
        "a trick; after the last card the state is `over` and carries the result.",
        "",
        "```",
    ]
    for req, ans in pairs:
        out.append("> " + _line(req))
        out.append("< " + _line(ans))
    out += ["```", ""]
    return "\n".join(out)


def transcript_pairs(text: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The (request, answer) pairs of a transcript or example block (lines beginning ``> `` and ``< ``)."""
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    req: dict[str, Any] | None = None
    for ln in text.splitlines():
        if ln.startswith("> "):
            req = json.loads(ln[2:])
        elif ln.startswith("< ") and req is not None:
            pairs.append((req, json.loads(ln[2:])))
            req = None
    return pairs
