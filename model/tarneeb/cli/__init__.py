"""The ``tarneeb`` command line: :func:`build_parser` and :func:`main`.

One module per command in this package, each exposing ``register(subparsers)``;
the proof commands plug in through entry points (see :mod:`tarneeb.cli.registry`).
Every command has ``--json``; errors print one located message and exit 2,
never a traceback; Ctrl-C prints ``interrupted`` and exits 130.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from tarneeb.errors import TarneebError, did_you_mean, shorten

__all__ = ["Parser", "build_parser", "main"]


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose answer to a value that is none of the choices (a command, ``--policy``, ``--lang``)
    names the one meant when it is close, in words rather than Python's quoted lists. Each command's parser is one
    too (``add_subparsers`` makes its parsers of the class of the parser it is called on)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            names = [str(c) for c in choices]
            what = "command" if action.dest.endswith("command") else "choice"
            raise argparse.ArgumentError(action, f"{shorten(value)} is not a {what}{did_you_mean(str(value), names)} "
                                                 f"(the {what}s: {', '.join(names)})")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; ``command`` (a built-in command's name): only that command is registered,
    so that running it imports nothing the other commands need (the start-up of ``tarneeb verify``)."""
    p = Parser(prog="tarneeb", description="Reference model of the Tarneeb card games.")
    p.add_argument("--version", action=_Version, help="print the version and which build of the engine runs, and exit")
    sub = p.add_subparsers(dest="command", required=True)
    if command is not None and command in _BUILTIN_NAMES:
        import importlib

        importlib.import_module(f"tarneeb.cli.{_BUILTIN_NAMES[command]}").register(sub)
    else:
        from tarneeb.cli.registry import register_all

        register_all(sub)
    return p


# the built-in commands by name -> their module in this package (tarneeb.cli.registry.BUILTIN; a test keeps them equal)
_BUILTIN_NAMES = {"rulesets": "rulesets", "show": "show", "simulate": "simulate", "demo": "demo", "record": "record",
                  "verify": "verify", "vectors": "vectors", "fuzz": "fuzz", "rules": "rules", "ruling": "ruling",
                  "score": "score", "new-ruleset": "new_ruleset", "serve": "serve", "stats": "stats", "site": "site"}


class _Version(argparse.Action):
    """``--version``: the version and, in the same line, whether the engine's core runs compiled or pure (looked up
    only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from tarneeb.compiled import build

        print(f"tarneeb {_version()}, {build()}")
        parser.exit()


# the commands that run the engine's pure Python source even where the compiled build is installed: the proofs
# execute its functions on symbolic values and digest their code (tarneeb.compiled)
PURE_COMMANDS = ("prove", "diff")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tarneeb")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    from tarneeb.cli.interrupts import interrupts_never_lost

    state = {"pending": False}
    try:
        with interrupts_never_lost() as state:  # a Ctrl-C that meets a finaliser is raised again, never lost
            argl = list(sys.argv[1:] if argv is None else argv)
            if argl and argl[0] in PURE_COMMANDS:
                from tarneeb.compiled import use_pure

                os.environ["TARNEEB_PURE"] = "1"  # for the worker processes too
                use_pure()  # before any command module imports the core
            args = build_parser(argl[0] if argl else None).parse_args(argl)
            rc: int = args.func(args)
            return rc
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if state["pending"]:
            # the Ctrl-C turned into another exception on its way: Python wraps one raised inside a class
            # statement's __set_name__ in a RuntimeError, so an interrupt while a module is being imported can
            # come out as "Error calling __set_name__"
            print("interrupted", file=sys.stderr)
            return 130
        if isinstance(e, TarneebError):
            print(f"tarneeb: error: {e}", file=sys.stderr)
            return 2
        if isinstance(e, BrokenPipeError):
            return 0
        raise


if __name__ == "__main__":
    sys.exit(main())
