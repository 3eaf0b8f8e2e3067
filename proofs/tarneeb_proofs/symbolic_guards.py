"""The guards of an exploration (:mod:`tarneeb_proofs.symbolic`): while the engine's code runs on symbolic values,
its modules see guarded introspection names (``type``, ``isinstance``, ``issubclass``, ``id``), a model of
``bytes()`` and their tables of ints indexed by a term; a symbolic value passed to Python code outside the engine,
or engine code reading ``__class__``, is refused. Everything is put back when the exploration ends.
"""

from __future__ import annotations

import builtins
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, Final

import z3

from .symbolic_values import SymBool, SymInt, Term, Unsupported, is_sym, untraced, wrap

ENGINE: Final = "tarneeb"  # the package whose code is explored (tarneeb_proofs is the prover, not the engine)

_INTROSPECTION: Mapping[str, Any] = MappingProxyType({"type": builtins.type, "isinstance": builtins.isinstance,
                                                     "issubclass": builtins.issubclass, "id": builtins.id})


def _stand_in(x: Any) -> Any:
    """What a symbolic value is in the proof's domain: an int (SymInt) or a bool (SymBool)."""
    return True if isinstance(x, SymBool) else 0 if isinstance(x, SymInt) else x


def _guarded(name: str, real: Any) -> Any:
    """``type`` / ``isinstance`` answer for a symbolic value what they answer for every value of its domain (a
    SymInt stands for an int, never a bool; a SymBool for a bool); ``id`` of one is refused."""
    def g(*args: Any, **kw: Any) -> Any:
        if any(is_sym(a) for a in args):
            if name == "id":
                raise Unsupported("id() of a symbolic value in engine code")
            return real(*[_stand_in(a) for a in args], **kw)
        return real(*args, **kw)
    g.__name__ = name
    return g


def _bytes_model(x: Any = b"", *rest: Any) -> Any:
    """``bytes(x)``, and for a list or tuple holding symbolic numbers a model of it: each element must be an int
    0..255 (a fork; else ValueError, as CPython raises); the result is a tuple of the elements (indexing and
    slicing it give them back, as bytes give ints)."""
    if rest or type(x) not in (list, tuple) or not any(is_sym(e) for e in x):
        return builtins.bytes(x, *rest)
    out = []
    for e in x:
        if is_sym(e):
            if not (e >= 0 and e <= 255):
                raise ValueError("bytes must be in range(0, 256)")
            out.append(e)
        else:
            out.append(builtins.bytes([e])[0])
    return tuple(out)


class _Table(tuple):  # type: ignore[type-arg]
    """A module-level table of ints (``SUIT_MASKS``, a card-bit table) as seen while exploring: indexing it with a
    symbolic number gives the entry as a term (an if-then-else over the entries) instead of forking on every
    index; any other use is the tuple's own. The engine's table is put back after the exploration."""

    _terms: Any

    @untraced
    def __getitem__(self, i: Any) -> Any:
        if not isinstance(i, SymInt):
            return tuple.__getitem__(self, i)
        n = len(self)
        if not (i >= -n and i < n):
            raise IndexError("tuple index out of range")
        vals = list(tuple.__iter__(self))
        t = i.t
        w = max(max(v.bit_length() for v in vals), 1)
        # the entries are non-negative ints: a bit-vector of their width, chosen by the index
        if z3.is_bv(t):  # a bit-vector index is never negative; only the entries it can reach
            k_lo, k_hi = 0, min(n, 2 ** int(t.size()))
        else:  # an integer index may count from the end, as in Python
            k_lo, k_hi = -n, n
        out: Term = z3.BitVecVal(vals[(k_hi - 1) % n], w)
        for k in range(k_hi - 2, k_lo - 1, -1):
            out = z3.If(t == k, z3.BitVecVal(vals[k % n], w), out)
        return wrap(out)


def _is_int_table(v: Any) -> bool:
    return (type(v) in (tuple, list) and len(v) >= 2 and all(type(x) is int and x >= 0 for x in v))


_SHADOWS: Mapping[str, Any] = MappingProxyType({**{n: _guarded(n, f) for n, f in _INTROSPECTION.items()},
                                                "bytes": _bytes_model})
_ALIASES: Mapping[int, str] = MappingProxyType({id(f): n for n, f in _INTROSPECTION.items()})
_MARK: Final = "__tarneeb_symbolic_guard__"


