"""A ruling's arithmetic (:class:`tarneeb.ruling.arithmetic.Math`) in English words for people: the comparison
``team 1: 45 >= 41 and 0 <= 0: does not qualify`` (the JSON's ``math``) reads ``team 1 does not qualify: 45 is at
least 41 and 0 is at most 0``.

It says the same comparison, number for number, in words, from the arithmetic's terms: comparison signs become
words, ``player 4 != player 3`` says who is in turn, ``leader = player 2`` who leads, lists lose their brackets,
arrows become "then". Sums stay sums (``41+10 = 51``). The JSON keeps ``math`` and adds these words as
``math_words``.
"""

from __future__ import annotations

from tarneeb.core.cards import SUIT_NAMES, card_str, player_name, strain_name, team_label
from tarneeb.ruling.arithmetic import Math, change, cmp, line

_CMP_WORDS = {">=": "is at least", "<=": "is at most", "!=": "is not", "<": "is below", ">": "is above",
              "=": "equals"}


def _list(items: list[str]) -> str:
    """["1", "2", "3"] as "1, 2 and 3"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _is(a: object, sign: str, b: object) -> str:
    """``45 is at least 41``."""
    return f"{a} {_CMP_WORDS[sign]} {b}"


def _ge(ok: bool) -> str:
    return ">=" if ok else "<"


def _players(seats: tuple[int, ...]) -> str:
    return ", then ".join(str(x + 1) for x in seats)


def math_words(m: Math) -> str:
    """``m`` in English words ("" for none); see the module docstring."""
    s, t = m.shape, dict(m.terms)
    if not s:
        return ""
    if s == "not-in-turn":
        inner = t.get("inner")
        return f"{player_name(t['seat'])} is not in turn: it is {player_name(t['turn'])}'s turn" + \
            (f" ({math_words(inner)})" if inner else "")
    if s == "range":
        return f"{t['bid']} is between {t['lowest']} and {t['highest']}"
    if s == "excluded":
        return f"{t['bid']} is among the excluded bids {_list([str(b) for b in t['bids']]) or 'none'}"
    if s == "rising-min":
        return f"with a score of {t['score']} the lowest bid is {t['lowest']}; " \
               f"{_is(t['bid'], _ge(t['bid'] >= t['lowest']), t['lowest'])}"
    if s == "total":
        return f"{'+'.join(str(b) for b in t['bids'])} = {_is(t['total'], _ge(t['met']), t['minimum'])}"
    if s == "contract-score":
        (b0, b1), (d0, d1), (a0, a1) = t["before"], t["deltas"], t["after"]
        return (f"{team_label(t['team'])} took {t['took']}, which {_CMP_WORDS[_ge(t['made'])]} the bid of {t['bid']}; "
                f"{team_label(0)}: {change(b0, d0, a0)}, {team_label(1)}: {change(b1, d1, a1)}")
    if s == "seat-score":
        d = t["delta"]
        out = f"took {t['took']}, which {_CMP_WORDS[_ge(t['made'])]} the bid of {t['bid']}: {'+' if d > 0 else ''}{d}"
        if t["value"] is not None:
            out += f" (a bid of {t['bid']} is worth {t['value']})"
        return out + (f"; {change(t['before'], d)}" if t["before"] is not None else "")
    if s == "qualify":
        return "; ".join(f"{team_label(k)} {'qualifies' if q else 'does not qualify'}: "
                         f"{_is(hi, _ge(at), t['target'])} and {_is(lo, '>' if above else '<=', 0)}"
                         for k, (hi, at, lo, above, q) in enumerate(t["teams"]))
    if s == "reached":
        return "; ".join(f"{team_label(k)}: {_is(v, _ge(r), t['target'])}"
                         for k, (v, r) in enumerate(zip(t["scores"], t["reached"], strict=True)))
    if s == "combined":
        sc, (a, b) = t["scores"], t["keys"]
        return f"the combined scores are {sc[0]}+{sc[2]} = {a}, {sc[1]}+{sc[3]} = {b}: {_is(a, cmp(a, b), b)}"
    if s == "top":
        sc, (a, b) = t["scores"], t["keys"]
        sign = cmp(a, b)
        return f"the top score {a} (of {sc[0]}, {sc[2]}) {'=' if sign == '=' else _CMP_WORDS[sign]} {b} " \
               f"(of {sc[1]}, {sc[3]})"
    if s == "trump-turned":
        c = t["card"]
        return f"the turned card {card_str(c)} is a {SUIT_NAMES[c // 13][:-1]}, so trump is {strain_name(t['trump'])}"
    if s == "leader":
        return f"{player_name(t['seat'])} leads"
    if s == "trick":
        return ", ".join(f"{card_str(c)} by {player_name(p)}" for p, c in t["played"]) + f": {card_str(t['card'])} wins"
    if s == "won-trick":
        return f"{player_name(t['seat'])} wins the trick"
    if s == "trick-leader":
        return f"{player_name(t['seat'])} leads trick {t['trick']}"
    if s == "bidding-order":
        return f"the bidding order is players {_players(t['seats'])}"
    if s == "play-order":
        return f"the play goes to players {_players(t['seats'])}"
    if s == "deals":
        return "; ".join(f"deal {n} by {player_name(d)}{' ' + how if how else ''}, so {player_name(nxt)} deals next"
                         for n, d, how, nxt in t["steps"])
    return line(m)  # the sums of score changes, a card and its suit, a revoke: said as they are written


__all__ = ["math_words"]
