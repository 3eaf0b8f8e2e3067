"""Benchmark of ``tarneeb serve --workers N``: answers per second at a fixed concurrency, memory, /healthz while busy.

Each side is the same command, ``tarneeb serve --port 0 --workers N`` (N = 1, then 2, ...), started fresh, given
the same work by ``--concurrency`` client threads (the standard library's ``http.client``, one keep-alive
connection each, every form body encoded once beforehand: the lightest client, as its CPU is taken from the
server's on the same cores), ``--requests`` in
all: ``--kind ruling`` POSTs ``/en/ruling`` with each situation of ``spec/disputes/`` in turn, the whole chain
explained; ``--kind records`` POSTs ``/en/records`` with one record file of ``--matches`` self-play classic
matches. Every answer must be 200 and carry its result (the ruling section; the record summary), else it counts
as an error and the run fails. While the load runs one more thread asks ``/healthz`` every 0.2 s and records the
slowest answer. Memory: the resident size of the server's processes (the supervisor and its workers) after a
warm-up of ``--requests`` / 4 requests, and at the end.

The load generator runs on the same machine: on 2 cores it takes CPU from the workers, the same for every N; a
ruling is a few milliseconds of server work, about what the client spends on it, so its ratio says more about
the client than about the workers, and the record check (tens of milliseconds a request) is the fairer measure
of what a second worker adds. Not a test: it prints figures.

    .venv/bin/python bench/serve_workers.py --kind records --matches 80 --requests 200
    .venv/bin/python bench/serve_workers.py --workers 1 2 --requests 10000   # the memory over 10,000 rulings
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SITUATIONS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "spec" / "disputes").glob("*.toml"))]


def _rss_kib(pid: int) -> int:
    """Resident KiB of ``pid`` and its children."""
    out = subprocess.run(["ps", "-o", "rss=", "--pid", str(pid), "--ppid", str(pid)], capture_output=True,
                         text=True).stdout.split()
    return sum(int(x) for x in out)


RECORDS: list[str] = []  # --kind records: one record file of self-play matches, made once


def _records_text(matches: int) -> str:
    import tempfile

    out = Path(tempfile.mkdtemp(prefix="serve-bench-")) / "games.jsonl"
    subprocess.run([sys.executable, "-m", "tarneeb.cli", "record", "--ruleset", "classic", "--matches", str(matches),
                    "--seed", "bench", "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
    return out.read_text(encoding="utf-8")


_BODIES: list[bytes] = []  # --kind ruling: each situation's form, encoded once (the client's work kept small)


def _load(url: str, n: int, concurrency: int, kind: str = "ruling") -> tuple[float, int]:
    """``n`` answers from ``concurrency`` threads, each on one keep-alive connection of the standard library's
    ``http.client`` (lighter than httpx: on 2 cores the client's CPU is taken from the server's); every form
    body encoded once beforehand. (time taken, errors)."""
    import http.client
    from urllib.parse import urlencode, urlsplit

    if not _BODIES:
        _BODIES.extend(urlencode({"situation_text": s, "explain": "1"}).encode() for s in SITUATIONS)
    host = urlsplit(url)
    local = threading.local()
    form = {"content-type": "application/x-www-form-urlencoded"}

    def one(i: int) -> bool:
        c = getattr(local, "conn", None)
        if c is None:
            c = local.conn = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port, timeout=60)
        if kind == "records":
            c.request("POST", "/en/records", body=RECORDS[1].encode(), headers=form)
            r = c.getresponse()
            return r.status == 200 and b"divergence" in r.read()
        c.request("POST", "/en/ruling", body=_BODIES[i % len(_BODIES)], headers=form)
        r = c.getresponse()
        return r.status == 200 and b'class="ruling' in r.read()

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        ok = sum(pool.map(one, range(n)))
    return time.perf_counter() - t0, n - ok


def run(workers: int, requests: int, concurrency: int, kind: str = "ruling") -> dict[str, Any]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "tarneeb.cli", "serve", "--port", "0", "--json", "--workers",
                             str(workers)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    url = json.loads(proc.stdout.readline())["url"]
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"workers {workers}: the server did not answer within 60 s")
            time.sleep(0.2)
        _load(url, max(requests // 4, concurrency), concurrency, kind)  # warm-up: every worker imported and cached
        rss_before = _rss_kib(proc.pid)
        slowest = [0.0]
        stop = threading.Event()

        def health() -> None:
            with httpx.Client(base_url=url, timeout=60) as c:
                while not stop.is_set():
                    t = time.perf_counter()
                    c.get("/healthz")
                    slowest[0] = max(slowest[0], time.perf_counter() - t)
                    stop.wait(0.2)

        h = threading.Thread(target=health)
        h.start()
        took, errors = _load(url, requests, concurrency, kind)
        stop.set()
        h.join()
        return {"workers": workers, "kind": kind, "requests": requests, "seconds": round(took, 2),
                "rulings_per_s": round(requests / took, 1), "errors": errors,
                "healthz_slowest_ms": round(1000 * slowest[0]), "rss_kib_before": rss_before,
                "rss_kib_after": _rss_kib(proc.pid)}
    finally:
        proc.send_signal(2)
        proc.wait(30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--requests", type=int, default=600)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--kind", choices=["ruling", "records"], default="ruling",
                    help="ruling: the disputes explained (little work per request: the client on the same cores "
                         "weighs as much as the server); records: a record file of self-play matches checked")
    ap.add_argument("--matches", type=int, default=20, help="--kind records: matches in the record file")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.kind == "records":
        from urllib.parse import urlencode

        RECORDS.append(_records_text(a.matches))
        RECORDS.append(urlencode({"records_text": RECORDS[0]}))
    rows = [run(w, a.requests, a.concurrency, a.kind) for w in a.workers]
    base = rows[0]["rulings_per_s"]
    for r in rows:
        r["ratio_to_first"] = round(r["rulings_per_s"] / base, 2)
    if a.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"workers {r['workers']} ({r['kind']}): {r['rulings_per_s']} answers/s ({r['ratio_to_first']}x), "
                  f"{r['errors']} errors, slowest /healthz {r['healthz_slowest_ms']} ms, "
                  f"memory {r['rss_kib_before'] // 1024} -> {r['rss_kib_after'] // 1024} MiB")
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