def _engine_name(name: object) -> bool:
    return isinstance(name, str) and (name == ENGINE or name.startswith(ENGINE + "."))


def _is_engine(g: dict[str, Any]) -> bool:
    return _engine_name(g.get("__name__", ""))


@contextmanager
def guards(executed: dict[int, tuple[types.CodeType, dict[str, Any]]] | None = None, hook: bool = True
           ) -> Iterator[Callable[[Callable[[], Any]], Any]]:
    """While exploring: engine modules see guarded introspection names, the bytes() model and symbolic tables.
    Gives ``watched``: ``watched(fn)`` runs ``fn()`` (a run of the engine's code) under the hook, which refuses a
    symbolic value passed to Python code outside the engine, or engine code reading ``__class__``, and collects in
    ``executed`` the engine code that ran (id -> (code object, the globals it ran with)). ``hook``: off only to
    profile the explorer itself."""
    installed: list[tuple[dict[str, Any], dict[str, Any]]] = []
    kinds: dict[int, int] = {}  # id(module globals) -> 1 engine, 2 prover or z3, 0 other
    seen_code: set[int] = set()

    def install(g: dict[str, Any]) -> None:
        if g.get(_MARK):
            return
        before = {n: g[n] for n in _SHADOWS if n in g}
        installed.append((g, before))
        g.update(_SHADOWS)
        g[_MARK] = True
        for n, v in list(g.items()):
            if type(v) in (tuple, list):  # tables of non-negative ints, indexed symbolically (see _Table)
                if _is_int_table(v) and not n.startswith("__"):
                    before.setdefault(n, v)
                    g[n] = _Table(v)
            elif n not in _SHADOWS:  # a module-level alias of an introspection builtin (``_type = type``)
                real_name = _ALIASES.get(id(v))
                if real_name is not None and v is _INTROSPECTION[real_name]:
                    before.setdefault(n, v)
                    g[n] = _SHADOWS[real_name]

    def kind(g: dict[str, Any]) -> int:
        k = kinds.get(id(g))
        if k is None:
            name = str(g.get("__name__", ""))
            k = 1 if _is_engine(g) else 2 if name.startswith(("tarneeb_proofs", "z3")) else 0
            kinds[id(g)] = k
            if k == 1:
                install(g)
        return k

    for name, mod in list(sys.modules.items()):  # the engine's loaded modules, before anything runs
        if mod is not None and _engine_name(name) and _is_engine(vars(mod)):
            kind(vars(mod))

    def profile(frame: types.FrameType, event: str, arg: Any) -> None:
        if event != "call":  # (a trace function is called for new frames only; kept for safety)
            return
        k = kinds.get(id(frame.f_globals))
        if k == 2:
            return
        if k is None:
            k = kind(frame.f_globals)
            if k == 2:
                return
        if k == 1:
            code = frame.f_code
            if id(code) not in seen_code:
                seen_code.add(id(code))
                if "__class__" in code.co_names:
                    raise Unsupported(f"{code.co_name} reads an attribute __class__")
                if executed is not None:
                    executed[id(code)] = (code, frame.f_globals)
            return
        back = frame.f_back
        if back is None or kinds.get(id(back.f_globals)) != 1:
            return
        for v in frame.f_locals.values():  # Python code outside the engine, called by the engine
            if is_sym(v) or (isinstance(v, (list, tuple)) and any(is_sym(e) for e in v[:64])):
                raise Unsupported(f"a symbolic value passed to {frame.f_globals.get('__name__')}."
                                  f"{frame.f_code.co_name}")

    # a trace function, not a profile function: Python calls it for each new frame only ("call"), where a profile
    # function is called for every return and every call into C as well (a third of an exploration's time, spent
    # in z3's bindings); it returns None, so no frame is traced line by line. It is on only while the engine's code
    # runs, and off again in what that code calls of the prover (symbolic_values.untraced)
    def watched(fn: Callable[[], Any]) -> Any:
        if not hook:
            return fn()
        old = sys.gettrace()
        sys.settrace(profile)
        try:
            return fn()
        finally:
            sys.settrace(old)

    try:
        yield watched
    finally:
        for g, before in reversed(installed):
            for n in (*_SHADOWS, _MARK):
                g.pop(n, None)
            g.update(before)


__all__ = ["ENGINE", "guards"]
