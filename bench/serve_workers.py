"""Benchmark of ``tarneeb serve --workers N``: rulings per second at a fixed concurrency, memory, /healthz while busy.

Each side is the same command, ``tarneeb serve --port 0 --workers N`` (N = 1, then 2, ...), started fresh, given
the same work: ``--requests`` POSTs of ``/en/ruling``, each a situation file of ``spec/disputes/`` (all of them, in
turn), sent by ``--concurrency`` client threads (``httpx``, one keep-alive connection each). Every answer must be
200 and carry the rulings (a page without the ruling section counts as an error, and the run fails). While the
load runs, one more thread asks ``/healthz`` every 0.2 s and records the slowest answer. The memory figure is the
resident size of the server's processes (the supervisor and its workers) after a warm-up of ``--requests`` / 4
requests and again at the end.

Printed: rulings per second for each N and their ratio to N = 1, the slowest /healthz, the memory before and
after. The load generator runs on the same machine: on 2 cores it competes with the workers, which is the same
for every N. Not a test: it prints figures.

    .venv/bin/python bench/serve_workers.py                       # workers 1 and 2, 16 clients, 600 requests
    .venv/bin/python bench/serve_workers.py --workers 1 2 --requests 10000   # the memory over 10,000 requests
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


def _load(url: str, n: int, concurrency: int) -> tuple[float, int]:
    local = threading.local()

    def one(i: int) -> bool:
        c = getattr(local, "client", None)
        if c is None:
            c = local.client = httpx.Client(base_url=url, timeout=60)
        r = c.post("/en/ruling", data={"situation_text": SITUATIONS[i % len(SITUATIONS)]})
        return r.status_code == 200 and 'class="ruling' in r.text

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        ok = sum(pool.map(one, range(n)))
    return time.perf_counter() - t0, n - ok


def run(workers: int, requests: int, concurrency: int) -> dict[str, Any]:
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
        _load(url, max(requests // 4, concurrency), concurrency)  # warm-up: every worker imported and cached
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
        took, errors = _load(url, requests, concurrency)
        stop.set()
        h.join()
        return {"workers": workers, "requests": requests, "seconds": round(took, 2),
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
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = [run(w, a.requests, a.concurrency) for w in a.workers]
    base = rows[0]["rulings_per_s"]
    for r in rows:
        r["ratio_to_first"] = round(r["rulings_per_s"] / base, 2)
    if a.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"workers {r['workers']}: {r['rulings_per_s']} rulings/s ({r['ratio_to_first']}x), "
                  f"{r['errors']} errors, slowest /healthz {r['healthz_slowest_ms']} ms, "
                  f"memory {r['rss_kib_before'] // 1024} -> {r['rss_kib_after'] // 1024} MiB")
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
