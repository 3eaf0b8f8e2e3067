"""tarneeb: an executable reference model of the Tarneeb family of card games.

Rulesets are data (``spec/rulesets/*.toml``); :func:`load_rules` resolves one
with its options, and :class:`Match` plays it as a replayable list of actions.
"""

from __future__ import annotations

from tarneeb.core.actions import Action, Bid, Deal, NameTrump, Play, parse_action
from tarneeb.core.cards import card_str, parse_card
from tarneeb.core.match import HandRecord, Match, Phase, SeatView, random_deck
from tarneeb.core.spec import Rules, Ruleset, get_ruleset, load_rules, resolve_ruleset, rulesets
from tarneeb.errors import (
    CardError,
    ConfigError,
    IllegalAction,
    IllegalBid,
    IllegalDeal,
    IllegalPlay,
    IllegalTrump,
    SpecError,
    TarneebError,
    WrongPhase,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "Bid", "CardError", "ConfigError", "Deal", "HandRecord", "IllegalAction", "IllegalBid",
    "IllegalDeal", "IllegalPlay", "IllegalTrump", "Match", "NameTrump", "Phase", "Play", "Rules", "Ruleset",
    "SeatView", "SpecError", "TarneebError", "WrongPhase", "card_str", "get_ruleset", "load_rules",
    "parse_action", "parse_card", "random_deck", "resolve_ruleset", "rulesets",
]
