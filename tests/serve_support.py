"""Shared by the web app's tests: a ``tarneeb serve`` subprocess on a free port, and record files with and
without a divergence (made by editing what ``tarneeb record`` writes)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Server:
    url: str  # http://127.0.0.1:PORT/
    proc: subprocess.Popen[str]

    def get(self, path: str) -> tuple[int, str]:
        """Status and text of a GET (error statuses too)."""
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as r:
                return r.status, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8")


def start_server(*extra: str) -> Server:
    """``tarneeb serve --port 0`` in a subprocess; returns once it has printed its address."""
    proc = subprocess.Popen([sys.executable, "-m", "tarneeb.cli", "serve", "--port", "0", "--json", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        err = proc.stderr.read() if proc.stderr else ""
        proc.wait(10)
        raise RuntimeError(f"tarneeb serve did not start (exit {proc.returncode}): {err}")
    srv = Server(json.loads(line)["url"], proc)
    deadline = time.monotonic() + 20
    while True:  # the socket listens before uvicorn serves: wait for the first answer
        try:
            if srv.get("/healthz")[0] == 200:
                return srv
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop(srv)
            raise RuntimeError("tarneeb serve did not answer within 20 s")
        time.sleep(0.1)


def stop(srv: Server) -> tuple[int, str]:
    """Ctrl-C the server; its exit code and standard error."""
    srv.proc.send_signal(signal.SIGINT)
    try:
        _, err = srv.proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        srv.proc.kill()
        _, err = srv.proc.communicate()
    return srv.proc.returncode, err


@contextmanager
def running(*extra: str) -> Iterator[Server]:
    srv = start_server(*extra)
    try:
        yield srv
    finally:
        if srv.proc.poll() is None:
            stop(srv)


def record_lines(tmp: Path) -> list[str]:
    """One match of card-kings-41 as ``tarneeb record`` writes it (seed 1)."""
    from tarneeb.cli import main

    out = tmp / "games.jsonl"
    assert main(["record", "--ruleset", "card-kings-41", "--matches", "1", "--seed", "1", "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8").splitlines()


def divergent_record(tmp: Path) -> tuple[Path, int, int]:
    """The record with one trick's winner changed: (file, its line number, the hand number)."""
    lines = record_lines(tmp)
    for i, ln in enumerate(lines):
        h = json.loads(ln)
        if h.get("type") == "hand" and h.get("tricks"):
            h["tricks"][0]["winner"] = (h["tricks"][0]["winner"] + 1) % 4
            lines[i] = json.dumps(h)
            path = tmp / "edited.jsonl"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return path, i + 1, int(h["hand"])
    raise AssertionError("the record has no played hand")


def follow_on_record(tmp: Path) -> tuple[Path, int]:
    """The record with one bid changed to 0 (out of range): the bid divergence, the redeal that follows from it
    (the bids no longer reach the total) and the scoring it changes, with its per-seat table. (file, line)."""
    lines = record_lines(tmp)
    for i, ln in enumerate(lines):
        h = json.loads(ln)
        if h.get("type") == "hand" and h.get("tricks") and i > 2:
            h["bids"][0][1] = "0"
            lines[i] = json.dumps(h)
            path = tmp / "follow-on.jsonl"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return path, i + 1
    raise AssertionError("the record has no played hand")


def mutant_record(tmp: Path) -> Path:
    """An ERAM match played by our engine with a planted bug (a bid made exactly scored as failed)."""
    import orjson

    from tarneeb import load_rules
    from tarneeb.play.simulate import play_match
    from tarneeb.records import match_dicts
    from tarneeb_proofs.mutants import applied

    with applied("engine-made-exactly-fails"):
        m = play_match(load_rules("eram-41"), "diag", 0, "random", 60).match
        lines = [orjson.dumps(d) for d in match_dicts(m, "m:0")]
    path = tmp / "mutant.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@contextmanager
def app_client(**app_args: Any) -> Iterator[Any]:
    """A Starlette TestClient of ``create_app(**app_args)``, server errors answered as pages (not raised), its
    deprecation warnings silenced (starlette names httpx's successor; the client works the same)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from tarneeb.serve.app import create_app

        with TestClient(create_app(**app_args), raise_server_exceptions=False) as c:
            yield c
