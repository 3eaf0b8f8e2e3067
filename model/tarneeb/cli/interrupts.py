"""Ctrl-C ends every command, wherever it arrives: :func:`interrupts_never_lost`.

Python's own handler raises KeyboardInterrupt wherever the main thread is; when that is a finaliser (Z3's
``AstRef.__del__``, run by the garbage collector at any point, while importing or building the proofs' checks as
well as while proving), the exception is printed as "Exception ignored" and lost, and the run went on to the end.
:func:`tarneeb.cli.main` runs every command inside :func:`interrupts_never_lost`, so an interrupt that arrives
inside a ``__del__`` is raised again a moment later, out of the finaliser.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = ["interrupts_held", "interrupts_never_lost"]

_ACTIVE: list[dict[str, bool]] = []  # the state of the outermost block in force (nested blocks share it)


@contextlib.contextmanager
def interrupts_never_lost() -> Iterator[dict[str, bool]]:
    """Ctrl-C while the block runs always ends it with KeyboardInterrupt.

    An interrupt that arrives inside a ``__del__`` is raised again 50 ms later (a one-shot SIGALRM timer; by then
    the finaliser has returned, else once more). ``state["pending"]`` stays true from the first Ctrl-C, for the
    caller to check between steps and to read an exception the same Ctrl-C turned into on its way as an interrupt.
    A block inside another shares the outer one's state and handlers. Only in the main thread (where signal
    handlers live); elsewhere the block runs unchanged. On leaving, the timer is stopped before the previous
    handlers are put back (a SIGALRM still pending then finds SIG_DFL, which Python's signal module skips)."""
    if _ACTIVE:
        yield _ACTIVE[-1]
        return
    state = {"pending": False, "holding": False}

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        state["pending"] = True
        if state["holding"]:  # raised when the held block ends (interrupts_held)
            return
        f = frame
        while f is not None:
            if f.f_code.co_name == "__del__":
                signal.setitimer(signal.ITIMER_REAL, 0.05)  # again in a moment, out of the finaliser
                return
            f = f.f_back
        raise KeyboardInterrupt

    try:
        old_int = signal.signal(signal.SIGINT, on_interrupt)
    except ValueError:  # not the main thread
        yield state
        return
    old_alarm = signal.signal(signal.SIGALRM, on_interrupt)
    old_hook = sys.unraisablehook

    def quiet_once_interrupted(u: Any) -> None:
        # once interrupted, the Z3 objects whose construction the interrupt cut short fail in their __del__
        # ("'BitVecSortRef' object has no attribute 'ctx'") when collected: noise after "interrupted", not news
        if not state["pending"]:
            old_hook(u)

    sys.unraisablehook = quiet_once_interrupted
    _ACTIVE.append(state)
    try:
        yield state
    finally:
        _ACTIVE.pop()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_alarm)
        signal.signal(signal.SIGINT, old_int)
        if not state["pending"]:  # interrupted: the process is ending, and those __del__ may run until it has
            sys.unraisablehook = old_hook


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Inside :func:`interrupts_never_lost`, a Ctrl-C while this block runs is raised when it ends, not inside it.

    For imports: an interrupt in the middle of one leaves a half-built module (Z3's bindings among them), and
    Python turns a KeyboardInterrupt raised inside a class statement's ``__set_name__`` into a RuntimeError. An
    import takes well under a second, so the command still stops at once. Outside such a block it runs
    unchanged."""
    if not _ACTIVE:
        yield
        return
    state = _ACTIVE[-1]
    outer = state["holding"]
    state["holding"] = True
    try:
        yield
    finally:
        state["holding"] = outer
    if not outer and state["pending"]:
        raise KeyboardInterrupt
