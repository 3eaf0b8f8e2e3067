"""A ruling's arithmetic as a value (:class:`Math`): the shape of the comparison or sum that decides it and its
terms (numbers, seats 0..3, cards and suits as the core counts them), produced once by the deciding modules and
rendered from the terms: :func:`line`, the line programs read (the JSON's ``math``, ``combined 41+10 = 51, 50+1 =
51: 51 = 51``); :func:`tarneeb.ruling.math_words.math_words`, the same in English words; and
:func:`tarneeb.ruling.arabic.math_ar`, in Arabic. No renderer reads another's text back.

The shapes (:data:`SHAPES`), each with its terms:

* ``not-in-turn`` ``seat``, ``turn`` (and ``inner``: whose turn, and why);
* ``range`` ``lowest``, ``bid``, ``highest``; ``excluded`` ``bid``, ``bids``; ``rising-min`` ``score``, ``lowest``,
  ``bid``; ``total`` ``bids``, ``total``, ``minimum``, ``met`` (the hand is played);
* ``changes`` ``before``, ``deltas``, ``after`` (each seat's score change); ``contract-score`` ``team``, ``took``,
  ``bid``, ``made``, ``before``, ``deltas``, ``after`` (the two teams'); ``seat-score`` ``took``, ``bid``,
  ``made``, ``delta``, ``value`` (a bid worth another number than its own, else None), ``before`` (None when not given);
* ``qualify`` ``teams`` (per team: the higher and the lower partner's score, whether each passes, whether the team
  qualifies) and ``target``; ``reached`` ``scores``, ``reached``, ``target``; ``combined`` ``scores``, ``keys``; ``top``
  ``scores``, ``keys``;
* ``trump-turned`` ``card``, ``trump``; ``leader`` ``seat``; ``follows`` ``card``, ``led``; ``void`` and
  ``void-holds-trump`` ``seat``, ``led``; ``holds`` ``seat``, ``led``; ``trick`` ``played`` ((seat, card) in play
  order), ``card``; ``won-trick`` ``seat``; ``trick-leader`` ``trick``, ``seat``; ``bidding-order`` and
  ``play-order`` ``seats``; ``deals`` ``steps`` ((deal from 1, dealer, "played", "cancelled" or "", next dealer));
  ``revoke`` ``trick``, ``led``, ``seat``, ``card``, ``trump`` (the proof is a trump), ``proof``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tarneeb.core.cards import SUIT_NAMES, card_str, player_name, strain_name, team_label

SHAPES = ("not-in-turn", "range", "excluded", "rising-min", "total", "changes", "contract-score", "seat-score",
          "qualify", "reached", "combined", "top", "trump-turned", "leader", "follows", "void", "void-holds-trump",
          "holds", "trick", "won-trick", "trick-leader", "bidding-order", "play-order", "deals", "revoke")


@dataclass(frozen=True, slots=True)
class Math:
    """A ruling's arithmetic: its shape (one of :data:`SHAPES`; "" for none) and its terms by name."""

    shape: str = ""
    terms: tuple[tuple[str, Any], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.shape)

    def __getitem__(self, name: str) -> Any:
        return dict(self.terms)[name]

    def __str__(self) -> str:
        return line(self)


NONE = Math()


def math(shape: str, **terms: Any) -> Math:
    """The arithmetic of ``shape`` with its ``terms`` (see the module docstring)."""
    if shape not in SHAPES:
        raise ValueError(f"an arithmetic of an unknown shape {shape!r}")
    return Math(shape, tuple(terms.items()))


def cmp(a: int, b: int) -> str:
    """The sign comparing ``a`` with ``b``: ``=``, ``<`` or ``>``."""
    return "=" if a == b else ("<" if a < b else ">")


def change(before: int, d: int, after: int | None = None) -> str:
    """``20 + 5 = 25``: a score, its change and the score after it (by default ``before + d``)."""
    return f"{before} {'+' if d >= 0 else '-'} {abs(d)} = {before + d if after is None else after}"


def _suit(s: int) -> str:
    return SUIT_NAMES[s][:-1]


def _qualify_part(t: int, part: tuple[int, bool, int, bool, bool], target: int) -> str:
    hi, at, lo, above, q = part
    return (f"{team_label(t)}: {hi} {'>=' if at else '<'} {target} and {lo} {'> 0' if above else '<= 0'}: "
            f"{'qualifies' if q else 'does not qualify'}")


