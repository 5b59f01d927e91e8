"""Harvest benchmark: 300 candidate URLs in 3 sections on a local web with simulated latency.

A server process on 127.0.0.1 plays 8 hosts (ports) and serves 20-60 KB articles (85%), hard
404s (5%), soft-404s (5%) and paywalled teasers (5%), every response delayed by --latency-ms.
The candidates come from a Sources.md-style list (one heading per section, link text as the
search title), so no API is involved: what is timed is the gate (preflight, fetch, page rules,
title check), main-text extraction and corpus assembly. Run 1 starts from an empty cache
(cold); run 2 reuses it (warm). Targets: cold < 5 s, warm < 1 s.

    python bench/harvest_bench.py [--urls 300] [--latency-ms 50] [--workers N] [--cli]
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import multiprocessing
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ["market", "policy", "freight", "river", "climate", "budget", "harbour", "senate", "tariff", "ledger", "census", "pension", "canal", "treaty", "battery", "subsidy", "migration", "voltage", "estuary", "harvest", "forecast", "municipal", "regulator", "haulage"]
KINDS = [("ok", 85), ("notfound", 5), ("soft404", 5), ("paywall", 5)]
SECTIONS = ("market", "competition", "regulation")
SERVE_PAGES = 2000


def kind_of(page: int) -> str:
    r = random.Random(page * 7919).randrange(100)
    for kind, weight in KINDS:
        if r < weight:
            return kind
        r -= weight
    return "ok"


def title_of(page: int) -> str:
    rng = random.Random(page)
    return " ".join(rng.choice(WORDS) for _ in range(5)).capitalize() + f" report {page}"


@functools.cache
def html_of(page: int) -> tuple[int, str]:
    kind, title, rng = kind_of(page), title_of(page), random.Random(page + 1)
    if kind == "notfound":
        return 404, "<html><head><title>404 Not Found</title></head><body>Not Found</body></html>"
    if kind == "soft404":
        return 200, ("<html><head><title>Page not found</title></head><body><h1>Page not found</h1>"
                     "<p>Sorry, the page you are looking for does not exist.</p></body></html>")
    size = 20_000 + rng.randrange(40_000)
    paras, total = [], 0
    while total < size:
        para = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(40, 90))).capitalize() + "."
        paras.append(f"<p>{para}</p>")
        total += len(para) + 7
    head = f"<title>{title}</title><meta name='description' content='Report {page} on {title.lower()}.'>"
    if kind == "paywall":
        head += '<script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":false}</script>'
        paras = [*paras[:2], '<div class="paywall">Subscribe to continue reading.</div>']
    return 200, (f"<!doctype html><html><head>{head}</head><body><nav><a href='/'>Home</a> <a href='/about'>About</a>"
                 f"</nav><article><h1>{title}</h1>{''.join(paras)}</article><footer>Contact · Privacy</footer>"
                 "</body></html>")


def serve(ports: int, latency: float, conn: object) -> None:
    from aiohttp import web

    async def handle(request: web.Request) -> web.Response:
        await asyncio.sleep(latency)
        name = request.path.rsplit("-", 1)
        if len(name) == 2 and name[1].isdigit():
            status, body = html_of(int(name[1]))
            return web.Response(status=status, text=body, content_type="text/html")
        return web.Response(status=404, text="<html><head><title>Not Found</title></head></html>",
                            content_type="text/html")

    async def main() -> None:
        for page in range(SERVE_PAGES):  # pages are built before the clock starts: the server must not be the bottleneck
            html_of(page)
        app = web.Application()
        app.router.add_get("/{tail:.*}", handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        bound = []
        for _ in range(ports):
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            bound.append(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        conn.send(bound)  # type: ignore[attr-defined]
        await asyncio.Event().wait()

    asyncio.run(main())


def sources_md(ports: list[int], count: int) -> str:
    lines = ["# Sources"]
    for s, section in enumerate(SECTIONS):
        lines.append(f"\n## {section}\n")
        for page in range(s * count // 3, (s + 1) * count // 3):
            port = ports[page % len(ports)]
            lines.append(f"- [{title_of(page)}](http://127.0.0.1:{port}/{section}/report-{page})")
    return "\n".join(lines) + "\n"


def run(workdir: Path, sources: Path, workers: int | None, cli: bool, select: str = "") -> tuple[float, dict[str, object]]:
    cache, corpus = workdir / "cache.sqlite", workdir / "corpus.json"
    if cli:
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "citecheck", "harvest", "--urls", str(sources), "-o", str(corpus),
                               "--cache", str(cache), "--allow", "127.0.0.1", "--ignore", "U004,C005", "-q"],
                              capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        return wall, {"exit": proc.returncode, "kept": len(__import__("json").loads(corpus.read_text()))}
    from citecheck.config import build
    from citecheck.harvest import harvest

    raw: dict[str, object] = {"ignore": ["U004", "C005"], "fetch": {"allow": ["127.0.0.1"], "cache": str(cache)}}
    if select:
        raw["select"] = select
    config = build(raw)
    started, main_cpu, workers_cpu = time.perf_counter(), time.process_time(), _children_cpu()
    result = harvest(None, urls=str(sources), config=config, extract_workers=workers)
    wall = time.perf_counter() - started
    keys = ("candidates", "fetched", "from_cache", "kept", "rejected", "extracted")
    stats: dict[str, object] = {k: result.stats[k] for k in keys}
    stats["cpu_main_s"] = round(time.process_time() - main_cpu, 2)
    stats["cpu_workers_s"] = round(_children_cpu() - workers_cpu, 2)  # pool workers, reaped at the end of the run
    return wall, stats


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=300)
    parser.add_argument("--latency-ms", type=float, default=50)
    parser.add_argument("--ports", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None, help="extraction processes (default: cores, max 4)")
    parser.add_argument("--cli", action="store_true", help="time the citecheck CLI (includes interpreter start-up)")
    parser.add_argument("--select", default="", help="only these rules (e.g. U,H001,H002 to time the pipeline itself)")
    args = parser.parse_args()
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=serve, args=(args.ports, args.latency_ms / 1000, child), daemon=True)
    server.start()
    ports = parent.recv()
    import os

    print(f"{args.urls} URLs, {args.latency_ms:g} ms latency, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} (wall time is only meaningful on an idle machine)", flush=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            sources = work / "Sources.md"
            sources.write_text(sources_md(ports, args.urls))
            for label in ("cold", "warm"):
                wall, stats = run(work, sources, args.workers, args.cli, args.select)
                print(f"{label}: {wall:.2f} s  {stats}", flush=True)
    finally:
        server.terminate()
        server.join()


if __name__ == "__main__":
    main()
