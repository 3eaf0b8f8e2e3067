"""Bounds on slow clients for ``tarneeb serve``: a connection that sends a request's headers or body too slowly is
closed, so that held-open connections cannot pile up (uvicorn bounds only the idle time between two requests).

* headers: a connection has :data:`HEADER_SECONDS` (``serve --header-timeout``) to send a whole request line and
  headers, counted from when it connects or from the end of the previous answer on it; a connection that sends
  nothing at all is held to this bound too;
* body: once the headers are in, the request body must arrive in full within :data:`BODY_SECONDS`
  (``serve --body-timeout``): a 2 MiB upload (the default request limit) in a minute is 35 KiB a second;
* idle: between two requests, a keep-alive connection that sends nothing is closed after uvicorn's keep-alive
  time, :data:`KEEP_ALIVE_SECONDS`.

A client cut off part-way through a request is sent ``408 Request Timeout`` before the connection is closed; one
that sent nothing is closed without a word (browsers retry a request on a keep-alive connection closed so). The
bounds are per connection, kept by one timer each on the server's event loop: the server answers other requests
meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
BODY_SECONDS = 60.0
KEEP_ALIVE_SECONDS = 5
TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 38\r\n"
                  b"connection: close\r\n\r\nThe request took too long to arrive.\r\n")


class BoundedConfig(uvicorn.Config):
    """uvicorn's configuration with the two bounds (seconds) and :class:`SlowClientProtocol` as the protocol; it
    travels to the worker processes of ``--workers N`` as it is (pickled), bounds included."""

    def __init__(self, app: Any, header_timeout: float = HEADER_SECONDS, body_timeout: float = BODY_SECONDS,
                 **kw: Any) -> None:
        super().__init__(app, http=SlowClientProtocol, timeout_keep_alive=KEEP_ALIVE_SECONDS, **kw)
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout


class SlowClientProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on what the client owes: the headers of the next request, then
    its body. The phase is read from h11's state of the client (idle: headers owed; sending its body: the body
    owed; done: nothing owed while the app answers)."""

    def __init__(self, config: uvicorn.Config, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout = float(getattr(config, "header_timeout", HEADER_SECONDS))
        self.body_timeout = float(getattr(config, "body_timeout", BODY_SECONDS))
        self.owed: str | None = None  # "headers", "body" or None
        self.begun = False  # some bytes of what is owed have arrived
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self.begun = True
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _cancel(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _watch(self) -> None:
        """Start the bound of what the client now owes when that changed."""
        if self.transport is None or self.transport.is_closing():
            self._cancel()
            return
        state = self.conn.their_state
        owed = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if owed == self.owed:
            return
        self._cancel()
        self.owed, self.begun = owed, False
        if owed is not None:
            seconds = self.header_timeout if owed == "headers" else self.body_timeout
            self.deadline = self.loop.call_later(seconds, self._too_slow)

    def _too_slow(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        answered = self.cycle is not None and self.cycle.response_started and self.owed == "body"
        if (self.begun or self.owed == "body") and not answered:
            self.transport.write(TIMEOUT_ANSWER)
        self.transport.close()


__all__ = ["BODY_SECONDS", "HEADER_SECONDS", "KEEP_ALIVE_SECONDS", "BoundedConfig", "SlowClientProtocol"]
