"""tarneeb: an executable reference model of the Tarneeb family of card games.

Rulesets are data (``spec/rulesets/*.toml``); :func:`load_rules` resolves one
with its options, and :class:`Match` plays it as a replayable list of actions.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# where each name of the package's interface lives; imported on first use, so that ``import tarneeb.cli`` runs
# no engine code before ``main`` is in charge (Ctrl-C at any point after start-up is one line, exit 130)
_WHERE = {
    **dict.fromkeys(["Action", "Bid", "Deal", "NameTrump", "Play", "parse_action"], "tarneeb.core.actions"),
    **dict.fromkeys(["card_str", "parse_card"], "tarneeb.core.cards"),
    **dict.fromkeys(["HandRecord", "Match", "Phase", "SeatView", "random_deck"], "tarneeb.core.match"),
    **dict.fromkeys(["Rules", "Ruleset", "get_ruleset", "load_rules", "resolve_ruleset", "rulesets"],
                    "tarneeb.core.spec"),
    **dict.fromkeys(["CardError", "ConfigError", "IllegalAction", "IllegalBid", "IllegalDeal", "IllegalPlay",
                     "IllegalTrump", "SpecError", "TarneebError", "WrongPhase"], "tarneeb.errors"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'tarneeb' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

# TARNEEB_PURE=1 at run time: the core's pure Python source runs even where its compiled build is installed
# (tarneeb.compiled)
if os.environ.get("TARNEEB_PURE", "") not in ("", "0"):
    from tarneeb.compiled import use_pure

    use_pure()

__all__ = [
    "Action", "Bid", "CardError", "ConfigError", "Deal", "HandRecord", "IllegalAction", "IllegalBid",
    "IllegalDeal", "IllegalPlay", "IllegalTrump", "Match", "NameTrump", "Phase", "Play", "Rules", "Ruleset",
    "SeatView", "SpecError", "TarneebError", "WrongPhase", "card_str", "get_ruleset", "load_rules",
    "parse_action", "parse_card", "random_deck", "resolve_ruleset", "rulesets",
]
