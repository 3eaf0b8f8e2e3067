"""The ``tarneeb`` command line: :func:`build_parser` and :func:`main`.

One module per command in this package, each exposing ``register(subparsers)``;
the proof commands plug in through entry points (see :mod:`tarneeb.cli.registry`).
Every command has ``--json``; errors print one located message and exit 2,
never a traceback; Ctrl-C prints ``interrupted`` and exits 130.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tarneeb.errors import TarneebError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    from tarneeb.cli.registry import register_all

    p = argparse.ArgumentParser(prog="tarneeb", description="Reference model of the Tarneeb card games.")
    p.add_argument("--version", action="version", version=f"tarneeb {_version()}", help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True)
    register_all(sub)
    return p


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tarneeb")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        rc: int = args.func(args)
        return rc
    except TarneebError as e:
        print(f"tarneeb: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
