"""Which commands ``tarneeb`` has, in what order, and where each comes from.

Built-in commands are the modules of this package, one per command, each
exposing ``register(subparsers)``. Commands from other packages plug in through
the ``tarneeb.commands`` entry point group: each entry point names a
``register(subparsers)`` function (pyproject.toml declares ``prove`` and
``diff`` from ``tarneeb_proofs``), so the engine never imports the proofs
package by name. A plug-in that cannot load because a dependency is missing
(z3 uninstalled, or the package installed without its dependencies) still appears in ``tarneeb --help``; running
it prints one line saying what to install and exits 2.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from tarneeb.cli.demo import register as register_demo
from tarneeb.cli.fuzz import register as register_fuzz
from tarneeb.cli.interrupts import interrupts_held
from tarneeb.cli.new_ruleset import register as register_new_ruleset
from tarneeb.cli.record import register as register_record
from tarneeb.cli.rules import register as register_rules
from tarneeb.cli.rulesets import register as register_rulesets
from tarneeb.cli.ruling import register as register_ruling
from tarneeb.cli.score import register as register_score
from tarneeb.cli.serve import register as register_serve
from tarneeb.cli.show import register as register_show
from tarneeb.cli.simulate import register as register_simulate
from tarneeb.cli.site import register as register_site
from tarneeb.cli.stats import register as register_stats
from tarneeb.cli.vectors import register as register_vectors
from tarneeb.cli.verify import register as register_verify
from tarneeb.errors import BadInput

GROUP = "tarneeb.commands"

Register = Callable[[Any], None]

BUILTIN: dict[str, Register] = {
    "rulesets": register_rulesets, "show": register_show, "simulate": register_simulate, "demo": register_demo,
    "record": register_record, "verify": register_verify, "vectors": register_vectors, "fuzz": register_fuzz,
    "rules": register_rules, "ruling": register_ruling, "score": register_score, "new-ruleset": register_new_ruleset,
    "serve": register_serve,
    "stats": register_stats, "site": register_site,
}


@dataclass(frozen=True)
class Plugin:
    """A plug-in command the engine expects: the module it needs, how to install that, and its one-line help."""

    needs: str
    install: str
    help: str


# listed in `tarneeb --help` even when they cannot load (their help text is the plug-in's own; a test keeps them equal)
KNOWN_PLUGINS: dict[str, Plugin] = {
    "prove": Plugin("z3", "pip install z3-solver", "run the Z3 proofs of the invariants (and their mutants) against the manifest"),
    "diff": Plugin("z3", "pip install z3-solver",
                   "find situations where two rulesets rule differently (Z3), with the smallest witness"),
}

# the order of `tarneeb --help` (and of the generated CLI page); plug-ins not named here follow, by name
ORDER = ("rulesets", "show", "simulate", "stats", "demo", "prove", "record", "verify", "vectors", "fuzz", "rules", "ruling",
         "score", "diff", "new-ruleset", "serve", "site")


class CommandUnavailable(BadInput):
    """A plug-in command that is listed but cannot run here (a dependency is not installed)."""


def plugin_entry_points() -> dict[str, EntryPoint]:
    """The ``tarneeb.commands`` entry points installed, by command name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def register_all(subparsers: Any) -> None:
    """Add every command to ``subparsers``, in :data:`ORDER`."""
    eps = plugin_entry_points()
    names = list(ORDER) + sorted(n for n in eps if n not in ORDER and n not in BUILTIN)
    for name in names:
        if name in BUILTIN:
            BUILTIN[name](subparsers)
        else:
            register_plugin(subparsers, name, eps.get(name))


def register_plugin(subparsers: Any, name: str, ep: EntryPoint | None) -> None:
    """Load one plug-in and let it register; when it cannot load for a missing module, register a stand-in."""
    known = KNOWN_PLUGINS.get(name)
    if ep is None:
        if known is not None:
            _stand_in(subparsers, name, known.help, _needs(name, known, f"no {GROUP} entry point provides it",
                                                             "reinstall tarneeb: pip install --force-reinstall tarneeb"))
        return
    try:
        with interrupts_held():  # a Ctrl-C waits for the import to end (see interrupts_held)
            register: Register = ep.load()
    except ModuleNotFoundError as e:
        if not _is_missing_dependency(e, ep.module):
            raise  # a module of our own packages is missing: a bug, not an install choice
        reason = f"{e.name} is not installed"
        msg = _needs(name, known, reason) if known is not None else f"{name} cannot run ({reason}; plug-in {ep.value})"
        _stand_in(subparsers, name, known.help if known is not None else f"(unavailable: {reason})", msg)
        return
    register(subparsers)


def _needs(name: str, plugin: Plugin, reason: str, fix: str = "") -> str:
    return f"{name} needs {plugin.needs} ({reason}): {fix or plugin.install}"


def _is_missing_dependency(e: ModuleNotFoundError, module: str) -> bool:
    """Whether the missing module is the plug-in's package itself or a third-party dependency (z3),
    rather than a module inside the engine or the plug-in's own package."""
    if e.name is None:
        return False
    if module == e.name or module.startswith(e.name + "."):
        return True  # the plug-in's package (or module) is not installed
    own = {"tarneeb", module.split(".")[0]}
    return e.name.split(".")[0] not in own


def _stand_in(subparsers: Any, name: str, help: str, message: str) -> None:
    # takes any arguments (also -h): whatever is asked, the answer is what to install
    s = subparsers.add_parser(name, help=help, description=message, add_help=False, prefix_chars="\0")
    s.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    s.set_defaults(func=functools.partial(_unavailable, message))


def _unavailable(message: str, args: argparse.Namespace) -> int:
    raise CommandUnavailable(message)
