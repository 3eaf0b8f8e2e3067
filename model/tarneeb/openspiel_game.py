"""Tarneeb in OpenSpiel: ``pyspiel.load_game("python_tarneeb", {"ruleset": "classic"})``.

Importing this module registers the game ``python_tarneeb`` with ``pyspiel.register_game`` (OpenSpiel is the
optional ``openspiel`` extra: ``pip install 'tarneeb[openspiel]'``). Every rule decision is the engine's: a state
wraps a :class:`tarneeb.core.match.Match` and asks it for the legal actions and to apply them.

Parameters (all strings or ints, as OpenSpiel passes them):

* ``ruleset``: a ruleset id (``tarneeb rulesets``), default ``classic``;
* ``options``: house-rule options (``tarneeb show RULESET``) as ``name:value`` pairs separated by ``;`` (e.g.
  ``"min_bid:8;kaboot:26"``; one string parameter, since a game string cannot hold ``=`` or ``,`` in a value and
  would retype a lone ``true`` or number);
* ``episode``: ``hand`` (the episode ends after the first played hand; cancelled deals are dealt again) or
  ``match`` (a whole match, cut off unfinished, with returns 0, after ``max_hands`` played hands or ten times as
  many deals);
* ``max_hands``: see ``episode`` (default 50).

Chance: the first chance node draws the dealer (4 outcomes, uniform); then every deal is 52 chance nodes, each
drawing the next card of the deck from the cards not yet drawn (uniform); the 52 cards make one ``Deal`` action of
the engine. Actions: 0..51 play that card (suit * 13 + rank, clubs first); 52..65 bid 0..13 tricks (individual
family, or a plain auction bid); 66 pass; 67..136 an Egyptian bid ``67 + 5 * n + strain`` (strain 0..4 = C D H S
N); 137..140 name trump C D H S.

Returns: +1 for each player of the winning team, -1 for the others, 0 for both teams on a draw. In a ``hand``
episode the team that gained more points in the hand wins it; in a ``match`` episode the match winner.

Observers: the information state (perfect recall) of a seat holds its own cards as dealt, the revealed card, every
call, every card played with its seat, the scores, and in its string the same for every earlier deal of the match
(the tensor covers the deal in progress, with the scores); the observation holds its current cards, the current trick,
every seat's last call, the trump, the tricks won and the scores. Neither ever holds another seat's hidden cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import BIDS, EGYPTIAN, PASS, PLAYS, Action, Bid, Deal, NameTrump, Play
from tarneeb.core.cards import card_str, cards_of
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import Rules, load_rules, parse_option_args

SHORT_NAME = "python_tarneeb"
BID0 = 52
PASS_ID = 66
EGYPT0 = 67
TRUMP0 = 137
NUM_ACTIONS = 141
MAX_CALLS = 200  # calls in one auction: at most 4 passes and 70 raises, each raise followed by few passes
DEFAULTS: dict[str, Any] = {"ruleset": "classic", "options": "", "episode": "hand", "max_hands": 50}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Tarneeb (rules-verified reference model)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def action_id(a: Action) -> int:
    """The OpenSpiel action id of an engine action (a player's; deals are chance outcomes)."""
    if type(a) is Play:
        return a.card
    if type(a) is NameTrump:
        return TRUMP0 + a.suit
    if type(a) is Bid:
        if a.n is None:
            return PASS_ID
        return BID0 + a.n if a.strain is None else EGYPT0 + 5 * a.n + a.strain
    raise ValueError(f"no action id for {a}")


def engine_action(aid: int) -> Action:
    """The engine action of an OpenSpiel action id (inverse of :func:`action_id`)."""
    if 0 <= aid < BID0:
        return PLAYS[aid]
    if aid < PASS_ID:
        return BIDS[aid - BID0]
    if aid == PASS_ID:
        return PASS
    if aid < TRUMP0:
        n, s = divmod(aid - EGYPT0, 5)
        return EGYPTIAN[(n, s)]
    if aid < NUM_ACTIONS:
        return NameTrump(aid - TRUMP0)
    raise ValueError(f"action id {aid} out of range 0..{NUM_ACTIONS - 1}")


def _rules(params: dict[str, Any]) -> Rules:
    """The rules named by ``ruleset`` with ``options`` (``name:value;name:value``: OpenSpiel's game strings
    cannot hold ``=`` or ``,`` in a value, and would retype a lone ``true`` or number)."""
    text = str(params.get("options", "") or "")
    items = [t.strip().replace(":", "=", 1) for t in text.split(";") if t.strip()]
    return load_rules(str(params.get("ruleset", "classic")), parse_option_args(items))


class TarneebGame(pyspiel.Game):  # type: ignore[misc]
    """The game object: rules resolved once from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        self.rules = _rules(p)
        self.episode = str(p["episode"])
        if self.episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {self.episode!r}")
        self.max_hands = int(p["max_hands"])
        deals = 10 * self.max_hands if self.episode == "match" else 10 * self.max_hands
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=52, num_players=4, min_utility=-1.0,
            max_utility=1.0, utility_sum=0.0, max_game_length=1 + deals * (52 + MAX_CALLS + 1 + 52))
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> TarneebState:
        return TarneebState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TarneebObserver:
        return TarneebObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class TarneebState(pyspiel.State):  # type: ignore[misc]
    """A state: the engine's match plus the deck being drawn card by card."""

    def __init__(self, game: TarneebGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._episode = game.episode
        self._max_hands = game.max_hands
        self.match: Match | None = None  # built when the first chance node draws the dealer
        self.deck: list[int] = []  # cards drawn so far for the deal in progress
        self.deals = 0

    # ----------------------------------------------------------------- the OpenSpiel API
    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        m = self.match
        if m is None or m.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return m.to_move

    def _over(self) -> bool:
        m = self.match
        if m is None:
            return False
        if m.phase is Phase.OVER:
            return True
        if self._episode == "hand":
            return m.hands_played >= 1 or self.deals >= 10 * self._max_hands
        return m.phase is Phase.DEAL and (m.hands_played >= self._max_hands or self.deals >= 10 * self._max_hands)

    def _legal_actions(self, player: int) -> list[int]:
        if self.match is None:
            raise RuntimeError("legal actions asked before the match started")
        return sorted(action_id(a) for a in self.match.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.match is None:
            return [(s, 0.25) for s in range(4)]
        left = sorted(set(range(52)) - set(self.deck))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.match is None:
            self.match = Match(self._rules, first_dealer=int(action))
            return
        m = self.match
        if m.phase is Phase.DEAL:
            self.deck.append(int(action))
            if len(self.deck) == 52:
                m.apply(Deal(tuple(self.deck)))
                self.deck = []
                self.deals += 1
            return
        m.apply(engine_action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer:{action}" if self.match is None else f"card:{card_str(action)}"
        return str(engine_action(action))

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        m = self.match
        if m is None or not self._over():
            return [0.0, 0.0, 0.0, 0.0]
        win: int | None
        if self._episode == "match":
            win = m.winner
        else:
            played = [h for h in m.records if h.redeal is None]
            if not played:
                return [0.0, 0.0, 0.0, 0.0]
            d = played[0].deltas
            t0, t1 = (d[0] + d[2], d[1] + d[3]) if self._rules.individual else (d[0], d[1])
            win = None if t0 == t1 else (0 if t0 > t1 else 1)
        if win is None:
            return [0.0, 0.0, 0.0, 0.0]
        return [1.0 if s & 1 == win else -1.0 for s in range(4)]

    def __str__(self) -> str:
        m = self.match
        if m is None:
            return "no dealer yet"
        return m.state_text() + (f"; {len(self.deck)} cards drawn" if self.deck else "")


# ------------------------------------------------------------------ observers

_CALLS = 1 + 1 + 14 + 70  # none, pass, 0..13, Egyptian
_ROUNDS = 10  # rounds of calls kept in the information-state tensor (the string keeps them all)


def _call_index(b: Bid) -> int:
    if b.n is None:
        return 1
    return 2 + b.n if b.strain is None else 16 + 5 * b.n + b.strain


class TarneebObserver:
    """The PyObserver of OpenSpiel (``tensor``, ``dict``, ``set_from``, ``string_from``) for one seat."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("player", 4, (4,)), ("dealer", 4, (4,)), ("phase", 4, (4,)), ("trump", 6, (6,)),
            ("revealed", 52, (52,)), ("last_call", 4 * _CALLS, (4, _CALLS)), ("trick", 4 * 52, (4, 52)),
            ("played", 52, (52,)), ("tricks_won", 4 * 14, (4, 14)), ("scores", 4, (4,)),
        ]
        if self.private:
            pieces.append(("hand", 52, (52,)))
        if self.perfect_recall:
            if self.private:
                pieces.append(("dealt", 52, (52,)))
            pieces += [("play_seat", 52 * 4, (52, 4)), ("calls", _ROUNDS * 4 * _CALLS, (_ROUNDS, 4, _CALLS))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        i = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[i:i + size].reshape(shape)
            i += size

    def set_from(self, state: TarneebState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        m = state.match
        if m is None:
            return
        d["dealer"][m.dealer] = 1
        d["phase"][{Phase.DEAL: 0, Phase.BIDDING: 1, Phase.TRUMP_CHOICE: 2}.get(m.phase, 3)] = 1
        d["trump"][5 if m.trump < 0 else m.trump] = 1
        rec = m.record
        if rec is not None:
            if rec.revealed is not None:
                d["revealed"][rec.revealed] = 1
            rounds = 0
            seen = [0, 0, 0, 0]
            for seat, b in rec.bids:
                d["last_call"][seat].fill(0)
                d["last_call"][seat, _call_index(b)] = 1
                if "calls" in d and rounds < d["calls"].shape[0]:
                    d["calls"][rounds, seat, _call_index(b)] = 1
                seen[seat] += 1
                rounds = max(seen)
            for t in rec.tricks:
                for k, c in enumerate(t.cards):
                    d["played"][c] = 1
                    if "play_seat" in d:
                        d["play_seat"][c, core_hand.trick_turn(m.rules, t.leader, k)] = 1
            for k, c in enumerate(m.trick):
                d["trick"][k, c] = 1
                if "play_seat" in d:
                    d["play_seat"][c, core_hand.trick_turn(m.rules, m.trick_leader, k)] = 1
            if "hand" in d:
                for c in cards_of(m.hands[player]):
                    d["hand"][c] = 1
            if "dealt" in d:
                for c in _dealt(m, player):
                    d["dealt"][c] = 1
        for s in range(4):
            d["tricks_won"][s, min(13, m.tricks_won[s])] = 1
            d["scores"][s] = m.scores[s] / 100.0

    def string_from(self, state: TarneebState, player: int) -> str:
        m = state.match
        if m is None:
            return f"seat {player}; no dealer yet"
        parts = [f"seat {player}", f"deal {len(m.records)}", f"dealer {m.dealer}", f"phase {m.phase.value}", f"scores {m.scores}"]
        rec = m.record
        if rec is not None:
            if self.private:
                parts.append("hand " + " ".join(card_str(c) for c in cards_of(m.hands[player])))
                if self.perfect_recall:
                    parts.append("dealt " + " ".join(card_str(c) for c in _dealt(m, player)))
            if rec.revealed is not None:
                parts.append(f"revealed {card_str(rec.revealed)}")
            if rec.bids:
                parts.append("calls " + " ".join(f"{s}:{b}" for s, b in rec.bids))
            if m.trump >= 0:
                parts.append(f"trump {'CDHSN'[m.trump]}")
            if self.perfect_recall and rec.tricks:
                parts.append("tricks " + " | ".join(f"{t.leader}:" + " ".join(card_str(c) for c in t.cards)
                                                    for t in rec.tricks))
            if m.trick:
                parts.append(f"trick {m.trick_leader}:" + " ".join(card_str(c) for c in m.trick))
            parts.append(f"won {m.tricks_won}")
        if self.perfect_recall and state.deck:
            parts.append(f"{len(state.deck)} cards drawn")
        if self.perfect_recall and m.records:  # earlier deals of a match: what this seat saw of them
            parts.append("earlier " + " || ".join(self._earlier(m, rec, player) for rec in m.records))
        return "; ".join(parts)

    def _earlier(self, m: Match, rec: HandRecord, player: int) -> str:
        bits = [f"dealer {rec.dealer}"]
        if self.private:
            own = core_rules.deal_hands(m.rules, rec.dealer, rec.deck)[player]
            bits.append("dealt " + " ".join(card_str(c) for c in cards_of(own)))
        if rec.revealed is not None:
            bits.append(f"revealed {card_str(rec.revealed)}")
        bits.append("calls " + " ".join(f"{s}:{b}" for s, b in rec.bids))
        if rec.redeal:
            bits.append(f"cancelled {rec.redeal}")
        else:
            bits.append("tricks " + " | ".join(f"{t.leader}:" + " ".join(card_str(c) for c in t.cards)
                                                for t in rec.tricks))
        return ", ".join(bits)


def _dealt(m: Match, seat: int) -> list[int]:
    """The cards ``seat`` was dealt in the deal in progress (its current cards and those it has played)."""
    rec = m.record
    if rec is None:
        raise RuntimeError("no deal in progress: no cards dealt")
    mask = m.hands[seat]
    for t in rec.tricks:
        for k, c in enumerate(t.cards):
            if core_hand.trick_turn(m.rules, t.leader, k) == seat:
                mask |= 1 << c
    for k, c in enumerate(m.trick):
        if core_hand.trick_turn(m.rules, m.trick_leader, k) == seat:
            mask |= 1 << c
    return cards_of(mask)


pyspiel.register_game(_GAME_TYPE, TarneebGame)

__all__ = ["SHORT_NAME", "TarneebGame", "TarneebObserver", "TarneebState", "action_id", "engine_action"]
