"""``tarneeb site OUT``: the rule pages and the web referee as a static site that rules in the browser, offline.

The site runs the engine itself under Pyodide (the npm package ``pyodide``, whose files go into the site; nothing
is loaded from another host) and caches itself with a service worker on the first visit. Any static host serves
it: copy OUT there (docs/guide/referee.rst says how). Needs Jinja2 (the ``serve`` extra) to render the pages, and
the npm package: ``npm install pyodide`` in the repository, or ``--pyodide DIR``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from tarneeb.cli.common import print_json
from tarneeb.errors import BadInput


def cmd_site(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("jinja2") is None:
        raise BadInput("'site' renders the pages with Jinja2, which is not installed: pip install 'tarneeb[serve]'")
    from tarneeb.offline.build import build_site

    built = build_site(Path(args.out), Path(args.pyodide) if args.pyodide else None)
    if args.json:
        print_json({"out": str(built.out), "version": built.version, "bytes": built.total, "files": built.files})
        return 0
    pages = sum(1 for n in built.files if n.endswith("index.html"))
    sys.stdout.write(f"site: wrote {len(built.files)} files ({pages} pages), {built.total / 1e6:.1f} MB, to {built.out}\n"
                     f"open {built.out / 'index.html'} from a web server, e.g. python -m http.server -d {built.out}\n")
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "site", help="write the rule pages and the referee as a static site that rules offline in the browser",
        description="Write a static site into OUT: the rule pages of every ruleset and the referee and record "
                    "check, in English and Arabic, answering in the browser with the engine itself (Pyodide), "
                    "cached for use without a network. A ruling's address is its link (#s= and the base64url of "
                    "the situation's TOML). Any static host serves OUT.")
    s.add_argument("out", metavar="OUT", help="the folder to write (created)")
    s.add_argument("--pyodide", metavar="DIR",
                   help="the npm package pyodide's folder (default: node_modules/pyodide here, above, or beside the "
                        "source tree; `npm install pyodide` puts it there)")
    s.add_argument("--json", action="store_true", help="print what was written as JSON (files and bytes)")
    s.set_defaults(func=cmd_site)
