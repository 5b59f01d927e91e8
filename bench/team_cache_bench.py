"""Team cache: R concurrent `citecheck audit` runners on one memo, with one shared PostgreSQL cache
(single-flight) vs a separate SQLite cache each. Reports wall time (all runners done), the requests
the server got (memo URLs, and the per-host sibling probes apart), the most requests one host had
in flight at once (the per-host budget: `host-concurrency`, 4 by default, counts all runners of a
team cache), and peak PostgreSQL connections.

    python bench/team_cache_bench.py --urls 500 --hosts 10 --runners 4 8 --latency-ms 50

A throw-away cluster from tests/pgcluster.py (Debian's postgresql binaries); traffic stays on
127.0.0.1: one aiohttp app on H ports, each request waits the latency.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pgcluster import Cluster, _bindir


class Web:
    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.hits: collections.Counter[str] = collections.Counter()
        self.in_flight: collections.Counter[str] = collections.Counter()
        self.peak = 0  # most requests one host (port) had in flight at once
        self.app = web.Application()
        self.app.router.add_get("/{kind}/{n}", self.page)

    async def page(self, request: web.Request) -> web.Response:
        self.hits["probe" if "citecheck-probe-" in request.path else "memo"] += 1
        host = request.host
        self.in_flight[host] += 1
        self.peak = max(self.peak, self.in_flight[host])
        try:
            await asyncio.sleep(self.latency)
        finally:
            self.in_flight[host] -= 1
        n = request.match_info["n"]
        if request.match_info["kind"] == "gone":
            return web.Response(status=404, text="gone")
        return web.Response(text=f"<html><head><title>Widget report {n}</title></head><body><p>Widget report {n}: "
                                 f"widgets grew {n} percent.</p></body></html>", content_type="text/html")


def serve(app: web.Application, hosts: int) -> list[int]:
    ports: list[int] = []
    ready = threading.Event()

    def run() -> None:
        loop = asyncio.new_event_loop()
        runner = web.AppRunner(app)
        loop.run_until_complete(runner.setup())
        for _ in range(hosts):
            site = web.TCPSite(runner, "127.0.0.1", 0)
            loop.run_until_complete(site.start())
            ports.append(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        ready.set()
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    ready.wait(30)
    return ports


def memo(path: Path, ports: list[int], urls: int) -> Path:
    lines = [f"- Widget report {k}: widgets grew {k} percent [source](http://127.0.0.1:{ports[k % len(ports)]}/"
             f"{'gone' if k % 10 == 0 else 'p'}/{k})." for k in range(urls)]
    path.write_text("# Widgets\n\n" + "\n".join(lines) + "\n")
    return path


def peak_connections(url: str, stop: threading.Event, out: list[int]) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        while not stop.is_set():
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'").fetchone()
            out.append(int(row[0]) - 1 if row else 0)  # minus this monitor
            time.sleep(0.05)


def run(site: Web, memo_path: Path, caches: list[str], pg_url: str | None) -> dict[str, float]:
    site.hits.clear()
    site.peak = 0
    stop, seen = threading.Event(), [0]
    monitor = threading.Thread(target=peak_connections, args=(pg_url, stop, seen)) if pg_url else None
    if monitor:
        monitor.start()
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "citecheck", "audit", str(memo_path), "--allow", "127.0.0.1",
                               "--format", "json", "--cache", cache], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for cache in caches]
    codes = [p.wait() for p in procs]
    wall = time.perf_counter() - started
    stop.set()
    if monitor:
        monitor.join()
    if any(code not in (0, 1) for code in codes):
        raise SystemExit(f"a runner failed: {codes} {procs[0].stderr.read() if procs[0].stderr else ''}")
    return {"wall": wall, "memo": site.hits["memo"], "probe": site.hits["probe"], "peak": max(seen),
            "host_peak": site.peak}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--urls", type=int, default=500)
    parser.add_argument("--hosts", type=int, default=10)
    parser.add_argument("--runners", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--latency-ms", type=float, default=50)
    args = parser.parse_args()
    bindir = _bindir()
    if bindir is None:
        raise SystemExit("PostgreSQL server binaries not found (apt-get install postgresql)")
    site = Web(args.latency_ms / 1000)
    ports = serve(site.app, args.hosts)
    cluster = Cluster(bindir)
    cluster.start()
    try:
        import psycopg

        from citecheck.fetch.pgschema import migrate

        with psycopg.connect(cluster.url, autocommit=True) as conn:
            migrate(conn)
        with tempfile.TemporaryDirectory() as tmp:
            memo_path = memo(Path(tmp) / "memo.md", ports, args.urls)
            print(f"| runners | cache | wall | memo-URL requests ({args.urls} distinct) | sibling probes "
                  "| most in flight to one host | peak PG connections |")
            print("|---|---|---|---|---|---|---|")
            for runners in args.runners:
                with psycopg.connect(cluster.url, autocommit=True) as conn:
                    conn.execute("TRUNCATE citecheck_pages, citecheck_extras, citecheck_leases, citecheck_host_slots, citecheck_hosts")
                shared = run(site, memo_path, [cluster.url] * runners, cluster.url)
                separate = run(site, memo_path, [str(Path(tmp) / f"r{runners}-{i}.sqlite") for i in range(runners)], None)
                for name, r in (("shared PostgreSQL", shared), ("separate SQLite", separate)):
                    peak = str(r["peak"]) if name.startswith("shared") else "-"
                    print(f"| {runners} | {name} | {r['wall']:.1f} s | {r['memo']} | {r['probe']} | {r['host_peak']} "
                          f"| {peak} |", flush=True)
    finally:
        cluster.stop()
    os._exit(0)


if __name__ == "__main__":
    main()
