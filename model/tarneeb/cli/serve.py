"""``tarneeb serve``: the referee, record checks and rule pages as a local web app (needs the ``serve`` extra).

Binds 127.0.0.1 by default and prints the address; ``--port 0`` takes a free port. No database: every page is
computed from the spec files. Ctrl-C prints one line and exits 130.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from typing import Any

from tarneeb.cli.common import count_arg, print_json
from tarneeb.errors import BadInput

DEFAULT_PORT = 8041
NEEDS = {"starlette": "starlette", "uvicorn": "uvicorn", "jinja2": "jinja2", "multipart": "python-multipart"}  # module: package


class ServeUnavailable(BadInput):
    """The web framework is not installed."""


def _check_installed() -> None:
    import importlib.util

    missing = [pkg for mod, pkg in NEEDS.items() if importlib.util.find_spec(mod) is None]
    if missing:
        raise ServeUnavailable(f"'serve' needs the serve extra ({', '.join(missing)} not installed): "
                               "pip install 'tarneeb[serve]'")


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise BadInput(f"--port {port}: the port is in use on {host}; pass another, or --port 0 for a free one") from None
        raise BadInput(f"--host {host} --port {port}: cannot listen there: {e.strerror or e}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    _check_installed()
    import uvicorn

    from tarneeb.serve.app import QuietErrors, create_app

    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if args.json:
        print_json({"url": url, "host": host, "port": port, "max_upload": args.max_upload_kib * 1024})
    else:
        print(f"tarneeb serve: {url} (English {url}en/, Arabic {url}ar/); Ctrl-C stops", flush=True)
    sys.stdout.flush()
    config = uvicorn.Config(QuietErrors(create_app(max_upload=args.max_upload_kib * 1024)), log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])  # on Ctrl-C uvicorn stops, then raises KeyboardInterrupt: main prints one line, 130
    return 0


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "serve", help="the referee, record checks and rule pages as a local web app (English and Arabic)",
        description="Start a local web app: pick rulesets and describe a situation (card picker, scores, bids) for "
                    "a cited ruling; paste or upload game records to see each divergence; read each ruleset's rules. "
                    "Needs the serve extra: pip install 'tarneeb[serve]'.")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    s.add_argument("--port", type=count_arg(0), default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    s.add_argument("--max-upload-kib", type=count_arg(1), default=2048,
                   help="largest request accepted, upload included, in KiB (default 2048)")
    s.add_argument("--json", action="store_true", help="print the address as one JSON object instead of a sentence")
    s.set_defaults(func=cmd_serve)
