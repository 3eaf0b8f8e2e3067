"""``tarneeb serve``: the referee, record checks and rule pages as a local web app (needs the ``serve`` extra).

Binds 127.0.0.1 by default and prints the address; ``--port 0`` takes a free port. No database: every page is
computed from the spec files. ``--workers N`` (default: one per core) answers in N processes (uvicorn's supervisor
restarts one that dies), on Linux each listening on a socket of its own on the port (SO_REUSEPORT: the kernel
spreads the connections over them), elsewhere sharing one; ``--workers 1`` is one process. Ctrl-C prints one line
and exits 130.
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
from typing import Any

from tarneeb.cli.common import count_arg, print_json
from tarneeb.errors import BadInput, os_error_words

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


def _bind(host: str, port: int, listen: bool = True) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP named: asyncio then sets TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise BadInput(f"--port {port}: the port is in use on {host}; pass another, or --port 0 for a free one") from None
        raise BadInput(f"--host {host} --port {port}: cannot listen there: {os_error_words(e)}") from None
    if listen:
        sock.listen(128)
    sock.set_inheritable(True)
    return sock


# Each worker of `--workers N` (N > 1) listens on a socket of its own, all bound to the address with SO_REUSEPORT,
# where Linux spreads the new connections over them. On one socket shared by the workers, the first to wake took a
# whole burst: 16 keep-alive connections opened at once went 16 to one worker and none to the other in 4 of 5
# tries, and that worker answered them all. Elsewhere (SO_REUSEPORT does not spread connections there) they share
# one socket.
OWN_SOCKETS = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def reuseport_socket(family: int, address: tuple[Any, ...]) -> socket.socket:
    """A socket bound to ``address`` with SO_REUSEPORT (not yet listening: uvicorn listens on it)."""
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP named: asyncio then sets TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    return sock


class OwnSocket:
    """What uvicorn's supervisor hands each worker it starts in place of a socket: pickled to the worker, it is
    unpickled there as a socket of that worker's own (:func:`reuseport_socket`), so a worker started again after
    one died binds its own too, and the supervisor holds no socket the kernel would give connections to."""

    def __init__(self, family: int, address: tuple[Any, ...]) -> None:
        self.family, self.address = family, address

    def __reduce__(self) -> tuple[Any, ...]:
        return reuseport_socket, (self.family, self.address)


def cmd_serve(args: argparse.Namespace) -> int:
    _check_installed()
    import uvicorn

    from tarneeb.serve.app import QuietErrors, create_app
    from tarneeb.serve.slow import BoundedConfig

    workers = args.workers or cores()
    bounds = {"header_timeout": args.header_timeout, "body_timeout": args.body_timeout}
    sock = _bind(args.host, args.port, listen=workers == 1 or not OWN_SOCKETS)
    address, family = sock.getsockname(), sock.family
    host, port = address[:2]
    if workers > 1 and OWN_SOCKETS:  # the port found free (no listener, no reuseport group): now the workers'
        sock.close()
        sock = reuseport_socket(family, address)  # held, never listening: the port stays this server's
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if args.json:
        print_json({"url": url, "host": host, "port": port, "max_upload": args.max_upload_kib * 1024,
                    "workers": workers, "header_timeout": args.header_timeout, "body_timeout": args.body_timeout})
    else:
        print(f"tarneeb serve: {url} (English {url}en/, Arabic {url}ar/); {workers} worker process"
              f"{'es' if workers > 1 else ''}; Ctrl-C stops", flush=True)
    sys.stdout.flush()
    if workers == 1:
        config = BoundedConfig(QuietErrors(create_app(max_upload=args.max_upload_kib * 1024)), **bounds, log_level="warning",
                               access_log=False, lifespan="off", timeout_graceful_shutdown=2,
                               timeout_worker_healthcheck=WORKER_HEALTHCHECK_S)
        server = uvicorn.Server(config)
        server.run(sockets=[sock])  # on Ctrl-C uvicorn stops, then raises KeyboardInterrupt: main prints one line, 130
        return 0
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    from tarneeb.serve.app import MAX_UPLOAD_ENV

    os.environ[MAX_UPLOAD_ENV] = str(args.max_upload_kib * 1024)  # read by each worker's app (worker_app)
    config = BoundedConfig("tarneeb.serve.app:worker_app", **bounds, factory=True, workers=workers, log_level="warning",
                           access_log=False, lifespan="off", timeout_graceful_shutdown=2,
                           timeout_worker_healthcheck=WORKER_HEALTHCHECK_S)
    shared: list[Any] = [OwnSocket(family, address)] if OWN_SOCKETS else [sock]
    supervisor = Multiprocess(config, sockets=shared)
    supervisor.run()  # until Ctrl-C (or SIGTERM): then it stops the workers and returns
    if any(p.exitcode == STARTUP_FAILURE for p in supervisor.processes):
        raise BadInput("a worker process failed to start; run with --workers 1 to see why")
    print("interrupted", file=sys.stderr)
    return 130


# uvicorn's supervisor kills a worker that does not answer its health check within this many seconds (its default
# is 5): a worker still importing on a loaded two-core machine took longer, and was killed and started again.
WORKER_HEALTHCHECK_S = 30


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# the bounds of tarneeb.serve.slow, repeated here so that `tarneeb serve --help` runs without the serve extra
# (tests/test_serve.py checks they are the same)
HEADER_SECONDS = 10.0
BODY_SECONDS = 60.0
KEEP_ALIVE_SECONDS = 5


def seconds_arg(text: str) -> float:
    """A bound in seconds: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < 86400:
        raise argparse.ArgumentTypeError(f"{text}: give a number of seconds above 0 (and below a day)")
    return value


def register(subparsers: Any) -> None:
    s = subparsers.add_parser(
        "serve", help="the referee, record checks and rule pages as a local web app (English and Arabic)",
        description="Start a local web app: pick rulesets and describe a situation (card picker, scores, bids) for "
                    "a cited ruling; paste or upload game records to see each divergence; read each ruleset's rules. "
                    "Needs the serve extra: pip install 'tarneeb[serve]'. Slow clients are bounded: a connection "
                    f"that has not sent a request's headers within --header-timeout (default {HEADER_SECONDS:g} s, "
                    "from when it connects or from the previous answer), or a body within --body-timeout (default "
                    f"{BODY_SECONDS:g} s after its headers), is closed (with 408 when it had begun a request); a "
                    f"connection idle between two requests is closed after {KEEP_ALIVE_SECONDS} s.")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    s.add_argument("--port", type=count_arg(0), default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    s.add_argument("--max-upload-kib", type=count_arg(1), default=2048,
                   help="largest request accepted, upload included, in KiB (default 2048)")
    s.add_argument("--header-timeout", type=seconds_arg, default=HEADER_SECONDS, metavar="S",
                   help=f"seconds a connection has to send a request's headers, from when it connects or from the "
                        f"previous answer; a connection that sends nothing is closed then too (default {HEADER_SECONDS:g})")
    s.add_argument("--body-timeout", type=seconds_arg, default=BODY_SECONDS, metavar="S",
                   help=f"seconds a request's body has to arrive in full once its headers are in (default "
                        f"{BODY_SECONDS:g})")
    s.add_argument("--workers", type=count_arg(1), default=None,
                   help="worker processes answering requests (default: one per core; 1: a single process)")
    s.add_argument("--json", action="store_true", help="print the address as one JSON object instead of a sentence")
    s.set_defaults(func=cmd_serve)
