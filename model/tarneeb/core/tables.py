"""Answers of the rule functions kept per rules object, for hot paths that ask the same question again: the
engine's legal bids and legal auction calls, the verifier's auctions.

A table belongs to one :class:`~tarneeb.core.spec.Rules` object and to the functions that decide its entries. When
one of those functions is replaced (the proofs' engine mutants patch :mod:`tarneeb.core.rules` by name), the table
starts empty again, so no answer of the old function is given after it. At most :data:`LIMIT` rules objects keep
tables (a long run loads rules afresh; the oldest tables are let go).
"""

from __future__ import annotations

from typing import TypeVar

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.spec import Rules

K = TypeVar("K")
V = TypeVar("V")
LIMIT = 16


def rules_table(store: dict[int, tuple[Rules, tuple[object, ...], dict[K, V]]], rules: Rules,
                deciders: tuple[object, ...]) -> dict[K, V]:
    """The table of ``store`` for ``rules`` (a new, empty one when ``deciders``, the functions deciding its entries,
    are not those it was filled with)."""
    entry = store.get(id(rules))
    if entry is None or entry[0] is not rules or entry[1] != deciders:
        if len(store) >= LIMIT:
            store.clear()
        entry = store[id(rules)] = (rules, deciders, {})
    return entry[2]


def bid_deciders() -> tuple[object, ...]:
    """What decides the legal individual bids (bid.range, bid.excluded, bid.rising-min)."""
    return (core_rules.legal_bids, core_rules.min_bid_for)


def call_deciders() -> tuple[object, ...]:
    """What decides whether one auction call is legal (auction.*)."""
    return (core_rules.auction_bid_violation, core_rules.dealer_forced, core_rules.bid_key)


def auction_deciders() -> tuple[object, ...]:
    """What decides a whole auction: its calls, whose turn it is, when it ends (auction.order)."""
    return (*call_deciders(), core_hand.auction_start, core_hand.auction_call, core_rules.auction_next, core_rules.next_seat)


__all__ = ["LIMIT", "auction_deciders", "bid_deciders", "call_deciders", "rules_table"]
