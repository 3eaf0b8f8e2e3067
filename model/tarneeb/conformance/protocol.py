"""Client side of the engine line protocol (``spec/protocol/README.md``).

An external engine is a child process that reads one JSON object per line on
stdin and answers each with one JSON object per line on stdout. This module
starts it, talks to it with a timeout on every answer, and always cleans it up
(the child runs in its own session; on exit, error or Ctrl-C its whole process
group is terminated, then killed).

Problems with the engine are :class:`EngineFailure` (a :class:`TarneebError`):
a timeout, an engine that exits or closes its output, and output that is not a
JSON object are each reported with what was sent and the last lines the engine
wrote to stderr.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from collections import deque
from types import TracebackType
from typing import Any

import orjson

from tarneeb.errors import EngineFailure, EngineRejected

PROTOCOL_VERSION = 2  # the version of spec/protocol/README.md this driver speaks (spec/protocol/CHANGELOG.md)
# what each version after the first changed, as `vectors run` tells an engine of an older one
PROTOCOL_CHANGES: dict[int, str] = {
    2: "perft's edge cases: depth 0 and a position where no card can be played (bidding, naming trump, the deal "
       "over) count 1, and a sequence that ends the deal before the depth is one leaf",
}
PERFT_CLAUSE = "protocol.perft"  # what a perft vector cites: the definition of the count, not a rule of the game


def engine_protocol(hello: dict[str, Any]) -> int:
    """The protocol version an engine's ``hello`` answer names (1 when it names none: the first text had the
    field but no versions after it)."""
    v = hello.get("protocol", 1)
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else 1


_EOF = object()


class Engine:
    """A running external engine. Use as a context manager."""

    def __init__(self, command: str, timeout: float = 5.0, start_timeout: float | None = None) -> None:
        self.command = command
        self.timeout = timeout
        argv = shlex.split(command)
        if not argv:
            raise EngineFailure("not started", command, "the engine command is empty")
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1, start_new_session=True,
            )
        except OSError as e:
            raise EngineFailure("not started", command, str(e)) from None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.requests = 0
        self.hello: dict[str, Any] = {}
        try:
            self.hello = self.call({"cmd": "hello"}, timeout=start_timeout or 4 * timeout)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------ io threads
    def _read_stdout(self) -> None:
        if self.proc.stdout is None:
            raise RuntimeError("the engine process has no stdout pipe")
        try:
            for line in self.proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        if self.proc.stderr is None:
            raise RuntimeError("the engine process has no stderr pipe")
        try:
            for line in self.proc.stderr:
                self._stderr.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        """The last lines the engine wrote to stderr, as a clause to add to an error message ('' when none)."""
        tail = list(self._stderr)[-5:]
        return ("; its stderr ended with: " + " | ".join(tail)) if tail else ""

    # ------------------------------------------------------------ requests
    def request(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request and return the engine's answer (whether ok or not)."""
        line = json.dumps(req, separators=(",", ":"))
        short = line if len(line) <= 160 else line[:157] + "..."
        try:
            if self.proc.stdin is None:
                raise RuntimeError("the engine process has no stdin pipe")
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._wait_briefly()
            got0 = self._lines.get_nowait() if not self._lines.empty() else _EOF
            if isinstance(got0, str) and got0.strip():
                raise EngineFailure("garbage", self.command, f"wrote {got0.strip()[:120]!r} and exited "
                                    f"(code {self.proc.poll()}) before {short}") from None
            raise EngineFailure("crashed", self.command,
                                f"closed its input (exit code {self.proc.poll()}) at {short}{self.stderr_tail()}"
                                ) from None
        self.requests += 1
        wait = self.timeout if timeout is None else timeout
        try:
            got = self._lines.get(timeout=wait)
        except queue.Empty:
            raise EngineFailure("timeout", self.command,
                                f"no answer within {wait:g} s to {short}{self.stderr_tail()}") from None
        if got is _EOF:
            self._wait_briefly()
            code = self.proc.poll()
            what = "crashed" if code not in (None, 0) else "silent"
            raise EngineFailure(what, self.command,
                                f"closed its output (exit code {code}) instead of answering {short}"
                                f"{self.stderr_tail()}")
        if not isinstance(got, str):
            raise RuntimeError(f"the engine's reader queued {got!r}, not a line")
        text = got.strip()
        try:
            try:
                ans = orjson.loads(text)
            except orjson.JSONDecodeError:  # not for orjson (NaN, a huge integer) or not JSON: as json reads it
                ans = json.loads(text)
        except json.JSONDecodeError as e:
            raise EngineFailure("garbage", self.command,
                                f"answered {text[:120]!r} to {short}: not JSON ({e.msg})") from None
        if not isinstance(ans, dict) or not isinstance(ans.get("ok"), bool):
            raise EngineFailure("garbage", self.command,
                                f"answered {text[:120]!r} to {short}: not an object with a boolean 'ok'")
        return ans

    def call(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Like :meth:`request`, but an ``ok: false`` answer raises :class:`EngineRejected`."""
        ans = self.request(req, timeout)
        if not ans["ok"]:
            raise EngineRejected(req, str(ans.get("error", "(no reason given)")))
        return ans

    # ------------------------------------------------------------ cleanup
    def _wait_briefly(self) -> None:
        try:
            self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """Ask the engine to quit, then terminate and kill its process group; idempotent."""
        p = self.proc
        if p.poll() is None:
            try:
                if p.stdin is None:
                    raise RuntimeError("the engine process has no stdin pipe")
                p.stdin.write('{"cmd":"quit"}\n')
                p.stdin.flush()
                p.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                p.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if p.poll() is not None:
                break
            try:
                if sys.platform != "win32":
                    os.killpg(p.pid, sig)
                else:  # pragma: no cover
                    p.kill()
            except (ProcessLookupError, PermissionError):
                break
            try:
                p.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                continue
        for stream in (p.stdin, p.stdout, p.stderr):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
