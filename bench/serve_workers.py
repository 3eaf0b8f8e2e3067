"""Benchmark of ``tarneeb serve --workers N``: answers per second at a fixed concurrency, memory, /healthz while busy.

The server. Each side is the same command, ``tarneeb serve --port 0 --workers N`` (N = 1, then 2, ...), started
fresh and given the same work: ``--kind ruling`` POSTs ``/en/ruling`` with each situation of ``spec/disputes/`` in
turn, the whole chain explained; ``--kind records`` POSTs ``/en/records`` with one record file of ``--matches``
self-play classic matches. ``--baseline REF`` also runs commit REF's package (``git archive`` into the system's
temporary folder, put first on the server's ``PYTHONPATH``), each worker count of REF right after the same count
of this tree's, so that both see the same load; each side's ratio is to its own first worker count.

The load. ``--concurrency`` connections, kept alive, ``--requests`` answers in all after a warm-up of a quarter
as many (every worker imported and its caches filled), every request body encoded once beforehand:

* ``--client wrk`` (the default when ``wrk`` is on the PATH; Debian: ``apt-get install wrk``): one ``wrk``
  thread (C, epoll) holding every connection, its Lua script cycling the bodies; the script reads every answer
  and counts those whose status is not 200 and those without their result (the ruling section
  ``class="ruling``; the record summary's ``divergence``), and stops after ``--requests`` answers. Its CPU is a
  small fraction of the server's: the ratio is the workers'.
* ``--client python`` (the default without wrk): ``--concurrency`` threads of the standard library's
  ``http.client``, each on one connection, every answer's status and result checked the same way. On 2 cores
  its CPU is taken from the server's: a ruling is a few milliseconds of server work, about what this client
  spends on it, so its rulings ratio says more about the client than about the workers.

Either way an answer that is not 200 or lacks its result is an error, and the run fails (exit 1).

While the load runs, one more thread asks ``/healthz`` every 0.2 s, each time on a new connection (as a monitor
does: whichever worker accepts it answers), and records the slowest answer from connect to the last byte.
Memory: the resident size of the server's processes (the supervisor and its workers) after the warm-up and at
the end. The machine may be shared: each side also gives the CPUs' worth its server used (``server_cpus``, its
CPU per answer), what the load generator, the probe and this script used (``client_cpus``) and what every other
process of the machine used meanwhile (``others_cpus``: a side where that is not near 0 measured a busy machine),
and the load average before it. Not a test: it prints figures.

    .venv/bin/python bench/serve_workers.py --requests 3000                      # rulings, 1 and 2 workers
    .venv/bin/python bench/serve_workers.py --kind records --matches 80 --requests 200
    .venv/bin/python bench/serve_workers.py --requests 10000                     # the memory over 10,000 rulings
    .venv/bin/python bench/serve_workers.py --requests 3000 --baseline main      # and main's, side by side
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
SITUATIONS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "spec" / "disputes").glob("*.toml"))]
URLENCODED = "application/x-www-form-urlencoded"
BOUNDARY = "tarneeb-bench-7d1f0c2b9e"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
# what each kind POSTs where, and the bytes every good answer carries
KINDS = {"ruling": ("/en/ruling", b'class="ruling'), "records": ("/en/records", b"divergence")}

# wrk's script: the bodies (their files named one a line in the file given after --) cycled; every answer read
# and checked; after the answers asked for it stops its thread and prints "answered" (wrk itself waits out its
# -d: the bench then interrupts it), and done() prints one JSON line of the counts.
WRK_LUA = r"""
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  reqs = {}
  for name in io.lines(args[1]) do
    local f = io.open(name, "rb")
    reqs[#reqs + 1] = wrk.format("POST", args[2], {["Content-Type"] = args[5]}, f:read("*a"))
    f:close()
  end
  limit, needle, i, answered, not_200, no_result = tonumber(args[3]), args[4], 0, 0, 0, 0
  io.write("started\n")
  io.flush()
end
function request()
  i = i % #reqs + 1
  return reqs[i]
end
function response(status, headers, body)
  answered = answered + 1
  if status ~= 200 then not_200 = not_200 + 1
  elseif not string.find(body, needle, 1, true) then no_result = no_result + 1 end
  if answered == limit then
    io.write("answered\n")
    io.flush()
    wrk.thread:stop()
  end
end
function done(summary, latency, requests)
  local a, n, r = 0, 0, 0
  for _, t in ipairs(threads) do
    a, n, r = a + t:get("answered"), n + t:get("not_200"), r + t:get("no_result")
  end
  io.write(string.format('{"answered": %d, "not_200": %d, "no_result": %d, "us": %d, "socket_errors": %d, ' ..
    '"p50_ms": %.1f, "p99_ms": %.1f}\n', a, n, r, summary.duration,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def _rss_kib(pid: int) -> int:
    """Resident KiB of ``pid`` and its children."""
    out = subprocess.run(["ps", "-o", "rss=", "--pid", str(pid), "--ppid", str(pid)], capture_output=True,
                         text=True).stdout.split()
    return sum(int(x) for x in out)


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds (user and system) used so far by the processes ``pids``."""
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _machine_cpu_s() -> float:
    """CPU seconds every process of the machine has used since boot (busy time of all CPUs, /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _client_cpu_s() -> float:
    """CPU seconds of the load generators: this script (its threads: the Python client, the probe) and the wrk
    runs it has waited for."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _server_pids(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid, *(int(x) for x in out)]


def _records_text(matches: int) -> str:
    out = Path(tempfile.mkdtemp(prefix="serve-bench-")) / "games.jsonl"
    subprocess.run([sys.executable, "-m", "tarneeb.cli", "record", "--ruleset", "classic", "--matches", str(matches),
                    "--seed", "bench", "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
    return out.read_text(encoding="utf-8")


def _multipart(fields: dict[str, str], files: tuple[str, ...]) -> bytes:
    """``fields`` and empty file inputs ``files`` as a browser sends a form of ``enctype="multipart/form-data"``."""
    parts = [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()]
    parts += [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"; filename=""\r\n'
              "Content-Type: application/octet-stream\r\n\r\n\r\n" for k in files]
    return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode()


def _bodies(kind: str, matches: int, form: str) -> tuple[str, list[bytes]]:
    """The content type and each request body of ``kind``, encoded once: ``form`` multipart as the pages' forms
    send it (the paste box: the text, the empty file input, explain ticked; the record box alike), or
    urlencoded as a script may."""
    if kind == "records":
        fields, files = [{"records_text": _records_text(matches)}], ("records_file",)
    else:
        fields, files = [{"situation_text": s, "explain": "1"} for s in SITUATIONS], ("situation_file",)
    if form == "urlencoded":
        return URLENCODED, [urlencode(f).encode() for f in fields]
    return MULTIPART, [_multipart(f, files) for f in fields]


def _load_python(url: str, n: int, concurrency: int, kind: str, content_type: str,
                 bodies: list[bytes]) -> dict[str, Any]:
    """``n`` answers from ``concurrency`` threads, each on one keep-alive ``http.client`` connection."""
    path, needle = KINDS[kind]
    host = urlsplit(url)
    local = threading.local()
    headers = {"content-type": content_type}

    def one(i: int) -> bool:
        c = getattr(local, "conn", None)
        if c is None:
            c = local.conn = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port, timeout=60)
        c.request("POST", path, body=bodies[i % len(bodies)], headers=headers)
        r = c.getresponse()
        return r.status == 200 and needle in r.read()

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        ok = sum(pool.map(one, range(n)))
    return {"answered": n, "errors": n - ok, "seconds": time.perf_counter() - t0}


def _load_wrk(url: str, n: int, concurrency: int, kind: str, content_type: str, bodies_file: Path,
              script: Path) -> dict[str, Any]:
    """``n`` answers from one wrk thread holding ``concurrency`` connections (see the module's docstring); the
    time is from wrk's start to its "answered" line."""
    path, needle = KINDS[kind]
    cmd = ["wrk", "-t", "1", "-c", str(concurrency), "-d", "3600s", "--timeout", "60s", "-s", str(script), url,
           "--", str(bodies_file), path, str(n), needle.decode(), content_type]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        if not ready or proc.stdout.readline().strip() != "started":  # a script error: wrk would run out its -d
            raise SystemExit(f"wrk did not start its script: {proc.stderr.read() if proc.stderr else ''}")
        for line in proc.stdout:
            if line.strip() == "answered":
                break
        seconds = time.perf_counter() - t0
        proc.send_signal(signal.SIGINT)  # wrk sleeps out its -d after its thread stopped; interrupted, it prints
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # this script interrupted, or wrk stuck: not left running
            proc.kill()
            proc.wait()
    rows = [ln for ln in out.splitlines() if ln.startswith("{")]
    if not rows:
        raise SystemExit(f"wrk gave no counts (exit {proc.returncode}): {err or out}")
    res: dict[str, Any] = json.loads(rows[-1])
    return {"answered": n, "checked": res["answered"],  # n timed; checked: every answer read, a few after the n
            "errors": res["not_200"] + res["no_result"] + res["socket_errors"], "seconds": seconds,
            **{k: res[k] for k in ("p50_ms", "p99_ms", "not_200", "no_result", "socket_errors")}}


def _health_probe(url: str, stop: threading.Event, slowest: list[float], count: list[int]) -> None:
    """``/healthz`` every 0.2 s on a new connection until ``stop``; the slowest answer into ``slowest[0]``."""
    host = urlsplit(url)
    while not stop.is_set():
        t = time.perf_counter()
        c = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port, timeout=60)
        try:
            c.request("GET", "/healthz")
            r = c.getresponse()
            if r.status != 200 or r.read() != b"ok\n":
                raise SystemExit(f"/healthz answered {r.status}")
        finally:
            c.close()
        slowest[0] = max(slowest[0], time.perf_counter() - t)
        count[0] += 1
        stop.wait(0.2)


def _wait_healthy(url: str, within: float = 60) -> None:
    host = urlsplit(url)
    deadline = time.monotonic() + within
    while True:
        try:
            c = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port, timeout=5)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                c.close()
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"the server at {url} did not answer within {within:g} s")
        time.sleep(0.2)


def run(workers: int, requests: int, concurrency: int, kind: str, client: str, form: tuple[str, list[bytes]],
        files: tuple[Path, Path], code: tuple[str, Path | None]) -> dict[str, Any]:
    label, model = code
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if model is not None:
        env["PYTHONPATH"] = str(model) + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("TARNEEB_SPEC_DIR", None)
    load_avg = os.getloadavg()[0]
    proc = subprocess.Popen([sys.executable, "-m", "tarneeb.cli", "serve", "--port", "0", "--json", "--workers",
                             str(workers)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=model.parent if model is not None else ROOT)
    assert proc.stdout is not None
    url = json.loads(proc.stdout.readline())["url"]

    def load(n: int) -> dict[str, Any]:
        if client == "wrk":
            return _load_wrk(url, n, concurrency, kind, form[0], *files)
        return _load_python(url, n, concurrency, kind, *form)

    try:
        _wait_healthy(url)
        warm = load(max(requests // 4, concurrency))
        if warm["errors"]:
            raise SystemExit(f"{label} workers {workers}: {warm['errors']} bad answers in the warm-up: {warm}")
        rss_before = _rss_kib(proc.pid)
        slowest, probes = [0.0], [0]
        stop = threading.Event()
        h = threading.Thread(target=_health_probe, args=(url, stop, slowest, probes))
        pids = _server_pids(proc.pid)
        server0, machine0, client0, wall0 = _cpu_s(pids), _machine_cpu_s(), _client_cpu_s(), time.perf_counter()
        h.start()
        res = load(requests)
        server_cpu, machine_cpu = _cpu_s(pids) - server0, _machine_cpu_s() - machine0
        client_cpu = _client_cpu_s() - client0
        wall = time.perf_counter() - wall0
        stop.set()
        h.join()
        return {"code": label, "workers": workers, "kind": kind, "client": client, "load_avg": round(load_avg, 2),
                **res, "seconds": round(res["seconds"], 2), "answers_per_s": round(res["answered"] / res["seconds"], 1),
                "healthz_slowest_ms": round(1000 * slowest[0]), "healthz_probes": probes[0],
                "rss_kib_before": rss_before, "rss_kib_after": _rss_kib(proc.pid),
                "server_cpu_ms_per_answer": round(1000 * server_cpu / res["answered"], 2),
                "server_cpus": round(server_cpu / wall, 2), "client_cpus": round(client_cpu / wall, 2),
                "others_cpus": round((machine_cpu - server_cpu - client_cpu) / wall, 2)}
    finally:
        proc.send_signal(2)
        proc.wait(30)


def _baseline_model(ref: str) -> Path:
    """Commit ``ref``'s tree unpacked (``git archive``) under the system's temporary folder: its ``model/``."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", ref], capture_output=True, text=True,
                         check=True).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"tarneeb-serve-baseline-{sha[:12]}"
    if not (tree / "model" / "tarneeb").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha, "model", "spec"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree / "model"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--requests", type=int, default=600)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--kind", choices=list(KINDS), default="ruling",
                    help="ruling: the disputes explained (a few ms each); records: a record file of self-play "
                         "matches checked")
    ap.add_argument("--matches", type=int, default=20, help="--kind records: matches in the record file")
    ap.add_argument("--client", choices=["auto", "wrk", "python"], default="auto",
                    help="the load generator (auto: wrk when it is on the PATH, else python)")
    ap.add_argument("--form", choices=["multipart", "urlencoded"], default="multipart",
                    help="how the bodies are encoded: multipart as the pages' forms send them (default), or "
                         "urlencoded as a script may (a large record file then costs the server its decoding)")
    ap.add_argument("--baseline", metavar="REF", help="also run commit REF's package, side by side")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    client = a.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "python"
        if client == "python":
            print("wrk is not installed (Debian: apt-get install wrk): the client is Python threads on the same "
                  "cores, whose CPU is taken from the server's", file=sys.stderr)
    elif client == "wrk" and not shutil.which("wrk"):
        raise SystemExit("--client wrk: wrk is not on the PATH (Debian: apt-get install wrk)")
    form = _bodies(a.kind, a.matches, a.form)
    folder = Path(tempfile.mkdtemp(prefix="serve-bench-"))
    files = (folder / "bodies.txt", folder / "load.lua")
    for i, body in enumerate(form[1]):
        (folder / f"body{i}").write_bytes(body)
    files[0].write_text("".join(f"{folder / f'body{i}'}\n" for i in range(len(form[1]))), encoding="utf-8")
    files[1].write_text(WRK_LUA, encoding="utf-8")
    codes: list[tuple[str, Path | None]] = [("this tree", None)]
    if a.baseline:
        codes.append((a.baseline, _baseline_model(a.baseline)))
    rows = [run(w, a.requests, a.concurrency, a.kind, client, form, files, code)
            for w in a.workers for code in codes]
    for r in rows:
        first = next(x for x in rows if x["code"] == r["code"])
        r["ratio_to_first"] = round(r["answers_per_s"] / first["answers_per_s"], 2)
    if a.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            lat = f", p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms" if "p50_ms" in r else ""
            print(f"{r['code']}: workers {r['workers']} ({r['kind']}, {r['client']}, load {r['load_avg']}): "
                  f"{r['answers_per_s']} answers/s ({r['ratio_to_first']}x), {r['answered']} answers, "
                  f"{r['errors']} errors{lat}, slowest /healthz {r['healthz_slowest_ms']} ms of "
                  f"{r['healthz_probes']}, memory {r['rss_kib_before'] // 1024} -> {r['rss_kib_after'] // 1024} MiB; "
                  f"server {r['server_cpus']} CPUs, {r['server_cpu_ms_per_answer']} ms CPU an answer; "
                  f"client {r['client_cpus']} CPUs, others {r['others_cpus']} CPUs")
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
