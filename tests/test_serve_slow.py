"""``tarneeb serve`` bounds slow clients (tarneeb.serve.slow): connections that hold back their headers or body,
or send nothing, are closed after the bound, while the server answers other requests meanwhile."""

from __future__ import annotations

import select
import socket
import time
from urllib.parse import urlsplit

import pytest
from tests.serve_support import running, stop

pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install -e '.[serve]')")

HEADERS_S = 1.0  # the bounds the test runs the server with: small, so it runs in seconds
BODY_S = 2.0
MANY = 200


def _connect(host: str, port: int) -> socket.socket:
    s = socket.create_connection((host, port), timeout=10)
    s.setblocking(False)
    return s


def _closed(s: socket.socket, got: dict[socket.socket, bytes]) -> bool:
    """Whether the server has closed ``s``; what it sent so far is added to ``got[s]``."""
    while True:
        try:
            chunk = s.recv(4096)
        except BlockingIOError:
            return False
        except ConnectionResetError:
            return True
        if not chunk:
            return True
        got[s] = got.get(s, b"") + chunk


def test_half_open_connections_are_closed_after_the_bound_while_others_are_answered() -> None:
    with running("--workers", "1", "--header-timeout", str(HEADERS_S), "--body-timeout", str(BODY_S)) as srv:
        url = urlsplit(srv.url)
        host, port = url.hostname or "127.0.0.1", url.port or 80
        silent = [_connect(host, port) for _ in range(MANY // 4)]  # connect and send nothing
        partial = [_connect(host, port) for _ in range(MANY // 2)]  # a request line, half its headers
        for s in partial:
            s.sendall(b"GET /en/ HTTP/1.1\r\nHost: " + host.encode() + b"\r\n")
        slow_body = [_connect(host, port) for _ in range(MANY // 4)]  # all headers, 10 of 5000 bytes of body
        for s in slow_body:
            s.sendall(b"POST /en/ruling HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                      b"Content-Length: 5000\r\n\r\nkind=winne")
        trickle = _connect(host, port)  # a header byte every 0.2 s: each byte does not start the bound again
        opened = time.monotonic()
        # meanwhile the server answers others, at once
        answered = []
        while time.monotonic() - opened < HEADERS_S * 0.7:
            t0 = time.monotonic()
            status, text = srv.get("/healthz")
            answered.append(time.monotonic() - t0)
            assert status == 200 and text == "ok\n"
            trickle.send(b"X")
            time.sleep(0.2)
        assert answered and max(answered) < 0.8, answered  # at once, the slow ones held open meanwhile
        # not closed before the bound
        got: dict[socket.socket, bytes] = {}
        assert not any(_closed(s, got) for s in [*silent, *partial, *slow_body, trickle])
        # closed once past it: the header bound for those still owing headers, the body bound for the bodies
        everyone = [*silent, *partial, *slow_body, trickle]
        closed: set[socket.socket] = set()
        deadline = opened + BODY_S + 3.0
        while len(closed) < len(everyone) and time.monotonic() < deadline:
            select.select([s for s in everyone if s not in closed], [], [], 0.2)
            for s in everyone:
                if s not in closed and _closed(s, got):
                    closed.add(s)
                    if s in slow_body:
                        assert time.monotonic() - opened >= BODY_S - 0.2  # the body's bound, not the headers'
                    if s is trickle:  # its first byte's bound, not its last's
                        assert time.monotonic() - opened < HEADERS_S + 0.6
            if trickle not in closed and time.monotonic() - opened < HEADERS_S - 0.1:
                try:
                    trickle.send(b"X")
                except OSError:
                    pass
        still = [s for s in everyone if s not in closed]
        assert not still, f"{len(still)} of {len(everyone)} slow connections still open {BODY_S + 3} s on"
        assert not any(got.get(s) for s in silent)  # nothing begun: closed without a word
        cut = [s for s in [*partial, *slow_body, trickle] if not got.get(s, b"").startswith(b"HTTP/1.1 408 ")]
        assert not cut, f"{len(cut)} cut off part-way without a 408"
        assert srv.get("/healthz") == (200, "ok\n")  # and it still serves
        for s in everyone:
            s.close()
        _, err = stop(srv)
    assert "error" not in err.lower(), err  # a client cut off is no error of the server's


def test_the_bounds_are_shown_and_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from tarneeb.cli import main
    from tarneeb.cli import serve as cli_serve
    from tarneeb.serve import slow

    assert (cli_serve.HEADER_SECONDS, cli_serve.BODY_SECONDS, cli_serve.KEEP_ALIVE_SECONDS) == (
        slow.HEADER_SECONDS, slow.BODY_SECONDS, slow.KEEP_ALIVE_SECONDS)
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--header-timeout" in text and "--body-timeout" in text and "idle between two requests" in text
    with pytest.raises(SystemExit):
        main(["serve", "--header-timeout", "0"])
    assert "above 0" in capsys.readouterr().err
