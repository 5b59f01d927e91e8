"""Load: audit N distinct URLs spread over H loopback hosts (one port each), with bounded memory
and per-host limits respected. Reports wall time, peak RSS (GNU time) and the most concurrent
requests any one host saw.

    python bench/load_bench.py --urls 20000 --hosts 200 --host-concurrency 4 --latency-ms 20

Traffic stays on 127.0.0.1: one aiohttp app listens on H ports; each request waits the latency,
so in-flight requests overlap and per-host concurrency is observable server-side.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from aiohttp import web


class Tracker:
    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.now: dict[int, int] = defaultdict(int)
        self.peak: dict[int, int] = defaultdict(int)
        self.requests = 0

    async def handle(self, request: web.Request) -> web.Response:
        port = request.transport.get_extra_info("sockname")[1]  # type: ignore[union-attr]
        self.now[port] += 1
        self.peak[port] = max(self.peak[port], self.now[port])
        self.requests += 1
        try:
            await asyncio.sleep(self.latency)
            if "citecheck-probe" in request.path:
                return web.Response(status=404, text="<title>404 Not Found</title>", content_type="text/html")
            slug = request.path.rsplit("/", 1)[-1]
            body = f"<html><head><title>Report {slug}</title></head><body><article>" + \
                   f"<p>Report {slug} on freight markets and logistics.</p>" * 40 + "</article></body></html>"
            return web.Response(text=body, content_type="text/html")
        finally:
            self.now[port] -= 1


def serve(tracker: Tracker, hosts: int) -> tuple[list[int], asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    ports: list[int] = []
    ready = threading.Event()

    async def start() -> None:
        app = web.Application()
        app.router.add_get("/{tail:.*}", tracker.handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        for _ in range(hosts):
            site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
            await site.start()
            ports.append(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        ready.set()

    threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()), daemon=True).start()
    ready.wait(60)
    return ports, loop


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--urls", type=int, default=20000)
    ap.add_argument("--hosts", type=int, default=200)
    ap.add_argument("--host-concurrency", type=int, default=4)
    ap.add_argument("--concurrency", type=int, default=128)
    ap.add_argument("--latency-ms", type=float, default=20)
    args = ap.parse_args()
    tracker = Tracker(args.latency_ms / 1000)
    ports, _ = serve(tracker, args.hosts)
    work = Path(tempfile.mkdtemp(prefix="citecheck-load-"))
    memo = work / "memo.md"
    lines = ["# Load memo", ""]
    lines += [f"- [Report {i}](http://127.0.0.1:{ports[i % len(ports)]}/reports/report-{i})" for i in range(args.urls)]
    memo.write_text("\n".join(lines) + "\n")
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "citecheck", "audit", str(memo), "--format", "json",
           "--allow-private", "--no-cache", "--concurrency", str(args.concurrency),
           "--host-concurrency", str(args.host_concurrency), "--ignore", "U004"]
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))  # type: ignore[union-attr]
    summary = json.loads(proc.stdout)["summary"] if proc.stdout.strip() else {}
    result = {"urls": args.urls, "hosts": args.hosts, "host_concurrency": args.host_concurrency,
              "concurrency": args.concurrency, "latency_ms": args.latency_ms, "exit": proc.returncode,
              "wall_s": round(wall, 2), "peak_rss_mb": round(rss_kb / 1024, 1), "requests_seen": tracker.requests,
              "max_per_host_in_flight": max(tracker.peak.values(), default=0), "fetched": summary.get("fetched"),
              "outcomes": summary.get("outcomes"), "findings": summary.get("findings")}
    print(json.dumps(result, indent=2))
    ok = result["max_per_host_in_flight"] <= args.host_concurrency and summary.get("fetched") == args.urls
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