def line(m: Math) -> str:
    """The arithmetic as programs read it (the JSON's ``math``); "" for none."""
    s, t = m.shape, dict(m.terms)
    if not s:
        return ""
    if s == "not-in-turn":
        inner = t.get("inner")
        return f"{player_name(t['seat'])} != {player_name(t['turn'])}" + (f" ({line(inner)})" if inner else "")
    if s == "range":
        return f"{t['lowest']} <= {t['bid']} <= {t['highest']}"
    if s == "excluded":
        return f"{t['bid']} is among the excluded bids {list(t['bids'])}"
    if s == "rising-min":
        return f"score {t['score']}: lowest bid {t['lowest']}; {t['bid']} {'>=' if t['bid'] >= t['lowest'] else '<'} " \
               f"{t['lowest']}"
    if s == "total":
        return f"{'+'.join(str(b) for b in t['bids'])} = {t['total']} {'>=' if t['met'] else '<'} {t['minimum']}"
    if s == "changes":
        return ", ".join(change(b, d, a) for b, d, a in zip(t["before"], t["deltas"], t["after"], strict=True))
    if s == "contract-score":
        (b0, b1), (d0, d1), (a0, a1) = t["before"], t["deltas"], t["after"]
        return (f"{team_label(t['team'])} took {t['took']} {'>=' if t['made'] else '<'} {t['bid']}; "
                f"{team_label(0)} {change(b0, d0, a0)}, {team_label(1)} {change(b1, d1, a1)}")
    if s == "seat-score":
        d = t["delta"]
        out = f"took {t['took']} {'>=' if t['made'] else '<'} bid {t['bid']}: {'+' if d > 0 else ''}{d}"
        if t["value"] is not None:
            out += f" (a bid of {t['bid']} is worth {t['value']})"
        return out + (f"; {change(t['before'], d)}" if t["before"] is not None else "")
    if s == "qualify":
        return "; ".join(_qualify_part(k, p, t["target"]) for k, p in enumerate(t["teams"]))
    if s == "reached":
        return "; ".join(f"{team_label(k)}: {v} {'>=' if r else '<'} {t['target']}"
                         for k, (v, r) in enumerate(zip(t["scores"], t["reached"], strict=True)))
    if s == "combined":
        sc, (a, b) = t["scores"], t["keys"]
        return f"combined {sc[0]}+{sc[2]} = {a}, {sc[1]}+{sc[3]} = {b}: {a} {cmp(a, b)} {b}"
    if s == "top":
        sc, (a, b) = t["scores"], t["keys"]
        return f"top score {a} (of {sc[0]}, {sc[2]}) {cmp(a, b)} {b} (of {sc[1]}, {sc[3]})"
    if s == "trump-turned":
        c = t["card"]
        return f"turned {card_str(c)} ({SUIT_NAMES[c // 13]}) -> trump {strain_name(t['trump'])}"
    if s == "leader":
        return f"leader = {player_name(t['seat'])}"
    if s == "follows":
        return f"{card_str(t['card'])} is a {_suit(t['led'])}, the led suit"
    if s in ("void", "void-holds-trump"):
        return f"{player_name(t['seat'])} is void in {SUIT_NAMES[t['led']]}" + \
            (" and holds a trump" if s == "void-holds-trump" else "")
    if s == "holds":
        return f"{player_name(t['seat'])} holds a {_suit(t['led'])}"
    if s == "trick":
        order = " ".join(f"{card_str(c)}({player_name(p)})" for p, c in t["played"])
        return f"{order}: {card_str(t['card'])} wins"
    if s == "won-trick":
        return f"winner of the trick = {player_name(t['seat'])}"
    if s == "trick-leader":
        return f"trick {t['trick']}: leader = {player_name(t['seat'])}"
    if s in ("bidding-order", "play-order"):
        return ("order " if s == "bidding-order" else "") + "players " + " -> ".join(str(x + 1) for x in t["seats"])
    if s == "deals":
        return "; ".join(f"deal {n} by {player_name(d)}{' ' + how if how else ''} -> {player_name(nxt)}"
                         for n, d, how, nxt in t["steps"])
    if s == "revoke":
        what = f"a trump ({card_str(t['proof'])})" if t["trump"] else f"a {_suit(t['led'])} ({card_str(t['proof'])})"
        return f"trick {t['trick']}: {_suit(t['led'])} led, {player_name(t['seat'])} played {card_str(t['card'])} " \
               f"while holding {what}"
    raise ValueError(f"an arithmetic of an unknown shape {s!r}")


__all__ = ["NONE", "SHAPES", "Math", "change", "cmp", "line", "math"]
